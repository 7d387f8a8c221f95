#!/usr/bin/env bash
# Issue 22's layernorm and softmax rows again, with the peers warmed up (BaselineParams::warmup_seconds,
# 0.25 s; docs/benchmarks.md, "Warm-up of the peers"). run.sh timed libtorch without it, which read it 5-20x
# slow on these two. `worldtune compare` resumes world/v8's seed-1 runs at 64 and 640 trials from a copy of
# run.sh's database (no new tuning), and re-measures both bests in 4 new rounds beside oneDNN and libtorch
# (report-norms.md). Written before it ran. A measurement: nothing else may run.
# Ran twice: first with the schedules in the rounds still warming up for one run (its outputs renamed
# *-peers: report-norms-peers.md, report-warm-peers.md, targets-warm-peers.txt, fma_peak_warm_peers.txt),
# then with the schedules warmed up as long as the peers (side_by_side_measure, since 2026-12-07, later).
# Usage, from the repository root: bash docs/results/issue22-v8full-zen5/rerun_norms.sh WORK_OF_RUN_SH COPY_DIR
set -euo pipefail
src=${1:?usage: rerun_norms.sh WORK_OF_RUN_SH COPY_DIR}; work=${2:?usage: rerun_norms.sh WORK_OF_RUN_SH COPY_DIR}
out=docs/results/issue22-v8full-zen5; WT=${WORLDTUNE:-build/worldtune}
mkdir -p "$work"; [[ -f "$work/compare.db" ]] || cp "$src/compare.db" "$work/compare.db"
"$WT" compare layernorm:M=128,N=768 softmax:M=1536,N=128 --models world/v8 --trials 64,640 --seeds 1 --rounds 4 \
  --threads 2 --peers onednn,libtorch --db "$work/compare.db" --out "$out/report-norms.md"
