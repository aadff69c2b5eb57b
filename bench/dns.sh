#!/usr/bin/env bash
# What resolver checks cost: 1,000 results that each ask the lab's DNS server (UDP) for a name of
# their own (so no answer is reused), connect to what it answered and check it against a built-in
# list (strategy system, resolver, expect.dns.within), against the same 1,000 requests pinned
# from that list with no DNS at all (header-only), at --jobs 32, in turn, ROUNDS times (default
# 5); the medians side by side, and the median time of one DNS question from the JSON report.
# A check does strictly more than the request it guards (a DNS round trip on a thread of its
# own, a second lookup to check against): the target, <= 2.0x in instructions (callgrind: the
# marginal cost between plans of INSTR_N1 and INSTR_N2 checks, default 200 and 1,000, the steady
# figure; bench/measure.sh), bounds what that may cost; CPU time (user +
# sys) is the verdict where valgrind is missing, and wall time is printed beside.
# Usage: bench/dns.sh BIN_DIR  (release binaries of runner and runner-lab)
set -euo pipefail
bin=${1:?bin dir}
work=.bench/dns
checks=${DNS_CHECKS:-1000}
instr_n1=${INSTR_N1:-200}
instr_n2=${INSTR_N2:-1000}
rounds=${ROUNDS:-5}
jobs=${DNS_JOBS:-32}
http_port=${BENCH_HTTP_PORT:-19080}
https_port=${BENCH_HTTPS_PORT:-19443}
mkdir -p "$work"

source "$(dirname "$0")/lab.sh"
source "$(dirname "$0")/measure.sh"
measure_tools
start_lab "$bin" dns
dns_port=$(sed -n 's/^dns_port=//p' "$work/lab/ready")

plan() {  # NAME STRATEGY [COUNT]: the lab's bench names, each its own scenario
  local count=${3:-$checks}
  echo "version: 1"
  echo "name: $1"
  echo "defaults: {domains: list, timeout: 20s, ip_version: 4}"
  echo "domains:"
  echo "  list:"
  echo "    static:"
  for i in $(seq 1 "$count"); do echo "      h$i.bench.lab.test: [127.0.0.2]"; done
  echo "scenarios:"
  for i in $(seq 1 "$count"); do
    echo "  - name: check $i"
    echo "    strategy: $2"
    echo "    request: {url: \"http://h$i.bench.lab.test:$http_port/status/204\"}"
    if [ "$2" = system ]; then
      echo "    resolver: \"127.0.0.2:$dns_port\""
      echo "    expect: {status: 204, dns: {within: list}}"
    else
      echo "    expect: {status: 204}"
    fi
  done
}
plan checks system > "$work/checks.yaml"
plan pinned header-only > "$work/pinned.yaml"
for size in n1 n2; do
  count_of=$instr_n1; [ "$size" = n1 ] || count_of=$instr_n2
  plan checks system "$count_of" > "$work/checks-$size.yaml"
  plan pinned header-only "$count_of" > "$work/pinned-$size.yaml"
  slow_limits "$work/checks-$size.yaml" "$work/pinned-$size.yaml"
done

passed_whole() {  # LABEL FILE: the run passed every check
  grep -q "^$checks passed, 0 failed, 0 errors" "$2" \
    || { echo "dns: the $1 run did not pass whole:"; tail -n 3 "$2"; exit 1; }
}
measure() {  # LABEL: one run; sets wall and cpu (seconds)
  read -r wall cpu _ < <(timed "$work/run.$1" "$bin/runner" -q --jobs "$jobs" --json "$work/$1.json" "$work/$1.yaml")
  passed_whole "$1" "$work/run.$1.out"
}
count() { marginal "$1" "$work/$1-n1.yaml" "$work/$1-n2.yaml" -q --jobs "$jobs"; }  # LABEL: sets counted
check_walls=(); pinned_walls=(); check_cpu=(); pinned_cpu=()
for _ in $(seq 1 "$rounds"); do
  measure pinned; pinned_walls+=("$wall"); pinned_cpu+=("$cpu")
  measure checks; check_walls+=("$wall"); check_cpu+=("$cpu")
done
pinned_instr=""; check_instr=""
if command -v valgrind > /dev/null && command -v objcopy > /dev/null; then
  stripped_runner "$bin"
  count pinned; pinned_instr=$counted
  count checks; check_instr=$counted
fi
# One question's time, as the evidence records it (the last round's report).
question_ms=$(python3 -c '
import json, statistics, sys
report = json.load(open(sys.argv[1]))
times = [q["duration_ms"] for s in report["suites"] for r in s["results"] for d in r["evidence"]["dns"] for q in d["questions"]]
print(f"{statistics.median(times):.3f} ms median, {max(times):.3f} ms max, {len(times)} questions")' "$work/checks.json")
echo
echo "dns: $checks resolver checks vs $checks pinned requests at --jobs $jobs, median of $rounds runs each"
echo "  walls, pinned: ${pinned_walls[*]} s; checks: ${check_walls[*]} s"
echo "  one DNS question: $question_ms"
printf '  %-40s %12s %12s %12s  %s\n' "figure" "pinned" "checks" "target" "verdict"
judged 2.0 "$pinned_instr|${pinned_cpu[*]}|${pinned_walls[*]}" "$check_instr|${check_cpu[*]}|${check_walls[*]}"
