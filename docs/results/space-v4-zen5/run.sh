#!/usr/bin/env bash
# Issue 22, search space v4 (vector blocks, weights packed more often) on the Zen 5: the 3x3 conv and the
# dense layer of issue 22's list, world/v3 against world/v4 (+ random/v4 for the headroom), 64 and 640
# trials, SEEDS seeds (default 1), 4 rounds beside oneDNN and libtorch. world/v3 and random/v3 are the
# stored runs of docs/results/space-v3-zen5 (imported, not re-tuned); world/v4 and random/v4 are tuned here
# (about 5 min per 640-trial run on 2 cores). Then the 640-trial runs' bests are re-measured in fresh
# processes (confirm.md). Resumable (compare resumes from its db; confirm_bests from its jsonl).
# Measures: a quiet machine. Usage, from the repository root:
#   [SEEDS=2] bash docs/results/space-v4-zen5/run.sh WORKDIR
set -euo pipefail
work=${1:?give a work folder}; mkdir -p "$work"
WT=${WORLDTUNE:-build/worldtune}
SEEDS=${SEEDS:-1}
DB=$work/v4.db
if [ ! -f "$DB" ]; then
  zcat docs/results/space-v3-zen5/records.jsonl.gz > "$work/v3records.jsonl"
  "$WT" records import "$work/v3records.jsonl" --db "$DB"
fi
"$WT" compare conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu dense:M=128,N=768,K=3072,bias=1 \
  --models world/v3,world/v4,random/v4 --trials 64,640 --seeds "$SEEDS" --rounds 4 --threads 2 --peers onednn,libtorch \
  --db "$DB" --out "$work/report.md"
WORLDTUNE="$WT" bash scripts/confirm_compare_bests.sh "$DB" "$work" "world/v3 world/v4 random/v4" "$SEEDS"
