#!/usr/bin/env bash
# Installs every package worldtune needs from Debian's archive. Idempotent: quiet when all are present.
set -euo pipefail
packages=(
  build-essential cmake pkg-config git
  libhalide14-0-dev                 # the compiler under worldtune (brings LLVM 14 and the autoscheduler plugins)
  libtorch-dev                      # encoder / transition training and the libtorch baseline
  libxgboost-dev                    # rankers
  libsentencepiece-dev              # tokenizer experiments
  libsqlite3-dev sqlite3            # records database
  zlib1g-dev                        # the compressed dataset file
  nlohmann-json3-dev libcli11-dev   # JSON and the command line
  libgtest-dev libgmock-dev libbenchmark-dev
  libopenblas-dev libdnnl-dev       # baselines
  ocl-icd-opencl-dev                # oneDNN's CMake package looks for OpenCL (a recommends, so named here)
  gnuplot-nox                       # plots in reports
  python3                           # scripts: the house and README checks (tests), summaries of runs
  clang libclang-rt-14-dev          # libFuzzer: scripts/fuzz.sh fuzzes the parsers of outside input
  libopenmpi-dev openmpi-bin        # the measurement farm: mpirun -np N worldtune ... (docs/scale.md)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
