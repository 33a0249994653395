#!/usr/bin/env bash
# Build the gSOAP model-group echo peer (tests/wsdl/groups.wsdl: choices, repeated choices and
# sequences, an element twice in one sequence) into <outdir>:
#   wsdl2h -c  groups.wsdl   -> <outdir>/gen/groups.h
#   soapcpp2 -c -S groups.h  -> <outdir>/gen/soap{H,Stub,C,Server}.* + .nsmap
#   gcc server.c + generated + ../common/peer_main.c -> <outdir>/groups-server
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

# Stock typemap + bind the prefix "g" to the WSDL's namespace (instead of ns1).
peer_typemap 'g = "urn:soapgen:groups"'

cp "$src_dir/../../../wsdl/groups.wsdl" "$gen/groups.wsdl"
generate() {
  wsdl2h -c -t typemap.dat -o groups.h groups.wsdl
  # -c: C  -S: server side only  -L: no soapServerLib  -x: no sample XML
  # -w: no WSDL/XSD output
  soapcpp2 -c -S -L -x -w -d . -I"$gsoap_share/import" groups.h
}
peer_generate generate

peer_gcc groups-server -O2 -g -- \
  "$src_dir/server.c" "$gen/soapServer.c" "$gen/soapC.c" "$PEER_MAIN_C"
peer_publish groups-server
