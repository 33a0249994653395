#!/usr/bin/env bash
# bench/codegen/run.sh: what soapgen's ahead-of-time approach costs and what it buys, in ONE run.
#
#   bash bench/codegen/run.sh               # full: 5 WSDLs, dev + release builds (~16-33 min, 2 cores)
#   bash bench/codegen/run.sh --no-release  # 5 WSDLs, dev builds only            (~4-7 min)
#   bash bench/codegen/run.sh --quick       # 3 small WSDLs, dev builds only      (~1-3 min)
#
# Run from anywhere (it cd's to the repo root).  On a fresh Debian 12 machine run
# `sudo bash .ci/install-peers.sh` first (python3-zeep); the script installs `time` with apt-get
# when /usr/bin/time is missing and it runs as root.  Needs the network once (cargo fetch).
#
# What it measures, per WSDL:
#
# 1. Code generation: `soapgen generate <wsdl> -o <dir> --runtime path:<repo>/soapgen-runtime` with
#    the release soapgen binary (built first: `cargo build --release -p soapgen-cli`), wall time
#    with `date +%s%N`, median (and min, max) of $RUNS runs (default 5), each into an empty
#    directory; peak memory from `/usr/bin/time -f %M` (max over the runs).  Goal: < 2 s.
# 2. Compile time of the generated crate itself: `cargo check --lib` (the front end alone; dev),
#    `cargo build --lib` (dev) and
#    `cargo build --lib --release`.  The crate goes to target/bench-codegen/crates/<name>, gets an
#    empty `[workspace]` table (it lives inside this repo but is not a member) and a copy of the
#    workspace Cargo.lock (so dependency versions match; checked, a mismatch is reported).  All
#    generated crates share one target dir, target/bench-codegen/target, whose dependencies are
#    prebuilt (untimed, once per profile, reported in the header); before each timed build the
#    script runs `cargo clean -p <crate>` (removes the crate's artifacts and incremental cache) and
#    rebuilds the dependencies (a no-op unless someone edited soapgen-runtime meanwhile), so the
#    timed number is the crate's own from-scratch compile.  Wall time and peak RSS (the largest
#    process, i.e. rustc) come from `/usr/bin/time -f "%e %M"` (%M is -v's "Maximum resident set
#    size").  Builds use `--timings`; its report gives the frontend (parse, macro expansion, type
#    check, up to metadata) / codegen (MIR to LLVM to object code) split shown in the table, and
#    names any other unit that had to be rebuilt (then the row is flagged).
# 3. Client construction, soapgen vs zeep: a program added to the generated crate
#    (src/bin/construct.rs, built with --release; see --no-release below) builds one
#    soapgen_runtime::Client with a no-op transport (no HTTP client) and times $N (default
#    1,000,000) constructions of the generated `<Trait>Client::from_client(client.clone())` with
#    std::time::Instant (median of 5 batches;
#    each construction includes the Arc clone and the drop, results go through
#    std::hint::black_box).  The trait is the first `trait X (...; client XClient)` line of
#    `soapgen inspect`.  It also times `soapgen_runtime::Client::new(url)` (builds the reqwest
#    client: rustls config, TLS roots), 100 times: the first (cold) call and the median, and
#    Client::new + from_client (median).  Then bench/zeep_client_construction.py times zeep's
#    `Client(wsdl)` for the same WSDLs (fresh process per run, $ZEEP_REPEAT runs, default 5) and the
#    script prints zeep median / soapgen for from_client and for Client::new + from_client.
#    Goals: from_client < 1 µs; zeep/soapgen >= 1000×.
#
# 4. gSOAP side by side: on ec2 (every mode but --quick) and economic (full mode), gSOAP 2.8's
#    `wsdl2h` + `soapcpp2 -C -L -x` (C++ client stubs) + `g++ -O1 -c` of soapC.cpp and
#    soapClient.cpp, wall time of the three and g++'s peak RSS, with the ratio of soapgen's dev and
#    release build of the same WSDL to it.
# 5. `cargo llvm-lines --lib` on the largest generated crate (economic unless --small/--quick):
#    LLVM IR lines and functions (copies of generic functions counted), and both per operation.
#    Installs cargo-llvm-lines with `cargo install` when missing; LLVM_LINES=0 skips it.
#
# WSDLs, smallest first: examples/wsdl/globalweather.wsdl, tests/wsdl/large_objects.wsdl and from
# the corpus gowsdl/fixtures/ec2.wsdl (340 KB), gowsdl/fixtures/vboxweb.wsdl (2.3 MB),
# wasabi/spec/fixtures/economic.wsdl (3 MB), and wsdltophp/tests/resources/ews/services.wsdl
# (Exchange Web Services: few operations, 1,400 types: what types cost).  Corpus files are looked up in
# $SOAPGEN_CORPUS when it is set (relative to the repo root), then in tests/corpus; a missing
# one is skipped with a note.
#
# Output: a Markdown report on stdout and in bench/codegen/results/codegen.md, one CSV row per WSDL
# in bench/codegen/results/codegen.csv; logs and --timings reports in target/bench-codegen/logs.
#
# Run time on 2 cores (Xeon VM, 23 GiB).  The compiles of the two largest generated crates
# dominate: economic ~2.5 min dev and ~7.5 min release (85% of it LLVM codegen, 6 GiB peak RSS),
# vboxweb ~1 min dev and ~3 min release.  Dependency prebuilds add ~2 min (dev) and ~2.5 min
# (release) the first time, nothing on later runs (target/bench-codegen is kept).  Measured,
# "warm" = dependencies already built; other builds running on the machine slow it down up to 3x:
#   (no option)    all 5 WSDLs, dev + release builds                  ~16 min warm (28 if loaded), +4.5 cold
#   --no-release   all 5 WSDLs, dev builds only                       ~4 min warm, ~6.5 min cold
#   --small        globalweather, large_objects, ec2; dev + release   ~2-3 min warm, ~7 min cold
#   --quick        = --small --no-release                             ~1 min warm, ~3 min cold
# So the full run does NOT fit a 15-minute budget on 2 cores; --no-release does (all WSDLs).
# Without release builds, the construction benchmark runs in the dev build (unoptimized: an
# upper bound for from_client and Client::new, so the zeep ratios are lower bounds; marked
# "(dev build)").  Release compile times are then "skipped".
#
# Environment:
#   RUNS=5             soapgen generate runs per WSDL
#   N=1000000          from_client constructions per batch
#   ZEEP_REPEAT=5      zeep runs per WSDL
#   SOAPGEN_CORPUS     corpus root (default tests/corpus)
#   SOAPGEN_BENCH_DIR  work dir for crates, target dir, logs (default target/bench-codegen)
#   SOAPGEN_CODEGEN_RESULTS  where codegen.md/.csv go (default bench/codegen/results; bench/run.sh
#                      points it into its own results folder)
#
# Numbers are wall times on a shared machine: anything else running (other builds) inflates
# them; the header prints the load average at the start and the end.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }

