#!/usr/bin/env bash
# Build the gSOAP SOAP-with-Attachments interop peer into <outdir>:
#   wsdl2h -c  swa.wsdl       -> <outdir>/gen/swa.h  (the mime:multipartRelated
#                                bindings become documentation of the operations)
#   soapcpp2 -c -S swa.h      -> <outdir>/gen/soap{H,Stub,C,Server}.* + .nsmap
#   gcc server.c + generated + ../common/peer_main.c -> <outdir>/swa-server
# Nothing is written into the source tree.  Idempotent: every run regenerates
# into a fresh temporary directory and atomically replaces <outdir>/gen and
# <outdir>/swa-server (see ../common/lib.sh).
#
# Needs: gsoap (wsdl2h, soapcpp2, /usr/share/gsoap/WS/typemap.dat),
#   libgsoap-dev, pkg-config, gcc
#   (apt-get install -y gsoap libgsoap-dev pkg-config gcc)
set -euo pipefail

src_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common/lib.sh
source "$src_dir/../common/lib.sh"
peer_begin "$@"

# Stock typemap + the prefixes "p" (our namespace) and "wsi" (swaRef's).
peer_typemap \
  'p = "urn:soapgen:swa"' \
  'wsi = "http://ws-i.org/profiles/basic/1.1/xsd"'

cp "$src_dir/swa.wsdl" "$gen/swa.wsdl"
generate() {
  wsdl2h -c -t typemap.dat -o swa.h swa.wsdl
  # The MIME binding must have been read (as documentation of EchoPhoto).
  grep -q 'method-input-mime-type:.*EchoPhoto' swa.h || { echo "wsdl2h ignored the mime:multipartRelated binding" >&2; exit 1; }
  # -c: C  -S: server side only  -L: no soapServerLib  -x: no sample XML
  # -w: no WSDL/XSD output
  soapcpp2 -c -S -L -x -w -d . -I"$gsoap_share/import" swa.h
}
peer_generate generate

peer_gcc swa-server -O2 -g -- \
  "$src_dir/server.c" "$gen/soapServer.c" "$gen/soapC.c" "$PEER_MAIN_C"
peer_publish swa-server
