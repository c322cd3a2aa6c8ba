#!/usr/bin/env bash
# README command (a): set up, build, and run the main job: the workload suite (small
# inputs) cycle by cycle on the Fermi GTX480 platform, one table row per workload with
# cycles, IPC and verification status. Extra arguments go to `gputlm suite`
# (e.g. --size medium, --only saxpy, --bench).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GPUTLM_BUILD_DIR:-$root/build}"
"$root/tools/build.sh"
cd "$root"
"$build/gputlm" suite --config configs/fermi_gtx480.json -j "$(nproc)" --out "$build/suite" "$@"
