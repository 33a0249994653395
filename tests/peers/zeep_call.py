"""One call by zeep 4.2, a SOAP client no one here wrote, of a service it reads from its WSDL,
for tests/tests/mapping/fake.rs (the loopback fake served by soapgen).

    /usr/bin/python3 zeep_call.py WSDL_URL SERVICE PORT OPERATION JSON_ARGS

zeep reads the WSDL at WSDL_URL (the fake serves it at ?wsdl, its addresses pointing at the
fake), binds SERVICE/PORT, calls OPERATION with the keyword arguments of the JSON object
JSON_ARGS (an object {"$base64": "..."} stands for bytes, both ways), and prints one JSON
object: {"result": ...} (zeep's value, serialized), or
{"fault": {"code": ..., "message": ..., "subcodes": [...], "detail": "<xml>"}} for a SOAP fault.

    ... [--user NAME --password PW] [--key KEY.pem --cert CERT.pem]

WS-Security with zeep's own plugins (python3-xmlsec for signatures): --user adds
UsernameToken(NAME, PW, use_digest=True) (a PasswordDigest with Nonce and Created, WSS
UsernameToken Profile 1.1 section 3.1), --key adds BinarySignature(KEY, CERT), which signs the
request's Body with RSA-SHA1 and checks the response's signature with CERT (zeep verifies a
response with the certificate it signs with); a response that fails that check is printed as
{"error": "..."}.

    ... [--local URL=PATH]...

A document zeep would fetch from URL (a schema the WSDL imports, such as the SOAP encoding
schema of an rpc/encoded WSDL) is read from the file PATH instead: these machines reach no web
site.
"""

import argparse
import base64
import json

import zeep
import zeep.helpers
from lxml import etree


def wsse(options):
    """The zeep WS-Security plugins the options ask for, in the order zeep applies them (None:
    none)."""
    plugins = []
    if options.user is not None:
        from zeep.wsse.username import UsernameToken

        plugins.append(UsernameToken(options.user, options.password, use_digest=True))
    if options.key is not None:
        from zeep.wsse.signature import BinarySignature

        plugins.append(BinarySignature(options.key, options.cert))
    if not plugins:
        return None
    # Compose, not a list: zeep 4.2 checks a response with `wsse.verify`, which a list lacks.
    from zeep.wsse.compose import Compose

    return Compose(plugins)


def binary(obj):
    """A JSON object {"$base64": "..."} as the bytes it encodes (zeep's xs:base64Binary value)."""
    if list(obj) == ["$base64"]:
        return base64.b64decode(obj["$base64"])
    return obj


def printable(value):
    """A value JSON has no type for: an XML element zeep left untyped (the items of a SOAP
    encoding array) as its XML, anything else (Decimal, datetime) as str()."""
    if isinstance(value, etree._Element):
        return etree.tostring(value, encoding="unicode")
    if isinstance(value, bytes):
        return {"$base64": base64.b64encode(value).decode("ascii")}
    return str(value)


class LocalTransport(zeep.Transport):
    """zeep's transport, with some URLs answered from local files."""

    def __init__(self, local):
        super().__init__()
        self.local = local

    def load(self, url):
        if url in self.local:
            with open(self.local[url], "rb") as fh:
                return fh.read()
        return super().load(url)


def main():
    parser = argparse.ArgumentParser()
    for name in ("wsdl", "service", "port", "operation", "args"):
        parser.add_argument(name)
    parser.add_argument("--user")
    parser.add_argument("--password")
    parser.add_argument("--key")
    parser.add_argument("--cert")
    parser.add_argument("--local", action="append", default=[])
    options = parser.parse_args()
    local = dict(entry.split("=", 1) for entry in options.local)
    client = zeep.Client(options.wsdl, wsse=wsse(options), transport=LocalTransport(local))
    proxy = client.bind(options.service, options.port)
    try:
        args = json.loads(options.args, object_hook=binary)
        result = getattr(proxy, options.operation)(**args)
        out = {"result": zeep.helpers.serialize_object(result)}
    except zeep.exceptions.SignatureVerificationFailed as e:
        out = {"error": "SignatureVerificationFailed: %s" % e}
    except zeep.exceptions.Fault as f:
        detail = etree.tostring(f.detail, encoding="unicode") if f.detail is not None else None
        subcodes = [str(s) for s in (f.subcodes or [])]
        out = {"fault": {"code": str(f.code), "message": f.message, "subcodes": subcodes,
                         "detail": detail}}
    print(json.dumps(out, default=printable))


if __name__ == "__main__":
    main()
