#!/usr/bin/env bash
# Build the gSOAP WS-Security interop peer into <outdir>:
#   wsdl2h -c  wsse.wsdl      -> <outdir>/gen/echo_wsse.h (+ #import "wsse.h")
#   soapcpp2 -c echo_wsse.h   -> <outdir>/gen/soap{H,Stub,C,Client,Server}.* + .nsmap
#   gcc server.c + peer_wsse.c + generated + gSOAP's plugin/{wsseapi,smdevp,mecevp}.c
#       + custom/struct_timeval.c
#       + ../common/peer_main.c              -> <outdir>/wsse-server
#   gcc client.c + peer_wsse.c + generated + the same plugin sources
#                                            -> <outdir>/wsse-client
# Nothing is written into the source tree.  Idempotent: every run regenerates
# into a fresh temporary directory and atomically replaces <outdir>/gen and
# the binaries (see ../common/lib.sh).
#
# Needs: gsoap (wsdl2h, soapcpp2, /usr/share/gsoap/import/wsse.h and
#   plugin/wsseapi.c ...), libgsoap-dev (libgsoapssl, pkg-config gsoapssl),
#   libssl-dev (OpenSSL 3 headers), zlib1g-dev, pkg-config, gcc
#   (apt-get install -y gsoap libgsoap-dev libssl-dev zlib1g-dev pkg-config gcc)
set -euo pipefail

src_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common/lib.sh
source "$src_dir/../common/lib.sh"
PEER_INSTALL_HINT="apt-get install -y gsoap libgsoap-dev libssl-dev zlib1g-dev pkg-config gcc"
peer_need_share import/wsse.h plugin/wsseapi.c plugin/wsseapi.h plugin/smdevp.c plugin/mecevp.c plugin/threads.h custom/struct_timeval.c custom/struct_timeval.h
peer_use_pkg gsoapssl
peer_begin "$@"

if ! echo '#include <openssl/evp.h>' | gcc -E -x c - >/dev/null 2>&1; then
  echo "build.sh: OpenSSL headers not found ($PEER_INSTALL_HINT)" >&2
  exit 3
fi

# Stock typemap (it binds wsse, wsu, ds, xenc) + the prefix "w" for our
# namespace + #import "wsse.h" into the generated header, so that the SOAP
# Header carries wsse:Security (the WSDL has no WS-Policy that would make
# wsdl2h add it).  Text between [ and ] is copied verbatim.
peer_typemap \
  'w = "urn:soapgen:wsse"' \
  '[' \
  '#import "wsse.h"' \
  ']'

cp "$src_dir/wsse.wsdl" "$gen/wsse.wsdl"
# The plugin sources are compiled with the generated soapH.h: copy them next
# to it (the client and the server share one generated data binding).
for f in wsseapi.c wsseapi.h smdevp.c smdevp.h mecevp.c mecevp.h threads.h; do
  cp "$gsoap_share/plugin/$f" "$gen/$f"
done
# wsse.h imports the SAML schemas, whose xsd:dateTime is a struct timeval.
cp "$gsoap_share/custom/struct_timeval.c" "$gsoap_share/custom/struct_timeval.h" "$gen/"
generate() {
  # Not "wsse.h": that name is gSOAP's own header, which the typemap imports.
  wsdl2h -c -t typemap.dat -o echo_wsse.h wsse.wsdl
  grep -q '^#import "wsse.h"' echo_wsse.h || { echo "wsdl2h dropped the wsse import" >&2; exit 1; }
  # -c: C  -L: no soapClientLib/soapServerLib  -x: no sample XML
  # -w: no WSDL/XSD output  -I: wsse.h, wsu.h, ds.h, xenc.h, c14n.h ...
  soapcpp2 -c -L -x -w -d . -I"$gsoap_share/import" echo_wsse.h
}
peer_generate generate

# wsseapi.c uses threads.h's MUTEX_* without including it (its callers do);
# OpenSSL 3 deprecates the HMAC_* calls in smdevp.c: not our warnings.
cflags=(-O1 -g -I"$src_dir" -include "$gen/threads.h" -Wno-deprecated-declarations)
plugin=("$src_dir/peer_wsse.c" "$gen/wsseapi.c" "$gen/smdevp.c" "$gen/mecevp.c" "$gen/struct_timeval.c")
peer_gcc wsse-server "${cflags[@]}" -- \
  "$src_dir/server.c" "$gen/soapServer.c" "$gen/soapC.c" "${plugin[@]}" "$PEER_MAIN_C" \
  -lssl -lcrypto -lz
peer_gcc wsse-client "${cflags[@]}" -- \
  "$src_dir/client.c" "$gen/soapClient.c" "$gen/soapC.c" "${plugin[@]}" \
  -lssl -lcrypto -lz
peer_publish wsse-server wsse-client
