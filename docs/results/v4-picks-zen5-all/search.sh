#!/usr/bin/env bash
# Val-list search (measures: a quiet machine), 12 val workloads x SEEDS x 64 trials, interleaved
# (scripts/val_search_knobs.sh; resumable). Run train.sh with the same WORKDIR first.
#   P4: the shipped product (models/world as of dbd4a90, search space v4, the default);
#   D5: the rankers retrained with the v4 picks of all 250 training workloads (train.sh), in space v4.
# The rule, written before any seed ran: D5's rankers replace models/world's world, initial and actions
# rankers if D5 over P4 at 64 trials is above 1.0 with the bootstrap interval's lower bound above 0.98 and
# the mean of its values at 32, 48 and 64 trials is not below 1; otherwise the data and this report are
# committed and nothing else changes. Judged on the seeds run (3 by default: what fits one sitting); with
# fewer than 3, nothing ships.
# Usage: [SEEDS="1 2 3"] bash docs/results/v4-picks-zen5-all/search.sh WORKDIR
#        python3 scripts/val_search_knobs_summary.py WORKDIR/runs P4 8,16,32,48,64 D5
set -euo pipefail
work=$(cd "${1:?give a work folder}" && pwd)
[ -d "$work/bundles/D5" ] || { echo "search.sh: no bundle $work/bundles/D5 (run train.sh first)" >&2; exit 2; }
printf "P4 --model world\nD5 --model world --bundle $work/bundles/D5\n" > "$work/configs.txt"
for seed in ${SEEDS:-1 2 3}; do
  SEEDS=$seed bash scripts/val_search_knobs.sh "$work/runs" "$work/configs.txt"
done
cp "$work/configs.txt" "$work/runs/configs.txt"   # every config, for the summaries
