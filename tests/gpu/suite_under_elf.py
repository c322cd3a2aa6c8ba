#!/usr/bin/env python3
"""Every workload of the suite (small) runs with verified outputs under ELF scheduling
(GTX480 config), and again with ELF's coordinated fetch, not_full fetch eligibility and
the gated L1I prefetcher on the ELF paper's config. In every run, each launch reports
its program points (after merging <= max_pp) and the ELF counters are consistent:
naive_recalcs = warp instructions issued, 0 < prio_recalcs < naive_recalcs.
usage: suite_under_elf.py GPUTLM WORKLOADS_DIR TMP_DIR GTX480_CONFIG ELF_CONFIG"""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from suite_runner import args, groups_with, run_suite

gputlm, workloads, tmp, (gtx480, elf_table1) = args(2)


def check(name, config, params):
    stats = run_suite(gputlm, workloads, tmp, name, config, ["sm.scheduler.policy=elf"] + params)
    for f, j in stats.items():
        for launch in j["launches"]:
            pp = launch["elf_program_points"]
            assert pp["after_merge"] == min(pp["before_merge"], 32), (f, pp)
        groups = list(groups_with(j["total"], "elf"))
        assert groups, f"{f}: no sm<i>.elf statistics"
        naive = sum(g["elf"]["naive_recalcs"] for g in groups)
        recalcs = sum(g["elf"]["prio_recalcs"] for g in groups)
        issued = sum(g["warp_instructions"] for g in groups)
        assert naive == issued, f"{f}: naive_recalcs {naive} != warp_instructions {issued}"
        assert 0 < recalcs < naive, f"{f}: prio_recalcs {recalcs}, naive {naive}"
    print(f"{name}: {len(stats)} workloads verified, ELF counters consistent")


check("elf", gtx480, [])
check("elf_fetch", elf_table1, ["sm.fetch.policy=scheduler_priority", "sm.fetch.prefetch=next_line",
                                "sm.fetch.eligible=not_full"])
