#!/usr/bin/env bash
# Builds and runs the PTX parser fuzz target (libFuzzer + ASan, clang):
#   tools/fuzz-ptx-parser.sh [SECONDS] [BUILD_DIR]
# Seeds: every committed .ptx under tests/ and workloads/. The corpus grows in
# BUILD_DIR/fuzz-corpus; crashing inputs are written to BUILD_DIR/fuzz-artifacts/.
# Exit status is non-zero when the fuzzer found a crash, leak, timeout or OOM.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-300}"
build="${2:-$root/build-isa-fuzz}"
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DGPUTLM_FUZZ=ON -DGPUTLM_WERROR=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address -Wno-unknown-warning-option"
fi
cmake --build "$build" -j2 --target fuzz_ptx_parser
seeds="$build/fuzz-seeds"
rm -rf "$seeds"
mkdir -p "$seeds" "$build/fuzz-corpus" "$build/fuzz-artifacts"
i=0
while IFS= read -r -d '' f; do
  cp "$f" "$seeds/$(printf '%04d' "$i")-$(basename "$f")"
  i=$((i + 1))
done < <(find "$root/tests" "$root/workloads" -name '*.ptx' -print0 2>/dev/null | sort -z)
echo "fuzzing for ${seconds}s with $i seed files"
"$build/tests/isa/frontend/fuzz_ptx_parser" -max_total_time="$seconds" -timeout=10 \
  -rss_limit_mb=2048 -max_len=16384 -dict="$root/tests/isa/frontend/ptx.dict" \
  -artifact_prefix="$build/fuzz-artifacts/" "$build/fuzz-corpus" "$seeds"
