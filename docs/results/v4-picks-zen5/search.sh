#!/usr/bin/env bash
# Val-list search (measures: a quiet machine), 12 val workloads x SEEDS x 64 trials, interleaved
# (scripts/val_search_knobs.sh; resumable). Run train.sh with the same WORKDIR first.
#   A2: the shipped product: models/world in search space v2 (the default);
#   D4: the rankers retrained with the v4 picks (train.sh), in search space v4;
#   S4: the static model (Ansor-like, learned online from the run's own measurements), in search space v4.
# The rule, written before any seed ran: D4's rankers ship as models/world and v4 becomes the default space
# if D4 over A2 at 64 trials is above 1.0 with the bootstrap interval's lower bound above 0.98 and the mean
# of its values at 32, 48 and 64 trials is not below 1; otherwise the data and this report are committed
# and nothing else changes. The rule is judged on 5 seeds; with fewer, nothing ships. D4 over S4 is
# issue 21's world-over-static measure in the widened space.
# S4 runs on the seeds of STATIC_SEEDS only (default 1 2 3: a static run takes twice a world run's time,
# and five seeds of all three did not fit the sitting; set after the first seed ran, the rule unchanged).
# Usage: [SEEDS="1 2 3 4 5"] [STATIC_SEEDS="1 2 3"] bash docs/results/v4-picks-zen5/search.sh WORKDIR
#        python3 scripts/val_search_knobs_summary.py WORKDIR/runs A2 8,16,32,48,64 D4
#        python3 scripts/val_search_knobs_summary.py WORKDIR/runs S4 8,16,32,48,64 D4
set -euo pipefail
work=$(cd "${1:?give a work folder}" && pwd)
[ -d "$work/bundles/D4" ] || { echo "search.sh: no bundle $work/bundles/D4 (run train.sh first)" >&2; exit 2; }
world="A2 --model world --space v2\nD4 --model world --space v4 --bundle $work/bundles/D4\n"
static="S4 --model static --space v4\n"
for seed in ${SEEDS:-1 2 3 4 5}; do
  printf "$world" > "$work/configs.txt"
  [[ " ${STATIC_SEEDS:-1 2 3} " == *" $seed "* ]] && printf "$static" >> "$work/configs.txt"
  SEEDS=$seed bash scripts/val_search_knobs.sh "$work/runs" "$work/configs.txt"
done
printf "$world$static" > "$work/runs/configs.txt"   # every config, for the summaries
