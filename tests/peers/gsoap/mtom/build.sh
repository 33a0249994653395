#!/usr/bin/env bash
# Build the gSOAP MTOM/base64 interop peer into <outdir>:
#   wsdl2h -c  mtom.wsdl      -> <outdir>/gen/mtom.h   (+ #import "xop.h", "xmime5.h")
#   soapcpp2 -c -S mtom.h     -> <outdir>/gen/soap{H,Stub,C,Server}.* + .nsmap
#   gcc server.c + generated  -> <outdir>/mtom-server
# Nothing is written into the source tree.  Idempotent: every run regenerates
# into a fresh temporary directory and atomically replaces <outdir>/gen and
# <outdir>/mtom-server.
#
# Needs: gsoap (wsdl2h, soapcpp2, /usr/share/gsoap/import/{xop,xmime5}.h),
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

# wsdl2h's stock typemap lives next to its import directory.
gsoap_share=""
for d in /usr/share/gsoap /usr/local/share/gsoap; do
  if [[ -f "$d/WS/typemap.dat" && -f "$d/import/xop.h" && -f "$d/import/xmime5.h" ]]; then
    gsoap_share="$d"
    break
  fi
done
if [[ -z "$gsoap_share" ]]; then
  echo "build.sh: gSOAP data files not found (/usr/share/gsoap/{WS/typemap.dat,import/xop.h,import/xmime5.h}; apt-get install -y gsoap)" >&2
  exit 3
fi

work="$(mktemp -d "$out_dir/.build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
gen="$work/gen"
mkdir -p "$gen"

# Stock typemap + bind the prefix "m" to our namespace (instead of ns1) +
# import xop.h and xmime5.h into the generated header.  wsdl2h maps the
# xmime-annotated base64Binary elements to xsd__base64Binary (with id, type,
# options: MTOM-capable) on its own, but only emits the xop/xmime imports
# when a schema references xop:Include or an xmime type; without the "xop"
# entry in the namespace table an incoming <xop:Include> would not be
# recognised.  Text between [ and ] is copied into the header verbatim.
{
  cat "$gsoap_share/WS/typemap.dat"
  echo
  echo 'm = "urn:soapgen:mtom"'
  echo '['
  echo '#import "xop.h"'
  echo '#import "xmime5.h"'
  echo ']'
} > "$gen/typemap.dat"

cp "$src_dir/mtom.wsdl" "$gen/mtom.wsdl"
(
  cd "$gen"
  wsdl2h -c -t typemap.dat -o mtom.h mtom.wsdl
  grep -q '^#import "xop.h"' mtom.h || { echo "wsdl2h dropped the xop import" >&2; exit 1; }
  # -c: C  -S: server side only  -L: no soapServerLib  -x: no sample XML
  # -w: no WSDL/XSD output  -I: soap12.h, xop.h, xmime5.h
  soapcpp2 -c -S -L -x -w -d . -I"$gsoap_share/import" mtom.h
) > "$work/generate.log" 2>&1 || {
  cat "$work/generate.log" >&2
  echo "build.sh: code generation failed" >&2
  exit 1
}

# shellcheck disable=SC2046  # word splitting of pkg-config output is intended
gcc -std=gnu99 -O2 -g -Wall \
  -I"$gen" \
  $(pkg-config --cflags gsoap) \
  -o "$work/mtom-server" \
  "$src_dir/server.c" "$gen/soapServer.c" "$gen/soapC.c" \
  $(pkg-config --libs gsoap) -lpthread

# Publish: replace previous outputs.
rm -rf "$out_dir/gen"
mv "$gen" "$out_dir/gen"
mv -f "$work/mtom-server" "$out_dir/mtom-server"
echo "built $out_dir/mtom-server"
