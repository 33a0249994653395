# shellcheck shell=bash
# What the gSOAP peers' build scripts share (tests/peers/gsoap/build.sh, its
# mtom/ and swa/, tests/peers/globalweather/build.sh, bench/gsoap/build.sh).
# Sourced by each of them after `set -euo pipefail`; a build script then reads
#
#   peer_need_tools od sed                  # optional: tools beyond the usual
#   peer_need_share import/xop.h ...        # optional: gSOAP data files needed
#   peer_use_pkg gsoapssl                   # optional: link another gSOAP library (default gsoap)
#   peer_begin "$@"                         # checks; sets out_dir, gsoap_share, work, gen
#   peer_typemap 'g = "urn:soapgen:gsoap"'  # $gen/typemap.dat: stock + these lines
#   cp ... "$gen/"
#   generate() { wsdl2h ...; soapcpp2 ...; }
#   peer_generate generate                  # runs it in $gen, output to a log
#   peer_gcc echo-server -O1 -g -- "$src_dir/server.c" "$gen/soapServer.c" "$gen/soapC.c" "$PEER_MAIN_C"
#   peer_publish echo-server                # $gen and the binaries into out_dir
#
# Nothing is written into the source tree.  Idempotent: every run generates
# into a fresh temporary directory under <outdir> (removed on exit) and then
# replaces <outdir>/gen and the binaries.
#
# Needs: gsoap (wsdl2h, soapcpp2, /usr/share/gsoap), libgsoap-dev, pkg-config,
#   gcc (apt-get install -y gsoap libgsoap-dev pkg-config gcc)

PEER_COMMON_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# The shared main loop of the servers (peer_main.h is found via -I).
PEER_MAIN_C="$PEER_COMMON_DIR/peer_main.c"
PEER_INSTALL_HINT="apt-get install -y gsoap libgsoap-dev pkg-config gcc"

peer_tools=(wsdl2h soapcpp2 pkg-config gcc mktemp)
peer_share_files=(WS/typemap.dat import/)
# The pkg-config package whose flags peer_gcc uses: gsoap, or gsoapssl (with
# OpenSSL, DOM and zlib: the WS-Security plugin needs it).
peer_pkg=gsoap

# peer_need_tools TOOL...: also require these commands.
peer_need_tools() {
  peer_tools+=("$@")
}

# peer_need_share FILE...: the gSOAP data directory must also hold these
# (paths relative to it).
peer_need_share() {
  peer_share_files+=("$@")
}

# peer_use_pkg PKG: compile and link against pkg-config's PKG (gsoapssl)
# instead of gsoap.
peer_use_pkg() {
  peer_pkg="$1"
}

