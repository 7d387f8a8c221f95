#!/usr/bin/env bash
# Val-list search (measures: a quiet machine): D (rankers with both rounds of the Zen 5 picks) against C
# (the same retrain with round 1 only), 12 val workloads x SEEDS (default 1 2 3 4 5) x 64 trials,
# interleaved (scripts/val_bundles_ab.sh; resumable). Run train.sh with the same WORKDIR first.
# Usage: bash docs/results/v2-dagger-zen5-r2/search.sh WORKDIR
#        python3 scripts/val_search_knobs_summary.py WORKDIR/runs C 8,16,32,48,64 D
set -euo pipefail
SEEDS=${SEEDS:-1 2 3 4 5} bash "$(dirname "$0")/../../../scripts/val_bundles_ab.sh" "${1:?give a work folder}" C D
