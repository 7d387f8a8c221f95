#!/usr/bin/env bash
# Issue 22's 11 convolution, dense and matmul rows again, with the peers warmed up for at least 0.25 s
# (BaselineParams::warmup_seconds; docs/benchmarks.md, "Warm-up of the peers"). run.sh and run_seed2.sh
# warmed oneDNN and OpenBLAS up with one run; rerun_norms.sh then read oneDNN's layernorm 1.6x faster
# warmed up. `worldtune compare` resumes both seeds at 64 and 640 trials from a copy of run_seed2.sh's
# database (no new tuning) and re-measures every best in 4 new rounds beside oneDNN and OpenBLAS
# (report-warm.md); the FMA probe after it (fma_peak_warm.txt); then issue 22's targets with these rows and
# rerun_norms.sh's (targets-warm.txt). Written before it ran. A measurement: nothing else may run.
# Ran twice: first with the schedules in the rounds still warming up for one run (its outputs renamed
# *-peers: report-norms-peers.md, report-warm-peers.md, targets-warm-peers.txt, fma_peak_warm_peers.txt),
# then with the schedules warmed up as long as the peers (side_by_side_measure, since 2026-12-07, later).
# Usage, from the repository root: bash docs/results/issue22-v8full-zen5/rerun_warm.sh WORK_OF_RUN_SH COPY_DIR
set -euo pipefail
src=${1:?usage: rerun_warm.sh WORK_OF_RUN_SH COPY_DIR}; work=${2:?usage: rerun_warm.sh WORK_OF_RUN_SH COPY_DIR}
out=docs/results/issue22-v8full-zen5; WT=${WORLDTUNE:-build/worldtune}
mkdir -p "$work"; [[ -f "$work/compare.db" ]] || cp "$src/compare.db" "$work/compare.db"
SPECS=('conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu'
       'conv2d:N=1,C=512,H=14,W=14,K=512,R=3,S=3,stride=2,pad=1,bias=1,act=relu'
       'conv2d:N=1,C=512,H=7,W=7,K=2048,R=1,S=1,bias=1'
       'conv2d:N=1,C=2048,H=7,W=7,K=512,R=1,S=1,bias=1,act=relu'
       'conv2d:N=1,C=1024,H=14,W=14,K=2048,R=1,S=1,stride=2,bias=1'
       'dense:M=128,N=2304,K=768,bias=1' 'dense:M=128,N=768,K=768,bias=1'
       'dense:M=128,N=3072,K=768,bias=1,act=gelu' 'dense:M=128,N=768,K=3072,bias=1'
       'matmul:M=1024,N=1024,K=1024' 'matmul:M=1023,N=1023,K=1023')
"$WT" compare "${SPECS[@]}" --models world/v8 --trials 64,640 --seeds 2 --rounds 4 --threads 2 \
  --peers onednn,openblas --db "$work/compare.db" --out "$out/report-warm.md"
bash scripts/fma_peak.sh 2 5 > "$out/fma_peak_warm.txt"
python3 docs/results/space-v2-epyc/targets.py "$out/report.md" "$out/fma_peak.txt" "$out/report-warm.md" \
  "$out/report-norms.md" > "$out/targets-warm.txt"
