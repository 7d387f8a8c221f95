#!/usr/bin/env bash
# Issue 21's bench with the shipped bundle on AMD EPYC Zen 5 (family 26 model 2), a machine type none of the
# bundle's training records come from, uncalibrated: 3 seeds. Resumable (rerun the same command; the
# database must stay on the same CPU).
cd "$(dirname "$0")/../../.."
SEEDS=${SEEDS:-3} DB=${DB:-bench-zen5.db} OUT=${OUT:-docs/results/v2-bench-zen5} bash docs/results/v2-retrained-bench/run.sh
