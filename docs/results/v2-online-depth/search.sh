#!/usr/bin/env bash
# Val-list search (measures: a quiet machine) of the replay's best correction, LR-NL (lowered features, 100
# rounds, eta 0.2, blind to the latent columns), against the shipped bundle B: 12 val workloads x 3 seeds x
# 64 trials each, interleaved (scripts/val_search_knobs.sh; resumable). The LR-NL bundle is a config-only
# copy of models/world made in WORKDIR.
# Usage: bash docs/results/v2-online-depth/search.sh WORKDIR
#        python3 scripts/val_search_knobs_summary.py WORKDIR/runs B 8,16,32,48,64 N
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mkdir -p "${1:?give a work folder}" && cd "$1" && pwd)
[ -d "$work/bundles/lrnl" ] || bash "$repo/scripts/config_bundle.sh" "$work/bundles/lrnl" \
  '{"online_eta": 0.2, "online_rounds": 100, "online_lowered_features": true, "online_lowered_shortlist": 64, "online_reads_latent": false}'
printf 'B --model world --bundle %s\nN --model world --bundle %s\n' "$repo/models/world" "$work/bundles/lrnl" \
  > "$work/configs.txt"
cd "$repo"
SEEDS=${SEEDS:-1 2 3} bash scripts/val_search_knobs.sh "$work/runs" "$work/configs.txt"
