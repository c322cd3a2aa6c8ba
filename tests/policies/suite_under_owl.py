#!/usr/bin/env python3
"""Every workload of the suite (small) runs with verified outputs under OWL scheduling
(GTX480 config, sm.scheduler.policy=owl with its default scheme blp), and the OWL counters
of every SM are consistent: every CTA placed was grouped (ctas_grouped = ctas_launched),
no more groups than CTAs, and issues split between the prioritised group and the others
add up to the SM's warp instructions; somewhere in the suite a group other than the
prioritised one issued (the groups really interleave).
usage: suite_under_owl.py GPUTLM WORKLOADS_DIR TMP_DIR GTX480_CONFIG"""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from suite_runner import args, groups_with, run_suite

gputlm, workloads, tmp, (gtx480,) = args(1)
stats = run_suite(gputlm, workloads, tmp, "owl", gtx480, ["sm.scheduler.policy=owl"])
others = 0
for f, j in stats.items():
    sms = list(groups_with(j["total"], "owl"))
    assert sms, f"{f}: no sm<i>.owl statistics"
    for sm in sms:
        o = sm["owl"]
        assert o["ctas_grouped"] == sm["ctas_launched"], (f, o, sm["ctas_launched"])
        assert o["groups_formed"] <= o["ctas_grouped"], (f, o)
        assert o["prioritized_issues"] + o["other_issues"] == sm["warp_instructions"], (f, o, sm["warp_instructions"])
        others += o["other_issues"]
assert others > 0, "no issue from a group other than the prioritised one in the whole suite"
print(f"owl: {len(stats)} workloads verified, OWL counters consistent, {others} issues outside the prioritised group")
