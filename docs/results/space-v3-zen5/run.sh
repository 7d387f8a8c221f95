#!/usr/bin/env bash
# Issue 22, search space v3 (weights asked for in a packed layout) on the Zen 5: the 3x3 conv and the
# dense layer of issue 22's list, world/v2 vs world/v3 (+ random/v3 for the headroom), 64 and 640 trials,
# 2 seeds, 4 rounds beside oneDNN and libtorch. world/v2 seed 1 is the stored run of
# docs/results/space-v2-zen5 (imported); the rest is tuned here (about 55 min on 2 cores).
# Then the six 640-trial runs' bests are re-measured in fresh processes (confirm.md).
# Measures: a quiet machine. Usage, from the repository root: bash docs/results/space-v3-zen5/run.sh WORKDIR
set -euo pipefail
work=${1:?give a work folder}; mkdir -p "$work"
WT=${WORLDTUNE:-build/worldtune}
DB=$work/v3.db
if [ ! -f "$DB" ]; then
  zcat docs/results/space-v2-zen5/records.jsonl.gz > "$work/v2records.jsonl"
  "$WT" records import "$work/v2records.jsonl" --db "$DB"
fi
"$WT" compare conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu dense:M=128,N=768,K=3072,bias=1 \
  --models world/v2,world/v3,random/v3 --trials 64,640 --seeds 2 --rounds 4 --threads 2 --peers onednn,libtorch \
  --db "$DB" --out "$work/report.md"
# One database per 640-trial run (confirm_bests.py groups by database and workload).
mkdir -p "$work/confirm"
runs=()
for s in world/v2:seed1 world/v2:seed2 world/v3:seed1 world/v3:seed2 random/v3:seed1 random/v3:seed2; do
  n=$(echo "$s" | tr '/:' '__'); runs+=("$work/confirm/$n.db")
  [ -f "$work/confirm/$n.db" ] && continue
  cp "$DB" "$work/confirm/$n.db"
  sqlite3 "$work/confirm/$n.db" "delete from records where source != 'compare:$s' or not (spec like 'conv2d:N=1,C=512%' or spec like 'dense%'); vacuum;"
done
python3 scripts/confirm_bests.py "$work/confirm/out.jsonl" "${runs[@]}" --top 1 --rounds 5 --worldtune "$WT" > "$work/confirm.md"
