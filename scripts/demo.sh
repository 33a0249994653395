#!/usr/bin/env bash
# The main job, end to end on loopback: starts the spyne test service, calls it from the
# `#[soap_client]` trait example (async and blocking), prints the typed results, stops the service.
# Pass an endpoint to call another server instead: scripts/demo.sh http://host:port/soap11
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -ge 1 ]]; then
  exec cargo run -q -p soapgen-examples --bin trait_client -- "$1"
fi
if ! /usr/bin/python3 -c 'import spyne' 2>/dev/null; then
  if [[ "$(id -u)" -eq 0 ]]; then
    bash .ci/install-peers.sh
  else
    echo "demo.sh: spyne missing; run: sudo bash .ci/install-peers.sh" >&2
    exit 1
  fi
fi
cargo build -q -p soapgen-examples --bin trait_client
out=$(mktemp)
/usr/bin/python3 tests/peers/spyne_server.py --port 0 >"$out" 2>/dev/null &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -f "$out"' EXIT
for _ in $(seq 1 300); do
  grep -q LISTENING "$out" && break
  sleep 0.1
done
port=$(awk '/LISTENING/ {print $2}' "$out")
[[ -n "$port" ]] || { echo "demo.sh: spyne did not start" >&2; exit 1; }
cargo run -q -p soapgen-examples --bin trait_client -- "http://127.0.0.1:$port/soap11"
