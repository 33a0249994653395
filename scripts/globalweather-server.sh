#!/usr/bin/env bash
# Runs the GlobalWeather SOAP service (a gSOAP server generated from
# examples/wsdl/globalweather.wsdl, see tests/peers/globalweather/) in the
# foreground, building it first if needed.  All arguments go to the server:
#
#   scripts/globalweather-server.sh --port 0          # prints "LISTENING <port>"
#   scripts/globalweather-server.sh --port 8080 --host 127.0.0.1 [--exit-with-parent]
#
# Build output goes to stderr, so the server's first stdout line is always
# "LISTENING <port>".  SOAP 1.1 and 1.2 on any path (e.g.
# http://127.0.0.1:<port>/globalweather.asmx), the WSDL at ...?wsdl.
#
# The binary lives where the Rust test harness (tests/src/peers.rs,
# soapgen_tests::peers::globalweather) builds it:
# ${CARGO_TARGET_DIR:-target}/peers/globalweather (relative paths are taken
# from the workspace root), with the same inputs.stamp and build.lock, so the
# two never rebuild for each other nor build concurrently.  The stamp is
# FNV-1a 64 over: stamp version (u64 LE), then per input its label, its
# length (u64 LE) and its bytes -- keep STAMP_VERSION and INPUTS in step with
# GLOBALWEATHER_PEER in tests/src/peers.rs.
#
# Needs: bash, od, gsoap + libgsoap-dev + pkg-config + gcc for the build
#   (apt-get install -y gsoap libgsoap-dev pkg-config gcc).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="${CARGO_TARGET_DIR:-target}"
[[ -n "$target" ]] || target=target
[[ "$target" == /* ]] || target="$root/$target"
out="$target/peers/globalweather"
bin="$out/globalweather-server"
stamp="$out/inputs.stamp"
lock="$out/build.lock"

STAMP_VERSION=1
INPUTS=( # label path-relative-to-the-workspace-root
  "build.sh" "tests/peers/globalweather/build.sh"
  "server.c" "tests/peers/globalweather/server.c"
  "globalweather.wsdl" "examples/wsdl/globalweather.wsdl"
  "common/lib.sh" "tests/peers/gsoap/common/lib.sh"
  "common/peer_main.h" "tests/peers/gsoap/common/peer_main.h"
  "common/peer_main.c" "tests/peers/gsoap/common/peer_main.c"
)
BUILD_LOCK_TIMEOUT=300 # seconds, as in peers.rs
STALE_LOCK_AGE=180

h=0
fnv_bytes() { # decimal byte values as arguments
  local b
  for b in "$@"; do
    ((h = (h ^ b) * 0x100000001b3))
  done
}
fnv_u64le() {
  local n="$1" i
  for i in 0 1 2 3 4 5 6 7; do
    fnv_bytes $(((n >> (8 * i)) & 0xff))
  done
}
inputs_hash() {
  local i label path
  ((h = 0xcbf29ce484222325))
  fnv_u64le "$STAMP_VERSION"
  for ((i = 0; i < ${#INPUTS[@]}; i += 2)); do
    label="${INPUTS[i]}"
    path="$root/${INPUTS[i + 1]}"
    [[ -r "$path" ]] || { echo "globalweather-server.sh: input $path unreadable" >&2; exit 1; }
    # shellcheck disable=SC2046  # one argument per byte
    fnv_bytes $(printf '%s' "$label" | od -An -v -tu1)
    fnv_u64le "$(wc -c < "$path")"
    # shellcheck disable=SC2046
    fnv_bytes $(od -An -v -tu1 "$path")
  done
  printf 'fnv1a64:%016x' "$h"
}

up_to_date() {
  [[ -x "$bin" && -f "$stamp" && "$(cat "$stamp" 2>/dev/null)" == "$want" ]]
}

# Same protocol as BuildLock in peers.rs: create_new a file holding
# "pid <n>"; take it over when its owner is gone or it is too old.
lock_is_stale() {
  local content pid age
  content="$(cat "$lock" 2>/dev/null)" || return 1 # vanished: retry
  pid="${content#pid }"
  if [[ "$content" == "pid "* && "$pid" =~ ^[0-9]+$ && -d /proc/self && ! -d "/proc/$pid" ]]; then
    echo "owner pid $pid is gone"
    return 0
  fi
  age=$(($(date +%s) - $(stat -c %Y "$lock" 2>/dev/null || date +%s)))
  if ((age > STALE_LOCK_AGE)); then
    echo "${age}s old"
    return 0
  fi
  return 1
}
acquire_lock() {
  local started=$SECONDS reason
  while ! (set -o noclobber; echo "pid $$" > "$lock") 2>/dev/null; do
    if reason="$(lock_is_stale)"; then
      echo "globalweather-server.sh: removing stale build lock $lock ($reason)" >&2
      rm -f "$lock"
      continue
    fi
    if ((SECONDS - started > BUILD_LOCK_TIMEOUT)); then
      echo "globalweather-server.sh: timed out waiting for the build lock $lock (delete it if no build is running)" >&2
      exit 1
    fi
    sleep 0.1
  done
  trap 'rm -f "$lock"' EXIT
}

mkdir -p "$out"
want="$(inputs_hash)"
if ! up_to_date; then
  acquire_lock
  if ! up_to_date; then # somebody else may have built it while we waited
    rm -f "$stamp"
    echo "globalweather-server.sh: building $bin" >&2
    bash "$root/tests/peers/globalweather/build.sh" "$out" >&2
    [[ -x "$bin" ]] || { echo "globalweather-server.sh: build did not produce $bin" >&2; exit 1; }
    printf '%s\n' "$want" > "$stamp.tmp.$$"
    mv -f "$stamp.tmp.$$" "$stamp"
  fi
  rm -f "$lock"
  trap - EXIT
fi

exec "$bin" "$@"
