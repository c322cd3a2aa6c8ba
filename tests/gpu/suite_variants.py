"""Shared by the suite tests that run every small workload under several variants of one
run (tick orders, thread counts) and require identical statistics: runs the jobs two at a
time and compares each workload's statistics JSON across the variants (`host` parts and the
keys in `ignore` left out)."""
import json
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

# A CTA that does not fit the SM is refused at launch: not these tests' concern.
REFUSED = ("does not fit an SM", "fits no kind of SM")


def strip(x, ignore=()):
    if isinstance(x, dict):
        return {k: strip(v, ignore) for k, v in x.items() if k != "host" and k not in ignore}
    if isinstance(x, list):
        return [strip(v, ignore) for v in x]
    return x


def small_workloads(workloads):
    names = sorted(w for w in os.listdir(workloads) if os.path.isfile(os.path.join(workloads, w, "small", "spec.json")))
    if len(names) < 20:
        raise SystemExit(f"only {len(names)} small workloads under {workloads}")
    return names


def run_variants(gputlm, workloads, tmp, configs, variants, args_of, label):
    """Runs every small workload on every config once per variant (args_of(v): the extra
    `gputlm run` arguments). Returns (errors, results): results[(tag, workload)] is the list
    of raw statistics per variant, for the workloads every variant ran."""
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    names = small_workloads(workloads)
    tag_of = {c: os.path.splitext(os.path.basename(c))[0] for c in configs}

    def out_of(c, w, v):
        return os.path.join(tmp, f"{tag_of[c]}.{w}.{v}.json")

    def run(job):
        config, w, v = job
        p = subprocess.run([gputlm, "run", os.path.join(workloads, w, "small", "spec.json"), "--config", config,
                            "--quiet", "--stats", out_of(config, w, v), *args_of(v)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode != 0 and any(r in p.stdout for r in REFUSED):
            return None
        if p.returncode != 0:
            return f"{tag_of[config]} {w} {label} {v}: exit {p.returncode}: {p.stdout[-500:]}"
        return None

    jobs = [(c, w, v) for c in configs for w in names for v in variants]
    with ThreadPoolExecutor(2) as ex:
        errors = [e for e in ex.map(run, jobs) if e]
    results = {}
    for c in configs:
        for w in names:
            files = [out_of(c, w, v) for v in variants]
            if all(os.path.exists(f) for f in files):
                results[(tag_of[c], w)] = [json.load(open(f)) for f in files]
    return errors, results
