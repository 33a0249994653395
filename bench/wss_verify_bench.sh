#!/usr/bin/env bash
# bench/wss_verify_bench.sh: WS-Security verify alone and sign alone against their raw-crypto
# floors (aws-lc-rs RSA-2048 verify / sign + the SHA-256 digests over the same canonical bytes), in
# one run: criterion wall times (tests/benches/wss_verify.rs) and callgrind instruction counts of
# the same cases (the bench binary with WSS_VERIFY_COUNT=<case>:<n>, counted inside
# measured_<case> only), with ratios. `verify` runs messages back to back; `verify_interleaved`
# verifies each right after signing it (cold caches), timed only, against the floor in the same
# conditions (floor_verify_interleaved). The message: ~5 KB signed
# SOAP 1.1 response, 1 KB body, 2 References (Timestamp, Body), RSA-2048, BinarySecurityToken.
#
#   bash bench/wss_verify_bench.sh [n]      (n callgrind iterations per case, default 200)
#
# Goals: verify <= 1.5x its floor, sign <= 1.1x. Needs valgrind for the instruction counts (the
# wall-time table is printed without it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
n="${1:-200}"
target="${CARGO_TARGET_DIR:-target}"
cargo bench -p soapgen-tests --bench wss_verify >&2
# The bench executable cargo just built.
exe="$(cargo bench -p soapgen-tests --bench wss_verify --no-run --message-format=json 2>/dev/null |
  python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m.get("target", {}).get("name") == "wss_verify" and m.get("executable"):
        print(m["executable"])')"
declare -A ir
if command -v valgrind >/dev/null 2>&1; then
  out="$(mktemp -d)"
  for case in verify floor_verify floor_verify_parsed sign floor_sign; do
    WSS_VERIFY_COUNT="$case:$n" valgrind --tool=callgrind --collect-atstart=no \
      "--toggle-collect=*measured_${case}*" --callgrind-out-file="$out/$case.out" "$exe" 2>"$out/$case.log" >/dev/null
    ir[$case]="$(grep -m1 '^summary:' "$out/$case.out" | awk '{print $2}')"
  done
  rm -rf "$out"
fi
python3 - "$target/criterion/wss_verify" "$n" "${ir[verify]:-}" "${ir[floor_verify]:-}" "${ir[sign]:-}" "${ir[floor_sign]:-}" "${ir[floor_verify_parsed]:-}" <<'PY'
import json, sys
root, n = sys.argv[1], int(sys.argv[2])
ir = dict(zip(["verify", "floor_verify", "sign", "floor_sign", "floor_verify_parsed"], sys.argv[3:8]))
def crit(case):
    with open(f"{root}/{case}/new/estimates.json") as f:
        return json.load(f)["median"]["point_estimate"]
print("| path | soapgen | floor (aws-lc-rs) | ratio | instructions (soapgen / floor) | ratio | goal |")
print("|---|---|---|---|---|---|---|")
for path, floor, goal in (("verify", "floor_verify", 1.5), ("verify", "floor_verify_parsed", None), ("verify_interleaved", "floor_verify_interleaved", 1.5), ("sign", "floor_sign", 1.1)):
    s, f = crit(path), crit(floor)
    if path not in ir:
        inst, iratio = "(as verify)", "–"
    elif ir[path] and ir[floor]:
        a, b = int(ir[path]) / n, int(ir[floor]) / n
        inst = f"{a/1e3:.0f} k / {b/1e3:.0f} k"
        iratio = f"{a/b:.2f}"
    else:
        inst, iratio = "(no valgrind)", "?"
    against = "" if floor in ("floor_verify", "floor_sign") else f" (against {floor})"
    print(f"| {path}{against} | {s/1e3:.1f} µs | {f/1e3:.1f} µs | {s/f:.2f} | {inst} | {iratio} | {'≤ ' + str(goal) if goal else '–'} |")
PY
