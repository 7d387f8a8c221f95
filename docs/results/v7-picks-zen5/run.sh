#!/usr/bin/env bash
# The world model's v7 picks in the rankers, searching space v7, against the shipped product, on the val list
# (docs/val_workloads.txt, 12 workloads; never the bench list) at 64 trials, SEEDS seeds interleaved
# (scripts/val_search_knobs.sh; resumable), then every run's best re-measured side by side
# (scripts/val_remeasure.sh, 3 rounds). Measures: a quiet machine, ~65 min.
#   P6: the shipped product (models/world, search space v6);
#   Q7: D7 (docs/results/v7-picks-zen5/train.sh: the shipped rankers' data plus the v7 picks of the 53
#       training workloads where v7 samples differently) searching space v7.
# Why: in docs/results/space-v7-val-zen5 the shipped bundle, which never saw a v7 schedule measured, tied
# in v7 (0.997x re-measured); v4 went from a tie to 1.023x once the rankers learned the model's own v4 picks
# (docs/results/v4-picks-zen5). Of the val list, v7 samples differently on the 4 padded convolutions only;
# on the other 8 the question is whether D7's rankers are as good as the shipped ones.
# The rule, written before any seed ran: D7 becomes models/world and v7 the default search space if, at 64
# trials re-measured side by side, Q7 over P6 over the 12 workloads is above 1.0 with the bootstrap
# interval's lower bound above 0.97 (the A/A noise of docs/results/register-fill-window-zen5), and the
# mean of Q7 over P6 as tuned at 32, 48 and 64 trials is not below 1.0. Judged on seeds 1-5; with fewer,
# nothing ships. Otherwise this report is committed and D7 stays in the work folder.
# Usage: [SEEDS="1 2 3 4 5"] bash docs/results/v7-picks-zen5/run.sh WORKDIR   (after train.sh WORKDIR)
#        python3 scripts/val_search_knobs_summary.py WORKDIR/runs P6 8,16,32,48,64 Q7
#        python3 scripts/val_remeasured_summary.py WORKDIR/runs P6 Q7
set -euo pipefail
work=$(cd "${1:?give a work folder}" && pwd)
[ -f "$work/bundles/D7/ranker_world.ubj" ] || { echo "run.sh: no $work/bundles/D7 (run train.sh first)" >&2; exit 2; }
seeds=${SEEDS:-1 2 3 4 5}
printf "P6 --model world --space v6\nQ7 --model world --bundle %s --space v7\n" "$work/bundles/D7" > "$work/configs.txt"
SEEDS="$seeds" TRIALS=64 bash scripts/val_search_knobs.sh "$work/runs" "$work/configs.txt"
bash scripts/val_remeasure.sh "$work/runs" 64 "$seeds"
