#!/usr/bin/env python3
"""Whole GPU with RTL inside (issue 11 point 3): every workload of the suite runs with
TLM_CONFIG and again with RTL_CONFIG (the same GPU with RTL blocks); each must verify,
and every statistic of every run must be identical (host times aside).
usage: suite_identical.py GPUTLM WORKLOADS_DIR TMP_DIR TLM_CONFIG RTL_CONFIG"""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from suite_runner import args, run_suite

gputlm, workloads, tmp, (tlm_config, rtl_config) = args(2)
tlm = run_suite(gputlm, workloads, tmp, "tlm", tlm_config)
rtl = run_suite(gputlm, workloads, tmp, "rtl", rtl_config)


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if "host" not in k and k not in ("config", "platform")}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


def first_difference(x, y, path=""):
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            if x.get(k) != y.get(k):
                return first_difference(x.get(k), y.get(k), path + "." + k)
    return f"{path}: tlm {x!r} rtl {y!r}"


assert sorted(tlm) == sorted(rtl), f"workloads differ: {sorted(tlm)} vs {sorted(rtl)}"
for f in sorted(tlm):
    a, b = strip(tlm[f]), strip(rtl[f])
    if a != b:
        sys.exit(f"FAIL {f}: statistics differ at {first_difference(a, b)}")
print(f"{len(tlm)} workloads: statistics identical")
