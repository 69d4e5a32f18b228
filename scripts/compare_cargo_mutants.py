#!/usr/bin/env python3
"""Compare `cargo mutfuzz test` with cargo-mutants on one crate.

cargo-mutants rebuilds the crate once per mutant; `cargo mutfuzz test` builds
one schema holding every mutant.  This script runs both tools on the same
crate, times them, matches their mutants by name and compares the outcomes.

Usage:

    scripts/compare_cargo_mutants.py CRATE_DIR [--jobs N] [--mutfuzz PATH]
                                     [--workdir DIR] [--show-unmatched]

What it does:

1. Copies CRATE_DIR (without its `target/` directory) into two fresh
   directories under a new temporary directory, one per tool, so neither tool
   reuses the other's build cache and CRATE_DIR itself is never written.  If
   the crate has no Cargo.lock, one is generated once and given to both copies
   so that both tools build the same dependency versions.
2. Runs `cargo mutants --dir COPY -j N -o OUT` and then
   `cargo-mutfuzz test --manifest-path COPY/Cargo.toml -j N -o OUT`, one after
   the other (never at the same time), timing each with a monotonic wall clock.
   Each tool's console output is saved as `<tool>.log` in the work directory,
   which is kept (and printed) so the results and logs can be inspected.
3. Reads both tools' outcome lists (caught.txt, missed.txt, ... with one
   mutant per line, `file:line:col: description`) and pairs the mutants.  Two
   mutants are the same when file, line and description agree; pairing is
   tried with progressively looser keys, each only on mutants not yet paired:
     a. (file, line, column, description)
     b. (file, line, description)
     c. (file, line, description without its trailing ` in <function>`)
     d. as c, with lower-case module paths (`iter::`, `fmt::`, `serde::`)
        removed, since the tools qualify names differently;
     e. as d, also without generic arguments (`Add<T>` -> `Add`) and
        without whitespace (`b'A'..= b'F'` -> `b'A'..=b'F'`).
   Within one key, mutants are paired in column order.
4. Prints the number of mutants and the outcome counts per tool, how many are
   shared, the agreement on shared mutants, every disagreement, both wall
   times with their ratio (cargo-mutants / mutfuzz), and mutfuzz's summary
   line.  mutfuzz's `not-covered` counts as agreeing with cargo-mutants'
   `missed`: no test reaches the mutant, so no test catches it.

The mutfuzz binary is taken from --mutfuzz, else $CARGO_MUTFUZZ, else
`cargo-mutfuzz` on PATH.  A JSON report is written as `comparison.json` in the
work directory.  Requires Python 3.8+, cargo, cargo-mutants and cargo-mutfuzz.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict

# Outcome file names of each tool, mapped to outcome names.
CARGO_MUTANTS_FILES = {
    "caught.txt": "caught",
    "missed.txt": "missed",
    "timeout.txt": "timeout",
    "unviable.txt": "unviable",
}
MUTFUZZ_FILES = dict(CARGO_MUTANTS_FILES, **{"not_covered.txt": "not-covered"})

NAME_RE = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?P<desc>.*)$")
MODULE_PATH_RE = re.compile(r"(?<!\w)(?:[a-z_][a-z0-9_]*::)+(?=[A-Za-z_<])")
GENERIC_ARGS_RE = re.compile(r"(?<=[A-Za-z0-9_])<[^<>]*>")
SUMMARY_RE = re.compile(r"^\d+ mutants: .*not covered.*$")


class Mutant:
    """One mutant as named by a tool, with its outcome."""

    def __init__(self, name, outcome):
        m = NAME_RE.match(name)
        if not m:
            raise ValueError("cannot parse mutant name: %r" % name)
        self.name = name
        self.outcome = outcome
        self.file = m.group("file")
        self.line = int(m.group("line"))
        self.col = int(m.group("col"))
        self.desc = m.group("desc")

    def without_function(self):
        """The description without a trailing ` in <function>`."""
        head, sep, _tail = self.desc.rpartition(" in ")
        return head if sep else self.desc


def key_exact(m):
    return (m.file, m.line, m.col, m.desc)


def key_line(m):
    return (m.file, m.line, m.desc)


def key_no_function(m):
    return (m.file, m.line, m.without_function())


def key_no_module_paths(m):
    return (m.file, m.line, MODULE_PATH_RE.sub("", m.without_function()))


def key_loose(m):
    text = MODULE_PATH_RE.sub("", m.without_function())
    while True:
        shorter = GENERIC_ARGS_RE.sub("", text)
        if shorter == text:
            break
        text = shorter
    return (m.file, m.line, re.sub(r"\s+", "", text))


MATCH_KEYS = [
    ("file:line:col + description", key_exact),
    ("file:line + description", key_line),
    ("file:line + description without function", key_no_function),
    ("file:line + description without function or module paths", key_no_module_paths),
    ("file:line + description without function, module paths, generic arguments, spaces", key_loose),
]


def read_outcomes(directory, files):
    """Read a tool's outcome lists into a list of Mutants."""
    mutants = []
    for file_name, outcome in files.items():
        path = os.path.join(directory, file_name)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if line.strip():
                    mutants.append(Mutant(line, outcome))
    return mutants


