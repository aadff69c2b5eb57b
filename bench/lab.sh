# Sourced by the bench scripts: starts the release lab on $http_port/$https_port with its state
# in $work/lab, stops it when the script exits, and fails with its log if it does not come up.
# Its other listeners (DNS, the rank edges, gRPC) take ports the system picks (their numbers are
# in $work/lab/ready), so two benches, or a bench and `make lab`, never clash.
#   start_lab BIN_DIR NAME [LAB OPTION...]   (NAME: the bench, for the error message)
start_lab() {
  "$1/runner-lab" --http-port "$http_port" --https-port "$https_port" --dns-port 0 --rank-port 0 --grpc-tls-port 0 --grpc-port 0 --state-dir "$work/lab" "${@:3}" > "$work/lab.log" 2>&1 &
  lab=$!
  trap 'kill $lab 2>/dev/null; wait $lab 2>/dev/null' EXIT
  for _ in $(seq 1 100); do [ -f "$work/lab/ready" ] && break; sleep 0.1; done
  [ -f "$work/lab/ready" ] || { echo "$2: the lab did not start"; cat "$work/lab.log"; exit 1; }
}
