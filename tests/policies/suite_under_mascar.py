#!/usr/bin/env python3
"""Every workload of the suite (small) runs with verified outputs under Mascar scheduling and
under Mascar + CAR, on the GTX480 config and on Mascar's Table I config, and on Table I with
CAR's other §Z34 reading (warp_hold = lsu: the LSU, not issue, holds a warp's next memory
instruction; the queue then never holds one behind another) (no deadlock: the
watchdog would fail the run), and the counters of every SM are consistent:
sm<i>.mascar: mp_cycles + ep_cycles = cycles = the SM's cycles, owner changes = acquisitions
+ hand-overs, stranded-hit cycles <= LSU stall cycles <= cycles; sm<i>.lsu.car (with CAR
only): every queued request was served (services - recycled = enqueued), recycled_nacked <=
recycled, held <= enqueued. Somewhere in each suite MP mode was entered, and with CAR a
NACKed request was recycled. Every repeated scheduler decision is checked (verify_repeats).
usage: suite_under_mascar.py GPUTLM WORKLOADS_DIR TMP_DIR GTX480_CONFIG MASCAR_TABLE1_CONFIG"""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from suite_runner import args, groups_with, run_suite

gputlm, workloads, tmp, (gtx480, table1) = args(2)
MASCAR = "sm.scheduler.policy=mascar"
CAR = "sm.lsu.reexec_queue.policy=car"
VERIFY = "sm.scheduler.verify_repeats=true"
HOLD_LSU = "sm.lsu.reexec_queue.warp_hold=lsu"  # §Z34's other reading: the LSU holds the instruction
for name, config, params in [("gtx480_mascar", gtx480, [MASCAR]), ("gtx480_mascar_car", gtx480, [MASCAR, CAR]),
                             ("table1_mascar", table1, [MASCAR]), ("table1_mascar_car", table1, [MASCAR, CAR]),
                             ("table1_mascar_car_hold_lsu", table1, [MASCAR, CAR, HOLD_LSU])]:
    car = CAR in params
    hold_lsu = HOLD_LSU in params
    # Every cycle in which a scheduler repeats its decision is checked against a full
    # evaluation (sm.scheduler.verify_repeats): Mascar's vetoes and CAR's filter make the
    # most inputs a repeated decision must track.
    stats = run_suite(gputlm, workloads, tmp, name, config, params + [VERIFY])
    mp = recycled_nacked = 0
    for f, j in stats.items():
        groups = list(groups_with(j["total"], "mascar"))
        assert groups, f"{name}/{f}: no sm<i>.mascar statistics"
        for g in groups:
            m = g["mascar"]
            where = (name, f, m)
            assert m["mp_cycles"] + m["ep_cycles"] == m["cycles"] == g["cycles"], where
            assert m["owner_changes"] == m["owner_acquisitions"] + m["owner_handovers"], where
            assert m["stranded_hit_cycles"] <= m["lsu_stall_cycles"] <= m["cycles"], where
            mp += m["mp_cycles"]
            assert ("car" in g["lsu"]) == car, (name, f, "sm<i>.lsu.car present only with CAR")
            if car:
                c = g["lsu"]["car"]
                assert c["services"] - c["recycled"] == c["enqueued"], (name, f, c)
                assert c["recycled_nacked"] <= c["recycled"] and c["held"] <= c["enqueued"], (name, f, c)
                assert ("warp_hold_cycles" in g["lsu"]) == hold_lsu, (name, f, "warp_hold_cycles only with lsu")
                assert not hold_lsu or c["held"] == 0, (name, f, "the LSU holds, the queue never does", c)
                recycled_nacked += c["recycled_nacked"]
    assert mp > 0, f"{name}: never in MP mode"
    assert not car or recycled_nacked > 0, f"{name}: no NACKed request recycled"
    print(f"{name}: {len(stats)} workloads verified, counters consistent, {mp} MP cycles"
          + (f", {recycled_nacked} NACKed requests recycled" if car else ""))
