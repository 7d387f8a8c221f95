#!/usr/bin/env bash
# Replay (no measuring) of the 36 round-2 val runs (docs/results/v2-dagger/round2/E*.jsonl.gz) with the
# booster online correction, with and without the access features (online_access_features), with the prior
# as its base (weight 1, shipped) and from the run alone (weight 0); static from scratch beside them.
# Bundles are config-only copies of models/world. Usage: bash docs/results/v2-online-access/replay.sh WORKDIR
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
work=${1:?give a work folder}
mkdir -p "$work" && cd "$work"
for n in 1 2 3; do
  [ -f E$n.db ] || { gunzip -c "$repo/docs/results/v2-dagger/round2/E$n.jsonl.gz" > E$n.jsonl; "$repo/build/worldtune" records import --db E$n.db E$n.jsonl > /dev/null; }
done
bundle() {
  rm -rf "$1"; cp -r "$repo/models/world" "$1"
  python3 -c 'import json,sys; p=sys.argv[1]+"/config.json"; c=json.load(open(p)); c.update(json.loads(sys.argv[2])); json.dump(c, open(p, "w"), indent=2, sort_keys=True)' "$1" "$2"
}
bundle B '{}'
bundle A '{"online_access_features": true}'
bundle B0 '{"online_prior_weight": 0}'
bundle A0 '{"online_access_features": true, "online_prior_weight": 0}'
for seed in 1 2; do
  for b in B A B0 A0; do
    echo "## $b seed $seed"
    "$repo/build/worldtune" replay --db E1.db,E2.db,E3.db --models world --after 16,32,48 --threads 2 --bundle $b --seed $seed 2>/dev/null
  done
  echo "## static seed $seed"
  "$repo/build/worldtune" replay --db E1.db,E2.db,E3.db --models static --after 16,32,48 --threads 2 --seed $seed 2>/dev/null
done
