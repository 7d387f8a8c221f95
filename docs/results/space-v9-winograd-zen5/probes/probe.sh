#!/usr/bin/env bash
# Hand-written v9 schedules of ResNet-50's 14x14 stride-1 3x3 convolution, measured one by one (probes.txt):
#   h1   F(4,3), every stage at the root: the matrix products' accumulators in a root buffer
#   h5   h1 with the matrix products computed inside the output transform's ty loop (what the sampler draws
#        as one of its locations)
#   h7   h5 with a register tile of 4 vectors x 4 tiles instead of 2 x 4
#   h9   h5 with the padded input inlined into the input transform
#   h10  h5 with the output vectorized along x (reading the output transform with x % 4) instead of k
# Usage, from the repository root (a measurement: nothing else may run): bash docs/results/space-v9-winograd-zen5/probes/probe.sh DB
set -euo pipefail
DB=${1:?usage: probe.sh DB}
HERE=docs/results/space-v9-winograd-zen5/probes
S="conv2d:N=1,C=256,H=14,W=14,K=256,R=3,S=3,pad=1,bias=1,act=relu"
for h in h1 h5 h7 h9 h10; do
  echo "$h $(build/worldtune measure $S --actions $HERE/$h.json --db "$DB" 2>&1 | grep -E 'latency|error')"
done > $HERE/probes.txt
build/worldtune baseline $S --only onednn --threads 2 2>&1 | tail -1 >> $HERE/probes.txt
