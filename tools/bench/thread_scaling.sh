#!/usr/bin/env bash
# Scaling of parallel edges (issue 20 point 2; run by hand): each workload's medium input on
# a GPU config with --threads 1, 2, 4, ... up to MAX, one run at a time, printing host seconds
# (wall and CPU), the speed-up over one thread and the share of core edges ticked in
# parallel. Every run's statistics must equal the one-thread run's (checked here too).
#   tools/bench/thread_scaling.sh [--config FILE] [--max N] [--size S] WORKLOAD...
# Default: configs/fermi_gtx480.json, up to 8 threads, medium; the compute-bound half of the
# medium suite when no workload is named.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${GPUTLM_BUILD_DIR:-$root/build}"
config="$root/configs/fermi_gtx480.json"
max=8
size=medium
workloads=()
while [ $# -gt 0 ]; do
  case "$1" in
    --config) config="$2"; shift 2 ;;
    --max) max="$2"; shift 2 ;;
    --size) size="$2"; shift 2 ;;
    -h|--help) sed -n 2,8p "$0"; exit 0 ;;
    *) workloads+=("$1"); shift ;;
  esac
done
[ ${#workloads[@]} -gt 0 ] || workloads=(aes blackscholes conv1d cutcp hotspot mriq nqueen sgemm)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf "%-14s %7s %9s %9s %8s %9s\n" workload threads wall_s cpu_s speedup parallel
for w in "${workloads[@]}"; do
  spec="$build/workloads/$w/$size/spec.json"
  if [ ! -f "$spec" ]; then
    echo "thread_scaling.sh: no $spec (cmake --build build --target workloads_$size): skipped" >&2
    continue
  fi
  base=""
  n=1
  while [ "$n" -le "$max" ]; do
    out="$tmp/$w.$n.json"
    /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$build/gputlm" run "$spec" --config "$config" --quiet \
      --stats "$out" --threads "$n" >/dev/null
    read -r wall user sys < "$tmp/time"
    python3 - "$w" "$n" "$wall" "$user" "$sys" "$out" "$tmp/$w.1.json" <<'EOF'
import json, sys
w, n, wall, user, sys_s, out, ref = sys.argv[1], int(sys.argv[2]), *map(float, sys.argv[3:6]), sys.argv[6], sys.argv[7]
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in ("host", "threads")}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
s = json.load(open(out))
h = s["host"]
edges = h.get("parallel_edges", 0) + h.get("serial_edges", 0)
share = h.get("parallel_edges", 0) / edges if edges else 0.0
base = json.load(open(ref))["host"]["seconds"] if n > 1 else h["seconds"]
if n > 1 and strip(s) != strip(json.load(open(ref))):
    sys.exit(f"{w}: statistics with {n} threads differ from one thread's")
print("%-14s %7d %9.2f %9.2f %7.2fx %8.0f%%" % (w, n, wall, user + sys_s, base / h["seconds"], 100 * share))
EOF
    n=$((n * 2))
  done
done
