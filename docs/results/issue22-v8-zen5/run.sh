#!/usr/bin/env bash
# Issue 22's convolutions and dense layers in search space v8 (the default since docs/results/space-v8-zen5)
# beside v6 (the default before), the shipped world model, 64 trials, SEEDS seeds (default 1), every best
# re-measured in 4 rounds with oneDNN shuffled among the schedules (`worldtune compare`). A first look at the
# list in v8 within one run, not issue 22's claim (that is at 640 trials). About 20 min for one seed on 2
# cores; resumable (compare resumes from its database). Measures: run it on a quiet machine.
# Usage, from the repository root: [SEEDS=1] bash docs/results/issue22-v8-zen5/run.sh WORKDIR [OUT]
set -euo pipefail
work=${1:?give a work folder}; out=${2:-docs/results/issue22-v8-zen5}; mkdir -p "$work" "$out"
WT=${WORLDTUNE:-build/worldtune}
SEEDS=${SEEDS:-1}
SPECS=('conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu'
       'conv2d:N=1,C=512,H=14,W=14,K=512,R=3,S=3,stride=2,pad=1,bias=1,act=relu'
       'conv2d:N=1,C=512,H=7,W=7,K=2048,R=1,S=1,bias=1'
       'conv2d:N=1,C=2048,H=7,W=7,K=512,R=1,S=1,bias=1,act=relu'
       'conv2d:N=1,C=1024,H=14,W=14,K=2048,R=1,S=1,stride=2,bias=1'
       'dense:M=128,N=2304,K=768,bias=1' 'dense:M=128,N=768,K=768,bias=1'
       'dense:M=128,N=3072,K=768,bias=1,act=gelu' 'dense:M=128,N=768,K=3072,bias=1')
"$WT" compare "${SPECS[@]}" --models world/v6,world/v8 --trials 64 --seeds "$SEEDS" --rounds 4 --threads 2 \
  --peers onednn --db "$work/compare.db" --out "$out/report.md"
"$WT" records export --db "$work/compare.db" --out "$out/records.jsonl" && gzip -f "$out/records.jsonl"
