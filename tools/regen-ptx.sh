#!/usr/bin/env bash
# Regenerates PTX and resource usage for CUDA sources:
#   tools/regen-ptx.sh [-o OUTDIR] [-f "EXTRA NVCC FLAGS"] FILE.cu|FILE.ptx ...
# For X.cu: nvcc -ptx -arch=compute_75 [flags] -> X.ptx, then ptxas -arch=sm_75 -v on it
# -> X.resources.json:
#   {"kernels": {"<mangled>": {"registers": N, "shared_bytes": N, "local_bytes": N,
#                              "const_bytes": N}}}
# registers/shared_bytes/local_bytes are ptxas's "Used N registers", "N bytes smem" and
# "N bytes stack frame" of each entry; const_bytes is the module's user constant bank
# ("N bytes cmem[3]" on the module line; the same for every kernel of the file).
# For X.ptx only the resources are regenerated. Outputs go beside the input unless -o.
# Needs CUDA (CUDA_HOME or /usr/local/cuda); PTX is committed so builds never need it.
set -euo pipefail
cuda="${CUDA_HOME:-/usr/local/cuda}"
nvcc="$cuda/bin/nvcc"
ptxas="$cuda/bin/ptxas"
outdir=""
flags=""
while getopts "o:f:h" opt; do
  case "$opt" in
    o) outdir="$OPTARG" ;;
    f) flags="$OPTARG" ;;
    h) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "usage: $0 [-o OUTDIR] [-f FLAGS] FILE.cu|FILE.ptx ..." >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "usage: $0 [-o OUTDIR] [-f FLAGS] FILE.cu|FILE.ptx ..." >&2; exit 2; }
[ -x "$ptxas" ] || { echo "error: ptxas not found at $ptxas (set CUDA_HOME)" >&2; exit 1; }

for src in "$@"; do
  [ -f "$src" ] || { echo "error: $src: no such file" >&2; exit 1; }
  dir="${outdir:-$(dirname "$src")}"
  mkdir -p "$dir"
  base="$(basename "$src")"
  case "$src" in
    *.cu)
      [ -x "$nvcc" ] || { echo "error: nvcc not found at $nvcc (set CUDA_HOME)" >&2; exit 1; }
      name="${base%.cu}"
      ptx="$dir/$name.ptx"
      # shellcheck disable=SC2086
      "$nvcc" -ptx -arch=compute_75 $flags -o "$ptx" "$src"
      ;;
    *.ptx)
      name="${base%.ptx}"
      ptx="$src"
      ;;
    *) echo "error: $src: expected a .cu or .ptx file" >&2; exit 1 ;;
  esac
  json="$dir/$name.resources.json"
  log="$(mktemp)"
  if ! "$ptxas" -arch=sm_75 -v "$ptx" -o /dev/null >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    echo "error: ptxas failed on $ptx" >&2
    exit 1
  fi
  awk '
    function num_before(line, unit,   re, m) {
      re = "[0-9]+ bytes " unit
      if (match(line, re)) { m = substr(line, RSTART, RLENGTH); split(m, a, " "); return a[1] + 0 }
      return 0
    }
    /bytes gmem/ && const_bytes == "" { const_bytes = num_before($0, "cmem\\[3\\]") }
    /Compiling entry function/ {
      if (match($0, /'\''[^'\'']+'\''/)) { cur = substr($0, RSTART + 1, RLENGTH - 2); order[++n] = cur }
      in_entry = 1; next
    }
    /Function properties for/ {
      if (match($0, /for [^ ]+$/)) { fn = substr($0, RSTART + 4) } ; props = fn; next
    }
    /bytes stack frame/ && props != "" { stack[props] = $1 + 0; props = ""; next }
    /Used [0-9]+ registers/ && in_entry {
      match($0, /Used [0-9]+ registers/); s = substr($0, RSTART, RLENGTH); split(s, a, " ")
      regs[cur] = a[2] + 0; smem[cur] = num_before($0, "smem"); in_entry = 0
    }
    END {
      printf "{\n  \"kernels\": {"
      for (i = 1; i <= n; ++i) {
        k = order[i]
        printf "%s\n    \"%s\": {\"registers\": %d, \"shared_bytes\": %d, \"local_bytes\": %d, \"const_bytes\": %d}", (i > 1 ? "," : ""), k, regs[k], smem[k], stack[k], const_bytes + 0
      }
      printf "\n  }\n}\n"
    }' "$log" >"$json"
  rm -f "$log"
  echo "$ptx -> $json"
done
