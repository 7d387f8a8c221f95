#!/usr/bin/env bash
# Installs what worldtune needs, builds it, and runs every test (what CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
cd build && ctest --output-on-failure --timeout 900
