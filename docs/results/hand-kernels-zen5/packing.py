#!/usr/bin/env python3
"""README.md's packing numbers. No measuring.
  python3 docs/results/hand-kernels-zen5/packing.py records
      training-split conv and dense workloads of the Zen 5 record set: best packed against best unpacked
      sample per workload, and the median of the per-workload ratios of medians; then the issue-22
      convolution records of docs/results/space-v3-zen5 by packing kind.
  python3 docs/results/hand-kernels-zen5/packing.py samples [COUNT [SPACE ...]]
      samples of the issue-22 convolution (space v3 unless named) with the tile's coarse shape, and of those
      with the tile's small input-channel block (at most 4) too (runs `worldtune sample`)."""
import collections
import gzip
import json
import statistics
import subprocess
import sys

CONV = "conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu"


def packing(actions):
    if any(a[0] == "SO" and a[1] == "W" for a in actions):
        return "layout"
    if any(a[0] == "CH" and a[1] == "W" for a in actions):
        return "copy"
    return "none"


def records(path):
    with gzip.open(path, "rt") as f:
        return [json.loads(line) for line in f]


def training_records():
    by = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in records("data/records-zen5-train.jsonl.gz"):
        if r.get("gflops") and r["spec"].split(":")[0] in ("conv2d", "dense"):
            by[r["spec"]]["none" if packing(r["actions"]) == "none" else "packed"].append(r["gflops"])
    both = {s: d for s, d in by.items() if len(d["packed"]) >= 3 and len(d["none"]) >= 3}
    wins = sum(max(d["packed"]) > max(d["none"]) for d in both.values())
    ratios = [statistics.median(d["packed"]) / statistics.median(d["none"]) for d in both.values()]
    print(f"training-split conv/dense workloads with >= 3 packed and >= 3 unpacked samples: {len(both)}; "
          f"best packed faster: {wins}; median ratio of medians {statistics.median(ratios):.2f}")
    conv = collections.defaultdict(list)
    for r in records("docs/results/space-v3-zen5/records.jsonl.gz"):
        if r["spec"] == CONV and r.get("gflops"):
            conv[packing(r["actions"])].append(r["gflops"])
    for kind, v in sorted(conv.items()):
        print(f"issue-22 conv records, W {kind}: {len(v)}, median {statistics.median(v):.0f} GFLOP/s, max {max(v):.0f}")


def coarse_shape(actions):
    pad_computed = any(a[:2] == ["CR", "pad"] or (a[0] == "CA" and a[1] == "pad") for a in actions)
    unrolled = [a[2] for a in actions if a[0] == "AN" and a[1] == "acc.u0" and a[3] == "unroll"]
    splits = {a[2]: a[3] for a in actions if a[0] == "SP" and a[1] == "acc.u0"}
    in_tile = any(a[0] == "CA" and a[1] == "acc" for a in actions)
    return (packing(actions) == "layout" and not pad_computed and in_tile and splits.get("x") == [7]
            and any(u.startswith("x") for u in unrolled))


def small_channel_block(actions):
    return any(a[0] == "SP" and a[1] == "acc.u0" and a[2] == "r$z" and a[3][-1] <= 4 for a in actions)


def samples(count, space):
    out = subprocess.run(["build/worldtune", "sample", CONV, "--count", str(count), "--seed", "7", "--space", space],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    shaped = [a for a in map(json.loads, out) if coarse_shape(a)]
    print(f"{space} samples: {len(out)}; with the tile's coarse shape: {len(shaped)}; "
          f"and a small input-channel block: {sum(map(small_channel_block, shaped))}")


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in ("records", "samples"):
        sys.exit("usage: packing.py records | samples [COUNT]")
    if sys.argv[1] == "records":
        training_records()
    else:
        for space in sys.argv[3:] or ["v3"]:
            samples(int(sys.argv[2]) if len(sys.argv) > 2 else 3000, space)
