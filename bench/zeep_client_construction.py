#!/usr/bin/python3
"""Cold start-up cost of python-zeep: time `zeep.Client(wsdl_path)`.

Run with Debian's python3 (python3-zeep):

    /usr/bin/python3 bench/zeep_client_construction.py [--repeat N] WSDL...

For every WSDL given on the command line this constructs `zeep.Client`
N times (default 5) and prints one CSV line

    wsdl,runs,min_ms,median_ms,max_ms,status

after a `#` comment line stating how it was measured and a header line.
`runs` counts successful constructions; `status` is `ok`, or `error: ...`
(the first failure; the other columns then cover the runs that succeeded,
empty when none did).

How it measures (stated in the `#` line):

* Default, `fresh-process`: every run is a new `python3` process that
  imports zeep (not timed) and then times only `zeep.Client(path, ...)`
  with `time.perf_counter()`.  Nothing can be reused between runs, so each
  number is a real cold parse of the WSDL and all its imports.
* `--in-process`: all runs in this process, zeep's transport cache disabled
  (`Transport(cache=None)`, i.e. no SqliteCache/InMemoryCache) so every run
  re-reads and re-parses every document; the interpreter, zeep's modules and
  lxml are warm, so this is the lower bound.

No network: documents are local files; the transport refuses every http(s)
URL (an absolute `import`/`include` in the WSDL or its XSDs) with an error
instead of fetching it, which is reported as a failure for that WSDL.  With
`--allow-network` such URLs are fetched with a short timeout
(`--timeout`, default 2 s) instead.  A run that takes longer than
`--run-timeout` (default 300 s) is killed and reported as a failure.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

# The child's program (fresh-process mode); argv: wsdl allow_network timeout
# dir-of-this-file.  Prints one JSON line.
CHILD = r"""
import json, sys
wsdl, allow_network, timeout = sys.argv[1], sys.argv[2] == "1", float(sys.argv[3])
sys.dont_write_bytecode = True  # no __pycache__ next to this script
sys.path.insert(0, sys.argv[4])
from zeep_client_construction import construct
import zeep  # imported (and lxml with it) before the clock starts
try:
    ms = construct(wsdl, allow_network, timeout)
    print(json.dumps({"ok": True, "ms": ms}))
except Exception as e:
    print(json.dumps({"ok": False, "type": type(e).__name__, "msg": str(e)}))
"""


class NetworkBlocked(Exception):
    """An http(s) document was requested while the network is disabled."""


def make_transport(allow_network, timeout):
    from zeep.transports import Transport

    class OfflineTransport(Transport):
        def _load_remote_data(self, url):
            if not allow_network:
                raise NetworkBlocked("refusing to fetch %s (network disabled)" % url)
            return super()._load_remote_data(url)

    # cache=None: no caching of loaded documents; timeout: per document load.
    return OfflineTransport(cache=None, timeout=timeout, operation_timeout=timeout)


def construct(wsdl, allow_network, timeout):
    """Builds one zeep.Client for `wsdl`; returns the construction time in ms."""
    import zeep

    transport = make_transport(allow_network, timeout)
    # zeep's default Settings, as a plain zeep.Client(wsdl) would use; only
    # the transport differs (no cache, no network, short timeout).
    start = time.perf_counter()
    zeep.Client(wsdl, transport=transport, settings=zeep.Settings())
    return (time.perf_counter() - start) * 1000.0


def describe_error(type_name, msg):
    msg = " ".join(str(msg).split())
    if len(msg) > 160:
        msg = msg[:157] + "..."
    # Keep the CSV parseable: no commas or quotes in the status column.
    return ("error: %s: %s" % (type_name, msg)).replace(",", ";").replace('"', "'")


def run_fresh(wsdl, args):
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        proc = subprocess.run(
            [sys.executable, "-c", CHILD, wsdl, "1" if args.allow_network else "0",
             str(args.timeout), here],
            stdin=subprocess.DEVNULL, capture_output=True, text=True,
            timeout=args.run_timeout,
        )
    except subprocess.TimeoutExpired:
        return None, describe_error("Timeout", "run exceeded %ss" % args.run_timeout)
    lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
    if not lines:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return None, describe_error("ChildFailed", "exit %s: %s" % (proc.returncode, tail))
    res = json.loads(lines[-1])
    if res["ok"]:
        return res["ms"], None
    return None, describe_error(res["type"], res["msg"])


def run_in_process(wsdl, args):
    try:
        return construct(wsdl, args.allow_network, args.timeout), None
    except Exception as e:
        return None, describe_error(type(e).__name__, e)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("wsdl", nargs="+", help="local WSDL file(s)")
    ap.add_argument("--repeat", type=int, default=5, help="constructions per WSDL (default 5)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--fresh-process", dest="in_process", action="store_false",
                      help="one new python3 process per run (default)")
    mode.add_argument("--in-process", dest="in_process", action="store_true",
                      help="all runs in this process, transport cache disabled")
    ap.set_defaults(in_process=False)  # store_false would default to True
    ap.add_argument("--allow-network", action="store_true",
                    help="fetch absolute http(s) imports (with --timeout) instead of failing")
    ap.add_argument("--timeout", type=float, default=2.0,
                    help="transport timeout per remote document, seconds (default 2)")
    ap.add_argument("--run-timeout", type=float, default=300.0,
                    help="kill a fresh-process run after this many seconds (default 300)")
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error("--repeat must be >= 1")

    import zeep  # fail early (and clearly) without python3-zeep
    import lxml.etree

    how = ("fresh-process: each run is a new python3 process, only zeep.Client() is timed"
           if not args.in_process else
           "in-process: warm interpreter, zeep Transport(cache=None) so every run re-parses")
    print("# zeep %s, lxml %s, python %s; %s; network %s; repeat=%d"
          % (zeep.__version__, ".".join(map(str, lxml.etree.LXML_VERSION)),
             sys.version.split()[0], how,
             "allowed (timeout %gs)" % args.timeout if args.allow_network else "blocked",
             args.repeat), flush=True)
    print("wsdl,runs,min_ms,median_ms,max_ms,status", flush=True)

    failed = False
    for wsdl in args.wsdl:
        times, error = [], None
        if not os.path.isfile(wsdl):
            error = describe_error("FileNotFoundError", wsdl)
        else:
            for _ in range(args.repeat):
                ms, err = (run_in_process if args.in_process else run_fresh)(wsdl, args)
                if err:
                    error = error or err
                    # A deterministic failure (blocked import, parse error)
                    # repeats every time: don't waste the remaining runs.
                    break
                times.append(ms)
        failed |= error is not None
        if times:
            cols = ["%.1f" % min(times), "%.1f" % statistics.median(times), "%.1f" % max(times)]
        else:
            cols = ["", "", ""]
        field = wsdl if "," not in wsdl and '"' not in wsdl else '"%s"' % wsdl.replace('"', '""')
        print(",".join([field, str(len(times))] + cols + [error or "ok"]), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
