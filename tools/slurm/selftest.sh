#!/usr/bin/env bash
# Self-test of tools/slurm/local-cluster.sh against the real SLURM: start a cluster in a
# fresh state directory (own ports, so a cluster already up on this machine is left alone),
# run `sbatch --array=0-3%2` where every task writes a file and task 2 exits 1, wait for it
# with `squeue -j ID -h`, check each task's state and exit code the way the study engine
# reads them (sacct when accounting works, else `scontrol show job -o ID`), stop the
# cluster and check that none of its processes is left. Takes about 10 s; every wait is
# bounded. Exit status 0 when all holds, 1 otherwise (the message says what).
#   usage: tools/slurm/selftest.sh [--keep]   (--keep: leave the state directory for reading)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
lc="$here/local-cluster.sh"
keep=0
[ "${1:-}" = --keep ] && keep=1

t_begin=$SECONDS
fail() { echo "selftest: FAIL: $*" >&2; exit 1; }
note() { echo "selftest: $*"; }

[ "$(id -u)" -eq 0 ] || fail "needs root (the cluster's daemons run as root)"
state="$(mktemp -d /tmp/gputlm-slurm-selftest.XXXXXX)"
conf="$state/slurm.conf"
out="$state/array"
mkdir -p "$out"

# Two free ports, away from local-cluster.sh's default 16817/16818.
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port=16841
while port_busy "$port" || port_busy "$((port + 1))"; do
  port=$((port + 2))
  [ "$port" -lt 16941 ] || fail "no two free ports between 16841 and 16941"
done

# Processes of this cluster still running (not zombies): same test as local-cluster.sh.
cluster_pids() {
  local f p comm
  { grep -lzxF "SLURM_CONF=$conf" /proc/[0-9]*/environ 2>/dev/null || true; } | while read -r f; do
    p="${f#/proc/}"; p="${p%/environ}"
    [ "$p" = "$$" ] && continue
    comm="$(cat "/proc/$p/comm" 2>/dev/null)" || continue
    case "$comm" in
      munged|slurmctld|slurmd|slurmstepd|slurmscriptd) ;;
      *) grep -qz '^SLURM_JOB_ID=' "$f" 2>/dev/null || continue ;;
    esac
    case "$(cat "/proc/$p/stat" 2>/dev/null)" in *") Z "*|*") X "*|"") continue ;; esac
    echo "$p $comm"
  done
}
running() { [ -r "/proc/$1/stat" ] && case "$(cat "/proc/$1/stat" 2>/dev/null)" in *") Z "*|*") X "*|"") false ;; *) true ;; esac; }

stopped=0
cleanup() {
  local rc=$?
  if [ "$stopped" = 0 ]; then "$lc" stop --state-dir "$state" >/dev/null 2>&1 || true; fi
  if [ "$rc" != 0 ]; then
    for f in "$state"/slurmctld.log "$state"/slurmd.log "$state"/munged.log; do
      [ -s "$f" ] && { echo "--- last lines of $f:" >&2; tail -n 10 "$f" >&2; }
    done
    keep=1
  fi
  if [ "$keep" = 1 ]; then echo "selftest: state directory kept: $state" >&2; else rm -rf "$state"; fi
  exit "$rc"
}
trap cleanup EXIT

# 1. start (and start again: nothing to do)
t0=$SECONDS
env_line="$("$lc" start --state-dir "$state" --port "$port")" || fail "local-cluster.sh start failed"
[ "$env_line" = "export SLURM_CONF=$conf" ] || fail "start printed '$env_line', not 'export SLURM_CONF=$conf'"
[ "$(cat "$state/env.sh")" = "export SLURM_CONF=$conf" ] || fail "$state/env.sh does not hold the environment"
note "cluster up in $((SECONDS - t0)) s (state $state, ports $port/$((port + 1)))"
"$lc" start --state-dir "$state" --port "$port" >/dev/null 2>&1 || fail "second start (already up) failed"
"$lc" status --state-dir "$state" >/dev/null 2>&1 || fail "status says down right after start"
eval "$env_line"
daemon_pids="$(cat "$state/munged.pid" "$state/slurmctld.pid" "$state/slurmd.pid" | tr '\n' ' ')"
[ "$(sinfo -h -o '%P %t %D')" = "debug* idle 1" ] || fail "sinfo: '$(sinfo -h -o '%P %t %D')', expected 'debug* idle 1'"

