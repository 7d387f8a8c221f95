#!/usr/bin/env python3
"""How often v3 and v4 draw the hand tile's shape (docs/results/hand-kernels-zen5/conv-register-tile.json)
for issue 22's 3x3 convolution. No measuring: runs `worldtune sample` (same seed for both spaces).
  python3 docs/results/space-v4-zen5/shapes.py [COUNT]"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "hand-kernels-zen5"))
from packing import CONV, coarse_shape, packing  # noqa: E402


def vector_blocks(actions):
    """The update's channel loop split into vectors (unrolled) of one vectorized vector."""
    unrolled = {a[2] for a in actions if a[0] == "AN" and a[1] == "acc.u0" and a[3] == "unroll"}
    return any(a[0] == "SP" and a[1] == "acc.u0" and a[2] == "k" and len(a[3]) >= 2 and a[3][-2] >= 2
               and f"k_{len(a[3]) - 1}" in unrolled for a in actions)


def main(count):
    print(f"issue-22 convolution, {count} valid samples per space (seed 7)")
    print("| space | W packed | W in the layout | coarse shape | and vector blocks |")
    print("|---|---:|---:|---:|---:|")
    for space in ("v3", "v4"):
        out = subprocess.run(["build/worldtune", "sample", CONV, "--count", str(count), "--seed", "7", "--space", space],
                             capture_output=True, text=True, check=True).stdout.splitlines()
        samples = [json.loads(line) for line in out]
        coarse = [s for s in samples if coarse_shape(s)]
        print(f"| {space} | {sum(packing(s) != 'none' for s in samples)} | {sum(packing(s) == 'layout' for s in samples)} "
              f"| {len(coarse)} | {sum(vector_blocks(s) for s in coarse)} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3000)
