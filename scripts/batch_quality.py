#!/usr/bin/env python3
"""How good each model's measured batches are, trial window by trial window, from side-by-side runs.

For two configs of a val_search_knobs.sh run (or any folder of records NAME+SEED.jsonl.gz, exported with
`worldtune records export`), every trial's GFLOP/s is divided by the best either config found on that
workload and seed; per window of 16 trials the script prints the geometric mean over runs of the
window's mean, the mean of its 4 fastest and its fastest (a failed trial counts as 0).
Usage: python3 scripts/batch_quality.py DIR A,B SEEDS (e.g. docs/results/v2-late-search A,S 1,2)
"""
import collections
import gzip
import json
import math
import statistics
import sys


def runs_of(path):
    """Per workload, the GFLOP/s of its trials in measuring order."""
    records = [json.loads(line) for line in gzip.open(path, "rt")]
    runs = collections.defaultdict(list)
    for r in sorted(records, key=lambda r: r["created_at"]):
        runs[r["spec"]].append(r.get("gflops", 0.0) if r.get("error_kind") == "none" else 0.0)
    return runs


def geomean(values):
    return math.exp(statistics.mean(math.log(max(v, 1e-3)) for v in values))


def main():
    if len(sys.argv) != 4 or len(sys.argv[2].split(",")) != 2:
        sys.exit("usage: batch_quality.py DIR A,B SEEDS")
    folder, configs, seeds = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
    pairs = []  # (trials of A, trials of B, best of both)
    try:
        for seed in seeds:
            a, b = (runs_of(f"{folder}/{c}{seed}.jsonl.gz") for c in configs)
            for spec in sorted(set(a) & set(b)):
                pairs.append((a[spec], b[spec], max(a[spec] + b[spec])))
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"batch_quality: {e}")
    if not pairs:
        sys.exit("batch_quality: no workload measured by both configs")
    print(f"| trials | mean {configs[0]} | mean {configs[1]} | top-4 {configs[0]} | top-4 {configs[1]} | best {configs[0]} | best {configs[1]} |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for lo in range(0, min(len(p[0]) for p in pairs), 16):
        cells = []
        for stat in (statistics.mean, lambda w: statistics.mean(sorted(w)[-4:]), max):
            for side in (0, 1):
                cells.append(geomean([stat(p[side][lo:lo + 16]) / p[2] for p in pairs if p[2] > 0]))
        print(f"| {lo + 1}–{lo + 16} | " + " | ".join(f"{c:.3f}" for c in cells) + " |")
    print(f"\n{len(pairs)} runs per config; each trial over the best either config found on its workload and seed.")


if __name__ == "__main__":
    main()
