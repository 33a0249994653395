//! pyspnego (Python): an NTLM / Negotiate acceptor in front of another peer.

use std::path::Path;
use std::process::{Command, Stdio};

use super::process::{peers_dir, start};
use super::spyne::python;
use super::Peer;

const PYSPNEGO_INSTALL_HINT: &str =
    "/usr/bin/python3 -m pip install --break-system-packages pyspnego (see .ci/install-peers.sh)";

/// Starts `tests/peers/ntlm_server.py`: pyspnego's NTLM (`protocol` `"ntlm"`) or SPNEGO
/// (`"negotiate"`) acceptor over HTTP (RFC 4559), one security context per keep-alive
/// connection as IIS keeps them, the accounts of `user_file` (`DOMAIN:USER:PASSWORD` lines,
/// pyspnego's `NTLM_USER_FILE`); authenticated requests are forwarded to `backend` and its
/// replies returned.  Its stderr has one line per decision (`challenge connection=C`,
/// `leg connection=C`, `ok connection=C user=…`, `refused connection=C: …`,
/// `served connection=C request=R`).
pub fn ntlm_acceptor(backend: &str, protocol: &str, user_file: &Path) -> Peer {
    spnego_acceptor(
        "ntlm-acceptor",
        backend,
        protocol,
        &[],
        &[("NTLM_USER_FILE", user_file.as_os_str())],
    )
}

/// [`ntlm_acceptor`] with `extra` options of `ntlm_server.py` (`--tamper-final-mic`,
/// `--tls-cert`, `--channel-bindings`…) and `env` (`NTLM_USER_FILE`, `KRB5_CONFIG`,
/// `KRB5_KTNAME`), named `name` in failures.
pub fn spnego_acceptor(
    name: &'static str,
    backend: &str,
    protocol: &str,
    extra: &[&str],
    env: &[(&str, &std::ffi::OsStr)],
) -> Peer {
    let python = python();
    let ok = Command::new(&python)
        .args(["-c", "import spnego"])
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(
        ok,
        "pyspnego is not installed for {}: {PYSPNEGO_INSTALL_HINT}",
        python.display()
    );
    let mut cmd = Command::new(&python);
    cmd.arg(peers_dir().join("ntlm_server.py"))
        .args(["--port", "0", "--exit-with-parent", "--backend", backend])
        .args(["--protocol", protocol])
        .args(extra)
        .envs(env.iter().copied());
    start(name, cmd, PYSPNEGO_INSTALL_HINT)
}
