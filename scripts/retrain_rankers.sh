#!/usr/bin/env bash
# A copy of models/world whose world, initial and actions rankers are retrained on the given dataset files
# (encoder, transition, config and final ranker unchanged): the bundles that the result folders' train.sh
# compare on the val list (scripts/val_bundles_ab.sh). The copy is made once (WORKDIR/bundles/NAME); the
# retrain runs again each time (--restart). CACHE=DIR seeds the copy's lowering cache (cache/texts.db)
# from an earlier retrain on this machine type; without it the retrain lowers every state (about 25 min on
# 2 cores). Not a measurement.
# Usage, from the repository root: [CACHE=DIR] bash scripts/retrain_rankers.sh WORKDIR NAME DATASET...
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: retrain_rankers.sh WORKDIR NAME DATASET..." >&2; exit 2; }
work=$(mkdir -p "$1/bundles" && cd "$1" && pwd)
bundle="$work/bundles/$2"
shift 2
datasets=()
for f in "$@"; do
  [ -f "$f" ] || { echo "retrain_rankers: no dataset file $f" >&2; exit 2; }
  datasets+=(--dataset "$f")
done
if [ ! -d "$bundle" ]; then
  cp -r models/world "$bundle"
  if [ -n "${CACHE:-}" ]; then rm -rf "$bundle/cache"; cp -r "$CACHE" "$bundle/cache"; fi
fi
"${WORLDTUNE:-build/worldtune}" train "${datasets[@]}" --out "$bundle" --stage ranker --restart \
  --rankers world,initial,actions --threads 2
