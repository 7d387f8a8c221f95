#!/usr/bin/env bash
# Val-list search at 192 trials (measures: a quiet machine), 12 val workloads x SEEDS, interleaved
# (scripts/val_search_knobs.sh; resumable), then every run's best re-measured side by side:
#   P4: the shipped product (models/world, search space v4, the default search: 1 generation per batch);
#   LG: the same, but once a run has measured 64 candidates the evolution runs 4 generations per batch
#       (`--late-after 64 --late-generations 4`, EvolutionParams::late_*), as the static model's search does
#       from the start. Through 64 trials the two are the same search.
# Why: the world search gains 1% from 256 to 640 trials where static gains 8%
# (docs/results/world640-efficiency-zen5), and of the differences between the two searches only this one was
# left untested at long budgets (docs/results/v2-late-search tried it from the 33rd measurement on, at 64
# trials, when the online correction had seen little). Late in a run the correction has seen 64+ measurements,
# so more evolution on its scores may exploit fewer of the prior's errors.
# The rule, written before any seed ran: LG's setting ships (late_after 64 and late_generations 4 as the world
# model's defaults in `worldtune tune`/`compare`/`bench`) if LG over P4 at 192 trials, re-measured side by side
# (worldtune remeasure, 3 rounds), is above 1.0 with the bootstrap interval's lower bound above 0.98, and the
# mean of its as-tuned values at 128 and 192 trials is not below 1. Judged on seeds 1-3 (a run takes about
# 80 s here: about 100 min). Otherwise the data and this report are committed, nothing ships.
# Usage: [SEEDS="1 2 3"] bash docs/results/late-generations-val-zen5/run.sh WORKDIR
#        python3 scripts/val_search_knobs_summary.py WORKDIR/runs P4 64,128,192 LG
#        python3 scripts/val_remeasured_summary.py WORKDIR/runs P4 LG
set -euo pipefail
work=$(mkdir -p "${1:?give a work folder}" && cd "$1" && pwd)
seeds=${SEEDS:-1 2 3}
printf "P4 --model world\nLG --model world --late-after 64 --late-generations 4\n" > "$work/configs.txt"
SEEDS="$seeds" TRIALS=192 bash scripts/val_search_knobs.sh "$work/runs" "$work/configs.txt"
bash scripts/val_remeasure.sh "$work/runs" 192 "$seeds"
