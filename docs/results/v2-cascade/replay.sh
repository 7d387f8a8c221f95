#!/usr/bin/env bash
# Replay (no measuring) of the 36 round-2 val runs (docs/results/v2-dagger/round2/E*.jsonl.gz) with the
# booster online correction as shipped (B) and with the lowered-feature cascade (online_lowered_features:
# the prior's best `online_lowered_shortlist` of a batch lowered and ranked by a correction that also reads
# their lowered statements' pooled static features), varied one setting at a time. Bundles are config-only
# copies of models/world. Usage: bash docs/results/v2-cascade/replay.sh WORKDIR  (about 20 min on 2 cores)
source "$(dirname "$0")/../../../scripts/replay_prelude.sh" "$@"
bundle B '{"online_lowered_features": false, "online_rounds": 30, "online_eta": 0.1}'
bundle L64 '{"online_lowered_features": true, "online_lowered_shortlist": 64, "online_rounds": 30, "online_eta": 0.1}'
bundle L300 '{"online_lowered_features": true, "online_lowered_shortlist": 300, "online_rounds": 30, "online_eta": 0.1}'
bundle LR '{"online_lowered_features": true, "online_lowered_shortlist": 64, "online_rounds": 100, "online_eta": 0.2}'
bundle LW '{"online_lowered_features": true, "online_lowered_shortlist": 64, "online_rounds": 30, "online_eta": 0.1, "online_prior_weight": 0.3}'
bundle LW0 '{"online_lowered_features": true, "online_lowered_shortlist": 64, "online_rounds": 30, "online_eta": 0.1, "online_prior_weight": 0}'
bundle LRS '{"online_lowered_features": true, "online_lowered_shortlist": 64, "online_rounds": 100, "online_eta": 0.2, "online_schedule_features": false}'
bundle LRW '{"online_lowered_features": true, "online_lowered_shortlist": 64, "online_rounds": 100, "online_eta": 0.2, "online_prior_weight": 0.3}'
for b in ${BUNDLES:-B L64 L300 LR LW LW0 LRS LRW}; do
  echo "## $b"
  "$repo/build/worldtune" replay --db E1.db,E2.db,E3.db --models world --after 0,16,32,48 --threads 2 --bundle $b --seed 1 2>/dev/null
done
