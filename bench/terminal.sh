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
rounds=${ROUNDS:-5}
jobs=${TERMINAL_JOBS:-32}
http_port=${BENCH_HTTP_PORT:-19080}
https_port=${BENCH_HTTPS_PORT:-19443}
mkdir -p "$work"

source "$(dirname "$0")/lab.sh"
start_lab "$bin" terminal

# Every result one hop over keep-alive HTTP with a header and a body, so each curl line has
# something to quote; one scenario in ten fails its status check.
awk -v n="$scenarios" -v http="$http_port" 'BEGIN {
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
}' > "$work/plan.yaml"

# One run: wall seconds and CPU seconds (user + sys) on one line.
measure() {
  local label=$1; shift
  /usr/bin/time -f "%e %U %S" -o "$work/time.$label" "$bin/runner" --jobs "$jobs" --color never "$@" "$work/plan.yaml" \
    > "$work/out.$label" 2> "$work/err.$label" || true
  tail -n 1 "$work/out.$label" | grep -q "passed" || { echo "terminal: the $label run printed no summary"; cat "$work/err.$label"; exit 1; }
  tail -n 1 "$work/time.$label" | awk '{ printf "%s %.2f\n", $1, $2 + $3 }'
}

plain_walls=(); plain_cpu=(); progress_walls=(); progress_cpu=(); curl_walls=(); curl_cpu=()
for round in $(seq 1 "$rounds"); do
  read -r wall cpu < <(measure plain --progress never)
  plain_walls+=("$wall"); plain_cpu+=("$cpu")
  read -r wall cpu < <(measure progress --progress always)
  progress_walls+=("$wall"); progress_cpu+=("$cpu")
  read -r wall cpu < <(measure curl --progress never --curl "$work/replay.sh")
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

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
verdict() { if [ "$1" = 1 ]; then echo PASS; else echo MISS; fi; }
pw=$(median "${plain_walls[@]}"); pc=$(median "${plain_cpu[@]}")
echo
echo "terminal: $results results ($scenarios scenarios x 2 IPs) at --jobs $jobs, result lines to a file, median of $rounds runs each"
echo "  walls with --progress never: ${plain_walls[*]} s; always: ${progress_walls[*]} s; --curl: ${curl_walls[*]} s"
printf '  %-40s %12s %12s %12s  %s\n' "figure" "without" "with" "target" "verdict"
all_ok=1
compare() {
  local name=$1 walls=$2 cpus=$3
  local w c ratio ok
  # shellcheck disable=SC2086 # one word per run
  w=$(median $walls); c=$(median $cpus)
  ratio=$(awk -v a="$w" -v b="$pw" 'BEGIN { printf "%.3f", a / b }')
  ok=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.02) ? 1 : 0 }')
  echo "  $name"
  printf '  %-40s %12s %12s %12s  %s\n' "  wall (s), ratio $ratio" "$pw" "$w" "<= 1.02x" "$(verdict "$ok")"
  printf '  %-40s %12s %12s\n' "  CPU, user + sys (s), +$(awk -v a="$c" -v b="$pc" 'BEGIN { printf "%.2f", a - b }')" "$pc" "$c"
  [ "$ok" = 1 ] || all_ok=0
}
compare "--progress always ($draws draws)" "${progress_walls[*]}" "${progress_cpu[*]}"
compare "--curl ($(awk -v b="$(stat -c %s "$work/replay.sh")" 'BEGIN { printf "%.1f MiB", b / 1048576 }'))" "${curl_walls[*]}" "${curl_cpu[*]}"
[ "$all_ok" = 1 ]
