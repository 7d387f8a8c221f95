#!/usr/bin/env bash
# D7: a copy of models/world whose world, initial and actions rankers are retrained (encoder, transition,
# config and final ranker unchanged) on exactly the shipped rankers' data (D4: the shipped bundle's dataset
# files, the Zen 5 DAgger round 1, the first 149 workloads' v4 picks; docs/results/v4-picks-zen5/train.sh)
# plus the world model's own picks in search space v7 on the 53 training workloads where v7 samples
# differently from v6 (data/dataset-dagger-zen5-v7.jsonl.gz, made by `HOURS=0.6 SPACE=v7 DIFFERS_FROM=v6
# DB=WORK/dagger-zen5-v7.db bash scripts/collect_picks.sh zen5-v7`).
# CACHE=DIR reuses a bundle's lowering cache from an earlier retrain on this machine type (without it the
# retrain lowers every state, about 30 min on 2 cores). Not a measurement.
# Usage, from the repository root: [CACHE=DIR] bash docs/results/v7-picks-zen5/train.sh WORKDIR
set -euo pipefail
work=$(mkdir -p "${1:?give a work folder}" && cd "$1" && pwd)
# shellcheck source=../v2-dagger-zen5/datasets.sh
source docs/results/v2-dagger-zen5/datasets.sh
# D4's v4 picks: the picks file as of dbd4a90 (149 workloads)
first149="$work/dataset-dagger-zen5-v4-first149.jsonl.gz"
[ -f "$first149" ] || git show dbd4a90:data/dataset-dagger-zen5-v4.jsonl.gz > "$first149"
# shellcheck disable=SC2086
bash scripts/retrain_rankers.sh "$work" D7 $base "$round1" "$first149" data/dataset-dagger-zen5-v7.jsonl.gz
