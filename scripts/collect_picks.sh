#!/usr/bin/env bash
# The world model's own picks on the training workloads (docs/results/v2-dagger): the shipped bundle tunes
# every train-split workload of data/collection_workloads.txt (250) for 32 trials on this machine, then the runs are exported to
# data/dataset-dagger-NAME.jsonl.gz, a dataset file the rankers can be retrained with (`worldtune train
# ... --dataset data/dataset-dagger-NAME.jsonl.gz --stage ranker --restart --rankers world,initial,actions`).
# ROUND=2 (3, ...) continues every workload's run by 32 more trials in the same database, with the bundle
# shipped then (the rankers retrained on the earlier rounds), so the picks cover the late half of a run;
# the export then holds every round.
# SPACE=vN tunes in that search space (default: the tuner's default space, `worldtune tune --help`); one database holds one
# space's picks, so give each space its own DB and NAME (e.g. SPACE=v4 bash scripts/collect_picks.sh zen5-v4).
# DIFFERS_FROM=vM (with SPACE) keeps only the workloads whose `worldtune sample` draws differ between SPACE and
# vM (20 samples, seed 3): the ones a new space's rule reaches (e.g. SPACE=v6 DIFFERS_FROM=v4), since on the
# others its picks would repeat the older space's.
# Resumable: a workload's run is topped up to 32 x ROUND records (a finished one is skipped, an interrupted
# one measures only what it lacks). Nothing else may compute on the machine while it measures.
# Usage: [ROUND=R] [HOURS=H] [DB=FILE] [SPACE=vN [DIFFERS_FROM=vM]] bash scripts/collect_picks.sh NAME      (NAME: a short machine name, e.g. epyc)
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-}
[[ "$name" =~ ^[a-z0-9][a-z0-9-]*$ ]] || { echo "collect_picks: give a short machine name (a-z, 0-9, -), e.g. epyc" >&2; exit 2; }
round=${ROUND:-1}
[[ "$round" =~ ^[1-9][0-9]*$ ]] || { echo "collect_picks: ROUND must be a positive integer" >&2; exit 2; }
space_args=()
if [ -n "${SPACE:-}" ]; then
  [[ "$SPACE" =~ ^v[0-9]+$ ]] || { echo "collect_picks: SPACE must look like v4" >&2; exit 2; }
  space_args=(--space "$SPACE")
fi
db=${DB:-dagger-$name.db}
list="$db.train-list.txt"
done_list="$db.done-$round.txt"   # workloads already topped up this round: skipped without recounting
if [ "$round" -gt 1 ] && [ ! -f "$db" ]; then echo "collect_picks: round $round continues $db, which does not exist" >&2; exit 2; fi
./build/worldtune dataset split --list data/collection_workloads.txt --split train --seed 1 --val 0.1 --test 0.15 > "$list"
if [ -n "${DIFFERS_FROM:-}" ]; then
  [ -n "${SPACE:-}" ] || { echo "collect_picks: DIFFERS_FROM needs SPACE" >&2; exit 2; }
  differs="$db.differs-$SPACE-$DIFFERS_FROM.txt"   # kept, so a resumed run does not sample the list again
  if [ ! -f "$differs" ]; then
    while read -r spec; do
      a=$(./build/worldtune sample "$spec" --count 20 --seed 3 --space "$SPACE" | md5sum)
      b=$(./build/worldtune sample "$spec" --count 20 --seed 3 --space "$DIFFERS_FROM" | md5sum)
      if [ "$a" != "$b" ]; then echo "$spec"; fi
    done < "$list" > "$differs.tmp"
    mv "$differs.tmp" "$differs"
  fi
  cp "$differs" "$list"
  echo "collect_picks: $(wc -l < "$list") train workloads sample differently in $SPACE and $DIFFERS_FROM" >&2
fi
end=$(awk -v h="${HOURS:-1000}" -v now="$(date +%s)" 'BEGIN { printf "%d", now + h * 3600 }')
while read -r spec; do
  [ "$(date +%s)" -gt "$end" ] && break
  grep -qxF "$spec" "$done_list" 2>/dev/null && continue
  have=0
  [ -f "$db" ] && have=$(./build/worldtune records list "$spec" --db "$db" --limit 0 | grep -cE '^ *[0-9]+ ' || true)
  lacking=$((32 * round - have))
  if [ "$lacking" -le 0 ] ||
     ./build/worldtune tune "$spec" --model world --trials "$lacking" --seed 1 --threads 2 --quiet "${space_args[@]}" --db "$db" < /dev/null > /dev/null; then
    echo "$spec" >> "$done_list"
  else
    echo "collect_picks: tuning $spec failed; its records are kept, rerun to top it up" >&2
  fi
done < "$list"
./build/worldtune dataset export --db "$db" --out "data/dataset-dagger-$name.jsonl.gz" --seed 1 --val 0.1 --test 0.15
