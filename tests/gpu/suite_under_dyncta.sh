#!/bin/sh
# Every workload of the suite (small) runs with verified outputs under DYNCTA
# (cta_scheduler.limit = dyncta): with the default parameters on the GTX480 config, and
# with a short period and low memory thresholds (n moves often) under GTO on the ELF
# paper's config. In every run the DYNCTA statistics are consistent: each SM that ran a
# kernel has periods, its final n is at least 1, and at least one SM sampled a period.
# usage: suite_under_dyncta.sh GPUTLM WORKLOADS_DIR TMP_DIR GTX480_CONFIG ELF_CONFIG
set -eu
gputlm=$1 workloads=$2 tmp=$3 gtx480=$4 elf_table1=$5
python=${GPUTLM_PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3
rm -rf "$tmp" && mkdir -p "$tmp"
suite() {
  name=$1 config=$2 moves=$3
  shift 3
  if ! "$gputlm" suite --config "$config" --workloads "$workloads" -j 2 --out "$tmp/$name" \
      -p cta_scheduler.limit=dyncta "$@" > "$tmp/$name.txt"; then
    cat "$tmp/$name.txt" >&2
    echo "$name: a workload failed" >&2
    exit 1
  fi
  "$python" - "$tmp/$name" "$moves" <<'PY'
import json, os, sys
d, moves = sys.argv[1], sys.argv[2] == "1"
files = sorted(f for f in os.listdir(d) if f.endswith(".timing.json"))
assert len(files) >= 20, f"only {len(files)} workloads in {d}"
def find(tree, key):
    if isinstance(tree, dict):
        if key in tree:
            return tree[key]
        for v in tree.values():
            r = find(v, key)
            if r is not None:
                return r
    return None
total_periods = total_moves = 0
for f in files:
    j = json.load(open(os.path.join(d, f)))
    dy = find(j["total"], "dyncta")
    assert dy is not None, f"{f}: no cta_scheduler.dyncta statistics"
    sms = {k: v for k, v in dy.items() if k.startswith("sm")}
    assert sms, f"{f}: no per-SM DYNCTA statistics"
    for k, s in sms.items():
        if s["periods"] > 0:
            assert s["n"] >= 1, (f, k, s)
        total_periods += s["periods"]
        total_moves += s["increments"] + s["decrements"]
assert total_periods > 0, f"{d}: no DYNCTA period was evaluated"
if moves:
    assert total_moves > 0, f"{d}: n never moved"
print(f"{os.path.basename(d)}: {len(files)} workloads verified, {total_periods} DYNCTA periods, {total_moves} moves of n")
PY
}
suite dyncta "$gtx480" 0
suite dyncta_low "$elf_table1" 1 -p sm.scheduler.policy=gto -p cta_scheduler.dyncta.period=512 \
  -p cta_scheduler.dyncta.t_mem_l=32 -p cta_scheduler.dyncta.t_mem_h=128
