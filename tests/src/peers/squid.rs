//! Squid (Debian's `squid`): an authenticating forward proxy, its NTLM and Negotiate accounts
//! checked by pyspnego.

use std::path::Path;
use std::process::Command;

use super::process::{peers_dir, start};
use super::spyne::python;
use super::Peer;

const SQUID_INSTALL_HINT: &str = "apt-get install squid, and /usr/bin/python3 -m pip install \
     --break-system-packages pyspnego (see .ci/install-peers.sh)";

/// Starts Squid through `tests/peers/squid_peer.py` as a proxy that requires authentication
/// by `schemes` (a comma-separated list of `negotiate`, `ntlm`, `digest`, offered in that order):
/// NTLM and Negotiate (SPNEGO with NTLM) checked by pyspnego against `users`
/// (`DOMAIN:USER:PASSWORD` lines), Digest by Squid's `digest_file_auth` against `digest_users`
/// (`user:password` lines, realm `soapgen`). It forwards plain-HTTP requests and opens
/// `CONNECT` tunnels to any port. Its stderr has `helper …` lines (the helper's `challenge`,
/// `ok scheme=ntlm|negotiate user=…`, `refused: …`) and `access …` lines (Squid's access log: status, method, URL,
/// user).
pub fn squid(schemes: &str, users: &Path, digest_users: &Path) -> Peer {
    squid_with(schemes, users, digest_users, &[])
}

/// [`squid`] whose Negotiate helper also accepts Kerberos tickets for `HTTP/localhost` of the
/// test realm in `realm_dir` ([`kerberos_realm`](super::kerberos_realm)); the proxy is then
/// reached as `http://localhost:PORT`, whose host names that principal.
pub fn squid_kerberos(realm_dir: &Path) -> Peer {
    let none = Path::new("/dev/null");
    let dir = realm_dir.to_str().expect("a UTF-8 realm folder");
    squid_with("negotiate", none, none, &["--kerberos", dir])
}

fn squid_with(schemes: &str, users: &Path, digest_users: &Path, extra: &[&str]) -> Peer {
    assert!(
        Path::new("/usr/sbin/squid").exists(),
        "squid is not installed: {SQUID_INSTALL_HINT}"
    );
    let mut cmd = Command::new(python());
    cmd.arg(peers_dir().join("squid_peer.py"))
        .args(["--port", "0", "--exit-with-parent", "--schemes", schemes])
        .arg("--users")
        .arg(users)
        .arg("--digest-users")
        .arg(digest_users)
        .args(extra);
    start("squid", cmd, SQUID_INSTALL_HINT)
}
