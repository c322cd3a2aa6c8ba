#!/usr/bin/env bash
# Timing-model speed benchmark (issue 5 item 7; run by hand): every workload's medium
# input on the Fermi GTX480, one process at a time, reporting simulated cycles, IPC,
# warp instructions/s and cycles/s of the timing model, peak memory (ru_maxrss) and the
# functional executor's warp instructions/s on the same spec. Figures: docs/performance.md.
#   tools/bench/timing_bench.sh [--size small] [--only NAME]... [--config FILE]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${GPUTLM_BUILD_DIR:-$root/build}"
cd "$root"
cmake --build "$build" --target workloads_medium >/dev/null
exec "$build/gputlm" suite --size medium --bench --out "$build/timing_bench" "$@"
