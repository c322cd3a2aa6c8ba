#!/usr/bin/env python3
"""Every workload of the suite (small) runs with verified outputs under LAWS, LAWS-TH and
LAWS-NMD (and LAWS-TH with release = hold_expiry) on the LAWS thesis' Table 2.1 config (no deadlock: the watchdog would fail the run),
and the LAWS counters of every SM are consistent: sm<i>.laws.cycles = the SM's cycles,
gtlr_cycles <= cycles, the score was fed exactly the L1D's load classes; with the throttling
unit, decisions = by_intra + by_stable + by_divergence + released, the cycles by warp limit
add up to cycles, divergence cycles <= throttled cycles, and laws_nmd never throttles by
divergence; every repeated scheduler decision is checked (verify_repeats). Somewhere in the suite the score went negative (GTLR) and a limit was set.
B-SWL's static limit at its tightest SM-wide setting (swl, warp_limit 1 per SM) runs every
workload too: warps waiting at a barrier must not be held, or CTAs would deadlock.
usage: suite_under_laws.py GPUTLM WORKLOADS_DIR TMP_DIR TABLE2_1_CONFIG"""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from suite_runner import args, groups_with, run_suite

gputlm, workloads, tmp, (table2_1,) = args(1)
CLASSES = {"miss": "MISS", "intra": "INTRA", "inter": "INTER", "intra_m": "INTRA_M", "inter_m": "INTER_M"}
# laws_th_expiry: LAWS-TH with the other release reading (sm.scheduler.laws.release).
RUNS = {"laws": ("laws", []), "laws_th": ("laws_th", []), "laws_nmd": ("laws_nmd", []),
        "laws_th_expiry": ("laws_th", ["sm.scheduler.laws.release=hold_expiry"])}
for name, (policy, extra) in RUNS.items():
    # Every repeated scheduler decision is checked too (the limit and the mode are versioned state).
    stats = run_suite(gputlm, workloads, tmp, name, table2_1,
                      [f"sm.scheduler.policy={policy}", "sm.scheduler.verify_repeats=true"] + extra)
    gtlr = throttled = expired = 0
    for f, j in stats.items():
        groups = list(groups_with(j["total"], "laws"))
        assert groups, f"{policy}/{f}: no sm<i>.laws statistics"
        for g in groups:
            l = g["laws"]
            where = (name, f, l)
            assert l["cycles"] == g["cycles"] and l["gtlr_cycles"] <= l["cycles"], where
            for ours, cache in CLASSES.items():
                assert l["accesses"][ours] == g["l1d"]["locality"][cache], where
            gtlr += l["gtlr_cycles"]
            assert ("decisions" in l) == (policy != "laws"), where
            if policy == "laws":
                continue
            assert l["decisions"] == l["by_intra"] + l["by_stable"] + l["by_divergence"] + l["released"], where
            assert sum(l["limit_cycles"].values()) == l["cycles"], where
            assert l["cycles"] - l["limit_cycles"]["none"] == l["throttled_cycles"], where
            assert l["divergence_cycles"] <= l["throttled_cycles"], where
            assert policy != "laws_nmd" or l["by_divergence"] == 0, where
            throttled += l["throttled_cycles"]
    assert gtlr > 0, f"{name}: the score never went negative in the whole suite"
    assert policy == "laws" or throttled > 0, f"{name}: no warp limit in the whole suite"
    if extra:
        expired += sum(g["laws"]["expired"] for j in stats.values() for g in groups_with(j["total"], "laws"))
        assert expired > 0, f"{name}: no limit ever expired in the whole suite"
    print(f"{name}: {len(stats)} workloads verified, LAWS counters consistent, {gtlr} GTLR cycles"
          + (f", {throttled} throttled cycles" if policy != "laws" else ""))

run_suite(gputlm, workloads, tmp, "swl_sm1", table2_1,
          ["sm.scheduler.policy=swl", "sm.scheduler.warp_limit=1", "sm.scheduler.warp_limit_scope=sm",
           "sm.scheduler.verify_repeats=true"])
print("swl, warp_limit 1 per SM: every workload verified (no barrier deadlock)")
