#!/usr/bin/env bash
# A second seed on the 11 convolution, dense and matmul workloads of run.sh (issue 22's "≥ 1.0× of oneDNN"
# row read 1.012× on one seed, within the spread between seeds that issue22-v6-zen5 saw). `worldtune compare`
# with --seeds 2 on run.sh's database: seed 1 is resumed from the store, seed 2 tuned (640 trials), and both
# bests of each workload re-measured in 4 new rounds beside oneDNN and OpenBLAS (report-2seeds.md). Then
# issue 22's targets with these rows in place of run.sh's (targets-2seeds.txt; every ratio within one run).
# A claim run: nothing here chooses a setting. About 55 min on 2 cores; resumable. Measures: run it on a
# quiet machine. Usage, from the repository root (WORKDIR: run.sh's):
#   bash docs/results/issue22-v8full-zen5/run_seed2.sh WORKDIR [OUT]
set -euo pipefail
work=${1:?give the work folder of run.sh}; out=${2:-docs/results/issue22-v8full-zen5}
[[ -f "$work/compare.db" ]] || { echo "run_seed2: $work/compare.db not found: run run.sh first" >&2; exit 2; }
WT=${WORLDTUNE:-build/worldtune}
SPECS=('conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu'
       'conv2d:N=1,C=512,H=14,W=14,K=512,R=3,S=3,stride=2,pad=1,bias=1,act=relu'
       'conv2d:N=1,C=512,H=7,W=7,K=2048,R=1,S=1,bias=1'
       'conv2d:N=1,C=2048,H=7,W=7,K=512,R=1,S=1,bias=1,act=relu'
       'conv2d:N=1,C=1024,H=14,W=14,K=2048,R=1,S=1,stride=2,bias=1'
       'dense:M=128,N=2304,K=768,bias=1' 'dense:M=128,N=768,K=768,bias=1'
       'dense:M=128,N=3072,K=768,bias=1,act=gelu' 'dense:M=128,N=768,K=3072,bias=1'
       'matmul:M=1024,N=1024,K=1024' 'matmul:M=1023,N=1023,K=1023')
"$WT" compare "${SPECS[@]}" --models world/v8 --trials 64,640 --seeds 2 --rounds 4 --threads 2 \
  --peers onednn,openblas --db "$work/compare.db" --out "$out/report-2seeds.md"
bash scripts/fma_peak.sh 2 5 > "$out/fma_peak_seed2.txt"
"$WT" records export --db "$work/compare.db" --out "$out/records.jsonl" && gzip -f "$out/records.jsonl"
python3 docs/results/space-v2-epyc/targets.py "$out/report.md" "$out/fma_peak.txt" "$out/report-2seeds.md" > "$out/targets-2seeds.txt"
