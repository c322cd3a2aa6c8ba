#!/bin/sh
# Every workload of the suite (small) runs with verified outputs under CCWS scheduling
# (GTX480 config), and the CCWS counters of every SM are consistent: VTA hits <= probes,
# throttled warp-cycles >= limited cycles, and somewhere in the suite lost locality was
# seen (VTA hits > 0).
# usage: suite_under_ccws.sh GPUTLM WORKLOADS_DIR TMP_DIR GTX480_CONFIG
set -eu
gputlm=$1 workloads=$2 tmp=$3 gtx480=$4
python=${GPUTLM_PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3
rm -rf "$tmp" && mkdir -p "$tmp"
if ! "$gputlm" suite --config "$gtx480" --workloads "$workloads" -j 2 --out "$tmp/ccws" \
    -p sm.scheduler.policy=ccws > "$tmp/ccws.txt"; then
  cat "$tmp/ccws.txt" >&2
  echo "ccws: a workload failed" >&2
  exit 1
fi
if grep -q FAIL "$tmp/ccws.txt"; then
  cat "$tmp/ccws.txt" >&2
  exit 1
fi
"$python" - "$tmp/ccws" <<'PY'
import json, os, sys
d = sys.argv[1]
files = sorted(f for f in os.listdir(d) if f.endswith(".timing.json"))
assert len(files) >= 20, f"only {len(files)} workloads in {d}"
def sms(tree):
    for k, v in tree.items():
        if k.startswith("sm") and isinstance(v, dict) and "ccws" in v:
            yield v
        elif isinstance(v, dict):
            yield from sms(v)
total_hits = 0
for f in files:
    j = json.load(open(os.path.join(d, f)))
    groups = list(sms(j["total"]))
    assert groups, f"{f}: no sm<i>.ccws statistics"
    for g in groups:
        c = g["ccws"]
        assert c["vta_hits"] <= c["vta_probes"], (f, c)
        assert c["throttled_warp_cycles"] >= c["limited_cycles"], (f, c)
        total_hits += c["vta_hits"]
assert total_hits > 0, "no VTA hit in the whole suite"
print(f"{os.path.basename(d)}: {len(files)} workloads verified, CCWS counters consistent, {total_hits} VTA hits")
PY
