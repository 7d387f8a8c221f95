#!/bin/bash
# Issue 22's targets on an AMD EPYC Zen 4 (2 cores): the world model's best at 64 and 640 trials in search
# space v2 (row blocks included), re-measured beside oneDNN, OpenBLAS and libtorch. Resumable (the runs
# resume from DB). From the repository root on a quiet machine, after `bash scripts/fma_peak.sh`:
#   DB=/tmp/space-epyc.db bash docs/results/space-v2-epyc/run.sh
set -euo pipefail
DB=${DB:-space-epyc.db}; OUT=${OUT:-docs/results/space-v2-epyc}; WT=${WORLDTUNE:-build/worldtune}
SPECS=('conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu' 'dense:M=128,N=768,K=3072,bias=1'
       'matmul:M=1024,N=1024,K=1024' 'matmul:M=1023,N=1023,K=1023' 'layernorm:M=128,N=768' 'softmax:M=1536,N=128')
"$WT" compare "${SPECS[@]}" --models world/v2 --trials 64,640 --seeds 1 --rounds 2 \
  --peers onednn,openblas,libtorch --threads 2 --db "$DB" --out "$OUT/report.md"
"$WT" records export --db "$DB" --out "$OUT/records.jsonl" && gzip -f "$OUT/records.jsonl"
