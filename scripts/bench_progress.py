#!/usr/bin/env python3
"""Tuning-phase progress of a `worldtune bench` records database, while it runs or after: no measuring.

For each model (sources "bench:<model>:seed<k>"), the geometric mean over workloads and seeds of a run's
best latency after N trials divided by the best latency any run found for that workload (1.0 = every run
found the best), over the workloads every model run on them has finished; and per workload the median
over seeds of the best latency after --trials trials, with each model's geometric-mean speedup over the
static model on those medians. These are tuning-time measurements; the bench's report re-measures each run's best side by side.

usage: scripts/bench_progress.py BENCH_DB [--at 1,16,32,64] [--trials 64] [--markdown]
"""
import argparse
import collections
import math
import sqlite3
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("db")
    ap.add_argument("--at", default="1,16,32,64", help="trial counts for the progress table")
    ap.add_argument("--trials", type=int, default=64, help="the budget of the per-workload table")
    ap.add_argument("--markdown", action="store_true", help="print the progress table alone, as markdown")
    a = ap.parse_args()
    try:
        at = [int(x) for x in a.at.split(",")]
        con = sqlite3.connect(f"file:{a.db}?mode=ro", uri=True)
        rows = con.execute("select spec, source, latency_median_s, error_kind from records order by id").fetchall()
    except (ValueError, sqlite3.Error) as e:
        sys.exit(f"bench_progress: {e}")
    runs = collections.defaultdict(list)  # (spec, model, seed) -> latencies in measurement order
    for spec, source, latency, error in rows:
        parts = source.split(":")
        if len(parts) != 3 or parts[0] != "bench" or not parts[2].startswith("seed"):
            continue
        runs[(spec, parts[1], parts[2][4:])].append(latency if error == "none" and latency > 0 else math.inf)
    if not runs:
        sys.exit(f"bench_progress: no bench runs in {a.db}")
    # A workload counts once every model run on it has finished: a run in progress would bias its column.
    full = max(at + [a.trials])
    seeds = {k[2] for k in runs}
    specs = sorted(s for s in {k[0] for k in runs}
                   if all(len(runs.get((s, k[1], seed), [])) >= full for k in runs if k[0] == s for seed in seeds))
    runs = {k: v for k, v in runs.items() if k[0] in specs}
    if not runs:
        sys.exit(f"bench_progress: no workload of {a.db} is finished yet")
    models = sorted({k[1] for k in runs}, key=lambda m: (m not in ("world", "static", "random"), m))
    best = {s: min(min(v) for k, v in runs.items() if k[0] == s) for s in specs}

    table = []
    for n in at:
        cells = []
        for m in models:
            logs = [math.log(min(v[:n]) / best[k[0]]) for k, v in runs.items() if k[1] == m and len(v) >= n]
            cells.append(f"{math.exp(sum(logs) / len(logs)):.2f} ({len(logs)})" if logs else "-")
        table.append((n, cells))
    if a.markdown:
        print("| trials | " + " | ".join(models) + " |\n|---:|" + "---:|" * len(models))
        for n, cells in table:
            print(f"| {n} | " + " | ".join(cells) + " |")
        return
    print("trials  " + "  ".join(f"{m:>16}" for m in models))
    for n, cells in table:
        print(f"{n:6d}  " + "  ".join(f"{c:>16}" for c in cells))
    print(f"\nmedian over seeds of the best latency after {a.trials} trials (us)")
    print(f"{'workload':48}" + "".join(f"{m:>15}" for m in models))
    median = {}  # (spec, model) -> median over seeds of the best after --trials
    for s in specs:
        cells = []
        for m in models:
            v = sorted(min(v[:a.trials]) for k, v in runs.items() if k[0] == s and k[1] == m and len(v) >= a.trials)
            if v:
                median[(s, m)] = v[len(v) // 2]
            cells.append(f"{median[(s, m)] * 1e6:15.1f}" if v else f"{'-':>15}")
        print(f"{s[:47]:48}" + "".join(cells))
    if any(k[1] == "static" for k in median):
        cells = []
        for m in models:
            logs = [math.log(median[(s, "static")] / median[(s, m)]) for s in specs if (s, m) in median and (s, "static") in median]
            cells.append(f"{math.exp(sum(logs) / len(logs)):.3f}x ({len(logs)})" if logs else "-")
        print(f"{'geomean speedup over static (workloads)':48}" + "".join(f"{c:>15}" for c in cells))


if __name__ == "__main__":
    main()
