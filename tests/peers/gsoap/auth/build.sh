#!/usr/bin/env bash
# Build the gSOAP HTTP-authentication peer into <outdir>:
#   wsdl2h -c  ../echo.wsdl   -> <outdir>/gen/echo.h
#   soapcpp2 -c -S echo.h     -> <outdir>/gen/soap{H,C,Server}.* + .nsmap
#   gcc server.c + generated + gSOAP's plugin/{httpda,smdevp,threads}.c
#       + ../common/peer_main.c  (-lgsoapssl: OpenSSL)  -> <outdir>/auth-server
# The same echo service as ../server.c behind HTTP Digest (gSOAP's httpda plugin, RFC 7616)
# and/or TLS that requires a client certificate (server.c documents the command line).
# Nothing is written into the source tree (see ../common/lib.sh).
#
# Needs: gsoap (wsdl2h, soapcpp2, /usr/share/gsoap/plugin/httpda.c ...), libgsoap-dev
#   (libgsoapssl), libssl-dev, zlib1g-dev, pkg-config, gcc
set -euo pipefail

src_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common/lib.sh
source "$src_dir/../common/lib.sh"
PEER_INSTALL_HINT="apt-get install -y gsoap libgsoap-dev libssl-dev zlib1g-dev pkg-config gcc"
peer_need_share plugin/httpda.c plugin/httpda.h plugin/smdevp.c plugin/smdevp.h plugin/threads.c plugin/threads.h
peer_use_pkg gsoapssl
peer_begin "$@"

if ! echo '#include <openssl/evp.h>' | gcc -E -x c - >/dev/null 2>&1; then
  echo "build.sh: OpenSSL headers not found ($PEER_INSTALL_HINT)" >&2
  exit 3
fi

peer_typemap 'g = "urn:soapgen:gsoap"'
cp "$src_dir/../echo.wsdl" "$gen/echo.wsdl"
for f in httpda.c httpda.h smdevp.c smdevp.h threads.c threads.h; do
  cp "$gsoap_share/plugin/$f" "$gen/$f"
done
generate() {
  wsdl2h -c -t typemap.dat -o echo.h echo.wsdl
  # -c: C  -S: server side only  -L: no soapServerLib  -x: no sample XML  -w: no WSDL/XSD output
  soapcpp2 -c -S -L -x -w -d . -I"$gsoap_share/import" echo.h
}
peer_generate generate

# OpenSSL 3 deprecates the HMAC_* calls in smdevp.c: not our warnings.
peer_gcc auth-server -O1 -g -Wno-deprecated-declarations -- \
  "$src_dir/server.c" "$gen/soapServer.c" "$gen/soapC.c" \
  "$gen/httpda.c" "$gen/smdevp.c" "$gen/threads.c" "$PEER_MAIN_C" -lssl -lcrypto -lz
peer_publish auth-server
