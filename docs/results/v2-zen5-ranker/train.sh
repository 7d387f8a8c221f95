#!/usr/bin/env bash
# Two copies of models/world whose world, initial and actions rankers are retrained (encoder, transition,
# final ranker unchanged): C, the control, on the shipped bundle's four dataset files; Z, the same plus the
# Zen 5 record set (data/dataset-zen5-train.jsonl.gz, 250 training workloads). Not a measurement.
# Usage, from the repository root: bash docs/results/v2-zen5-ranker/train.sh WORKDIR   (about 25 min on 2 cores)
set -euo pipefail
work=$(mkdir -p "${1:?give a work folder}/bundles" && cd "$1" && pwd)
WT=${WORLDTUNE:-build/worldtune}
D="--dataset data/dataset.jsonl.gz --dataset data/dataset-xeon-train.jsonl.gz --dataset data/dataset-xeon.jsonl.gz --dataset data/dataset-dagger-epyc.jsonl.gz"
for b in Z C; do [ -d "$work/bundles/$b" ] || cp -r models/world "$work/bundles/$b"; done
# shellcheck disable=SC2086
$WT train $D --dataset data/dataset-zen5-train.jsonl.gz --out "$work/bundles/Z" --stage ranker --restart \
  --rankers world,initial,actions --threads 2
[ -d "$work/bundles/C/cache" ] || cp -r "$work/bundles/Z/cache" "$work/bundles/C/"   # the lowered texts, shared
# shellcheck disable=SC2086
$WT train $D --out "$work/bundles/C" --stage ranker --restart --rankers world,initial,actions --threads 2
