//! spyne (Python): `tests/peers/spyne_server.py`, SOAP 1.1 and 1.2 with its WSDL at `?wsdl`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use super::process::{peers_dir, start};
use super::Peer;

const SPYNE_INSTALL_HINT: &str =
    "apt-get install -y python3-spyne python3-lxml (see .ci/install-peers.sh)";
pub(super) const PYTHON_INSTALL_HINT: &str =
    "apt-get install -y python3 (see .ci/install-peers.sh)";

/// Starts `tests/peers/spyne_server.py` (SOAP 1.1 at `/soap11`, SOAP 1.2 at
/// `/soap12`, namespace `urn:soapgen:test`).
pub fn spyne() -> Peer {
    let python = python();
    check_spyne_installed(&python);
    let script = peers_dir().join("spyne_server.py");
    assert!(
        script.is_file(),
        "spyne peer script missing: {}",
        script.display()
    );
    let mut cmd = Command::new(&python);
    cmd.arg(&script).args(["--port", "0", "--exit-with-parent"]);
    start("spyne", cmd, SPYNE_INSTALL_HINT)
}

/// The byte at offset `i` of the `GetData` pattern `mod251` served by
/// [`gsoap_mtom`](super::gsoap_mtom) and [`linebreak_server`](super::linebreak_server): `(i * 31 + 7) mod 251`.
pub fn pattern_byte(i: u64) -> u8 {
    (((i % 251) * 31 + 7) % 251) as u8
}

/// The first `len` bytes of the `GetData` pattern `mod251`
/// (see [`pattern_byte`]).
pub fn pattern_bytes(len: usize) -> Vec<u8> {
    let period: Vec<u8> = (0..251).map(pattern_byte).collect();
    period.iter().copied().cycle().take(len).collect()
}

pub(super) fn python() -> PathBuf {
    std::env::var_os("SOAPGEN_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/python3"))
}

/// Once per process: fail loudly if Debian's python3 / spyne is missing.
fn check_spyne_installed(python: &Path) {
    static CHECKED: OnceLock<Result<(), String>> = OnceLock::new();
    let res = CHECKED.get_or_init(|| {
        let out = Command::new(python)
            .args(["-c", "import spyne, lxml; print(spyne.__version__)"])
            .stdin(Stdio::null())
            .output();
        match out {
            Err(e) => Err(format!(
                "cannot run {} ({e}); the spyne peer needs Debian's python3 with spyne: {}",
                python.display(),
                SPYNE_INSTALL_HINT
            )),
            Ok(o) if !o.status.success() => Err(format!(
                "{} cannot import spyne/lxml ({}):\n{}\ninstall it: {}",
                python.display(),
                o.status,
                String::from_utf8_lossy(&o.stderr).trim(),
                SPYNE_INSTALL_HINT
            )),
            Ok(_) => Ok(()),
        }
    });
    if let Err(msg) = res {
        panic!("spyne peer not available: {msg}");
    }
}
