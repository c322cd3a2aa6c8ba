#!/usr/bin/env bash
# README command (a): set up, build, and run the main job.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GPUTLM_BUILD_DIR:-$root/build}"
"$root/tools/build.sh"
cd "$root"
"$build/gputlm" demo --config configs/demo.json --stats "$build/demo_stats.json" "$@"
echo "statistics written to $build/demo_stats.json"
