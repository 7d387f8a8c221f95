#!/usr/bin/env bash
# Installs what worldtune needs, builds it, tunes a workload (default: a 1024^3 matmul) with the world model
# (the default model), then puts that search side by side with random search at the same budget, oneDNN and
# Halide's Adams2019 autoscheduler: every entry re-measured together, in shuffled rounds, on this machine.
# Usage: bash scripts/demo.sh [SPEC]   (TRIALS=64, DB=demo.db)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
spec=${1:-matmul:M=1024,N=1024,K=1024}
trials=${TRIALS:-64}
db=${DB:-demo.db}
./build/worldtune tune "$spec" --trials "$trials" --threads 2 --db "$db"
echo
echo "== side by side: the world model's search against random search with the same budget and two peers =="
./build/worldtune compare "$spec" --models world,random --trials "$trials" --peers onednn,adams2019 --rounds 3 --threads 2 --db "$db"