# peer_begin "$@": exactly one argument, the output directory.  Checks the
# tools, pkg-config's gsoap and the gSOAP data directory, then sets
#   out_dir      the output directory (created, absolute)
#   gsoap_share  /usr/share/gsoap or /usr/local/share/gsoap
#   work         a fresh temporary directory in out_dir, removed on exit
#   gen          $work/gen, where the code is generated
peer_begin() {
  if [[ $# -ne 1 ]]; then
    echo "usage: $0 <outdir>" >&2
    exit 2
  fi

  local missing=() tool d f ok
  for tool in "${peer_tools[@]}"; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
  done
  if [[ ${#missing[@]} -gt 0 ]]; then
    echo "build.sh: missing tools: ${missing[*]} ($PEER_INSTALL_HINT)" >&2
    exit 3
  fi
  if ! pkg-config --exists "$peer_pkg"; then
    echo "build.sh: pkg-config cannot find $peer_pkg (apt-get install -y libgsoap-dev)" >&2
    exit 3
  fi

  # wsdl2h's stock typemap lives next to its import directory.
  gsoap_share=""
  for d in /usr/share/gsoap /usr/local/share/gsoap; do
    ok=1
    for f in "${peer_share_files[@]}"; do
      [[ -e "$d/$f" ]] || ok=0
    done
    if [[ $ok -eq 1 ]]; then
      gsoap_share="$d"
      break
    fi
  done
  if [[ -z "$gsoap_share" ]]; then
    local IFS=,
    echo "build.sh: gSOAP data files not found (/usr/share/gsoap/{${peer_share_files[*]}}; apt-get install -y gsoap)" >&2
    exit 3
  fi

  mkdir -p "$1"
  out_dir="$(cd "$1" && pwd)"
  work="$(mktemp -d "$out_dir/.build.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  gen="$work/gen"
  mkdir -p "$gen"
}

# peer_typemap LINE...: $gen/typemap.dat = gSOAP's stock typemap, an empty
# line, then the LINEs (namespace prefixes, [ verbatim header text ] ...).
peer_typemap() {
  {
    cat "$gsoap_share/WS/typemap.dat"
    echo
    printf '%s\n' "$@"
  } >"$gen/typemap.dat"
}

# peer_generate FUNCTION: runs FUNCTION in $gen (errexit on) with its output
# in $work/generate.log; on failure shows the log and exits 1.
peer_generate() {
  local rc=0
  set +e
  (
    set -e
    cd "$gen"
    "$@"
  ) >"$work/generate.log" 2>&1
  rc=$?
  set -e
  if [[ $rc -ne 0 ]]; then
    cat "$work/generate.log" >&2
    echo "build.sh: code generation failed" >&2
    exit 1
  fi
}

# peer_split_flags FLAG... -- INPUT...: the FLAGs into the caller's local
# array cflags, the INPUTs into the global array peer_inputs.
peer_split_flags() {
  while [[ $# -gt 0 && "$1" != "--" ]]; do
    cflags+=("$1")
    shift
  done
  [[ $# -gt 0 ]] && shift
  peer_inputs=("$@")
}

# peer_gcc BINARY CFLAG... -- INPUT...: gcc -std=gnu99 -Wall with the CFLAGs,
# $gen and common/ on the include path and gSOAP's pkg-config flags
# ($peer_pkg), into
# $work/BINARY; INPUTs (sources, extra -l) before gSOAP's libs and -lpthread.
peer_gcc() {
  local bin="$1" cflags=()
  shift
  peer_split_flags "$@"
  set -- "${peer_inputs[@]}"
  # shellcheck disable=SC2046  # word splitting of pkg-config output is intended
  gcc -std=gnu99 "${cflags[@]}" -Wall \
    -I"$gen" -I"$PEER_COMMON_DIR" \
    $(pkg-config --cflags "$peer_pkg") \
    -o "$work/$bin" \
    "$@" \
    $(pkg-config --libs "$peer_pkg") -lpthread
}

# peer_gxx BINARY CXXFLAG... -- INPUT...: a C++ server (gSOAP's C++ mode): the
# shared main loop (common/peer_main.c) compiled as C with gcc, then g++ -Wall
# with the CXXFLAGs, $gen and common/ on the include path and gSOAP's
# pkg-config flags ($peer_pkg, e.g. gsoap++), into $work/BINARY; INPUTs before
# gSOAP's libs and -lpthread.
peer_gxx() {
  local bin="$1" cflags=()
  shift
  peer_split_flags "$@"
  set -- "${peer_inputs[@]}"
  gcc -std=gnu99 "${cflags[@]}" -Wall -I"$PEER_COMMON_DIR" \
    -c -o "$work/peer_main.o" "$PEER_MAIN_C"
  # shellcheck disable=SC2046  # word splitting of pkg-config output is intended
  g++ "${cflags[@]}" -Wall \
    -I"$gen" -I"$PEER_COMMON_DIR" \
    $(pkg-config --cflags "$peer_pkg") \
    -o "$work/$bin" \
    "$@" "$work/peer_main.o" \
    $(pkg-config --libs "$peer_pkg") -lpthread
}

# peer_publish BINARY...: replace <outdir>/gen and <outdir>/BINARY... with
# the new ones.
peer_publish() {
  local bin built=()
  rm -rf "$out_dir/gen"
  mv "$gen" "$out_dir/gen"
  for bin in "$@"; do
    mv -f "$work/$bin" "$out_dir/$bin"
    built+=("$out_dir/$bin")
  done
  echo "built ${built[*]} (gsoap $(pkg-config --modversion gsoap))"
}
