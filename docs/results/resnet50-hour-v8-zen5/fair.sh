#!/usr/bin/env bash
# Run after recheck.sh, with the peers' warm-up (BaselineParams::warmup_seconds, 0.25 s; docs/benchmarks.md,
# "Warm-up of the peers"): libtorch and oneDNN on the 3x3 64->64 convolution in 6 fresh processes each
# (libtorch_spread_warm.jsonl), a third `worldtune estimate` of the same database (estimate3.md,
# estimate3.log), then libtorch on issue 22's layernorm and softmax without and with the warm-up, 2
# processes each (rows_libtorch.jsonl). Written after it ran (2026-12-07). A measurement: nothing else may run.
# Usage, from the repository root: bash docs/results/resnet50-hour-v8-zen5/fair.sh WORK OUTDIR
set -euo pipefail
WORK=${1:?usage: fair.sh WORK OUTDIR}
OUT=${2:?usage: fair.sh WORK OUTDIR}
WT=${WORLDTUNE:-build/worldtune}
spec='conv2d:N=1,C=64,H=56,W=56,K=64,R=3,S=3,pad=1,bias=1,act=relu'
for _ in 1 2 3 4 5 6; do
  "$WT" baseline "$spec" --only libtorch,onednn --threads 2 --json
done > "$OUT/libtorch_spread_warm.jsonl"
"$WT" estimate --network resnet50 --rounds 3 --threads 2 --db "$WORK/resnet50.db" > "$OUT/estimate3.md" 2> "$OUT/estimate3.log"
for s in layernorm:M=128,N=768 softmax:M=1536,N=128; do
  for w in 0 0.25; do
    for _ in 1 2; do "$WT" baseline "$s" --only libtorch --threads 2 --warmup-time "$w" --json; done
  done
done > "$OUT/rows_libtorch.jsonl"
