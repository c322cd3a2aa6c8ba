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
# clang: g++ 12's AddressSanitizer reports false stack overflows when an exception is thrown
# after SystemC has switched coroutine stacks (an SC_THREAD ran); clang 14's does not. It
# also makes this build the clang half of tools/compare_builds.py. -O1 -g1: builds faster
# than -O2 -g, with line numbers in every report. Warnings are g++'s gate (GPUTLM_WERROR).
if [ -f "$build/CMakeCache.txt" ] && ! grep -q "^CMAKE_CXX_COMPILER:.*clang" "$build/CMakeCache.txt"; then
  echo "tools/sanitize.sh: $build was configured with another compiler; remove it first" >&2
  exit 2
fi
CC=clang CXX=clang++ GPUTLM_BUILD_DIR="$build" "$root/tools/build.sh" -DGPUTLM_SANITIZE="$sanitizers" \
  -DGPUTLM_WERROR=OFF -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="${GPUTLM_SANITIZE_OPT:--O1 -g1 -DNDEBUG}"
# No detect_stack_use_after_return: its fake stacks break SystemC's coroutine stack switches
# (every test with an SC_THREAD crashed without a report).
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
cd "$build"
ctest --output-on-failure -j"$(nproc)" "$@"
