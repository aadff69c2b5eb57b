#!/usr/bin/env bash
# What flows cost: 1,000 independent two-step flows (a login on HTTPS, then a request that uses
# its token, its cookie and its IP) against 2,000 independent requests of the same kinds, at
# --jobs 32, in turn, ROUNDS times (default 5); the medians side by side. A flow's steps run in
# order on their lane while other lanes keep the jobs busy, so the flows should take about as
# long as the same number of requests run with no order at all, and cost about as much: the
# target is <= 1.2x in instructions (callgrind: the marginal cost between INSTR_N1 and INSTR_N2
# flows, default 200 and 1,000, the steady figure; bench/measure.sh), in CPU time (user + sys)
# where valgrind is missing; wall time beside.
# Usage: bench/flows.sh BIN_DIR  (release binaries of runner and runner-lab)
set -euo pipefail
bin=${1:?bin dir}
work=.bench/flows
flows=${FLOWS:-1000}
instr_n1=${INSTR_N1:-200}
instr_n2=${INSTR_N2:-1000}
rounds=${ROUNDS:-5}
jobs=${FLOW_JOBS:-32}
http_port=${BENCH_HTTP_PORT:-19080}
https_port=${BENCH_HTTPS_PORT:-19443}
mkdir -p "$work"

source "$(dirname "$0")/lab.sh"
source "$(dirname "$0")/measure.sh"
measure_tools
start_lab "$bin" flows
ca="$PWD/$work/lab/ca.pem"

header() {
  echo "version: 1"
  echo "name: $1"
  echo "defaults: {domains: lab, timeout: 20s, ca: \"$ca\", strategy: sni-resolve}"
  echo "domains:"
  echo "  lab:"
  echo "    static:"
  echo "      api.lab.test: [127.0.0.2, 127.0.0.5]"
  echo "scenarios:"
}
login() {  # NAME INDEX
  echo "  - name: $1"
  echo "    request:"
  echo "      method: POST"
  echo "      url: \"https://api.lab.test:$https_port/session/login?n=$2\""
  echo "      body: '{\"user\":\"u$2\",\"password\":\"lab-password\"}'"
}
# The flows: login i, then profile i after it with the token (the cookie goes too).
flows_plan() {  # COUNT
  header flows
  for i in $(seq 1 "$1"); do
    login "login $i" "$i"
    echo "    capture: {token: {json: \"\$.token\", secret: true}}"
    echo "  - name: profile $i"
    echo "    after: login $i"
    echo "    request:"
    echo "      url: \"https://api.lab.test:$https_port/session/me?n=$i\""
    echo "      headers: {Authorization: \"Bearer \${capture:token}\"}"
    echo "    expect: {status: 200}"
  done
}
# The reference: the same logins, and as many requests of the same size with no order among them.
requests_plan() {  # COUNT
  header requests
  for i in $(seq 1 "$1"); do
    login "login $i" "$i"
    echo "  - name: request $i"
    echo "    request: {url: \"https://api.lab.test:$https_port/session/me?n=$i\", headers: {Authorization: \"Bearer none\"}}"
    echo "    expect: {status: 401}"
  done
}
flows_plan "$flows" > "$work/flows.yaml"
requests_plan "$flows" > "$work/requests.yaml"
for size in n1 n2; do
  count_of=$instr_n1; [ "$size" = n1 ] || count_of=$instr_n2
  flows_plan "$count_of" > "$work/flows-$size.yaml"
  requests_plan "$count_of" > "$work/requests-$size.yaml"
  slow_limits "$work/flows-$size.yaml" "$work/requests-$size.yaml"
done

passed_whole() {  # LABEL FILE
  grep -q "^$((flows * 2)) passed, 0 failed, 0 errors" "$2" \
    || { echo "flows: the $1 run did not pass whole:"; tail -n 3 "$2"; exit 1; }
}
measure() {  # LABEL: one run; sets wall, cpu (seconds) and rss (KiB)
  read -r wall cpu rss < <(timed "$work/run.$1" "$bin/runner" -q --jobs "$jobs" "$work/$1.yaml")
  passed_whole "$1" "$work/run.$1.out"
}
count() { marginal "$1" "$work/$1-n1.yaml" "$work/$1-n2.yaml" -q --jobs "$jobs"; }  # LABEL: sets counted
flow_walls=(); request_walls=(); flow_cpu=(); request_cpu=(); flow_rss=(); request_rss=()
for _ in $(seq 1 "$rounds"); do
  measure requests; request_walls+=("$wall"); request_cpu+=("$cpu"); request_rss+=("$rss")
  measure flows; flow_walls+=("$wall"); flow_cpu+=("$cpu"); flow_rss+=("$rss")
done
request_instr=""; flow_instr=""
if command -v valgrind > /dev/null && command -v objcopy > /dev/null; then
  stripped_runner "$bin"
  count requests; request_instr=$counted
  count flows; flow_instr=$counted
fi
echo
echo "flows: $flows two-step flows vs $((flows * 2)) independent requests at --jobs $jobs, median of $rounds runs each"
echo "  walls, requests: ${request_walls[*]} s; flows: ${flow_walls[*]} s"
printf '  %-40s %12s %12s %12s  %s\n' "figure" "requests" "flows" "target" "verdict"
ok=1
judged 1.2 "$request_instr|${request_cpu[*]}|${request_walls[*]}" "$flow_instr|${flow_cpu[*]}|${flow_walls[*]}" || ok=0
printf '  %-40s %12s %12s\n' "peak RSS (MiB)" "$(awk -v k="$(median "${request_rss[@]}")" 'BEGIN { printf "%.1f", k / 1024 }')" \
  "$(awk -v k="$(median "${flow_rss[@]}")" 'BEGIN { printf "%.1f", k / 1024 }')"
[ "$ok" = 1 ]
