#!/bin/sh
# Smoke run of every committed study (experiments/*.json) on its "smoke" size set, as CI can
# afford: every job must finish with a verified output, and every metric of the study must
# resolve (a value in at least one cell: a statistics path renamed in the model shows here).
# usage: committed_studies_smoke.sh GPUTLM SOURCE_DIR WORKLOADS_DIR TMP_DIR
set -eu
gputlm=$1 src=$2 workloads=$3 tmp=$4
python=${GPUTLM_PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3
found=0
for study in "$src"/experiments/*.json; do
  found=$((found + 1))
  name=$(basename "$study" .json)
  if ! "$python" -c 'import json,sys; sys.exit(0 if "smoke" in json.load(open(sys.argv[1]))["sizes"] else 1)' "$study"; then
    echo "FAIL: $study has no \"smoke\" size set (every committed study needs one for CI)" >&2
    exit 1
  fi
  rm -rf "$tmp/$name"
  "$gputlm" study run "$study" --sizes smoke --workloads "$workloads" --results "$tmp/$name" -j 2
  "$gputlm" study report "$study" --sizes smoke --workloads "$workloads" --results "$tmp/$name" \
    --out "$tmp/$name/report" --no-plots
  "$python" - "$tmp/$name/report/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
bad = [row for row in r["rows"] if row["status"] != "ok"]
assert not bad, f"{len(bad)} cells not ok: {bad[:3]}"
for m in r["metrics"]:
    name = m["name"] if isinstance(m, dict) else m
    assert any(row["value"].get(name) is not None for row in r["rows"]), f"metric {name} has no value in any cell"
print(f"{r['study']}: {len(r['rows'])} cells ok, metrics resolve")
PY
done
[ "$found" -gt 0 ] || { echo "FAIL: no study in $src/experiments" >&2; exit 1; }
