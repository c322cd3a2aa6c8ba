"""Shared by the whole-suite tests (tests/*/suite_*.py): run `gputlm suite` with extra
parameters, fail on any workload that does not verify, and hand back each workload's
timing statistics for the test's own checks.

A test script is called as  SCRIPT GPUTLM WORKLOADS_DIR TMP_DIR CONFIG...  (see `args`)."""
import json
import os
import re
import shutil
import subprocess
import sys


def args(n_configs):
    """(gputlm, workloads, tmp, [configs]) from argv; tmp is emptied."""
    if len(sys.argv) != 4 + n_configs:
        sys.exit(f"usage: {os.path.basename(sys.argv[0])} GPUTLM WORKLOADS_DIR TMP_DIR"
                 + "".join(f" CONFIG{i + 1}" for i in range(n_configs)))
    gputlm, workloads, tmp = sys.argv[1:4]
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    return gputlm, workloads, tmp, sys.argv[4:]


def run_suite(gputlm, workloads, tmp, name, config, params=(), min_workloads=20, extra=()):
    """Runs the suite into TMP/NAME; returns {file name: timing statistics}. Exits non-zero,
    printing the suite's output, when the suite fails or any workload does not verify.
    EXTRA: more arguments of `gputlm suite` (e.g. --only NAME)."""
    out = os.path.join(tmp, name)
    cmd = [gputlm, "suite", "--config", config, "--workloads", workloads, "-j", "2", "--out", out, *extra]
    for p in params:
        cmd += ["-p", p]
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(out + ".txt", "w") as f:
        f.write(run.stdout)
    if run.returncode != 0 or "FAIL" in run.stdout:
        sys.stderr.write(run.stdout)
        sys.exit(f"{name}: a workload failed ({' '.join(cmd)})")
    files = sorted(f for f in os.listdir(out) if f.endswith(".timing.json"))
    if len(files) < min_workloads:
        sys.exit(f"{name}: only {len(files)} workloads in {out}")
    stats = {}
    for f in files:
        with open(os.path.join(out, f)) as fh:
            stats[f] = json.load(fh)
    return stats


# workload -> the launch error it must give on a 16k-register, 16 KB SM (004's ILP baseline,
# 001's Table 4.3 platform)
MISFITS_16K = {
    "leukocyte": "one CTA does not fit an SM (registers 16640 > 16384)",
    "mrig": "one CTA does not fit an SM (registers 32768 > 16384)",
    "storegpu": "one CTA does not fit an SM (shared memory 32768 > 16384)",
}


def run_suite_with_misfits(gputlm, workloads, tmp, name, config, misfits):
    """Runs the suite into TMP/NAME: every workload must verify but those of MISFITS
    (workload -> launch error), which must be refused at launch with that error. Exits
    non-zero, printing the suite's output, otherwise. Returns the output folder."""
    out = os.path.join(tmp, name)
    cmd = [gputlm, "suite", "--config", config, "--workloads", workloads, "-j", "2", "--out", out]
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(out + ".txt", "w") as f:
        f.write(run.stdout)
    rows = {}
    for line in run.stdout.splitlines():
        m = re.match(r"^(\S+)\s+(PASS|FAIL|ERROR)\b", line)
        if m:
            rows[m.group(1)] = m.group(2)
    problems = []
    if len(rows) < 20:
        problems.append(f"only {len(rows)} workloads in the table")
    for w, status in sorted(rows.items()):
        if w in misfits:
            if status != "ERROR" or misfits[w] not in run.stdout:
                problems.append(f"{w}: expected ERROR '{misfits[w]}', got {status}")
        elif status != "PASS":
            problems.append(f"{w}: {status}")
    for w in misfits:
        if w not in rows:
            problems.append(f"{w}: not in the suite table")
    if problems:
        sys.stderr.write(run.stdout)
        sys.exit(f"{name}: " + "; ".join(problems))
    print(f"{name}: {len(rows) - len(misfits)} workloads verified, {len(misfits)} refused at launch as expected")
    return out


def groups_with(tree, key):
    """Every statistics group (depth first) that has a child named KEY, e.g. each sm<i>
    holding an `elf` group."""
    if isinstance(tree, dict):
        if key in tree and isinstance(tree[key], dict):
            yield tree
            return
        for v in tree.values():
            yield from groups_with(v, key)
