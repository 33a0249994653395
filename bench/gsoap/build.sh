#!/usr/bin/env bash
# Builds the gSOAP side of the benchmark from tests/wsdl/large_objects.wsdl into <outdir>:
#   wsdl2h -c large_objects.wsdl      -> <outdir>/gen/lo.h
#   soapcpp2 -c lo.h                  -> <outdir>/gen/soap{H,Stub,C,Client,Server}.* + nsmap
#   gcc -O2 server.c + generated      -> <outdir>/lo-server  (Echo/Ping, SOAP 1.1 and 1.2; with
#                                        tests/peers/gsoap/common/peer_main.c)
#   gcc -O2 client.c + generated      -> <outdir>/lo-client  (the generated C client, see client.c)
# Nothing is written into the source tree (tests/peers/gsoap/common/lib.sh does the steps).
# Needs gsoap, libgsoap-dev, pkg-config, gcc (.ci/install-peers.sh installs them).
set -euo pipefail

src="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$src/../.." && pwd)"
# shellcheck source=../../tests/peers/gsoap/common/lib.sh
source "$root/tests/peers/gsoap/common/lib.sh"
peer_begin "$@"

peer_typemap 'b = "urn:soapgen:bench"'
cp "$root/tests/wsdl/large_objects.wsdl" "$gen/large_objects.wsdl"
generate() {
  wsdl2h -c -t typemap.dat -o lo.h large_objects.wsdl
  # -c: C  -L: no soapClientLib/soapServerLib  -x: no sample XML  -w: no WSDL/XSD output
  soapcpp2 -c -L -x -w -d . -I"$gsoap_share/import" lo.h
}
peer_generate generate

peer_gcc lo-server -O2 -- "$src/server.c" "$gen/soapServer.c" "$gen/soapC.c" "$PEER_MAIN_C"
peer_gcc lo-client -O2 -- "$src/client.c" "$gen/soapClient.c" "$gen/soapC.c" -lm
peer_publish lo-server lo-client
