#!/usr/bin/env bash
# bench/run.sh: soapgen side by side with the stacks users would pick instead, in ONE run.
#
#   bash bench/run.sh            # the recorded run: every comparison, results into
#                                # bench/results/<date>/, the section of docs/benchmarks.md rewritten
#                                # (~10 min on 2 quiet cores, ~14 min when others build)
#   bash bench/run.sh --with-codegen # + soapgen's construction of the larger corpus WSDLs' clients
#                                # via bench/codegen/run.sh --no-release (compiles each generated
#                                # crate: +5 min quiet, +25 min when others build)
#   bash bench/run.sh --quick    # every comparison with few iterations (~2 min), target/bench/quick
#   bash bench/run.sh --smoke    # a few calls of everything, dev build, no timings worth reading
#                                # (CI: proves the harness works), target/bench/smoke
#
# Run from anywhere (it cd's to the repo root).  On a fresh Debian 12 machine, as root, it installs
# what it needs first: the peers (.ci/install-peers.sh: gSOAP, spyne, zeep), GNU time (peak
# memory) and valgrind (instruction counts).  Not root and something missing: it says what to
# install.
#
# What runs (details: bench/README.md):
#   servers   a gSOAP server (bench/gsoap/server.c, generated from large_objects.wsdl by wsdl2h +
#             soapcpp2, gcc -O2) and a spyne server (bench/peers/spyne_large_objects.py) of
#             tests/wsdl/large_objects.wsdl (Echo, Ping; SOAP 1.1 and 1.2), on 127.0.0.1
#   clients   soapgen's client generated from the same WSDL (bench/harness, async and blocking,
#             reqwest transport and the runtime's hyper one; bench/startup for start-up), gSOAP's
#             generated C client (bench/gsoap/client.c), zeep (bench/zeep_client.py)
#   1 start-up: process start to first response; in-process construction; the larger corpus
#             WSDLs (construction only: no server implements them): zeep in every run, soapgen
#             with --with-codegen
#   2 latency of Echo(100 objects) p50/p90/p99; 3 throughput with 1/8/64 callers + peak memory;
#   4 serialization in memory (+ callgrind instruction counts); 5 reqwest vs hyper transport;
#   7 soak: 1,000 callers for 60 s, RSS, descriptors and tasks sampled every second.
#   8 faults: fourteen faults of a misbehaving loopback server, outcome, time against the timeout, requests.
#
# Output: bench/results/<UTC date>/{results.md,results.csv,*.svg,codegen/} and the section of docs/benchmarks.md
# between the "bench/run.sh" markers (full mode only); per-call samples in target/bench/raw-<mode>.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
MODE=full CODEGEN=0 README=1
for arg in "$@"; do
  case "$arg" in
    --quick) MODE=quick CODEGEN=0 README=0 ;;
    --smoke) MODE=smoke CODEGEN=0 README=0 ;;
    --with-codegen) CODEGEN=1 ;;
    --no-readme) README=0 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: unknown argument $arg (try --help)" >&2; exit 2 ;;
  esac
done

cd "$(dirname "$0")/.."
ROOT=$(pwd)
export CARGO_TERM_COLOR=never
T0=$(date +%s)
say() { echo "[bench/run.sh $(date +%H:%M:%S)] $*" >&2; }

# --- what the run needs -------------------------------------------------------------------------
need_peers=0
/usr/bin/python3 -c 'import spyne, zeep' 2>/dev/null || need_peers=1
command -v soapcpp2 >/dev/null && command -v wsdl2h >/dev/null || need_peers=1
pkg-config --exists gsoap 2>/dev/null || need_peers=1
pkgs=()
[[ -x /usr/bin/time ]] || pkgs+=(time)
[[ $MODE != smoke ]] && ! command -v valgrind >/dev/null && pkgs+=(valgrind)
if [[ $need_peers -eq 1 || ${#pkgs[@]} -gt 0 ]]; then
  if [[ "$(id -u)" -ne 0 ]]; then
    echo "run.sh: missing: $([[ $need_peers -eq 1 ]] && echo 'peers (sudo bash .ci/install-peers.sh)') ${pkgs[*]:-}" >&2
    exit 1
  fi
  [[ $need_peers -eq 1 ]] && { say "installing the peers (.ci/install-peers.sh)"; bash .ci/install-peers.sh >&2; }
  if [[ ${#pkgs[@]} -gt 0 ]]; then
    say "installing ${pkgs[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
  fi
fi

# --- builds -------------------------------------------------------------------------------------
TARGET=$(cargo metadata --format-version 1 --no-deps 2>/dev/null \
  | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])' \
  || echo "$ROOT/target")
say "building the gSOAP server and client (bench/gsoap/build.sh)"
bash bench/gsoap/build.sh "$TARGET/bench/gsoap" >&2
# The start-up client is built by a cargo run of its own, so that it links only what an app using
# the generated client would (soapgen-runtime's default features), not the harness's dependencies.
if [[ $MODE == smoke ]]; then
  say "building soapgen-bench and soapgen-bench-startup (dev)"
  cargo build -q -p soapgen-bench
  cargo build -q -p soapgen-bench-startup
  BIN="$TARGET/debug/soapgen-bench"
  STARTUP_BIN="$TARGET/debug/soapgen-bench-startup"
else
  say "building soapgen-bench and soapgen-bench-startup (release)"
  cargo build -q --release -p soapgen-bench
  cargo build -q --release -p soapgen-bench-startup
  BIN="$TARGET/release/soapgen-bench"
  STARTUP_BIN="$TARGET/release/soapgen-bench-startup"
fi

if [[ $MODE == full ]]; then
  OUT="$ROOT/bench/results/$(date -u +%Y-%m-%d)"
else
  OUT="$TARGET/bench/$MODE"
fi
rm -rf "$OUT"
mkdir -p "$OUT"

# Per-call samples stay out of the repository.
args=(run --out "$OUT" --gsoap-dir "$TARGET/bench/gsoap" --startup-exe "$STARTUP_BIN" --raw "$TARGET/bench/raw-$MODE")
[[ $MODE != full ]] && args+=("--$MODE")
if [[ $CODEGEN -eq 1 ]]; then
  say "larger WSDLs: bash bench/codegen/run.sh --no-release (log: $OUT/codegen/run.log)"
  mkdir -p "$OUT/codegen"
  if SOAPGEN_CODEGEN_RESULTS="$OUT/codegen" bash bench/codegen/run.sh --no-release \
      >"$OUT/codegen/run.log" 2>&1; then
    args+=(--codegen-csv "$OUT/codegen/codegen.csv")
  else
    say "bench/codegen/run.sh failed (see $OUT/codegen/run.log); going on without it"
  fi
fi
[[ $README -eq 1 ]] && args+=(--readme "$ROOT/docs/benchmarks.md")

say "measuring: $BIN ${args[*]}"
"$BIN" "${args[@]}"
say "done in $(( $(date +%s) - T0 )) s: $OUT/results.md"
