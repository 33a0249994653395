"""One call by zeep 4.2, a SOAP client no one here wrote, of a service it reads from its WSDL,
for tests/tests/mapping/fake.rs (the loopback fake served by soapgen).

    /usr/bin/python3 zeep_call.py WSDL_URL SERVICE PORT OPERATION JSON_ARGS

zeep reads the WSDL at WSDL_URL (the fake serves it at ?wsdl, its addresses pointing at the
fake), binds SERVICE/PORT, calls OPERATION with the keyword arguments of the JSON object
JSON_ARGS, and prints one JSON object: {"result": ...} (zeep's value, serialized), or
{"fault": {"code": ..., "message": ..., "subcodes": [...], "detail": "<xml>"}} for a SOAP fault.
"""

import json
import sys

import zeep
import zeep.helpers
from lxml import etree


def main():
    wsdl, service, port, operation, args = sys.argv[1:6]
    client = zeep.Client(wsdl)
    proxy = client.bind(service, port)
    try:
        result = getattr(proxy, operation)(**json.loads(args))
        out = {"result": zeep.helpers.serialize_object(result)}
    except zeep.exceptions.Fault as f:
        detail = etree.tostring(f.detail, encoding="unicode") if f.detail is not None else None
        subcodes = [str(s) for s in (f.subcodes or [])]
        out = {"fault": {"code": str(f.code), "message": f.message, "subcodes": subcodes,
                         "detail": detail}}
    print(json.dumps(out, default=str))


if __name__ == "__main__":
    main()