SMALL=0 NO_RELEASE=0
for arg in "$@"; do
  case "$arg" in
    --quick) SMALL=1 NO_RELEASE=1 ;;
    --small) SMALL=1 ;;
    --no-release) NO_RELEASE=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: unknown argument $arg (try --help)" >&2; exit 2 ;;
  esac
done

RUNS=${RUNS:-5}
N=${N:-1000000}
ZEEP_REPEAT=${ZEEP_REPEAT:-5}

cd "$(dirname "$0")/../.."
ROOT=$(pwd)
RUNTIME="$ROOT/soapgen-runtime"
B=$(realpath -m "${SOAPGEN_BENCH_DIR:-$ROOT/target/bench-codegen}")
RESULTS=$(realpath -m "${SOAPGEN_CODEGEN_RESULTS:-$ROOT/bench/codegen/results}")
export CARGO_TARGET_DIR="$B/target"
export CARGO_TERM_COLOR=never
mkdir -p "$B/crates" "$B/gen" "$B/logs" "$RESULTS"
START=$(date +%s)

say() { echo "[run.sh $(date +%H:%M:%S)] $*" >&2; }

# ---------------------------------------------------------------------------------------------
# Tools
if [[ ! -x /usr/bin/time ]]; then
  if [[ "$(id -u)" -eq 0 ]]; then
    say "installing GNU time (apt-get install time)"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends time >/dev/null
  else
    echo "run.sh: /usr/bin/time missing; run: sudo apt-get install time" >&2
    exit 1
  fi
fi
command -v cargo >/dev/null || { echo "run.sh: cargo not found" >&2; exit 1; }
PY=/usr/bin/python3
HAVE_ZEEP=0
if [[ -x $PY ]] && $PY -c 'import zeep' 2>/dev/null; then HAVE_ZEEP=1; fi
HAVE_PY=0
[[ -x $PY ]] && HAVE_PY=1

