"""Squid (Debian's ``squid`` package) as an authenticating forward proxy, for soapgen's proxy tests.

Writes a configuration into a new temporary folder, starts ``squid -N`` on a free
loopback port, waits until it accepts connections, prints ``LISTENING <port>``,
and then copies two logs to stderr as lines, which the tests read:

  ``helper <line>``   the NTLM / Negotiate helper's decisions
                      (``squid_auth_helper.py``: ``challenge``, ``ok user=…``, ``refused: …``)
  ``access <line>``   Squid's access log, one line per request it answered
                      (``… TCP_MISS/200 … POST http://… DOM\\alice …``,
                      ``… TCP_TUNNEL/200 … CONNECT 127.0.0.1:NNN DOM\\alice …``)

Every request must authenticate (``proxy_auth REQUIRED``), with the schemes asked for:
``ntlm`` and ``negotiate`` are checked by pyspnego through ``squid_auth_helper.py``
(the accounts of ``--users``, ``DOMAIN:USER:PASSWORD`` lines), ``digest`` by Squid's own
``digest_file_auth`` (``--digest-users``, ``user:password`` lines, realm ``soapgen``).
A proxy that offers several schemes lists them in that order, as corporate proxies
list Negotiate before NTLM.  CONNECT is allowed to any port (the tests' TLS peers
listen on high ports).

With ``--kerberos DIR`` (a realm folder of ``kerberos_peer.py kdc``) the Negotiate helper
also accepts Kerberos tickets for ``HTTP/localhost`` (the realm's krb5.conf and keytab).

Usage: squid_peer.py --schemes negotiate,ntlm,digest --users FILE --digest-users FILE
                     [--kerberos DIR] [--port N] [--exit-with-parent]
Squid ends with this program however it ends (killed too): Squid started by root changes to user
proxy, which clears its own PR_SET_PDEATHSIG, so a small watchdog process (which keeps it) kills
Squid's process group when this program is gone. This program ends with its parent.
"""

import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import peer_util

SQUID = shutil.which("squid") or "/usr/sbin/squid"
HELPERS = "/usr/lib/squid"
HERE = os.path.dirname(os.path.abspath(__file__))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def config(folder, port, schemes, users, digest_users, kerberos=None):
    python = "/usr/bin/python3"
    helper = os.path.join(HERE, "squid_auth_helper.py")
    # With a Kerberos realm's folder, the Negotiate helper (pyspnego on MIT's GSS-API) also
    # accepts Kerberos tickets for HTTP/localhost, with the realm's krb5.conf and keytab.
    krb5_env = ("KRB5_CONFIG=%s/krb5.conf KRB5_KTNAME=%s/http.keytab " % (kerberos, kerberos)
                if kerberos else "")
    lines = [
        "http_port 127.0.0.1:%d" % port,
        "pid_filename %s/squid.pid" % folder,
        "cache_log %s/cache.log" % folder,
        "access_log stdio:%s/access.log" % folder,
        "cache deny all",
        "cache_mem 8 MB",
        "shutdown_lifetime 0 seconds",
        "coredump_dir %s" % folder,
        "pinger_enable off",
    ]
    for scheme in schemes:
        if scheme in ("ntlm", "negotiate"):
            lines += [
                "auth_param %s program /usr/bin/env %sNTLM_USER_FILE=%s %s %s %s %s/helper.log"
                % (scheme, krb5_env, users, python, helper, scheme, folder),
                "auth_param %s children 4" % scheme,
                "auth_param %s keep_alive on" % scheme,
            ]
        elif scheme == "digest":
            lines += [
                "auth_param digest program %s/digest_file_auth %s" % (HELPERS, digest_users),
                "auth_param digest children 2",
                "auth_param digest realm soapgen",
            ]
        else:
            sys.exit("unknown scheme %r" % scheme)
    lines += [
        "acl authenticated proxy_auth REQUIRED",
        "http_access allow authenticated",
        "http_access deny all",
    ]
    path = os.path.join(folder, "squid.conf")
    with open(path, "w") as f:
        f.write("\n".join(l for l in lines if l) + "\n")
    return path


