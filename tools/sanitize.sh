#!/usr/bin/env bash
# Builds gputlm with sanitizers into its own directory and runs the tests there (issue 18):
#   tools/sanitize.sh [SANITIZERS] [ctest arguments...]
# SANITIZERS defaults to address,undefined (GPUTLM_SANITIZE); build directory
# build-sanitize-<sanitizers> (or $GPUTLM_SANITIZE_BUILD_DIR). Every sanitizer report makes
# its test fail (-fno-sanitize-recover, halt_on_error). LeakSanitizer is off under
# `address`: SystemC keeps its kernel objects until exit by design.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sanitizers="${1:-address,undefined}"
[ $# -gt 0 ] && shift
build="${GPUTLM_SANITIZE_BUILD_DIR:-$root/build-sanitize-${sanitizers//,/-}}"
GPUTLM_BUILD_DIR="$build" "$root/tools/build.sh" -DGPUTLM_SANITIZE="$sanitizers"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
cd "$build"
ctest --output-on-failure -j"$(nproc)" "$@"
