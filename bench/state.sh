#!/usr/bin/env bash
# What the state file (--state, issue 34) costs a run at scale: 1,000 hosts × 30 client
# populations × 10 addresses, 300,000 rows. bench/StateBench fills a file with a first run, then
# times ROUNDS runs (default 5) as the engine makes them: each map's answers read once, every
# answer compared and queued, the writer's thread waited for; 1 answer in 100 changes each round.
# The target: the median run under 0.2 s of CPU time, user + system, every thread (exit 1 over
# it); its wall time is printed beside (issue 47: wall time moves with the machine's load).
# Usage: bench/state.sh BIN_DIR  (a release build holding state-bench)
set -euo pipefail
bin=${1:?bin dir}
work=.bench/state
mkdir -p "$work"
"$bin/state-bench" "$work/state.db" "${ROUNDS:-5}"
