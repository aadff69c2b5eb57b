#!/usr/bin/env bash
# The test suite in parallel, as `make test` runs it. Output streams as usual; when the run
# fails, what failed is printed again at the end, because a CI log is often read from its tail
# and in a parallel run the failing test's lines sit among hundreds of others.
#   extra arguments go to `swift test` (e.g. --filter)
#   TEST_WIDTH=N    at most N tests at once (default: four per core)
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp "${TMPDIR:-/tmp}/runner-test.XXXXXX")
# The tests, their labs and the processes they start write under a folder of the run's own,
# removed at the end, so that neither a passing run nor a crashed one leaves files in /tmp.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/runner-test-scratch.XXXXXX")
trap 'rm -f "$log"; rm -rf "$scratch"' EXIT
# At most TEST_WIDTH tests at once (default: four per core). Swift Testing otherwise starts
# every test of the run at the same instant: on two cores that was ~30 debug-build runner
# processes, the in-process engine runs and the CPU-bound tests all at once, twenty times more
# work than cores, and a request with a limit of a few seconds overran it now and then in the
# first half-minute (one run in a few with the other core busy). Bounded, the same suite takes
# ~20% longer and no test waits on the others. Swift Testing reads the variable; absent, the
# width is unbounded.
cores=$(nproc 2>/dev/null || echo 2)
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${TEST_WIDTH:-$((4 * cores))}
# Two phases. The browser tests start Chromium, whose start-up (a dozen processes) took the CPU
# from the lab's TLS handshakes in other tests of a parallel run often enough to fail one run in
# ten; alone, after the rest, they disturb nothing. With a --filter, one phase as asked.
browser=RunnerCLITests.HTMLReportBrowserTests
if [ $# -gt 0 ]; then
  TMPDIR=$scratch ${SWIFT:-swift} test --parallel "$@" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
else
  TMPDIR=$scratch ${SWIFT:-swift} test --parallel --skip "$browser" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  TMPDIR=$scratch ${SWIFT:-swift} test --skip-build --filter "$browser" 2>&1 | tee -a "$log"
  browser_status=${PIPESTATUS[0]}
  [ "$status" -ne 0 ] || status=$browser_status
fi
if [ "$status" -ne 0 ]; then
  echo
  echo "test: the suite failed (exit $status); what failed, again:"
  # Swift Testing: the issue line and its indented details; a crash: the signal or fatal error.
  grep -E -A6 "^✘ Test .* recorded an issue|Fatal error|exited with unexpected signal|error: " "$log" \
    | grep -v -E "^(◇|✔) " | head -80
fi
exit "$status"
