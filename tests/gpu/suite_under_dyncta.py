#!/usr/bin/env python3
"""Every workload of the suite (small) runs with verified outputs under DYNCTA
(cta_scheduler.limit = dyncta): with the default parameters on the GTX480 config, and
with a short period and low memory thresholds (n moves often) under GTO on the ELF
paper's config. In every run the DYNCTA statistics are consistent: each SM that ran a
kernel has periods, its final n is at least 1, and at least one SM sampled a period.
usage: suite_under_dyncta.py GPUTLM WORKLOADS_DIR TMP_DIR GTX480_CONFIG ELF_CONFIG"""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from suite_runner import args, groups_with, run_suite

gputlm, workloads, tmp, (gtx480, elf_table1) = args(2)


def check(name, config, params, must_move):
    stats = run_suite(gputlm, workloads, tmp, name, config, ["cta_scheduler.limit=dyncta"] + params)
    total_periods = total_moves = 0
    for f, j in stats.items():
        holders = list(groups_with(j["total"], "dyncta"))
        assert holders, f"{f}: no cta_scheduler.dyncta statistics"
        sms = {k: v for k, v in holders[0]["dyncta"].items() if k.startswith("sm")}
        assert sms, f"{f}: no per-SM DYNCTA statistics"
        for k, s in sms.items():
            if s["periods"] > 0:
                assert s["n"] >= 1, (f, k, s)
            total_periods += s["periods"]
            total_moves += s["increments"] + s["decrements"]
    assert total_periods > 0, f"{name}: no DYNCTA period was evaluated"
    if must_move:
        assert total_moves > 0, f"{name}: n never moved"
    print(f"{name}: {len(stats)} workloads verified, {total_periods} DYNCTA periods, "
          f"{total_moves} moves of n")


check("dyncta", gtx480, [], False)
check("dyncta_low", elf_table1, ["sm.scheduler.policy=gto", "cta_scheduler.dyncta.period=512",
                                 "cta_scheduler.dyncta.t_mem_l=32", "cta_scheduler.dyncta.t_mem_h=128"], True)
