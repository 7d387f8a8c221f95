#!/usr/bin/env bash
# Grows the dataset by one machine: measures the training split of data/collection_workloads.txt on this
# machine (`worldtune dataset split --split train`, as export assigns splits; the val and test workloads,
# data/heldout_workloads.txt, are a separate, smaller collection: docs/dataset.md, "One file per machine") with the settings of data/dataset-xeon.jsonl.gz (random and
# static searches, 32 trials each), then exports what is measured so far to data/dataset-NAME-train.jsonl.gz.
# Resumable: stop it (or let HOURS run out) and run the same command again. It refuses a database begun on
# another CPU. Nothing else may compute on the machine while it measures.
# Usage: [HOURS=H] [DB=FILE] bash scripts/collect_machine.sh NAME      (NAME: a short machine name, e.g. xeon)
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-}
[[ "$name" =~ ^[a-z0-9][a-z0-9-]*$ ]] || { echo "collect_machine: give a short machine name (a-z, 0-9, -), e.g. xeon" >&2; exit 2; }
db=${DB:-collection-$name.db}
# The CPU family and model numbers tell apart CPUs a hypervisor names alike ("AMD EPYC": Zen 4 and Zen 5).
machine="$(lscpu | sed -n 's/^Model name: *//p' | head -1) / family $(sed -n 's/^cpu family[[:space:]]*: *//p' /proc/cpuinfo | head -1) model $(sed -n 's/^model[[:space:]]*: *//p' /proc/cpuinfo | head -1) / $(nproc) cores / $(grep -o -w 'avx512f\|avx2' /proc/cpuinfo | sort -u | tr '\n' ' ')"
if [[ -f "$db.machine" && "$(cat "$db.machine")" != "$machine" ]]; then
  echo "collect_machine: $db was begun on '$(cat "$db.machine")', this is '$machine': use another DB or NAME" >&2
  exit 1
fi
echo "$machine" > "$db.machine"
list="$db.train-list.txt"
./build/worldtune dataset split --list data/collection_workloads.txt --split train --seed 1 --val 0.1 --test 0.15 > "$list"
./build/worldtune dataset collect --list "$list" --db "$db" --models random,static --trials 32 --pass-trials 32 \
  --seed 1 --repeats 3 --min-time 0.01 --threads 2 ${HOURS:+--hours "$HOURS"}
./build/worldtune dataset export --db "$db" --out "data/dataset-$name-train.jsonl.gz" --seed 1 --val 0.1 --test 0.15
./build/worldtune dataset stats "data/dataset-$name-train.jsonl.gz"
