#!/usr/bin/env bash
# Installs what worldtune needs, builds it, and tunes the default workload (a 1024^3 matmul) with 64 trials.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
spec=${1:-matmul:M=1024,N=1024,K=1024}
./build/worldtune tune "$spec" --trials "${TRIALS:-64}" --threads 2
