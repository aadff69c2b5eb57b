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
# at the end. What they cost is counted in instructions (callgrind: the marginal cost between
# plans of INSTR_N1 and INSTR_N2 scenarios, default 200 and 1,000, the steady figure;
# bench/measure.sh), per result
# over the run without reports; `--junit --json` has issue 47's target, <= +30k a result, not
# yet binding (a MISS is printed, it does not fail the bench); peak RSS <= +20 MiB is binding.
# CPU time and wall time are printed beside (wall time moves with the shared machine's load).
# Usage: bench/reports.sh BIN_DIR  (release binaries of runner and runner-lab)
#   REPORT_CASES="header-only sni-resolve" (either alone to run one case)
set -euo pipefail
bin=${1:?bin dir}
work=.bench/reports
scenarios=${REPORT_SCENARIOS:-20000}   # two IPs each: 40,000 results
instr_n1=${INSTR_N1:-200}
instr_n2=${INSTR_N2:-1000}
rounds=${ROUNDS:-3}
jobs=${REPORT_JOBS:-32}
cases=${REPORT_CASES:-header-only sni-resolve}
http_port=${BENCH_HTTP_PORT:-19080}
https_port=${BENCH_HTTPS_PORT:-19443}
mkdir -p "$work"

source "$(dirname "$0")/lab.sh"
source "$(dirname "$0")/measure.sh"
measure_tools
start_lab "$bin" reports

# Every result one hop over a kept-alive connection to one of two IPs; one scenario in ten fails
# its status check, so the reports carry failures too. header-only: plain HTTP; sni-resolve:
# HTTPS with the lab's CA (127.0.0.5 serves HTTP/1.1 only, 127.0.0.2 HTTP/2 too).
plan() { # FILE STRATEGY [SCENARIOS]
  local scheme=http port=$http_port
  [ "$2" = header-only ] || { scheme=https; port=$https_port; }
  awk -v n="${3:-$scenarios}" -v url="$scheme://api.lab.test:$port" -v strategy="$2" -v ca="$PWD/$work/lab/ca.pem" 'BEGIN {
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
  local label=$1 wall cpu rss; shift
  read -r wall cpu rss < <(timed "$work/run.$label" "$bin/runner" -q --jobs "$jobs" "$@" "$work/plan.yaml")
  mv "$work/run.$label.out" "$work/out.$label"; mv "$work/run.$label.err" "$work/err.$label"
  tail -n 1 "$work/out.$label" | grep -q "passed" || { echo "reports: the $label run printed no summary"; cat "$work/err.$label"; exit 1; }
  echo "$wall $rss $cpu"
}
# The marginal instructions of INSTR_N2 - INSTR_N1 scenarios; sets counted.
count() { marginal "$1" "$work/plan-n1.yaml" "$work/plan-n2.yaml" -q --jobs "$jobs" "${@:2}"; }

mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
all_ok=1
# One arm against the run without reports: its instructions a result (a target for --junit
# --json, not binding yet), peak RSS with its target (binding), CPU and wall beside.
compare() {
  local name=$1 walls=$2 rsses=$3 cpus=$4 counted=$5 target=${6:-}
  local w r c extra rss_ok row='  %-40s %12s %12s %12s  %s\n'
  # shellcheck disable=SC2086 # one word per run
  w=$(median $walls); r=$(median $rsses); c=$(median $cpus)
  extra=$(awk -v a="$r" -v b="$pr" 'BEGIN { printf "%.1f", (a - b) / 1024 }')
  rss_ok=$(within "$extra" 20)
  echo "  $name"
  if [ -n "$counted" ]; then
    local per_result
    per_result=$(awk -v a="$counted" -v b="$plain_instr" -v n="$(((instr_n2 - instr_n1) * 2))" 'BEGIN { printf "%.1f", (a - b) / n / 1000 }')
    if [ -n "$target" ]; then
      printf "$row" "  instructions a result (k), +$per_result" "" "" "<= +${target}k" "$(verdict "$(within "$per_result" "$target")") (not binding)"
    else
      printf "$row" "  instructions a result (k), +$per_result" "" "" "" ""
    fi
  fi
  printf "$row" "  peak RSS (MiB), +$extra" "$(mib "$pr")" "$(mib "$r")" "<= +20" "$(verdict "$rss_ok")"
  printf "$row" "  CPU, user + sys (s), ratio $(ratio "$c" "$pc")" "$pc" "$c" "" ""
  printf "$row" "  wall (s), ratio $(ratio "$w" "$pw")" "$pw" "$w" "" ""
  [ "$rss_ok" = 1 ] || all_ok=0
}

