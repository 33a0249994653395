#!/usr/bin/python3
"""spyne test peer for soapgen's interop tests.

Usage:  /usr/bin/python3 tests/peers/spyne_server.py [--port N] [--host H]
                                                    [--exit-with-parent] [--debug]

Serves one service (target namespace ``urn:soapgen:test``) twice:

* SOAP 1.1 at ``/soap11`` (WSDL at ``/soap11?wsdl``)
* SOAP 1.2 at ``/soap12`` (WSDL at ``/soap12?wsdl``)

and, for SOAP 1.2's SOAP-response message exchange pattern (an HTTP GET answered
with an envelope, SOAP 1.2 Part 2 §6.3), one operation at ``/get/<operation>``
that takes its parameters from the query string (spyne's HttpRpc) and answers
SOAP 1.2 (namespace ``urn:soapgen:test:get``; described by
tests/wsdl/soap_response.wsdl).

Prints exactly one line ``LISTENING <port>`` on stdout once the socket is
bound, then serves forever.  Nothing else is written to stdout; request
logging is suppressed (errors still go to stderr).

Needs Debian's python3-spyne (2.14) -- run it with /usr/bin/python3.
"""

import io
import logging
import sys

from spyne import (
    Application,
    Array,
    Boolean,
    ByteArray,
    ComplexModel,
    ComplexModelBase,
    Decimal,
    Fault,
    Integer,
    Iterable,
    ServiceBase,
    Unicode,
    rpc,
)
from spyne.model.primitive import Date, Double
from spyne.protocol.http import HttpRpc
from spyne.protocol.soap import Soap11, Soap12
from spyne.server.wsgi import WsgiApplication

import peer_util  # tests/peers/peer_util.py, next to this script

TNS = "urn:soapgen:test"


class Address(ComplexModel):
    __namespace__ = TNS
    _type_info = [
        ("street", Unicode),
        ("city", Unicode),
    ]


class Person(ComplexModel):
    __namespace__ = TNS
    _type_info = [
        ("name", Unicode(min_occurs=1, nillable=False)),
        ("age", Integer),
        ("nickname", Unicode(min_occurs=0, nillable=True)),
        ("emails", Unicode(max_occurs="unbounded")),
        ("address", Address),
        ("balance", Decimal),
        ("tags", Array(Unicode)),
    ]


XSI_NIL = "{http://www.w3.org/2001/XMLSchema-instance}nil"

# ---------------------------------------------------------------------------
# Fidelity shim.
#
# Stock spyne 2.14 (verified against this server):
#   * parses BOTH an absent element and <x xsi:nil="true"/> to None, and
#     serializes None of a min_occurs=0 member by OMITTING it -> an explicit nil
#     sent by the client would come back as "absent";
#   * parses an EMPTY element (<x/>, <x></x>) of Unicode/ByteArray type to None
#     as well -> "" would come back absent (or, for a min_occurs=1 member such
#     as Person.name, as xsi:nil="true" although the schema says
#     nillable=false).
# An echo service must echo, so echo_person/echo_bytes re-read the request
# element and mark members that were explicit nils with the NIL sentinel
# (rendered as <x xsi:nil="true"/> by the output protocols below) and members
# that were empty with "" / b"" (rendered as <x/>).
# ---------------------------------------------------------------------------


class _Nil(object):
    """Sentinel: serialize this member as xsi:nil even though it is optional."""

    def __repr__(self):
        return "NIL"


NIL = _Nil()


class NilPreservingMixin(object):
    def to_parent(self, ctx, cls, inst, parent, ns, *args, **kwargs):
        if inst is NIL:
            return self.null_to_parent(ctx, cls, None, parent, ns, *args, **kwargs)
        return super(NilPreservingMixin, self).to_parent(
            ctx, cls, inst, parent, ns, *args, **kwargs
        )


class NilPreservingSoap11(NilPreservingMixin, Soap11):
    pass


