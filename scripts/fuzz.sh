#!/usr/bin/env bash
# Fuzzes every parser of outside input (fuzz/FuzzTargets.h) with libFuzzer from Debian's clang: builds the
# targets in build-fuzz/ (clang, coverage + AddressSanitizer), then runs each for SECONDS (default 12, so a
# minute in all) from a copy of its seed corpus fuzz/corpus/<target>/. With --runs N each target instead runs
# N inputs from the fixed seed 1: the same inputs on every machine, so the short run in ctest cannot flake;
# exploring (new inputs every run) is the SECONDS form. A finding (crash, hang, multi-line
# error, broken round trip) is saved under build-fuzz/findings/ and fails the run: copy it into
# fuzz/regressions/<target>/, where tests/FuzzRegressionTest.cpp replays it in every ordinary build.
# Usage: bash scripts/fuzz.sh [SECONDS | --runs N]
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == --runs ]]; then
  [[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "fuzz: --runs needs a count" >&2; exit 2; }
  budget=(-runs="$2" -seed=1); described="$2 runs from seed 1"
else
  [[ "${1:-12}" =~ ^[0-9]+$ ]] || { echo "fuzz: SECONDS must be a whole number, not '$1'" >&2; exit 2; }
  budget=(-max_total_time="${1:-12}"); described="${1:-12} s"
fi
command -v clang++ >/dev/null || { echo "fuzz: clang++ not found (bash scripts/setup.sh installs it)" >&2; exit 1; }
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DWORLDTUNE_FUZZ=ON >/dev/null
cmake --build build-fuzz -j"${JOBS:-2}" --target fuzz_targets >/dev/null
mkdir -p build-fuzz/findings
status=0
for target in spec actions record_line dataset bundle_json; do
  work=$(mktemp -d)
  cp fuzz/corpus/"$target"/* "$work"/
  if ./build-fuzz/fuzz_"$target" "$work" "${budget[@]}" -timeout=10 -rss_limit_mb=4096 -detect_leaks=0 \
       -artifact_prefix=build-fuzz/findings/"$target"- -print_final_stats=0 > build-fuzz/fuzz_"$target".log 2>&1; then
    echo "fuzz $target: $described, $(ls "$work" | wc -l) corpus inputs, no finding"
  else
    echo "fuzz $target: FINDING (see build-fuzz/fuzz_$target.log and build-fuzz/findings/)" >&2
    status=1
  fi
  rm -rf "$work"
done
exit $status
