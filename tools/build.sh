#!/usr/bin/env bash
# Installs the Debian packages gputlm needs (tools/install-deps.sh), then configures
# and builds everything into build/ (or $GPUTLM_BUILD_DIR); arguments go to the configure
# step (tools/sanitize.sh passes -DGPUTLM_SANITIZE=...).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GPUTLM_BUILD_DIR:-$root/build}"
"$root/tools/install-deps.sh"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}" "$@"
cmake --build "$build" -j"$(nproc)"
