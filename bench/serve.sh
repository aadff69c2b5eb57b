#!/usr/bin/env bash
# `runner serve` bounded over time: a 200-scenario plan against the lab, a cycle every
# SERVE_EVERY, for SERVE_CYCLES cycles (default 1,000), /metrics scraped every SCRAPE_EVERY
# cycles (so rendering the exposition is part of what is measured). After each cycle (its
# `serve: cycle N done` line, read as it is written) the serve process's RSS (VmRSS) and open
# descriptors (/proc/PID/fd) are sampled. RSS: the median of the 100 cycles after the first
# fifth (cycle 200 of 1,000) against the median of the last 100, less than 2 MiB apart (one sample
# at each end read a curve that swings by 5 MiB between cycles as malloc's arenas fill and trim:
# 4.4 MiB of "growth" on a flat run; a leak moves the whole window). Descriptors: the fewest of
# ten cycles at each end, no growth. The first fifth is left out: allocator arenas, libcurl's and
# OpenSSL's first-use state and the HTTP server's buffers settle there (RSS still rose from 47.2
# to 49.2 MiB between cycles 51-150 and 151-250, then stayed at 49.2-49.6 to cycle 1,000).
#
# The plan resolves through an HTTPDNS map (the answers kept across cycles by their TTL, one of
# them a TTL of 1 s, so kept answers expire and are replaced all the time) and a static one;
# http and https, passing, failing and erroring results.
# Usage: bench/serve.sh BIN_DIR  (release binaries of runner and runner-lab)
set -euo pipefail
bin=${1:?bin dir}
work=.bench/serve
scenarios=${SERVE_SCENARIOS:-200}
cycles=${SERVE_CYCLES:-1000}
every=${SERVE_EVERY:-100ms}
scrape_every=${SCRAPE_EVERY:-10}
baseline=$((cycles / 5)); [ "$baseline" -ge 50 ] || baseline=50  # the settling cycles left out
http_port=${BENCH_HTTP_PORT:-19080}
https_port=${BENCH_HTTPS_PORT:-19443}
rm -rf "$work"
mkdir -p "$work"

source "$(dirname "$0")/lab.sh"
start_lab "$bin" serve

# Ten kinds in rotation: six pass over http and https; one fails its status check; one asks
# for every IP of a host with one address that refuses connections (one passes, one errors);
# one resolves a name whose HTTPDNS TTL is 1 s; one uses the static map.
awk -v n="$scenarios" -v http="$http_port" -v https="$https_port" 'BEGIN {
  print "version: 1"
  print "name: serve-bench"
  print "defaults: {ca: lab/ca.pem, domains: httpdns, timeout: 10s}"
  print "domains:"
  print "  httpdns:"
  printf "    httpdns: {format: dnspod, url: \"http://127.0.0.2:%s/httpdns/dnspod/d?dn={host}&ttl=1\", timeout: 5s}\n", http
  print "  fixed:"
  print "    static:"
  print "      api.lab.test: [127.0.0.5]"
  print "scenarios:"
  for (i = 0; i < n; i++) {
    kind = i % 10
    printf "  - name: s%d\n", i
    if (kind <= 2)      { s = "header-only"; u = "http://api.lab.test:" http "/echo?n=" i }
    else if (kind <= 5) { s = "sni-resolve"; u = "https://api.lab.test:" https "/echo?n=" i }
    else if (kind == 6) { s = "sni-resolve"; u = "https://sni.lab.test:" https "/json" }
    else if (kind == 7) { s = "header-only"; u = "http://api.lab.test:" http "/status/503" }
    else if (kind == 8) { s = "header-only"; u = "http://split.lab.test:" http "/echo" }
    else                { s = "header-only"; u = "http://shortttl.lab.test:" http "/echo" }
    printf "    strategy: %s\n", s
    if (kind == 8) print "    ips: all"
    if (kind == 0) print "    domains: fixed"
    printf "    request: {url: \"%s\"}\n", u
    if (kind == 7) print "    expect: {status: 200}"
  }
}' > "$work/plan.yaml"

