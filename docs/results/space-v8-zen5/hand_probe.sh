#!/usr/bin/env bash
# Issue 22's 1x1 stride-2 convolution (C=1024, 14x14 -> 7x7, K=2048): its best v6 schedule from
# docs/results/issue22-v6-zen5 (v6_best.json), the same loops' shape written by hand with W in blocks of 16
# output channels and a register tile of 2 vectors x 7 pixels over the whole reduction (hand_blocks.json; a
# schedule space v8 can sample: BL, the register-fill rule on a reduction over a weight in blocks, kept whole),
# the same without the blocks (hand_plain.json), and oneDNN, in ROUNDS interleaved rounds of fresh processes
# (`worldtune measure`, `worldtune baseline --only onednn`), 2 threads. Measures: a quiet machine, ~3 min.
# Usage, from the repository root: [ROUNDS=5] bash docs/results/space-v8-zen5/hand_probe.sh > docs/results/space-v8-zen5/hand_probe.txt
set -euo pipefail
here=docs/results/space-v8-zen5
spec="conv2d:N=1,C=1024,H=14,W=14,K=2048,R=1,S=1,stride=2,bias=1"
db=$(mktemp -d)/probe.db
lscpu | grep -E "^Model name|^CPU family|^Model:" | tr -s ' '
echo "spec $spec, HL_NUM_THREADS=2, GFLOP/s of the median run"
for round in $(seq 1 "${ROUNDS:-5}"); do
  line="round $round"
  for s in v6_best hand_blocks hand_plain; do
    g=$(build/worldtune measure "$spec" --actions "$here/$s.json" --threads 2 --db "$db" | awk '/GFLOP/ {print $2}')
    line="$line  $s $g"
  done
  g=$(build/worldtune baseline "$spec" --only onednn --threads 2 | awk '$1 == "onednn" {print $4}')
  echo "$line  onednn $g"
done
