#!/usr/bin/python3
"""Line-broken base64 test peer for soapgen's interop tests.

Usage:  /usr/bin/python3 tests/peers/linebreak_server.py [--port N] [--host H]
                                                        [--exit-with-parent]

Implements the two operations of tests/peers/gsoap/mtom/mtom.wsdl (target
namespace ``urn:soapgen:mtom``, document/literal wrapped) and answers with the
base64Binary value INLINE, broken into lines the way various real stacks do
it.  stdlib only (http.server, base64, xml.etree).

Operations (request element in the SOAP Body):

* ``GetData(size, pattern?)`` -> ``GetDataResponse(data)``: ``size`` bytes;
  pattern ``mod251`` (default, also when absent or empty):
  byte i = (i * 31 + 7) mod 251; pattern ``zeros``: every byte 0.
* ``EchoData(name, data)`` -> ``EchoDataResponse(name, size, data)``: the same
  name and bytes back, ``size`` = number of bytes received.  ``data`` must be
  inline base64 (any whitespace accepted); MTOM requests are refused with a
  fault.

The first segment of the request path chooses the line structure of the
base64 text in the reply (the rest of the path is ignored):

==========  ==========================================================
``/none``     no line breaks at all (the control case)
``/crlf76``   76 characters per line, CRLF (MIME, RFC 2045)
``/lf76``     76 characters per line, LF (Python's base64.encodebytes)
``/crlf73``   73 characters per line, CRLF (not a multiple of 4: line
              breaks fall inside 4-character base64 quanta)
``/lf64``     64 characters per line, LF (PEM, RFC 7468)
``/mixed``    line k (k = 0, 1, ...) is MIXED_LENGTHS[k % 5] = 76, 73, 10,
              1, 200 characters long and ends with MIXED_EOLS[k % 2] =
              CRLF, LF (so every length meets both line ends)
``/crref76``  76 characters per line, each line end written as the
              character reference ``&#13;`` followed by a literal LF (as
              some .NET stacks serialize CRLF)
``/custom``   ``?cols=N&eol=crlf|lf|cr|crref|space`` (N >= 1)
==========  ==========================================================

Lines are separated by the line end; there is none after the last line
unless the query has ``trailing=1`` (then every line, the last included, ends
with its line end).  The last line is whatever is left (shorter than the
others).  Unknown paths and bad queries give a SOAP Client fault (HTTP 500).

Replies follow the request's SOAP version (1.1 ``text/xml`` or 1.2
``application/soap+xml``), HTTP/1.1 with Content-Length and keep-alive.  The
reply envelope is shaped like WCF's: ``<s:Envelope xmlns:s=...><s:Body>
<GetDataResponse xmlns="urn:soapgen:mtom"><data>...</data>...``.  ``GET
...?wsdl`` returns mtom.wsdl.

Prints exactly one line ``LISTENING <port>`` on stdout once the socket is
bound, then serves forever.  Nothing else is written to stdout.
"""

import base64
import os
import re
import xml.etree.ElementTree as ET
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import peer_util  # tests/peers/peer_util.py, next to this script

TNS = "urn:soapgen:mtom"
SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/"
SOAP12 = "http://www.w3.org/2003/05/soap-envelope"
WSDL_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gsoap", "mtom", "mtom.wsdl")

MAX_DATA = 256 * 1024 * 1024
MAX_REQUEST = 512 * 1024 * 1024

MIXED_LENGTHS = (76, 73, 10, 1, 200)
MIXED_EOLS = ("\r\n", "\n")

EOLS = {"crlf": "\r\n", "lf": "\n", "cr": "\r", "crref": "&#13;\n", "space": " "}

# name -> (cols, eol) or "mixed" / None
MODES = {
    "none": None,
    "crlf76": (76, "\r\n"),
    "lf76": (76, "\n"),
    "crlf73": (73, "\r\n"),
    "lf64": (64, "\n"),
    "crref76": (76, "&#13;\n"),
    "mixed": "mixed",
}


class Fault(Exception):
    """A Client/Sender fault."""


