#!/usr/bin/env bash
# What resolver checks cost: 1,000 results that each ask the lab's DNS server (UDP) for a name of
# their own (so no answer is reused), connect to what it answered and check it against a built-in
# list (strategy system, resolver, expect.dns.within), against the same 1,000 requests pinned
# from that list with no DNS at all (header-only), at --jobs 32, in turn, ROUNDS times (default
# 5); the medians side by side, and the median time of one DNS question from the JSON report.
# A check does strictly more than the request it guards (a DNS round trip on a thread of its
# own, a second lookup to check against): the target, <= 2.0x, bounds what that may cost.
# Usage: bench/dns.sh BIN_DIR  (release binaries of runner and runner-lab)
set -euo pipefail
bin=${1:?bin dir}
work=.bench/dns
checks=${DNS_CHECKS:-1000}
rounds=${ROUNDS:-5}
jobs=${DNS_JOBS:-32}
http_port=${BENCH_HTTP_PORT:-19080}
https_port=${BENCH_HTTPS_PORT:-19443}
mkdir -p "$work"

source "$(dirname "$0")/lab.sh"
start_lab "$bin" dns
dns_port=$(sed -n 's/^dns_port=//p' "$work/lab/ready")

plan() {  # NAME STRATEGY: the lab's bench names, each its own scenario
  echo "version: 1"
  echo "name: $1"
  echo "defaults: {domains: list, timeout: 20s, ip_version: 4}"
  echo "domains:"
  echo "  list:"
  echo "    static:"
  for i in $(seq 1 "$checks"); do echo "      h$i.bench.lab.test: [127.0.0.2]"; done
  echo "scenarios:"
  for i in $(seq 1 "$checks"); do
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

measure() {  # LABEL: wall seconds, to the millisecond
  local start end
  start=$(date +%s%N)
  "$bin/runner" -q --jobs "$jobs" --json "$work/$1.json" "$work/$1.yaml" > "$work/out.$1" 2> "$work/err.$1" || true
  end=$(date +%s%N)
  grep -q "^$checks passed, 0 failed, 0 errors" "$work/out.$1" \
    || { echo "dns: the $1 run did not pass whole:"; tail -n 3 "$work/out.$1"; cat "$work/err.$1"; exit 1; }
  awk -v n=$((end - start)) 'BEGIN { printf "%.3f\n", n / 1e9 }'
}
check_walls=(); pinned_walls=()
for _ in $(seq 1 "$rounds"); do
  pinned_walls+=("$(measure pinned)")
  check_walls+=("$(measure checks)")
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
pw=$(median "${pinned_walls[@]}"); cw=$(median "${check_walls[@]}")
ratio=$(awk -v a="$cw" -v b="$pw" 'BEGIN { printf "%.3f", a / b }')
# One question's time, as the evidence records it (the last round's report).
question_ms=$(python3 -c '
import json, statistics, sys
report = json.load(open(sys.argv[1]))
times = [q["duration_ms"] for s in report["suites"] for r in s["results"] for d in r["evidence"]["dns"] for q in d["questions"]]
print(f"{statistics.median(times):.3f} ms median, {max(times):.3f} ms max, {len(times)} questions")' "$work/checks.json")
ok=$(awk -v r="$ratio" 'BEGIN { print (r <= 2.0) ? 1 : 0 }')
echo
echo "dns: $checks resolver checks vs $checks pinned requests at --jobs $jobs, median of $rounds runs each"
echo "  walls, pinned: ${pinned_walls[*]} s; checks: ${check_walls[*]} s"
echo "  one DNS question: $question_ms"
printf '  %-40s %12s %12s %12s  %s\n' "figure" "pinned" "checks" "target" "verdict"
printf '  %-40s %12s %12s %12s  %s\n' "wall (s), ratio $ratio" "$pw" "$cw" "<= 2.0x" "$([ "$ok" = 1 ] && echo PASS || echo MISS)"
[ "$ok" = 1 ]
