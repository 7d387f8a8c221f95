#!/usr/bin/env bash
# Search space v10 against v8 (the default) with the shipped world model at 64 trials, on the val and
# training-split workloads where the two spaces sample differently (workloads.txt: the dense 3x3 stride-1
# convolutions, the only programs with a Winograd form), seeds 1-4 interleaved (scripts/val_search_knobs.sh;
# resumable), then every run's best re-measured side by side (scripts/val_remeasure.sh, 3 rounds).
#   P8:  the shipped product (models/world, search space v8);
#   P10: the same bundle searching space v10: v9 (Winograd F(2, 3) / F(4, 3), `WG`, at p_winograd 0.5, with
#        the constant-tensor rule) and the read-order rule (the Winograd output vectorized along the channels
#        it reads densely at p_read_vector 0.5; docs/results/space-v9-winograd-zen5/probes: 425 against
#        527 us for the same schedule vectorized along x, on the Zen 5).
# Every other program samples the same in both spaces, draw for draw (SearchTest.Space9...).
# Machine: Intel Xeon family 6 model 207 (lscpu.txt). Measures: a quiet machine, about 60 min.
# The rule, written before any seed ran: v10 becomes the default search space of tune/compare/bench if, at
# 64 trials re-measured side by side, P10 over P8 over the 8 workloads (per workload the geometric mean over
# seeds) is above 1.0 with the bootstrap interval's lower bound above 0.97 (the A/A noise of
# docs/results/register-fill-window-zen5) and P10 wins on at least half of the workloads. Judged on seeds 1-4;
# with fewer, nothing ships. Otherwise this report is committed and v10 stays a choice (--space v10).
# Usage: [SEEDS="1 2 3 4"] bash docs/results/space-v10-val-xeon/run.sh WORKDIR
#        LIST=docs/results/space-v10-val-xeon/workloads.txt python3 scripts/val_search_knobs_summary.py WORKDIR/runs P8 16,32,64 P10
#        python3 scripts/val_remeasured_summary.py WORKDIR/runs P8 P10
set -euo pipefail
work=$(cd "${1:?give a work folder}" && pwd)
seeds=${SEEDS:-1 2 3 4}
export LIST=docs/results/space-v10-val-xeon/workloads.txt
lscpu > docs/results/space-v10-val-xeon/lscpu.txt
printf "P8 --model world --space v8\nP10 --model world --space v10\n" > "$work/configs.txt"
SEEDS="$seeds" TRIALS=64 bash scripts/val_search_knobs.sh "$work/runs" "$work/configs.txt"
bash scripts/val_remeasure.sh "$work/runs" 64 "$seeds"
