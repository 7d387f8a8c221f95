#!/usr/bin/env python3
"""The fastest ResNet-50 this machine's FMA units allow, from an estimate's subgraph table.

Counts each subgraph's multiply-adds as a direct convolution or dense layer would (2 FLOP each; pools
count 0), times its occurrences, and divides by the FMA peak that scripts/fma_peak.sh measured. Prints that
bound, and the speedup over the estimate's libtorch total that a network running at the peak would have.
Usage: peak_bound.py ESTIMATE.md PEAK_GFLOPS
"""
import re
import sys


def parse_spec(text):
    return {k: int(v) for k, v in (kv.split("=") for kv in text.split(",")) if v.lstrip("-").isdigit()}


def subgraph_flops(op, d):
    if op == "conv2d":
        stride, pad = d.get("stride", 1), d.get("pad", 0)
        out_h = (d["H"] + 2 * pad - d["R"]) // stride + 1
        out_w = (d["W"] + 2 * pad - d["S"]) // stride + 1
        return 2 * d["N"] * d["K"] * out_h * out_w * d["C"] * d["R"] * d["S"]
    if op == "dense":
        return 2 * d["M"] * d["N"] * d["K"]
    return 0


def is_stride1_3x3(d):
    """A convolution Winograd's F(m, 3x3) applies to."""
    return d["R"] == 3 and d["S"] == 3 and d.get("stride", 1) == 1


def to_ms(text):
    value, unit = text.split()
    return float(value) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[unit]


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: peak_bound.py ESTIMATE.md PEAK_GFLOPS")
    text = open(argv[1]).read()
    peak = float(argv[2])
    row = re.compile(r"^\| `(\w+):([^`]*)` \| (\d+) \| ([^|]+) \| ([^|]+) \|", re.M)
    flops = mine = theirs = winograd_ms = 0.0
    for op, args, occurrences, ours_text, libtorch_text in row.findall(text):
        n = int(occurrences)
        flops += n * subgraph_flops(op, parse_spec(args))
        mine += n * to_ms(ours_text.strip())
        theirs += n * to_ms(libtorch_text.strip())
        if op == "conv2d" and is_stride1_3x3(parse_spec(args)):
            winograd_ms += n * to_ms(ours_text.strip())
    if flops == 0:
        sys.exit("peak_bound.py: no subgraph rows in " + argv[1])
    bound_ms = flops / (peak * 1e9) * 1e3
    print(f"network: {flops / 1e9:.3f} GFLOP of direct convolutions and dense layers")
    print(f"worldtune {mine:.1f} ms ({flops / mine / 1e6:.0f} GFLOP/s, {flops / mine / 1e6 / peak:.0%} of the peak), "
          f"libtorch {theirs:.1f} ms")
    print(f"at the FMA peak ({peak} GFLOP/s): {bound_ms:.1f} ms, {theirs / bound_ms:.2f}x libtorch at most")
    print(f"worldtune's stride-1 3x3 convolutions (where Winograd would apply): {winograd_ms:.1f} ms")
    print(f"2x libtorch needs {theirs / 2:.1f} ms: {theirs / 2 / bound_ms:.0%} of the time at the peak")


if __name__ == "__main__":
    main(sys.argv)
