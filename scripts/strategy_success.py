#!/usr/bin/env python3
"""Success counts of the input strategies on one example: for each configuration and
seed, one `cargo mutfuzz fuzz --trials N` campaign on a fresh corpus; a run succeeds
for a function when it killed a mutant in that function (so an input got past the
conditions guarding it).

    scripts/strategy_success.py examples/magic-command process --trials 3000 \
        --seeds 8 --function secret --function checksum

Configurations are those of `cargo mutfuzz eval --input-strategies` (havoc with no
dictionary, dictionary, compare, target-types, all) and dictionary with type targeting. Equal trials, not equal time.
"""
import argparse, json, os, shutil, subprocess, sys, tempfile

CONFIGS = [
    ("havoc", ["--dictionary", "0", "--compare", "0"]),
    ("dictionary", ["--dictionary", "0.1", "--compare", "0"]),
    ("compare", ["--dictionary", "0", "--compare", "0.2"]),
    ("target-types", ["--dictionary", "0", "--compare", "0", "--target-types"]),
    ("dict+types", ["--dictionary", "0.1", "--compare", "0", "--target-types"]),
    ("dict+compare", ["--dictionary", "0.1", "--compare", "0.2"]),
    ("all", ["--dictionary", "0.1", "--compare", "0.2", "--target-types"]),
]

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("crate")
    ap.add_argument("target")
    ap.add_argument("--trials", type=int, default=3000)
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--function", action="append", required=True)
    ap.add_argument("--only", action="append", help="run only these configurations")
    ap.add_argument("--cli", default=os.environ.get("CARGO_MUTFUZZ", "cargo-mutfuzz"))
    a = ap.parse_args()
    cli = [a.cli, "mutfuzz"]
    out = subprocess.run(cli + ["mutants", "--json"], cwd=a.crate, capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    mutants = data if isinstance(data, list) else data["mutants"]
    ids = {f: {m["id"] for m in mutants if m["function"] == f} for f in a.function}
    state_root = os.path.join(a.crate, "target", "mutfuzz", a.target)
    tmp = tempfile.mkdtemp(prefix="strategy-success-")
    print(f"{a.trials} trials per run, seeds 0..{a.seeds - 1}; a run succeeds for a function when it kills a mutant in it")
    print(f"{'config':<14}" + "".join(f"{f:>12}" for f in a.function) + f"{'killed (mean)':>16}")
    for name, args in CONFIGS:
        if a.only and name not in a.only:
            continue
        wins = {f: 0 for f in a.function}
        killed_total = 0
        for seed in range(a.seeds):
            corpus = os.path.join(tmp, name, str(seed))
            cmd = cli + ["fuzz", a.target, "--trials", str(a.trials), "--seed", str(seed), "--corpus", corpus] + args
            subprocess.run(cmd, cwd=a.crate, capture_output=True, text=True, check=True)
            state = [d for d in os.listdir(state_root) if d.startswith("corpus-")]
            # The state of a campaign on another corpus: the newest one is this run's.
            state = max((os.path.join(state_root, d) for d in state), key=os.path.getmtime)
            killed = set()
            with open(os.path.join(state, "kills.jsonl")) as f:
                killed = {json.loads(line)["mutant"] for line in f if line.strip()}
            killed_total += len(killed)
            for f in a.function:
                wins[f] += bool(killed & ids[f])
            shutil.rmtree(state)
        print(f"{name:<14}" + "".join(f"{wins[f]:>9}/{a.seeds:<2}" for f in a.function) + f"{killed_total / a.seeds:>16.1f}")
    shutil.rmtree(tmp)

if __name__ == "__main__":
    sys.exit(main())
