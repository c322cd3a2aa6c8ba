#!/bin/sh
# Every workload of the suite (small) runs with verified outputs under Mascar scheduling
# and under Mascar + CAR, on the GTX480 config and on Mascar's Table I config (no
# deadlock: the watchdog would fail the run), and the counters of every SM are
# consistent: sm<i>.mascar: mp_cycles + ep_cycles = cycles = the SM's cycles, owner
# changes = acquisitions + hand-overs, stranded-hit cycles <= LSU stall cycles <= cycles;
# sm<i>.lsu.car (with CAR): every queued request was served (services - recycled =
# enqueued), recycled_nacked <= recycled. Somewhere in each suite MP mode was entered, and
# with CAR a NACKed request was recycled.
# usage: suite_under_mascar.sh GPUTLM WORKLOADS_DIR TMP_DIR GTX480_CONFIG MASCAR_TABLE1_CONFIG
set -eu
gputlm=$1 workloads=$2 tmp=$3 gtx480=$4 table1=$5
python=${GPUTLM_PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3
rm -rf "$tmp" && mkdir -p "$tmp"
run() {  # name config overrides...
  name=$1 config=$2
  shift 2
  if ! "$gputlm" suite --config "$config" --workloads "$workloads" -j 2 --out "$tmp/$name" "$@" > "$tmp/$name.txt"; then
    cat "$tmp/$name.txt" >&2
    echo "$name: a workload failed" >&2
    exit 1
  fi
  if grep -q FAIL "$tmp/$name.txt"; then
    cat "$tmp/$name.txt" >&2
    exit 1
  fi
}
run gtx480_mascar "$gtx480" -p sm.scheduler.policy=mascar
run gtx480_mascar_car "$gtx480" -p sm.scheduler.policy=mascar -p sm.lsu.reexec_queue.policy=car
run table1_mascar "$table1" -p sm.scheduler.policy=mascar
run table1_mascar_car "$table1" -p sm.scheduler.policy=mascar -p sm.lsu.reexec_queue.policy=car
"$python" - "$tmp" <<'PY'
import json, os, sys
root = sys.argv[1]
def sms(tree):
    for k, v in tree.items():
        if k.startswith("sm") and isinstance(v, dict) and "mascar" in v:
            yield k, v
        elif isinstance(v, dict):
            yield from sms(v)
for name in ["gtx480_mascar", "gtx480_mascar_car", "table1_mascar", "table1_mascar_car"]:
    d = os.path.join(root, name)
    car = name.endswith("_car")
    files = sorted(f for f in os.listdir(d) if f.endswith(".timing.json"))
    assert len(files) >= 20, f"only {len(files)} workloads in {d}"
    mp = recycled_nacked = 0
    for f in files:
        j = json.load(open(os.path.join(d, f)))
        groups = list(sms(j["total"]))
        assert groups, f"{name}/{f}: no sm<i>.mascar statistics"
        for sm, g in groups:
            m = g["mascar"]
            where = (name, f, sm, m)
            assert m["mp_cycles"] + m["ep_cycles"] == m["cycles"] == g["cycles"], where
            assert m["owner_changes"] == m["owner_acquisitions"] + m["owner_handovers"], where
            assert m["stranded_hit_cycles"] <= m["lsu_stall_cycles"] <= m["cycles"], where
            mp += m["mp_cycles"]
            assert ("car" in g["lsu"]) == car, (name, f, sm, "car group")
            if car:
                c = g["lsu"]["car"]
                assert c["services"] - c["recycled"] == c["enqueued"], (name, f, sm, c)
                assert c["recycled_nacked"] <= c["recycled"] and c["held"] <= c["enqueued"], (name, f, sm, c)
                recycled_nacked += c["recycled_nacked"]
    assert mp > 0, f"{name}: never in MP mode"
    assert not car or recycled_nacked > 0, f"{name}: no NACKed request recycled"
    print(f"{name}: {len(files)} workloads verified, counters consistent, {mp} MP cycles"
          + (f", {recycled_nacked} NACKed requests recycled" if car else ""))
PY
