#!/usr/bin/env python3
"""How the v8 runs of space-v8-zen5 used weights in blocks: per workload, the share of measured schedules that
ask for a weight in blocks (a BL action) and keep a reduction whole inside the register tile, and how many of
the runs' bests (first 64 trials, as tuned) do. Reads the runs' records databases (WORK/runs/P8<seed>.db).
Usage: python3 docs/results/space-v8-zen5/blocks_share.py WORK/runs > docs/results/space-v8-zen5/blocks_share.txt"""
import collections
import glob
import json
import os
import sqlite3
import sys


def channel_extent(spec):
    """The length of the channel reduction: a convolution's input channels per group, a dense layer's K."""
    keys = dict(kv.split("=") for kv in spec.split(":", 1)[1].split(","))
    if spec.startswith("dense"):
        return int(keys["K"])
    return int(keys["C"]) // int(keys.get("groups", "1"))


def whole_reduction(spec, actions):
    """The channel reduction split by its own length: kept whole inside the register tile."""
    reduction = "k$x" if spec.startswith("dense") else "r$z"
    return any(a[0] == "SP" and a[1] == "acc.u0" and a[2] == reduction and a[3] == [channel_extent(spec)] for a in actions)


def main(runs):
    measured = collections.defaultdict(lambda: [0, 0, 0])  # spec -> [schedules, with BL, BL + whole]
    bests = collections.defaultdict(lambda: [0, 0, 0])     # spec -> [runs, best with BL, best with BL + whole]
    for db in sorted(glob.glob(os.path.join(runs, "P8*.db"))):
        con = sqlite3.connect(db)
        rows = con.execute("select spec, actions, latency_median_s from records where error_kind = 'none' order by id")
        per_spec = collections.defaultdict(list)
        for spec, actions, latency in rows:
            per_spec[spec].append((latency, json.loads(actions)))
        for spec, records in per_spec.items():
            for _, actions in records:
                blocked = bool(actions) and actions[0][0] == "BL"
                m = measured[spec]
                m[0] += 1
                m[1] += blocked
                m[2] += blocked and whole_reduction(spec, actions)
            _, best = min(records[:64], key=lambda r: r[0])
            b = bests[spec]
            b[0] += 1
            b[1] += bool(best) and best[0][0] == "BL"
            b[2] += bool(best) and best[0][0] == "BL" and whole_reduction(spec, best)
    print("workload | measured: with BL, of which whole reduction | runs' bests: with BL, of which whole reduction")
    for spec in sorted(measured):
        m, b = measured[spec], bests[spec]
        print(f"{spec} | {m[1]}/{m[0]}, {m[2]} | {b[1]}/{b[0]}, {b[2]}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: blocks_share.py WORK/runs")
    main(sys.argv[1])
