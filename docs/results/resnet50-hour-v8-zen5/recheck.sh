#!/usr/bin/env bash
# Run after run.sh (2026-12-07: 38 min after it, a picks collection between them): a second
# `worldtune estimate` of the same database (estimate2.md, estimate2.log), then libtorch and oneDNN on the
# 3x3 64->64 convolution in 6 fresh processes each (libtorch_spread.jsonl: each line's timing holds the
# median, min and max of its 5 repeats). A measurement: nothing else may run.
# Usage, from the repository root: bash docs/results/resnet50-hour-v8-zen5/recheck.sh WORK OUTDIR
set -euo pipefail
WORK=${1:?usage: recheck.sh WORK OUTDIR}
OUT=${2:?usage: recheck.sh WORK OUTDIR}
WT=${WORLDTUNE:-build/worldtune}
"$WT" estimate --network resnet50 --rounds 3 --threads 2 --db "$WORK/resnet50.db" > "$OUT/estimate2.md" 2> "$OUT/estimate2.log"
spec='conv2d:N=1,C=64,H=56,W=56,K=64,R=3,S=3,pad=1,bias=1,act=relu'
for _ in 1 2 3 4 5 6; do
  "$WT" baseline "$spec" --only libtorch,onednn --threads 2 --json
done > "$OUT/libtorch_spread.jsonl"
