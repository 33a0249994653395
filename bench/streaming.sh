#!/usr/bin/env bash
# bench/streaming.sh: a streamed response of millions of rows against the in-memory reader, in
# ONE run, with the goals checked.
#
#   bash bench/streaming.sh            # 10,000,000 rows (1.99 GB) streamed over loopback; the
#                                      # in-memory reader over 200,000 rows (40 MB), best of 5;
#                                      # a 1 GiB MTOM attachment written to a file
#   bash bench/streaming.sh ROWS       # another number of streamed rows
#   bash bench/streaming.sh --smoke    # 20,000 rows, dev build: the harness works (CI); no goal
#
# What runs (bench/harness/src/stream.rs): `soapgen-bench stream-serve ROWS` answers each call
# with a Content-Length body of ROWS report rows (~199 bytes of XML each) in 256 KiB writes;
# `stream-read URL streamed` reads them with the generated `…_stream` method (ItemStream, the
# reqwest transport), `stream-read URL buffered` with the plain method (the whole body, then a
# Vec: run with at most 1,000,000 rows, which it holds at once), and `stream-memory` decodes an
# envelope held in memory with the same reader and no network. `mtom-serve BYTES` answers with
# an MTOM response whose document's content is a BYTES binary part, and `mtom-read URL DIR`
# calls it with an AttachmentStore in DIR, then checks the file against what was sent. Peak RSS
# is the reading process's VmHWM.
#
# Goals: peak RSS of the streamed read <= 64 MiB, and its MB/s (end to end, network and server
# included) >= 80% of the in-memory reader's; peak RSS of the MTOM read <= 64 MiB.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=10000000 PROFILE=release SMOKE=0 MTOM_BYTES=1073741824
case "${1:-}" in
  --smoke) ROWS=20000 PROFILE=debug SMOKE=1 MTOM_BYTES=8388608 ;;
  "") ;;
  -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) ROWS=$1 ;;
esac
TARGET=$(cargo metadata --format-version 1 --no-deps 2>/dev/null \
  | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])' \
  || echo "$PWD/target")
if [[ $PROFILE == release ]]; then
  cargo build -q --release -p soapgen-bench
else
  cargo build -q -p soapgen-bench
fi
BIN="$TARGET/$PROFILE/soapgen-bench"
URLFILE=$(mktemp) MTOMFILE=$(mktemp) STORE=$(mktemp -d)
"$BIN" stream-serve "$ROWS" >"$URLFILE" &
SERVER=$!
"$BIN" mtom-serve "$MTOM_BYTES" >"$MTOMFILE" &
MTOM_SERVER=$!
trap 'kill $SERVER $MTOM_SERVER 2>/dev/null || true; rm -rf "$URLFILE" "$MTOMFILE" "$STORE"' EXIT
for _ in $(seq 50); do [[ -s $URLFILE && -s $MTOMFILE ]] && break; sleep 0.1; done
URL=$(head -1 "$URLFILE")
MTOM_URL=$(head -1 "$MTOMFILE")
[[ -n $URL && -n $MTOM_URL ]] || { echo "streaming.sh: the servers did not start" >&2; exit 1; }
MEM_ROWS=200000 ITERS=5
[[ $SMOKE -eq 1 ]] && MEM_ROWS=20000 ITERS=1
echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo ?), load $(cut -d' ' -f1-3 /proc/loadavg)"
memory=$("$BIN" stream-memory "$MEM_ROWS" "$ITERS")
echo "$memory"
streamed=$("$BIN" stream-read "$URL" streamed)
echo "$streamed"
if [[ $ROWS -le 1000000 ]]; then
  "$BIN" stream-read "$URL" buffered
fi
mtom=$("$BIN" mtom-read "$MTOM_URL" "$STORE")
echo "$mtom"
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" <<<"$2"; }
rows=$(field rows "$streamed")
[[ $rows -eq $ROWS ]] || { echo "streaming.sh: $rows rows read of $ROWS" >&2; exit 1; }
[[ $SMOKE -eq 1 ]] && exit 0
/usr/bin/python3 - "$(field mb_per_s "$memory")" "$(field mb_per_s "$streamed")" "$(field peak_rss_kib "$streamed")" "$(field peak_rss_kib "$mtom")" <<'PY'
import sys
mem, streamed, rss, mtom = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
ratio = streamed / mem
print(f"streamed / in-memory MB/s: {ratio:.2f} (goal >= 0.80: {'met' if ratio >= 0.8 else 'MISSED'})")
print(f"streamed peak RSS: {rss / 1024:.1f} MiB (goal <= 64 MiB: {'met' if rss <= 64 * 1024 else 'MISSED'})")
print(f"MTOM attachment to a file, peak RSS: {mtom / 1024:.1f} MiB (goal <= 64 MiB: {'met' if mtom <= 64 * 1024 else 'MISSED'})")
PY