def pattern_bytes(size, pattern):
    """byte i = (i * 31 + 7) mod 251 ("mod251"), or zeros."""
    if pattern in (None, "", "mod251"):
        period = bytes((i * 31 + 7) % 251 for i in range(251))
        reps = size // 251 + 1
        return (period * reps)[:size]
    if pattern == "zeros":
        return bytes(size)
    raise Fault('unknown pattern "%s" (mod251 or zeros)' % pattern)


def split_lines(text, lengths, eols, trailing):
    """Cut `text` into lines whose lengths cycle through `lengths`, line k
    ending with eols[k % len(eols)]; no line end after the last line unless
    `trailing`."""
    parts = []
    pos = 0
    k = 0
    n = len(text)
    if len(lengths) == 1 and len(eols) == 1:
        # Fast path for fixed-width lines (64 MiB -> ~1.2 M lines).
        cols = lengths[0]
        eol = eols[0]
        lines = [text[i : i + cols] for i in range(0, n, cols)]
        out = eol.join(lines)
        if trailing and lines:
            out += eol
        return out
    while pos < n:
        length = lengths[k % len(lengths)]
        parts.append(text[pos : pos + length])
        pos += length
        if pos < n or trailing:
            parts.append(eols[k % len(eols)])
        k += 1
    return "".join(parts)


def format_base64(data, path, query):
    segment = path.lstrip("/").split("/", 1)[0]
    text = base64.b64encode(data).decode("ascii")
    trailing = query.get("trailing", ["0"])[-1] in ("1", "true", "yes")
    if segment == "custom":
        try:
            cols = int(query.get("cols", [""])[-1])
        except ValueError:
            raise Fault("custom: cols=N (N >= 1) required")
        eol_name = query.get("eol", [""])[-1]
        if cols < 1 or eol_name not in EOLS:
            raise Fault("custom: cols=N (N >= 1) and eol=crlf|lf|cr|crref|space required")
        return split_lines(text, (cols,), (EOLS[eol_name],), trailing)
    if segment not in MODES:
        raise Fault(
            "unknown path %s: use /none, /crlf76, /lf76, /crlf73, /lf64, /mixed, /crref76 "
            "or /custom?cols=N&eol=..." % path
        )
    mode = MODES[segment]
    if mode is None:
        return text
    if mode == "mixed":
        return split_lines(text, MIXED_LENGTHS, MIXED_EOLS, trailing)
    cols, eol = mode
    return split_lines(text, (cols,), (eol,), trailing)


def child(parent, name):
    return parent.find("{%s}%s" % (TNS, name))


def handle(body, path, query):
    """Returns (soap_ns, response body text without envelope)."""
    try:
        root = ET.fromstring(body)
    except ET.ParseError as e:
        raise Fault("request is not well-formed XML: %s" % e)
    soap_ns = root.tag[1:].split("}", 1)[0] if root.tag.startswith("{") else ""
    if root.tag not in ("{%s}Envelope" % SOAP11, "{%s}Envelope" % SOAP12):
        raise Fault("request body is not a SOAP 1.1 or SOAP 1.2 envelope")
    sbody = root.find("{%s}Body" % soap_ns)
    if sbody is None or len(sbody) == 0:
        raise FaultIn(soap_ns, "no operation element in the SOAP Body")
    op = sbody[0]
    if op.tag == "{%s}GetData" % TNS:
        size_el = child(op, "size")
        try:
            size = int((size_el.text or "").strip())
        except (AttributeError, ValueError):
            raise FaultIn(soap_ns, "GetData: <size> (xs:long) required")
        if size < 0 or size > MAX_DATA:
            raise FaultIn(soap_ns, "size %d out of range (0 .. %d)" % (size, MAX_DATA))
        pat_el = child(op, "pattern")
        try:
            data = pattern_bytes(size, pat_el.text if pat_el is not None else None)
            b64 = format_base64(data, path, query)
        except Fault as e:
            raise FaultIn(soap_ns, str(e))
        return soap_ns, '<GetDataResponse xmlns="%s"><data>%s</data></GetDataResponse>' % (TNS, b64)
    if op.tag == "{%s}EchoData" % TNS:
        name_el = child(op, "name")
        data_el = child(op, "data")
        if name_el is None or data_el is None:
            raise FaultIn(soap_ns, "EchoData: <name> and <data> required")
        if len(data_el):
            raise FaultIn(soap_ns, "EchoData: <data> must be inline base64 (no MTOM/XOP here)")
        try:
            data = base64.b64decode(re.sub(r"\s+", "", data_el.text or ""), validate=True)
        except ValueError as e:
            raise FaultIn(soap_ns, "EchoData: invalid base64: %s" % e)
        try:
            b64 = format_base64(data, path, query)
        except Fault as e:
            raise FaultIn(soap_ns, str(e))
        name = xml_escape(name_el.text or "")
        return soap_ns, (
            '<EchoDataResponse xmlns="%s"><name>%s</name><size>%d</size><data>%s</data>'
            "</EchoDataResponse>" % (TNS, name, len(data), b64)
        )
    raise FaultIn(soap_ns, "unknown operation %s" % op.tag)