# 2. an array of four tasks, at most two at a time; task 2 fails with exit 1
cat >"$out/task.sh" <<EOF
#!/bin/bash
echo "task \$SLURM_ARRAY_TASK_ID of array \$SLURM_ARRAY_JOB_ID (job \$SLURM_JOB_ID) on \$(hostname -s)" >"$out/done-\$SLURM_ARRAY_TASK_ID.txt"
sleep 1
[ "\$SLURM_ARRAY_TASK_ID" = 2 ] && exit 1
exit 0
EOF
chmod +x "$out/task.sh"
t0=$SECONDS
id="$(sbatch --parsable --array=0-3%2 --output="$out/%A_%a.out" "$out/task.sh")" || fail "sbatch refused the array"
id="${id%%;*}"
case "$id" in ''|*[!0-9]*) fail "sbatch --parsable printed '$id', not a job id" ;; esac
note "submitted array job $id"
deadline=$((SECONDS + 60))
while :; do
  q="$(squeue -j "$id" -h)" || fail "squeue -j $id -h failed"
  [ -z "$q" ] && break
  [ "$SECONDS" -lt "$deadline" ] || { echo "$q" >&2; scancel "$id" || true; fail "array job $id still queued after 60 s"; }
  sleep 0.5
done
note "array finished in $((SECONDS - t0)) s"

for t in 0 1 2 3; do
  grep -q "^task $t of array $id " "$out/done-$t.txt" 2>/dev/null || fail "task $t did not write $out/done-$t.txt"
  [ -f "$out/${id}_$t.out" ] || fail "no output file $out/${id}_$t.out (--output=%A_%a.out)"
done

# 3. per-task state and exit code: sacct when it answers, else the controller's record
declare -A got
if acct="$(sacct -j "$id" --format=JobID,State,ExitCode -P -n 2>/dev/null)" && [ -n "$acct" ]; then
  note "sacct answers:"; echo "$acct"
  while IFS='|' read -r jid st ec; do
    case "$jid" in "${id}_"[0-9]*) case "$jid" in *.*) ;; *) got[${jid#"${id}_"}]="$st $ec" ;; esac ;; esac
  done <<<"$acct"
else
  note "sacct has no data ($(sacct -j "$id" -n 2>&1 | head -n1)); using scontrol show job -o $id"
  acct="$(scontrol show job -o "$id")" || fail "scontrol show job -o $id failed"
  while read -r line; do
    task="$(grep -oE ' ArrayTaskId=[^ ]+' <<<" $line" | cut -d= -f2)"
    st="$(grep -oE ' JobState=[^ ]+' <<<" $line" | cut -d= -f2)"
    ec="$(grep -oE ' ExitCode=[^ ]+' <<<" $line" | cut -d= -f2)"
    note "  task $task: JobState=$st ExitCode=$ec"
    [ -n "$task" ] && got[$task]="$st $ec"
  done <<<"$acct"
fi
[ "${#got[@]}" = 4 ] || fail "expected states of 4 tasks, got ${#got[@]}: ${!got[*]}"
for t in 0 1 3; do
  [ "${got[$t]:-}" = "COMPLETED 0:0" ] || fail "task $t: '${got[$t]:-none}', expected 'COMPLETED 0:0'"
done
[ "${got[2]:-}" = "FAILED 1:0" ] || fail "task 2: '${got[2]:-none}', expected 'FAILED 1:0'"

# 4. stop (and stop again), then nothing of the cluster may run
t0=$SECONDS
"$lc" stop --state-dir "$state" || fail "local-cluster.sh stop failed"
stopped=1
note "stopped in $((SECONDS - t0)) s"
"$lc" stop --state-dir "$state" >/dev/null 2>&1 || fail "second stop (already down) failed"
set +e
"$lc" status --state-dir "$state" >/dev/null 2>&1
rc=$?
set -e
[ "$rc" = 3 ] || fail "status after stop exited $rc, expected 3 (down)"
for p in $daemon_pids; do
  running "$p" && fail "daemon pid $p ($(cat "/proc/$p/comm" 2>/dev/null)) still runs after stop"
done
left="$(cluster_pids)"
[ -z "$left" ] || fail "processes of the cluster still run after stop: $left"
for f in "$state"/*.pid; do [ -e "$f" ] && fail "pid file $f left after stop"; done

note "PASS in $((SECONDS - t_begin)) s"
