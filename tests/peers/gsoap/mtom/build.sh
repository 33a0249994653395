#!/usr/bin/env bash
# Build the gSOAP MTOM/base64 interop peer into <outdir>:
#   wsdl2h -c  mtom.wsdl      -> <outdir>/gen/mtom.h   (+ #import "xop.h", "xmime5.h")
#   soapcpp2 -c mtom.h        -> <outdir>/gen/soap{H,Stub,C,Server,Client}.* + .nsmap
#   gcc server.c + generated + ../common/peer_main.c -> <outdir>/mtom-server
#   gcc client.c + generated  -> <outdir>/mtom-client (gSOAP's client, see client.c)
# Nothing is written into the source tree.  Idempotent: every run regenerates
# into a fresh temporary directory and atomically replaces <outdir>/gen and
# <outdir>/mtom-server and <outdir>/mtom-client (see ../common/lib.sh).
#
# Needs: gsoap (wsdl2h, soapcpp2, /usr/share/gsoap/import/{xop,xmime5}.h),
#   libgsoap-dev, pkg-config, gcc
#   (apt-get install -y gsoap libgsoap-dev pkg-config gcc)
set -euo pipefail

src_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common/lib.sh
source "$src_dir/../common/lib.sh"
peer_need_share import/xop.h import/xmime5.h
peer_begin "$@"

# Stock typemap + bind the prefix "m" to our namespace (instead of ns1) +
# import xop.h and xmime5.h into the generated header.  wsdl2h maps the
# xmime-annotated base64Binary elements to xsd__base64Binary (with id, type,
# options: MTOM-capable) on its own, but only emits the xop/xmime imports
# when a schema references xop:Include or an xmime type; without the "xop"
# entry in the namespace table an incoming <xop:Include> would not be
# recognised.  Text between [ and ] is copied into the header verbatim.
peer_typemap \
  'm = "urn:soapgen:mtom"' \
  '[' \
  '#import "xop.h"' \
  '#import "xmime5.h"' \
  ']'

cp "$src_dir/mtom.wsdl" "$gen/mtom.wsdl"
generate() {
  wsdl2h -c -t typemap.dat -o mtom.h mtom.wsdl
  grep -q '^#import "xop.h"' mtom.h || { echo "wsdl2h dropped the xop import" >&2; exit 1; }
  # -c: C (server and client side)  -L: no soap{Server,Client}Lib  -x: no sample XML
  # -w: no WSDL/XSD output  -I: soap12.h, xop.h, xmime5.h
  soapcpp2 -c -L -x -w -d . -I"$gsoap_share/import" mtom.h
}
peer_generate generate

peer_gcc mtom-server -O2 -g -- \
  "$src_dir/server.c" "$gen/soapServer.c" "$gen/soapC.c" "$PEER_MAIN_C"
peer_gcc mtom-client -O1 -g -- \
  "$src_dir/client.c" "$gen/soapClient.c" "$gen/soapC.c"
peer_publish mtom-server mtom-client