class FaultIn(Fault):
    """A fault whose SOAP version is known."""

    def __init__(self, soap_ns, msg):
        super().__init__(msg)
        self.soap_ns = soap_ns


def xml_escape(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")


def envelope(soap_ns, inner):
    return (
        '<?xml version="1.0" encoding="utf-8"?>'
        '<s:Envelope xmlns:s="%s"><s:Body>%s</s:Body></s:Envelope>' % (soap_ns, inner)
    )


def fault_body(soap_ns, msg):
    msg = xml_escape(msg)
    if soap_ns == SOAP12:
        return (
            "<s:Fault><s:Code><s:Value>s:Sender</s:Value></s:Code>"
            '<s:Reason><s:Text xml:lang="en">%s</s:Text></s:Reason></s:Fault>' % msg
        )
    return "<s:Fault><faultcode>s:Client</faultcode><faultstring>%s</faultstring></s:Fault>" % msg


def content_type(soap_ns):
    if soap_ns == SOAP12:
        return "application/soap+xml; charset=utf-8"
    return "text/xml; charset=utf-8"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "soapgen-linebreak/1"
    sys_version = ""

    def log_message(self, format, *args):  # noqa: A002 - stdlib signature
        pass

    def _send(self, status, ctype, payload, close=False):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(payload)))
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self):
        url = urlsplit(self.path)
        if url.query.lower() == "wsdl":
            with open(WSDL_PATH, "rb") as f:
                self._send(200, "text/xml; charset=utf-8", f.read())
        else:
            self._send(405, "text/plain; charset=utf-8", b"POST a SOAP request (or GET ?wsdl)\n")

    def _read_body(self):
        if self.headers.get("Transfer-Encoding", "").strip().lower() == "chunked":
            body = bytearray()
            while True:
                line = self.rfile.readline(1024)
                if not line:
                    raise ValueError("connection closed inside chunked body")
                size = int(line.split(b";", 1)[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                        pass
                    return bytes(body)
                if len(body) + size > MAX_REQUEST:
                    raise ValueError("request too large")
                chunk = self.rfile.read(size)
                if len(chunk) != size:
                    raise ValueError("truncated chunk")
                body += chunk
                self.rfile.readline(3)
        length = int(self.headers.get("Content-Length", "0"))
        if length < 0 or length > MAX_REQUEST:
            raise ValueError("bad Content-Length")
        return self.rfile.read(length)

    def do_POST(self):
        try:
            body = self._read_body()
        except ValueError as e:
            self._send(400, "text/plain; charset=utf-8", ("%s\n" % e).encode(), close=True)
            return
        req_ctype = self.headers.get("Content-Type", "")
        soap_ns = SOAP12 if req_ctype.lower().startswith("application/soap+xml") else SOAP11
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        try:
            if req_ctype.lower().startswith("multipart/"):
                raise Fault("MTOM/multipart requests are not supported by this peer")
            soap_ns, inner = handle(body, url.path, query)
            status = 200
        except FaultIn as e:
            soap_ns, inner, status = e.soap_ns, fault_body(e.soap_ns, str(e)), 500
        except Fault as e:
            inner, status = fault_body(soap_ns, str(e)), 500
        if status != 200 and soap_ns == SOAP12:
            status = 400  # Sender fault
        payload = envelope(soap_ns, inner).encode("utf-8")
        self._send(status, content_type(soap_ns), payload)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    args = peer_util.parse_args(peer_util.arg_parser(__doc__.split("\n")[0]))
    peer_util.serve(Server((args.host, args.port), Handler))


if __name__ == "__main__":
    main()
