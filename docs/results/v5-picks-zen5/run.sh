#!/usr/bin/env bash
# Val-list search at 64 trials (measures: a quiet machine), 12 val workloads x SEEDS, interleaved
# (scripts/val_search_knobs.sh; resumable), then every run's best re-measured side by side. Run train.sh
# with the same WORKDIR first.
#   P4: the shipped product (models/world, search space v4, the default search);
#   Q5: the candidate product: the rankers retrained with the world model's v5 picks (train.sh, bundle D6),
#       searching space v5 (v4 with the register-fill rule, docs/results/register-fill-val-zen5).
# Why: in docs/results/register-fill-val-zen5 the shipped rankers in v5 lost 5.6% to v4 where random search
# tied across the two spaces; the rankers had never seen a v5 schedule measured. v4 went the same way:
# 1.007x with the old rankers, 1.023x once they had learned the model's v4 picks (docs/results/v4-picks-zen5).
# The rule, written before any seed ran: Q5 becomes the product (models/world's world, initial and actions
# rankers become D6's, and v5 the default search space of tune/compare/bench) if Q5 over P4 at 64 trials,
# re-measured side by side (worldtune remeasure, 3 rounds), is above 1.0 with the bootstrap interval's lower
# bound above 0.98, and the mean of its as-tuned values at 32, 48 and 64 trials is not below 1. Judged on
# seeds 1-3 (about 40 min here); with fewer than 3, nothing ships. Otherwise the data and this report are
# committed and nothing else changes.
# Usage: [SEEDS="1 2 3"] bash docs/results/v5-picks-zen5/run.sh WORKDIR
#        python3 scripts/val_search_knobs_summary.py WORKDIR/runs P4 8,16,32,48,64 Q5
#        python3 scripts/val_remeasured_summary.py WORKDIR/runs P4 Q5
set -euo pipefail
work=$(cd "${1:?give a work folder}" && pwd)
[ -d "$work/bundles/D6" ] || { echo "run.sh: no bundle $work/bundles/D6 (run train.sh first)" >&2; exit 2; }
seeds=${SEEDS:-1 2 3}
printf "P4 --model world\nQ5 --model world --bundle $work/bundles/D6 --space v5\n" > "$work/configs.txt"
SEEDS="$seeds" TRIALS=64 bash scripts/val_search_knobs.sh "$work/runs" "$work/configs.txt"
bash scripts/val_remeasure.sh "$work/runs" 64 "$seeds"
