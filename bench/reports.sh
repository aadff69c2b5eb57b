#!/usr/bin/env bash
# What reports cost: the same 40,000 results against the lab run without reports, with
# `--junit --json`, with `--metrics`, and with `--html`, in turn, ROUNDS times (default 3); the
# medians side by side, each against the run without reports of the same rounds. Two cases, one
# after the other: header-only over plain HTTP (the cheapest result, where the reports weigh
# most), then sni-resolve over HTTPS (each result with its TLS evidence: certificate, chain,
# version, cipher; kept-alive connections), as most plans run. JUnit and JSON
# are streamed (rendered as results finish, spooled beside the report file, written in plan
# order at the end), so they should add little wall time and no memory that grows with the
# results. Metrics keep a hundred-odd bytes per result in memory (the samples, not the result)
# and write some 17 series per result at the end. The HTML page is streamed as JUnit and JSON
# are (two spools: each result's matrix cell and its evidence), laid out a scenario at a time
# at the end.
# Usage: bench/reports.sh BIN_DIR  (release binaries of runner and runner-lab)
#   REPORT_CASES="header-only sni-resolve" (either alone to run one case)
set -euo pipefail
bin=${1:?bin dir}
work=.bench/reports
scenarios=${REPORT_SCENARIOS:-20000}   # two IPs each: 40,000 results
rounds=${ROUNDS:-3}
jobs=${REPORT_JOBS:-32}
cases=${REPORT_CASES:-header-only sni-resolve}
http_port=${BENCH_HTTP_PORT:-19080}
https_port=${BENCH_HTTPS_PORT:-19443}
mkdir -p "$work"

source "$(dirname "$0")/lab.sh"
start_lab "$bin" reports

# Every result one hop over a kept-alive connection to one of two IPs; one scenario in ten fails
# its status check, so the reports carry failures too. header-only: plain HTTP; sni-resolve:
# HTTPS with the lab's CA (127.0.0.5 serves HTTP/1.1 only, 127.0.0.2 HTTP/2 too).
plan() { # FILE STRATEGY
  local scheme=http port=$http_port
  [ "$2" = header-only ] || { scheme=https; port=$https_port; }
  awk -v n="$scenarios" -v url="$scheme://api.lab.test:$port" -v strategy="$2" -v ca="$PWD/$work/lab/ca.pem" 'BEGIN {
    print "version: 1"
    print "name: reports"
    if (strategy == "header-only") print "defaults: {domains: lab, timeout: 10s}"
    else printf "defaults: {domains: lab, timeout: 10s, ca: \"%s\"}\n", ca
    print "domains:"
    print "  lab:"
    print "    static:"
    print "      api.lab.test: [127.0.0.2, 127.0.0.5]"
    print "scenarios:"
    for (i = 0; i < n; i++) {
      printf "  - name: s%d\n", i
      print "    strategy: " strategy
      print "    ips: all"
      printf "    request: {url: \"%s/echo?n=%d\"}\n", url, i
      if (i % 10 == 0) print "    expect: {status: 201}"
    }
  }' > "$1"
}

# One run: wall seconds, peak RSS in KiB and CPU seconds (user + sys) on one line.
measure() {
  local label=$1; shift
  /usr/bin/time -f "%e %M %U %S" -o "$work/time.$label" "$bin/runner" -q --jobs "$jobs" "$@" "$work/plan.yaml" \
    > "$work/out.$label" 2> "$work/err.$label" || true
  tail -n 1 "$work/out.$label" | grep -q "passed" || { echo "reports: the $label run printed no summary"; cat "$work/err.$label"; exit 1; }
  tail -n 1 "$work/time.$label" | awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }'
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
verdict() { if [ "$1" = 1 ]; then echo PASS; else echo MISS; fi; }
all_ok=1
binding=1 # whether a MISS fails the bench (the case's targets are met, not work in progress)
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
  [ "$wall_ok" = 1 ] && [ "$rss_ok" = 1 ] || [ "$binding" = 0 ] || all_ok=0
}

