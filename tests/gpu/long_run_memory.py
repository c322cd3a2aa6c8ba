#!/usr/bin/env python3
"""A run ten times longer keeps its peak memory (issue 18 point 3).

Runs vecadd small as a spec of SHORT launches and as one of 10 x SHORT launches on a timing
GPU with --stats (statistics epochs, kernels' functional state, pools and per-launch records
would grow with the run if anything kept them), and requires the long run's peak resident
memory (ru_maxrss of its own process) within 10 % of the short run's. Also checks that the
long run's statistics file holds every launch, in order. The same again with a time series
(--sample-every 50): its samples go to a temporary file and are written out as they are
read back, so they do not grow the memory either.
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
    modes = {"": [], "series": ["--sample-every", "50"]}
    # Every run before this process reads any statistics: a child's ru_maxrss starts from
    # this process's resident size at the fork.
    for mode, extra in modes.items():
        for n in (short, 10 * short):
            spec = dict(base, launches=[dict(launch) for _ in range(n)])
            path = os.path.join(tmp, f"spec_{n}.json")
            json.dump(spec, open(path, "w"))
            peaks[mode, n] = run([gputlm, "run", path, "--config", config, "--quiet", "--stats",
                                  os.path.join(tmp, f"stats_{mode}{n}.json")] + extra)
    failed = False
    for mode in modes:
        for n in (short, 10 * short):
            stats = json.load(open(os.path.join(tmp, f"stats_{mode}{n}.json")))
            launches = stats["launches"]
            if len(launches) != n or any(l["label"] != f"launches[{i}]" for i, l in enumerate(launches)):
                sys.exit(f"FAIL: stats_{mode}{n}.json does not hold the {n} launches in order")
            if mode == "series":
                series = stats["time_series"]
                per_launch = [k for k in series["series"] if k.startswith("ipc.")]
                if len(per_launch) != n or len(series["cycle"]) < n:
                    sys.exit(f"FAIL: stats_{mode}{n}.json's time series lacks launches or samples")
                thread = sum(l["thread_instructions"] for l in launches)
                integral = sum(v * (c - p) for v, c, p in
                               zip(series["series"]["ipc"], series["cycle"], [0] + series["cycle"][:-1]))
                if abs(integral - thread) > 1e-6 * thread:
                    sys.exit(f"FAIL: the ipc series of stats_{mode}{n}.json adds up to {integral}, not {thread}")
            print(f"{mode or 'plain':6s} {n:5d} launches: peak {peaks[mode, n] / 1024:.1f} MB")
        ratio = peaks[mode, 10 * short] / peaks[mode, short]
        print(f"{mode or 'plain':6s} long / short peak memory: x{ratio:.3f}")
        failed = failed or ratio > 1.10
    if failed:
        sys.exit("FAIL: ten times the launches took more than 10 % more memory")
    print("PASS")


if __name__ == "__main__":
    main()
