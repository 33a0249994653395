#!/usr/bin/env bash
# Build the gSOAP interop peer into <outdir>:
#   wsdl2h -c  echo.wsdl      -> <outdir>/gen/echo.h
#   soapcpp2 -c echo.h        -> <outdir>/gen/soap{H,Stub,C,Server,Client}.* + .nsmap
#   gcc server.c + generated + common/peer_main.c -> <outdir>/echo-server
#   gcc client.c + generated                      -> <outdir>/echo-client (gSOAP's client,
#                                                    calling servers under test)
# Nothing is written into the source tree.  Idempotent: every run regenerates
# into a fresh temporary directory and atomically replaces <outdir>/gen and
# <outdir>/echo-server (see common/lib.sh).
#
# Needs: gsoap (wsdl2h, soapcpp2), libgsoap-dev, pkg-config, gcc
#   (apt-get install -y gsoap libgsoap-dev pkg-config gcc)
set -euo pipefail

src_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common/lib.sh
source "$src_dir/common/lib.sh"
peer_begin "$@"

# Stock typemap + bind the prefix "g" to our namespace (instead of ns1).
peer_typemap 'g = "urn:soapgen:gsoap"'

cp "$src_dir/echo.wsdl" "$gen/echo.wsdl"
generate() {
  wsdl2h -c -t typemap.dat -o echo.h echo.wsdl
  # -c: C (server and client side)  -L: no soap{Server,Client}Lib  -x: no sample XML
  # -w: no WSDL/XSD output  -I: soap12.h etc.
  soapcpp2 -c -L -x -w -d . -I"$gsoap_share/import" echo.h
}
peer_generate generate

peer_gcc echo-server -O1 -g -- \
  "$src_dir/server.c" "$gen/soapServer.c" "$gen/soapC.c" "$PEER_MAIN_C"
peer_gcc echo-client -O1 -g -- \
  "$src_dir/client.c" "$gen/soapClient.c" "$gen/soapC.c"
peer_publish echo-server echo-client
