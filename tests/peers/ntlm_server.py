"""HTTP NTLM / Negotiate acceptor in front of a SOAP server, for soapgen's tests.

The authentication is pyspnego's (PyPI ``pyspnego``): ``spnego.server(protocol=...)``
with its NTLM credential store, the file named by ``NTLM_USER_FILE``
(``DOMAIN:USER:PASSWORD`` lines).  HTTP carries the tokens as RFC 4559 says:
``WWW-Authenticate: NTLM`` / ``Negotiate`` on a 401, the client's token in
``Authorization: <scheme> <base64>``, the server's next token in the next 401.

As IIS does, a handshake authenticates the *connection*: each keep-alive
connection has its own pyspnego context, a token arriving on another
connection than the handshake's earlier legs fails (there is no context for
it), and later requests on an authenticated connection need no header.  Once
authenticated, a request is forwarded to ``--backend`` (the gSOAP echo peer)
and its reply returned, so the SOAP side is a real server's; a GET is forwarded
with its own path (documents for ``soapgen fetch``).

With ``--protocol negotiate`` the acceptor is pyspnego's SPNEGO (RFC 4178)
one, NTLM its mechanism: it verifies the client's mechListMIC and, when the
handshake completes, returns its own final token (accept-completed and its
mechListMIC) in ``WWW-Authenticate: Negotiate <token>`` on the 200, as
RFC 4559 section 4.1 allows.  ``--tamper-final-mic`` flips one bit of that
token's mechListMIC (the last field of the DER, so its last 16 bytes), to
test that a client checks it.

With ``--tls-cert PEM --tls-key PEM`` it serves HTTPS with that certificate, and with
``--channel-bindings ok`` its security contexts require the RFC 5929 ``tls-server-end-point``
channel bindings of that certificate (the SHA-256 of its DER; the test certificates are signed
with SHA-256), as IIS's Extended Protection does; ``--channel-bindings wrong`` requires those of
another certificate (a client that sends its own is then refused: MIT's acceptor ignores
bindings only when the client sends none).

Usage: ntlm_server.py --backend URL [--protocol ntlm|negotiate]
                      [--tamper-final-mic] [--port N] [--host H]
                      [--tls-cert PEM --tls-key PEM [--channel-bindings ok|wrong]]
                      [--exit-with-parent]

One line on stderr per decision, which the tests read:
  ``challenge connection=C``, ``leg connection=C``,
  ``ok connection=C user=DOMAIN\\USER protocol=P final=yes|no``,
  ``refused connection=C: <why>``, ``served connection=C request=R``.
"""

import base64
import hashlib
import http.client
import http.server
import itertools
import sys
import urllib.parse

import peer_util
import spnego
from spnego.channel_bindings import GssChannelBindings

CONNECTIONS = itertools.count(1)


def log(line):
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "soapgen-ntlm-acceptor"

    def setup(self):
        super().setup()
        self.connection_id = next(CONNECTIONS)
        self.context = None
        self.authenticated = None
        self.final = None
        self.requests = 0

    def log_message(self, fmt, *args):
        pass

    def reply(self, status, body, headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def unauthorized(self, token=None):
        value = self.server.scheme if token is None else "%s %s" % (
            self.server.scheme, base64.b64encode(token).decode("ascii"))
        self.reply(401, b"unauthorized\n", [("WWW-Authenticate", value),
                                            ("Content-Type", "text/plain")])

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        self.handle_request("POST", self.rfile.read(length))

    def do_GET(self):
        # soapgen fetch: documents behind the same authentication.
        self.handle_request("GET", None)

    def handle_request(self, method, body):
        c = self.connection_id
        if self.authenticated is None:
            auth = self.headers.get("Authorization", "")
            scheme, _, token = auth.partition(" ")
            if scheme.lower() != self.server.scheme.lower() or not token.strip():
                log("challenge connection=%d" % c)
                self.context = None
                return self.unauthorized()
            try:
                if self.context is None:
                    self.context = spnego.server(protocol=self.server.protocol,
                                                 channel_bindings=self.server.channel_bindings)
                out = self.context.step(base64.b64decode(token.strip()))
            except Exception as e:  # pyspnego's errors: bad token, wrong password
                log("refused connection=%d: %s" % (c, str(e).splitlines()[0]))
                self.context = None
                return self.unauthorized()
            if not self.context.complete:
                log("leg connection=%d" % c)
                return self.unauthorized(out)
            self.authenticated = self.context.client_principal
            if out and self.server.tamper_final_mic:
                out = out[:-9] + bytes([out[-9] ^ 0x01]) + out[-8:]
            self.final = out
            log("ok connection=%d user=%s protocol=%s final=%s"
                % (c, self.authenticated, self.context.negotiated_protocol,
                   "yes" if out else "no"))
        self.requests += 1
        log("served connection=%d request=%d" % (c, self.requests))
        status, headers, data = self.server.forward(method, self.path, self.headers, body)
        if self.final:
            # RFC 4559 section 4.1: the server's last token on the response that succeeds.
            headers = headers + [("WWW-Authenticate", "%s %s" % (
                self.server.scheme, base64.b64encode(self.final).decode("ascii")))]
            self.final = None
        self.reply(status, data, headers)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def forward(self, method, path, headers, body):
        conn = http.client.HTTPConnection(self.backend.hostname, self.backend.port, timeout=30)
        fwd = {k: v for k, v in headers.items()
               if k.lower() in ("content-type", "soapaction", "accept")}
        # A POST goes to the backend's SOAP endpoint; a GET keeps its own path (a document).
        target = path if method == "GET" else (self.backend.path or path)
        conn.request(method, target, body, fwd)
        resp = conn.getresponse()
        data = resp.read()
        out = [(k, v) for k, v in resp.getheaders() if k.lower() == "content-type"]
        conn.close()
        return resp.status, out, data


def main():
    parser = peer_util.arg_parser(__doc__.split("\n")[0])
    parser.add_argument("--backend", required=True)
    parser.add_argument("--protocol", choices=["ntlm", "negotiate"], default="ntlm")
    parser.add_argument("--tamper-final-mic", action="store_true")
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    parser.add_argument("--channel-bindings", choices=["ok", "wrong"])
    args = peer_util.parse_args(parser)
    server = Server((args.host, args.port), Handler)
    server.backend = urllib.parse.urlsplit(args.backend)
    server.protocol = args.protocol
    server.tamper_final_mic = args.tamper_final_mic
    server.scheme = "NTLM" if args.protocol == "ntlm" else "Negotiate"
    server.channel_bindings = None
    if args.tls_cert:
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls_cert, args.tls_key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        if args.channel_bindings:
            with open(args.tls_cert) as f:
                der = ssl.PEM_cert_to_DER_cert(f.read())
            if args.channel_bindings == "wrong":
                der = der + b"another certificate"
            server.channel_bindings = GssChannelBindings(
                application_data=b"tls-server-end-point:" + hashlib.sha256(der).digest())
    peer_util.serve(server)


if __name__ == "__main__":
    main()
