#!/usr/bin/env bash
# Issue 22's full list in search space v8 (the default since docs/results/space-v8-zen5), the shipped world
# model: the five late ResNet-50 convolutions (stage 5), the four BERT-base dense layers, a 1024^3 and a
# 1023^3 matmul, layernorm and softmax. world/v8 at 64 and 640 trials, SEEDS seeds (default 1), every best
# re-measured in 4 rounds with oneDNN, OpenBLAS and libtorch shuffled among the schedules; then random@64
# in v8 per workload for the headroom, and issue 22's targets. The same steps as
# docs/results/issue22-v6-zen5/run.sh (the "before" of the headroom), in v8. The FMA peak
# (scripts/fma_peak.sh) is measured first and last. A claim run: nothing here chooses a setting. About 80 min
# for one seed on 2 cores. Resumable: compare and tune resume from their databases. Measures: run it on a
# quiet machine. Usage, from the repository root:
#   [SEEDS=1] bash docs/results/issue22-v8full-zen5/run.sh WORKDIR [OUT]
set -euo pipefail
work=${1:?give a work folder}; out=${2:-docs/results/issue22-v8full-zen5}; mkdir -p "$work" "$out"
WT=${WORLDTUNE:-build/worldtune}
SEEDS=${SEEDS:-1}
SPECS=('conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu'
       'conv2d:N=1,C=512,H=14,W=14,K=512,R=3,S=3,stride=2,pad=1,bias=1,act=relu'
       'conv2d:N=1,C=512,H=7,W=7,K=2048,R=1,S=1,bias=1'
       'conv2d:N=1,C=2048,H=7,W=7,K=512,R=1,S=1,bias=1,act=relu'
       'conv2d:N=1,C=1024,H=14,W=14,K=2048,R=1,S=1,stride=2,bias=1'
       'dense:M=128,N=2304,K=768,bias=1' 'dense:M=128,N=768,K=768,bias=1'
       'dense:M=128,N=3072,K=768,bias=1,act=gelu' 'dense:M=128,N=768,K=3072,bias=1'
       'matmul:M=1024,N=1024,K=1024' 'matmul:M=1023,N=1023,K=1023'
       'layernorm:M=128,N=768' 'softmax:M=1536,N=128')
[[ -s "$out/fma_peak.txt" ]] || bash scripts/fma_peak.sh 2 5 > "$out/fma_peak.txt"
"$WT" compare "${SPECS[@]}" --models world/v8 --trials 64,640 --seeds "$SEEDS" --rounds 4 --threads 2 \
  --peers onednn,openblas,libtorch --db "$work/compare.db" --out "$out/report.md"
stored() { [[ -f "$work/random.db" ]] && python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); \
print(c.execute('select count(*) from records where spec=?', (sys.argv[2],)).fetchone()[0])" "$work/random.db" "$1" || echo 0; }
for spec in "${SPECS[@]}"; do
  (( $(stored "$spec") >= 64 )) || "$WT" tune "$spec" --model random --space v8 --trials 64 --seed 1 --threads 2 --db "$work/random.db" > /dev/null
done
bash scripts/fma_peak.sh 2 5 > "$out/fma_peak_after.txt"
"$WT" records export --db "$work/compare.db" --out "$out/records.jsonl" && gzip -f "$out/records.jsonl"
python3 docs/results/space-v2-epyc/targets.py "$out/report.md" "$out/fma_peak.txt" > "$out/targets.txt"
python3 docs/results/space-v2-epyc/headroom.py "$work/random.db" "$work/compare.db" > "$out/headroom.txt"
