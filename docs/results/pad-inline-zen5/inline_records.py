#!/usr/bin/env python3
"""Training-split evidence on the always-inline rule: per workload with a padding Func (`pad`: convolutions
and pools with pad > 0), random samples whose `pad` stays inlined against those that compute it (at the
root or inside the output's loops). No measuring. Bests are compared fairly between groups of different
sizes: the expected best of n samples drawn from each group, n the smaller group's size.
  python3 docs/results/pad-inline-zen5/inline_records.py [RECORDS.jsonl.gz ...]
(default: data/records-zen5-train.jsonl.gz, the Zen 5's random samples of the 250 training-split workloads)"""
import collections
import gzip
import json
import statistics
import sys
from math import comb


def expected_best(values, n):
    """The expected maximum of n values drawn without replacement from `values`."""
    v = sorted(values)
    return sum(v[i] * comb(i, n - 1) / comb(len(v), n) for i in range(n - 1, len(v)))


def pad_computed(actions):
    return any(a[0] in ("CR", "CA") and a[1] == "pad" for a in actions)


def by_workload(paths):
    groups = collections.defaultdict(lambda: {"inlined": [], "computed": []})
    for path in paths:
        with gzip.open(path, "rt") as f:
            for line in f:
                r = json.loads(line)
                if not r.get("gflops") or "pad=" not in r["spec"] or "pad=0" in r["spec"]:
                    continue
                groups[r["spec"]]["computed" if pad_computed(r["actions"]) else "inlined"].append(r["gflops"])
    return {s: g for s, g in groups.items() if len(g["inlined"]) >= 3 and len(g["computed"]) >= 3}


def main(paths):
    groups = by_workload(paths)
    print(f"records: {', '.join(paths)}")
    print("| op | workloads | inlined best faster | median ratio of expected bests | median ratio of medians | inlined share |")
    print("|---|---:|---:|---:|---:|---:|")
    for op in sorted({s.split(":")[0] for s in groups}):
        best, med, share = [], [], []
        for s, g in groups.items():
            if not s.startswith(op + ":"):
                continue
            n = min(len(g["inlined"]), len(g["computed"]))
            best.append(expected_best(g["inlined"], n) / expected_best(g["computed"], n))
            med.append(statistics.median(g["inlined"]) / statistics.median(g["computed"]))
            share.append(len(g["inlined"]) / (len(g["inlined"]) + len(g["computed"])))
        print(f"| {op} | {len(best)} | {sum(b > 1 for b in best)} | {statistics.median(best):.3f} | "
              f"{statistics.median(med):.3f} | {statistics.median(share):.2f} |")


if __name__ == "__main__":
    main(sys.argv[1:] or ["data/records-zen5-train.jsonl.gz"])