# One case (a strategy): its plan, ROUNDS rounds of the four arms, the checks, the figures.
run_case() {
  local strategy=$1 label
  case $strategy in
    header-only) label="header-only, plain HTTP"; binding=1 ;;
    # Its reports are ~1.6x the size (the TLS evidence) and cost ~160k instructions a result
    # (bench/instructions.sh): issue 32's work in progress, so its MISSes do not fail the bench.
    sni-resolve) label="sni-resolve, HTTPS with TLS evidence"; binding=0 ;;
    *) echo "reports: unknown case $strategy (header-only or sni-resolve)"; exit 2 ;;
  esac
  plan "$work/plan.yaml" "$strategy"
  local plain_walls=() plain_rss=() plain_cpu=() report_walls=() report_rss=() report_cpu=()
  local metrics_walls=() metrics_rss=() metrics_cpu=() html_walls=() html_rss=() html_cpu=()
  local round wall rss cpu
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
  local results series pages
  results=$(grep -c '<testcase ' "$work/junit.xml")
  [ "$results" = $((scenarios * 2)) ] || { echo "reports: the JUnit report has $results test cases, expected $((scenarios * 2))"; exit 1; }
  # The runs passed what they should: nine scenarios in ten, on both IPs.
  local failing=$(((scenarios + 9) / 10 * 2))
  grep -q "^$((scenarios * 2 - failing)) passed, $failing failed, 0 errors$" "$work/out.plain" \
    || { echo "reports: $strategy: unexpected summary:"; tail -n 2 "$work/out.plain"; exit 1; }
  if [ "$strategy" = sni-resolve ]; then
    local tls
    tls=$({ grep -Eo '"cipher":"TLS_' "$work/report.json" || true; } | wc -l)
    [ "$tls" = "$results" ] || { echo "reports: $tls of $results results carry TLS evidence in the JSON report"; exit 1; }
  fi
  series=$(grep -c '^runner_result{' "$work/runner.prom")
  [ "$series" = $((scenarios * 2 * 4)) ] || { echo "reports: the metrics have $series runner_result series, expected $((scenarios * 2 * 4))"; exit 1; }
  pages=$(grep -c '<details class="result ' "$work/report.html")
  [ "$pages" = $((scenarios * 2)) ] || { echo "reports: the HTML report has $pages results, expected $((scenarios * 2))"; exit 1; }
  ls "$work" | grep -q '\.tmp$' && { echo "reports: a spool or temporary file was left behind"; ls -a "$work"; exit 1; }

  pw=$(median "${plain_walls[@]}"); pr=$(median "${plain_rss[@]}"); pc=$(median "${plain_cpu[@]}")
  echo
  echo "reports: $label: $results results ($scenarios scenarios x 2 IPs) at --jobs $jobs, median of $rounds runs each"
  echo "  walls without reports: ${plain_walls[*]} s; with --junit --json: ${report_walls[*]} s; with --metrics: ${metrics_walls[*]} s;"
  echo "  with --html: ${html_walls[*]} s"
  printf '  %-40s %12s %12s %12s  %s\n' "figure" "without" "with" "target" "verdict"
  [ "$binding" = 1 ] || echo "  (targets not yet met here, issue 32: a MISS in this case does not fail the bench)"
  compare "--junit --json" "${report_walls[*]}" "${report_rss[*]}" "${report_cpu[*]}"
  compare "--metrics" "${metrics_walls[*]}" "${metrics_rss[*]}" "${metrics_cpu[*]}"
  compare "--html" "${html_walls[*]}" "${html_rss[*]}" "${html_cpu[*]}"
  printf '  %-40s %12s\n' "JUnit / JSON / metrics / HTML size (MiB)" \
    "$(awk -v a="$(stat -c %s "$work/junit.xml")" -v b="$(stat -c %s "$work/report.json")" -v c="$(stat -c %s "$work/runner.prom")" \
      -v d="$(stat -c %s "$work/report.html")" 'BEGIN { printf "%.1f / %.1f / %.1f / %.1f", a / 1048576, b / 1048576, c / 1048576, d / 1048576 }')"
}
for strategy in $cases; do run_case "$strategy"; done
[ "$all_ok" = 1 ]
