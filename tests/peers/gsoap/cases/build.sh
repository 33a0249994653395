#!/usr/bin/env bash
# Build the gSOAP peer of the issue-4 cases (tests/wsdl/cases: subcode.wsdl, unqualified.wsdl,
# no_namespace.wsdl, any_type.wsdl, xmime.wsdl; one server for all five services) into <outdir>:
#   wsdl2h -c  <the five WSDLs> -> <outdir>/gen/cases.h
#   soapcpp2 -c -S cases.h      -> <outdir>/gen/soap{H,C,Server}.* + .nsmap
#   gcc server.c + generated + ../common/peer_main.c -> <outdir>/cases-server
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

# Stock typemap + a prefix for each namespace of the WSDLs (instead of ns1, ns2 ...).
peer_typemap \
  'sc = "urn:soapgen:cases:subcode"' \
  'u = "urn:soapgen:cases:unq"' \
  'uq = "urn:soapgen:cases:unq:q"' \
  'nons = "urn:soapgen:cases:nons"' \
  'at = "urn:soapgen:cases:anytype"' \
  'xm = "urn:soapgen:cases:xmime"'

wsdls=(subcode.wsdl unqualified.wsdl no_namespace.wsdl any_type.wsdl xmime.wsdl)
for w in "${wsdls[@]}"; do
  cp "$src_dir/../../../wsdl/cases/$w" "$gen/$w"
done
generate() {
  wsdl2h -c -t typemap.dat -o cases.h "${wsdls[@]}"
  # -c: C  -S: server side only  -L: no soapServerLib  -x: no sample XML
  # -w: no WSDL/XSD output
  soapcpp2 -c -S -L -x -w -d . -I"$gsoap_share/import" cases.h
}
peer_generate generate

peer_gcc cases-server -O2 -g -- \
  "$src_dir/server.c" "$gen/soapServer.c" "$gen/soapC.c" "$PEER_MAIN_C"
peer_publish cases-server
