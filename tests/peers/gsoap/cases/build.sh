#!/usr/bin/env bash
# Build the gSOAP peer of tests/wsdl/cases/subcode.wsdl (SOAP 1.2 faults whose Subcode Values are
# QNames) into <outdir>:
#   wsdl2h -c  subcode.wsdl     -> <outdir>/gen/subcode.h
#   soapcpp2 -c -S subcode.h    -> <outdir>/gen/soap{H,C,Server}.* + .nsmap
#   gcc server.c + generated + ../common/peer_main.c -> <outdir>/subcode-server
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

# Stock typemap + bind the prefix "sc" to the WSDL's namespace (instead of ns1).
peer_typemap 'sc = "urn:soapgen:cases:subcode"'

cp "$src_dir/../../../wsdl/cases/subcode.wsdl" "$gen/subcode.wsdl"
generate() {
  wsdl2h -c -t typemap.dat -o subcode.h subcode.wsdl
  # -c: C  -S: server side only  -L: no soapServerLib  -x: no sample XML
  # -w: no WSDL/XSD output
  soapcpp2 -c -S -L -x -w -d . -I"$gsoap_share/import" subcode.h
}
peer_generate generate

peer_gcc subcode-server -O2 -g -- \
  "$src_dir/server.c" "$gen/soapServer.c" "$gen/soapC.c" "$PEER_MAIN_C"
peer_publish subcode-server
