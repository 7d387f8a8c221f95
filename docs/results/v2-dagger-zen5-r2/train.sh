#!/usr/bin/env bash
# Two copies of models/world whose world, initial and actions rankers are retrained (encoder, transition,
# final ranker unchanged): C, the control, on the shipped bundle's six dataset files (the Zen 5 picks of
# DAgger round 1 as shipped at commit 00b47aa); D, the same with the Zen 5 picks file of both rounds
# (data/dataset-dagger-zen5.jsonl.gz: 250 training workloads x 64 trials, round 2 continuing every run).
# CACHE=DIR reuses a bundle's lowering cache (cache/texts.db) from an earlier retrain on this machine type;
# without it the first retrain lowers every state (about 25 min on 2 cores). Not a measurement.
# Usage, from the repository root: [CACHE=DIR] bash docs/results/v2-dagger-zen5-r2/train.sh WORKDIR
set -euo pipefail
work=$(mkdir -p "${1:?give a work folder}" && cd "$1" && pwd)
# shellcheck source=../v2-dagger-zen5/datasets.sh
source docs/results/v2-dagger-zen5/datasets.sh
# shellcheck disable=SC2086
bash scripts/retrain_rankers.sh "$work" D $base data/dataset-dagger-zen5.jsonl.gz
# shellcheck disable=SC2086
bash scripts/retrain_rankers.sh "$work" C $base "$round1"
