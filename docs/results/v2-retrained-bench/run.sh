#!/usr/bin/env bash
# Issue 21's bench in search space v2 with the retrained bundle (models/world after shipping); resumable.
cd "$(dirname "$0")/../../.."
./build/worldtune bench --dataset data/dataset.jsonl.gz --list docs/bench_workloads.txt --models world,static \
  --ablations world-initial --seeds ${SEEDS:-2} --trials 64 --efficiency 640 --efficiency-count ${EFF:-0} \
  --rounds 3 --networks none --peers onednn --threads 2 --db ${DB:-bench.db} --out ${OUT:-docs/results/v2-retrained-bench}
echo rc=$?
# Records of the run: records.jsonl.gz (gunzip, `worldtune records import --db bench.db records.jsonl`, rerun to redo the report).
