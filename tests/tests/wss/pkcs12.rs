//! PKCS#12 stores (RFC 7292) as `X509Credential::from_pkcs12` and `Certificate::all_from_pkcs12`
//! read them, made by their usual makers: OpenSSL 3 (default PBES2/PBKDF2/AES-256-CBC with an
//! HMAC-SHA-256 MAC, and `-legacy` PBE-SHA1-3DES/RC2-40 with an HMAC-SHA-1 MAC) and Java's keytool
//! (OpenJDK 17). A credential read from each signs a request that xmlsec1 then verifies with the
//! certificate its maker exported. Every refusal is a typed error.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use soapgen_runtime::wss::{Certificate, WssConfig, WssError, X509Credential, X509Signer};
use soapgen_runtime::SoapVersion;
use soapgen_tests::pki::{openssl, test_pki};
use soapgen_tests::wss::{cert, request};
use soapgen_tests::xmlsec::xmlsec1_verify_with_cert;

fn keytool(dir: &Path, args: &[&str]) {
    let out = Command::new("keytool")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run keytool ({e}): apt-get install -y openjdk-17-jdk-headless")
        });
    assert!(
        out.status.success(),
        "keytool {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Signs a request with `cred` and has xmlsec1 verify it with the certificate in `cert_pem`.
fn xmlsec1_verifies_a_request_signed_with(cred: X509Credential, cert_pem: &Path) {
    let wss = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .sign(X509Signer::new(cred));
    let xml = request(wss, SoapVersion::Soap11, "signed with a PKCS#12 key");
    xmlsec1_verify_with_cert(&xml, cert_pem)
        .unwrap_or_else(|e| panic!("xmlsec1 refused:\n{e}\n{xml}"));
    // Negative control: another certificate's key does not verify it.
    let stranger = test_pki().path("stranger.pem");
    assert!(xmlsec1_verify_with_cert(&xml, &stranger).is_err());
}

#[test]
fn openssl_default_store() {
    let pki = test_pki();
    let cred = X509Credential::from_pkcs12(&pki.read("client.p12"), "changeit").unwrap();
    let pem = cert("client.pem");
    // The leaf, not the CA that is also in the store.
    assert_eq!(cred.certificate(), &pem);
    let server = X509Credential::from_pkcs12_file(pki.path("server.p12"), "changeit").unwrap();
    assert_eq!(server.certificate().serial_decimal(), "4343");
    xmlsec1_verifies_a_request_signed_with(cred, &pki.path("client.pem"));
    // As a trust store: both certificates, in the store's order.
    let all = Certificate::all_from_pkcs12(&pki.read("client.p12"), "changeit").unwrap();
    let ca = cert("ca.pem");
    assert_eq!(all.len(), 2, "{all:?}");
    assert!(all.contains(&pem) && all.contains(&ca), "{all:?}");
}

#[test]
fn openssl_legacy_store() {
    let pki = test_pki();
    let dir = pki.dir();
    openssl(
        dir,
        &[
            "pkcs12",
            "-export",
            "-legacy",
            "-in",
            "client.pem",
            "-inkey",
            "client.key",
            "-certfile",
            "ca.pem",
            "-passout",
            "pass:old secret",
            "-out",
            "legacy.p12",
        ],
    );
    // openssl's own account of the protection, so the test knows it reads the legacy kind.
    let info = Command::new("openssl")
        .args(["pkcs12", "-in", "legacy.p12", "-info", "-noout", "-legacy"])
        .args(["-passin", "pass:old secret"])
        .current_dir(dir)
        .output()
        .unwrap();
    let info = String::from_utf8_lossy(&info.stderr).into_owned();
    assert!(
        info.contains("MAC: sha1") && info.contains("pbeWithSHA1And40BitRC2-CBC"),
        "{info}"
    );
    assert!(info.contains("pbeWithSHA1And3-KeyTripleDES-CBC"), "{info}");
    let cred = X509Credential::from_pkcs12(&pki.read("legacy.p12"), "old secret").unwrap();
    assert_eq!(cred.certificate().serial_decimal(), "4242");
    xmlsec1_verifies_a_request_signed_with(cred, &pki.path("client.pem"));
    assert_eq!(
        Certificate::all_from_pkcs12(&pki.read("legacy.p12"), "old secret")
            .unwrap()
            .len(),
        2
    );
}

#[test]
fn java_keytool_store() {
    let pki = test_pki();
    let dir = pki.dir();
    let _ = std::fs::remove_file(dir.join("keytool.p12"));
    keytool(
        dir,
        &[
            "-genkeypair",
            "-keyalg",
            "RSA",
            "-keysize",
            "2048",
            "-storetype",
            "PKCS12",
            "-keystore",
            "keytool.p12",
            "-storepass",
            "changeit",
            "-alias",
            "signer",
            "-dname",
            "CN=keytool signer, O=soapgen tests",
            "-validity",
            "2",
        ],
    );
    keytool(
        dir,
        &[
            "-exportcert",
            "-rfc",
            "-keystore",
            "keytool.p12",
            "-storepass",
            "changeit",
            "-alias",
            "signer",
            "-file",
            "keytool.pem",
        ],
    );
    let cred = X509Credential::from_pkcs12(&pki.read("keytool.p12"), "changeit").unwrap();
    assert_eq!(cred.certificate(), &cert("keytool.pem"));
    assert_eq!(
        cred.certificate().issuer_rfc4514(),
        "CN=keytool signer,O=soapgen tests"
    );
    xmlsec1_verifies_a_request_signed_with(cred, &pki.path("keytool.pem"));
    // A keytool trust store of the test CA (a "trusted certificate entry").
    let _ = std::fs::remove_file(dir.join("truststore.p12"));
    keytool(
        dir,
        &[
            "-importcert",
            "-noprompt",
            "-storetype",
            "PKCS12",
            "-keystore",
            "truststore.p12",
            "-storepass",
            "changeit",
            "-alias",
            "ca",
            "-file",
            "ca.pem",
        ],
    );
    let trusted = Certificate::all_from_pkcs12(&pki.read("truststore.p12"), "changeit").unwrap();
    assert_eq!(trusted, vec![cert("ca.pem")]);
}

fn key_error(r: Result<X509Credential, WssError>) -> (String, String) {
    match r {
        Err(WssError::Key { name, reason }) => (name, reason),
        other => panic!("expected a key error, got {other:?}"),
    }
}

#[test]
fn refusals_are_typed_errors() {
    let pki = test_pki();
    let dir = pki.dir();
    // A wrong password, with the file named when read from one.
    let (name, reason) = key_error(X509Credential::from_pkcs12_file(
        pki.path("client.p12"),
        "wrong",
    ));
    assert!(name.ends_with("client.p12"), "{name}");
    assert!(reason.contains("wrong password"), "{reason}");
    let (name, reason) = key_error(X509Credential::from_pkcs12(&pki.read("client.p12"), ""));
    assert_eq!(name, "PKCS#12 store");
    assert!(reason.contains("wrong password"), "{reason}");
    match Certificate::all_from_pkcs12(&pki.read("client.p12"), "wrong") {
        Err(WssError::Certificate { reason, .. }) => {
            assert!(reason.contains("wrong password"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    // A file that cannot be read.
    let (name, reason) = key_error(X509Credential::from_pkcs12_file(
        dir.join("absent.p12"),
        "x",
    ));
    assert!(
        name.ends_with("absent.p12") && reason.contains("cannot read"),
        "{reason}"
    );
    // Not PKCS#12: PEM text, a certificate in DER, nothing.
    openssl(
        dir,
        &["x509", "-in", "ca.pem", "-outform", "DER", "-out", "ca.der"],
    );
    for not in [pki.read("client.pem"), pki.read("ca.der"), Vec::new()] {
        let (_, reason) = key_error(X509Credential::from_pkcs12(&not, "changeit"));
        assert!(reason.contains("not a PKCS#12 store"), "{reason}");
    }
    // No key bag: a store of certificates only.
    openssl(
        dir,
        &[
            "pkcs12",
            "-export",
            "-nokeys",
            "-in",
            "ca.pem",
            "-passout",
            "pass:changeit",
            "-out",
            "certs-only.p12",
        ],
    );
    let (_, reason) = key_error(X509Credential::from_pkcs12(
        &pki.read("certs-only.p12"),
        "changeit",
    ));
    assert!(reason.contains("no private key"), "{reason}");
    assert_eq!(
        Certificate::all_from_pkcs12(&pki.read("certs-only.p12"), "changeit")
            .unwrap()
            .len(),
        1
    );
    // A key without its certificate.
    openssl(
        dir,
        &[
            "pkcs12",
            "-export",
            "-nocerts",
            "-inkey",
            "client.key",
            "-passout",
            "pass:changeit",
            "-out",
            "key-only.p12",
        ],
    );
    let (_, reason) = key_error(X509Credential::from_pkcs12(
        &pki.read("key-only.p12"),
        "changeit",
    ));
    assert!(reason.contains("no certificate in it belongs"), "{reason}");
    // An EC key and its certificate.
    openssl(
        dir,
        &[
            "genpkey",
            "-algorithm",
            "EC",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-out",
            "p12-ec.key",
        ],
    );
    openssl(
        dir,
        &[
            "req",
            "-new",
            "-x509",
            "-key",
            "p12-ec.key",
            "-subj",
            "/CN=ec",
            "-days",
            "1",
            "-out",
            "p12-ec.pem",
        ],
    );
    openssl(
        dir,
        &[
            "pkcs12",
            "-export",
            "-in",
            "p12-ec.pem",
            "-inkey",
            "p12-ec.key",
            "-passout",
            "pass:changeit",
            "-out",
            "ec.p12",
        ],
    );
    // An EC store is a signing credential too (ECDSA on its curve, RFC 6931 §2.3.6).
    let ec = X509Credential::from_pkcs12(&pki.read("ec.p12"), "changeit")
        .unwrap_or_else(|e| panic!("EC PKCS#12: {e}"));
    assert_eq!(ec.certificate().subject(), "CN=ec");
    assert_eq!(
        ec.default_signature_algorithm(),
        soapgen_runtime::wss::SignatureAlgorithm::EcdsaSha256
    );
    // An EC key whose certificate is not in the store.
    openssl(
        dir,
        &[
            "pkcs12",
            "-export",
            "-nocerts",
            "-inkey",
            "p12-ec.key",
            "-passout",
            "pass:changeit",
            "-out",
            "ec-key-only.p12",
        ],
    );
    let (_, reason) = key_error(X509Credential::from_pkcs12(
        &pki.read("ec-key-only.p12"),
        "changeit",
    ));
    assert!(
        reason.contains("no certificate in it belongs to EC key 1"),
        "{reason}"
    );
    // A store whose bytes were damaged after the MAC was made.
    let mut damaged = pki.read("client.p12");
    let last = damaged.len() - 40;
    damaged[last] ^= 0x55;
    let (_, reason) = key_error(X509Credential::from_pkcs12(&damaged, "changeit"));
    assert!(reason.contains("damaged"), "{reason}");
}

/// Damaged stores (bytes flipped, truncations) are errors, never panics. With the right password
/// the MAC catches most damage; a store without a MAC (`-nomac`, one PBKDF2 iteration so that
/// many bytes can be tried quickly) lets damage reach the decryption and DER parsing of the bags.
#[test]
fn damaged_stores_are_errors_not_panics() {
    let pki = test_pki();
    openssl(
        pki.dir(),
        &[
            "pkcs12",
            "-export",
            "-nomac",
            "-in",
            "client.pem",
            "-inkey",
            "client.key",
            "-passout",
            "pass:changeit",
            "-out",
            "nomac.p12",
        ],
    );
    // Every 97th byte of the MAC-protected store (each try runs its 2048-iteration MAC), every
    // 5th of the other (RustCrypto's ciphers are slow in debug builds).
    for (name, step) in [("client.p12", 97), ("nomac.p12", 5)] {
        let good = pki.read(name);
        X509Credential::from_pkcs12(&good, "changeit").unwrap();
        for i in (0..good.len()).step_by(step) {
            let mut bad = good.clone();
            bad[i] ^= 0xa5;
            let _ = X509Credential::from_pkcs12(&bad, "changeit");
            let _ = Certificate::all_from_pkcs12(&bad, "changeit");
        }
        for len in (0..good.len()).step_by(step * 7) {
            assert!(X509Credential::from_pkcs12(&good[..len], "changeit").is_err());
        }
    }
}
