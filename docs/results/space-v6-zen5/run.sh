#!/usr/bin/env bash
# Issue 22, search space v6 (the register-fill rule on updates with a window and a blocked reduction) on the
# Zen 5: issue 22's 3x3 convolution, world/v4 against world/v6, 64 and 640 trials, SEEDS seeds (default 1),
# 4 rounds beside oneDNN and libtorch, then every 640-trial run's best re-measured in fresh processes
# (confirm.md). Only the convolution: on issue 22's other workloads (dense layers, matmuls, layernorm,
# softmax) v6 samples exactly what v4 samples (docs/results/register-fill-window-zen5). About 6 min per
# 640-trial run on 2 cores. Resumable (compare resumes from its db; confirm_bests from its jsonl).
# Measures: a quiet machine. Usage, from the repository root:
#   [SEEDS=2] bash docs/results/space-v6-zen5/run.sh WORKDIR
set -euo pipefail
work=${1:?give a work folder}; mkdir -p "$work"
WT=${WORLDTUNE:-build/worldtune}
SEEDS=${SEEDS:-1}
DB=$work/v6.db
"$WT" compare conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu \
  --models world/v4,world/v6 --trials 64,640 --seeds "$SEEDS" --rounds 4 --threads 2 --peers onednn,libtorch \
  --db "$DB" --out "$work/report.md"
WORLDTUNE="$WT" bash scripts/confirm_compare_bests.sh "$DB" "$work" "world/v4 world/v6" "$SEEDS"
