#!/usr/bin/env bash
# D8: a copy of models/world whose world, initial and actions rankers are retrained (encoder, transition,
# config and final ranker unchanged) on exactly what the shipped rankers (D4, docs/results/v4-picks-zen5)
# learned from, plus the world model's own picks in the search spaces they never saw measured:
#   v7 (data/dataset-dagger-zen5-v7.jsonl.gz, 53 training workloads: the padded convs and pools, the 1x1
#       stride-2 convs) and
#   v8 (data/dataset-dagger-zen5-v8.jsonl.gz: `HOURS=H SPACE=v8 DIFFERS_FROM=v7 DB=WORK/dagger-zen5-v8.db
#       bash scripts/collect_picks.sh zen5-v8`, the training workloads whose draws differ in v8 and v7).
# So D8 differs from D4 by the v7 and v8 picks alone. v8 is the default search space
# (docs/results/space-v8-zen5); the shipped rankers have never seen a weight stored in blocks.
# CACHE=DIR reuses a bundle's lowering cache from an earlier retrain on this machine type (without it the
# retrain lowers every state, about 25-30 min on 2 cores). Not a measurement.
# Usage, from the repository root: [CACHE=DIR] bash docs/results/v8-picks-zen5/train.sh WORKDIR
set -euo pipefail
work=$(mkdir -p "${1:?give a work folder}" && cd "$1" && pwd)
# shellcheck source=../v2-dagger-zen5/datasets.sh
source docs/results/v2-dagger-zen5/datasets.sh
# D4's v4 picks: the picks file as of dbd4a90 (149 workloads)
first149="$work/dataset-dagger-zen5-v4-first149.jsonl.gz"
[ -f "$first149" ] || git show dbd4a90:data/dataset-dagger-zen5-v4.jsonl.gz > "$first149"
# shellcheck disable=SC2086
bash scripts/retrain_rankers.sh "$work" D8 $base "$round1" "$first149" \
  data/dataset-dagger-zen5-v7.jsonl.gz data/dataset-dagger-zen5-v8.jsonl.gz
