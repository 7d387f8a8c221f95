#!/usr/bin/env bash
# How many trials the world model needs to reach static@640 on issue 21's sample-efficiency subset (the
# first 3 bench workloads, docs/results/v4-bench-zen5/efficiency/workloads.txt; a claim measurement, nothing
# is chosen on it). The shipped product's world search continued to 640 trials (`worldtune compare`,
# resumable), then every run's best at 64, 128, 256 and 640 trials re-measured side by side with the static
# model's 640-trial bests of docs/results/v4-bench-zen5 (seeds 1-2, from its committed records).
# Measures: a quiet machine. Usage, from the repository root:
#   [SEEDS=2] bash docs/results/world640-efficiency-zen5/run.sh WORKDIR
#   python3 docs/results/world640-efficiency-zen5/summary.py WORKDIR/remeasured.tsv
set -euo pipefail
here=docs/results/world640-efficiency-zen5
work=$(mkdir -p "${1:?give a work folder}" && cd "$1" && pwd)
list=docs/results/v4-bench-zen5/efficiency/workloads.txt
seeds=${SEEDS:-2}
mapfile -t specs < <(grep -v '^#' "$list" | grep -v '^$')
# 1. world to 640 trials per seed (each budget's best also re-measured once beside the others: compare.md)
./build/worldtune compare "${specs[@]}" --models world --trials 64,128,256,640 --seeds "$seeds" --peers none \
  --rounds 1 --threads 2 --db "$work/world640.db" --out "$work/compare.md" > /dev/null
# 2. one database per run: the world seeds, and the static seeds 1-2 of the bench records
./build/worldtune records export --db "$work/world640.db" --out "$work/world640.jsonl" > /dev/null
[ -f "$work/bench.jsonl" ] || gunzip -c docs/results/v4-bench-zen5/records.jsonl.gz > "$work/bench.jsonl"
runs=()
for seed in $(seq 1 "$seeds"); do
  for pair in "world$seed:compare:world/v4:seed$seed:$work/world640.jsonl" "static$seed:bench:static:seed$seed:$work/bench.jsonl"; do
    name=${pair%%:*}; rest=${pair#*:}; file=${rest##*:}; source=${rest%:*}
    [ "$name" = "static$seed" ] && [ "$seed" -gt 2 ] && continue   # the bench ran static to 640 on seeds 1-2
    if [ ! -f "$work/$name.db" ]; then
      python3 "$here/select_source.py" "$file" "$source" > "$work/$name.jsonl"
      ./build/worldtune records import --db "$work/$name.db" "$work/$name.jsonl" > /dev/null
    fi
    if [ "${name#world}" != "$name" ]; then
      runs+=("$work/$name.db@64" "$work/$name.db@128" "$work/$name.db@256" "$work/$name.db@640")
    else
      runs+=("$work/$name.db@640")
    fi
  done
done
# 3. side by side, 3 rounds (resumable: workloads already in remeasured.tsv are skipped)
./build/worldtune remeasure --db "$(IFS=,; echo "${runs[*]}")" --list "$list" --rounds 3 --threads 2 \
  --out "$work/remeasured.tsv"
