"""Nil elements with attributes (XML Schema Part 1 section 2.6.2) as zeep 4.2 writes and reads them,
for tests/tests/kinds.rs. zeep reads tests/wsdl/kinds.wsdl; nothing is sent anywhere.

    /usr/bin/python3 zeep_nil.py render     # prints an EchoNilsResponse envelope written by zeep
    /usr/bin/python3 zeep_nil.py parse      # reads an EchoNils request envelope on stdin and
                                            # prints what zeep makes of its reqPrice and optPrice

render: zeep's own serializer (the element's ``render``, the code ``create_message`` runs) writes
the ``v`` of an EchoNilsResponse with reqText nil, reqPrice ``currency="EUR"`` and optPrice
``currency="USD"`` both with nil content (``zeep.xsd.Nil``), wrapped in a SOAP 1.1 envelope.
parse: zeep's deserializer (``parse``, as for a response) reads the EchoNils element of the
request body; one line per element, ``name currency=<value or None> nil=<True|False>
value=<text value>``.
"""

import os
import sys

import zeep
from lxml import etree
from zeep import xsd

NS = "urn:soapgen:kinds"
SOAP = "http://schemas.xmlsoap.org/soap/envelope/"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
WSDL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "wsdl", "kinds.wsdl")


def main():
    client = zeep.Client(WSDL)
    if sys.argv[1:] == ["render"]:
        price = client.get_type("{%s}Price" % NS)
        nils = client.get_type("{%s}Nils" % NS)
        v = nils(
            reqText=xsd.Nil,
            optPrice=price(_value_1=xsd.Nil, currency="USD"),
            reqPrice=price(_value_1=xsd.Nil, currency="EUR"),
        )
        envelope = etree.Element("{%s}Envelope" % SOAP, nsmap={"soap-env": SOAP})
        body = etree.SubElement(envelope, "{%s}Body" % SOAP)
        client.get_element("{%s}EchoNilsResponse" % NS).render(body, {"v": v})
        sys.stdout.write(etree.tostring(envelope).decode())
    elif sys.argv[1:] == ["parse"]:
        doc = etree.fromstring(sys.stdin.buffer.read())
        (request,) = doc.iter("{%s}EchoNils" % NS)
        value = client.get_element("{%s}EchoNils" % NS).parse(request, client.wsdl.types)
        for name in ("reqPrice", "optPrice"):
            (node,) = request.iter("{%s}%s" % (NS, name))
            nil = node.get("{%s}nil" % XSI) in ("true", "1")
            p = value.v[name]
            print("%s currency=%s nil=%s value=%s" % (name, p.currency, nil, p._value_1))
    else:
        sys.exit(__doc__)


main()