class NilPreservingSoap12(NilPreservingMixin, Soap12):
    def schema_validation_error_to_parent(self, ctx, cls, inst, parent, ns, **_):
        # spyne 2.14 bug: Soap12's version builds "{soap12env}Reason" (prefix
        # instead of namespace URI) from a *bytes* faultstring and raises
        # TypeError, so every SOAP 1.2 schema-validation error became a bare
        # "HTTP 500 text/plain" page.  Render it like any other fault instead
        # (Sender / Subcode SchemaValidationError), mirroring what Soap11 does
        # (which strips lxml's "<string>" file-name prefix).
        text = inst.faultstring
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        if text.startswith("<string>"):
            text = text[len("<string>"):]
        inst.faultstring = text
        return self.fault_to_parent(ctx, cls, inst, parent, ns)


def _is_nil(elt):
    return elt.get(XSI_NIL) in ("true", "1")


def _is_empty(elt):
    return not elt.text and len(elt) == 0


def _restore(cls, value, elt):
    """Return ``value`` with None replaced by NIL / "" / b"" where ``elt``
    (the element ``value`` was parsed from) says so; recurse into
    complex types and wrapped arrays."""
    if elt is None:
        return value
    if _is_nil(elt):
        return NIL if value is None else value
    if value is None:
        if issubclass(cls, Unicode) and _is_empty(elt):
            return ""
        if issubclass(cls, ByteArray) and _is_empty(elt):
            return (b"",)
        return value
    if issubclass(cls, Array):
        (item_name, item_cls), = cls._type_info.items()
        items = elt.findall("{%s}%s" % (TNS, item_name))
        return [_restore(item_cls, v, e) for v, e in zip(value, items)] + list(
            value[len(items):]
        )
    if issubclass(cls, ComplexModelBase):
        for name, member_cls in cls._type_info.items():
            children = elt.findall("{%s}%s" % (TNS, name))
            cur = getattr(value, name, None)
            if member_cls.Attributes.max_occurs > 1:
                if cur is not None:
                    cur = [_restore(member_cls, v, e) for v, e in zip(cur, children)]
                    setattr(value, name, cur)
            elif children:
                setattr(value, name, _restore(member_cls, cur, children[0]))
        return value
    return value


def _request_child(ctx, name):
    body = ctx.in_body_doc  # the operation wrapper element, e.g. <tns:echo_person>
    if body is None:
        return None
    return body.find("{%s}%s" % (TNS, name))


class TestService(ServiceBase):
    @rpc(Unicode, Integer, _returns=Iterable(Unicode))
    def say_hello(ctx, name, times):
        # A list, not a generator: spyne 2.14's WsgiApplication crashes with
        # an uncaught StopIteration (bare HTTP 500 text/plain) when an
        # Iterable-returning generator yields nothing (times=0).
        return ["Hello, %s" % name] * max(times or 0, 0)

    @rpc(Person, _returns=Person)
    def echo_person(ctx, person):
        return _restore(Person, person, _request_child(ctx, "person"))

    @rpc(ByteArray, _returns=ByteArray)
    def echo_bytes(ctx, data):
        # ByteArray values are sequences of byte chunks; return as-is.
        return _restore(ByteArray, data, _request_child(ctx, "data"))

    @rpc(Unicode, Unicode, Unicode, Integer, Boolean, Unicode, _returns=Unicode)
    def register_trader(ctx, country, vat_number, name, employees, trader, street):
        # Six parameters, every one optional (spyne's default minOccurs is 0): what a client
        # sent, one field each, "-" for an absent one.
        def show(v):
            if v is None:
                return "-"
            if isinstance(v, bool):
                return "true" if v else "false"
            return str(v)

        values = [country, vat_number, name, employees, trader, street]
        return "|".join(show(v) for v in values)

    @rpc(Unicode, _returns=Unicode)
    def raise_fault(ctx, code):
        raise Fault(
            faultcode="Client.InvalidInput",
            faultstring="invalid input: %s" % code,
            # Exactly one top-level key: Soap12 requires it (root_dict_to_etree).
            detail={
                "{%s}ErrorInfo" % TNS: {
                    "{%s}code" % TNS: code if code is not None else "",
                },
            },
        )


