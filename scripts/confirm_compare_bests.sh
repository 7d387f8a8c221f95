#!/usr/bin/env bash
# Re-measures in fresh processes the best schedule of every run a `worldtune compare` stored in one database
# (scripts/confirm_bests.py, --top 1, 5 rounds): splits DB into one database per MODEL and seed under
# WORK/confirm (confirm_bests.py groups by database and workload), then writes WORK/confirm.md.
# Resumable (a split database is kept; confirm_bests resumes from WORK/confirm/out.jsonl). Measures: a quiet
# machine. Usage, from the repository root:
#   bash scripts/confirm_compare_bests.sh DB WORK "MODEL..." SEEDS     e.g. ... "world/v4 world/v6" 2
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: confirm_compare_bests.sh DB WORK \"MODEL...\" SEEDS" >&2; exit 2; }
db=$1; work=$2; models=$3; seeds=$4
[ -f "$db" ] || { echo "confirm_compare_bests: no database $db" >&2; exit 2; }
WT=${WORLDTUNE:-build/worldtune}
mkdir -p "$work/confirm"
runs=()
for model in $models; do
  for seed in $(seq "$seeds"); do
    s=$model:seed$seed; n=$(echo "$s" | tr '/:' '__'); runs+=("$work/confirm/$n.db")
    [ -f "$work/confirm/$n.db" ] && continue
    cp "$db" "$work/confirm/$n.db"
    sqlite3 "$work/confirm/$n.db" "delete from records where source != 'compare:$s'; vacuum;"
  done
done
python3 scripts/confirm_bests.py "$work/confirm/out.jsonl" "${runs[@]}" --top 1 --rounds 5 --worldtune "$WT" > "$work/confirm.md"