def pair_mutants(left, right):
    """Pair mutants of the two lists; return (pairs, tier counts, unpaired left, unpaired right)."""
    left_free = set(range(len(left)))
    right_free = set(range(len(right)))
    pairs = []
    tiers = []
    for label, key in MATCH_KEYS:
        by_key_left = defaultdict(list)
        by_key_right = defaultdict(list)
        for i in left_free:
            by_key_left[key(left[i])].append(i)
        for j in right_free:
            by_key_right[key(right[j])].append(j)
        count = 0
        for k, lefts in by_key_left.items():
            rights = by_key_right.get(k)
            if not rights:
                continue
            lefts.sort(key=lambda i: (left[i].col, i))
            rights.sort(key=lambda j: (right[j].col, j))
            for i, j in zip(lefts, rights):
                pairs.append((left[i], right[j]))
                left_free.discard(i)
                right_free.discard(j)
                count += 1
        tiers.append((label, count))
    return (
        pairs,
        tiers,
        [left[i] for i in sorted(left_free)],
        [right[j] for j in sorted(right_free)],
    )


def outcomes_agree(cargo_mutants_outcome, mutfuzz_outcome):
    if cargo_mutants_outcome == mutfuzz_outcome:
        return True
    return cargo_mutants_outcome == "missed" and mutfuzz_outcome == "not-covered"


def copy_crate(src, dst):
    shutil.copytree(
        src,
        dst,
        ignore=lambda d, names: [n for n in names if n in ("target", "mutants.out", "mutants.out.old", "mutfuzz.out")
                                 and os.path.samefile(d, src)],
    )


