#!/usr/bin/env python3
"""Seed 004 Table 2's shapes run whole (issue 16 point 6): workload-gen writes the ilp size of
every workload with a spec_ilp.json, `gputlm suite --size ilp` runs them on GPU-H
(configs/gpu_h.json: 20 TLP + 18 ILP SMs, ilp_tlp steering) and every output must verify; each
kernel's instructions must all come from the kind 004 Fig. 11 found best for it (digest H5),
the kind ilp_tlp chose from its warps per SM and threads (with when_alone kind: a kernel alone
keeps to its kind instead of spilling onto the other).
usage: suite_ilp_verified.py GPUTLM WORKLOAD_GEN WORKLOADS_SRC TMP_DIR GPU_H_CONFIG"""
import os
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from suite_runner import run_suite

ILP_WINS = {"nqueen_ilp", "storegpu_ilp", "ray", "scan_ilp", "fft"}
TLP_WINS = {"sgemm", "conv2d", "blackscholes", "dxtc", "scalarprod", "sgemv"}

if len(sys.argv) != 6:
    sys.exit(__doc__)
gputlm, workload_gen, src, tmp, gpu_h = sys.argv[1:]
workloads = os.path.join(tmp, "workloads")
subprocess.run(["rm", "-rf", tmp], check=True)
names = sorted(n for n in os.listdir(src) if os.path.isfile(os.path.join(src, n, "spec_ilp.json")))
if set(names) != ILP_WINS | TLP_WINS:
    sys.exit(f"workloads with spec_ilp.json: {names}, expected {sorted(ILP_WINS | TLP_WINS)}")
for n in names:
    subprocess.run([workload_gen, n, "ilp", os.path.join(workloads, n, "ilp")], check=True, stdout=subprocess.DEVNULL)
runs = run_suite(gputlm, workloads, tmp, "gpu_h_ilp", gpu_h, min_workloads=len(names), extra=["--size", "ilp", "-p", "cta_scheduler.ilp_tlp.when_alone=kind"])
for n in names:
    kinds = runs[f"{n}.timing.json"]["sm_kinds"]
    used = sorted(k for k, v in kinds.items() if v["warp_instructions"] > 0)
    want = ["ilp"] if n in ILP_WINS else ["tlp"]
    if used != want:
        sys.exit(f"{n}: ran on kinds {used}, expected {want} (004 Fig. 11)")
print(f"{len(names)} workloads verified on GPU-H, each on its kind")
