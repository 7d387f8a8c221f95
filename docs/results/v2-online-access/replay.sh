#!/usr/bin/env bash
# Replay (no measuring) of the 36 round-2 val runs (docs/results/v2-dagger/round2/E*.jsonl.gz) with the
# booster online correction, with and without the access features (online_access_features), with the prior
# as its base (weight 1, shipped) and from the run alone (weight 0); static from scratch beside them.
# Bundles are config-only copies of models/world. Usage: bash docs/results/v2-online-access/replay.sh WORKDIR
source "$(dirname "$0")/../../../scripts/replay_prelude.sh" "$@"
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
