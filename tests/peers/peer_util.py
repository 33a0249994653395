"""Start-up shared by the Python peers (spyne_server.py, linebreak_server.py,
bench/peers/spyne_large_objects.py): the command line, --exit-with-parent and
the ``LISTENING <port>`` line, and the threaded WSGI server of the spyne
peers.  Stdlib only.

A peer script imports it from its own directory (Python puts the script's
directory first on sys.path, so the peers still run standalone from anywhere):

    parser = peer_util.arg_parser(__doc__.split("\\n")[0])  # --port, --host, --exit-with-parent
    parser.add_argument(...)                                # the peer's own options
    args = peer_util.parse_args(parser)                     # + the parent watch
    server = ...((args.host, args.port), ...)  # or wsgi_server(args.host, args.port, app)
    peer_util.serve(server)                                 # LISTENING <port>, serve forever
"""

import argparse
import os
import socketserver
import sys
import threading
import time
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server


def arg_parser(description, host=True):
    """``--port N`` (default 0 = any free port), ``--host H`` (default
    127.0.0.1; left out when ``host`` is false) and ``--exit-with-parent``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--port", type=int, default=0)
    if host:
        parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument(
        "--exit-with-parent",
        action="store_true",
        help="exit when the parent process dies (used by the Rust test harness)",
    )
    return parser


def parse_args(parser):
    """The parsed command line; with ``--exit-with-parent`` a daemon thread
    exits the process (status 0) as soon as the parent process dies."""
    args = parser.parse_args()
    if args.exit_with_parent:
        parent = os.getppid()

        def watch_parent():
            while True:
                time.sleep(0.5)
                if os.getppid() != parent:
                    os._exit(0)

        threading.Thread(target=watch_parent, daemon=True).start()
    return args


def serve(server):
    """Prints exactly one line ``LISTENING <port>`` on stdout, then serves
    forever (Ctrl-C ends it quietly)."""
    sys.stdout.write("LISTENING %d\n" % server.server_port)
    sys.stdout.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


class QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - stdlib signature
        pass


class ThreadingWSGIServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True
    allow_reuse_address = True


def wsgi_server(host, port, app, server_class=ThreadingWSGIServer):
    """wsgiref's server of ``app`` on (host, port): a daemon thread per
    request, SO_REUSEADDR, no request log.  ``server_class``: a subclass of
    ThreadingWSGIServer (e.g. with another ``request_queue_size``)."""
    return make_server(host, port, app, server_class=server_class, handler_class=QuietHandler)
