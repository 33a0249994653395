#!/usr/bin/env bash
# Re-create the wire captures under tests/peers/captures/ from the real peers.
#
#   tests/peers/capture.sh            # all peers; builds the gSOAP ones into a temp dir
#   tests/peers/capture.sh globalweather      # only the named peers
#                                     # (spyne, gsoap, globalweather, gsoap-mtom)
#   GSOAP_SERVER=/path/echo-server tests/peers/capture.sh
#   GLOBALWEATHER_SERVER=/path/globalweather-server tests/peers/capture.sh
#   GSOAP_MTOM_SERVER=/path/mtom-server tests/peers/capture.sh gsoap-mtom
#
# For every captures/<peer>/<case>-<soap11|soap12>-request.xml (hand-written
# request bodies) this POSTs the file unchanged with curl and writes
#   <case>-<ver>-request.http    request line + headers as sent by curl
#   <case>-<ver>-response.http   status line + response headers
#   <case>-<ver>-response.xml    response body, byte for byte
# and fetches spyne's generated WSDLs into captures/spyne/soap1{1,2}.wsdl.
# GlobalWeather requests go to /globalweather.asmx with SOAPAction
# "http://www.webserviceX.NET/<operation>" (<case> up to the first "_");
# GetWeather-httpget-response.{http,xml} is a GET on the WSDL's HTTP GET port
# (/globalweather.asmx/GetWeather?CityName=Sydney&CountryName=Australia).
# gSOAP MTOM: each captures/gsoap-mtom/<case>-<ver>-request.xml is POSTed to
# /mtom (-> <case>-<ver>-mtom-response.{http,mime}, a multipart/related body)
# and to /inline (-> <case>-<ver>-inline-response.{http,xml}).
set -euo pipefail

