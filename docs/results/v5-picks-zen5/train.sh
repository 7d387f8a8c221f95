#!/usr/bin/env bash
# D6: a copy of models/world whose world, initial and actions rankers are retrained (encoder, transition,
# config and final ranker unchanged) on exactly what the shipped rankers (D4, docs/results/v4-picks-zen5)
# learned from, plus the world model's own picks in search space v5 on all 250 training-split workloads
# (data/dataset-dagger-zen5-v5.jsonl.gz: `SPACE=v5 DB=WORK/dagger-zen5-v5.db bash scripts/collect_picks.sh
# zen5-v5`, docs/dataset.md). So D6 differs from D4 by the v5 picks alone.
# CACHE=DIR reuses a bundle's lowering cache from an earlier retrain on this machine type (without it the
# retrain lowers every state, about 25 min on 2 cores). Not a measurement.
# Usage, from the repository root: [CACHE=DIR] bash docs/results/v5-picks-zen5/train.sh WORKDIR
set -euo pipefail
work=$(mkdir -p "${1:?give a work folder}" && cd "$1" && pwd)
# shellcheck source=../v2-dagger-zen5/datasets.sh
source docs/results/v2-dagger-zen5/datasets.sh
# D4's v4 picks: the picks file as of dbd4a90 (149 workloads)
first149="$work/dataset-dagger-zen5-v4-first149.jsonl.gz"
[ -f "$first149" ] || git show dbd4a90:data/dataset-dagger-zen5-v4.jsonl.gz > "$first149"
# shellcheck disable=SC2086
bash scripts/retrain_rankers.sh "$work" D6 $base "$round1" "$first149" data/dataset-dagger-zen5-v5.jsonl.gz
