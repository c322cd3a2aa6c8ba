#!/usr/bin/env python3
"""A run ten times longer keeps its peak memory (issue 18 point 3).

Runs vecadd small as a spec of SHORT launches and as one of 10 x SHORT launches on a timing
GPU with --stats (statistics epochs, kernels' functional state, pools and per-launch records
would grow with the run if anything kept them), and requires the long run's peak resident
memory (ru_maxrss of its own process) within 10 % of the short run's. Also checks that the
long run's statistics file holds every launch, in order. (A time series, --sample-every, is
output kept until the run ends: it grows with the run by design.)
usage: long_run_memory.py GPUTLM WORKLOADS_DIR TMP_DIR CONFIG [SHORT]
"""
import json
import os
import shutil
import subprocess
import sys


def run(cmd):
    """Runs cmd; returns its peak RSS in KB (its own, from wait4)."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited with {code}:\n{err}")
    return usage.ru_maxrss


def main():
    gputlm, workloads, tmp, config = sys.argv[1:5]
    short = int(sys.argv[5]) if len(sys.argv) > 5 else 20
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(os.path.join(workloads, "vecadd", "small"), tmp)
    base = json.load(open(os.path.join(tmp, "spec.json")))
    launch = {k: base.pop(k) for k in ("kernel", "grid", "block", "args")}
    base.pop("shared_bytes", None)
    peaks = {}
    # Both runs before this process reads any statistics: a child's ru_maxrss starts from
    # this process's resident size at the fork.
    for n in (short, 10 * short):
        spec = dict(base, launches=[dict(launch) for _ in range(n)])
        path = os.path.join(tmp, f"spec_{n}.json")
        json.dump(spec, open(path, "w"))
        peaks[n] = run([gputlm, "run", path, "--config", config, "--quiet", "--stats",
                        os.path.join(tmp, f"stats_{n}.json")])
    for n in (short, 10 * short):
        stats = os.path.join(tmp, f"stats_{n}.json")
        launches = json.load(open(stats))["launches"]
        if len(launches) != n or any(l["label"] != f"launches[{i}]" for i, l in enumerate(launches)):
            sys.exit(f"FAIL: {stats} does not hold the {n} launches in order")
        print(f"{n:5d} launches: peak {peaks[n] / 1024:.1f} MB")
    ratio = peaks[10 * short] / peaks[short]
    print(f"long / short peak memory: x{ratio:.3f}")
    if ratio > 1.10:
        sys.exit("FAIL: ten times the launches took more than 10 % more memory")
    print("PASS")


if __name__ == "__main__":
    main()
