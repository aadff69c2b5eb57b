#!/usr/bin/env bash
# What reports cost: the same 40,000 results against the lab run without reports, with
# `--junit --json`, with `--metrics`, and with `--html`, in turn, ROUNDS times (default 3); the
# medians side by side, each against the run without reports of the same rounds. JUnit and JSON
# are streamed (rendered as results finish, spooled beside the report file, written in plan
# order at the end), so they should add little wall time and no memory that grows with the
# results. Metrics keep a hundred-odd bytes per result in memory (the samples, not the result)
# and write some 17 series per result at the end. The HTML page is streamed as JUnit and JSON
# are (two spools: each result's matrix cell and its evidence), laid out a scenario at a time
# at the end.
# Usage: bench/reports.sh BIN_DIR  (release binaries of runner and runner-lab)
set -euo pipefail
bin=${1:?bin dir}
work=.bench/reports
scenarios=${REPORT_SCENARIOS:-20000}   # two IPs each: 40,000 results
rounds=${ROUNDS:-3}
jobs=${REPORT_JOBS:-32}
http_port=${BENCH_HTTP_PORT:-19080}
https_port=${BENCH_HTTPS_PORT:-19443}
mkdir -p "$work"

source "$(dirname "$0")/lab.sh"
start_lab "$bin" reports

# Every result one hop over keep-alive HTTP; one scenario in ten fails its status check, so
# the reports carry failures too.
awk -v n="$scenarios" -v http="$http_port" 'BEGIN {
  print "version: 1"
  print "name: reports"
  print "defaults: {domains: lab, timeout: 10s}"
  print "domains:"
  print "  lab:"
  print "    static:"
  print "      api.lab.test: [127.0.0.2, 127.0.0.5]"
  print "scenarios:"
  for (i = 0; i < n; i++) {
    printf "  - name: s%d\n", i
    print "    strategy: header-only"
    print "    ips: all"
    printf "    request: {url: \"http://api.lab.test:%s/echo?n=%d\"}\n", http, i
    if (i % 10 == 0) print "    expect: {status: 201}"
  }
}' > "$work/plan.yaml"

# One run: wall seconds, peak RSS in KiB and CPU seconds (user + sys) on one line.
measure() {
  local label=$1; shift
  /usr/bin/time -f "%e %M %U %S" -o "$work/time.$label" "$bin/runner" -q --jobs "$jobs" "$@" "$work/plan.yaml" \
    > "$work/out.$label" 2> "$work/err.$label" || true
  tail -n 1 "$work/out.$label" | grep -q "passed" || { echo "reports: the $label run printed no summary"; cat "$work/err.$label"; exit 1; }
  tail -n 1 "$work/time.$label" | awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }'
}

plain_walls=(); plain_rss=(); plain_cpu=(); report_walls=(); report_rss=(); report_cpu=()
metrics_walls=(); metrics_rss=(); metrics_cpu=(); html_walls=(); html_rss=(); html_cpu=()
for round in $(seq 1 "$rounds"); do
  read -r wall rss cpu < <(measure plain)
  plain_walls+=("$wall"); plain_rss+=("$rss"); plain_cpu+=("$cpu")
  read -r wall rss cpu < <(measure reports --junit "$work/junit.xml" --json "$work/report.json")
  report_walls+=("$wall"); report_rss+=("$rss"); report_cpu+=("$cpu")
  read -r wall rss cpu < <(measure metrics --metrics "$work/runner.prom")
  metrics_walls+=("$wall"); metrics_rss+=("$rss"); metrics_cpu+=("$cpu")
  read -r wall rss cpu < <(measure html --html "$work/report.html")
  html_walls+=("$wall"); html_rss+=("$rss"); html_cpu+=("$cpu")
