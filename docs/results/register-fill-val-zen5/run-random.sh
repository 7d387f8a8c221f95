#!/usr/bin/env bash
# Diagnostic after run.sh (nothing ships from it): is v5's loss in the space or in the model's scoring of it?
# Random search at 64 trials in v4 (R4) and v5 (R5), 12 val workloads x SEEDS, interleaved
# (scripts/val_search_knobs.sh; resumable), then every run's best re-measured side by side. If R5 is not
# below R4, the register-fill rule's samples are as good and the model's scores of them are what lost; if
# R5 is below R4, the rule itself displaces good samples. Measures: a quiet machine (about 25 min).
# Usage: [SEEDS="1 2"] bash docs/results/register-fill-val-zen5/run-random.sh WORKDIR
#        python3 scripts/val_search_knobs_summary.py WORKDIR/runs R4 16,32,64 R5
#        python3 scripts/val_remeasured_summary.py WORKDIR/runs R4 R5
set -euo pipefail
work=$(mkdir -p "${1:?give a work folder}" && cd "$1" && pwd)
seeds=${SEEDS:-1 2}
printf "R4 --model random\nR5 --model random --space v5\n" > "$work/configs.txt"
SEEDS="$seeds" TRIALS=64 bash scripts/val_search_knobs.sh "$work/runs" "$work/configs.txt"
bash scripts/val_remeasure.sh "$work/runs" 64 "$seeds"
