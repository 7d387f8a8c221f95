#!/usr/bin/env bash
# Two copies of models/world whose world, initial and actions rankers are retrained (encoder, transition,
# final ranker unchanged): C, the control, on the shipped bundle's five dataset files; D, the same plus the
# Zen 5 picks, DAgger round 1 (250 training workloads x 32 trials: data/dataset-dagger-zen5.jsonl.gz as
# of commit 00b47aa; the file now also holds round 2). Run at commit 00b47aa's models/world.
# CACHE=DIR reuses a bundle's lowering cache (cache/texts.db) from an earlier retrain on this machine type;
# without it the first retrain lowers every state (about 25 min on 2 cores). Not a measurement.
# Usage, from the repository root: [CACHE=DIR] bash docs/results/v2-dagger-zen5/train.sh WORKDIR
set -euo pipefail
work=$(mkdir -p "${1:?give a work folder}" && cd "$1" && pwd)
# shellcheck source=../v2-dagger-zen5/datasets.sh
source docs/results/v2-dagger-zen5/datasets.sh
# shellcheck disable=SC2086
bash scripts/retrain_rankers.sh "$work" D $base "$round1"
# shellcheck disable=SC2086
bash scripts/retrain_rankers.sh "$work" C $base
