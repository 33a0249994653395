#!/usr/bin/python3
"""python-zeep as the dynamic client of soapgen's side-by-side benchmark (bench/run.sh).

Run with Debian's python3 (python3-zeep).  One mode per run; results on stdout as key=value:

  zeep_client.py first URL VER WSDL                  zeep.Client(WSDL) then one Ping call: the
                                                     caller times process start to first response
  zeep_client.py latency URL VER WSDL WARMUP N FILE  Echo(100 objects) calls; FILE gets N lines of
                                                     ns per call
  zeep_client.py throughput URL VER WSDL THREADS SECS
                                                     THREADS threads sharing one zeep service proxy
                                                     (one requests.Session, pool of THREADS
                                                     connections), Echo calls for SECS seconds

VER is 11 or 12 (the LargeObjectsSoap11 / LargeObjectsSoap12 binding of the WSDL, bound to URL).
The 100 objects carry the values of soapgen_tests::large_objects::sample(100).  Every response is
checked (100 items, first id).
"""

import datetime
import decimal
import sys
import threading
import time

TNS = "urn:soapgen:bench"


def sample(n=100):
    created = datetime.datetime(2026, 11, 30, 12, 34, 56, 789000,
                                tzinfo=datetime.timezone(datetime.timedelta(hours=1)))
    return [{
        "id": 1000000 + i,
        "name": "Object number %d & friends" % i,
        "description": ("A large object used to measure SOAP serialization; entry %d of the echo "
                        "message, with enough text to look like a real record <description> from "
                        "a line-of-business system." % i),
        "price": decimal.Decimal(1999 + i) / 100,
        "quantity": i * 3,
        "ratio": 0.25 + i / 7.0,
        "active": i % 2 == 0,
        "created": created,
        "address": {"street": "%d Long Street" % i, "city": "Springfield",
                    "postalCode": "%05d" % (10000 + i), "country": "NL"},
        "tags": ["alpha", "beta", "tag-%d" % i],
    } for i in range(n)]


def service(url, ver, wsdl, pool=10):
    import requests
    import zeep
    from zeep.transports import Transport

    session = requests.Session()
    adapter = requests.adapters.HTTPAdapter(pool_connections=1, pool_maxsize=max(pool, 10))
    session.mount("http://", adapter)
    client = zeep.Client(wsdl, transport=Transport(session=session))
    binding = "{%s}LargeObjectsSoap%s" % (TNS, "12" if ver == "12" else "11")
    return client, client.create_service(binding, url)


def echo(svc, items):
    got = svc.Echo(item=items)
    if len(got) != 100 or got[0]["id"] != 1000000:
        raise SystemExit("bad Echo response: %d items" % len(got))


def main(argv):
    mode = argv[1] if len(argv) > 1 else ""
    if mode == "first" and len(argv) == 5:
        _, svc = service(argv[2], argv[3], argv[4])
        if svc.Ping(value="first") != "first":
            raise SystemExit("bad Ping response")
        print("ok", flush=True)
        return 0
    if mode == "latency" and len(argv) == 8:
        _, svc = service(argv[2], argv[3], argv[4])
        warmup, n, path = int(argv[5]), int(argv[6]), argv[7]
        items = sample()
        for _ in range(warmup):
            echo(svc, items)
        times = []
        for _ in range(n):
            t0 = time.perf_counter_ns()
            echo(svc, items)
            times.append(time.perf_counter_ns() - t0)
        with open(path, "w") as f:
            f.write("".join("%d\n" % t for t in times))
        print("calls=%d" % n)
        return 0
    if mode == "throughput" and len(argv) == 7:
        threads, secs = int(argv[5]), float(argv[6])
        _, svc = service(argv[2], argv[3], argv[4], pool=threads)
        items = sample()
        counts = [0] * threads
        start = time.perf_counter()
        deadline = start + secs

        def worker(k):
            while time.perf_counter() < deadline:
                echo(svc, items)
                counts[k] += 1

        ts = [threading.Thread(target=worker, args=(k,)) for k in range(threads)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        print("calls=%d secs=%.6f" % (sum(counts), time.perf_counter() - start))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
