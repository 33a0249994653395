"""Squid's NTLM / Negotiate authentication helper, answered by pyspnego, for soapgen's proxy tests.

Squid (the proxy) runs this program as its ``auth_param ntlm program`` or
``auth_param negotiate program``: a *stateful* helper, one handshake at a time,
in Squid's helper protocol (the legacy form every Squid since 2.5 reads):

  squid -> helper   ``YR <base64 token>``   a new handshake's first token
                    ``KK <base64 token>``   the next token of this handshake
  helper -> squid   ``TT <base64 token>``   the challenge to send back (407)
                    ``AF <user>``            NTLM: authenticated
                    ``AF <base64 token> <user>``  Negotiate: authenticated, with
                                             the final token for the client
                    ``NA <reason>``          refused (wrong credentials)
                    ``BH <reason>``          broken helper / unreadable token

The tokens are checked by pyspnego (PyPI ``pyspnego``): ``spnego.server(protocol=...)``
with its NTLM credential store, the file named by ``NTLM_USER_FILE``
(``DOMAIN:USER:PASSWORD`` lines), as ``ntlm_server.py`` checks them for HTTP
servers.  So the proxy is a real one (Squid's 407 handling, connection pinning,
CONNECT) and the password check is a real NTLM acceptor; neither is soapgen's.

Usage: squid_auth_helper.py ntlm|negotiate LOG
One line per decision is appended to LOG, which the tests read:
``challenge``, ``ok scheme=ntlm|negotiate user=DOMAIN\\USER``, ``refused: <why>``.
"""

import base64
import sys

import spnego


def main():
    protocol, log_path = sys.argv[1], sys.argv[2]
    log = open(log_path, "a", buffering=1)
    context = None
    for line in sys.stdin:
        line = line.strip()
        command, _, token = line.partition(" ")
        if command == "YR":
            context = spnego.server(protocol=protocol)
        elif command != "KK" or context is None:
            print("BH unexpected %s" % command, flush=True)
            continue
        try:
            out = context.step(base64.b64decode(token))
        except Exception as e:  # pyspnego's errors: bad token, wrong password
            why = str(e).splitlines()[0] if str(e) else type(e).__name__
            log.write("refused: %s\n" % why)
            context = None
            print("NA %s" % why.replace("\n", " "), flush=True)
            continue
        if not context.complete:
            log.write("challenge\n")
            print("TT %s" % base64.b64encode(out).decode("ascii"), flush=True)
            continue
        user = context.client_principal
        log.write("ok scheme=%s user=%s\n" % (protocol, user))
        context = None
        if protocol == "negotiate":
            final = base64.b64encode(out or b"").decode("ascii") or "="
            print("AF %s %s" % (final, user), flush=True)
        else:
            print("AF %s" % user, flush=True)


if __name__ == "__main__":
    main()
