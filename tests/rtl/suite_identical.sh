#!/bin/sh
# Whole GPU with RTL inside (issue 11 point 3): every workload of the suite runs with
# TLM_CONFIG and again with RTL_CONFIG (the same GPU with RTL blocks); each must verify,
# and every statistic of every run must be identical (host times aside).
# usage: suite_identical.sh GPUTLM WORKLOADS_DIR TMP_DIR TLM_CONFIG RTL_CONFIG
set -eu
gputlm=$1 workloads=$2 tmp=$3 tlm_config=$4 config=$5
python=${GPUTLM_PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3
rm -rf "$tmp" && mkdir -p "$tmp"
for run in tlm rtl; do
  cfg=$tlm_config
  [ "$run" = rtl ] && cfg=$config
  if ! "$gputlm" suite --config "$cfg" --workloads "$workloads" -j 2 --out "$tmp/$run" > "$tmp/$run.txt" 2>&1; then
    echo "FAIL: the $run suite ($cfg) did not pass:" >&2
    cat "$tmp/$run.txt" >&2
    exit 1
  fi
done
"$python" - "$tmp/tlm" "$tmp/rtl" <<'PY'
import json, os, sys
a, b = sys.argv[1], sys.argv[2]
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if "host" not in k and k not in ("config", "platform")}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
files = sorted(f for f in os.listdir(a) if f.endswith(".json"))
assert files, f"no statistics in {a}"
for f in files:
    ta, tb = strip(json.load(open(os.path.join(a, f)))), strip(json.load(open(os.path.join(b, f))))
    if ta != tb:
        def first(x, y, path=""):
            if isinstance(x, dict) and isinstance(y, dict):
                for k in sorted(set(x) | set(y)):
                    if x.get(k) != y.get(k):
                        return first(x.get(k), y.get(k), path + "." + k)
            return f"{path}: tlm {x!r} rtl {y!r}"
        sys.exit(f"FAIL {f}: statistics differ at {first(ta, tb)}")
print(f"{len(files)} workloads: statistics identical")
PY
if grep -q "FAIL" "$tmp/rtl.txt" "$tmp/tlm.txt"; then echo "a workload failed verification" >&2; cat "$tmp/rtl.txt" >&2; exit 1; fi
cat "$tmp/rtl.txt"
