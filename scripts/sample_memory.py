#!/usr/bin/env python3
"""Run a command and sample, every few seconds, the memory of its process tree and the
size of some directories: the soak of a command that is not `fuzz` (the soak bench,
`cargo bench -p cargo-mutfuzz --bench soak`, samples a campaign).

Usage:

    scripts/sample_memory.py --out DIR [--every SECONDS] [--dir PATH ...] -- COMMAND ...
    scripts/sample_memory.py --out DIR --replot [--dir PATH ...]

Writes DIR/samples.csv as it goes (seconds, the root's resident memory, the largest
descendant's, all descendants' summed, the number of processes, each --dir's bytes and
files), and at the end prints the peaks and the first and last quarter's means, so a
reader sees whether memory and disk grew with the run or stayed level. With matplotlib
installed it also draws DIR/memory.svg (a log scale: a build's rustc takes gigabytes, a
test process megabytes) and DIR/disk.svg; `--replot` draws them again from DIR/samples.csv
and prints its summary. Linux only (/proc).

Example, `cargo mutfuzz test` of a large crate:

    scripts/sample_memory.py --out /tmp/big --dir target/mutfuzz -- \\
        cargo mutfuzz test -j 2

The root is the command itself (`cargo`, which starts `cargo-mutfuzz`); the summary
names the largest process of each kind by its executable's name.
"""

import argparse
import csv
import os
import subprocess
import sys
import time


def children_map():
    """Each process's children, from /proc/*/stat."""
    kids = {}
    names = {}
    rss = {}
    page_kib = os.sysconf("SC_PAGE_SIZE") // 1024
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # The name is in parentheses and may hold spaces; the fields after it are fixed.
        close = stat.rfind(")")
        name = stat[stat.find("(") + 1 : close]
        fields = stat[close + 2 :].split()
        pid, ppid = int(entry), int(fields[1])
        kids.setdefault(ppid, []).append(pid)
        names[pid] = name
        rss[pid] = int(fields[21]) * page_kib
    return kids, names, rss


def tree(root, kids):
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(kids.get(pid, []))
    return out


def dir_size(path):
    total, files = 0, 0
    for base, _dirs, names in os.walk(path):
        for n in names:
            try:
                st = os.lstat(os.path.join(base, n))
            except OSError:
                continue
            total += st.st_size
            files += 1
    return total, files


def plot(out, rows, dirs):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no matplotlib: no plots (pip install matplotlib)")
        return
    t = [r["seconds"] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.plot(t, [r["root_kib"] / 1024 for r in rows], label="root")
    ax.plot(t, [r["largest_kib"] / 1024 for r in rows], label="largest descendant")
    ax.plot(t, [r["tree_kib"] / 1024 for r in rows], label="whole tree")
    ax.set_xlabel("seconds")
    ax.set_yscale("log")
    ax.set_ylabel("resident memory, MiB")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "memory.svg"), metadata={"Date": None})
    if dirs:
        fig, ax = plt.subplots(figsize=(7, 3.5))
        for i, d in enumerate(dirs):
            ax.plot(t, [r[f"dir{i}_bytes"] / 2**20 for r in rows], label=d)
        ax.set_xlabel("seconds")
        ax.set_ylabel("MiB")
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(out, "disk.svg"), metadata={"Date": None})


def summary(rows, dirs, code):
    end = rows[-1]["seconds"] if rows else 0
    print(f"{len(rows)} samples over {end} s" + ("" if code is None else f"; exit {code}"))
    if not rows:
        return
    peak = max(rows, key=lambda r: r["tree_kib"])
    print(f"peak of the whole tree: {peak['tree_kib'] / 1024:.1f} MiB at {peak['seconds']} s "
          f"({int(peak['processes'])} processes)")
    by_name = {}
    for r in rows:
        if r["largest_name"]:
            by_name[r["largest_name"]] = max(by_name.get(r["largest_name"], 0), r["largest_kib"])
    for n, k in sorted(by_name.items(), key=lambda x: -x[1]):
        print(f"largest {n}: {k / 1024:.1f} MiB")
    q = max(1, len(rows) // 4)
    for label, part in (("first quarter", rows[:q]), ("last quarter", rows[-q:])):
        def mean(key):
            return sum(r[key] for r in part) / len(part)

        line = f"{label}: root {mean('root_kib') / 1024:.1f} MiB, tree {mean('tree_kib') / 1024:.1f} MiB"
        for i, d in enumerate(dirs):
            line += f"; {d} {part[-1][f'dir{i}_bytes'] / 2**20:.1f} MiB, {int(part[-1][f'dir{i}_files'])} files at its end"
        print(line)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--every", type=float, default=2.0)
    p.add_argument("--dir", action="append", default=[])
    p.add_argument("--replot", action="store_true")
    p.add_argument("command", nargs=argparse.REMAINDER)
    a = p.parse_args()
    if a.replot:
        with open(os.path.join(a.out, "samples.csv")) as f:
            rows = [{k: v if k == "largest_name" else float(v) for k, v in r.items()} for r in csv.DictReader(f)]
        summary(rows, a.dir, None)
        plot(a.out, rows, a.dir)
        return
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not command:
        p.error("no command given (put it after --)")
    os.makedirs(a.out, exist_ok=True)
    fields = ["seconds", "root_kib", "largest_kib", "largest_name", "tree_kib", "processes"]
    for i in range(len(a.dir)):
        fields += [f"dir{i}_bytes", f"dir{i}_files"]
    rows = []
    start = time.monotonic()
    child = subprocess.Popen(command)
    with open(os.path.join(a.out, "samples.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        while True:
            done = child.poll() is not None
            kids, names, rss = children_map()
            pids = tree(child.pid, kids) if not done else []
            below = [q for q in pids if q != child.pid]
            largest = max(below, key=lambda q: rss.get(q, 0), default=None)
            row = {
                "seconds": round(time.monotonic() - start, 1),
                "root_kib": rss.get(child.pid, 0) if not done else 0,
                "largest_kib": rss.get(largest, 0) if largest else 0,
                "largest_name": names.get(largest, "") if largest else "",
                "tree_kib": sum(rss.get(q, 0) for q in pids),
                "processes": len(pids),
            }
            for i, d in enumerate(a.dir):
                row[f"dir{i}_bytes"], row[f"dir{i}_files"] = dir_size(d)
            if not done:
                rows.append(row)
                w.writerow(row)
                f.flush()
            if done:
                break
            time.sleep(a.every)
    code = child.returncode
    summary(rows, a.dir, code)
    plot(a.out, rows, a.dir)
    sys.exit(code)


if __name__ == "__main__":
    main()
