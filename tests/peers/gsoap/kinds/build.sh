#!/usr/bin/env bash
# Build the gSOAP echo peer of the XSD kinds (tests/wsdl/kinds.wsdl: substitution groups,
# complexContent extension and restriction, enumerations, lists, unions, facets, nillable, default
# and fixed values, wildcards, mixed content, anyType, names in two namespaces) into <outdir>:
#   wsdl2h -c -d  kinds.wsdl  -> <outdir>/gen/kinds.h
#   soapcpp2 -c -S kinds.h    -> <outdir>/gen/soap{H,Stub,C,Server}.* + .nsmap
#   gcc server.c + generated + ../common/peer_main.c -> <outdir>/kinds-server
# -d: xs:any, xs:anyAttribute, mixed content and xs:anyType become gSOAP DOM nodes (without it
# wsdl2h makes xs:anyAttribute "a placeholder that has no effect" and drops what it matches).
# Nothing is written into the source tree.  Idempotent (see ../common/lib.sh).
#
# Needs: gsoap (wsdl2h, soapcpp2, /usr/share/gsoap/WS/typemap.dat, import/dom.h),
#   libgsoap-dev, pkg-config, gcc
#   (apt-get install -y gsoap libgsoap-dev pkg-config gcc)
set -euo pipefail

src_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common/lib.sh
source "$src_dir/../common/lib.sh"
peer_need_share import/dom.h
peer_begin "$@"

# Stock typemap + bind the prefixes "k" and "o" to the WSDL's two namespaces (instead of ns1, ns2).
peer_typemap 'k = "urn:soapgen:kinds"' 'o = "urn:soapgen:kinds:other"'

cp "$src_dir/../../../wsdl/kinds.wsdl" "$gen/kinds.wsdl"
generate() {
  wsdl2h -c -d -t typemap.dat -o kinds.h kinds.wsdl
  # -c: C  -S: server side only  -L: no soapServerLib  -x: no sample XML
  # -w: no WSDL/XSD output  -I: dom.h
  soapcpp2 -c -S -L -x -w -d . -I"$gsoap_share/import" kinds.h
}
peer_generate generate

peer_gcc kinds-server -O2 -g -- \
  "$src_dir/server.c" "$gen/soapServer.c" "$gen/soapC.c" "$PEER_MAIN_C"
peer_publish kinds-server
