#!/usr/bin/env bash
# bench/wss4j_bench.sh: the WSS4J side of the WS-Security benchmark.
#
#   bash bench/wss4j_bench.sh [millis-per-case]      (default 3000; ~8 cases x 2 x millis)
#
# Builds the WSS4J peer (tests/peers/wss4j/build.sh -> target/bench/wss4j/peer), makes throw-away
# keys with openssl (a test CA, a server key + certificate with a SubjectKeyIdentifier in a PKCS#12
# store, password changeit) into target/bench/wss4j/pki, and runs
#   wss4j-peer --bench <millis> --keystore server.p12 --storepass changeit --alias server
#              --encrypt-for server.pem --ca ca.pem
# which prints one line per case, `BENCH <case> <median nanoseconds>`:
#   s3-build-1k / s3-build-100k        WSS4J builds a Scenario-3 request: parse the plain envelope,
#                                      Timestamp, sign Body + Timestamp (RSA-SHA1, SHA-1, BST
#                                      DirectReference), encrypt the Body content (AES-128-CBC, key
#                                      by RSA-OAEP, recipient by SKI), serialize to bytes
#   s3-process-1k / s3-process-100k    WSS4J processes it: parse, decrypt, verify the signature and
#                                      the signer's chain, check the Timestamp, check Body was
#                                      signed and encrypted
#   s3-gcm-*                           the same with AES-256-GCM
# The Body is <w:Echo xmlns:w="urn:bench"><w:text>N ASCII bytes 'a'..'z'</w:text></w:Echo> (SOAP
# 1.1) with N = 1024 or 102400, so the soapgen side can build the same message. The message is
# signed with the server key and encrypted for the server certificate, so that one key store
# processes it (RSA costs are those of two parties: one private-key sign, one private-key decrypt,
# one public-key encrypt, one public-key verify per message). Every case first runs <millis> as
# JIT warm-up, then each is timed for <millis> (one time per iteration); the median is printed
# (see Wss4jPeer.java, bench()). The JVM runs with the full JIT (C2), not the tests' C1 launcher.
#
# Needs: openssl, OpenJDK 17 + libwss4j-java etc. (.ci/install-peers.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
millis="${1:-3000}"
target="${CARGO_TARGET_DIR:-target}"
out="$target/bench/wss4j"
mkdir -p "$out/pki"
bash tests/peers/wss4j/build.sh "$out/peer" >&2
pki="$(cd "$out/pki" && pwd)"
command -v openssl >/dev/null || { echo "wss4j_bench.sh: apt-get install -y openssl" >&2; exit 3; }
(
  cd "$pki"
  printf 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n' > ca.ext
  printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n' > leaf.ext
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out ca.key 2>/dev/null
  openssl req -new -x509 -key ca.key -subj "/O=soapgen bench/CN=soapgen bench CA" -days 2 \
    -extensions v3_ca -addext "keyUsage=critical,keyCertSign,cRLSign" -out ca.pem
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out server.key 2>/dev/null
  openssl req -new -key server.key -subj "/O=soapgen bench/CN=soapgen bench server" -out server.csr
  openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -set_serial 4343 -days 2 \
    -extfile leaf.ext -out server.pem 2>/dev/null
  openssl pkcs12 -export -in server.pem -inkey server.key -certfile ca.pem -name server \
    -passout pass:changeit -out server.p12
)
# The peer's launcher stops the JIT at C1 (fast start for tests); the benchmark wants C2.
cp="$out/peer/classes"
for j in wss4j xmlsec commons-logging slf4j-api slf4j-nop; do cp="$cp:/usr/share/java/$j.jar"; done
exec java -cp "$cp" Wss4jPeer --bench "$millis" --keystore "$pki/server.p12" --storepass changeit \
  --alias server --encrypt-for "$pki/server.pem" --ca "$pki/ca.pem"
