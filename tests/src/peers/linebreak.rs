//! Line-broken base64 (stdlib Python): `tests/peers/linebreak_server.py`.

use std::process::Command;

use super::process::{peers_dir, start};
use super::spyne::{python, PYTHON_INSTALL_HINT};
use super::Peer;

/// Starts `tests/peers/linebreak_server.py` (Python 3, stdlib only; the
/// interpreter is `/usr/bin/python3` or `SOAPGEN_PYTHON`, as for spyne).
///
/// It implements `GetData` and `EchoData` of `tests/peers/gsoap/mtom/mtom.wsdl`
/// (namespace `urn:soapgen:mtom`, SOAP 1.1 and 1.2, reply version = request
/// version) and answers with the base64 value inline, in lines chosen by the
/// first path segment:
///
/// | path | lines |
/// |---|---|
/// | `/none` | no line breaks |
/// | `/crlf76` | 76 characters, CRLF |
/// | `/lf76` | 76 characters, LF |
/// | `/crlf73` | 73 characters, CRLF |
/// | `/lf64` | 64 characters, LF |
/// | `/mixed` | line k is 76, 73, 10, 1, 200 characters (k mod 5), ending CRLF, LF (k mod 2) |
/// | `/crref76` | 76 characters, each line end written `&#13;` + LF |
/// | `/custom?cols=N&eol=crlf\|lf\|cr\|crref\|space` | N characters, that line end |
///
/// Line ends separate lines (none after the last line) unless the query has
/// `trailing=1`.  `EchoData` takes inline base64 only (no MTOM).  Reply
/// envelopes look like WCF's: `<s:Envelope xmlns:s=…><s:Body><GetDataResponse
/// xmlns="urn:soapgen:mtom"><data>…</data></GetDataResponse>…`.
pub fn linebreak_server() -> Peer {
    let python = python();
    let script = peers_dir().join("linebreak_server.py");
    assert!(
        script.is_file(),
        "line-break peer script missing: {}",
        script.display()
    );
    let mut cmd = Command::new(&python);
    cmd.arg(&script).args(["--port", "0", "--exit-with-parent"]);
    start("linebreak", cmd, PYTHON_INSTALL_HINT)
}
