#!/usr/bin/env bash
# Hand-written schedules in search space v3's actions against the best the search found (docs/results/
# space-v3-zen5) and oneDNN, on issue 22's 3x3 convolution and dense layer: is a oneDNN-class kernel
# reachable with the actions we have? Rounds interleave every schedule and oneDNN, each in a fresh process.
# A measurement: nothing else may run. Usage, from the repository root:
#   bash docs/results/hand-kernels-zen5/hand.sh > docs/results/hand-kernels-zen5/hand.txt
set -euo pipefail
dir=$(dirname "$0")
WT=${WORLDTUNE:-build/worldtune}
ROUNDS=${ROUNDS:-5}
found=docs/results/space-v3-zen5
gflops() { "$WT" measure "$1" --actions "$2" --no-store --threads 2 2>&1 | awk '/^GFLOP/ {print $2} /^check/ && $2 != "passed" {print "CHECK-FAILED"}'; }
onednn() { "$WT" baseline "$1" --only onednn --threads 2 2>&1 | awk '$1 == "onednn" {print $4}'; }
lscpu | grep 'Model name'; lscpu | grep -E '^CPU family|^Model:' | tr -s ' ' | paste -sd ' '
conv=conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu
dense=dense:M=128,N=768,K=3072,bias=1
for i in $(seq "$ROUNDS"); do
  a=$(gflops $conv $found/conv-best-weight-layout.json); b=$(gflops $conv "$dir/conv-register-tile.json"); c=$(onednn $conv)
  d=$(gflops $dense $found/dense-best-weight-layout.json); e=$(gflops $dense "$dir/dense-register-tile.json"); f=$(onednn $dense)
  echo "round $i GFLOP/s: conv found $a | conv register tile $b | conv oneDNN $c | dense found $d | dense register tile $e | dense oneDNN $f"
done
