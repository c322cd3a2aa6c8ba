#!/usr/bin/env bash
# Installs every Debian package gputlm needs to build and test. Idempotent: runs
# `apt-get update` (once) and `apt-get install` only when something is missing.
set -euo pipefail
packages=(
  build-essential cmake pkg-config g++ clang
  libsystemc-dev catch2 libboost-dev libboost-graph-dev libboost-program-options-dev
  nlohmann-json3-dev libsqlite3-dev
  # RTL co-simulation: Verilator turns modules/sm/*/rtl/*.sv into C++ models
  verilator
  # studies: GNU parallel and a single-node SLURM (tests start one), plots
  parallel slurm-wlm munge python3 python3-matplotlib
)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
