#!/usr/bin/env bash
# The issue-22 Zen 5 run's best dense and 3x3-conv schedules (docs/results/space-v2-zen5), measured
# interleaved against the same schedules with the weight asked for in the packed layout (search space v3:
# the copy of W per parallel iteration replaced by one `SO` on W, arranged once before the runs).
# A measurement: nothing else may run. Usage, from the repository root:
#   bash docs/results/space-v3-zen5/hand.sh > docs/results/space-v3-zen5/hand.txt
set -euo pipefail
dir=$(dirname "$0")
WT=${WORLDTUNE:-build/worldtune}
ROUNDS=${ROUNDS:-5}
gflops() { "$WT" measure "$1" --actions "$2" --no-store 2>&1 | awk '/^GFLOP/ {print $2}'; }
lscpu | grep 'Model name' ; lscpu | grep -E '^CPU family|^Model:' | tr -s ' ' | paste -sd ' '
dense=dense:M=128,N=768,K=3072,bias=1
conv=conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu
for i in $(seq "$ROUNDS"); do
  a=$(gflops $dense docs/results/space-v2-zen5/dense-best.json); b=$(gflops $dense "$dir/dense-best-weight-layout.json")
  c=$(gflops $conv docs/results/space-v2-zen5/conv-best.json); e=$(gflops $conv "$dir/conv-best-weight-layout.json")
  echo "round $i GFLOP/s: dense copied per iteration $a | dense weight layout $b | conv copied $c | conv weight layout $e"
done
