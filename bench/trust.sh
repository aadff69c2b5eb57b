#!/usr/bin/env bash
# What mobile trust costs: (1) the same 20,000 HTTPS results against the lab (10,000 scenarios x
# the primary and the stale edge, sni-resolve, kept-alive connections) run plainly and with
# `expect.certificate.pins` plus `tls: {profile: ios-ats}` (the chain's pins computed once per
# leaf, the version and cipher read per result), ROUNDS times (default 5), medians side by side.
# The plan states them once, as a plan of many scenarios on one host does: the profile in
# `defaults`, the pins under `x-pins` with each scenario's `expect` an alias. The same checks
# written out in every scenario are counted too and printed, not judged: two lines of YAML a
# scenario cost more than the checks (libyaml reads them; bench/http.sh and
# bench/instructions.sh count plan loading).
# The verdict's pair has every pin check pass (both edges' keys pinned), so it compares the same
# results with and without the checks: target at most 5% more instructions (callgrind: the
# marginal cost between plans of INSTR_N1 and INSTR_N2 scenarios, default 200 and 1,000, the
# steady figure; bench/measure.sh; CPU time where valgrind is missing; wall time beside). A
# second run pins the primary's key alone, so the stale edge fails its pins: the check must
# catch it (10,000 failed), and what its failures add (their lines, their summary) is printed
# beside, not judged: a failing result's report costs what it costs, pins or not.
# (2) the diagnostic handshake: 200 results refused by
# the profile (the lab's server without forward secrecy: a failed handshake, then one without
# the limits) against 200 results that fail their handshake without a diagnosis (a name the
# certificate does not hold, under sni-resolve), both on a new connection each, at --jobs 1:
# the difference of their medians is what the second handshake adds to a result.
# Usage: bench/trust.sh BIN_DIR  (release binaries of runner and runner-lab)
set -euo pipefail
bin=${1:?bin dir}
work=.bench/trust
scenarios=${TRUST_SCENARIOS:-10000}
instr_n1=${INSTR_N1:-200}
instr_n2=${INSTR_N2:-1000}
refusals=${TRUST_REFUSALS:-200}
rounds=${ROUNDS:-5}
http_port=${BENCH_HTTP_PORT:-19080}
https_port=${BENCH_HTTPS_PORT:-19443}
mkdir -p "$work"

source "$(dirname "$0")/lab.sh"
source "$(dirname "$0")/measure.sh"
measure_tools
start_lab "$bin" trust

pin() { echo "sha256/$(openssl x509 -in "$1" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64)"; }
current=$(pin "$work/lab/api.pem")
stale=$(pin "$work/lab/stale.pem")
plan() {  # $1: plan file, $2: plain | once | each, $3: the pins ("" for plain), $4: scenarios (default $scenarios)
  # once: the profile in `defaults`, the pins written once under `x-pins` and each scenario's
  # `expect` an alias of them, as a plan of many scenarios on one host states them; each: both
  # written out in every scenario (their YAML text is then most of what they cost, read by libyaml).
  awk -v n="${4:-$scenarios}" -v https="$https_port" -v ca="$PWD/$work/lab/ca.pem" -v mode="$2" -v pins="$3" 'BEGIN {
    print "version: 1"
    print "name: trust"
    printf "defaults: {domains: edges, timeout: 10s, ca: \"%s\"%s}\n", ca, (mode == "once" ? ", tls: {profile: ios-ats}" : "")
    if (mode == "once") printf "x-pins: &pins {certificate: {pins: [%s]}}\n", pins
    print "domains: {edges: {static: {api.lab.test: [127.0.0.2, 127.0.0.11]}}}"
    print "scenarios:"
    for (i = 0; i < n; i++) {
      printf "  - name: s%d\n    ips: all\n    request: {url: \"https://api.lab.test:%s/echo?n=%d\"}\n", i, https, i
      if (mode == "once") print "    expect: *pins"
      if (mode == "each") printf "    tls: {profile: ios-ats}\n    expect: {certificate: {pins: [%s]}}\n", pins
    }
  }' > "$1"
}
both="\"$current\", \"$stale\""
plan "$work/plain.yaml" plain ""
plan "$work/pinned.yaml" once "$both"
plan "$work/stale.yaml" once "\"$current\""

for size in n1 n2; do
  count_of=$instr_n1; [ "$size" = n1 ] || count_of=$instr_n2
  plan "$work/plain-$size.yaml" plain "" "$count_of"
  plan "$work/pinned-$size.yaml" once "$both" "$count_of"
  plan "$work/stale-$size.yaml" once "\"$current\"" "$count_of"
  plan "$work/written-$size.yaml" each "$both" "$count_of"
  slow_limits "$work/plain-$size.yaml" "$work/pinned-$size.yaml" "$work/stale-$size.yaml" "$work/written-$size.yaml"
done

