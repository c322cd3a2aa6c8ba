#!/usr/bin/env python3
"""Every small workload gives the same statistics whatever the number of host threads ticking
the SMs of a clock edge (`gputlm run --threads N`, issue 20 point 2): the groups of an edge
tick concurrently and their effects on the rest of the GPU (wake-ups, routing, CTA
completions, global memory) are applied at the edge's end in SM order. The whole statistics
JSON is compared but its `host` parts and the `threads` key of the echoed config.

usage: thread_count_independence.py GPUTLM WORKLOADS_DIR TMP_DIR CONFIG..."""
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

THREADS = (1, 2, 4)


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k != "host" and k != "threads"}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    gputlm, workloads, tmp = sys.argv[1:4]
    configs = sys.argv[4:]
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    names = sorted(w for w in os.listdir(workloads) if os.path.isfile(os.path.join(workloads, w, "small", "spec.json")))
    if len(names) < 20:
        sys.exit(f"only {len(names)} small workloads under {workloads}")
    jobs = [(c, w, n) for c in configs for w in names for n in THREADS]

    def run(job):
        config, w, n = job
        tag = os.path.splitext(os.path.basename(config))[0]
        out = os.path.join(tmp, f"{tag}.{w}.{n}.json")
        p = subprocess.run([gputlm, "run", os.path.join(workloads, w, "small", "spec.json"), "--config", config,
                            "--quiet", "--stats", out, "--threads", str(n)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        # A CTA that does not fit the SM is refused at launch: not this test's concern.
        if p.returncode != 0 and ("does not fit an SM" in p.stdout or "fits no kind of SM" in p.stdout):
            return None
        if p.returncode != 0:
            return f"{tag} {w} --threads {n}: exit {p.returncode}: {p.stdout[-500:]}"
        return None

    with ThreadPoolExecutor(2) as ex:
        errors = [e for e in ex.map(run, jobs) if e]
    compared = parallel = 0
    for config in configs:
        tag = os.path.splitext(os.path.basename(config))[0]
        for w in names:
            files = [os.path.join(tmp, f"{tag}.{w}.{n}.json") for n in THREADS]
            if not all(os.path.exists(f) for f in files):
                continue
            raw = [json.load(open(f)) for f in files]
            stats = [strip(r) for r in raw]
            compared += 1
            if not all(s == stats[0] for s in stats[1:]):
                errors.append(f"{tag} {w}: statistics depend on the thread count {THREADS}")
            parallel += sum(r.get("host", {}).get("parallel_edges", 0) > 0 for r in raw[1:])
    print(f"{compared} workload runs compared across --threads {THREADS}; "
          f"{parallel} multi-threaded runs ticked edges in parallel", flush=True)
    if compared and parallel == 0:
        errors.append("no multi-threaded run ticked an edge in parallel: the test compares nothing")
    if errors:
        sys.exit("\n".join(errors))


if __name__ == "__main__":
    main()
