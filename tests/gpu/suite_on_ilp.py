#!/usr/bin/env python3
"""Every workload of the suite (small) on 004's ILP baseline GPU (configs/ilp_baseline.json)
with verified outputs, except the three whose CTA cannot fit its SM (16384 registers, 16 KB
shared memory: docs/platforms/ilp.md): those must be refused at launch with the resource
named, and must verify once the SM is large enough (004's 32k register file and 32 KB of
shared memory).
usage: suite_on_ilp.py GPUTLM WORKLOADS_DIR TMP_DIR ILP_CONFIG"""
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from suite_runner import MISFITS_16K as MISFITS, args, run_suite_with_misfits

gputlm, workloads, tmp, (ilp,) = args(1)
run_suite_with_misfits(gputlm, workloads, tmp, "ilp", ilp, MISFITS)

# The misfits verify on a large enough SM.
params = ["sm.registers=32768", "sm.shared_bytes=32768"]
cmd = [gputlm, "suite", "--config", ilp, "--workloads", workloads, "-j", "2", "--out", os.path.join(tmp, "ilp_32k")]
for name in MISFITS:
    cmd += ["--only", name]
for p in params:
    cmd += ["-p", p]
run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
passed = [line.split()[0] for line in run.stdout.splitlines() if re.match(r"^\S+\s+PASS\b", line)]
if run.returncode != 0 or sorted(passed) != sorted(MISFITS):
    sys.stderr.write(run.stdout)
    sys.exit(f"ilp_32k: the misfits do not all verify with {params}")
print(f"ilp_32k: {', '.join(MISFITS)} verified with {' '.join(params)}")
