#!/usr/bin/env bash
# D10: a copy of models/world whose world, initial and actions rankers are retrained (encoder, transition,
# config and final ranker unchanged) on exactly what the shipped rankers (D4, docs/results/v4-picks-zen5)
# learned from, plus the world model's own picks in the search spaces they never saw measured:
#   v7 and v8 (data/dataset-dagger-zen5-v7.jsonl.gz, data/dataset-dagger-zen5-v8.jsonl.gz: D8 of
#       docs/results/v8-picks-zen5, 1.031x [0.977-1.096] of the shipped rankers on the Zen 5's val list,
#       short of its rule), and
#   v10 (data/dataset-dagger-xeon-v10.jsonl.gz: the 18 training workloads whose draws differ in v10 and v8,
#       the dense 3x3 stride-1 convolutions, 64 trials each on the Intel Xeon, 697 of 1,152 by Winograd;
#       docs/dataset.md).
# So D10 differs from D4 by those picks alone. v10 is the default search space (docs/results/space-v10-val-xeon);
# the shipped rankers have never seen a Winograd schedule or a weight stored in blocks measured.
# CACHE=DIR reuses a bundle's lowering cache from an earlier retrain on this machine type. Not a measurement.
# Usage, from the repository root: [CACHE=DIR] bash docs/results/v10-picks-xeon/train.sh WORKDIR
set -euo pipefail
work=$(mkdir -p "${1:?give a work folder}" && cd "$1" && pwd)
# shellcheck source=../v2-dagger-zen5/datasets.sh
source docs/results/v2-dagger-zen5/datasets.sh
# D4's v4 picks: the picks file as of dbd4a90 (149 workloads)
first149="$work/dataset-dagger-zen5-v4-first149.jsonl.gz"
[ -f "$first149" ] || git show dbd4a90:data/dataset-dagger-zen5-v4.jsonl.gz > "$first149"
# shellcheck disable=SC2086
bash scripts/retrain_rankers.sh "$work" D10 $base "$round1" "$first149" \
  data/dataset-dagger-zen5-v7.jsonl.gz data/dataset-dagger-zen5-v8.jsonl.gz data/dataset-dagger-xeon-v10.jsonl.gz
