#!/usr/bin/env bash
# Two checks on the re-measurements of this folder's run (a measurement: nothing else may run).
#  1. Does a peer's run depress the next measurement of a schedule? The 3x3 convolution's best schedule
#     (conv-best.json, `worldtune best` of the run's records) measured in a fresh process before a peer,
#     right after it and 10 s later; 3 rounds per peer.
#  2. What does the dense layer's best schedule pay for packing W per tile? The same schedule without
#     its packing stage, on the matmul of the same shape whose B is already stored n-innermost (the layout
#     the packing produces), measured interleaved with the original, 3 rounds.
# Usage, from the repository root: bash docs/results/space-v2-zen5/measure_effects.sh > OUT.txt
set -euo pipefail
dir=$(dirname "$0")
WT=${WORLDTUNE:-build/worldtune}
conv="conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu"
gflops() { "$WT" measure "$1" --actions "$2" --no-store 2>&1 | awk '/^GFLOP/ {print $2}'; }
peer() { "$WT" baseline "$conv" --only "$1" --threads 2 2>&1 | awk -v p="$1" '$1 == p {print $4}'; }
echo "# 1. the convolution's best, GFLOP/s, around a peer"
for i in 1 2 3; do
  for p in onednn libtorch; do
    a=$(gflops "$conv" "$dir/conv-best.json"); o=$(peer "$p"); b=$(gflops "$conv" "$dir/conv-best.json")
    sleep 10; c=$(gflops "$conv" "$dir/conv-best.json")
    echo "round $i $p: before $a | $p $o | right after $b | 10 s later $c"
  done
done
echo "# 2. dense 128x768x3072: packed per tile, against the same kernel on a prepacked layout, GFLOP/s"
for i in 1 2 3; do
  a=$(gflops dense:M=128,N=768,K=3072,bias=1 "$dir/dense-best.json")
  b=$(gflops matmul:M=128,N=768,K=3072 "$dir/dense-best-unpacked-on-matmul.json")
  echo "round $i: packed per tile $a | prepacked layout $b"
done
