#!/usr/bin/env bash
# What the terminal features cost: the same 40,000 results against the lab, each result's line
# on standard output (to a file), run with `--progress never`, with `--progress always` (the
# line drawn on standard error, to a file, 8 times a second; result lines held and written
# between two draws) and with `--curl FILE` (a curl line per result, streamed to a spool and
# written in plan order at the end), in turn, ROUNDS times (default 5); the medians side by
# side, each against the `--progress never` run of the same rounds. Target: at most 2% more
# wall time each.
# Usage: bench/terminal.sh BIN_DIR  (release binaries of runner and runner-lab)
set -euo pipefail
bin=${1:?bin dir}
work=.bench/terminal
scenarios=${TERMINAL_SCENARIOS:-20000}   # two IPs each: 40,000 results
instr_n1=${INSTR_N1:-200}
instr_n2=${INSTR_N2:-1000}
rounds=${ROUNDS:-5}
jobs=${TERMINAL_JOBS:-32}
http_port=${BENCH_HTTP_PORT:-19080}
https_port=${BENCH_HTTPS_PORT:-19443}
mkdir -p "$work"

source "$(dirname "$0")/lab.sh"
source "$(dirname "$0")/measure.sh"
measure_tools
start_lab "$bin" terminal

# Every result one hop over keep-alive HTTP with a header and a body, so each curl line has
# something to quote; one scenario in ten fails its status check.
plan() { # FILE SCENARIOS
awk -v n="$2" -v http="$http_port" 'BEGIN {
  print "version: 1"
  print "name: terminal"
  print "defaults: {domains: lab, timeout: 10s, headers: {X-Probe: terminal}}"
  print "domains:"
  print "  lab:"
  print "    static:"
  print "      api.lab.test: [127.0.0.2, 127.0.0.5]"
  print "scenarios:"
  for (i = 0; i < n; i++) {
    printf "  - name: s%d\n", i
    print "    strategy: header-only"
    print "    ips: all"
    printf "    request: {url: \"http://api.lab.test:%s/echo?n=%d\", method: POST, body: \"{\\\"n\\\": %d}\"}\n", http, i, i
    if (i % 10 == 0) print "    expect: {status: 201}"
  }
}' > "$1"
}
plan "$work/plan.yaml" "$scenarios"
plan "$work/plan-n1.yaml" "$instr_n1"
plan "$work/plan-n2.yaml" "$instr_n2"
slow_limits "$work/plan-n1.yaml" "$work/plan-n2.yaml"

# One run: wall seconds and CPU seconds (user + sys) on one line.
# Sets wall and cpu.
measure() {
  local label=$1; shift
  read -r wall cpu _ < <(timed "$work/run.$label" "$bin/runner" --jobs "$jobs" --color never "$@" "$work/plan.yaml")
  mv "$work/run.$label.out" "$work/out.$label"; mv "$work/run.$label.err" "$work/err.$label"
  tail -n 1 "$work/out.$label" | grep -q "passed" || { echo "terminal: the $label run printed no summary"; cat "$work/err.$label"; exit 1; }
}
# The marginal instructions of INSTR_N2 - INSTR_N1 scenarios; sets counted.
count() { marginal "$1" "$work/plan-n1.yaml" "$work/plan-n2.yaml" --jobs "$jobs" --color never "${@:2}"; }

plain_walls=(); plain_cpu=(); progress_walls=(); progress_cpu=(); curl_walls=(); curl_cpu=()
for round in $(seq 1 "$rounds"); do
  measure plain --progress never
  plain_walls+=("$wall"); plain_cpu+=("$cpu")
  measure progress --progress always
  progress_walls+=("$wall"); progress_cpu+=("$cpu")
  measure curl --progress never --curl "$work/replay.sh"
  curl_walls+=("$wall"); curl_cpu+=("$cpu")
done
results=$((scenarios * 2))
lines=$(grep -c '^curl ' "$work/replay.sh")
[ "$lines" = "$results" ] || { echo "terminal: the curl file has $lines lines, expected $results"; exit 1; }
draws=$(tr '\r' '\n' < "$work/err.progress" | grep -c "^$(printf '\033')\[2K\[" || true)
[ "$draws" -ge 1 ] || { echo "terminal: --progress always drew no line"; exit 1; }
# The result lines are the same either way (durations aside).
strip() { sed -E 's/[0-9.]+ (ms|s)\b/T/g' "$1" | sort; }
cmp -s <(strip "$work/out.plain") <(strip "$work/out.progress") || { echo "terminal: standard output differs with --progress always"; exit 1; }

plain_instr=""; progress_instr=""; curl_instr=""
if command -v valgrind > /dev/null && command -v objcopy > /dev/null; then
  stripped_runner "$bin"
  count plain --progress never; plain_instr=$counted
  count progress --progress always; progress_instr=$counted
  count curl --progress never --curl "$work/replay-instr.sh"; curl_instr=$counted
fi

echo
echo "terminal: $results results ($scenarios scenarios x 2 IPs) at --jobs $jobs, result lines to a file, median of $rounds runs each"
echo "  walls with --progress never: ${plain_walls[*]} s; always: ${progress_walls[*]} s; --curl: ${curl_walls[*]} s"
[ -n "$plain_instr" ] && echo "  instructions: the marginal cost of $(((instr_n2 - instr_n1) * 2)) results (callgrind, $((instr_n1 * 2)) and $((instr_n2 * 2)))" \
  || echo "  (valgrind or objcopy missing: the verdict is on CPU time)"
printf '  %-40s %12s %12s %12s  %s\n' "figure" "without" "with" "target" "verdict"
all_ok=1
compare() { # NAME WALLS CPUS INSTRUCTIONS: against --progress never
  echo "  $1"
  judged 1.02 "$plain_instr|${plain_cpu[*]}|${plain_walls[*]}" "$4|$3|$2" || all_ok=0
}
compare "--progress always ($draws draws)" "${progress_walls[*]}" "${progress_cpu[*]}" "$progress_instr"
compare "--curl ($(awk -v b="$(stat -c %s "$work/replay.sh")" 'BEGIN { printf "%.1f MiB", b / 1048576 }'))" "${curl_walls[*]}" "${curl_cpu[*]}" "$curl_instr"
[ "$all_ok" = 1 ]