all_peers=(spyne gsoap globalweather gsoap-mtom)
selected=("$@")
[[ ${#selected[@]} -gt 0 ]] || selected=("${all_peers[@]}")
for p in "${selected[@]}"; do
  [[ " ${all_peers[*]} " == *" $p "* ]] || { echo "capture.sh: unknown peer '$p' (${all_peers[*]})" >&2; exit 2; }
done
want() { [[ " ${selected[*]} " == *" $1 "* ]]; }

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cap="$here/captures"
python=/usr/bin/python3

tmp="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# start_peer <name> <cmd...>: starts it, waits for "LISTENING <port>", sets $port
start_peer() {
  local name="$1"; shift
  "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
  pids+=("$!")
  for _ in $(seq 1 300); do
    if grep -q '^LISTENING ' "$tmp/$name.out" 2>/dev/null; then
      port="$(awk '/^LISTENING /{print $2; exit}' "$tmp/$name.out")"
      return 0
    fi
    sleep 0.1
  done
  echo "capture.sh: $name did not start:" >&2
  cat "$tmp/$name.err" >&2
  exit 1
}

# post <url> <version> <soapaction> <dir> <case>
post() {
  local url="$1" ver="$2" action="$3" dir="$4" case="$5"
  local req="$dir/$case-$ver-request.xml"
  local ct
  local -a hdrs
  if [[ "$ver" == soap11 ]]; then
    hdrs=(-H "Content-Type: text/xml; charset=utf-8" -H "SOAPAction: \"$action\"")
  else
    hdrs=(-H "Content-Type: application/soap+xml; charset=utf-8; action=\"$action\"")
  fi
  curl -sS -v --http1.1 "${hdrs[@]}" -H "Expect:" \
    --data-binary "@$req" \
    -D "$tmp/headers" -o "$dir/$case-$ver-response.xml" \
    "$url" 2>"$tmp/verbose"
  sed -n 's/^> //p' "$tmp/verbose" | tr -d '\r' | sed '/^$/d' > "$dir/$case-$ver-request.http"
  tr -d '\r' < "$tmp/headers" | sed '/^$/d' > "$dir/$case-$ver-response.http"
  ct="$(head -n1 "$dir/$case-$ver-response.http")"
  echo "  $(basename "$dir")/$case-$ver: $ct"
}

# ---------------------------------------------------------------- spyne
if want spyne; then
start_peer spyne "$python" "$here/spyne_server.py" --port 0
base="http://127.0.0.1:$port"
echo "spyne on $base"
curl -sS -o "$cap/spyne/soap11.wsdl" "$base/soap11?wsdl"
curl -sS -o "$cap/spyne/soap12.wsdl" "$base/soap12?wsdl"
for req in "$cap"/spyne/*-request.xml; do
  f="$(basename "$req" -request.xml)"   # <case>-<ver>
  ver="${f##*-}"
  case="${f%-*}"
  case "$case" in
    schema_error) action=echo_person ;;
    *) action="$case" ;;
  esac
  post "$base/$ver" "$ver" "$action" "$cap/spyne" "$case"
done
fi

# ---------------------------------------------------------------- gSOAP
if want gsoap; then
gsoap_server="${GSOAP_SERVER:-}"
if [[ -z "$gsoap_server" ]]; then
  "$here/gsoap/build.sh" "$tmp/gsoap" >/dev/null
  gsoap_server="$tmp/gsoap/echo-server"
fi
start_peer gsoap "$gsoap_server" --port 0
base="http://127.0.0.1:$port"
echo "gSOAP on $base"
for req in "$cap"/gsoap/*-request.xml; do
  f="$(basename "$req" -request.xml)"
  ver="${f##*-}"
  case="${f%-*}"
  action="urn:soapgen:gsoap#${case%%_*}"
  post "$base/$ver" "$ver" "$action" "$cap/gsoap" "$case"
done
fi

# ---------------------------------------------------------- GlobalWeather
if want globalweather; then
gw_server="${GLOBALWEATHER_SERVER:-}"
if [[ -z "$gw_server" ]]; then
  "$here/globalweather/build.sh" "$tmp/globalweather" >/dev/null
  gw_server="$tmp/globalweather/globalweather-server"
fi
start_peer globalweather "$gw_server" --port 0
base="http://127.0.0.1:$port"
echo "GlobalWeather on $base"
for req in "$cap"/globalweather/*-request.xml; do
  f="$(basename "$req" -request.xml)"
  ver="${f##*-}"
  case="${f%-*}"
  action="http://www.webserviceX.NET/${case%%_*}"
  post "$base/globalweather.asmx" "$ver" "$action" "$cap/globalweather" "$case"
done
# The WSDL's HTTP GET port (.asmx style <string> answer).
curl -sS --http1.1 -D "$tmp/headers" -o "$cap/globalweather/GetWeather-httpget-response.xml" \
  "$base/globalweather.asmx/GetWeather?CityName=Sydney&CountryName=Australia"
tr -d '\r' < "$tmp/headers" | sed '/^$/d' > "$cap/globalweather/GetWeather-httpget-response.http"
echo "  globalweather/GetWeather-httpget: $(head -n1 "$cap/globalweather/GetWeather-httpget-response.http")"
fi

# -------------------------------------------------------------- gSOAP MTOM
if want gsoap-mtom; then
mtom_server="${GSOAP_MTOM_SERVER:-}"
if [[ -z "$mtom_server" ]]; then
  "$here/gsoap/mtom/build.sh" "$tmp/gsoap-mtom" >/dev/null
  mtom_server="$tmp/gsoap-mtom/mtom-server"
fi
start_peer gsoap-mtom "$mtom_server" --port 0
base="http://127.0.0.1:$port"
echo "gSOAP MTOM on $base"
for req in "$cap"/gsoap-mtom/*-request.xml; do
  f="$(basename "$req" -request.xml)"
  ver="${f##*-}"
  case="${f%-*}"
  action="urn:soapgen:mtom#${case%%_*}"
  for mode in mtom inline; do
    ext=xml
    [[ "$mode" == mtom ]] && ext=mime
    if [[ "$ver" == soap11 ]]; then
      hdrs=(-H "Content-Type: text/xml; charset=utf-8" -H "SOAPAction: \"$action\"")
    else
      hdrs=(-H "Content-Type: application/soap+xml; charset=utf-8; action=\"$action\"")
    fi
    curl -sS --http1.1 "${hdrs[@]}" -H "Expect:" --data-binary "@$req" \
      -D "$tmp/headers" -o "$cap/gsoap-mtom/$case-$ver-$mode-response.$ext" "$base/$mode"
    tr -d '\r' < "$tmp/headers" | sed '/^$/d' > "$cap/gsoap-mtom/$case-$ver-$mode-response.http"
    echo "  gsoap-mtom/$case-$ver-$mode: $(grep -i '^content-type' "$cap/gsoap-mtom/$case-$ver-$mode-response.http")"
  done
done
fi
