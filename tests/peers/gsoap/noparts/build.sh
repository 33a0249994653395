#!/usr/bin/env bash
# Build the gSOAP peer of tests/wsdl/noparts.wsdl (input messages with no parts: every request's
# SOAP Body is empty) into <outdir>:
#   wsdl2h -c  noparts.wsdl     -> <outdir>/gen/noparts.h
#   soapcpp2 -a -c -S noparts.h -> <outdir>/gen/soap{H,C,Server}.* + .nsmap
#     (-a: dispatch on SOAPAction, the only thing that tells two empty requests apart)
#   gcc server.c + generated + ../common/peer_main.c -> <outdir>/noparts-server
# Nothing is written into the source tree.  Idempotent (see ../common/lib.sh).
#
# Needs: gsoap (wsdl2h, soapcpp2, /usr/share/gsoap/WS/typemap.dat),
#   libgsoap-dev, pkg-config, gcc
#   (apt-get install -y gsoap libgsoap-dev pkg-config gcc)
set -euo pipefail

src_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common/lib.sh
source "$src_dir/../common/lib.sh"
peer_begin "$@"

# Stock typemap + bind the prefix "np" to the WSDL's namespace (instead of ns1).
peer_typemap 'np = "urn:soapgen:noparts"'

cp "$src_dir/../../../wsdl/noparts.wsdl" "$gen/noparts.wsdl"
generate() {
  wsdl2h -c -t typemap.dat -o noparts.h noparts.wsdl
  # -a: dispatch on SOAPAction  -c: C  -S: server side only  -L: no soapServerLib
  # -x: no sample XML  -w: no WSDL/XSD output
  soapcpp2 -a -c -S -L -x -w -d . -I"$gsoap_share/import" noparts.h
}
peer_generate generate

peer_gcc noparts-server -O2 -g -- \
  "$src_dir/server.c" "$gen/soapServer.c" "$gen/soapC.c" "$PEER_MAIN_C"
peer_publish noparts-server
