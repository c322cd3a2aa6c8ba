#!/usr/bin/env bash
# README command (b): set up, build, and run the whole test suite with ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GPUTLM_BUILD_DIR:-$root/build}"
"$root/tools/build.sh"
cd "$build"
ctest --output-on-failure -j"$(nproc)" "$@"