GET_TNS = "urn:soapgen:test:get"


class AvailabilityService(ServiceBase):
    """The WSDL 2.0 Primer's availability check, answered to a GET."""

    @rpc(Date, Date, Unicode, _returns=Double)
    def check_availability(ctx, checkInDate, checkOutDate, roomType):
        if not roomType:
            raise Fault("Client", "no such room type: %r" % (roomType,))
        nights = (checkOutDate - checkInDate).days
        return 80.5 * nights + (20.0 if "sea" in roomType else 0.0)


def make_app(in_cls, out_cls, service=TestService, tns=TNS, name="SoapgenTestService",
             validator="lxml"):
    app = Application(
        [service],
        tns=tns,
        name=name,
        in_protocol=in_cls(validator=validator),
        out_protocol=out_cls(),
    )
    return WsgiApplication(app)


class Dispatcher(object):
    def __init__(self):
        self.apps = {
            "/soap11": make_app(Soap11, NilPreservingSoap11),
            "/soap12": make_app(Soap12, NilPreservingSoap12),
        }
        self.get_app = make_app(
            HttpRpc, Soap12, AvailabilityService, GET_TNS, "AvailabilityService", "soft"
        )

    def __call__(self, environ, start_response):
        if environ.get("HTTP_TRANSFER_ENCODING", "").strip().lower() == "chunked":
            # wsgiref does not decode chunked request bodies (spyne would see
            # an empty body and crash with a bare "500 text/plain").
            try:
                body = _read_chunked(environ["wsgi.input"])
            except ValueError as e:
                msg = ("bad chunked request body: %s\n" % e).encode()
                start_response(
                    "400 Bad Request",
                    [("Content-Type", "text/plain"), ("Content-Length", str(len(msg)))],
                )
                return [msg]
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            del environ["HTTP_TRANSFER_ENCODING"]
        path = environ.get("PATH_INFO", "")
        if len(path) > 1:
            path = path.rstrip("/")
        app = self.apps.get(path)
        if app is None and path.startswith("/get/"):
            app = self.get_app
        if app is None:
            body = b"not found; try /soap11 or /soap12\n"
            start_response(
                "404 Not Found",
                [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))],
            )
            return [body]
        return app(environ, start_response)


def _read_chunked(rfile):
    body = bytearray()
    while True:
        line = rfile.readline(65537)
        if not line:
            raise ValueError("connection closed inside chunked body")
        try:
            size = int(line.split(b";", 1)[0].strip(), 16)
        except ValueError:
            raise ValueError("bad chunk size line %r" % line[:40])
        if size == 0:
            while rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                pass  # trailers
            return bytes(body)
        chunk = rfile.read(size)
        if len(chunk) != size:
            raise ValueError("truncated chunk")
        body += chunk
        rfile.readline(3)  # CRLF after the chunk data


def main():
    parser = peer_util.arg_parser(__doc__.split("\n")[0])
    parser.add_argument("--debug", action="store_true", help="spyne debug logging on stderr")
    args = peer_util.parse_args(parser)

    logging.basicConfig(
        level=logging.DEBUG if args.debug else logging.ERROR, stream=sys.stderr
    )
    if not args.debug:
        # Faults raised on purpose (raise_fault, schema validation) are
        # logged by spyne with a full traceback at ERROR level; silence them.
        logging.getLogger("spyne.application.client").setLevel(logging.CRITICAL)

    peer_util.serve(peer_util.wsgi_server(args.host, args.port, Dispatcher()))


if __name__ == "__main__":
    main()
