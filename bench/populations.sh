#!/usr/bin/env bash
# What client populations cost (issue 33): SCENARIOS (default 100) HTTPS scenarios under
# sni-resolve with `ips: all` on a DNSPod map asked as 30 populations, which the lab sends to 5
# of its 50 bench edges each (127.0.1.1-50, every edge shared by three populations:
# LabDNS.benchPopulations), against the same scenarios on a static list of those 50 edges, at
# --jobs 32, in turn, ROUNDS times (default 5). Both runs make SCENARIOS × 50 HTTPS results with
# their TLS evidence; the populations' run also makes 30 lookups (one per population, shared by
# every scenario on the host), names each result's populations and writes the summary by client.
# The target: <= 1.2x the reference in instructions (callgrind, one run of each: the steady
# figure on this shared machine), CPU (user + system) and wall time beside it, medians of ROUNDS.
# Usage: bench/populations.sh BIN_DIR  (release binaries of runner and runner-lab)
set -euo pipefail
export LC_ALL=C
bin=${1:?bin dir}
work=.bench/populations
scenarios=${SCENARIOS:-100}
rounds=${ROUNDS:-5}
jobs=${POPULATION_JOBS:-32}
clients=30
edges=50
http_port=${BENCH_HTTP_PORT:-19080}
https_port=${BENCH_HTTPS_PORT:-19443}
mkdir -p "$work"

source "$(dirname "$0")/lab.sh"
source "$(dirname "$0")/measure.sh"
measure_tools
start_lab "$bin" populations --bench-edges "$edges"
ca="$PWD/$work/lab/ca.pem"

body() {  # the scenarios, on the map the defaults name
  echo "scenarios:"
  for i in $(seq 1 "$scenarios"); do
    echo "  - name: edges $i"
    echo "    request: {url: \"https://api.lab.test:$https_port/echo?s=$i\"}"
    echo "    expect: {status: 200}"
  done
}
{
  echo "version: 1"
  echo "name: populations"
  echo "defaults: {domains: tencent, ips: all, timeout: 20s, ca: \"$ca\", strategy: sni-resolve}"
  echo "clients:"
  for k in $(seq 0 $((clients - 1))); do echo "  p$k: {ip: 10.77.$k.1, labels: {region: r$((k % 6))}}"; done
  echo "domains:"
  echo "  tencent:"
  echo "    httpdns: {format: dnspod, url: \"http://127.0.0.2:$http_port/httpdns/dnspod/d?dn={host}&ip={client}\", clients: all}"
  body
} > "$work/populations.yaml"
{
  echo "version: 1"
  echo "name: reference"
  echo "defaults: {domains: list, ips: all, timeout: 20s, ca: \"$ca\", strategy: sni-resolve}"
  echo "domains:"
  echo "  list:"
  echo "    static:"
  echo "      api.lab.test: [$(seq -s ', ' -f '127.0.1.%g' 1 "$edges")]"
  body
} > "$work/reference.yaml"
# The same plans for callgrind, ~50x slower: with 20 s limits, the first handshakes of a loaded
# machine's run timed out.
for label in populations reference; do cp "$work/$label.yaml" "$work/$label.slow.yaml"; done
slow_limits "$work/populations.slow.yaml" "$work/reference.slow.yaml"

results=$((scenarios * edges))
measure() {  # LABEL: wall, CPU (user + system) seconds and peak RSS in KiB
  local start end
  start=$(date +%s%N)
  /usr/bin/time -f "%U %S %M" -o "$work/time.$1" "$bin/runner" --jobs "$jobs" --color never "$work/$1.yaml" \
    > "$work/out.$1" 2> "$work/err.$1" || true
  end=$(date +%s%N)
  grep -q "^$results passed, 0 failed, 0 errors" "$work/out.$1" \
    || { echo "populations: the $1 run did not pass whole:"; tail -n 5 "$work/out.$1"; cat "$work/err.$1"; exit 1; }
  read -r user system rss < "$work/time.$1"
  echo "$(awk -v n=$((end - start)) 'BEGIN { printf "%.3f", n / 1e9 }') $(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.2f", u + s }') $rss"
}
pop_walls=(); ref_walls=(); pop_cpu=(); ref_cpu=(); pop_rss=(); ref_rss=()
for _ in $(seq 1 "$rounds"); do
  read -r wall cpu rss < <(measure reference); ref_walls+=("$wall"); ref_cpu+=("$cpu"); ref_rss+=("$rss")
  read -r wall cpu rss < <(measure populations); pop_walls+=("$wall"); pop_cpu+=("$cpu"); pop_rss+=("$rss")
