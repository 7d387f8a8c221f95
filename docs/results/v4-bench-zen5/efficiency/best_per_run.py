#!/usr/bin/env python3
"""Per run of the efficiency subset: the tuning-time best latency, the trial that found it, and how the
fastest static@640 schedule differs from the fastest world@64 one. No measuring; reads the committed records.
  python3 docs/results/v4-bench-zen5/efficiency/best_per_run.py"""
import collections
import gzip
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def runs_of(spec, records):
    runs = collections.defaultdict(list)
    for r in records:
        if r["spec"] == spec:
            runs[r["source"]].append(r)  # in measuring order: the records file keeps the database's order
    return runs


def fastest(records):
    ok = [(i, r) for i, r in enumerate(records) if r.get("error_kind", "none") == "none" and r["latency_median_s"] > 0]
    return min(ok, key=lambda ir: ir[1]["latency_median_s"]) if ok else (None, None)


def main():
    with gzip.open(os.path.join(HERE, "..", "records.jsonl.gz"), "rt") as f:
        records = [json.loads(line) for line in f]
    with open(os.path.join(HERE, "workloads.txt")) as f:
        specs = [line.strip() for line in f if line.strip()]
    for spec in specs:
        runs = runs_of(spec, records)
        print(f"## {spec}\n\n| run | trials | best (us) | found at trial |\n|---|---:|---:|---:|")
        for source in sorted(runs):
            i, best = fastest(runs[source])
            print(f"| {source} | {len(runs[source])} | {best['latency_median_s'] * 1e6:.1f} | {i + 1} |")
        long_runs = [r for s, rs in runs.items() if s.startswith("bench:static") and len(rs) > 64 for r in rs]
        world = [r for s, rs in runs.items() if s.startswith("bench:world:") for r in rs]
        a = {json.dumps(x) for x in fastest(long_runs)[1]["actions"]}
        b = {json.dumps(x) for x in fastest(world)[1]["actions"]}
        print("\nactions only in the fastest static@640 schedule: " + " ".join(sorted(a - b)))
        print("actions only in the fastest world@64 schedule: " + " ".join(sorted(b - a)) + "\n")


if __name__ == "__main__":
    main()
