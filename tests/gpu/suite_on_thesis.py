#!/usr/bin/env python3
"""Every workload of the suite (small) on the thesis' prefetching platform
(configs/thesis_table4_3.json, 001 Table 4.3) and on its "no data cache" baseline
(configs/variants/thesis_table4_3_nocache.json) with verified outputs, except those whose CTA
cannot fit its SM (16384 registers, 16 KB of shared memory, 1024 threads:
docs/platforms/thesis_prefetch.md): those must be refused at launch with the resource named.
With the L1D bypassed, no global load may reach the L1D.
usage: suite_on_thesis.py GPUTLM WORKLOADS_DIR TMP_DIR CONFIG NOCACHE_CONFIG"""
import json
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from suite_runner import MISFITS_16K, args, run_suite_with_misfits

gputlm, workloads, tmp, (config, nocache) = args(2)


def suite(label, cfg):
    return run_suite_with_misfits(gputlm, workloads, tmp, label, cfg, MISFITS_16K)


def l1d_accesses(out, workload):
    """Sum of every SM's l1d.accesses in WORKLOAD's timing statistics."""
    with open(os.path.join(out, f"{workload}.timing.json")) as f:
        tree = json.load(f)
    total, found = 0, 0
    stack = [tree]
    while stack:
        t = stack.pop()
        if isinstance(t, dict):
            for k, v in t.items():
                if k == "l1d" and isinstance(v, dict) and "accesses" in v:
                    total += v["accesses"]
                    found += 1
                else:
                    stack.append(v)
    if not found:
        sys.exit(f"{out}: no l1d.accesses in {workload}.timing.json")
    return total


cached = l1d_accesses(suite("thesis", config), "vecadd")
uncached = l1d_accesses(suite("thesis_nocache", nocache), "vecadd")
# No data cache: vecadd's global loads and stores never reach an L1D.
if cached == 0 or uncached != 0:
    sys.exit(f"vecadd l1d accesses: {cached} with the L1D, {uncached} without (expected > 0 and 0)")
print(f"vecadd: {cached} L1D accesses with the data cache, none without")