measure() {  # LABEL PLAN: one run; sets wall and cpu (seconds)
  read -r wall cpu _ < <(timed "$work/run.$1" "$bin/runner" -q --jobs 32 "$2")
  mv "$work/run.$1.out" "$work/out.$1"; mv "$work/run.$1.err" "$work/err.$1"
  tail -n 1 "$work/out.$1" | grep -q "passed" || { echo "trust: the $1 run printed no summary"; cat "$work/err.$1"; exit 1; }
}
count() { marginal "$1" "$work/$1-n1.yaml" "$work/$1-n2.yaml" -q --jobs 32; }  # LABEL: sets counted
plain_walls=(); pinned_walls=(); stale_walls=(); plain_cpu=(); pinned_cpu=(); stale_cpu=()
for _ in $(seq 1 "$rounds"); do
  measure plain "$work/plain.yaml"; plain_walls+=("$wall"); plain_cpu+=("$cpu")
  measure pinned "$work/pinned.yaml"; pinned_walls+=("$wall"); pinned_cpu+=("$cpu")
  measure stale "$work/stale.yaml"; stale_walls+=("$wall"); stale_cpu+=("$cpu")
done
plain_instr=""; pinned_instr=""; stale_instr=""; written_instr=""
if command -v valgrind > /dev/null && command -v objcopy > /dev/null; then
  stripped_runner "$bin"
  count plain; plain_instr=$counted
  count pinned; pinned_instr=$counted
  count stale; stale_instr=$counted
  count written; written_instr=$counted
fi
# Both keys pinned: every result passes, as the plain ones do.
grep -q "^$((scenarios * 2)) passed, 0 failed, 0 errors$" "$work/out.pinned" \
  || { echo "trust: expected all $((scenarios * 2)) to pass with both keys pinned:"; tail -n 3 "$work/out.pinned"; exit 1; }
# The primary's key alone: the stale edge fails its pins, the primary passes: half and half.
grep -q "^$scenarios passed, $scenarios failed, 0 errors$" "$work/out.stale" \
  || { echo "trust: expected $scenarios passed and $scenarios failed with the primary's pin alone:"; tail -n 3 "$work/out.stale"; exit 1; }

# The diagnostic handshake: per-result durations from the JSON report, medians.
awk -v n="$refusals" -v https="$https_port" -v ca="$PWD/$work/lab/ca.pem" 'BEGIN {
  print "version: 1"
  print "name: refusals"
  printf "defaults: {timeout: 10s, ca: \"%s\", headers: {Connection: close}}\n", ca
  print "domains: {weak: {static: {api.lab.test: [127.0.0.12]}}, wrong: {static: {sni.lab.test: [127.0.0.2]}}}"
  print "scenarios:"
  for (i = 0; i < n; i++) {
    printf "  - {name: r%d, domains: weak, tls: {profile: ios-ats}, request: {url: \"https://api.lab.test:%s/echo\"}}\n", i, https
    printf "  - {name: w%d, domains: wrong, request: {url: \"https://sni.lab.test:%s/echo\"}}\n", i, https
  }
}' > "$work/refusals.yaml"
"$bin/runner" -q --jobs 1 --json "$work/refusals.json" "$work/refusals.yaml" > "$work/out.refusals" 2>&1 || true
grep -q "diagnosis: the server at 127.0.0.12:$https_port negotiates only TLS 1.2 AES128-GCM-SHA256 (no forward secrecy)" "$work/out.refusals" \
  || { echo "trust: the refusals carry no diagnosis"; head -n 5 "$work/out.refusals"; exit 1; }
read -r diagnosed undiagnosed < <(python3 - "$work/refusals.json" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["suites"][0]["results"]
def median(prefix):
    return statistics.median(r["duration_ms"] for r in results if r["scenario"].startswith(prefix))
print(f"{median('r'):.3f} {median('w'):.3f}")
PY
)

echo
echo "trust: $((scenarios * 2)) HTTPS results at --jobs 32, median of $rounds runs each"
echo "  walls plain: ${plain_walls[*]} s; with pins and ios-ats: ${pinned_walls[*]} s; the stale edge failing: ${stale_walls[*]} s"
[ -z "$plain_instr" ] || echo "  instructions: the marginal cost of $(((instr_n2 - instr_n1) * 2)) results (callgrind, $((instr_n1 * 2)) and $((instr_n2 * 2)))"
printf '  %-40s %12s %12s %12s  %s\n' "figure" "without" "with" "target" "verdict"
echo "  pins + ios-ats, every pin check passing"
ok=1
judged 1.05 "$plain_instr|${plain_cpu[*]}|${plain_walls[*]}" "$pinned_instr|${pinned_cpu[*]}|${pinned_walls[*]}" || ok=0
echo "  pins + ios-ats, the stale edge failing its pins (half the results: their lines and summary; not judged)"
judged 1.05 "$plain_instr|${plain_cpu[*]}|${plain_walls[*]}" "$stale_instr|${stale_cpu[*]}|${stale_walls[*]}" | sed -E 's/<= 1\.05x  (PASS|MISS)$/      -  printed/' || true
if [ -n "$written_instr" ]; then
  echo "  pins + ios-ats written out in each scenario, every pin check passing (their plan text read per scenario; not judged)"
  printf '  %-40s %12s %12s %12s  %s\n' "  instructions (M), ratio $(ratio "$written_instr" "$plain_instr")" "$((plain_instr / 1000000))" \
    "$((written_instr / 1000000))" "-" "printed"
fi
echo "  a handshake refused with its diagnosis: ${diagnosed} ms per result (median of $refusals, --jobs 1);"
echo "  a failed handshake without one: ${undiagnosed} ms; the second handshake adds about $(awk -v a="$diagnosed" -v b="$undiagnosed" 'BEGIN { printf "%.3f", a - b }') ms"
[ "$ok" = 1 ]
