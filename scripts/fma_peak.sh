#!/usr/bin/env bash
# The machine's float32 FMA peak (scripts/fma_peak.cpp), on 1 thread and on THREADS (default: every core),
# with the CPU named: the ceiling that "% of peak" in docs/benchmarks.md is measured against.
# Run it alone: nothing else may compute meanwhile.
# Usage: bash scripts/fma_peak.sh [THREADS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
threads=${1:-$(nproc)}
seconds=${2:-2}
bin=$(mktemp -d)/fma_peak
g++ -O3 -march=native -ffp-contract=fast -std=c++17 -pthread scripts/fma_peak.cpp -o "$bin"
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) logical cores"
"$bin" 1 "$seconds"
[[ "$threads" == 1 ]] || "$bin" "$threads" "$seconds"
rm -rf "$(dirname "$bin")"