done
results=$(grep -c '<testcase ' "$work/junit.xml")
[ "$results" = $((scenarios * 2)) ] || { echo "reports: the JUnit report has $results test cases, expected $((scenarios * 2))"; exit 1; }
series=$(grep -c '^runner_result{' "$work/runner.prom")
[ "$series" = $((scenarios * 2 * 4)) ] || { echo "reports: the metrics have $series runner_result series, expected $((scenarios * 2 * 4))"; exit 1; }
pages=$(grep -c '<details class="result ' "$work/report.html")
[ "$pages" = $((scenarios * 2)) ] || { echo "reports: the HTML report has $pages results, expected $((scenarios * 2))"; exit 1; }
ls "$work" | grep -q '\.tmp$' && { echo "reports: a spool or temporary file was left behind"; ls -a "$work"; exit 1; }

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
verdict() { if [ "$1" = 1 ]; then echo PASS; else echo MISS; fi; }
pw=$(median "${plain_walls[@]}"); pr=$(median "${plain_rss[@]}"); pc=$(median "${plain_cpu[@]}")
echo
echo "reports: $results results ($scenarios scenarios x 2 IPs) at --jobs $jobs, median of $rounds runs each"
echo "  walls without reports: ${plain_walls[*]} s; with --junit --json: ${report_walls[*]} s; with --metrics: ${metrics_walls[*]} s;"
echo "  with --html: ${html_walls[*]} s"
printf '  %-40s %12s %12s %12s  %s\n' "figure" "without" "with" "target" "verdict"
all_ok=1
# One arm against the run without reports: wall and peak RSS with their targets, CPU.
compare() {
  local name=$1 walls=$2 rsses=$3 cpus=$4
  local w r c ratio extra wall_ok rss_ok
  # shellcheck disable=SC2086 # one word per run
  w=$(median $walls); r=$(median $rsses); c=$(median $cpus)
  ratio=$(awk -v a="$w" -v b="$pw" 'BEGIN { printf "%.3f", a / b }')
  extra=$(awk -v a="$r" -v b="$pr" 'BEGIN { printf "%.1f", (a - b) / 1024 }')
  wall_ok=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.05) ? 1 : 0 }')
  rss_ok=$(awk -v e="$extra" 'BEGIN { print (e <= 20) ? 1 : 0 }')
  echo "  $name"
  printf '  %-40s %12s %12s %12s  %s\n' "  wall (s), ratio $ratio" "$pw" "$w" "<= 1.05x" "$(verdict "$wall_ok")"
  printf '  %-40s %12s %12s %12s  %s\n' "  peak RSS (MiB), +$extra" "$(mib "$pr")" "$(mib "$r")" "<= +20" "$(verdict "$rss_ok")"
  # CPU moves less with the host than wall time does: what the reports cost, whoever waits for it.
  printf '  %-40s %12s %12s\n' "  CPU, user + sys (s), +$(awk -v a="$c" -v b="$pc" 'BEGIN { printf "%.2f", a - b }')" "$pc" "$c"
  [ "$wall_ok" = 1 ] && [ "$rss_ok" = 1 ] || all_ok=0
}
compare "--junit --json" "${report_walls[*]}" "${report_rss[*]}" "${report_cpu[*]}"
compare "--metrics" "${metrics_walls[*]}" "${metrics_rss[*]}" "${metrics_cpu[*]}"
compare "--html" "${html_walls[*]}" "${html_rss[*]}" "${html_cpu[*]}"
printf '  %-40s %12s\n' "JUnit / JSON / metrics / HTML size (MiB)" \
  "$(awk -v a="$(stat -c %s "$work/junit.xml")" -v b="$(stat -c %s "$work/report.json")" -v c="$(stat -c %s "$work/runner.prom")" \
    -v d="$(stat -c %s "$work/report.html")" 'BEGIN { printf "%.1f / %.1f / %.1f / %.1f", a / 1048576, b / 1048576, c / 1048576, d / 1048576 }')"
[ "$all_ok" = 1 ]
