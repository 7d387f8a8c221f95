#!/usr/bin/env bash
# Issue 21's sample-efficiency target (world@64 reaches static@640 on at least 2 of 3 workloads) for the
# product as shipped at dbd4a90, on the Zen 5 of this folder's bench. The subset is the one
# `worldtune bench --efficiency-count 3` takes: the first 3 workloads of docs/bench_workloads.txt (fixed on
# 2026-12-01, before any v2 run). The static model goes on to 640 trials there; world@64 and the rest are
# the bench's own runs, resumed from the same database (import records.jsonl.gz first, see README.md).
# Resumable; SEEDS=N takes seeds 1..N. Measures: a quiet machine.
#   DB=bench-v4-zen5.db [SEEDS=1] bash docs/results/v4-bench-zen5/efficiency.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=${OUT:-docs/results/v4-bench-zen5/efficiency}
mkdir -p "$out"
head -n 3 <(grep -v '^#' docs/bench_workloads.txt | grep -v '^$') > "$out/workloads.txt"
./build/worldtune bench --dataset data/dataset.jsonl.gz --list "$out/workloads.txt" --models world,static \
  --ablations world-initial --seeds "${SEEDS:-1}" --trials 64 --efficiency 640 --efficiency-count 3 \
  --rounds 3 --networks none --peers onednn --threads 2 --db "${DB:?give the bench database}" --out "$out"
