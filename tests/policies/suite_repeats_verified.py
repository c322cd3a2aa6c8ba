#!/usr/bin/env python3
"""A scheduler repeats its last decision while nothing it was decided from changed (the
issue stage's biggest saving). Under every other issue policy, every workload of the suite
(small, GTX480 config) runs with sm.scheduler.verify_repeats, which checks each repeated
decision against a full evaluation of the warps and fails the run on a difference; outputs
verify as in every suite run. (Mascar and CAR: suite_under_mascar.py.) The ILP core's
pieces run here too, under the default policy: the barrel (stall-on-issue) scoreboard, 8-lane
units and an 8-cycle branch resolution, also with data bypassing (sm.exec.forwarding=alu);
the ilp_commit scoreboard (8 entries shared by the SM's
warps, in-order commit); gshare branch prediction with the conventional scoreboard (a
mispredicted branch holds its warp until it resolves). And 004's heterogeneous GPU-H
(configs/gpu_h.json: SM groups of kinds tlp and ilp, kernels steered by ilp_tlp), with 32 K
registers and 32 KB shared so that every workload fits, as configured and with steering all
over two different kinds: each run's sm_kinds must account for every instruction.
usage: suite_repeats_verified.py GPUTLM WORKLOADS_DIR TMP_DIR GTX480_CONFIG"""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from suite_runner import args, run_suite

gputlm, workloads, tmp, (gtx480,) = args(1)
for policy in ["lrr", "gto", "two_level", "swl", "ccws", "owl", "elf", "newcar", "ilp_core", "ilp_fwd",
               "ilp_commit", "ilp_gshare", "stpe"]:
    params = ["sm.scheduler.verify_repeats=true"]
    if policy == "newcar":  # NewCAR's ordering filter under the default policy
        params.append("sm.lsu.reexec_queue.policy=newcar")
    elif policy in ("ilp_core", "ilp_fwd"):  # one instruction in flight per warp, 4 cycles a warp instruction
        params += ["sm.scoreboard.policy=barrel", "sm.exec.simd_width=8", "sm.exec.latency_branch=8"]
        if policy == "ilp_fwd":  # ... ready again at the bypass point of an ALU result
            params.append("sm.exec.forwarding=alu")
    elif policy == "ilp_commit":  # 8 entries shared by the SM's warps, stall on use, in-order commit
        params += ["sm.scoreboard.policy=ilp_commit", "sm.exec.simd_width=8"]
    elif policy == "ilp_gshare":  # 8 lanes, gshare: a mispredicted branch holds its warp (sm.branch)
        params += ["sm.exec.simd_width=8", "sm.exec.latency_branch=8", "sm.branch.predictor=gshare",
                   "sm.branch.redirect_penalty=2"]
    elif policy == "stpe":  # 001 ch. 4's STPE data prefetcher; the L1D as a prefetch cache
        params += ["sm.l1d_prefetch.policy=stpe", "sm.l1d.allocate_demand=false"]
    else:
        params.append(f"sm.scheduler.policy={policy}")
    runs = run_suite(gputlm, workloads, tmp, policy, gtx480, params)
    if policy == "stpe":  # prefetches were sent, and none was useful without being sent
        issued = useful = 0
        for wl, run in runs.items():
            for k, v in run["total"].items():
                if k.startswith("sm") and k[2:].isdigit():
                    pf = v["l1d"]["prefetch"]
                    issued += pf["issued"]
                    useful += pf["useful"]
        if issued == 0 or useful > issued:
            sys.exit(f"stpe: {issued} prefetches issued, {useful} useful")

gpu_h = os.path.join(os.path.dirname(os.path.abspath(gtx480)), "gpu_h.json")
fit_all = ["sm.scheduler.verify_repeats=true", "sm.registers=32768", "sm.shared_bytes=32768"]
# As configured (small inputs: every kernel has <= 32768 threads, so ilp_tlp sends all to the
# ILP kind), and with steering all and two different kinds sharing each kernel.
two_kinds = ["cta_scheduler.steering=all", "sm_groups.tlp.sm.exec.simd_width=32",
             "sm_groups.tlp.sm.scoreboard.policy=conventional"]
for name, params in (("gpu_h", fit_all), ("gpu_h_two_kinds", fit_all + two_kinds)):
    runs = run_suite(gputlm, workloads, tmp, name, gpu_h, params)
    both = 0
    for wl, run in runs.items():
        kinds = run.get("sm_kinds", {})
        if sorted(kinds) != ["ilp", "tlp"]:
            sys.exit(f"{name}: {wl}: sm_kinds {sorted(kinds)}, expected ilp and tlp")
        total = sum(v["warp_instructions"] for k, v in run["total"].items() if k.startswith("sm") and k[2:].isdigit())
        if sum(k["warp_instructions"] for k in kinds.values()) != total:
            sys.exit(f"{name}: {wl}: the kinds' warp instructions do not add up to the SMs' {total}")
        both += all(k["warp_instructions"] > 0 for k in kinds.values())
    if name == "gpu_h_two_kinds" and both < len(runs) // 2:
        sys.exit(f"{name}: only {both} of {len(runs)} workloads ran on both kinds")
