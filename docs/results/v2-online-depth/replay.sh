#!/usr/bin/env bash
# Replay (no measuring) of the 36 round-2 val runs: why does the booster correction learn more slowly than
# the static model learning from scratch on the same lowered features (docs/results/v2-cascade)? Two
# suspects, varied one at a time on the shipped correction (B) and on the cascade (LR: lowered features,
# 100 rounds, eta 0.2): the trees' depth (online_depth, 4 shipped) and the ~140 latent columns of the
# predicted final state the correction may split on (online_reads_latent false: it may not; the prior still
# reads them for the base margin). Bundles are config-only copies of models/world.
# Usage: bash docs/results/v2-online-depth/replay.sh WORKDIR
source "$(dirname "$0")/../../../scripts/replay_prelude.sh" "$@"
LR='"online_lowered_features": true, "online_lowered_shortlist": 64, "online_rounds": 100, "online_eta": 0.2'
bundle B '{}'
bundle B-NL '{"online_reads_latent": false}'
bundle LR "{$LR}"
bundle LR-D6 "{$LR, \"online_depth\": 6}"
bundle LR-NL "{$LR, \"online_reads_latent\": false}"
bundle LR-D6-NL "{$LR, \"online_depth\": 6, \"online_reads_latent\": false}"
for b in ${BUNDLES:-B B-NL LR LR-D6 LR-NL LR-D6-NL}; do
  echo "## $b"
  "$repo/build/worldtune" replay --db E1.db,E2.db,E3.db --models world --after 0,16,32,48 --threads 2 --bundle $b --seed 1 2>/dev/null
done
