//! signxml 5.2.0 (PyPI) as an XML-DSig peer for the signature algorithms xmlsec1 1.2.37 does not
//! have (RSASSA-PSS, RFC 6931 §2.3.11): `tests/peers/signxml/dsig.py`, run by the interpreter of
//! the virtual environment `.ci/install-peers.sh` makes (`/opt/soapgen-signxml`, or
//! `$SOAPGEN_SIGNXML_PYTHON`).
//!
//! Every function panics with the install hint when the peer is missing, and with signxml's
//! output when it fails to sign.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::wss::path_str;

/// The install hint of the signxml peer.
pub const SIGNXML_HINT: &str = "python3 -m venv /opt/soapgen-signxml && /opt/soapgen-signxml/bin/pip install signxml==5.2.0 (see .ci/install-peers.sh)";

fn python() -> PathBuf {
    std::env::var_os("SOAPGEN_SIGNXML_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/opt/soapgen-signxml/bin/python"))
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/signxml/dsig.py")
}

fn scratch(what: &str, content: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let p = std::env::temp_dir().join(format!(
        "soapgen-signxml-{}-{}-{what}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&p, content).unwrap_or_else(|e| panic!("cannot write {}: {e}", p.display()));
    p
}

fn run(args: &[&str]) -> Result<String, String> {
    let out = Command::new(python())
        .arg(script())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {} ({e}): {SIGNXML_HINT}", python().display()));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if stderr.contains("ModuleNotFoundError") {
        panic!("the signxml peer is not installed: {SIGNXML_HINT}\n{stderr}");
    }
    if out.status.success() {
        Ok(stdout)
    } else {
        Err(format!(
            "signxml {args:?}: {}\n{stdout}{stderr}",
            out.status
        ))
    }
}

/// Signs the elements of `envelope` with the `ids` (`wsu:Id` or `Id`) with signxml: a detached
/// `ds:Signature` (Exclusive C14N as CanonicalizationMethod and each Reference's Transform,
/// `sig_uri` as SignatureMethod, `digest_uri` as DigestMethod, the certificate of `cert_pem` in
/// `ds:KeyInfo/ds:X509Data/ds:X509Certificate`) appended to its `wsse:Security` header.
/// Returns the signed envelope as lxml writes it.
pub fn signxml_sign(
    envelope: &str,
    key_pem: &Path,
    cert_pem: &Path,
    sig_uri: &str,
    digest_uri: &str,
    ids: &[&str],
) -> String {
    let file = scratch("sign.xml", envelope);
    let mut args = vec![
        "sign",
        path_str(&file),
        path_str(key_pem),
        path_str(cert_pem),
        sig_uri,
        digest_uri,
    ];
    args.extend_from_slice(ids);
    let out = run(&args);
    let _ = std::fs::remove_file(&file);
    out.unwrap_or_else(|e| panic!("signxml could not sign: {e}"))
}

/// Verifies the first `ds:Signature` of `document` with signxml, with the key of `cert_pem`,
/// requiring `sig_uri` as SignatureMethod and `references` References (each resolved by its
/// `wsu:Id` or `Id`). `Ok("OK <ids covered>")`, or `Err(signxml's error)`.
pub fn signxml_verify(
    document: &str,
    cert_pem: &Path,
    sig_uri: &str,
    references: usize,
) -> Result<String, String> {
    let file = scratch("verify.xml", document);
    let n = references.to_string();
    let out = run(&["verify", path_str(&file), path_str(cert_pem), sig_uri, &n]);
    let _ = std::fs::remove_file(&file);
    out
}
