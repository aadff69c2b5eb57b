#!/usr/bin/env bash
# What the SDK's pick costs (issue 46): SCENARIOS (default 100) HTTPS scenarios under sni-resolve
# with `ips: all` on a DNSPod map asked as 30 populations, which the lab sends to 5 of its 50
# bench edges each (LabDNS.benchPopulations), once as they are and once with
# `sdk: {profile: alibaba-ios, rank: {port: HTTPS}}`: the ranking connects to each answered edge
# on the HTTPS port before the pick. The targets: one connect per distinct (address, port) in
# the cycle, not one per population (the suite's `sdk.ranking_connects` == 50, not 30 x 5 = 150);
# and <= 1.1x the plan without `sdk:` in instructions (callgrind, one run of each), with CPU
# (user + system) and wall time beside it, medians of ROUNDS (default 5).
# Usage: bench/pick.sh BIN_DIR  (release binaries of runner and runner-lab)
set -euo pipefail
export LC_ALL=C
bin=${1:?bin dir}
work=.bench/pick
scenarios=${SCENARIOS:-100}
rounds=${ROUNDS:-5}
jobs=${PICK_JOBS:-32}
clients=30
edges=50
http_port=${BENCH_HTTP_PORT:-19080}
https_port=${BENCH_HTTPS_PORT:-19443}
mkdir -p "$work"

source "$(dirname "$0")/lab.sh"
source "$(dirname "$0")/measure.sh"
measure_tools
start_lab "$bin" pick --bench-edges "$edges"
ca="$PWD/$work/lab/ca.pem"

plan() {  # NAME SDK: the plan, with `sdk:` on its map when SDK is not empty
  echo "version: 1"
  echo "name: $1"
  echo "defaults: {domains: tencent, ips: all, timeout: 20s, ca: \"$ca\", strategy: sni-resolve}"
  echo "clients:"
  for k in $(seq 0 $((clients - 1))); do echo "  p$k: {ip: 10.77.$k.1, labels: {region: r$((k % 6))}}"; done
  echo "domains:"
  echo "  tencent:"
  echo "    httpdns: {format: dnspod, url: \"http://127.0.0.2:$http_port/httpdns/dnspod/d?dn={host}&ip={client}\", clients: all$2}"
  echo "scenarios:"
  for i in $(seq 1 "$scenarios"); do
    echo "  - name: edges $i"
    echo "    request: {url: \"https://api.lab.test:$https_port/echo?s=$i\"}"
    echo "    expect: {status: 200}"
  done
}
plan unranked "" > "$work/unranked.yaml"
plan ranked ", sdk: {profile: alibaba-ios, rank: {port: $https_port}}" > "$work/ranked.yaml"
# The same plans for callgrind, ~50x slower: with 20 s limits, the first handshakes of a loaded
# machine's run timed out.
for label in unranked ranked; do cp "$work/$label.yaml" "$work/$label.slow.yaml"; done
slow_limits "$work/unranked.slow.yaml" "$work/ranked.slow.yaml"

results=$((scenarios * edges))
measure() {  # LABEL: wall, CPU (user + system) seconds
  local start end
  start=$(date +%s%N)
  /usr/bin/time -f "%U %S" -o "$work/time.$1" "$bin/runner" --jobs "$jobs" --color never --junit "$work/$1.xml" "$work/$1.yaml" \
    > "$work/out.$1" 2> "$work/err.$1" || true
  end=$(date +%s%N)
  grep -q "^$results passed, 0 failed, 0 errors" "$work/out.$1" \
    || { echo "pick: the $1 run did not pass whole:"; tail -n 5 "$work/out.$1"; cat "$work/err.$1"; exit 1; }
  read -r user system < "$work/time.$1"
  echo "$(awk -v n=$((end - start)) 'BEGIN { printf "%.3f", n / 1e9 }') $(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.2f", u + s }')"
}
ranked_walls=(); unranked_walls=(); ranked_cpu=(); unranked_cpu=(); connects=()
for _ in $(seq 1 "$rounds"); do
  read -r wall cpu < <(measure unranked); unranked_walls+=("$wall"); unranked_cpu+=("$cpu")
  read -r wall cpu < <(measure ranked); ranked_walls+=("$wall"); ranked_cpu+=("$cpu")
  connects+=("$(sed -n 's/.*<property name="sdk.ranking_connects" value="\([0-9]*\)".*/\1/p' "$work/ranked.xml")")
