#!/usr/bin/env bash
# The BERT FFN-up layer (dense 128x3072x768 with GELU) again after GELU became x / (1 + exp(-2u))
# (src/workload/OpRegistry.cpp): world/v6 at 64 and 640 trials, SEEDS seeds (default 2), 4 rounds beside
# oneDNN, OpenBLAS and libtorch, as run.sh does for the whole list. About 5 min per seed. Resumable.
# Measures: a quiet machine. Usage, from the repository root:
#   [SEEDS=2] bash docs/results/issue22-v6-zen5/run_gelu.sh WORKDIR [OUT]
set -euo pipefail
work=${1:?give a work folder}; out=${2:-docs/results/issue22-v6-zen5}; mkdir -p "$work" "$out"
WT=${WORLDTUNE:-build/worldtune}
"$WT" compare 'dense:M=128,N=3072,K=768,bias=1,act=gelu' --models world/v6 --trials 64,640 --seeds "${SEEDS:-2}" \
  --rounds 4 --threads 2 --peers onednn,openblas,libtorch --db "$work/gelu.db" --out "$out/report-gelu.md"
"$WT" records export --db "$work/gelu.db" --out "$out/records-gelu.jsonl" && gzip -f "$out/records-gelu.jsonl"
python3 docs/results/space-v2-epyc/targets.py "$out/report.md" "$out/fma_peak.txt" "$out/report-gelu.md" > "$out/targets-gelu.txt"
