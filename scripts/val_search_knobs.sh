#!/usr/bin/env bash
# Search settings side by side on the val list (docs/val_workloads.txt; never the bench list). CONFIGS is a
# file of lines `NAME TUNE-ARGUMENTS...` (e.g. `A --model world`); every config runs `worldtune tune SPEC
# --trials TRIALS` with its arguments, interleaved per seed and workload, each config and seed in its own
# records db (a tune run resumes from its db, so seeds must not share one); resumable (a finished run is
# skipped). LIST names another list of val or training-split workloads (default docs/val_workloads.txt).
# Usage, from the repository root on a quiet machine (about 40 s per run on 2 cores):
#   [LIST=FILE] SEEDS="1 2" TRIALS=64 bash scripts/val_search_knobs.sh OUT_DIR CONFIGS
#   python3 scripts/val_search_knobs_summary.py OUT_DIR REFERENCE 16,32,64
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: val_search_knobs.sh OUT_DIR CONFIGS" >&2; exit 2; }
[ -f "$2" ] || { echo "val_search_knobs: no configs file $2" >&2; exit 2; }
LIST=$(realpath "${LIST:-docs/val_workloads.txt}"); WT=$(realpath ${WORLDTUNE:-build/worldtune}); CONFIGS=$(realpath "$2")
SEEDS=${SEEDS:-1 2}; TRIALS=${TRIALS:-64}
OUT=$1; mkdir -p "$OUT"; cd "$OUT"; cp "$CONFIGS" configs.txt
for seed in $SEEDS; do
  while read -r spec; do
    [ -z "$spec" ] && continue
    while read -r cfg args; do
      [ -z "$cfg" ] && continue
      key="$cfg $seed $spec"
      grep -qxF "$key" done.txt 2>/dev/null && continue
      start=$(date +%s.%N)
      # shellcheck disable=SC2086
      $WT tune "$spec" --trials "$TRIALS" --seed "$seed" --threads 2 --quiet --db "${cfg}${seed}.db" $args \
        > /dev/null 2>>err.log < /dev/null || { echo "fail $key" >> err.log; continue; }
      end=$(date +%s.%N)
      echo "$key" >> done.txt
      echo "$key $(echo "$end - $start" | bc)" >> times.txt
    done < configs.txt
  done < <(grep -v "^#" "$LIST")
done
echo ALLDONE >> done.txt
