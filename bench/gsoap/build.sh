#!/usr/bin/env bash
# Builds the gSOAP side of the benchmark from ../shared/bench/large_objects.wsdl (the copy in
# tests/wsdl/large_objects.wsdl) into <outdir>:
#   wsdl2h -c large_objects.wsdl      -> <outdir>/gen/lo.h
#   soapcpp2 -c lo.h                  -> <outdir>/gen/soap{H,Stub,C,Client,Server}.* + nsmap
#   gcc -O2 server.c + generated      -> <outdir>/lo-server  (Echo/Ping, SOAP 1.1 and 1.2)
#   gcc -O2 client.c + generated      -> <outdir>/lo-client  (the generated C client, see client.c)
# Nothing is written into the source tree.  Needs gsoap, libgsoap-dev, pkg-config, gcc
# (.ci/install-peers.sh installs them).
set -euo pipefail
if [[ $# -ne 1 ]]; then
  echo "usage: $0 <outdir>" >&2
  exit 2
fi
for tool in wsdl2h soapcpp2 pkg-config gcc; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "build.sh: $tool missing (apt-get install -y gsoap libgsoap-dev pkg-config gcc)" >&2
    exit 3
  }
done
pkg-config --exists gsoap || { echo "build.sh: libgsoap-dev missing" >&2; exit 3; }
share=/usr/share/gsoap
[[ -f $share/WS/typemap.dat ]] || { echo "build.sh: $share/WS/typemap.dat missing (gsoap)" >&2; exit 3; }

src="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$src/../.." && pwd)"
mkdir -p "$1"
out="$(cd "$1" && pwd)"
work="$(mktemp -d "$out/.build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
gen="$work/gen"
mkdir -p "$gen"
{ cat "$share/WS/typemap.dat"; echo; echo 'b = "urn:soapgen:bench"'; } >"$gen/typemap.dat"
cp "$root/tests/wsdl/large_objects.wsdl" "$gen/large_objects.wsdl"
(
  cd "$gen"
  wsdl2h -c -t typemap.dat -o lo.h large_objects.wsdl
  # -c: C  -L: no soapClientLib/soapServerLib  -x: no sample XML  -w: no WSDL/XSD output
  soapcpp2 -c -L -x -w -d . -I"$share/import" lo.h
) >"$work/generate.log" 2>&1 || { cat "$work/generate.log" >&2; exit 1; }

# shellcheck disable=SC2046  # word splitting of pkg-config output is intended
gcc -std=gnu99 -O2 -Wall -I"$gen" $(pkg-config --cflags gsoap) -o "$work/lo-server" \
  "$src/server.c" "$gen/soapServer.c" "$gen/soapC.c" $(pkg-config --libs gsoap) -lpthread
# shellcheck disable=SC2046
gcc -std=gnu99 -O2 -Wall -I"$gen" $(pkg-config --cflags gsoap) -o "$work/lo-client" \
  "$src/client.c" "$gen/soapClient.c" "$gen/soapC.c" $(pkg-config --libs gsoap) -lpthread -lm

rm -rf "$out/gen"
mv "$gen" "$out/gen"
mv -f "$work/lo-server" "$work/lo-client" "$out/"
echo "built $out/lo-server $out/lo-client (gsoap $(pkg-config --modversion gsoap))"
