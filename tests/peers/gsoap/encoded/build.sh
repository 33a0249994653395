#!/usr/bin/env bash
# Build the gSOAP rpc/encoded (SOAP 1.1 section 5) interop peer into <outdir>:
#   wsdl2h -c  encoded.wsdl   -> <outdir>/gen/encoded.h
#   soapcpp2 -c encoded.h     -> <outdir>/gen/soap{H,Stub,C,Server,Client}.* + .nsmap
#   gcc server.c + generated + ../common/peer_main.c -> <outdir>/encoded-server
#   gcc client.c + generated  -> <outdir>/encoded-client (gSOAP's client, see client.c)
# Nothing is written into the source tree.  Idempotent: every run regenerates
# into a fresh temporary directory and atomically replaces <outdir>/gen and
# <outdir>/encoded-server and <outdir>/encoded-client (see ../common/lib.sh).
#
# Needs: gsoap (wsdl2h, soapcpp2, /usr/share/gsoap/WS/typemap.dat),
#   libgsoap-dev, pkg-config, gcc
#   (apt-get install -y gsoap libgsoap-dev pkg-config gcc)
set -euo pipefail

src_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common/lib.sh
source "$src_dir/../common/lib.sh"
peer_begin "$@"

# Stock typemap + bind the prefix "e" to our namespace (instead of ns1).
peer_typemap 'e = "urn:soapgen:encoded"'

cp "$src_dir/encoded.wsdl" "$gen/encoded.wsdl"
generate() {
  wsdl2h -c -t typemap.dat -o encoded.h encoded.wsdl
  # -c: C (server and client side)  -L: no soap{Server,Client}Lib  -x: no sample XML
  # -w: no WSDL/XSD output
  soapcpp2 -c -L -x -w -d . -I"$gsoap_share/import" encoded.h
}
peer_generate generate

peer_gcc encoded-server -O2 -g -- \
  "$src_dir/server.c" "$gen/soapServer.c" "$gen/soapC.c" "$PEER_MAIN_C"
peer_gcc encoded-client -O1 -g -- \
  "$src_dir/client.c" "$gen/soapClient.c" "$gen/soapC.c"
peer_publish encoded-server encoded-client
