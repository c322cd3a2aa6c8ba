#!/usr/bin/env python3
"""Every workload of the suite (small) runs with verified outputs under CCWS scheduling
(GTX480 config), and the CCWS counters of every SM are consistent: VTA hits <= probes,
throttled warp-cycles >= limited cycles, and somewhere in the suite lost locality was
seen (VTA hits > 0).
usage: suite_under_ccws.py GPUTLM WORKLOADS_DIR TMP_DIR GTX480_CONFIG"""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from suite_runner import args, groups_with, run_suite

gputlm, workloads, tmp, (gtx480,) = args(1)
stats = run_suite(gputlm, workloads, tmp, "ccws", gtx480, ["sm.scheduler.policy=ccws"])
total_hits = 0
for f, j in stats.items():
    groups = list(groups_with(j["total"], "ccws"))
    assert groups, f"{f}: no sm<i>.ccws statistics"
    for g in groups:
        c = g["ccws"]
        assert c["vta_hits"] <= c["vta_probes"], (f, c)
        assert c["throttled_warp_cycles"] >= c["limited_cycles"], (f, c)
        total_hits += c["vta_hits"]
assert total_hits > 0, "no VTA hit in the whole suite"
print(f"ccws: {len(stats)} workloads verified, CCWS counters consistent, {total_hits} VTA hits")