# One case (a strategy): its plan, ROUNDS rounds of the four arms, the checks, the figures.
run_case() {
  local strategy=$1 label
  case $strategy in
    header-only) label="header-only, plain HTTP" ;;
    sni-resolve) label="sni-resolve, HTTPS with TLS evidence" ;;
    *) echo "reports: unknown case $strategy (header-only or sni-resolve)"; exit 2 ;;
  esac
  plan "$work/plan.yaml" "$strategy"
  plan "$work/plan-n1.yaml" "$strategy" "$instr_n1"
  plan "$work/plan-n2.yaml" "$strategy" "$instr_n2"
  slow_limits "$work/plan-n1.yaml" "$work/plan-n2.yaml"
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
  plain_instr=""; local report_instr="" metrics_instr="" html_instr=""
  if command -v valgrind > /dev/null && command -v objcopy > /dev/null; then
    stripped_runner "$bin"
    count plain; plain_instr=$counted
    count reports --junit "$work/instr-junit.xml" --json "$work/instr-report.json"; report_instr=$counted
    count metrics --metrics "$work/instr-runner.prom"; metrics_instr=$counted
    count html --html "$work/instr-report.html"; html_instr=$counted
  fi

  pw=$(median "${plain_walls[@]}"); pr=$(median "${plain_rss[@]}"); pc=$(median "${plain_cpu[@]}")
  echo
  echo "reports: $label: $results results ($scenarios scenarios x 2 IPs) at --jobs $jobs, median of $rounds runs each"
  echo "  walls without reports: ${plain_walls[*]} s; with --junit --json: ${report_walls[*]} s; with --metrics: ${metrics_walls[*]} s;"
  echo "  with --html: ${html_walls[*]} s"
  [ -n "$plain_instr" ] && echo "  instructions: the marginal cost of $(((instr_n2 - instr_n1) * 2)) results (callgrind, $((instr_n1 * 2)) and $((instr_n2 * 2))), over the run without reports" \
    || echo "  (valgrind or objcopy missing: no instructions)"
  printf '  %-40s %12s %12s %12s  %s\n' "figure" "without" "with" "target" "verdict"
  compare "--junit --json" "${report_walls[*]}" "${report_rss[*]}" "${report_cpu[*]}" "$report_instr" 30
  compare "--metrics" "${metrics_walls[*]}" "${metrics_rss[*]}" "${metrics_cpu[*]}" "$metrics_instr"
  compare "--html" "${html_walls[*]}" "${html_rss[*]}" "${html_cpu[*]}" "$html_instr"
  printf '  %-40s %12s\n' "JUnit / JSON / metrics / HTML size (MiB)" \
    "$(awk -v a="$(stat -c %s "$work/junit.xml")" -v b="$(stat -c %s "$work/report.json")" -v c="$(stat -c %s "$work/runner.prom")" \
      -v d="$(stat -c %s "$work/report.html")" 'BEGIN { printf "%.1f / %.1f / %.1f / %.1f", a / 1048576, b / 1048576, c / 1048576, d / 1048576 }')"
}
for strategy in $cases; do run_case "$strategy"; done
[ "$all_ok" = 1 ]
