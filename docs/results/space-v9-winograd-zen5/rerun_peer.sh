#!/usr/bin/env bash
# The same comparison re-measured after the oneDNN peer learned to time its own Winograd
# (convolution_winograd) beside its direct convolution and keep the fastest (run.sh's oneDNN ran direct:
# convolution_auto picked brgconv). Nothing is tuned again: compare resumes every run from the database and
# only re-measures the bests beside the peers, 3 rounds. Written before it ran. A measurement: nothing else may run.
# Usage, from the repository root: bash docs/results/space-v9-winograd-zen5/rerun_peer.sh WORK
set -euo pipefail
WORK=${1:?usage: rerun_peer.sh WORK}
OUT=docs/results/space-v9-winograd-zen5
WT=${WORLDTUNE:-build/worldtune}
SPECS="conv2d:N=1,C=64,H=56,W=56,K=64,R=3,S=3,pad=1,bias=1,act=relu conv2d:N=1,C=128,H=28,W=28,K=128,R=3,S=3,pad=1,bias=1,act=relu conv2d:N=1,C=256,H=14,W=14,K=256,R=3,S=3,pad=1,bias=1,act=relu conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu"
# shellcheck disable=SC2086
"$WT" compare $SPECS --models random/v8,random/v9,world/v8,world/v9 --trials 8,16,32,64 --seeds 1 --rounds 3 \
  --peers onednn,libtorch --threads 2 --db "$WORK/v9.db" --out "$OUT/compare-onednn-winograd.md" > "$WORK/rerun_peer.log" 2>&1
for S in $SPECS; do "$WT" baseline "$S" --only onednn --threads 2 2>&1 | tail -1; done > "$OUT/onednn-algorithms.txt"
echo rc=0
