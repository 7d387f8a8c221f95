#!/usr/bin/env bash
# The world model's own picks on the training workloads (docs/results/v2-dagger): the shipped bundle tunes
# every train-split workload of data/collection_workloads.txt (250) for 32 trials on this machine, then the runs are exported to
# data/dataset-dagger-NAME.jsonl.gz, a dataset file the rankers can be retrained with (`worldtune train
# ... --dataset data/dataset-dagger-NAME.jsonl.gz --stage ranker --restart --rankers world,initial,actions`).
# Resumable: a finished workload is skipped, an interrupted one resumes from the database. Nothing else may
# compute on the machine while it measures.
# Usage: [HOURS=H] [DB=FILE] bash scripts/collect_picks.sh NAME      (NAME: a short machine name, e.g. epyc)
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-}
[[ "$name" =~ ^[a-z0-9][a-z0-9-]*$ ]] || { echo "collect_picks: give a short machine name (a-z, 0-9, -), e.g. epyc" >&2; exit 2; }
db=${DB:-dagger-$name.db}
list="$db.train-list.txt"
done_list="$db.done.txt"
./build/worldtune dataset split --list data/collection_workloads.txt --split train --seed 1 --val 0.1 --test 0.15 > "$list"
end=$(awk -v h="${HOURS:-1000}" -v now="$(date +%s)" 'BEGIN { printf "%d", now + h * 3600 }')
while read -r spec; do
  grep -qxF "$spec" "$done_list" 2>/dev/null && continue
  [ "$(date +%s)" -gt "$end" ] && break
  ./build/worldtune tune "$spec" --model world --trials 32 --seed 1 --threads 2 --quiet --db "$db" < /dev/null > /dev/null &&
    echo "$spec" >> "$done_list"
done < "$list"
./build/worldtune dataset export --db "$db" --out "data/dataset-dagger-$name.jsonl.gz" --seed 1 --val 0.1 --test 0.15
