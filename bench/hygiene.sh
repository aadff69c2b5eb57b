#!/usr/bin/env bash
# Resource hygiene: 5,000 scenarios at --jobs 64 against the lab — passing, failing and erroring,
# over every strategy and several IPs (many connection pools) — must leave the runner's open
# sockets and files where they started and keep its peak RSS under 200 MiB.
# Usage: bench/hygiene.sh BIN_DIR  (release binaries of runner and runner-lab)
set -euo pipefail
bin=${1:?bin dir}
work=.bench/hygiene
count=${HYGIENE_SCENARIOS:-5000}
jobs=${HYGIENE_JOBS:-64}
http_port=${BENCH_HTTP_PORT:-19080}
https_port=${BENCH_HTTPS_PORT:-19443}
mkdir -p "$work"

source "$(dirname "$0")/lab.sh"
start_lab "$bin" hygiene

# Ten kinds of scenario in rotation; one in ten fails, two in ten error (a handshake closed,
# trust override against the SNI-only host, which also runs the diagnosis probe).
awk -v n="$count" -v http="$http_port" -v https="$https_port" 'BEGIN {
  print "version: 1"
  print "name: hygiene"
  print "defaults: {ca: lab/ca.pem, domains: lab, timeout: 10s}"
  print "domains:"
  print "  lab:"
  print "    static:"
  print "      api.lab.test: [127.0.0.2, 127.0.0.5]"
  print "      sni.lab.test: [127.0.0.3]"
  print "      closer.lab.test: [127.0.0.6]"
  print "scenarios:"
  for (i = 0; i < n; i++) {
    kind = i % 10
    printf "  - name: s%d\n", i
    if (kind == 0)      { s = "header-only";    u = "http://api.lab.test:" http "/echo" }
    else if (kind == 1) { s = "sni-resolve";    u = "https://api.lab.test:" https "/bytes/100000" }
    else if (kind == 2) { s = "trust-override"; u = "https://api.lab.test:" https "/echo" }
    else if (kind == 3) { s = "sni-resolve";    u = "https://api.lab.test:" https "/delay/20" }
    else if (kind == 4) { s = "sni-resolve";    u = "https://api.lab.test:" https "/status/503" }
    else if (kind == 5) { s = "trust-override"; u = "https://sni.lab.test:" https "/echo" }
    else if (kind == 6) { s = "sni-resolve";    u = "https://closer.lab.test:" https "/echo" }
    else if (kind == 7) { s = "header-only";    u = "http://api.lab.test:" http "/redirect-chain/2" }
    else if (kind == 8) { s = "sni-resolve";    u = "https://sni.lab.test:" https "/json" }
    else                { s = "trust-override"; u = "https://api.lab.test:" https "/headers?x=" i }
    printf "    strategy: %s\n", s
    if (kind == 0 || kind == 2) print "    ips: all"
    printf "    request: {url: \"%s\"}\n", u
  }
}' > "$work/plan.yaml"

/usr/bin/time -f "%e %M" -o "$work/time" "$bin/runner" -q --stats --jobs "$jobs" \
  --junit "$work/junit.xml" --json "$work/report.json" "$work/plan.yaml" > "$work/out" 2> "$work/err" || true
stats=$(grep '^stats:' "$work/err" || true)
[ -n "$stats" ] || { echo "hygiene: the runner printed no stats"; cat "$work/err"; exit 1; }
summary=$(tail -n 1 "$work/out")
read -r wall rss_kib < <(tail -n 1 "$work/time")
start_fds=$(sed -E 's/.*open sockets and files ([0-9]+) at start.*/\1/' <<< "$stats")
end_fds=$(sed -E 's/.*, ([0-9]+) at end.*/\1/' <<< "$stats")
rss_mib=$(awk -v k="$rss_kib" 'BEGIN { printf "%.1f", k / 1024 }')

verdict() { if [ "$1" = 1 ]; then echo PASS; else echo MISS; fi; }
fds_ok=$([ "$start_fds" = "$end_fds" ] && echo 1 || echo 0)
rss_ok=$(awk -v m="$rss_mib" 'BEGIN { print (m < 200) ? 1 : 0 }')
echo
echo "resource hygiene: $count scenarios at --jobs $jobs against the lab (${wall} s): $summary"
echo "  $stats"
printf '  %-40s %12s %12s  %s\n' "figure" "measured" "target" "verdict"
printf '  %-40s %12s %12s  %s\n' "open sockets and files, end vs start" "$end_fds vs $start_fds" "equal" "$(verdict "$fds_ok")"
printf '  %-40s %12s %12s  %s\n' "peak RSS (MiB)" "$rss_mib" "< 200" "$(verdict "$rss_ok")"
[ "$fds_ok" = 1 ] && [ "$rss_ok" = 1 ]
