#!/usr/bin/env bash
# bench/wss_bench.sh: the WS-Security benchmark in one run — soapgen's whole path against the
# bare cryptography it needs (criterion, tests/benches/wss_scenario3.rs), and WSS4J 1.6.19 on the
# same message shape (bench/wss4j_bench.sh), with ratios.
#
#   bash bench/wss_bench.sh [wss4j-millis-per-case]        (default 3000; about 3 minutes in all)
#
# soapgen: Timestamp, Body + Timestamp signed (RSA-SHA256, SHA-256, BST), Body encrypted
# (AES-256-GCM, RSA-OAEP), and the response side verified + decrypted + policy-checked; floors are
# the aws-lc-rs operations alone (RSA sign/verify/encrypt/decrypt, AES-GCM, SHA-256). WSS4J: the
# same Scenario-3 message (its defaults: RSA-SHA1/SHA-1; AES-256-GCM case), built and processed
# in-process after JIT warm-up. Body: <w:Echo xmlns:w="urn:bench"><w:text>N bytes</w:text></w:Echo>,
# N = 1024 and 102400. Prints one table; the goal is full path <= 1.3x the floor at 1 KB.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
millis="${1:-3000}"
target="${CARGO_TARGET_DIR:-target}"
cargo bench -p soapgen-tests --bench wss_scenario3 >&2
wss4j="$(bash bench/wss4j_bench.sh "$millis")"
echo "$wss4j" >&2
python3 - "$target/criterion/wss_scenario3" <<PY
import json, sys
root = sys.argv[1]
def crit(case, size):
    with open(f"{root}/{case}/{size}/new/estimates.json") as f:
        return json.load(f)["median"]["point_estimate"]
wss4j = {}
for line in """$wss4j""".splitlines():
    p = line.split()
    if len(p) == 3 and p[0] == "BENCH":
        wss4j[p[1]] = float(p[2])
print("| body | path | soapgen | floor (aws-lc-rs) | soapgen / floor | WSS4J (AES-256-GCM) | WSS4J / soapgen |")
print("|---|---|---|---|---|---|---|")
for size, tag in ((1024, "1k"), (102400, "100k")):
    for path, floor, w in (("sign_encrypt_request", "floor_sign_encrypt", f"s3-gcm-build-{tag}"),
                           ("verify_decrypt_response", "floor_verify_decrypt", f"s3-gcm-process-{tag}")):
        s, f = crit(path, size), crit(floor, size)
        j = wss4j.get(w)
        jt = f"{j/1e3:.0f} µs" if j else "?"
        jr = f"{j/s:.1f}" if j else "?"
        label = "sign + encrypt request" if path.startswith("sign") else "verify + decrypt response"
        print(f"| {tag.upper()}B | {label} | {s/1e3:.0f} µs | {f/1e3:.0f} µs | {s/f:.2f} | {jt} | {jr} |")
PY
