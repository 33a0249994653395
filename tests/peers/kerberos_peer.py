"""MIT Kerberos (Debian's ``krb5-kdc``) and Apache httpd with ``mod_auth_gssapi``, for soapgen's tests.

``kdc --dir D``: makes a realm ``SOAPGEN.TEST`` in the folder D (``krb5.conf``, a KDC
database), starts ``krb5kdc`` on a free loopback port (TCP and UDP), and writes:

  ``D/krb5.conf``        the configuration clients and acceptors use (``KRB5_CONFIG``)
  ``D/http.keytab``      the key of ``HTTP/localhost``, the acceptors' service principal
  ``D/alice.keytab``     the key of client ``alice`` (password ``alice-pw``)

Principals: ``alice`` (password ``alice-pw``), ``HTTP/localhost`` (in ``http.keytab``) and
``HTTP/elsewhere`` (known to the KDC, in no acceptor's keytab: a wrong SPN the KDC
issues tickets for). ``--principal NAME:PASSWORD`` (repeatable) adds clients. It prints
``LISTENING <port>`` once the KDC answers, then ``kdc <line>`` on stderr for each
line of the KDC's log (``AS_REQ …``, ``TGS_REQ …``).

``httpd --dir D --backend URL``: starts Apache httpd (Debian's ``apache2``) on a free
loopback port: every request must authenticate with ``Negotiate`` (``mod_auth_gssapi``:
SPNEGO with Kerberos, the key of ``D/http.keytab``; it returns its final token, the AP-REP,
on the 200), and is then proxied to URL (``mod_proxy_http``; a POST to URL itself, a GET to
its path). It prints ``LISTENING <port>``, then ``access <line>`` on stderr per request
(status, method, path, authenticated user) and ``error <line>`` for httpd's error log.

Usage: kerberos_peer.py kdc --dir D [--principal NAME:PASSWORD]... [--exit-with-parent]
       kerberos_peer.py httpd --dir D --backend URL [--exit-with-parent]
Both end with this program (the servers are in a process group a watchdog kills).
"""

import os
import shutil
import subprocess
import sys
import threading
import urllib.parse

import peer_util
from squid_peer import WATCHDOG, die_with_parent, free_port, tail, wait_for

REALM = "SOAPGEN.TEST"
SBIN = "/usr/sbin"
INSTALL = "apt-get install krb5-kdc krb5-admin-server krb5-user apache2 libapache2-mod-auth-gssapi (see .ci/install-peers.sh)"


def krb5_conf(folder, port):
    return """[libdefaults]
  default_realm = {realm}
  dns_lookup_kdc = false
  dns_lookup_realm = false
  dns_canonicalize_hostname = false
  rdns = false
  udp_preference_limit = 1
  ticket_lifetime = 10h
  forwardable = true
[realms]
  {realm} = {{
    kdc = 127.0.0.1:{port}
  }}
[domain_realm]
  localhost = {realm}
  elsewhere = {realm}
""".format(realm=REALM, port=port)


def kdc_conf(folder, port):
    return """[kdcdefaults]
  kdc_listen = 127.0.0.1:{port}
  kdc_tcp_listen = 127.0.0.1:{port}
[realms]
  {realm} = {{
    database_name = {folder}/principal
    key_stash_file = {folder}/stash
    acl_file = {folder}/kadm5.acl
    max_life = 10h
    max_renewable_life = 1d
  }}
[logging]
  kdc = FILE:{folder}/kdc.log
""".format(realm=REALM, port=port, folder=folder)


def run(env, *argv):
    done = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("%s failed (%d): %s%s" % (" ".join(argv), done.returncode, done.stdout, done.stderr))


def supervise(process, port, logs):
    """Kills ``process``'s group with this program; copies ``logs`` (path, prefix) to stderr;
    prints LISTENING once ``port`` accepts; waits."""
    subprocess.Popen([sys.executable, "-c", WATCHDOG, str(process.pid)],
                     stdin=subprocess.DEVNULL, preexec_fn=die_with_parent)
    stop = threading.Event()
    for path, prefix in logs:
        threading.Thread(target=tail, args=(path, prefix, stop), daemon=True).start()
    wait_for(process, port, os.path.basename(process.args[0]), logs[-1][0])
    sys.stdout.write("LISTENING %d\n" % port)
    sys.stdout.flush()
    try:
        process.wait()
    except KeyboardInterrupt:
        process.terminate()
    stop.set()


