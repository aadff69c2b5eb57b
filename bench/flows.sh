#!/usr/bin/env bash
# What flows cost: 1,000 independent two-step flows (a login on HTTPS, then a request that uses
# its token, its cookie and its IP) against 2,000 independent requests of the same kinds, at
# --jobs 32, in turn, ROUNDS times (default 5); the medians side by side. A flow's steps run in
# order on their lane while other lanes keep the jobs busy, so the flows should take about as
# long as the same number of requests run with no order at all: the target is <= 1.2x.
# Usage: bench/flows.sh BIN_DIR  (release binaries of runner and runner-lab)
set -euo pipefail
bin=${1:?bin dir}
work=.bench/flows
flows=${FLOWS:-1000}
rounds=${ROUNDS:-5}
jobs=${FLOW_JOBS:-32}
http_port=${BENCH_HTTP_PORT:-19080}
https_port=${BENCH_HTTPS_PORT:-19443}
mkdir -p "$work"

source "$(dirname "$0")/lab.sh"
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
{
  header flows
  for i in $(seq 1 "$flows"); do
    login "login $i" "$i"
    echo "    capture: {token: {json: \"\$.token\", secret: true}}"
    echo "  - name: profile $i"
    echo "    after: login $i"
    echo "    request:"
    echo "      url: \"https://api.lab.test:$https_port/session/me?n=$i\""
    echo "      headers: {Authorization: \"Bearer \${capture:token}\"}"
    echo "    expect: {status: 200}"
  done
} > "$work/flows.yaml"
# The reference: the same logins, and as many requests of the same size with no order among them.
{
  header requests
  for i in $(seq 1 "$flows"); do
    login "login $i" "$i"
    echo "  - name: request $i"
    echo "    request: {url: \"https://api.lab.test:$https_port/session/me?n=$i\", headers: {Authorization: \"Bearer none\"}}"
    echo "    expect: {status: 401}"
  done
} > "$work/requests.yaml"

measure() {  # LABEL: wall seconds (to the millisecond: a run takes a tenth of a second) and peak RSS in KiB
  local start end
  start=$(date +%s%N)
  /usr/bin/time -f "%M" -o "$work/time.$1" "$bin/runner" -q --jobs "$jobs" "$work/$1.yaml" > "$work/out.$1" 2> "$work/err.$1" || true
  end=$(date +%s%N)
  grep -q "^$((flows * 2)) passed, 0 failed, 0 errors" "$work/out.$1" \
    || { echo "flows: the $1 run did not pass whole:"; tail -n 3 "$work/out.$1"; cat "$work/err.$1"; exit 1; }
  echo "$(awk -v n=$((end - start)) 'BEGIN { printf "%.3f", n / 1e9 }') $(tail -n 1 "$work/time.$1")"
}
flow_walls=(); request_walls=(); flow_rss=(); request_rss=()
for _ in $(seq 1 "$rounds"); do
  read -r wall rss < <(measure requests); request_walls+=("$wall"); request_rss+=("$rss")
  read -r wall rss < <(measure flows); flow_walls+=("$wall"); flow_rss+=("$rss")
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
rw=$(median "${request_walls[@]}"); fw=$(median "${flow_walls[@]}")
ratio=$(awk -v a="$fw" -v b="$rw" 'BEGIN { printf "%.3f", a / b }')
ok=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.2) ? 1 : 0 }')
echo
echo "flows: $flows two-step flows vs $((flows * 2)) independent requests at --jobs $jobs, median of $rounds runs each"
echo "  walls, requests: ${request_walls[*]} s; flows: ${flow_walls[*]} s"
printf '  %-40s %12s %12s %12s  %s\n' "figure" "requests" "flows" "target" "verdict"
printf '  %-40s %12s %12s %12s  %s\n' "wall (s), ratio $ratio" "$rw" "$fw" "<= 1.2x" "$([ "$ok" = 1 ] && echo PASS || echo MISS)"
printf '  %-40s %12s %12s\n' "peak RSS (MiB)" "$(awk -v k="$(median "${request_rss[@]}")" 'BEGIN { printf "%.1f", k / 1024 }')" \
  "$(awk -v k="$(median "${flow_rss[@]}")" 'BEGIN { printf "%.1f", k / 1024 }')"
[ "$ok" = 1 ]
