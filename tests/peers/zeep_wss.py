"""Print a SOAP request secured by zeep's own WS-Security plugins, byte for byte as zeep sends it.

    /usr/bin/python3 zeep_wss.py --key client.key --cert client.pem --user NAME --password PW
                                 [--text T] [--soap12] [--no-sign] [--no-token] [--x509data]

zeep 4.2 (python3-zeep, with python3-xmlsec for signatures) reads a small WSDL (written to a
temporary file: operation Echo(text: string) -> EchoResponse, document/literal, namespace
urn:soapgen:wss, SOAP 1.1 or with --soap12 SOAP 1.2) and builds the call Echo(text=T) with
``Client(wsdl, wsse=[UsernameToken(user, password, use_digest=True), BinarySignature(key,
cert)])``: ``Client.create_message`` runs the same code as a real call (``_create``: the operation's
envelope, then each wsse plugin's ``apply`` in list order, as ``SoapBinding.send`` does), and
``zeep.wsdl.utils.etree_to_string`` gives the bytes ``Transport.post_xml`` would POST. The
UsernameToken carries a PasswordDigest with a Nonce and Created (WSS UsernameToken Profile 1.1
section 3.1); BinarySignature signs the Body (zeep adds no Timestamp of its own) with RSA-SHA1 and
SHA-1 digests, the certificate in a BinarySecurityToken referenced from the signature's KeyInfo.
--no-sign or --no-token leave one of the two plugins out. --x509data signs with zeep's
``Signature(key, cert)`` instead: the same signature, the certificate in a ``ds:X509Data`` inside
the KeyInfo's SecurityTokenReference, written by libxmlsec1 from the template zeep gives it (an
``X509IssuerSerial`` and an ``X509Certificate``). Nothing is sent anywhere; the bytes go to
stdout.
"""

import argparse
import os
import sys
import tempfile

WSDL = """<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"
    xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:tns="urn:soapgen:wss" targetNamespace="urn:soapgen:wss">
  <wsdl:types>
    <xs:schema targetNamespace="urn:soapgen:wss" elementFormDefault="qualified">
      <xs:element name="Echo">
        <xs:complexType><xs:sequence>
          <xs:element name="text" type="xs:string"/>
        </xs:sequence></xs:complexType>
      </xs:element>
      <xs:element name="EchoResponse">
        <xs:complexType><xs:sequence>
          <xs:element name="EchoResult" type="xs:anyType"/>
        </xs:sequence></xs:complexType>
      </xs:element>
    </xs:schema>
  </wsdl:types>
  <wsdl:message name="EchoIn"><wsdl:part name="parameters" element="tns:Echo"/></wsdl:message>
  <wsdl:message name="EchoOut"><wsdl:part name="parameters" element="tns:EchoResponse"/></wsdl:message>
  <wsdl:portType name="Echo">
    <wsdl:operation name="Echo">
      <wsdl:input message="tns:EchoIn"/><wsdl:output message="tns:EchoOut"/>
    </wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="Echo11" type="tns:Echo">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http" style="document"/>
    <wsdl:operation name="Echo">
      <soap:operation soapAction="urn:soapgen:wss#Echo"/>
      <wsdl:input><soap:body use="literal"/></wsdl:input>
      <wsdl:output><soap:body use="literal"/></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:binding name="Echo12" type="tns:Echo">
    <soap12:binding transport="http://schemas.xmlsoap.org/soap/http" style="document"/>
    <wsdl:operation name="Echo">
      <soap12:operation soapAction="urn:soapgen:wss#Echo"/>
      <wsdl:input><soap12:body use="literal"/></wsdl:input>
      <wsdl:output><soap12:body use="literal"/></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="EchoService">
    <wsdl:port name="Echo11" binding="tns:Echo11">
      <soap:address location="http://127.0.0.1:9/echo"/>
    </wsdl:port>
    <wsdl:port name="Echo12" binding="tns:Echo12">
      <soap12:address location="http://127.0.0.1:9/echo"/>
    </wsdl:port>
  </wsdl:service>
</wsdl:definitions>
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--key", required=True, help="PEM private key of the signer")
    parser.add_argument("--cert", required=True, help="PEM certificate of the signer")
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--text", default="hello")
    parser.add_argument("--soap12", action="store_true")
    parser.add_argument("--no-sign", action="store_true")
    parser.add_argument("--no-token", action="store_true")
    parser.add_argument("--x509data", action="store_true")
    args = parser.parse_args()

    try:
        import zeep
        from zeep.wsdl.utils import etree_to_string
        from zeep.wsse.username import UsernameToken
        from zeep.wsse.signature import BinarySignature, Signature
        import xmlsec  # noqa: F401  (BinarySignature needs it; say so clearly when missing)
    except ImportError as e:
        sys.stderr.write(
            "zeep_wss.py: %s: apt-get install -y python3-zeep python3-xmlsec "
            "(see .ci/install-peers.sh)\n" % e
        )
        sys.exit(3)

    wsse = []
    if not args.no_token:
        wsse.append(UsernameToken(args.user, args.password, use_digest=True))
    if not args.no_sign:
        plugin = Signature if args.x509data else BinarySignature
        wsse.append(plugin(args.key, args.cert))

    fd, path = tempfile.mkstemp(suffix=".wsdl")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(WSDL)
        client = zeep.Client(path, wsse=wsse)
        service = client.bind("EchoService", "Echo12" if args.soap12 else "Echo11")
        envelope = client.create_message(service, "Echo", text=args.text)
    finally:
        os.unlink(path)
    out = sys.stdout.buffer
    out.write(etree_to_string(envelope))
    out.flush()


if __name__ == "__main__":
    main()
