#!/usr/bin/env python3
"""A scheduler repeats its last decision while nothing it was decided from changed (the
issue stage's biggest saving). Under every other issue policy, every workload of the suite
(small, GTX480 config) runs with sm.scheduler.verify_repeats, which checks each repeated
decision against a full evaluation of the warps and fails the run on a difference; outputs
verify as in every suite run. (Mascar and CAR: suite_under_mascar.py.) The ILP core's
pieces run here too, under the default policy: the barrel (stall-on-issue) scoreboard, 8-lane
units and an 8-cycle branch resolution, also with data bypassing (sm.exec.forwarding=alu).
usage: suite_repeats_verified.py GPUTLM WORKLOADS_DIR TMP_DIR GTX480_CONFIG"""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from suite_runner import args, run_suite

gputlm, workloads, tmp, (gtx480,) = args(1)
for policy in ["lrr", "gto", "two_level", "swl", "ccws", "owl", "elf", "newcar", "ilp_core", "ilp_fwd"]:
    params = ["sm.scheduler.verify_repeats=true"]
    if policy == "newcar":  # NewCAR's ordering filter under the default policy
        params.append("sm.lsu.reexec_queue.policy=newcar")
    elif policy in ("ilp_core", "ilp_fwd"):  # one instruction in flight per warp, 4 cycles a warp instruction
        params += ["sm.scoreboard.policy=barrel", "sm.exec.simd_width=8", "sm.exec.latency_branch=8"]
        if policy == "ilp_fwd":  # ... ready again at the bypass point of an ALU result
            params.append("sm.exec.forwarding=alu")
    else:
        params.append(f"sm.scheduler.policy={policy}")
    run_suite(gputlm, workloads, tmp, policy, gtx480, params)
