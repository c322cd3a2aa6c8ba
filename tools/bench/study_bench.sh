#!/usr/bin/env bash
# Overhead of the study tool itself (issue 9 item 7; run by hand): `gputlm study plan` of a
# study of about 1,000 jobs (22 workloads x a 46-value sweep) and `gputlm study report` of
# 1,000 results (result files fabricated with plausible metrics, so no simulation runs),
# with and without plots. Figures: docs/experiments.md.
#   tools/bench/study_bench.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${GPUTLM_BUILD_DIR:-$root/build}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
values="$(seq -s, 1 46)"
cat >"$work/bench.json" <<JSON
{
  "name": "study_bench",
  "config": "$root/configs/fermi_gtx480.json",
  "sweep": {"parameter": "cta_scheduler.max_concurrent_kernels", "values": [$values], "name": "k{}"},
  "workloads": "all",
  "metrics": ["ipc", "cycles"],
  "plots": [{"kind": "bars", "metric": "ipc"}, {"kind": "sweep", "metric": "ipc"}]
}
JSON
t0=$(date +%s.%N)
"$build/gputlm" study plan "$work/bench.json" --results "$work/results" >"$work/plan.txt"
t1=$(date +%s.%N)
jobs=$(($(wc -l <"$work/plan.txt") - 1))
# One result.json per job, as `gputlm study job` writes them.
/usr/bin/python3 - "$work/plan.txt" "$work/results" <<'PY'
import json, os, random, sys
random.seed(1)
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    job = line.split("\t")[0]
    d = os.path.join(sys.argv[2], "jobs", job)
    os.makedirs(d, exist_ok=True)
    json.dump({"id": job, "ok": True, "exit_status": 0, "host_seconds": 1.0,
               "metrics": {"ipc": random.uniform(50, 500), "cycles": random.randint(10**4, 10**6)}},
              open(os.path.join(d, "result.json"), "w"))
PY
t2=$(date +%s.%N)
"$build/gputlm" study report "$work/bench.json" --results "$work/results" --no-plots --out "$work/report" >/dev/null
t3=$(date +%s.%N)
"$build/gputlm" study report "$work/bench.json" --results "$work/results" --out "$work/report" >/dev/null
t4=$(date +%s.%N)
awk -v j="$jobs" -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v e="$t4" 'BEGIN {
  printf "plan of %d jobs: %.2f s\nreport of %d results, tables only: %.2f s\nreport with plots: %.2f s\n", j, b - a, j, d - c, e - d }'
