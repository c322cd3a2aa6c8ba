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
from suite_runner import args

gputlm, workloads, tmp, (ilp,) = args(1)

# workload -> the launch error it must give on the 16k-register, 16 KB SM
MISFITS = {
    "leukocyte": "one CTA does not fit an SM (registers 16640 > 16384)",
    "mrig": "one CTA does not fit an SM (registers 32768 > 16384)",
    "storegpu": "one CTA does not fit an SM (shared memory 32768 > 16384)",
}

out = os.path.join(tmp, "ilp")
cmd = [gputlm, "suite", "--config", ilp, "--workloads", workloads, "-j", "2", "--out", out]
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
    sys.exit("ilp suite: " + "; ".join(problems))
print(f"ilp: {len(rows) - len(MISFITS)} workloads verified, {len(MISFITS)} refused at launch as expected")

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
