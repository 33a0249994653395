#!/usr/bin/env bash
# Runs every cargo-fuzz target (or those named) for SECONDS each, seeded from the project's test
# messages and WSDL corpus (tests/corpus), and prints one line per target: runs, executions, corpus size,
# crashes. Exits non-zero if a target found a crash (the input is in fuzz/artifacts/<target>/).
#
#   bash fuzz/run.sh 30                     # CI: ~30 s a target
#   bash fuzz/run.sh 600 base64_decode      # a long run of one target
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`); runs on the stable toolchain with
# RUSTC_BOOTSTRAP=1 (cargo-fuzz passes nightly-only sanitizer flags).
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_PER_TARGET="${1:-30}"
shift || true
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
  TARGETS=(base64_decode envelope_fault response_reader multipart wsdl_reader wss_verify)
fi
ROOT="$(cd .. && pwd)"
CORPUS="${SOAPGEN_CORPUS:-$ROOT/tests/corpus}"
export RUSTC_BOOTSTRAP=1

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked

seed() { # seed <target> <files...>: copies files into corpus/<target> (named by content hash)
  local dir="corpus/$1"; shift
  mkdir -p "$dir"
  for f in "$@"; do
    [ -f "$f" ] || continue
    cp "$f" "$dir/seed-$(sha1sum "$f" | cut -c1-16)"
  done
}
prefixed() { # prefixed <target> <byte> <files...>: seeds with a leading selector byte
  local dir="corpus/$1" byte="$2"; shift 2
  mkdir -p "$dir"
  for f in "$@"; do
    [ -f "$f" ] || continue
    { printf "\\x$byte"; cat "$f"; } > "$dir/seed-$byte-$(sha1sum "$f" | cut -c1-16)"
  done
}

CAPTURES="$ROOT/tests/peers/captures"
XML_SEEDS=("$CAPTURES"/globalweather/*response.xml "$CAPTURES"/gsoap-mtom/*.xml)
seed envelope_fault "${XML_SEEDS[@]}" seeds/*.xml
for b in 00 01 02 03 04 05; do prefixed response_reader "$b" seeds/chromedata-*.xml; done
seed base64_decode seeds/*.b64
mkdir -p corpus/multipart
for head in "$CAPTURES"/gsoap-mtom/*-mtom-response.http; do
  mime="${head%.http}.mime"
  ct="$(grep -i '^Content-Type:' "$head" | head -1 | cut -d' ' -f2- | tr -d '\r')"
  { printf '%s\n' "$ct"; cat "$mime"; } > "corpus/multipart/seed-$(basename "$mime")"
done
mkdir -p corpus/wsdl_reader
if [ -d "$CORPUS" ]; then
  # The smaller real WSDLs (imports and includes are left unresolved: the target holds three docs).
  find "$CORPUS" -name '*.wsdl' -size -24k | sort | head -150 | while read -r f; do
    cp "$f" "corpus/wsdl_reader/seed-$(sha1sum "$f" | cut -c1-16)"
  done
fi
# WS-Security: a throw-away key and self-signed certificate (made here, never checked in) that
# the wss_verify target trusts and decrypts with, and seeds signed and encrypted with them by
# xmlsec1 (needs openssl and xmlsec1).
export SOAPGEN_FUZZ_PKI="$PWD/target/fuzz-pki"
mkdir -p "$SOAPGEN_FUZZ_PKI" corpus/wss_verify
if [ ! -f "$SOAPGEN_FUZZ_PKI/cert.pem" ]; then
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$SOAPGEN_FUZZ_PKI/key.pem" \
    -out "$SOAPGEN_FUZZ_PKI/cert.pem" -days 36500 -subj "/CN=soapgen fuzz" 2>/dev/null
fi
WSU_NS=http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd
xmlsec1 --sign --privkey-pem "$SOAPGEN_FUZZ_PKI/key.pem,$SOAPGEN_FUZZ_PKI/cert.pem" \
  --id-attr:Id "$WSU_NS:Timestamp" --id-attr:Id http://schemas.xmlsoap.org/soap/envelope/:Body \
  --output "$SOAPGEN_FUZZ_PKI/signed.xml" seeds/wss/signed.tmpl.xml
xmlsec1 --encrypt --pubkey-cert-pem "$SOAPGEN_FUZZ_PKI/cert.pem" --session-key aes-128 \
  --xml-data seeds/wss/plain.xml --node-name http://schemas.xmlsoap.org/soap/envelope/:Body \
  --output "$SOAPGEN_FUZZ_PKI/encrypted.xml" seeds/wss/encrypted.tmpl.xml
for b in 00 01 02 03 07 09 11 20; do
  prefixed wss_verify "$b" "$SOAPGEN_FUZZ_PKI/signed.xml" "$SOAPGEN_FUZZ_PKI/encrypted.xml" \
    seeds/wss/plain.xml
done
# A dictionary of chromedata's names for the typed reader.
grep -o 'name="[A-Za-z0-9_]*"' wsdl/chromedata.wsdl | sed 's/name=//' | sort -u > chromedata.dict

status=0
for t in "${TARGETS[@]}"; do
  extra=()
  [ "$t" = response_reader ] && extra=(-dict=chromedata.dict)
  log="$(mktemp)"
  if cargo fuzz run -O "$t" "corpus/$t" -- -max_total_time="$SECONDS_PER_TARGET" \
      -rss_limit_mb=4096 -timeout=20 -max_len=65536 -print_final_stats=1 "${extra[@]}" >"$log" 2>&1; then
    result=ok
  else
    result="CRASH (see fuzz/artifacts/$t/)"
    status=1
    tail -40 "$log"
  fi
  execs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')"
  printf '%-16s %4ss  %12s execs  corpus %5s files  %s\n' "$t" "$SECONDS_PER_TARGET" "$execs" \
    "$(ls "corpus/$t" | wc -l)" "$result"
  rm -f "$log"
done
exit $status
