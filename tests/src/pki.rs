//! Test certificates for the WS-Security tests, made by the `openssl` command line at test time
//! (nothing private is checked in): a small CA (gSOAP, xmlsec1 and WSS4J want a trust anchor,
//! not a self-signed leaf), client and server certificates it issued with SubjectKeyIdentifiers
//! (serials 4242 and 4343), each also in a PKCS#12 store with its key and the CA, and an
//! unrelated self-signed "stranger" certificate that no test trusts.
//!
//! ```no_run
//! let pki = soapgen_tests::pki::test_pki();
//! let ca_pem = pki.path("ca.pem");
//! let (cert, key) = (pki.read("client.pem"), pki.read("client.key"));
//! ```
//!
//! RSA 2048 keys, PKCS#8 PEM (`client.key`, `stranger.key`) and PKCS#1 PEM (`client-rsa.key`),
//! valid for two days from their making. Made once per test process into a fresh directory
//! under the system temp directory, named after the process id (throw-away test keys).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

const OPENSSL_HINT: &str = "apt-get install -y openssl (see .ci/install-peers.sh)";

/// A directory of test keys and certificates.
#[derive(Debug)]
pub struct Pki {
    dir: PathBuf,
}

impl Pki {
    /// The path of `name` (`ca.pem`, `ca.key`, `client.pem`, `client.key`, `client-rsa.key`,
    /// `client.p12`, `server.pem`, `server.key`, `server.p12`, `stranger.pem`, `stranger.key`;
    /// the `.p12` stores' password is `changeit`).
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The bytes of `name`.
    pub fn read(&self, name: &str) -> Vec<u8> {
        let p = self.path(name);
        fs::read(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// The test PKI of this process, made on first use.
pub fn test_pki() -> &'static Pki {
    static PKI: OnceLock<Pki> = OnceLock::new();
    PKI.get_or_init(make)
}

/// Runs the `openssl` command line with `args` in `dir` (no stdin); its stdout. Panics with the
/// package to install when openssl is missing, and with its stderr when it fails.
pub fn openssl(dir: &Path, args: &[&str]) -> Vec<u8> {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run openssl ({e}): {OPENSSL_HINT}"));
    assert!(
        out.status.success(),
        "openssl {args:?} failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Runs the `openssl` command line with `args` in `dir`, `input` on its stdin; its stdout, or
/// its exit status and stderr when it fails. Panics with the package to install when openssl is
/// missing.
pub fn try_openssl_with_stdin(dir: &Path, args: &[&str], input: &[u8]) -> Result<Vec<u8>, String> {
    use std::io::Write;
    let mut child = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run openssl ({e}): {OPENSSL_HINT}"));
    let mut stdin = child.stdin.take().expect("openssl's stdin");
    stdin.write_all(input).expect("write openssl's stdin");
    drop(stdin);
    let out = child.wait_with_output().expect("wait for openssl");
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!(
            "{}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// [`try_openssl_with_stdin`], panicking with openssl's stderr when it fails.
pub fn openssl_with_stdin(dir: &Path, args: &[&str], input: &[u8]) -> Vec<u8> {
    try_openssl_with_stdin(dir, args, input)
        .unwrap_or_else(|e| panic!("openssl {args:?} failed: {e}"))
}

fn make() -> Pki {
    let dir = std::env::temp_dir().join(format!("soapgen-test-pki-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    fs::write(
        dir.join("ca.ext"),
        "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n\
         subjectKeyIdentifier=hash\n",
    )
    .unwrap();
    fs::write(
        dir.join("leaf.ext"),
        "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n\
         subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        openssl(&dir, args);
    };
    // An RSA-2048 key (PKCS#8 PEM) into `file`.
    let key = |file: &str| {
        run(&[
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:2048",
            "-out",
            file,
        ])
    };
    // A leaf `<who>.pem` for `<who>.key`, subject `/O=soapgen tests/CN=soapgen test <who>`,
    // issued by the CA with `serial`.
    let leaf = |who: &str, serial: &str| {
        key(&format!("{who}.key"));
        let (k, csr, pem) = (
            format!("{who}.key"),
            format!("{who}.csr"),
            format!("{who}.pem"),
        );
        let subj = format!("/O=soapgen tests/CN=soapgen test {who}");
        run(&["req", "-new", "-key", &k, "-subj", &subj, "-out", &csr]);
        run(&[
            "x509",
            "-req",
            "-in",
            &csr,
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-set_serial",
            serial,
            "-days",
            "2",
            "-extfile",
            "leaf.ext",
            "-out",
            &pem,
        ]);
    };
    // The CA.
    key("ca.key");
    run(&[
        "req",
        "-new",
        "-key",
        "ca.key",
        "-subj",
        "/O=soapgen tests/CN=soapgen test CA",
        "-out",
        "ca.csr",
    ]);
    run(&[
        "x509", "-req", "-in", "ca.csr", "-signkey", "ca.key", "-days", "2", "-extfile", "ca.ext",
        "-out", "ca.pem",
    ]);
    // The client, issued by the CA, and its key also in PKCS#1.
    leaf("client", "4242");
    run(&[
        "rsa",
        "-in",
        "client.key",
        "-traditional",
        "-out",
        "client-rsa.key",
    ]);
    // The server (the WS-Security peers' own key: they sign responses with it and clients
    // encrypt requests for it), issued by the CA.
    leaf("server", "4343");
    // PKCS#12 stores of the two leaves with their keys and the CA (password "changeit"; alias =
    // "client" / "server"), OpenSSL 3's default PBES2/AES-256-CBC protection, which Java reads.
    for who in ["client", "server"] {
        run(&[
            "pkcs12",
            "-export",
            "-in",
            &format!("{who}.pem"),
            "-inkey",
            &format!("{who}.key"),
            "-certfile",
            "ca.pem",
            "-name",
            who,
            "-passout",
            "pass:changeit",
            "-out",
            &format!("{who}.p12"),
        ]);
    }
    // A self-signed stranger nobody trusts.
    key("stranger.key");
    run(&[
        "req",
        "-new",
        "-x509",
        "-key",
        "stranger.key",
        "-subj",
        "/CN=soapgen stranger",
        "-days",
        "2",
        "-out",
        "stranger.pem",
    ]);
    Pki { dir }
}

/// An EC leaf of the test CA on `curve` (`"P-256"`, `"P-384"` or `"P-521"`), made on first use in
/// the test PKI's directory: `ec-<curve>.key` (PKCS#8 PEM), `ec-<curve>-sec1.key` (RFC 5915 `EC
/// PRIVATE KEY` PEM) and `ec-<curve>.pem` (subject `/O=soapgen tests/CN=soapgen test ec-<curve>`,
/// the leaves' extensions, serial 7256 / 7384 / 7521). Returns the file stem, `ec-<curve>`.
pub fn ec_leaf(curve: &str) -> String {
    use std::sync::Mutex;
    static MADE: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let stem = format!("ec-{curve}");
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if made.contains(&stem) {
        return stem;
    }
    let pki = test_pki();
    let dir = pki.dir();
    let (key, sec1, csr, pem) = (
        format!("{stem}.key"),
        format!("{stem}-sec1.key"),
        format!("{stem}.csr"),
        format!("{stem}.pem"),
    );
    let curve_opt = format!("ec_paramgen_curve:{curve}");
    // Serials 7256, 7384, 7521: one per curve.
    let serial = format!("7{}", curve.trim_start_matches("P-"));
    openssl(
        dir,
        &[
            "genpkey",
            "-algorithm",
            "EC",
            "-pkeyopt",
            &curve_opt,
            "-out",
            &key,
        ],
    );
    openssl(dir, &["ec", "-in", &key, "-out", &sec1]);
    let subj = format!("/O=soapgen tests/CN=soapgen test {stem}");
    openssl(
        dir,
        &["req", "-new", "-key", &key, "-subj", &subj, "-out", &csr],
    );
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            &csr,
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-set_serial",
            &serial,
            "-days",
            "2",
            "-extfile",
            "leaf.ext",
            "-out",
            &pem,
        ],
    );
    made.push(stem.clone());
    stem
}

/// An RSA-2048 leaf of the test CA with the X.509 v3 extensions `extensions` (an `openssl x509
/// -extfile` text, e.g. `"keyUsage=critical,keyEncipherment\n"`) and `serial`, made on first use
/// in the test PKI's directory as `<stem>.key` (PKCS#8 PEM) and `<stem>.pem` (subject
/// `/O=soapgen tests/CN=soapgen test <stem>`). Returns `stem`.
pub fn leaf_with_extensions(stem: &str, serial: &str, extensions: &str) -> String {
    use std::sync::Mutex;
    static MADE: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if made.iter().any(|m| m == stem) {
        return stem.to_owned();
    }
    let dir = test_pki().dir();
    let (key, csr, pem, ext) = (
        format!("{stem}.key"),
        format!("{stem}.csr"),
        format!("{stem}.pem"),
        format!("{stem}.ext"),
    );
    fs::write(dir.join(&ext), extensions).unwrap_or_else(|e| panic!("cannot write {ext}: {e}"));
    openssl(
        dir,
        &[
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:2048",
            "-out",
            &key,
        ],
    );
    let subj = format!("/O=soapgen tests/CN=soapgen test {stem}");
    openssl(
        dir,
        &["req", "-new", "-key", &key, "-subj", &subj, "-out", &csr],
    );
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            &csr,
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-set_serial",
            serial,
            "-days",
            "2",
            "-extfile",
            &ext,
            "-out",
            &pem,
        ],
    );
    made.push(stem.to_owned());
    stem.to_owned()
}
