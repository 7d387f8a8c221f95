#!/usr/bin/env bash
# Two copies of models/world whose world, initial and actions rankers are retrained (encoder, transition,
# final ranker unchanged): C, the control, on the shipped bundle's five dataset files; D, the same plus the
# Zen 5 picks, DAgger round 1 (data/dataset-dagger-zen5.jsonl.gz, 250 training workloads x 32 trials).
# CACHE=DIR reuses a bundle's lowering cache (cache/texts.db) from an earlier retrain on this machine type;
# without it the first retrain lowers every state (about 25 min on 2 cores). Not a measurement.
# Usage, from the repository root: [CACHE=DIR] bash docs/results/v2-dagger-zen5/train.sh WORKDIR
set -euo pipefail
work=$(mkdir -p "${1:?give a work folder}/bundles" && cd "$1" && pwd)
WT=${WORLDTUNE:-build/worldtune}
D="--dataset data/dataset.jsonl.gz --dataset data/dataset-xeon-train.jsonl.gz --dataset data/dataset-xeon.jsonl.gz"
D="$D --dataset data/dataset-dagger-epyc.jsonl.gz --dataset data/dataset-zen5-train.jsonl.gz"
for b in D C; do
  [ -d "$work/bundles/$b" ] && continue
  cp -r models/world "$work/bundles/$b"
  if [ -n "${CACHE:-}" ]; then rm -rf "$work/bundles/$b/cache"; cp -r "$CACHE" "$work/bundles/$b/cache"; fi
done
# shellcheck disable=SC2086
$WT train $D --dataset data/dataset-dagger-zen5.jsonl.gz --out "$work/bundles/D" --stage ranker --restart \
  --rankers world,initial,actions --threads 2
# shellcheck disable=SC2086
$WT train $D --out "$work/bundles/C" --stage ranker --restart --rankers world,initial,actions --threads 2
