#!/usr/bin/env bash
# Build the gSOAP WS-Addressing peer (server.c, service.h.in) into <outdir>, twice:
#   soapcpp2 -a -c -S service.h (#import "wsa5.h")  -> <outdir>/gen/wsa5/soap{H,C,Server}.*
#   gcc server.c + generated + gSOAP's plugin/wsaapi.c + ../common/peer_main.c
#                                                   -> <outdir>/wsa5-server (WS-Addressing 1.0)
#   the same with #import "wsa.h"                   -> <outdir>/wsa-server  (2004/08 submission)
# (-a: dispatch on the wsa:Action / SOAPAction, as the plugin's documentation asks.)
# Nothing is written into the source tree.  Idempotent (see ../common/lib.sh).
#
# Needs: gsoap (soapcpp2, /usr/share/gsoap/import/wsa5.h, wsa.h, plugin/wsaapi.c),
#   libgsoap-dev, pkg-config, gcc
#   (apt-get install -y gsoap libgsoap-dev pkg-config gcc)
set -euo pipefail

src_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common/lib.sh
source "$src_dir/../common/lib.sh"
peer_need_share import/wsa5.h import/wsa.h plugin/wsaapi.c plugin/wsaapi.h
peer_begin "$@"

for v in wsa5 wsa; do
  case "$v" in
    wsa5) label="1.0" ;;
    wsa) label="2004/08" ;;
  esac
  mkdir -p "$gen/$v"
  sed -e "s|@WSAHEADER@|$v.h|" -e "s|@WSAVERSION@|$label|" \
    "$src_dir/service.h.in" >"$gen/$v/service.h"
  cp "$gsoap_share/plugin/wsaapi.c" "$gsoap_share/plugin/wsaapi.h" "$gen/$v/"
  generate() {
    cd "$v"
    # -a: dispatch on the action  -c: C  -S: server side only  -L: no soapServerLib
    # -x: no sample XML  -w: no WSDL/XSD output
    soapcpp2 -a -c -S -L -x -w -d . -I"$gsoap_share/import" service.h
  }
  peer_generate generate
  # The version's generated soapH.h (and wsaapi.h next to it) comes first on the include path.
  peer_gcc "$v-server" -O1 -g -I"$gen/$v" -- \
    "$src_dir/server.c" "$gen/$v/soapServer.c" "$gen/$v/soapC.c" "$gen/$v/wsaapi.c" "$PEER_MAIN_C"
done
peer_publish wsa5-server wsa-server
