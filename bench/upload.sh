#!/usr/bin/env bash
# The 1 GiB streamed upload: runner's peak RSS next to curl's for the same upload, same run.
# Usage: bench/upload.sh BIN_DIR  (release binaries of runner and runner-lab)
set -euo pipefail
bin=${1:?bin dir}
work=.bench/upload
size_mib=${UPLOAD_MIB:-1024}
http_port=${BENCH_HTTP_PORT:-19080}
https_port=${BENCH_HTTPS_PORT:-19443}
mkdir -p "$work"
payload="$work/payload.bin"
if [ "$(stat -c %s "$payload" 2>/dev/null || echo 0)" != "$((size_mib << 20))" ]; then
  head -c "$((size_mib << 20))" /dev/urandom > "$payload"
fi
sha=$(sha256sum "$payload" | cut -d' ' -f1)

source "$(dirname "$0")/lab.sh"
start_lab "$bin" upload

cat > "$work/plan.yaml" <<PLAN
version: 1
name: upload
defaults: {ca: lab/ca.pem, timeout: 10m, domains: lab}
domains: {lab: {static: {api.lab.test: [127.0.0.2]}}}
scenarios:
  - name: ${size_mib} MiB streamed upload
    strategy: sni-resolve
    request:
      method: POST
      url: https://api.lab.test:${https_port}/echo
      body_file: payload.bin
    expect:
      body: {json: {"\$.body_length": $((size_mib << 20)), "\$.body_sha256": "$sha"}}
PLAN

rss() { grep "Maximum resident set size" "$1" | awk '{print $NF}'; }
wall() { grep "Elapsed (wall clock)" "$1" | awk '{print $NF}'; }

/usr/bin/time -v "$bin/runner" -q "$work/plan.yaml" > "$work/runner.out" 2> "$work/runner.time" || {
  cat "$work/runner.out" "$work/runner.time"; exit 1; }
/usr/bin/time -v curl -sS -o "$work/curl.out" -T "$payload" -X POST --cacert "$work/lab/ca.pem" \
  --connect-to "api.lab.test:${https_port}:127.0.0.2:${https_port}" \
  "https://api.lab.test:${https_port}/echo" 2> "$work/curl.time"
grep -q "\"body_sha256\":\"$sha\"" "$work/curl.out" || grep -q "$sha" "$work/curl.out" || {
  echo "curl's upload did not arrive intact"; exit 1; }

runner_rss=$(rss "$work/runner.time"); curl_rss=$(rss "$work/curl.time")
printf '\n%-34s %12s %12s %8s\n' "upload ${size_mib} MiB (sni-resolve)" runner curl ratio
printf '%-34s %9d KiB %9d KiB %8.2f\n' "peak RSS" "$runner_rss" "$curl_rss" "$(echo "$runner_rss / $curl_rss" | bc -l)"
printf '%-34s %12s %12s\n' "wall time" "$(wall "$work/runner.time")" "$(wall "$work/curl.time")"
[ "$runner_rss" -lt $((64 * 1024)) ] && echo "target: runner peak RSS < 64 MiB — met" || { echo "target: runner peak RSS < 64 MiB — NOT met"; exit 1; }
