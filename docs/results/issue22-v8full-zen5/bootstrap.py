#!/usr/bin/env python3
"""A bootstrap 95% interval, over the workloads, on the geometric mean of a model's ratios to oneDNN in a
targets.py output (the conv, dense and matmul rows under the model's line): how much the "over oneDNN"
figure leans on which workloads are in the list. 10,000 resamples, seed 1. Usage:
python3 docs/results/issue22-v8full-zen5/bootstrap.py [TARGETS] [MODEL] > docs/results/issue22-v8full-zen5/bootstrap.txt"""
import math
import random
import re
import sys


def ratios(path, model):
    """The conv, dense and matmul rows' ratios to oneDNN under MODEL's line of a targets.py output."""
    try:
        text = open(path).read()
    except OSError as e:
        sys.exit(f"bootstrap: {e}")
    if f"{model}:" not in text:
        sys.exit(f"bootstrap: {path}: no line for {model}")
    block = text.split(f"{model}:", 1)[1].split("\nworld", 1)[0]
    return [float(m.group(1)) for line in block.splitlines() if re.match(r"  (conv2d|dense|matmul):", line)
            for m in [re.search(r"([0-9.]+) of onednn", line)] if m]


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def main(argv):
    path = argv[1] if len(argv) > 1 else "docs/results/issue22-v8full-zen5/targets-2seeds.txt"
    model = argv[2] if len(argv) > 2 else "world/v8@640"
    rs = ratios(path, model)
    if not rs:
        sys.exit(f"bootstrap: {path}: no conv, dense or matmul rows against oneDNN for {model}")
    rng = random.Random(1)
    means = sorted(geomean([rng.choice(rs) for _ in rs]) for _ in range(10000))
    print(f"{model} over oneDNN, {len(rs)} conv/dense/matmul workloads of {path}: geometric mean {geomean(rs):.3f}, "
          f"bootstrap 95% interval over the workloads {means[250]:.3f}-{means[9749]:.3f}")


if __name__ == "__main__":
    main(sys.argv)