def kdc(args):
    folder = os.path.abspath(args.dir)
    os.makedirs(folder, exist_ok=True)
    port = args.port or free_port()
    for name, text in (("krb5.conf", krb5_conf(folder, port)), ("kdc.conf", kdc_conf(folder, port)),
                       ("kadm5.acl", "")):
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)
    env = dict(os.environ, KRB5_CONFIG=os.path.join(folder, "krb5.conf"),
               KRB5_KDC_PROFILE=os.path.join(folder, "kdc.conf"))
    if not os.path.exists(os.path.join(SBIN, "krb5kdc")):
        sys.exit("MIT Kerberos' KDC is not installed: " + INSTALL)
    run(env, SBIN + "/kdb5_util", "create", "-s", "-P", "soapgen-master", "-r", REALM)
    admin = lambda query: run(env, SBIN + "/kadmin.local", "-r", REALM, "-q", query)
    admin("addprinc -pw alice-pw alice")
    for extra in args.principal:
        name, _, password = extra.partition(":")
        admin("addprinc -pw %s %s" % (password, name))
    admin("addprinc -randkey HTTP/localhost")
    admin("addprinc -randkey HTTP/elsewhere")
    admin("ktadd -k %s/http.keytab HTTP/localhost" % folder)
    admin("ktadd -k %s/alice.keytab -norandkey alice" % folder)
    # httpd's workers (user www-data) read the service key; the folder is the test's own.
    os.chmod(folder, 0o755)
    os.chmod(os.path.join(folder, "http.keytab"), 0o644)
    process = subprocess.Popen([SBIN + "/krb5kdc", "-n", "-r", REALM], env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, preexec_fn=os.setpgrp)
    supervise(process, port, [(os.path.join(folder, "kdc.log"), "kdc")])


HTTPD_CONF = """ServerRoot {folder}
PidFile {folder}/httpd.pid
Listen 127.0.0.1:{port}
ServerName localhost
LoadModule mpm_event_module /usr/lib/apache2/modules/mod_mpm_event.so
LoadModule authn_core_module /usr/lib/apache2/modules/mod_authn_core.so
LoadModule authz_core_module /usr/lib/apache2/modules/mod_authz_core.so
LoadModule authz_user_module /usr/lib/apache2/modules/mod_authz_user.so
LoadModule auth_gssapi_module /usr/lib/apache2/modules/mod_auth_gssapi.so
LoadModule proxy_module /usr/lib/apache2/modules/mod_proxy.so
LoadModule proxy_http_module /usr/lib/apache2/modules/mod_proxy_http.so
User www-data
Group www-data
ErrorLog {folder}/error.log
LogLevel info auth_gssapi:debug
LogFormat "%>s %m %U %{{GSS_NAME}}e" soapgen
CustomLog {folder}/access.log soapgen
KeepAlive On
<Location />
  AuthType GSSAPI
  AuthName "soapgen"
  GssapiCredStore keytab:{folder}/http.keytab
  GssapiAllowedMech krb5
  GssapiBasicAuth Off
  GssapiLocalName Off
  Require valid-user
</Location>
ProxyPass "/" "{backend}"
ProxyPassReverse "/" "{backend}"
"""


def httpd(args):
    folder = os.path.abspath(args.dir)
    binary = shutil.which("apache2") or "/usr/sbin/apache2"
    if not os.path.exists(binary) or not os.path.exists("/usr/lib/apache2/modules/mod_auth_gssapi.so"):
        sys.exit("Apache httpd with mod_auth_gssapi is not installed: " + INSTALL)
    root = os.path.join(folder, "httpd-%d" % os.getpid())
    os.makedirs(root)
    os.chmod(root, 0o777)
    port = args.port or free_port()
    backend = urllib.parse.urlsplit(args.backend)
    conf = os.path.join(root, "httpd.conf")
    with open(conf, "w") as f:
        f.write(HTTPD_CONF.format(folder=root, port=port,
                                  backend="%s://%s/" % (backend.scheme, backend.netloc))
                .replace("keytab:%s/http.keytab" % root, "keytab:%s/http.keytab" % folder))
    env = dict(os.environ, KRB5_CONFIG=os.path.join(folder, "krb5.conf"),
               APACHE_RUN_DIR=root, APACHE_LOCK_DIR=root, APACHE_LOG_DIR=root,
               KRB5RCACHEDIR=root)
    process = subprocess.Popen([binary, "-f", conf, "-DFOREGROUND"], env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, preexec_fn=os.setpgrp)
    supervise(process, port, [(os.path.join(root, "access.log"), "access"),
                              (os.path.join(root, "error.log"), "error")])


def main():
    parser = peer_util.arg_parser(__doc__.split("\n")[0], host=False)
    parser.add_argument("mode", choices=["kdc", "httpd"])
    parser.add_argument("--dir", required=True)
    parser.add_argument("--backend")
    parser.add_argument("--principal", action="append", default=[])
    args = peer_util.parse_args(parser)
    if args.mode == "kdc":
        kdc(args)
    else:
        if not args.backend:
            sys.exit("httpd needs --backend URL")
        httpd(args)


if __name__ == "__main__":
    main()