def run_timed(argv, log_path, cwd=None):
    """Run argv with output to log_path; return (exit code, wall seconds)."""
    print("$ " + " ".join(argv), flush=True)
    with open(log_path, "w", encoding="utf-8") as log:
        start = time.monotonic()
        proc = subprocess.run(argv, cwd=cwd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        elapsed = time.monotonic() - start
    print("  exit %d after %.1fs (log: %s)" % (proc.returncode, elapsed, log_path), flush=True)
    return proc.returncode, elapsed


def tail(path, n=20):
    with open(path, encoding="utf-8", errors="replace") as f:
        return "".join(f.readlines()[-n:])


def find_mutfuzz(explicit):
    candidate = explicit or os.environ.get("CARGO_MUTFUZZ") or shutil.which("cargo-mutfuzz")
    if not candidate:
        sys.exit("cannot find cargo-mutfuzz: pass --mutfuzz PATH or set CARGO_MUTFUZZ")
    return candidate


def mutfuzz_summary_line(log_path, json_path):
    """The summary line mutfuzz printed, else one rebuilt from outcomes.json."""
    line = None
    with open(log_path, encoding="utf-8", errors="replace") as f:
        for text in f:
            # The log may hold progress-bar carriage returns.
            text = text.rstrip("\n").split("\r")[-1]
            if SUMMARY_RE.match(text):
                line = text
    if line is None and os.path.exists(json_path):
        with open(json_path, encoding="utf-8") as f:
            line = "summary: " + json.dumps(json.load(f).get("summary"))
    return line


def format_counts(mutants):
    counts = Counter(m.outcome for m in mutants)
    return ", ".join("%s %d" % (k, counts[k]) for k in sorted(counts))


def operator_kind(m):
    """A rough operator label from a description, to summarise unmatched mutants."""
    d = m.without_function()
    if d.startswith("replace ") and " -> " in d:
        return "replace function body"
    words = d.split()
    if d.startswith("replace ") and len(words) >= 4 and words[2] == "with":
        w = words[1]
        if re.match(r"^-?[0-9]", w) or w.startswith("0x") or w in ("true", "false"):
            return "replace literal"
        return "replace %s" % w
    if d.startswith("replace ") and len(words) >= 3:
        return " ".join(words[:3])
    return " ".join(words[:2])


def estimate_whole_run(crate, outcomes_json, seconds, sampled):
    """cargo-mutants' time on every mutant, from a shard's: its baseline once, and the
    rest in proportion to the mutants (those listed by `cargo mutants --list`)."""
    listed = subprocess.run(["cargo", "mutants", "--list", "--dir", crate, "--colors", "never"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                            text=True, check=True).stdout
    total = len([line for line in listed.splitlines() if line.strip()])
    baseline = 0.0
    with open(outcomes_json, encoding="utf-8") as f:
        for outcome in json.load(f).get("outcomes", []):
            if outcome.get("scenario") == "Baseline":
                baseline = sum(p.get("duration", 0.0) for p in outcome.get("phase_results", []))
    per_mutant = (seconds - baseline) / max(sampled, 1)
    return {"seconds": baseline + per_mutant * total, "mutants": total, "sampled": sampled,
            "baseline_seconds": baseline, "seconds_per_mutant": per_mutant,
            "how": "baseline %.0fs + %d mutants x %.1fs, from %d sampled" % (baseline, total, per_mutant, sampled)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("crate_dir", help="directory of the crate (with Cargo.toml) to mutate")
    parser.add_argument("--jobs", "-j", type=int, default=2, help="parallel jobs for both tools (default 2)")
    parser.add_argument("--mutfuzz", help="path of the cargo-mutfuzz binary")
    parser.add_argument("--workdir", help="empty or new directory for copies, outputs and logs "
                        "(default: a new temporary directory)")
    parser.add_argument("--show-unmatched", action="store_true",
                        help="list the mutants only one tool generated")
    parser.add_argument("--shard", metavar="K/N",
                        help="run only shard K of N of cargo-mutants' mutants (round-robin), for a "
                        "crate too large to run whole; its full time is estimated from the sample")
    parser.epilog = "Arguments after -- go to mutfuzz's test binaries (`-- --skip NAME`)."
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    test_args = argv[split + 1:]

    crate = os.path.abspath(args.crate_dir)
    if not os.path.exists(os.path.join(crate, "Cargo.toml")):
        sys.exit("%s has no Cargo.toml" % crate)
    mutfuzz = find_mutfuzz(args.mutfuzz)

    if args.workdir:
        work = os.path.abspath(args.workdir)
        os.makedirs(work, exist_ok=True)
        if os.listdir(work):
            sys.exit("work directory %s is not empty" % work)
    else:
        work = tempfile.mkdtemp(prefix="mutfuzz-compare-%s-" % os.path.basename(crate))
    print("work directory: %s" % work)

    cm_copy = os.path.join(work, "cargo-mutants", "crate")
    mf_copy = os.path.join(work, "mutfuzz", "crate")
    cm_out = os.path.join(work, "cargo-mutants", "out")
    mf_out = os.path.join(work, "mutfuzz", "out")
    copy_crate(crate, cm_copy)
    copy_crate(crate, mf_copy)
    if not os.path.exists(os.path.join(crate, "Cargo.lock")):
        # Same dependency versions for both tools.
        subprocess.run(["cargo", "generate-lockfile", "--manifest-path", os.path.join(cm_copy, "Cargo.toml")],
                       check=True, stdin=subprocess.DEVNULL)
        shutil.copy(os.path.join(cm_copy, "Cargo.lock"), os.path.join(mf_copy, "Cargo.lock"))

    jobs = str(args.jobs)
    shard = ["--shard", args.shard, "--sharding", "round-robin"] if args.shard else []
    cm_code, cm_time = run_timed(
        ["cargo", "mutants", "--dir", cm_copy, "-j", jobs, "-o", cm_out, "--colors", "never"] + shard,
        os.path.join(work, "cargo-mutants.log"),
    )
    mf_code, mf_time = run_timed(
        [mutfuzz, "test", "--manifest-path", os.path.join(mf_copy, "Cargo.toml"), "-j", jobs, "-o", mf_out]
        + (["--"] + test_args if test_args else []),
        os.path.join(work, "mutfuzz.log"),
    )

    cm_results = os.path.join(cm_out, "mutants.out")
    cm = read_outcomes(cm_results, CARGO_MUTANTS_FILES)
    mf = read_outcomes(mf_out, MUTFUZZ_FILES)
    # cargo-mutants: 0 ok, 2 missed, 3 timeout; mutfuzz: 0 ok, 2 missed/not covered, 3 timeout.
    for tool, code, log, got in (("cargo-mutants", cm_code, "cargo-mutants.log", cm),
                                 ("mutfuzz", mf_code, "mutfuzz.log", mf)):
        if code not in (0, 2, 3) or not got:
            print("\n%s failed (exit %d, %d outcomes). Last lines of its log:" % (tool, code, len(got)))
            print(tail(os.path.join(work, log)))
    if not cm or not mf:
        sys.exit(1)

    pairs, tiers, cm_only, mf_only = pair_mutants(cm, mf)
    agree = [(a, b) for a, b in pairs if outcomes_agree(a.outcome, b.outcome)]
    disagree = [(a, b) for a, b in pairs if not outcomes_agree(a.outcome, b.outcome)]

    print()
    print("crate: %s" % crate)
    print("cargo-mutants: %d mutants (%s)" % (len(cm), format_counts(cm)))
    print("mutfuzz:       %d mutants (%s)" % (len(mf), format_counts(mf)))
    print("mutfuzz summary line: %s" % mutfuzz_summary_line(os.path.join(work, "mutfuzz.log"),
                                                         os.path.join(mf_out, "outcomes.json")))
    print("shared: %d (only cargo-mutants: %d, only mutfuzz: %d)" % (len(pairs), len(cm_only), len(mf_only)))
    for label, count in tiers:
        print("  paired by %s: %d" % (label, count))
    if pairs:
        print("agreement on shared: %d/%d = %.1f%%" % (len(agree), len(pairs), 100.0 * len(agree) / len(pairs)))
    transitions = Counter((a.outcome, b.outcome) for a, b in pairs)
    print("shared outcome pairs (cargo-mutants -> mutfuzz):")
    for (a, b), n in sorted(transitions.items(), key=lambda kv: -kv[1]):
        print("  %-8s -> %-11s %5d%s" % (a, b, n, "" if outcomes_agree(a, b) else "   DISAGREE"))
    print("disagreements: %d" % len(disagree))
    for a, b in sorted(disagree, key=lambda p: (p[0].file, p[0].line, p[0].col)):
        print("  %s\n      cargo-mutants: %s   mutfuzz: %s%s"
              % (a.name, a.outcome, b.outcome, "" if a.name == b.name else "   (mutfuzz: %s)" % b.name))
    for tool, only in (("cargo-mutants", cm_only), ("mutfuzz", mf_only)):
        if args.shard and tool == "mutfuzz":
            # Every mutant outside the shard: its kinds say nothing.
            continue
        kinds = Counter(operator_kind(m) for m in only)
        print("only in %s by kind: %s" % (tool, ", ".join("%s %d" % kv for kv in kinds.most_common()) or "none"))
        if args.show_unmatched:
            for m in only:
                print("  %s  [%s]" % (m.name, m.outcome))
    print("wall time: cargo-mutants %.1fs, mutfuzz %.1fs, ratio cargo-mutants/mutfuzz %.2f"
          % (cm_time, mf_time, cm_time / mf_time if mf_time else float("inf")))
    cm_estimate = None
    if args.shard:
        cm_estimate = estimate_whole_run(cm_copy, os.path.join(cm_results, "outcomes.json"), cm_time, len(cm))
        print("cargo-mutants whole crate, estimated from the shard: %.0fs (%s); ratio cargo-mutants/mutfuzz %.0f"
              % (cm_estimate["seconds"], cm_estimate["how"], cm_estimate["seconds"] / mf_time))
    print("work directory: %s" % work)

    report = {
        "crate": crate,
        "jobs": args.jobs,
        "cargo_mutants": {"exit": cm_code, "seconds": cm_time, "mutants": len(cm),
                          "outcomes": Counter(m.outcome for m in cm), "shard": args.shard,
                          "estimated_whole": cm_estimate},
        "mutfuzz": {"exit": mf_code, "seconds": mf_time, "mutants": len(mf),
                    "outcomes": Counter(m.outcome for m in mf)},
        "shared": len(pairs),
        "agree": len(agree),
        "disagreements": [{"name": a.name, "mutfuzz_name": b.name, "cargo_mutants": a.outcome,
                           "mutfuzz": b.outcome} for a, b in disagree],
        "only_cargo_mutants": [m.name for m in cm_only],
        "only_mutfuzz": [m.name for m in mf_only],
    }
    with open(os.path.join(work, "comparison.json"), "w", encoding="utf-8") as f:
        json.dump(report, f, indent=2)


if __name__ == "__main__":
    main()
