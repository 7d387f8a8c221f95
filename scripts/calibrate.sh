#!/usr/bin/env bash
# Calibrates the shipped world model to this machine (docs/model.md, "calibration"): measures 24 random
# schedules of each training-split workload of data/calibration_workloads.txt (~35 min on 2 cores) and of
# the small ops of data/calibration_small_workloads.txt (~8 min); stop and rerun at will, it resumes from
# the database. Then it fits the correction into models/world.
# Nothing else should run on the machine while it measures.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
db=${DB:-calibration.db}
for list in data/calibration_workloads.txt data/calibration_small_workloads.txt; do
  ./build/worldtune dataset collect --list "$list" --db "$db" --models random \
    --trials 24 --pass-trials 24 --seed 11 --threads 2 ${HOURS:+--hours "$HOURS"}
done
./build/worldtune calibrate --db "$db" --dataset data/dataset.jsonl.gz
