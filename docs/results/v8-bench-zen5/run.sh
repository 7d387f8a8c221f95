#!/usr/bin/env bash
# Issue 21's bench with the product as shipped in search space v8 (the default since space-v8-zen5) on AMD
# EPYC Zen 5 (family 26 model 2). Zen 5's training-split records are in the rankers' data, so this is not a
# new-machine run; the bench workloads are in no training or val data. The same command as
# docs/results/v4-bench-zen5 (world vs static vs world-initial, 64 trials, every best re-measured 3 times
# beside oneDNN), so the two compare across spaces. Written before it ran.
# Resumable: rerun the same command (the database must stay on the same CPU); SEEDS=5 adds seeds 4 and 5.
cd "$(dirname "$0")/../../.."
SEEDS=${SEEDS:-3} DB=${DB:-bench-v8-zen5.db} OUT=${OUT:-docs/results/v8-bench-zen5} bash docs/results/v2-retrained-bench/run.sh
