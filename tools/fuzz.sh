#!/usr/bin/env bash
# Builds and runs one libFuzzer target of tests/fuzz/ (clang, ASan + UBSan):
#   tools/fuzz.sh TARGET [SECONDS] [BUILD_DIR]      TARGET: config, launch_spec, study, ptx, device
#   tools/fuzz.sh TARGET --merge [BUILD_DIR]        fold the grown corpus into the committed one
# The run starts from the committed corpus tests/fuzz/corpus/TARGET (for ptx also every
# committed .ptx) and grows BUILD_DIR/fuzz-corpus/TARGET; a finding is written to
# BUILD_DIR/fuzz-artifacts/TARGET/ and makes the exit status non-zero. --merge keeps the
# inputs of the grown corpus that add coverage to the committed one (libFuzzer
# -set_cover_merge=1: a near-minimal set covering the same features),
# which CI replays (label fuzz). Figures and policy: docs/testing.md, "Fuzzing".
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="${1:?usage: tools/fuzz.sh TARGET [SECONDS|--merge] [BUILD_DIR]}"
case "$target" in config|launch_spec|study|ptx|device) ;; *)
  echo "tools/fuzz.sh: unknown target '$target' (config, launch_spec, study, ptx, device)" >&2; exit 2 ;; esac
mode="${2:-600}"
build="${3:-$root/build-fuzz}"
# ASan and UBSan through GPUTLM_SANITIZE, as tools/sanitize.sh builds them: without stack
# redzones, which SystemC's coroutine switches leave stale once an exception unwinds out of
# an SC_THREAD (docs/testing.md, "Sanitizers"; the device target runs kernels that fault).
if [ ! -f "$build/CMakeCache.txt" ] || ! grep -q '^GPUTLM_SANITIZE:STRING=address,undefined$' "$build/CMakeCache.txt"; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DGPUTLM_FUZZ=ON -DGPUTLM_WERROR=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUTLM_SANITIZE=address,undefined \
    -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link -Wno-unknown-warning-option"
fi
cmake --build "$build" -j"$(nproc)" --target "fuzz_$target"
bin="$build/tests/fuzz/fuzz_$target"
committed="$root/tests/fuzz/corpus/$target"
grown="$build/fuzz-corpus/$target"
artifacts="$build/fuzz-artifacts/$target"
mkdir -p "$grown" "$artifacts" "$committed"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
if [ "$mode" = "--merge" ]; then
  "$bin" -set_cover_merge=1 -timeout=10 -rss_limit_mb=2048 "$committed" "$grown"
  exit 0
fi
seeds=("$committed")
if [ "$target" = ptx ]; then
  seeds+=("$build/fuzz-seeds-ptx")
  rm -rf "$build/fuzz-seeds-ptx" && mkdir -p "$build/fuzz-seeds-ptx"
  i=0
  while IFS= read -r -d '' f; do
    cp "$f" "$build/fuzz-seeds-ptx/$(printf '%04d' "$i")-$(basename "$f")"
    i=$((i + 1))
  done < <(find "$root/tests" "$root/workloads" -name '*.ptx' -print0 2>/dev/null | sort -z)
fi
dict=()
[ -f "$root/tests/fuzz/$target.dict" ] && dict=(-dict="$root/tests/fuzz/$target.dict")
echo "fuzzing $target for ${mode}s"
"$bin" -max_total_time="$mode" -timeout=10 -rss_limit_mb=2048 -max_len=65536 "${dict[@]}" \
  -print_final_stats=1 -artifact_prefix="$artifacts/" "$grown" "${seeds[@]}"
