#!/usr/bin/python3
"""spyne server of tests/wsdl/large_objects.wsdl for soapgen's benchmark (bench/run.sh).

Usage:  /usr/bin/python3 bench/peers/spyne_large_objects.py [--port N] [--exit-with-parent]

Echo (the 100 "large" objects back) and Ping (the value back), namespace urn:soapgen:bench,
document/literal wrapped with the WSDL's element names (Echo/EchoResponse with repeated `item`,
Ping/PingResponse with `value`): SOAP 1.1 at /soap11, SOAP 1.2 at /soap12 (WSDL at ?wsdl).
Threaded wsgiref server (HTTP/1.0: one connection per call), no schema validation (the fastest
spyne set-up).  Prints one line "LISTENING <port>" once bound, then serves forever.

Needs Debian's python3-spyne (2.14): run it with /usr/bin/python3.
"""

import logging
import os
import sys

from spyne import (Application, Boolean, ComplexModel, DateTime, Decimal, Double, Integer32,
                   Long, ServiceBase, Unicode, rpc)
from spyne.protocol.soap import Soap11, Soap12
from spyne.server.wsgi import WsgiApplication

# The shared start-up of the Python peers (--port, --exit-with-parent, "LISTENING <port>").
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../tests/peers"))
import peer_util  # noqa: E402

TNS = "urn:soapgen:bench"


class Address(ComplexModel):
    __namespace__ = TNS
    _type_info = [
        ("street", Unicode(min_occurs=1, nillable=False)),
        ("city", Unicode(min_occurs=1, nillable=False)),
        ("postalCode", Unicode(min_occurs=1, nillable=False)),
        ("country", Unicode(min_occurs=1, nillable=False)),
    ]


class LargeObject(ComplexModel):
    __namespace__ = TNS
    _type_info = [
        ("id", Long(min_occurs=1, nillable=False)),
        ("name", Unicode(min_occurs=1, nillable=False)),
        ("description", Unicode(min_occurs=1, nillable=False)),
        ("price", Decimal(min_occurs=1, nillable=False)),
        ("quantity", Integer32(min_occurs=1, nillable=False)),
        ("ratio", Double(min_occurs=1, nillable=False)),
        ("active", Boolean(min_occurs=1, nillable=False)),
        ("created", DateTime(min_occurs=1, nillable=False)),
        ("address", Address.customize(min_occurs=1, nillable=False)),
        ("tags", Unicode(min_occurs=0, max_occurs="unbounded", nillable=False)),
    ]


ITEMS = LargeObject.customize(min_occurs=0, max_occurs="unbounded", nillable=False)


class LargeObjectsService(ServiceBase):
    @rpc(ITEMS, _returns=ITEMS, _in_variable_names={"item": "item"},
         _out_variable_name="item", _operation_name="Echo", _in_message_name="Echo",
         _out_message_name="EchoResponse")
    def Echo(ctx, item):
        return item or []

    @rpc(Unicode(min_occurs=1, nillable=False), _returns=Unicode,
         _out_variable_name="value", _operation_name="Ping", _in_message_name="Ping",
         _out_message_name="PingResponse")
    def Ping(ctx, value):
        return value


def make_app(proto):
    return WsgiApplication(Application([LargeObjectsService], tns=TNS, name="LargeObjects",
                                       in_protocol=proto(), out_protocol=proto()))


class Dispatcher(object):
    def __init__(self):
        self.apps = {"/soap11": make_app(Soap11), "/soap12": make_app(Soap12)}

    def __call__(self, environ, start_response):
        app = self.apps.get(environ.get("PATH_INFO", "").rstrip("/"))
        if app is None:
            body = b"not found; try /soap11 or /soap12\n"
            start_response("404 Not Found", [("Content-Type", "text/plain"),
                                             ("Content-Length", str(len(body)))])
            return [body]
        return app(environ, start_response)


class Server(peer_util.ThreadingWSGIServer):  # a larger listen() backlog
    request_queue_size = 128


def main():
    args = peer_util.parse_args(peer_util.arg_parser(__doc__.split("\n")[0], host=False))
    logging.basicConfig(level=logging.ERROR, stream=sys.stderr)
    peer_util.serve(peer_util.wsgi_server("127.0.0.1", args.port, Dispatcher(), Server))


if __name__ == "__main__":
    main()
