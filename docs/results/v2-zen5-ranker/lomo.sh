#!/usr/bin/env bash
# Leave one machine out, offline: does a second training machine help on a third one? Two copies of
# models/world whose world, initial and actions rankers learn from AMD EPYC Zen 4 records alone (X0:
# data/dataset.jsonl.gz and the Zen 4 picks data/dataset-dagger-epyc.jsonl.gz) or from those plus the Zen 5
# record set (X1), both scored on the Intel Xeon Sapphire Rapids file's test split (data/dataset-xeon.jsonl.gz),
# a machine in neither ranker's data. Encoder and transition are the shipped ones (their training saw the
# Xeon's training-split trajectories, so only the rankers leave the Xeon out). No measuring.
# Usage, from the repository root: bash docs/results/v2-zen5-ranker/lomo.sh WORKDIR   (WORKDIR of train.sh,
# whose lowered texts it reuses; about 20 min on 2 cores)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(cd "${1:?give a work folder}" && pwd)
WT=${WORLDTUNE:-build/worldtune}
D0="--dataset data/dataset.jsonl.gz --dataset data/dataset-dagger-epyc.jsonl.gz"
for b in X0 X1; do
  [ -d "$work/bundles/$b" ] || { cp -r models/world "$work/bundles/$b"; cp -r "$work/bundles/Z/cache" "$work/bundles/$b/"; }
done
# shellcheck disable=SC2086
[ -f "$work/bundles/X0.done" ] || { $WT train $D0 --out "$work/bundles/X0" --stage ranker --restart \
  --rankers world,initial,actions --threads 2 && touch "$work/bundles/X0.done"; }
# shellcheck disable=SC2086
[ -f "$work/bundles/X1.done" ] || { $WT train $D0 --dataset data/dataset-zen5-train.jsonl.gz --out "$work/bundles/X1" \
  --stage ranker --restart --rankers world,initial,actions --threads 2 && touch "$work/bundles/X1.done"; }
for b in X0 X1; do
  [ -f "$here/lomo-xeon-test-$b.md" ] || $WT eval --dataset data/dataset-xeon.jsonl.gz --bundle "$work/bundles/$b" \
    --split test --quick --threads 2 --out "$here/lomo-xeon-test-$b.md"
done
