#!/usr/bin/env bash
# Val-list search at 128 trials (measures: a quiet machine), 12 val workloads x SEEDS, interleaved
# (scripts/val_search_knobs.sh; resumable), then every run's best re-measured side by side:
#   P4: the shipped product (models/world, search space v4, the default search);
#   P5: the same, sampling from search space v5: v4 with the register-fill rule (SamplerParams::
#       p_register_fill, fill_reduction_block): half of the updates with a vectorized loop get a register
#       tile that fills the register file over a small reduction block, as one decision.
# Why: docs/results/hand-kernels-zen5 built a convolution tile from v3/v4 actions at 1.16x the best the
# searches found on the val 3x3 conv 512->512; the v4 sampler draws that tile's coarse shape with a small
# input-channel block 4 times in 3,000 samples, v5 40 times (`python3 docs/results/hand-kernels-zen5/
# packing.py samples 3000 v4 v5`, no measuring). The model is not retrained: it scores v5's candidates with what it learned on v4.
# The rule, written before any seed ran: v5 becomes the default search space (SamplerParams::space 5, for
# tune/compare/bench) if P5 over P4 at 128 trials, re-measured side by side (worldtune remeasure, 3 rounds),
# is above 1.0 with the bootstrap interval's lower bound above 0.98, and the mean of its as-tuned values at
# 64 and 128 trials is not below 1. Judged on seeds 1-3 (about 75 min here). Otherwise the data and this
# report are committed and v5 stays a named space (`--space v5`).
# Usage: [SEEDS="1 2 3"] bash docs/results/register-fill-val-zen5/run.sh WORKDIR
#        python3 scripts/val_search_knobs_summary.py WORKDIR/runs P4 32,64,128 P5
#        python3 scripts/val_remeasured_summary.py WORKDIR/runs P4 P5
set -euo pipefail
work=$(mkdir -p "${1:?give a work folder}" && cd "$1" && pwd)
seeds=${SEEDS:-1 2 3}
printf "P4 --model world\nP5 --model world --space v5\n" > "$work/configs.txt"
SEEDS="$seeds" TRIALS=128 bash scripts/val_search_knobs.sh "$work/runs" "$work/configs.txt"
bash scripts/val_remeasure.sh "$work/runs" 128 "$seeds"