done
# Every population's pick is one of its edges, named in the suite's properties.
picks=$(grep -c '<property name="domains.tencent.api.lab.test as p[0-9]* pick" value="127\.0\.1\.' "$work/ranked.xml" || true)
[ "$picks" -eq "$clients" ] || { echo "pick: expected $clients populations' picks in the JUnit properties, got $picks"; exit 1; }

count() {  # LABEL: one run under callgrind (bench/measure.sh); sets counted (its instructions)
  counted=$(instructions "$work/instr.$1" "$work/runner.stripped" -q --jobs "$jobs" "$work/$1.slow.yaml")
  grep -q "^$results passed, 0 failed, 0 errors" "$work/instr.$1.out" \
    || { echo "pick: the $1 run under callgrind did not pass whole:"; tail -n 5 "$work/instr.$1.out" "$work/instr.$1.err"; exit 1; }
}
ui=""; ri=""
if command -v valgrind > /dev/null && command -v objcopy > /dev/null; then
  stripped_runner "$bin"
  count unranked; ui=$counted
  count ranked; ri=$counted
fi

uw=$(median "${unranked_walls[@]}"); rw=$(median "${ranked_walls[@]}")
uc=$(median "${unranked_cpu[@]}"); rc=$(median "${ranked_cpu[@]}")
wall_ratio=$(awk -v a="$rw" -v b="$uw" 'BEGIN { printf "%.3f", a / b }')
cpu_ratio=$(awk -v a="$rc" -v b="$uc" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')
most_connects=$(printf '%s\n' "${connects[@]}" | sort -g | tail -n 1)
connects_ok=$([ "$most_connects" -le "$edges" ] && [ "$most_connects" -gt 0 ] && echo 1 || echo 0)
if [ -n "$ri" ]; then
  instr_ratio=$(awk -v a="$ri" -v b="$ui" 'BEGIN { printf "%.3f", a / b }')
  cost_ok=$(awk -v r="$instr_ratio" 'BEGIN { print (r <= 1.1) ? 1 : 0 }')
else
  cost_ok=$(awk -v r="$cpu_ratio" 'BEGIN { print (r <= 1.1) ? 1 : 0 }')
fi
echo
echo "pick: $scenarios scenarios x $edges edges ($results HTTPS results), $clients populations ranking by connect time vs not ranking, --jobs $jobs, median of $rounds runs each"
echo "  walls, unranked: ${unranked_walls[*]} s; ranked: ${ranked_walls[*]} s"
echo "  CPU, unranked: ${unranked_cpu[*]} s; ranked: ${ranked_cpu[*]} s"
printf '  %-40s %12s %12s %12s  %s\n' "figure" "unranked" "ranked" "target" "verdict"
printf '  %-40s %12s %12s %12s  %s\n' "ranking connects per cycle (most)" "0" "$most_connects" "<= $edges" "$(verdict "$connects_ok")"
if [ -n "$ri" ]; then
  printf '  %-40s %12s %12s %12s  %s\n' "instructions (M), ratio $instr_ratio" "$((ui / 1000000))" "$((ri / 1000000))" "<= 1.1x" "$(verdict "$cost_ok")"
  printf '  %-40s %12s %12s\n' "CPU user+sys (s), ratio $cpu_ratio" "$uc" "$rc"
else
  echo "  (valgrind or objcopy missing: the verdict is on CPU time)"
  printf '  %-40s %12s %12s %12s  %s\n' "CPU user+sys (s), ratio $cpu_ratio" "$uc" "$rc" "<= 1.1x" "$(verdict "$cost_ok")"
fi
printf '  %-40s %12s %12s\n' "wall (s), ratio $wall_ratio" "$uw" "$rw"
[ "$connects_ok" = 1 ] && [ "$cost_ok" = 1 ]