def wait_for(process, port, what, log):
    """Returns once ``process`` accepts connections on ``port``; exits with ``log``'s text on
    stderr if it ends first, or after 30 s."""
    deadline = time.time() + 30
    while True:
        if process.poll() is not None:
            if os.path.exists(log):
                with open(log) as f:
                    sys.stderr.write(f.read())
            sys.exit("%s exited with status %s" % (what, process.returncode))
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.time() > deadline:
                process.kill()
                sys.exit("%s did not listen on port %d within 30 s" % (what, port))
            time.sleep(0.1)


def tail(path, prefix, stop):
    """Copies the lines appended to ``path`` to stderr as ``<prefix> <line>``."""
    position = 0
    while not stop.is_set():
        try:
            with open(path) as f:
                f.seek(position)
                for line in f:
                    if not line.endswith("\n"):
                        break
                    position += len(line.encode())
                    sys.stderr.write("%s %s" % (prefix, line))
                sys.stderr.flush()
        except FileNotFoundError:
            pass
        time.sleep(0.05)


def die_with_parent():
    # PR_SET_PDEATHSIG (1): SIGTERM when this program ends, however it ends.
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)


# Kills the process group given (Squid, its helpers) on SIGTERM, which PR_SET_PDEATHSIG sends it
# when squid_peer.py ends; it runs as root and does not change user, so the setting holds.
WATCHDOG = """
import os, signal, sys, time
group = int(sys.argv[1])
def stop(*_):
    try:
        os.killpg(group, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os._exit(0)
signal.signal(signal.SIGTERM, stop)
while True:
    time.sleep(1)
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        os._exit(0)
"""


def squid_group():
    # Squid and its helpers in a process group of their own, which the watchdog kills whole.
    os.setpgrp()


def main():
    parser = peer_util.arg_parser(__doc__.split("\n")[0], host=False)
    parser.add_argument("--schemes", default="ntlm")
    parser.add_argument("--users", required=True)
    parser.add_argument("--digest-users")
    parser.add_argument("--kerberos", help="a realm folder of kerberos_peer.py kdc")
    args = peer_util.parse_args(parser)
    if not os.path.exists(SQUID):
        sys.exit("squid is not installed: apt-get install squid (see .ci/install-peers.sh)")
    folder = tempfile.mkdtemp(prefix="soapgen-squid-")
    # Squid started by root runs as user proxy, which must write its logs here.
    os.chmod(folder, 0o777)
    port = args.port or free_port()
    # Copies Squid's helpers (user proxy) can read, wherever the originals are.
    users = os.path.join(folder, "users")
    shutil.copyfile(args.users, users)
    digest_users = os.path.join(folder, "digest-users")
    shutil.copyfile(args.digest_users or os.devnull, digest_users)
    for path in (users, digest_users):
        os.chmod(path, 0o644)
    conf = config(folder, port, args.schemes.split(","), users, digest_users, args.kerberos)
    squid = subprocess.Popen(
        [SQUID, "-N", "-f", conf],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=squid_group,
    )
    subprocess.Popen(
        [sys.executable, "-c", WATCHDOG, str(squid.pid)],
        stdin=subprocess.DEVNULL,
        preexec_fn=die_with_parent,
    )
    stop = threading.Event()
    for name, prefix in (("helper.log", "helper"), ("access.log", "access")):
        threading.Thread(
            target=tail, args=(os.path.join(folder, name), prefix, stop), daemon=True
        ).start()
    wait_for(squid, port, "squid", os.path.join(folder, "cache.log"))
    sys.stdout.write("LISTENING %d\n" % port)
    sys.stdout.flush()
    try:
        squid.wait()
    except KeyboardInterrupt:
        squid.terminate()
    stop.set()
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
