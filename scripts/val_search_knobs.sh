#!/usr/bin/env bash
# Search settings on the val list (docs/val_workloads.txt; never the bench list): A = population 256, 1
# generation (the default); B = 2048, 4 (Ansor's). Interleaved per workload and seed; each config and seed
# its own records db (a tune run resumes from its db, so seeds must not share one); resumable (a finished
# run is skipped). Usage, from the repository root on a quiet machine (~30 min on 2 cores):
#   bash scripts/val_search_knobs.sh OUT_DIR && python3 scripts/val_search_knobs_summary.py OUT_DIR
set -uo pipefail
LIST=$(realpath docs/val_workloads.txt); WT=$(realpath ${WORLDTUNE:-build/worldtune})
OUT=${1:-val-knobs}; mkdir -p "$OUT"; cd "$OUT"
for seed in 1 2; do
  while read -r spec; do
    [ -z "$spec" ] && continue
    for cfg in A B; do
      key="$cfg $seed $spec"
      grep -qxF "$key" done.txt 2>/dev/null && continue
      if [ $cfg = A ]; then args="--population 256 --generations 1"; else args="--population 2048 --generations 4"; fi
      start=$(date +%s.%N)
      $WT tune "$spec" --model world --trials 64 --seed $seed --threads 2 --quiet --db ${cfg}${seed}.db $args > /dev/null 2>>err.log || { echo "fail $key" >> err.log; continue; }
      end=$(date +%s.%N)
      echo "$key" >> done.txt
      echo "$cfg $seed $spec $(echo "$end - $start" | bc)" >> times.txt
    done
  done < <(grep -v "^#" "$LIST")
done
echo ALLDONE >> done.txt
