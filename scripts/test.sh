#!/usr/bin/env bash
# Runs soapgen's whole test suite, real peers included (spyne, gSOAP, WSS4J, CXF): the README's test command.
# Installs the peers first when they are missing (needs root; otherwise run .ci/install-peers.sh
# with sudo once). In CI a missing peer is a failure, never a skip.
set -euo pipefail
cd "$(dirname "$0")/.."
# Whether every one of the tools is on PATH (`command -v a b` succeeds when any one is).
have_all() {
  local tool
  for tool in "$@"; do command -v "$tool" >/dev/null || return 1; done
}
if ! /usr/bin/python3 -c 'import spyne, zeep' 2>/dev/null || ! have_all soapcpp2 g++ \
    || ! pkg-config --exists gsoap gsoap++ gsoapssl 2>/dev/null || [[ ! -f /usr/include/openssl/evp.h ]] \
    || ! have_all javac xmllint mvn \
    || [[ ! -f /usr/share/java/wss4j.jar ]]; then
  if [[ "$(id -u)" -eq 0 ]]; then
    bash .ci/install-peers.sh
  else
    echo "test.sh: peers missing; run: sudo bash .ci/install-peers.sh" >&2
    exit 1
  fi
fi
exec cargo test --workspace "$@"
