#!/usr/bin/env bash
# D5: a copy of models/world whose world, initial and actions rankers are retrained (encoder, transition,
# config and final ranker unchanged) on the shipped bundle's six dataset files plus the world model's own
# picks in search space v4 on this machine type, now on all 250 training-split workloads
# (data/dataset-dagger-zen5-v4.jsonl.gz after the top-up: the first 149 picked by the bundle shipped at
# 00b47aa, the other 101 by the one shipped at dbd4a90; `HOURS=0.45 SPACE=v4 DB=WORK/dagger-zen5-v4.db
# bash scripts/collect_picks.sh zen5-v4` on the database of docs/results/v4-picks-zen5).
# CACHE=DIR reuses a bundle's lowering cache from an earlier retrain on this machine type. Not a measurement.
# Usage, from the repository root: [CACHE=DIR] bash docs/results/v4-picks-zen5-all/train.sh WORKDIR
set -euo pipefail
work=$(mkdir -p "${1:?give a work folder}" && cd "$1" && pwd)
# shellcheck source=../v2-dagger-zen5/datasets.sh
source docs/results/v2-dagger-zen5/datasets.sh
# shellcheck disable=SC2086
bash scripts/retrain_rankers.sh "$work" D5 $base "$round1" data/dataset-dagger-zen5-v4.jsonl.gz
