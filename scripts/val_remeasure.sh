#!/usr/bin/env bash
# Re-measures side by side the best of every run of a val-list A/B made by scripts/val_search_knobs.sh: one
# records db per config and seed (OUT_DIR/<config><seed>.db, configs in OUT_DIR/configs.txt), each run's best
# within its first TRIALS records, 3 shuffled rounds, 2 threads (worldtune remeasure). A measurement: a quiet
# machine. Writes OUT_DIR/remeasured.tsv, which scripts/val_remeasured_summary.py reads.
# LIST: the workload list the A/B ran (default docs/val_workloads.txt).
# Usage, from the repository root: [LIST=FILE] bash scripts/val_remeasure.sh OUT_DIR TRIALS "SEEDS"
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: val_remeasure.sh OUT_DIR TRIALS \"SEEDS\"" >&2; exit 2; }
out=$1; trials=$2; seeds=$3
[ -f "$out/configs.txt" ] || { echo "val_remeasure: no configs file $out/configs.txt" >&2; exit 2; }
WT=${WORLDTUNE:-build/worldtune}
dbs=()
for seed in $seeds; do
  while read -r cfg _; do
    [ -n "$cfg" ] && dbs+=("$out/$cfg$seed.db")
  done < "$out/configs.txt"
done
"$WT" remeasure --db "$(IFS=,; echo "${dbs[*]}")" --list "${LIST:-docs/val_workloads.txt}" --trials "$trials" \
  --rounds 3 --threads 2 --out "$out/remeasured.tsv"
