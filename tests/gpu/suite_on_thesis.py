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
import re
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from suite_runner import args

gputlm, workloads, tmp, (config, nocache) = args(2)

# workload -> the launch error it must give on the 16k-register, 16 KB SM
MISFITS = {
    "leukocyte": "one CTA does not fit an SM (registers 16640 > 16384)",
    "mrig": "one CTA does not fit an SM (registers 32768 > 16384)",
    "storegpu": "one CTA does not fit an SM (shared memory 32768 > 16384)",
}


def suite(label, cfg):
    out = os.path.join(tmp, label)
    cmd = [gputlm, "suite", "--config", cfg, "--workloads", workloads, "-j", "2", "--out", out]
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(out + ".txt", "w") as f:
        f.write(run.stdout)
    rows = {}
    for line in run.stdout.splitlines():
        m = re.match(r"^(\S+)\s+(PASS|FAIL|ERROR)\b", line)
        if m:
            rows[m.group(1)] = m.group(2)
    problems = []
    if len(rows) < 20:
        problems.append(f"only {len(rows)} workloads in the table")
    for name, status in sorted(rows.items()):
        if name in MISFITS:
            if status != "ERROR" or MISFITS[name] not in run.stdout:
                problems.append(f"{name}: expected ERROR '{MISFITS[name]}', got {status}")
        elif status != "PASS":
            problems.append(f"{name}: {status}")
    for name in MISFITS:
        if name not in rows:
            problems.append(f"{name}: not in the suite table")
    if problems:
        sys.stderr.write(run.stdout)
        sys.exit(f"{label}: " + "; ".join(problems))
    print(f"{label}: {len(rows) - len(MISFITS)} workloads verified, {len(MISFITS)} refused at launch as expected")
    return out


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
