#!/usr/bin/env python3
"""The dense layer's variant tried in README.md: `acc` at the root, the reduction split into KB-wide blocks
run outermost (serially), the NB-column tiles parallel inside them (X's block reused from L2 across tiles),
an MB-row × NB-column register tile (NB/16 vectors unrolled), W in the n-innermost layout.
Usage: python3 dense_variants.py KB NB MB > g.json
         build/worldtune measure dense:M=128,N=768,K=3072,bias=1 --actions g.json --no-store --threads 2"""
import json
import sys


def schedule(kb, nb, mb):
    return [["CR", "acc"], ["SP", "acc", "n", [16], "auto"], ["AN", "acc", "n_1", "vectorize"], ["AN", "acc", "m", "parallel"],
            ["SP", "acc.u0", "k$x", [kb], "auto"], ["SP", "acc.u0", "n", [nb // 16, 16], "auto"], ["SP", "acc.u0", "m", [mb], "guard"],
            ["RE", "acc.u0", ["n_2", "n_1", "m_1", "k_x_1", "m_0", "n_0", "k_x_0"]],
            ["AN", "acc.u0", "n_2", "vectorize"], ["AN", "acc.u0", "n_1", "unroll"], ["AN", "acc.u0", "m_1", "unroll"],
            ["AN", "acc.u0", "n_0", "parallel"],
            ["SP", "out", "n", [16], "auto"], ["AN", "out", "n_1", "vectorize"], ["AN", "out", "m", "parallel"],
            ["SO", "W", ["_1", "_0"]]]


if __name__ == "__main__":
    if len(sys.argv) != 4 or not all(a.isdigit() for a in sys.argv[1:]) or int(sys.argv[2]) % 16:
        sys.exit("usage: dense_variants.py KB NB MB (NB a multiple of 16)")
    print(json.dumps(schedule(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))))
