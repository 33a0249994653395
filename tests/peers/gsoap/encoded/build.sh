#!/usr/bin/env bash
# Build the gSOAP rpc/encoded (SOAP 1.1 section 5) interop peer into <outdir>:
#   wsdl2h -c  encoded.wsdl   -> <outdir>/gen/encoded.h
#   soapcpp2 -c -S encoded.h  -> <outdir>/gen/soap{H,Stub,C,Server}.* + .nsmap
#   gcc server.c + generated  -> <outdir>/encoded-server
# Nothing is written into the source tree.  Idempotent: every run regenerates
# into a fresh temporary directory and atomically replaces <outdir>/gen and
# <outdir>/encoded-server.
#
# Needs: gsoap (wsdl2h, soapcpp2, /usr/share/gsoap/WS/typemap.dat),
#   libgsoap-dev, pkg-config, gcc
#   (apt-get install -y gsoap libgsoap-dev pkg-config gcc)
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 <outdir>" >&2
  exit 2
fi

missing=()
for tool in wsdl2h soapcpp2 pkg-config gcc mktemp; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "build.sh: missing tools: ${missing[*]} (apt-get install -y gsoap libgsoap-dev pkg-config gcc)" >&2
  exit 3
fi
if ! pkg-config --exists gsoap; then
  echo "build.sh: pkg-config cannot find gsoap (apt-get install -y libgsoap-dev)" >&2
  exit 3
fi

src_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$1"
out_dir="$(cd "$1" && pwd)"

gsoap_share=""
for d in /usr/share/gsoap /usr/local/share/gsoap; do
  if [[ -f "$d/WS/typemap.dat" && -d "$d/import" ]]; then
    gsoap_share="$d"
    break
  fi
done
if [[ -z "$gsoap_share" ]]; then
  echo "build.sh: gSOAP data files not found (/usr/share/gsoap/WS/typemap.dat; apt-get install -y gsoap)" >&2
  exit 3
fi

work="$(mktemp -d "$out_dir/.build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
gen="$work/gen"
mkdir -p "$gen"

# Stock typemap + bind the prefix "e" to our namespace (instead of ns1).
{
  cat "$gsoap_share/WS/typemap.dat"
  echo
  echo 'e = "urn:soapgen:encoded"'
} > "$gen/typemap.dat"

cp "$src_dir/encoded.wsdl" "$gen/encoded.wsdl"
(
  cd "$gen"
  wsdl2h -c -t typemap.dat -o encoded.h encoded.wsdl
  # -c: C  -S: server side only  -L: no soapServerLib  -x: no sample XML
  # -w: no WSDL/XSD output
  soapcpp2 -c -S -L -x -w -d . -I"$gsoap_share/import" encoded.h
) > "$work/generate.log" 2>&1 || {
  cat "$work/generate.log" >&2
  echo "build.sh: code generation failed" >&2
  exit 1
}

# shellcheck disable=SC2046  # word splitting of pkg-config output is intended
gcc -std=gnu99 -O2 -g -Wall \
  -I"$gen" \
  $(pkg-config --cflags gsoap) \
  -o "$work/encoded-server" \
  "$src_dir/server.c" "$gen/soapServer.c" "$gen/soapC.c" \
  $(pkg-config --libs gsoap) -lpthread

# Publish: replace previous outputs.
rm -rf "$out_dir/gen"
mv "$gen" "$out_dir/gen"
mv -f "$work/encoded-server" "$out_dir/encoded-server"
echo "built $out_dir/encoded-server"
