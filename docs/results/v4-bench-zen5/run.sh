#!/usr/bin/env bash
# Issue 21's bench with the product as shipped at dbd4a90 (search space v4 by default, rankers that learned
# the world model's v4 picks) on AMD EPYC Zen 5 (family 26 model 2). Zen 5's training-split records are in
# the rankers' data since 2026-12-04, so this is not a new-machine run; the bench workloads are in none.
# Resumable: rerun the same command (the database must stay on the same CPU); SEEDS=5 adds seeds 4 and 5.
cd "$(dirname "$0")/../../.."
SEEDS=${SEEDS:-3} DB=${DB:-bench-v4-zen5.db} OUT=${OUT:-docs/results/v4-bench-zen5} bash docs/results/v2-retrained-bench/run.sh
