#!/usr/bin/env bash
# Runs the whole test suite REPEAT times in a row, exactly as `make test` runs it
# (tools/test-suite.sh), with the other core kept busy by a spinning shell, and stops at the
# first failing run. This is how a flake is looked for: `make test-repeat` (REPEAT=20 by default).
#   REPEAT=N        how many runs (default 20)
#   LOAD=0          no busy core
set -uo pipefail
cd "$(dirname "$0")/.."
repeat=${REPEAT:-20}
${SWIFT:-swift} build --build-tests >/dev/null || exit 1
logs=$(mktemp -d "${TMPDIR:-/tmp}/runner-repeat.XXXXXX")
spinner=""
if [ "${LOAD:-1}" != 0 ]; then
  sh -c 'while :; do :; done' &
  spinner=$!
  trap 'kill $spinner 2>/dev/null' EXIT
fi
echo "test-repeat: $repeat runs${spinner:+, one core kept busy (pid $spinner)}; logs in $logs"
total_start=$(date +%s)
for run in $(seq 1 "$repeat"); do
  start=$(date +%s)
  timeout 1200 tools/test-suite.sh >"$logs/run-$run.log" 2>&1
  status=$?
  summary=$(grep -E "Test run with [0-9]+ tests" "$logs/run-$run.log" | paste -sd ";")
  echo "run $run: exit $status in $(( $(date +%s) - start )) s — ${summary:-no summary}"
  if [ $status -ne 0 ]; then
    sed -n '/^test: the suite failed/,$p' "$logs/run-$run.log" | head -30
    echo "test-repeat: run $run failed after $(( $(date +%s) - total_start )) s; log: $logs/run-$run.log"
    exit 1
  fi
done
echo "test-repeat: $repeat of $repeat runs passed in $(( $(date +%s) - total_start )) s"
