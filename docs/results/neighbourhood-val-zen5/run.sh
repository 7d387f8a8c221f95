#!/usr/bin/env bash
# Val-list search (measures: a quiet machine), 12 val workloads x SEEDS x 64 trials, the configs of
# configs.txt interleaved per seed and workload (scripts/val_search_knobs.sh; resumable):
#   P4: the shipped product (models/world, search space v4, the default search);
#   N4: the same, and each batch after the first takes half its model-picked part from the best-scored
#       one-decision neighbours of the 4 fastest measured schedules (--neighbourhood 4 --neighbourhood-share 0.5);
#   N1: the same with the fastest measured schedule alone, and the whole model-picked part from its
#       neighbours (--neighbourhood 1 --neighbourhood-share 1.0).
# The rule, written before any seed ran: a variant becomes the default (EvolutionParams) if its ratio over
# P4 at 64 trials is above 1.0 with the bootstrap interval's lower bound above 0.98 and the mean of its
# values at 32, 48 and 64 trials is not below 1; if both qualify, the one with the larger ratio at 64
# trials. Otherwise the data and this report are committed and the default stays off. Judged on 3 seeds;
# with fewer, nothing ships.
# Usage: [SEEDS="1 2 3"] bash docs/results/neighbourhood-val-zen5/run.sh WORKDIR
#        python3 scripts/val_search_knobs_summary.py WORKDIR P4 8,16,32,48,64
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SEEDS=${SEEDS:-1 2 3} bash scripts/val_search_knobs.sh "${1:?give a work folder}" "$here/configs.txt"
