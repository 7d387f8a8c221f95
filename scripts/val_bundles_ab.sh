#!/usr/bin/env bash
# Two or more world-model bundles side by side on the val list (measures: a quiet machine): each NAME is the
# bundle WORKDIR/bundles/NAME (made by a result folder's train.sh), searched with `--model world --bundle`,
# interleaved per seed and workload by scripts/val_search_knobs.sh (resumable; SEEDS and TRIALS as there).
# Usage, from anywhere: [SEEDS="1 2 3 4 5"] bash scripts/val_bundles_ab.sh WORKDIR NAME NAME...
#        python3 scripts/val_search_knobs_summary.py WORKDIR/runs NAME 8,16,32,48,64 NAME...
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: val_bundles_ab.sh WORKDIR NAME NAME..." >&2; exit 2; }
repo=$(cd "$(dirname "$0")/.." && pwd)
[ -d "$1" ] || { echo "val_bundles_ab: no work folder $1" >&2; exit 2; }
work=$(cd "$1" && pwd); shift
: > "$work/configs.txt"
for name in "$@"; do
  [ -d "$work/bundles/$name" ] || { echo "val_bundles_ab: no bundle $work/bundles/$name (run train.sh first)" >&2; exit 2; }
  echo "$name --model world --bundle $work/bundles/$name" >> "$work/configs.txt"
done
cd "$repo"
bash scripts/val_search_knobs.sh "$work/runs" "$work/configs.txt"
