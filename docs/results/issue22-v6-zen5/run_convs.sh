#!/usr/bin/env bash
# A second seed on run.sh's five convolutions (the group furthest from oneDNN): the same compare on run.sh's
# database with --seeds 2, so seed 1 resumes from the store (no tuning), seed 2 is tuned, and every best of
# both seeds is re-measured in 4 new rounds beside oneDNN and libtorch (report-convs.md). About 30 min.
# Measures: a quiet machine. Usage, from the repository root, after run.sh with the same WORKDIR:
#   bash docs/results/issue22-v6-zen5/run_convs.sh WORKDIR [OUT]
set -euo pipefail
work=${1:?give the work folder of run.sh}; out=${2:-docs/results/issue22-v6-zen5}; mkdir -p "$out"
WT=${WORLDTUNE:-build/worldtune}
[[ -f "$work/compare.db" ]] || { echo "run_convs: $work/compare.db not found: run run.sh first" >&2; exit 1; }
"$WT" compare 'conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu' \
  'conv2d:N=1,C=512,H=14,W=14,K=512,R=3,S=3,stride=2,pad=1,bias=1,act=relu' \
  'conv2d:N=1,C=512,H=7,W=7,K=2048,R=1,S=1,bias=1' 'conv2d:N=1,C=2048,H=7,W=7,K=512,R=1,S=1,bias=1,act=relu' \
  'conv2d:N=1,C=1024,H=14,W=14,K=2048,R=1,S=1,stride=2,bias=1' \
  --models world/v6 --trials 64,640 --seeds 2 --rounds 4 --threads 2 --peers onednn,libtorch \
  --db "$work/compare.db" --out "$out/report-convs.md"
