#!/usr/bin/env bash
# Search space v4 (vector blocks: an update's vector loop of several vectors split into one vectorized
# vector and its vectors unrolled; weights packed at p_pack_weight 0.8) against v2, the default, on the val
# list, with the shipped world model: 12 val workloads x SEEDS x 64 trials, interleaved
# (scripts/val_search_knobs.sh; resumable). The rule, written before any seed ran: v4 becomes the default
# space when its geomean @64 over v2 is above 1.0 with the bootstrap interval's lower bound above 0.98, on
# 5 seeds. Measures: a quiet machine. Usage, from the repository root:
#   [SEEDS="1 2 3 4 5"] bash docs/results/space-v4-val/search.sh WORKDIR
#   python3 scripts/val_search_knobs_summary.py WORKDIR/runs V2 8,16,32,48,64 V4
set -euo pipefail
work=${1:?give a work folder}
mkdir -p "$work"
printf 'V2 --model world --space v2\nV4 --model world --space v4\n' > "$work/configs.txt"
SEEDS=${SEEDS:-1 2 3 4 5} bash scripts/val_search_knobs.sh "$work/runs" "$work/configs.txt"
