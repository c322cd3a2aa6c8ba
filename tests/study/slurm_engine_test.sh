#!/usr/bin/env bash
# `gputlm study run --engine slurm` against a real single-node SLURM that this test starts
# (tools/slurm/local-cluster.sh) and stops again (unless it was already up): an array job
# with two verified and two failing jobs (a wrong CPU reference), failures reported with
# SLURM's task state and log, a re-run that submits only the failed jobs, --no-wait with
# `study status`. usage: slurm_engine_test.sh GPUTLM SOURCE_DIR WORKLOADS_DIR
set -euo pipefail
gputlm="$1"; src="$2"; workloads="$3"
if [ "$(id -u)" -ne 0 ]; then echo "SKIP: the local SLURM cluster needs root"; exit 77; fi
state=/tmp/gputlm-slurm
started=0
if ! "$src/tools/slurm/local-cluster.sh" status --state-dir "$state" >/dev/null 2>&1; then
  "$src/tools/slurm/local-cluster.sh" start --state-dir "$state"
  started=1
fi
export SLURM_CONF="$state/slurm.conf"
work="$(mktemp -d /tmp/gputlm-slurm-test.XXXXXX)"
cleanup() {
  rm -rf "$work"
  if [ "$started" = 1 ]; then "$src/tools/slurm/local-cluster.sh" stop --state-dir "$state"; fi
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$work/wl/vecadd"
cp -r "$workloads/vecadd/small" "$work/wl/vecadd/"
cp -r "$workloads/scan" "$work/wl/"
head -c 16384 /dev/zero | tr '\0' '\177' >"$work/wl/vecadd/small/c_ref.bin"  # a wrong reference
cat >"$work/study.json" <<JSON
{"name": "slurm_test", "config": "$src/configs/fermi_gtx480.json",
 "variants": [{"name": "lrr", "overrides": ["sm.scheduler.policy=lrr"]}, {"name": "gto"}],
 "workloads": ["vecadd", "scan"], "metrics": ["ipc", "cycles"]}
JSON
run() { "$gputlm" study "$@" "$work/study.json" --results "$work/res" --workloads "$work/wl"; }

set +e
out="$(run run --engine slurm -j 2 2>&1)"; rc=$?
set -e
echo "$out"
[ "$rc" = 3 ] || fail "expected exit 3 (two failing jobs), got $rc"
echo "$out" | grep -q "4 jobs: 0 already finished, 4 run, 2 failed" || fail "summary line"
[ "$(echo "$out" | grep -c "FAILED, exit 3:0, log $work/res/slurm/submit-1/task-")" = 2 ] || fail "SLURM task states"
grep -q "^#SBATCH --array=0-3%2$" "$work/res/slurm/submit-1/array.sbatch" || fail "array line"
[ "$(ls "$work"/res/jobs/*/result.json | wc -l)" = 4 ] || fail "four results"
[ "$(grep -l '"ok": true' "$work"/res/jobs/*/result.json | wc -l)" = 2 ] || fail "two verified results"

set +e
out="$(run run --engine slurm 2>&1)"; rc=$?
set -e
echo "$out"
[ "$rc" = 3 ] || fail "re-run: expected exit 3, got $rc"
echo "$out" | grep -q "4 jobs: 2 already finished, 2 run, 2 failed" || fail "re-run submits only the failed jobs"
[ "$(wc -l <"$work/res/slurm/submit-2/ids.txt")" = 2 ] || fail "second array of two tasks"

rm -rf "$work/res"
out="$(run run --engine slurm --no-wait 2>&1)" || fail "--no-wait exits 0"
echo "$out" | grep -q "submitted SLURM job" || fail "--no-wait names the job"
for _ in $(seq 1 120); do
  set +e
  status="$(run status 2>&1)"
  set -e
  echo "$status" | grep -q "4 jobs: 2 finished, 2 failed, 0 not run" && { echo "$status"; echo "PASS"; exit 0; }
  sleep 0.5
done
fail "status never showed the finished array: $status"
