#!/usr/bin/env bash
# Reproduces the shipped trajectory dataset (docs/dataset.md): collects every workload of
# data/collection_workloads.txt with random and static-model searches (hours on 2 cores; stop and rerun at
# will, it resumes from the database), then exports the dataset with splits by workload.
# Nothing else should run on the machine while it measures.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
db=${DB:-collection.db}
./build/worldtune dataset collect --list data/collection_workloads.txt --db "$db" \
  --trials 96 --pass-trials 32 --repeats 3 --min-time 0.01 --threads 2 ${HOURS:+--hours "$HOURS"}
./build/worldtune dataset export --db "$db" --out data/dataset.jsonl.gz --seed 1 --val 0.1 --test 0.15 \
  --text-sample 300 --prefix-sample 30
./build/worldtune dataset verify data/dataset.jsonl.gz
