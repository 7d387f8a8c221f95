#!/usr/bin/env bash
# The BERT FFN-up layer (dense with GELU): the best schedule the 640-trial run found (gelu-best.json), timed
# with GELU as Halide's tanh (OLD, a worldtune built before the change to src/workload/OpRegistry.cpp) and as
# x / (1 + exp(-2u)) (NEW), and oneDNN, in ROUNDS interleaved rounds of fresh processes, 2 threads, every
# output checked against the reference. Measures: a quiet machine. Usage, from the repository root:
#   OLD=build/worldtune-tanh [NEW=build/worldtune] [ROUNDS=5] bash docs/results/issue22-v6-zen5/gelu_ab.sh
set -euo pipefail
OLD=${OLD:?give OLD, a worldtune built before the change}; NEW=${NEW:-build/worldtune}; ROUNDS=${ROUNDS:-5}
S='dense:M=128,N=3072,K=768,bias=1,act=gelu'
A=$(dirname "$0")/gelu-best.json
gflops() { "$1" measure "$S" --actions "$A" --no-store --threads 2 2>&1 | awk '/^GFLOP/ {g=$2} /^check/ {c=$2} END {print g, c}'; }
for r in $(seq "$ROUNDS"); do
  echo "round $r tanh $(gflops "$OLD")"
  echo "round $r exp $(gflops "$NEW")"
  echo "round $r onednn $("$NEW" baseline "$S" --only onednn --threads 2 2>&1 | awk '$1 == "onednn" {print $4, $6}')"
done
