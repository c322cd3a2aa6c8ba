#!/usr/bin/env python3
"""The LSU's retry shortcut (sm.lsu.retry_shortcut: a refused request is retried through the
L1D's L1RetryIF instead of a BEGIN_REQ) changes nothing but host time: for each case the
statistics of a run with it and without it are identical key by key (host times and the
parameter itself aside), outputs verify in both, and the case did retry refused requests
(else the comparison would prove nothing). Cases: Mascar + CAR (NACKs, the rotating queue),
CAR with warp_hold = lsu, no queue under LRR (the head retried every cycle), ELF's NewCAR,
and a recorded L1D socket (a tap: the shortcut turns itself off, so the transaction database
holds one transaction per L1D access, retries included).
usage: retry_shortcut_equivalence.py GPUTLM WORKLOADS_DIR TMP_DIR CONFIGS_DIR"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys

if len(sys.argv) != 5:
    sys.exit(__doc__)
gputlm, workloads, tmp, configs = sys.argv[1:]
shutil.rmtree(tmp, ignore_errors=True)
os.makedirs(tmp)

MASCAR = os.path.join(configs, "variants", "mascar_table1.json")
ELF = os.path.join(configs, "variants", "elf_table1.json")
CASES = [
    ("mummer_mascar_car", "mummer", MASCAR, ["sm.scheduler.policy=mascar", "sm.lsu.reexec_queue.policy=car"]),
    ("spmv_car_hold_lsu", "spmv", MASCAR,
     ["sm.scheduler.policy=mascar", "sm.lsu.reexec_queue.policy=car", "sm.lsu.reexec_queue.warp_hold=lsu"]),
    ("mummer_lrr_none", "mummer", MASCAR, ["sm.scheduler.policy=lrr"]),
    ("kmeans_newcar", "kmeans", ELF, ["sm.lsu.reexec_queue.policy=newcar"]),
]
IGNORED = ("host", "wall", "seconds", "rate_per_s", "retry_shortcut")


def flat(o, p="", out=None):
    out = {} if out is None else out
    if isinstance(o, dict):
        for k, v in o.items():
            flat(v, p + "." + k, out)
    elif isinstance(o, list):
        for i, v in enumerate(o):
            flat(v, p + "[%d]" % i, out)
    else:
        out[p] = o
    return out


def run(name, workload, config, params, shortcut, extra=()):
    stats = os.path.join(tmp, f"{name}_{shortcut}.json")
    cmd = [gputlm, "run", os.path.join(workloads, workload, "small", "spec.json"), "--config", config,
           "--stats", stats, "--quiet", "-p", f"sm.lsu.retry_shortcut={shortcut}", *extra]
    for p in params:
        cmd += ["-p", p]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.exit(f"{name}: exit {r.returncode} ({' '.join(cmd)})\n{r.stdout[-2000:]}")
    with open(stats) as f:
        return json.load(f)


def retries(stats):
    """Requests the L1s refused, summed over the SMs' LSUs."""
    total = 0
    for k, v in flat(stats["total"]).items():
        if ".lsu.reservation_fails." in k:
            total += v
    return total


failed = []
for name, workload, config, params in CASES:
    a, b = run(name, workload, config, params, "true"), run(name, workload, config, params, "false")
    fa, fb = flat(a), flat(b)
    diff = sorted(k for k in set(fa) | set(fb) if fa.get(k) != fb.get(k) and not any(i in k for i in IGNORED))
    refused = retries(a)
    print(f"{name}: {len(fa)} keys, {refused} refusals, {len(diff)} differ")
    if diff:
        failed.append(f"{name}: {diff[:10]}")
    if refused < 100:
        failed.append(f"{name}: only {refused} refused requests: the case does not exercise retries")
    if not a.get("ok") or not b.get("ok"):
        failed.append(f"{name}: outputs did not verify")

# A tap on the L1D socket sees every retry: the shortcut is off there by itself.
name, workload, config, params = CASES[0]
db = os.path.join(tmp, "l1d.db")
tapped = flat(run(name + "_tapped", workload, config, params, "true", ["--transactions", db, "--transactions-on", "l1d"]))
plain = flat(run(name, workload, config, params, "true"))
diff = sorted(k for k in set(plain) | set(tapped) if plain.get(k) != tapped.get(k) and not any(i in k for i in IGNORED))
if diff:
    failed.append(f"tapped: {diff[:10]}")
with sqlite3.connect(db) as c:
    recorded = c.execute("SELECT COUNT(*) FROM transactions_view WHERE socket_kind = 'l1d'").fetchone()[0]
accesses = sum(v for k, v in tapped.items() if k.startswith(".total.") and k.endswith(".l1d.accesses"))
print(f"tapped: {recorded} transactions recorded on the L1D sockets, {accesses} L1D accesses")
if recorded != accesses:
    failed.append(f"tapped: {recorded} recorded L1D transactions but {accesses} L1D accesses")

if failed:
    sys.exit("\n".join(failed))
print("retry shortcut: identical statistics in every case")
