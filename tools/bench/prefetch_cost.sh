#!/bin/bash
# Host cost of the L1D data prefetchers (issue 17 point 7), in instructions: callgrind counts
# the instructions executed inside the simulation (sc_start) of small runs with each
# prefetcher against none, on the thesis' prefetching platform and on Fermi. Instructions are
# deterministic, so the figures do not depend on the host's load (docs/performance.md).
#
# usage: tools/bench/prefetch_cost.sh [GPUTLM] [WORKLOADS_DIR]   (needs valgrind)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gputlm=${1:-$root/build/gputlm}
workloads=${2:-$root/build/workloads}
command -v valgrind >/dev/null || { echo "prefetch_cost.sh: valgrind is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

measure() {  # config workload policy -> "instructions cycles"
  local extra=()
  [ "$3" != none ] && extra=(-p "sm.l1d_prefetch.policy=$3")
  valgrind --tool=callgrind --toggle-collect='sc_core::sc_start*' --callgrind-out-file="$tmp/cg" \
    "$gputlm" run "$workloads/$2/small/spec.json" --config "$root/configs/$1.json" "${extra[@]}" \
    --quiet --stats "$tmp/s.json" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  local ir cycles
  ir=$(awk '/^(summary|totals):/ {print $2; exit}' "$tmp/cg")
  cycles=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['cycles'])" "$tmp/s.json")
  echo "$ir $cycles"
}

printf "%-16s %-11s %-10s %14s %8s %9s %11s\n" config workload prefetcher instructions cycles "vs none" "per cycle"
for cfg in thesis_table4_3 fermi_gtx480; do
  for w in convsep scalarprod cfd backprop mersenne; do
    read -r base_ir base_cy < <(measure $cfg $w none)
    printf "%-16s %-11s %-10s %14s %8s\n" $cfg $w none "$base_ir" "$base_cy"
    for p in stpe pcst pcst_itpc mt_hwp; do
      read -r ir cy < <(measure $cfg $w $p)
      python3 -c "
import sys
b, bc, i, c = map(float, sys.argv[5:9])
print('%-16s %-11s %-10s %14d %8d %+8.1f%% %+10.1f%%' % (sys.argv[1], sys.argv[2], sys.argv[3], i, c,
      100 * (i / b - 1), 100 * ((i / c) / (b / bc) - 1)))" $cfg $w $p x "$base_ir" "$base_cy" "$ir" "$cy"
    done
  done
done