done
# Every population has its line, and its 5 edges all pass.
passing=$(grep -c "^    p[0-9]*: 5/5 edges pass$" "$work/out.populations" || true)
[ "$passing" -eq $((clients * scenarios)) ] \
  || { echo "populations: expected $((clients * scenarios)) 'pN: 5/5 edges pass' lines, got $passing"; exit 1; }

# Instructions, the steady figure: each run once under callgrind (a copy of the runner without
# its DWARF, which valgrind 3.19 cannot read; bench/measure.sh installs valgrind first).
count() {  # LABEL: one run under callgrind (bench/measure.sh); sets counted (its instructions)
  counted=$(instructions "$work/instr.$1" "$work/runner.stripped" -q --jobs "$jobs" "$work/$1.slow.yaml")
  grep -q "^$results passed, 0 failed, 0 errors" "$work/instr.$1.out" \
    || { echo "populations: the $1 run under callgrind did not pass whole:"; tail -n 5 "$work/instr.$1.out" "$work/instr.$1.err"; exit 1; }
}
ri=""; pi=""
if command -v valgrind > /dev/null && command -v objcopy > /dev/null; then
  stripped_runner "$bin"
  count reference; ri=$counted
  count populations; pi=$counted
fi

rw=$(median "${ref_walls[@]}"); pw=$(median "${pop_walls[@]}")
rc=$(median "${ref_cpu[@]}"); pc=$(median "${pop_cpu[@]}")
wall_ratio=$(awk -v a="$pw" -v b="$rw" 'BEGIN { printf "%.3f", a / b }')
cpu_ratio=$(awk -v a="$pc" -v b="$rc" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')
if [ -n "$ri" ]; then
  instr_ratio=$(awk -v a="$pi" -v b="$ri" 'BEGIN { printf "%.3f", a / b }')
  ok=$(awk -v r="$instr_ratio" 'BEGIN { print (r <= 1.2) ? 1 : 0 }')
else
  ok=$(awk -v r="$cpu_ratio" 'BEGIN { print (r <= 1.2) ? 1 : 0 }')
fi
echo
echo "populations: $scenarios scenarios x $edges edges ($results HTTPS results), $clients populations vs a static list, --jobs $jobs, median of $rounds runs each"
echo "  walls, reference: ${ref_walls[*]} s; populations: ${pop_walls[*]} s"
echo "  CPU, reference: ${ref_cpu[*]} s; populations: ${pop_cpu[*]} s"
printf '  %-40s %12s %12s %12s  %s\n' "figure" "reference" "populations" "target" "verdict"
verdict=$([ "$ok" = 1 ] && echo PASS || echo MISS)
if [ -n "$ri" ]; then
  printf '  %-40s %12s %12s %12s  %s\n' "instructions (M), ratio $instr_ratio" "$((ri / 1000000))" "$((pi / 1000000))" "<= 1.2x" "$verdict"
  printf '  %-40s %12s %12s\n' "instructions per result (k)" "$((ri / results / 1000))" "$((pi / results / 1000))"
  printf '  %-40s %12s %12s\n' "CPU user+sys (s), ratio $cpu_ratio" "$rc" "$pc"
else
  echo "  (valgrind or objcopy missing: the verdict is on CPU time)"
  printf '  %-40s %12s %12s %12s  %s\n' "CPU user+sys (s), ratio $cpu_ratio" "$rc" "$pc" "<= 1.2x" "$verdict"
fi
printf '  %-40s %12s %12s\n' "wall (s), ratio $wall_ratio" "$rw" "$pw"
printf '  %-40s %12s %12s\n' "peak RSS (MiB)" "$(awk -v k="$(median "${ref_rss[@]}")" 'BEGIN { printf "%.1f", k / 1024 }')" \
  "$(awk -v k="$(median "${pop_rss[@]}")" 'BEGIN { printf "%.1f", k / 1024 }')"
[ "$ok" = 1 ]
