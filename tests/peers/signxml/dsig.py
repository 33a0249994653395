"""signxml (PyPI, XML-Security/signxml) as an XML-DSig peer of soapgen's WS-Security tests, for
the algorithms xmlsec1 1.2.37 lacks (RSASSA-PSS, RFC 6931 §2.3.11).

    dsig.py sign ENVELOPE KEY.pem CERT.pem SIGNATURE-URI DIGEST-URI ID...
        Signs the elements with those Ids (wsu:Id or Id) of the SOAP envelope in the file
        ENVELOPE: a detached ds:Signature (Exclusive C14N for SignedInfo and as each Reference's
        one Transform, ds:KeyInfo/ds:X509Data/ds:X509Certificate) appended to its wsse:Security
        header. Writes the signed envelope to stdout.
    dsig.py verify DOCUMENT CERT.pem SIGNATURE-URI REFERENCES
        Verifies the first ds:Signature of DOCUMENT with CERT's key, requiring SIGNATURE-URI as
        SignatureMethod and REFERENCES References; prints "OK" and the Ids of the elements it
        covered, or exits 1 with signxml's error.

Runs under the interpreter of the virtual environment .ci/install-peers.sh makes
(/opt/soapgen-signxml: signxml with its own lxml and cryptography).
"""

import sys

from lxml import etree
from signxml import (
    CanonicalizationMethod,
    SignatureConfiguration,
    SignatureConstructionMethod,
    SignatureMethod,
    XMLSigner,
    XMLVerifier,
)

WSSE = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"
DS = "http://www.w3.org/2000/09/xmldsig#"


def sign(envelope, key, cert, sig_uri, digest_uri, ids):
    doc = etree.parse(envelope).getroot()
    signer = XMLSigner(
        method=SignatureConstructionMethod.detached,
        signature_algorithm=sig_uri,
        digest_algorithm=digest_uri,
        c14n_algorithm=CanonicalizationMethod.EXCLUSIVE_XML_CANONICALIZATION_1_0,
    )
    signer.namespaces = {"ds": DS}
    with open(key, "rb") as k, open(cert, "rb") as c:
        signature = signer.sign(
            doc, key=k.read(), cert=c.read().decode(), reference_uri=["#" + i for i in ids]
        )
    security = doc.find(".//{%s}Security" % WSSE)
    if security is None:
        sys.exit("the envelope has no wsse:Security header")
    security.append(signature)
    sys.stdout.buffer.write(etree.tostring(doc))


def verify(document, cert, sig_uri, references):
    config = SignatureConfiguration(
        signature_methods=frozenset([SignatureMethod(sig_uri)]),
        expect_references=int(references),
    )
    with open(document, "rb") as d, open(cert, "rb") as c:
        try:
            results = XMLVerifier().verify(
                d.read(), x509_cert=c.read().decode(), expect_config=config
            )
        except Exception as e:  # signxml's InvalidSignature, InvalidDigest, InvalidInput...
            sys.exit("signxml refused: %s: %s" % (type(e).__name__, e))
    if not isinstance(results, list):
        results = [results]
    ids = [
        next((v for k, v in r.signed_xml.attrib.items() if k.endswith("Id")), "?")
        for r in results
    ]
    print("OK " + " ".join(ids))


if __name__ == "__main__":
    if len(sys.argv) >= 7 and sys.argv[1] == "sign":
        sign(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7:])
    elif len(sys.argv) == 6 and sys.argv[1] == "verify":
        verify(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    else:
        sys.exit(__doc__)
