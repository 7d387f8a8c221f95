#!/usr/bin/env bash
# Search space v9 (Winograd F(2, 3) / F(4, 3) for dense 3x3 convolutions at stride 1, `WG`) against v8 on
# ResNet-50's four stride-1 3x3 convolutions (issue 22: the one route past the direct-convolution FMA bound
# of docs/results/resnet50-hour-v8-zen5/peak_bound.txt), random search and the world model, 64 trials,
# 1 seed, every best re-measured 3 rounds side by side with oneDNN (convolution_auto: it may pick its own
# Winograd) and libtorch. A measurement of what the space reaches: it chooses no setting (v8 stays the
# default; the 7x7 conv is on the val list and the others are in no decision here). Written before it ran.
# Then the ResNet-50 estimate of the hour-long v8 run (docs/results/resnet50-hour-v8-zen5) with these four
# subgraphs' v9 records added: every subgraph's best re-measured beside libtorch (estimate5.md).
# Usage, from the repository root (a measurement: nothing else may run):
#   bash docs/results/space-v9-winograd-zen5/run.sh WORK R50DB
#   WORK: a folder for the databases; R50DB: the hour run's database (copied, never changed)
set -euo pipefail
WORK=${1:?usage: run.sh WORK R50DB}
R50=${2:?usage: run.sh WORK R50DB}
OUT=docs/results/space-v9-winograd-zen5
WT=${WORLDTUNE:-build/worldtune}
mkdir -p "$WORK"
SPECS="conv2d:N=1,C=64,H=56,W=56,K=64,R=3,S=3,pad=1,bias=1,act=relu conv2d:N=1,C=128,H=28,W=28,K=128,R=3,S=3,pad=1,bias=1,act=relu conv2d:N=1,C=256,H=14,W=14,K=256,R=3,S=3,pad=1,bias=1,act=relu conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu"
lscpu > "$OUT/lscpu.txt"
# shellcheck disable=SC2086
"$WT" compare $SPECS --models random/v8,random/v9,world/v8,world/v9 --trials 8,16,32,64 --seeds 1 --rounds 3 \
  --peers onednn,libtorch --threads 2 --db "$WORK/v9.db" --out "$OUT/compare.md" > "$WORK/compare.log" 2>&1
# The end-to-end estimate with the v9 records of the four subgraphs added to a copy of the hour run's database.
cp "$R50" "$WORK/resnet50-v9.db"
"$WT" records export --db "$WORK/v9.db" --out "$WORK/v9.jsonl" >> "$WORK/compare.log" 2>&1
"$WT" records import --db "$WORK/resnet50-v9.db" "$WORK/v9.jsonl" >> "$WORK/compare.log" 2>&1
"$WT" estimate --network resnet50 --rounds 3 --threads 2 --db "$WORK/resnet50-v9.db" > "$OUT/estimate5.md" 2> "$OUT/estimate5.log"
python3 docs/results/resnet50-hour-v8-zen5/libtorch_best_round.py "$OUT/estimate5.md" "$OUT/estimate5.log" 3 > "$OUT/estimate5_best_round.txt"
echo rc=0
