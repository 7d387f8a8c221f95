#!/usr/bin/env bash
# Issue 21's bench with the product as shipped in search space v10 (the default since space-v10-val-xeon),
# on whatever machine runs it: the same command as docs/results/v8-bench-zen5 and v4-bench-zen5 (world vs
# static vs world-initial, 64 trials, every best re-measured 3 times beside oneDNN), so the three compare
# across spaces on one machine type. Written before it ran. TAG names the machine (the report folder is
# docs/results/v10-bench-TAG); on a machine whose records are not in the rankers' training data
# (docs/dataset.md lists them) it is issue 21's new-machine run.
# Resumable: rerun the same command (the database must stay on the same CPU); SEEDS=5 adds seeds 4 and 5.
# Usage: bash docs/results/v10-bench/run.sh TAG
tag=${1:?give a machine tag, e.g. xeon or zen3}
cd "$(dirname "$0")/../../.."
SEEDS=${SEEDS:-3} DB=${DB:-bench-v10-$tag.db} OUT=${OUT:-docs/results/v10-bench-$tag} bash docs/results/v2-retrained-bench/run.sh
