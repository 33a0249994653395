#!/usr/bin/env bash
# Install everything soapgen's interop tests need for their real peers on a
# fresh Debian 12 (bookworm) machine.  Run as root.  Idempotent.
#
#   spyne peer  : /usr/bin/python3 + python3-spyne (2.14) + python3-lxml
#   gSOAP peers : gsoap (wsdl2h, soapcpp2, import/xop.h + xmime5.h for the
#                 MTOM peer) + libgsoap-dev + pkg-config + gcc
#   gSOAP WS-Security peer (tests/peers/gsoap/wsse/): the same + libssl-dev
#                 + zlib1g-dev (gSOAP's wsse plugin is compiled from source
#                 against OpenSSL; pkg-config gsoapssl defines WITH_GZIP)
#   line-break base64 peer: /usr/bin/python3 (stdlib only)
#   WSS4J peer  : OpenJDK 17 (javac, java) + libwss4j-java (WSS4J 1.6.19) +
#                 libxml-security-java (Santuario 2.1.7) + commons-logging + slf4j
#                 (tests/peers/wss4j/, WS-Security interop)
#   CXF peer    : OpenJDK 17 + Maven 3.8 (tests/peers/cxf/, WS-SecurityPolicy interop); its
#                 build (Apache CXF 4.2 and what it pulls in, from Maven Central, into the
#                 Maven repository <target-dir>/peers/maven-repo) is run once here, so that
#                 the tests' own build of it is an offline compile
#   HTTP auth   : pyspnego (PyPI; NTLM/Negotiate acceptor of tests/peers/ntlm_server.py),
#                 pip'd into /usr/bin/python3; gSOAP's httpda plugin and gsoapssl for
#                 tests/peers/gsoap/auth/ (the gSOAP packages above)
#   Kerberos    : MIT Kerberos' KDC and tools (krb5-kdc, krb5-admin-server, krb5-user) for the
#                 tests' own realm (tests/peers/kerberos_peer.py); Apache httpd with
#                 mod_auth_gssapi as one acceptor; pyspnego's with the Python gssapi and krb5
#                 bindings (PyPI, built against libkrb5-dev) as the other; libkrb5-dev and
#                 libclang-dev also build soapgen-runtime's `kerberos` feature (libgssapi-sys)
#   proxy auth  : squid (Debian's; its digest_file_auth helper, and pyspnego as its
#                 NTLM/Negotiate helper, tests/peers/squid_auth_helper.py)
#   tooling     : python3-zeep (reference client) + python3-xmlsec (zeep's
#                 BinarySignature, tests/peers/zeep_wss.py), xmlsec1 + libxml2-utils
#                 (xmllint --exc-c14n) + openssl (test certificates), curl
#                 (tests/peers/capture.sh uses curl)
#   signxml peer: signxml 5.2.0 from PyPI (RSASSA-PSS, which xmlsec1 1.2.37
#                 lacks; tests/peers/signxml/dsig.py) in its own virtual
#                 environment /opt/soapgen-signxml (python3-venv), so that its
#                 lxml/cryptography do not replace Debian's
set -euo pipefail

if [[ "$(id -u)" -ne 0 ]]; then
  echo "install-peers.sh: must run as root (try: sudo $0)" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive

packages=(
  python3
  python3-spyne
  python3-lxml
  python3-zeep
  python3-xmlsec
  python3-venv
  python3-pip
  gsoap
  libgsoap-dev
  libssl-dev
  zlib1g-dev
  pkg-config
  gcc
  g++
  libc6-dev
  xmlsec1
  libxml2-utils
  openssl
  curl
  openjdk-17-jdk-headless
  maven
  libwss4j-java
  libxml-security-java
  libcommons-logging-java
  libslf4j-java
  squid
  krb5-kdc
  krb5-admin-server
  krb5-user
  libkrb5-dev
  libclang-dev
  apache2
  libapache2-mod-auth-gssapi
)

apt-get update
apt-get install -y --no-install-recommends "${packages[@]}"
# pyspnego is not packaged in Debian 12: from PyPI, into the system python the peers run with.
/usr/bin/python3 -c 'import spnego' 2>/dev/null \
  || /usr/bin/python3 -m pip install --break-system-packages --no-input 'pyspnego>=0.10'
# pyspnego's Kerberos: the gssapi and krb5 bindings (compiled against libkrb5-dev).
/usr/bin/python3 -c 'import gssapi, krb5' 2>/dev/null \
  || /usr/bin/python3 -m pip install --break-system-packages --no-input 'gssapi==1.12.0' 'krb5==0.10.0'

# signxml in its own virtual environment (tests/src/signxml.rs runs it from there).
if [[ ! -x /opt/soapgen-signxml/bin/python ]]; then
  /usr/bin/python3 -m venv /opt/soapgen-signxml
fi
/opt/soapgen-signxml/bin/pip install --quiet 'signxml==5.2.0'
/opt/soapgen-signxml/bin/python -c 'import signxml.algorithms as a; a.SignatureMethod("http://www.w3.org/2007/05/xmldsig-more#sha256-rsa-MGF1")'

# Verify what the test harness (tests/src/peers.rs) relies on.
/usr/bin/python3 -c 'import spyne, lxml, zeep, xmlsec; print("spyne", spyne.__version__, "zeep", zeep.__version__, "xmlsec", xmlsec.__version__)'
/usr/bin/python3 -c 'import spnego, gssapi, krb5'
for tool in wsdl2h soapcpp2 gcc g++ pkg-config curl xmlsec1 xmllint openssl javac java mvn squid \
    krb5kdc kdb5_util kadmin.local kinit apache2; do
  command -v "$tool" >/dev/null || { echo "install-peers.sh: $tool is missing" >&2; exit 1; }
done
for jar in wss4j xmlsec commons-logging slf4j-api slf4j-nop; do
  test -f "/usr/share/java/$jar.jar"
done
pkg-config --exists gsoap gsoap++ gsoapssl
test -x /usr/lib/squid/digest_file_auth
/usr/bin/python3 -c 'import spnego'
test -f /usr/share/gsoap/plugin/httpda.c -a -f /usr/share/gsoap/plugin/wsseapi.c -a -f /usr/include/openssl/evp.h -a -f /usr/include/zlib.h
test -f /usr/share/gsoap/import/xop.h -a -f /usr/share/gsoap/import/xmime5.h
# The WS-Addressing peer (tests/peers/gsoap/wsa/): gSOAP's wsaapi plugin, both versions.
test -f /usr/share/gsoap/plugin/wsaapi.c -a -f /usr/share/gsoap/import/wsa5.h -a -f /usr/share/gsoap/import/wsa.h
echo "gsoap $(pkg-config --modversion gsoap): $(pkg-config --cflags --libs gsoap)"
# The CXF peer's Maven dependencies, fetched once into the Maven repository the tests' builds use
# (tests/peers/cxf/build.sh: <target-dir>/peers/maven-repo; the target directory as cargo's,
# CARGO_TARGET_DIR relative to the workspace root). The build made here is thrown away: the tests
# build their own, keyed by the peer's inputs.
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target_dir="${CARGO_TARGET_DIR:-target}"
[[ "$target_dir" = /* ]] || target_dir="$repo_root/$target_dir"
started=$SECONDS
bash "$repo_root/tests/peers/cxf/build.sh" "$target_dir/peers/cxf-prefetch"
rm -rf "$target_dir/peers/cxf-prefetch"
echo "CXF peer: Maven dependencies in $target_dir/peers/maven-repo ($((SECONDS - started)) s)"
echo "install-peers.sh: all peer dependencies installed"
