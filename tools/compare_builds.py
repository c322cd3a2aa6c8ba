#!/usr/bin/env python3
"""Determinism across builds (issue 18 point 4): runs small workloads on the timing GPUs with
two gputlm binaries built differently (Debug against Release, g++ against clang, sanitized
against plain) and requires identical statistics: the whole --stats JSON but its `host` part
(host seconds and rates) and the file paths.

usage: compare_builds.py GPUTLM_A GPUTLM_B WORKLOADS_DIR TMP_DIR CONFIG... [--only W1,W2,...] [-j N]
Prints one line per run and the count compared; exit status 1 on any difference or failure.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

REFUSED = ("does not fit an SM", "fits no kind of SM")  # refused by both: nothing to compare


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in ("host", "spec", "config")}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


def first_difference(a, b, path=""):
    if type(a) is not type(b):
        return f"{path}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: only in {'B' if k not in a else 'A'}"
            d = first_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} != {len(b)} elements"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("workloads")
    ap.add_argument("tmp")
    ap.add_argument("configs", nargs="+")
    ap.add_argument("--only", default="")
    ap.add_argument("-j", type=int, default=2)
    o = ap.parse_args()
    names = sorted(w for w in os.listdir(o.workloads) if os.path.isfile(os.path.join(o.workloads, w, "small", "spec.json")))
    if o.only:
        wanted = o.only.split(",")
        missing = [w for w in wanted if w not in names]
        if missing:
            sys.exit(f"no small workload {', '.join(missing)} under {o.workloads}")
        names = wanted
    shutil.rmtree(o.tmp, ignore_errors=True)
    os.makedirs(o.tmp)

    def run(job):
        binary, tag, config, w = job
        out = os.path.join(o.tmp, f"{os.path.basename(config)}.{w}.{tag}.json")
        p = subprocess.run([binary, "run", os.path.join(o.workloads, w, "small", "spec.json"), "--config", config,
                            "--quiet", "--stats", out], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode != 0:
            return "refused" if any(r in p.stdout for r in REFUSED) else f"exit {p.returncode}: {p.stdout[-400:]}"
        return out

    jobs = [(c, w) for c in o.configs for w in names]
    with ThreadPoolExecutor(o.j) as ex:
        ra = list(ex.map(run, [(o.a, "a", c, w) for c, w in jobs]))
        rb = list(ex.map(run, [(o.b, "b", c, w) for c, w in jobs]))
    bad = compared = 0
    for (c, w), x, y in zip(jobs, ra, rb):
        label = f"{os.path.basename(c)} {w}"
        if x == "refused" and y == "refused":
            print(f"{label}: refused by both")
            continue
        if not (x.endswith(".json") and y.endswith(".json")):
            print(f"FAIL {label}: A {x}; B {y}")
            bad += 1
            continue
        d = first_difference(strip(json.load(open(x))), strip(json.load(open(y))))
        compared += 1
        print(f"{'FAIL ' if d else ''}{label}: {d or 'identical'}")
        bad += bool(d)
    print(f"{compared} runs compared, {bad} differ or failed")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
