#!/usr/bin/env bash
# The main job, end to end on loopback:
#  1. a typed client generated at build time from the real-world GlobalWeather WSDL
#     (examples/wsdl/globalweather.wsdl, by examples/build.rs) calls a live service: a gSOAP server
#     generated from the same WSDL and started here on loopback (or the service at --endpoint URL);
#     it prints typed results, client construction time and first-call latency;
#  2. the trait route: a `#[soap_client]` trait calls a spyne service (started here too).
#
#   scripts/demo.sh                         # embedded services on loopback
#   scripts/demo.sh --endpoint URL          # GlobalWeather at URL instead (part 1 only)
set -euo pipefail
cd "$(dirname "$0")/.."
endpoint=""
if [[ "${1:-}" == "--endpoint" ]]; then
  endpoint="${2:?--endpoint needs a URL}"
fi
if ! /usr/bin/python3 -c 'import spyne' 2>/dev/null || ! command -v soapcpp2 >/dev/null; then
  if [[ "$(id -u)" -eq 0 ]]; then
    bash .ci/install-peers.sh >&2
  else
    echo "demo.sh: peers missing; run: sudo bash .ci/install-peers.sh" >&2
    exit 1
  fi
fi
cargo build -q -p soapgen-examples --bins
pids=()
files=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for f in "${files[@]}"; do rm -f "$f"; done
}
trap cleanup EXIT
# Starts a server command that prints "LISTENING <port>"; sets $port.
start() {
  local out
  out=$(mktemp)
  files+=("$out")
  "$@" >"$out" 2>/dev/null &
  pids+=($!)
  for _ in $(seq 1 600); do
    grep -q LISTENING "$out" && break
    sleep 0.1
  done
  port=$(awk '/LISTENING/ {print $2}' "$out")
  [[ -n "$port" ]] || { echo "demo.sh: $1 did not start" >&2; exit 1; }
}
echo "== GlobalWeather: client generated from examples/wsdl/globalweather.wsdl"
if [[ -z "$endpoint" ]]; then
  start bash scripts/globalweather-server.sh --port 0
  endpoint="http://127.0.0.1:$port/globalweather.asmx"
  echo "(service: gSOAP server generated from the same WSDL, on loopback)"
fi
cargo run -q -p soapgen-examples --bin globalweather -- --endpoint "$endpoint"
if [[ $# -eq 0 ]]; then
  echo
  echo "== The trait route: #[soap_client] on a Rust trait, against spyne"
  start /usr/bin/python3 tests/peers/spyne_server.py --port 0
  cargo run -q -p soapgen-examples --bin trait_client -- "http://127.0.0.1:$port/soap11"
fi