# The serve process writes its standard error into a FIFO read line by line below, so each
# cycle's line is seen as it is written; a copy goes to serve.err.
mkfifo "$work/stderr.fifo"
"$bin/runner" serve "$work/plan.yaml" --every "$every" --listen 127.0.0.1:0 --label vantage=bench \
  > "$work/serve.out" 2> "$work/stderr.fifo" &
serve=$!
exec 3< "$work/stderr.fifo"
trap 'kill $serve 2>/dev/null; wait $serve 2>/dev/null; kill $lab 2>/dev/null; wait $lab 2>/dev/null' EXIT

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$serve/status"; }
fds() { ls "/proc/$serve/fd" | wc -l; }

port=""
done_cycles=0
scrapes=0
started=$(date +%s.%N)
: > "$work/samples"   # cycle, RSS KiB, descriptors, seconds since start
: > "$work/durations" # seconds, of the cycles scraped
# Every read has a deadline: a serve that hangs or dies ends the bench, not the machine's patience.
while IFS= read -r -t 120 line <&3; do
  printf '%s\n' "$line" >> "$work/serve.err"
  case "$line" in
    "serve: listening on http://127.0.0.1:"*)
      port=${line#serve: listening on http://127.0.0.1:}
      port=${port%%/*}
      ;;
    "serve: cycle "*" done in "*)
      done_cycles=$((done_cycles + 1))
      n=${line#serve: cycle }
      n=${n%% *}
      echo "$n $(rss_kib) $(fds) $(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')" >> "$work/samples"
      if [ $((n % scrape_every)) = 0 ]; then
        status=$(curl -s --noproxy '*' --max-time 10 -o "$work/metrics.prom" -w '%{http_code}' "http://127.0.0.1:$port/metrics" || true)
        [ "$status" = 200 ] || { echo "serve: /metrics answered '$status' after cycle $n"; tail -n 20 "$work/serve.err"; exit 1; }
        # The cycle's duration to the microsecond (the cycle lines say it to 10 ms).
        awk '/^runner_cycle_duration_seconds[{ ]/ { print $NF }' "$work/metrics.prom" >> "$work/durations"
        scrapes=$((scrapes + 1))
      fi
      # What the last cycle's descriptors are, for a MISS to say (sockets, files, pipes).
      [ "$n" -ge "$cycles" ] && { ls -l "/proc/$serve/fd" > "$work/fds.end" 2>/dev/null || true; break; }
      ;;
    "serve: error"* | "error:"*)
      echo "serve: $line"; exit 1
      ;;
  esac
done
[ "$done_cycles" -ge "$cycles" ] || { echo "serve: only $done_cycles of $cycles cycles were seen"; tail -n 20 "$work/serve.err"; exit 1; }
kill -TERM "$serve"
# Drain what it writes while it stops, with a deadline of its own.
while IFS= read -r -t 10 line <&3; do printf '%s\n' "$line" >> "$work/serve.err"; done || true
status=0
wait "$serve" || status=$?
trap 'kill $lab 2>/dev/null; wait $lab 2>/dev/null' EXIT
[ "$status" = 0 ] || { echo "serve: exit $status after SIGTERM, not 0"; tail -n 20 "$work/serve.err"; exit 1; }

results=$(grep -c '^probe_success{' "$work/metrics.prom")
summary=$(grep 'serve: cycle ' "$work/serve.err" | tail -n 1 | sed 's/.*: //')
at() { awk -v c="$1" -v f="$2" '$1 == c { print $f }' "$work/samples"; }
# Descriptors: the fewest over the ten cycles up to N. A sample is taken as a cycle's line is read,
# between cycles, but a loaded machine can delay it into the next cycle and its connections; a
# descriptor that leaked stays open, so it shows in the fewest as well.
fewest_fds() { awk -v c="$1" '$1 > c - 10 && $1 <= c && (m == "" || $3 < m) { m = $3 } END { print m }' "$work/samples"; }
window=$(( (cycles - baseline) / 4 )); [ "$window" -le 100 ] || window=100; [ "$window" -ge 1 ] || window=1  # short runs (SERVE_CYCLES) too
# The median RSS over cycles FROM..TO.
median_rss() { awk -v a="$1" -v b="$2" '$1 >= a && $1 <= b { print $2 }' "$work/samples" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
first_window="$((baseline + 1))-$((baseline + window))"; last_window="$((cycles - window + 1))-$cycles"
rss50=$(median_rss "$((baseline + 1))" "$((baseline + window))"); rssN=$(median_rss "$((cycles - window + 1))" "$cycles")
fd50=$(fewest_fds "$baseline"); fdN=$(fewest_fds "$cycles")
rss_growth=$(awk -v a="$rss50" -v b="$rssN" 'BEGIN { printf "%.2f", (b - a) / 1024 }')
fd_growth=$((fdN - fd50))
durations=$(sort -g "$work/durations")
median_cycle=$(awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] * 1000 }' <<< "$durations")
max_cycle=$(awk '{ v[NR] = $1 } END { printf "%.1f", v[NR] * 1000 }' <<< "$durations")
wall=$(at "$cycles" 4)
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
verdict() { if [ "$1" = 1 ]; then echo PASS; else echo MISS; fi; }
rss_ok=$(awk -v g="$rss_growth" 'BEGIN { print (g < 2) ? 1 : 0 }')
fd_ok=$([ "$fd_growth" -le 0 ] && echo 1 || echo 0)

echo
echo "serve over time: $scenarios scenarios ($results results a cycle: $summary), --every $every, $cycles cycles in $wall s"
echo "  a cycle took $median_cycle ms (median; longest $max_cycle ms) of the $scrapes scraped; /metrics is $(stat -c %s "$work/metrics.prom") bytes"
marks="1 $baseline $((cycles / 4)) $((cycles / 2)) $((cycles * 3 / 4)) $cycles"
echo "  RSS (MiB) at cycles $(tr ' ' / <<< "$marks"): $(for c in $marks; do printf '%s ' "$(mib "$(at "$c" 2)")"; done)"
echo "  RSS (MiB) after cycle $baseline, lowest / highest: $(awk -v b="$baseline" '$1 > b && (m == "" || $2 < m) { m = $2 } END { printf "%.1f", m / 1024 }' "$work/samples") / $(awk -v b="$baseline" '$1 > b && $2 > m { m = $2 } END { printf "%.1f", m / 1024 }' "$work/samples")"
echo "  descriptors, lowest / highest over the run: $(awk 'NR == 1 || $3 < m { m = $3 } END { print m }' "$work/samples") / $(awk '$3 > m { m = $3 } END { print m }' "$work/samples")"
printf '  %-40s %12s %12s %12s %12s  %s\n' "figure" "cycle $baseline" "cycle $cycles" "growth" "target" "verdict"
printf '  %-40s %12s %12s %12s %12s  %s\n' "RSS (MiB), medians of $first_window, $last_window" "$(mib "$rss50")" "$(mib "$rssN")" "$rss_growth" "< 2" "$(verdict "$rss_ok")"
printf '  %-40s %12s %12s %12s %12s  %s\n' "open descriptors (fewest of 10 cycles)" "$fd50" "$fdN" "$fd_growth" "0" "$(verdict "$fd_ok")"
[ "$fd_ok" = 1 ] || echo "  descriptors after the last cycle, by kind: $(awk 'NR > 1 { t = $NF; sub(/:.*/, "", t); sub(/^\/.*/, "file", t); n[t]++ } END { for (k in n) printf "%s %d  ", k, n[k] }' "$work/fds.end")"
[ "$rss_ok" = 1 ] && [ "$fd_ok" = 1 ]
