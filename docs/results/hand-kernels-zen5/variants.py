#!/usr/bin/env python3
"""The convolution tile's variants (README.md, "What decided it"): prints one action list.
Usage: python3 variants.py KB RZ LAYOUT [PAD [WIDE]] > g.json
         build/worldtune measure conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu --actions g.json --no-store
KB: output channels per parallel iteration (32: 2 vectors of 16 lanes unrolled); RZ: input channels in the
reduction's inner split (1: unsplit); LAYOUT: 1 asks for W with output channels innermost; PAD: inline
(default) or root; WIDE: 1 vectorizes the KB channels as one loop instead of 16-lane vectors times an
unrolled count. `python3 variants.py 32 2 1` is conv-register-tile.json."""
import json
import sys


def schedule(kb, rz, layout, pad, wide=False):
    s = []
    if pad == "root":
        s += [["CR", "pad"], ["AN", "pad", "c", "parallel"]]
    s += [["SP", "out", "k", [kb], "auto"], ["RE", "out", ["k_1", "x", "y", "k_0", "n"]],
          ["AN", "out", "k_1", "vectorize"], ["AN", "out", "k_0", "parallel"],
          ["CA", "acc", "out", "k_0"], ["SO", "acc", ["k", "x", "y", "n"]],
          ["SP", "acc", "k", [16], "auto"], ["RE", "acc", ["k_1", "x", "y", "k_0", "n"]], ["AN", "acc", "k_1", "vectorize"],
          ["SP", "acc.u0", "k", [16], "auto"]]
    lanes = ["k"] if wide else ["k_1", "k_0"]
    if wide:
        s = s[:-1]
    if rz > 1:
        s += [["SP", "acc.u0", "r$z", [rz], "auto"],
              ["RE", "acc.u0", lanes + ["x", "r$x", "r$y", "r_z_1", "y", "r_z_0", "n"]]]
    else:
        s += [["RE", "acc.u0", lanes + ["x", "r$x", "r$y", "y", "r$z", "n"]]]
    if wide:
        s += [["AN", "acc.u0", "k", "vectorize"]]
    else:
        s += [["AN", "acc.u0", "k_1", "vectorize"], ["AN", "acc.u0", "k_0", "unroll"]]
    s += [["AN", "acc.u0", "x", "unroll"]]
    if layout:
        s += [["SO", "W", ["_3", "_0", "_1", "_2"]]]
    return s


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5, 6) or not all(a.isdigit() for a in sys.argv[1:4]):
        sys.exit("usage: variants.py KB RZ LAYOUT [inline|root [WIDE]]")
    pad = sys.argv[4] if len(sys.argv) >= 5 else "inline"
    wide = len(sys.argv) == 6 and sys.argv[5] == "1"
    print(json.dumps(schedule(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1", pad, wide)))
