#!/usr/bin/env bash
# Build the gSOAP type-substitution echo peer (tests/wsdl/polymorphism.wsdl: xsi:type on
# elements of an abstract type, of a concrete type, across namespaces, simpleContent and
# recursive types) into <outdir>, in C++ (gSOAP models derivation by extension as inheritance
# only in C++):
#   wsdl2h  polymorphism.wsdl   -> <outdir>/gen/polymorphism.h
#   soapcpp2 -S polymorphism.h  -> <outdir>/gen/soap{H,Stub,C,Server}.* + .nsmap
#   g++ server.cpp + generated + ../common/peer_main.c -> <outdir>/polymorphism-server
# Nothing is written into the source tree.  Idempotent (see ../common/lib.sh).
#
# Needs: gsoap (wsdl2h, soapcpp2, /usr/share/gsoap/WS/typemap.dat),
#   libgsoap-dev, pkg-config, gcc, g++
#   (apt-get install -y gsoap libgsoap-dev pkg-config gcc g++)
set -euo pipefail

src_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common/lib.sh
source "$src_dir/../common/lib.sh"
peer_need_tools g++
peer_use_pkg gsoap++
peer_begin "$@"

# Stock typemap + bind the prefixes "p" and "e" to the WSDL's namespaces.
peer_typemap 'p = "urn:soapgen:poly"' 'e = "urn:soapgen:poly:ext"'

cp "$src_dir/../../../wsdl/polymorphism.wsdl" "$gen/polymorphism.wsdl"
generate() {
  wsdl2h -t typemap.dat -o polymorphism.h polymorphism.wsdl
  # -S: server side only  -L: no soapServerLib  -x: no sample XML  -w: no WSDL/XSD output
  soapcpp2 -S -L -x -w -d . -I"$gsoap_share/import" polymorphism.h
}
peer_generate generate

peer_gxx polymorphism-server -O1 -g -- \
  "$src_dir/server.cpp" "$gen/soapServer.cpp" "$gen/soapC.cpp"
peer_publish polymorphism-server