# ---------------------------------------------------------------------------------------------
# Helpers
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {if (NR==0) print "n/a"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
isnum() { [[ "${1:-}" =~ ^[0-9.eE+-]+$ ]]; }
fmt() { # fmt FORMAT VALUE: printf a number; anything else (n/a, error, skipped, empty) as is
  if isnum "${2:-}"; then LC_ALL=C printf "$1" "$2"; else echo "${2:-n/a}"; fi
}
calc() { LC_ALL=C awk "BEGIN {print $1}"; }
human() { # bytes -> "12.3 KiB" / "2.97 MiB"
  isnum "${1:-}" || { echo n/a; return; }
  LC_ALL=C awk -v b="$1" 'BEGIN {if (b < 1048576) printf "%.1f KiB", b/1024; else printf "%.2f MiB", b/1048576}'
}
group() { # 1234567.8 -> 1,234,568
  isnum "${1:-}" || { echo "${1:-n/a}"; return; }
  LC_ALL=C printf '%.0f' "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'
}

corpus_file() { # first existing of $SOAPGEN_CORPUS/REL, tests/corpus/REL
  local r
  for r in "${SOAPGEN_CORPUS:-tests/corpus}" tests/corpus; do
    if [[ -f "$r/$1" ]]; then echo "$r/$1"; return 0; fi
  done
  return 1
}

# Parses a cargo --timings HTML report: prints "<own seconds> <frontend> <codegen> <other rebuilt units>".
parse_timings() {
  local html=$1 pkg=$2
  if [[ $HAVE_PY -eq 0 || ! -f "$html" ]]; then echo "n/a n/a n/a -"; return; fi
  $PY - "$html" "$pkg" <<'EOF' 2>/dev/null || echo "n/a n/a n/a -"
import json, re, sys
html, pkg = sys.argv[1], sys.argv[2]
m = re.search(r"const UNIT_DATA = (\[.*?\n\]);", open(html).read(), re.S)
units = json.loads(m.group(1))
own = [u for u in units if u["name"] == pkg and u["duration"] > 0]
others = sorted({u["name"] for u in units if u["name"] != pkg and u["duration"] > 0})
dur = fe = cg = "n/a"
if own:
    u = own[0]
    dur = "%.2f" % u["duration"]
    secs = dict((s[0], s[1]) for s in (u.get("sections") or []))
    if "frontend" in secs:
        fe = "%.2f" % (secs["frontend"]["end"] - secs["frontend"]["start"])
    if "codegen" in secs:
        cg = "%.2f" % (secs["codegen"]["end"] - secs["codegen"]["start"])
print(dur, fe, cg, ",".join(others) or "-")
EOF
}

# ---------------------------------------------------------------------------------------------
# The WSDLs (slug|path), smallest first.
declare -a SLUGS=()
declare -A WSDL=() NOTE=()
SKIPPED=()
add_wsdl() { SLUGS+=("$1"); WSDL[$1]=$(realpath "$2"); }
add_wsdl globalweather examples/wsdl/globalweather.wsdl
add_wsdl large_objects tests/wsdl/large_objects.wsdl
declare -a CORPUS=("ec2|gowsdl/fixtures/ec2.wsdl")
if [[ $SMALL -eq 0 ]]; then
  CORPUS+=("vboxweb|gowsdl/fixtures/vboxweb.wsdl" "economic|wasabi/spec/fixtures/economic.wsdl"
    "ews|wsdltophp/tests/resources/ews/services.wsdl")
fi
for e in "${CORPUS[@]}"; do
  slug=${e%%|*} rel=${e#*|}
  if p=$(corpus_file "$rel"); then
    add_wsdl "$slug" "$p"
  else
    SKIPPED+=("$rel (not in ${SOAPGEN_CORPUS:-tests/corpus} nor tests/corpus)")
    say "skipping $rel: not found"
  fi
done

# ---------------------------------------------------------------------------------------------
# Machine
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
CPU=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
MEM=$(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[[ -n "$(git status --porcelain 2>/dev/null | head -1)" ]] && COMMIT="$COMMIT (+ uncommitted changes)"
ZEEP_VER=n/a
[[ $HAVE_ZEEP -eq 1 ]] && ZEEP_VER=$($PY -c 'import zeep; print(zeep.__version__)')

# ---------------------------------------------------------------------------------------------
# soapgen itself
say "building soapgen (release)"
cargo build --release -q -p soapgen-cli --target-dir "$ROOT/target" \
  >"$B/logs/soapgen-cli.log" 2>&1 || { cat "$B/logs/soapgen-cli.log" >&2; exit 1; }
SOAPGEN="$ROOT/target/release/soapgen"

# ---------------------------------------------------------------------------------------------
# 1. Code generation
declare -A GEN_MED=() GEN_MIN=() GEN_MAX=() GEN_RSS=() GEN_SUM=() LIB_BYTES=() WSDL_BYTES=() \
  NAME=() CLIENT=() CRATE=() LOCK=()
for s in "${SLUGS[@]}"; do
  w=${WSDL[$s]}
  WSDL_BYTES[$s]=$(stat -c %s "$w")
  say "generate $s ($RUNS runs)"
  times=() rss=0 ok=1
  for _ in $(seq "$RUNS"); do
    rm -rf "$B/gen/$s"
    t0=$(date +%s%N)
    if ! /usr/bin/time -f %M -o "$B/logs/$s-gen.rss" "$SOAPGEN" generate "$w" -o "$B/gen/$s" \
        --runtime "path:$RUNTIME" >"$B/logs/$s-gen.log" 2>&1; then
      ok=0; break
    fi
    t1=$(date +%s%N)
    times+=("$(calc "($t1-$t0)/1e9")")
    r=$(tail -1 "$B/logs/$s-gen.rss"); (( r > rss )) && rss=$r
  done
  if [[ $ok -eq 0 ]]; then
    say "soapgen generate failed for $s:"; tail -5 "$B/logs/$s-gen.log" >&2
    GEN_MED[$s]=error NOTE[$s]="generate failed"
    continue
  fi
  GEN_MED[$s]=$(median "${times[@]}")
  GEN_MIN[$s]=$(printf '%s\n' "${times[@]}" | sort -g | head -1)
  GEN_MAX[$s]=$(printf '%s\n' "${times[@]}" | sort -g | tail -1)
  GEN_RSS[$s]=$(calc "$rss/1024")
  # "wrote crate NAME to DIR (T types, C clients, O operations)"
  GEN_SUM[$s]=$(sed -n 's/.*(\(.*\))$/\1/p' "$B/logs/$s-gen.log" | tail -1)
  LIB_BYTES[$s]=$(stat -c %s "$B/gen/$s/src/lib.rs")
  NAME[$s]=$(sed -n 's/^name = "\(.*\)"$/\1/p' "$B/gen/$s/Cargo.toml" | head -1)
  CLIENT[$s]=$("$SOAPGEN" inspect "$w" 2>/dev/null \
    | sed -n 's/^trait [A-Za-z0-9_]* (.*; client \([A-Za-z0-9_]*\))$/\1/p' | head -1)

  # The crate to build: generated files + [workspace] + the workspace's Cargo.lock + construct.rs.
  c="$B/crates/$s"
  CRATE[$s]=$c
  rm -rf "$c"
  mkdir -p "$c/src/bin"
  cp "$B/gen/$s/Cargo.toml" "$c/Cargo.toml"
  cp "$B/gen/$s/src/lib.rs" "$c/src/lib.rs"
  printf '\n# Added by bench/codegen/run.sh: a workspace of its own (it lives inside the soapgen repo).\n[workspace]\n' >>"$c/Cargo.toml"
  cp "$ROOT/Cargo.lock" "$c/Cargo.lock"
  lib=${NAME[$s]//-/_}
  cat >"$c/src/bin/construct.rs" <<EOF
//! Added by bench/codegen/run.sh: times construction of the generated \`${CLIENT[$s]}\`.
//! Usage: construct [N] [NEW_RUNS]; prints one line of key=value.
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use soapgen_runtime::transport::{HttpRequest, Transport, TransportFuture};
use soapgen_runtime::Client;
use ${lib}::${CLIENT[$s]} as Generated;

/// Never sends anything: the client is only constructed.
#[derive(Debug)]
struct NoopTransport;

impl Transport for NoopTransport {
    fn send(&self, _request: HttpRequest) -> TransportFuture<'_> {
        Box::pin(std::future::pending())
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().map_or(1_000_000, |s| s.parse().expect("N"));
    let new_runs: usize = args.next().map_or(100, |s| s.parse().expect("NEW_RUNS"));
    let url = "http://127.0.0.1:9/soap";
    let base = Client::builder(url).transport(Arc::new(NoopTransport)).build().expect("client");

    // Warm-up, then 5 batches of n constructions (clone + from_client + drop) and, as the
    // baseline, of n bare clones (clone + drop).
    for _ in 0..n / 10 {
        black_box(Generated::from_client(black_box(&base).clone()));
    }
    let (mut per, mut clone) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..n {
            black_box(Generated::from_client(black_box(&base).clone()));
        }
        per.push(t.elapsed().as_nanos() as f64 / n as f64);
        let t = Instant::now();
        for _ in 0..n {
            black_box(black_box(&base).clone());
        }
        clone.push(t.elapsed().as_nanos() as f64 / n as f64);
    }

    // Client::new (default reqwest transport), then from_client on it.
    let (mut new, mut both) = (Vec::new(), Vec::new());
    for _ in 0..new_runs {
        let t0 = Instant::now();
        let c = Client::new(url).expect("Client::new");
        let t1 = Instant::now();
        let g = Generated::from_client(c);
        let t2 = Instant::now();
        black_box(&g);
        new.push((t1 - t0).as_nanos() as f64 / 1e3);
        both.push((t2 - t0).as_nanos() as f64 / 1e3);
    }
    let first = new[0];
    println!(
        "n={n} from_client_ns={:.2} clone_only_ns={:.2} new_first_us={:.1} new_median_us={:.1} new_from_client_median_us={:.1}",
        median(per), median(clone), first, median(new), median(both)
    );
}
EOF
  if ! (cd "$c" && cargo fetch -q) >"$B/logs/$s-fetch.log" 2>&1; then
    say "cargo fetch failed for $s"; tail -5 "$B/logs/$s-fetch.log" >&2
  fi
  # Dependency versions must be the workspace's: every (name, version) of the crate's lock file
  # must be in the workspace's (apart from the crate itself).
  lockpairs() { awk '/^name = /{n=$3} /^version = /{print n, $3}' "$1" | tr -d '"' | sort -u; }
  diffs=$(comm -13 <(lockpairs "$ROOT/Cargo.lock") <(lockpairs "$c/Cargo.lock") | grep -v "^${NAME[$s]} " | tr '\n' ' ' || true)
  LOCK[$s]=${diffs:-same}
  [[ -n "$diffs" ]] && say "WARNING: $s resolves other versions than the workspace: $diffs"
done

# ---------------------------------------------------------------------------------------------
# 2. Compile time of each generated crate (dependencies prebuilt).
PREBUILD_DEV=n/a PREBUILD_REL=skipped
# The first generated crate (globalweather, always present) builds the dependencies.
FIRST=${SLUGS[0]}
prebuild() { # prebuild PROFILE_FLAG -> seconds
  local t0 t1
  t0=$(date +%s%N)
  (cd "${CRATE[$FIRST]}" && cargo build -q --lib $1) >"$B/logs/prebuild$1.log" 2>&1 || {
    tail -20 "$B/logs/prebuild$1.log" >&2; return 1; }
  t1=$(date +%s%N)
  calc "($t1-$t0)/1e9"
}
say "prebuilding dependencies (dev)"
PREBUILD_DEV=$(prebuild "")
if [[ $NO_RELEASE -eq 0 ]]; then
  say "prebuilding dependencies (release)"
  PREBUILD_REL=$(prebuild --release)
fi

declare -A CHECK_S=() CHECK_RSS=()
declare -A BUILD_S=() BUILD_RSS=() BUILD_FE=() BUILD_CG=() BUILD_OTHER=() CON_PROFILE=() \
  CON_FROM=() CON_CLONE=() CON_NEW_FIRST=() CON_NEW=() CON_BOTH=()
timed_build() { # timed_build SLUG PROFILE(dev|release)
  local s=$1 p=$2 c=${CRATE[$1]} name=${NAME[$1]} flag="" k="$1/$2" html
  [[ $p == release ]] && flag=--release
  (cd "$c" && cargo clean -q -p "$name" $flag && cargo build -q -p soapgen-runtime $flag) \
    >"$B/logs/$s-$p-pre.log" 2>&1 || true
  if [[ $p == dev ]]; then
    # `cargo check`: the front end alone (what an editor's checks cost), from scratch too.
    say "cargo check --lib: $s"
    if (cd "$c" && cargo check -q -p soapgen-runtime && /usr/bin/time -f "%e %M" \
          -o "$B/logs/$s-check.time" cargo check --lib) >"$B/logs/$s-check.log" 2>&1; then
      read -r CHECK_S[$s] rss < <(tail -1 "$B/logs/$s-check.time")
      CHECK_RSS[$s]=$(calc "$rss/1024")
      say "  $s check: ${CHECK_S[$s]} s, ${CHECK_RSS[$s]} MiB"
    else
      CHECK_S[$s]=error; NOTE[$s]="${NOTE[$s]:-}check failed; "
    fi
    (cd "$c" && cargo clean -q -p "$name") >>"$B/logs/$s-$p-pre.log" 2>&1 || true
  fi
  say "cargo build --lib $flag: $s"
  if ! (cd "$c" && /usr/bin/time -f "%e %M" -o "$B/logs/$s-$p.time" \
        cargo build --lib $flag --timings) >"$B/logs/$s-$p.log" 2>&1; then
    say "build failed: $s $p"; tail -20 "$B/logs/$s-$p.log" >&2
    BUILD_S[$k]=error; NOTE[$s]="${NOTE[$s]:-}$p build failed; "
    return 1
  fi
  read -r BUILD_S[$k] rss < <(tail -1 "$B/logs/$s-$p.time")
  BUILD_RSS[$k]=$(calc "$rss/1024")
  html=$(sed -n 's/.*Timing report saved to \(.*\.html\).*/\1/p' "$B/logs/$s-$p.log" | tail -1)
  [[ -n "$html" && -f "$html" ]] && cp "$html" "$B/logs/$s-$p-timings.html"
  read -r _ BUILD_FE[$k] BUILD_CG[$k] BUILD_OTHER[$k] < <(parse_timings "$B/logs/$s-$p-timings.html" "$name")
  if [[ "${BUILD_OTHER[$k]}" != - ]]; then
    NOTE[$s]="${NOTE[$s]:-}$p build also rebuilt ${BUILD_OTHER[$k]}; "
  fi
  say "  $s $p: ${BUILD_S[$k]} s, ${BUILD_RSS[$k]} MiB (frontend ${BUILD_FE[$k]} s, codegen ${BUILD_CG[$k]} s; load $(cut -d' ' -f1 /proc/loadavg))"
}

for s in "${SLUGS[@]}"; do
  [[ -z "${CRATE[$s]:-}" ]] && continue
  # 3a. soapgen construction, in the release build (a dev build with --no-release: an upper bound).
  if [[ $NO_RELEASE -eq 1 ]]; then
    timed_build "$s" dev || continue
    BUILD_S[$s/release]=skipped
    prof=dev pflag="" pdir=debug
  else
    timed_build "$s" dev || true
    timed_build "$s" release || continue
    prof=release pflag=--release pdir=release
  fi
  CON_PROFILE[$s]=$prof
  say "construct ($prof build): $s"
  if (cd "${CRATE[$s]}" && cargo build -q $pflag --bin construct) >"$B/logs/$s-construct-build.log" 2>&1 \
     && "$CARGO_TARGET_DIR/$pdir/construct" "$N" 100 >"$B/logs/$s-construct.out" 2>&1; then
    line=$(tail -1 "$B/logs/$s-construct.out")
    kv() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$line"; }
    CON_FROM[$s]=$(kv from_client_ns) CON_CLONE[$s]=$(kv clone_only_ns)
    CON_NEW_FIRST[$s]=$(kv new_first_us) CON_NEW[$s]=$(kv new_median_us)
    CON_BOTH[$s]=$(kv new_from_client_median_us)
    say "  $line"
  else
    say "construct failed: $s"; tail -20 "$B/logs/$s-construct-build.log" "$B/logs/$s-construct.out" >&2 || true
    NOTE[$s]="${NOTE[$s]:-}construct failed; "
  fi
done

# ---------------------------------------------------------------------------------------------
# 4. gSOAP side by side: wsdl2h + soapcpp2 (C++ client stubs) + g++ -O1 of soapC.cpp and
#    soapClient.cpp, on ec2 (and economic in full mode), same run.
declare -A GS_S=() GS_RSS=() GS_CPP=() GS_NOTE=()
GS_SLUGS=()
for s in "${SLUGS[@]}"; do
  case $s in
    ec2) GS_SLUGS+=("$s") ;;
    economic) [[ $NO_RELEASE -eq 0 ]] && GS_SLUGS+=("$s") ;;
  esac
done
HAVE_GSOAP=0
command -v wsdl2h >/dev/null && command -v soapcpp2 >/dev/null && command -v g++ >/dev/null \
  && pkg-config --exists gsoap++ 2>/dev/null && HAVE_GSOAP=1
for s in "${GS_SLUGS[@]}"; do
  if [[ $HAVE_GSOAP -eq 0 ]]; then GS_NOTE[$s]="gSOAP not installed (sudo bash .ci/install-peers.sh)"; continue; fi
  d="$B/gsoap/$s"
  rm -rf "$d"; mkdir -p "$d"
  say "gSOAP: wsdl2h + soapcpp2 + g++ -O1: $s"
  t0=$(date +%s%N)
  if ! (cd "$d" && wsdl2h -o svc.h "${WSDL[$s]}" && soapcpp2 -C -L -x -I/usr/share/gsoap/import svc.h) \
      >"$B/logs/$s-gsoap-gen.log" 2>&1; then
    GS_NOTE[$s]="wsdl2h/soapcpp2 failed (see logs/$s-gsoap-gen.log)"; continue
  fi
  GS_CPP[$s]=$(cat "$d"/soapC.cpp "$d"/soapClient.cpp | wc -c)
  # shellcheck disable=SC2046
  if ! (cd "$d" && /usr/bin/time -f "%e %M" -o "$B/logs/$s-gsoap.time" sh -c \
        "g++ -O1 -c soapC.cpp -o soapC.o $(pkg-config --cflags gsoap++) && g++ -O1 -c soapClient.cpp -o soapClient.o $(pkg-config --cflags gsoap++)") \
      >"$B/logs/$s-gsoap-gxx.log" 2>&1; then
    GS_NOTE[$s]="g++ failed (see logs/$s-gsoap-gxx.log)"; continue
  fi
  t1=$(date +%s%N)
  read -r _ rss < <(tail -1 "$B/logs/$s-gsoap.time")
  GS_S[$s]=$(calc "($t1-$t0)/1e9")
  GS_RSS[$s]=$(calc "$rss/1024")
  say "  $s gSOAP: ${GS_S[$s]} s, ${GS_RSS[$s]} MiB"
done

# ---------------------------------------------------------------------------------------------
# 5. LLVM IR of the largest generated crate (dev): `cargo llvm-lines --lib`, as functions (copies
#    of generic ones counted) and lines, per operation. LLVM_LINES=0 skips it.
LL_SLUG="" LL_LINES=n/a LL_COPIES=n/a LL_OPS=n/a LL_NOTE=""
for s in "${SLUGS[@]}"; do [[ -n "${CRATE[$s]:-}" ]] && LL_SLUG=$s; done
if [[ "${LLVM_LINES:-1}" != 0 && -n "$LL_SLUG" ]]; then
  if ! cargo llvm-lines --version >/dev/null 2>&1; then
    say "installing cargo-llvm-lines (cargo install)"
    cargo install -q cargo-llvm-lines >"$B/logs/llvm-lines-install.log" 2>&1 || true
  fi
  if cargo llvm-lines --version >/dev/null 2>&1; then
    say "cargo llvm-lines --lib: $LL_SLUG"
    if (cd "${CRATE[$LL_SLUG]}" && cargo llvm-lines --lib) >"$B/logs/$LL_SLUG-llvm-lines.txt" 2>"$B/logs/$LL_SLUG-llvm-lines.err"; then
      # The first data line is "  <lines>  <copies>  (TOTAL)".
      read -r LL_LINES LL_COPIES _ < <(grep -m1 '(TOTAL)' "$B/logs/$LL_SLUG-llvm-lines.txt")
      LL_OPS=$(sed -n 's/.*, \([0-9]*\) operations.*/\1/p' <<<"${GEN_SUM[$LL_SLUG]}")
    else
      LL_NOTE="cargo llvm-lines failed (see logs/$LL_SLUG-llvm-lines.err)"
    fi
  else
    LL_NOTE="cargo-llvm-lines could not be installed"
  fi
fi

# ---------------------------------------------------------------------------------------------
# 3b. zeep, same WSDLs, same run.
declare -A ZEEP=() ZEEP_STATUS=()
ZEEP_HOW="python3-zeep not installed (sudo bash .ci/install-peers.sh)"
if [[ $HAVE_ZEEP -eq 1 ]]; then
  say "zeep Client(wsdl), $ZEEP_REPEAT fresh-process runs per WSDL"
  paths=()
  for s in "${SLUGS[@]}"; do paths+=("${WSDL[$s]}"); done
  $PY bench/zeep_client_construction.py --repeat "$ZEEP_REPEAT" "${paths[@]}" >"$B/logs/zeep.csv" 2>"$B/logs/zeep.err" || true
  ZEEP_HOW=$(sed -n 's/^# //p' "$B/logs/zeep.csv" | head -1)
  for s in "${SLUGS[@]}"; do
    row=$(grep -F "${WSDL[$s]}," "$B/logs/zeep.csv" | head -1 || true)
    ZEEP[$s]=$(cut -d, -f4 <<<"$row")
    ZEEP_STATUS[$s]=$(cut -d, -f6- <<<"$row")
    [[ -z "${ZEEP[$s]}" ]] && ZEEP[$s]=n/a
  done
fi

# ---------------------------------------------------------------------------------------------
# Report
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
ELAPSED=$(( $(date +%s) - START ))
goal() { if [[ "$1" == 1 ]]; then echo "✓"; elif [[ "$1" == 0 ]]; then echo "✗"; else echo "n/a"; fi; }
lt() { isnum "$1" && isnum "$2" && calc "($1 < $2) ? 1 : 0" || echo n/a; }
ge() { isnum "$1" && isnum "$2" && calc "($1 >= $2) ? 1 : 0" || echo n/a; }
ratio() { isnum "$1" && isnum "$2" && calc "$1 / $2" || echo n/a; }

MODE=full
[[ $SMALL -eq 1 && $NO_RELEASE -eq 1 ]] && MODE="--quick (small WSDLs, no release builds)"
[[ $SMALL -eq 1 && $NO_RELEASE -eq 0 ]] && MODE="--small (no economic, vboxweb)"
[[ $SMALL -eq 0 && $NO_RELEASE -eq 1 ]] && MODE="--no-release (dev builds only)"
CSV="$RESULTS/codegen.csv"
MD="$RESULTS/codegen.md"
echo "wsdl,wsdl_bytes,types_clients_operations,lib_rs_bytes,generate_median_s,generate_min_s,generate_max_s,generate_peak_rss_mib,generate_goal_lt_2s,debug_build_s,debug_frontend_s,debug_codegen_s,debug_peak_rss_mib,release_build_s,release_frontend_s,release_codegen_s,release_peak_rss_mib,client,construct_profile,from_client_ns,clone_only_ns,client_new_first_us,client_new_median_us,new_plus_from_client_median_us,zeep_median_ms,zeep_status,ratio_zeep_over_from_client,ratio_zeep_over_new_plus_from_client,construct_goal_lt_1us,ratio_goal_ge_1000,lock_diff,notes,check_s,check_peak_rss_mib" >"$CSV"

{
  echo "# soapgen: code generation, compile time and client construction"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); run time $((ELAPSED / 60)) min $((ELAPSED % 60)) s; mode: $MODE"
  echo "- machine: $(nproc) CPUs ($CPU), $MEM RAM; load average at start $LOAD_START, at end $LOAD_END"
  echo "- $(rustc --version), $(cargo --version); soapgen commit $COMMIT; zeep $ZEEP_VER"
  echo "- dependency prebuild (untimed in the tables; soapgen-runtime with reqwest/rustls/tokio): dev $(fmt '%.0f s' "$PREBUILD_DEV"), release $(fmt '%.0f s' "$PREBUILD_REL") (1 s when already built)"
  for x in "${SKIPPED[@]}"; do echo "- skipped: $x"; done
  echo
  echo "## 1. Code generation: \`soapgen generate\` (release binary, median of $RUNS runs)"
  echo
  echo "| WSDL | WSDL size | generated | lib.rs | median | min – max | peak RSS | goal < 2 s |"
  echo "|---|---:|---|---:|---:|---:|---:|:-:|"
  for s in "${SLUGS[@]}"; do
    echo "| $s | $(human "${WSDL_BYTES[$s]}") | ${GEN_SUM[$s]:-n/a} | $(human "${LIB_BYTES[$s]:-}") | $(fmt %.3f "${GEN_MED[$s]}") s | $(fmt %.3f "${GEN_MIN[$s]:-}") – $(fmt %.3f "${GEN_MAX[$s]:-}") s | $(fmt %.0f "${GEN_RSS[$s]:-}") MiB | $(goal "$(lt "${GEN_MED[$s]}" 2)") |"
  done
  echo
  echo "## 2. Compile time of the generated crate alone (\`cargo check --lib\` in dev, then \`cargo build --lib\` per profile; dependencies prebuilt)"
  echo
  echo "| WSDL | \`cargo check\` | peak RSS | dev build | frontend / codegen | peak RSS | release build | frontend / codegen | peak RSS |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  for s in "${SLUGS[@]}"; do
    if isnum "${CHECK_S[$s]:-}"; then
      cells=" $(fmt %.1f "${CHECK_S[$s]}") s | $(fmt %.0f "${CHECK_RSS[$s]:-}") MiB |"
    else
      cells=" ${CHECK_S[$s]:-n/a} | |"
    fi
    for p in dev release; do
      k="$s/$p"
      if isnum "${BUILD_S[$k]:-}"; then
        cells+=" $(fmt %.1f "${BUILD_S[$k]}") s | $(fmt %.1f "${BUILD_FE[$k]:-}") / $(fmt %.1f "${BUILD_CG[$k]:-}") s | $(fmt %.0f "${BUILD_RSS[$k]:-}") MiB |"
      else
        cells+=" ${BUILD_S[$k]:-n/a} | | |"
      fi
    done
    echo "| $s |$cells"
  done
  echo
  echo "frontend = parsing, macro expansion (\`#[soap_client]\`, \`ToXml\`/\`FromXml\` derives), type checking, up to the crate metadata; codegen = MIR to LLVM to object code (from \`cargo build --timings\`)."
  echo
  echo "## 3. Client construction: soapgen vs zeep (same run)"
  echo
  echo "| WSDL | client | from_client | (bare clone) | Client::new median (first) | new + from_client | zeep \`Client(wsdl)\` median | zeep / from_client | zeep / (new + from_client) | from_client < 1 µs | ratio ≥ 1000× |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|:-:|:-:|"
  for s in "${SLUGS[@]}"; do
    z=${ZEEP[$s]:-n/a}
    r1=$(ratio "$(isnum "$z" && calc "$z*1e6" || echo n/a)" "${CON_FROM[$s]:-n/a}")
    r2=$(ratio "$(isnum "$z" && calc "$z*1e3" || echo n/a)" "${CON_BOTH[$s]:-n/a}")
    pnote=""
    [[ "${CON_PROFILE[$s]:-}" == dev ]] && pnote=" (dev build)"
    echo "| $s | \`${CLIENT[$s]:-n/a}\` | $(fmt %.1f "${CON_FROM[$s]:-}") ns$pnote | $(fmt %.1f "${CON_CLONE[$s]:-}") ns | $(fmt %.1f "${CON_NEW[$s]:-}") µs ($(fmt %.0f "${CON_NEW_FIRST[$s]:-}") µs) | $(fmt %.1f "${CON_BOTH[$s]:-}") µs | $(fmt %.1f "$z") ms | $(group "$r1")× | $(group "$r2")× | $(goal "$(lt "${CON_FROM[$s]:-}" 1000)") | $(goal "$(ge "$r1" 1000)") |"
    printf '%s\n' "$s,${WSDL_BYTES[$s]},\"${GEN_SUM[$s]:-}\",${LIB_BYTES[$s]:-},${GEN_MED[$s]:-},${GEN_MIN[$s]:-},${GEN_MAX[$s]:-},${GEN_RSS[$s]:-},$(lt "${GEN_MED[$s]}" 2),${BUILD_S[$s/dev]:-},${BUILD_FE[$s/dev]:-},${BUILD_CG[$s/dev]:-},${BUILD_RSS[$s/dev]:-},${BUILD_S[$s/release]:-},${BUILD_FE[$s/release]:-},${BUILD_CG[$s/release]:-},${BUILD_RSS[$s/release]:-},${CLIENT[$s]:-},${CON_PROFILE[$s]:-},${CON_FROM[$s]:-},${CON_CLONE[$s]:-},${CON_NEW_FIRST[$s]:-},${CON_NEW[$s]:-},${CON_BOTH[$s]:-},$z,${ZEEP_STATUS[$s]:-},$r1,$r2,$(lt "${CON_FROM[$s]:-}" 1000),$(ge "$r1" 1000),${LOCK[$s]:-},\"${NOTE[$s]:-}\",${CHECK_S[$s]:-},${CHECK_RSS[$s]:-}" >>"$CSV"
  done
  echo
  echo "from_client: one \`${CLIENT[${SLUGS[0]}]:-…}::from_client(client.clone())\` including the Arc clone and the drop, median of 5 batches of $N (bare clone: the same loop without from_client); Client::new: \`soapgen_runtime::Client::new(url)\`, default reqwest transport (rustls, TLS roots), 100 calls. zeep: $ZEEP_HOW."
  notes=0
  for s in "${SLUGS[@]}"; do
    if [[ -n "${NOTE[$s]:-}" || ( -n "${LOCK[$s]:-}" && "${LOCK[$s]}" != same ) ]]; then
      [[ $notes -eq 0 ]] && { echo; echo "Notes:"; }
      notes=1
      echo "- $s: ${NOTE[$s]:-}$([[ -n "${LOCK[$s]:-}" && "${LOCK[$s]}" != same ]] && echo "lock file differs: ${LOCK[$s]}")"
    fi
    if [[ -n "${ZEEP_STATUS[$s]:-}" && "${ZEEP_STATUS[$s]}" != ok ]]; then
      [[ $notes -eq 0 ]] && { echo; echo "Notes:"; }
      notes=1
      echo "- $s: zeep ${ZEEP_STATUS[$s]}"
    fi
  done
  echo
  echo "## 4. gSOAP side by side: \`wsdl2h\` + \`soapcpp2 -C\` + \`g++ -O1\` (same run)"
  echo
  if [[ ${#GS_SLUGS[@]} -eq 0 ]]; then
    echo "Not run in this mode (ec2 is in every mode but --quick's; economic in full mode only)."
  else
    echo "| WSDL | gSOAP C++ (soapC.cpp + soapClient.cpp) | gSOAP total | g++ peak RSS | soapgen dev | dev / gSOAP | soapgen release | release / gSOAP |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|"
    for s in "${GS_SLUGS[@]}"; do
      if [[ -n "${GS_NOTE[$s]:-}" ]]; then echo "| $s | ${GS_NOTE[$s]} | | | | | | |"; continue; fi
      echo "| $s | $(human "${GS_CPP[$s]}") | $(fmt %.1f "${GS_S[$s]}") s | $(fmt %.0f "${GS_RSS[$s]}") MiB | $(fmt %.1f "${BUILD_S[$s/dev]:-}") s | $(fmt %.2f "$(ratio "${BUILD_S[$s/dev]:-}" "${GS_S[$s]}")")× | $(fmt %.1f "${BUILD_S[$s/release]:-}") s | $(fmt %.2f "$(ratio "${BUILD_S[$s/release]:-}" "${GS_S[$s]}")")× |"
    done
  fi
  echo
  echo "## 5. LLVM IR per operation (\`cargo llvm-lines --lib\`, dev)"
  echo
  if [[ -n "$LL_NOTE" ]]; then
    echo "$LL_NOTE."
  elif isnum "$LL_LINES"; then
    echo "| WSDL | operations | LLVM IR lines | functions (generic copies counted) | lines / operation | functions / operation |"
    echo "|---|---:|---:|---:|---:|---:|"
    echo "| $LL_SLUG | $LL_OPS | $(group "$LL_LINES") | $(group "$LL_COPIES") | $(fmt %.0f "$(ratio "$LL_LINES" "$LL_OPS")") | $(fmt %.1f "$(ratio "$LL_COPIES" "$LL_OPS")") |"
  else
    echo "Skipped (LLVM_LINES=0)."
  fi
  echo
  echo "CSV: ${RESULTS#"$ROOT"/}/codegen.csv; logs and \`--timings\` reports: ${B#"$ROOT"/}/logs/."
} >"$MD"
cat "$MD"
