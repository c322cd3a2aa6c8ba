#!/bin/sh
# Every workload of the suite (small) runs with verified outputs under ELF scheduling
# (GTX480 config), and again with ELF's coordinated fetch, not_full fetch eligibility and
# the gated L1I prefetcher on the ELF paper's config. In every run, each launch reports
# its program points (after merging <= max_pp) and the ELF counters are consistent:
# naive_recalcs = warp instructions issued, 0 < prio_recalcs < naive_recalcs.
# usage: suite_under_elf.sh GPUTLM WORKLOADS_DIR TMP_DIR GTX480_CONFIG ELF_CONFIG
set -eu
gputlm=$1 workloads=$2 tmp=$3 gtx480=$4 elf_table1=$5
python=${GPUTLM_PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3
rm -rf "$tmp" && mkdir -p "$tmp"
suite() {
  name=$1 config=$2
  shift 2
  if ! "$gputlm" suite --config "$config" --workloads "$workloads" -j 2 --out "$tmp/$name" \
      -p sm.scheduler.policy=elf "$@" > "$tmp/$name.txt"; then
    cat "$tmp/$name.txt" >&2
    echo "$name: a workload failed" >&2
    exit 1
  fi
  "$python" - "$tmp/$name" <<'PY'
import json, os, sys
d = sys.argv[1]
files = sorted(f for f in os.listdir(d) if f.endswith(".timing.json"))
assert len(files) >= 20, f"only {len(files)} workloads in {d}"
def sms(tree):
    for k, v in tree.items():
        if k.startswith("sm") and isinstance(v, dict) and "elf" in v:
            yield v
        elif isinstance(v, dict):
            yield from sms(v)
for f in files:
    j = json.load(open(os.path.join(d, f)))
    for l in j["launches"]:
        pp = l["elf_program_points"]
        assert pp["after_merge"] == min(pp["before_merge"], 32), (f, pp)
    groups = list(sms(j["total"]))
    assert groups, f"{f}: no sm<i>.elf statistics"
    naive = sum(g["elf"]["naive_recalcs"] for g in groups)
    recalcs = sum(g["elf"]["prio_recalcs"] for g in groups)
    issued = sum(g["warp_instructions"] for g in groups)
    assert naive == issued, f"{f}: naive_recalcs {naive} != warp_instructions {issued}"
    assert 0 < recalcs < naive, f"{f}: prio_recalcs {recalcs}, naive {naive}"
print(f"{os.path.basename(d)}: {len(files)} workloads verified, ELF counters consistent")
PY
}
suite elf "$gtx480"
suite elf_fetch "$elf_table1" -p sm.fetch.policy=scheduler_priority -p sm.fetch.prefetch=next_line \
  -p sm.fetch.eligible=not_full
