#!/usr/bin/env python3
"""world/v8@64 and world/v6@64 over oneDNN per workload of report.md (its medians), and geometric means over
the convolutions, the dense layers and all nine. Usage: python3 docs/results/issue22-v8-zen5/ratios.py
[report.md] > docs/results/issue22-v8-zen5/ratios.txt"""
import math
import sys


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def main(path):
    conv, dense = [], []
    print("world/v8@64 and world/v6@64 over oneDNN, per workload (medians of report.md), and geometric means")
    for line in open(path):
        if line.startswith("| geomean"):
            break  # the end of the GFLOP/s table
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.split("|")[1:-1]]
        v6, v8, onednn = (float(cells[i].split()[0]) for i in (1, 2, 3))
        print(f"{cells[0]}  v8 {v8 / onednn:.3f}  v6 {v6 / onednn:.3f}  v8/v6 {v8 / v6:.3f}")
        (conv if "conv" in cells[0] else dense).append((v8 / onednn, v6 / onednn))
    for name, rows in (("9 conv and dense", conv + dense), ("5 convolutions", conv), ("4 dense layers", dense)):
        print(f"{name}: v8 {geomean([a for a, _ in rows]):.3f}  v6 {geomean([b for _, b in rows]):.3f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/results/issue22-v8-zen5/report.md")
