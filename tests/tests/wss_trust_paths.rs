//! Certificate paths of the inbound WS-Security check (`TrustStore`, X.509 Token Profile 1.1 §3.1;
//! RFC 5280 §6 path validation, the parts soapgen does): a leaf issued by an intermediate CA that
//! an ECDSA root issued, made by the `openssl` command line at test time (nothing checked in).
//!
//! PKI of this file: `root` (ECDSA P-256, self-signed CA) issues `inter` (ECDSA P-384 CA, signed
//! ecdsa-with-SHA256) and `notca` (an end-entity certificate, `CA:FALSE`); `inter` issues `leaf`
//! (RSA 2048, signed ecdsa-with-SHA384), `notca` issues `rogue` (RSA); `fake-inter` has `inter`'s
//! name but its own key, and issues `forged` (RSA) in `inter`'s name.
//!
//! Each case asks `TrustStore::check` about one certificate, and the last one verifies a message
//! soapgen signed with `leaf`'s key (its BinarySecurityToken carries only the leaf).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use soapgen_runtime::wss::{
    Certificate, TrustStore, UtcTime, WssConfig, WssError, X509Credential, X509Signer,
};
use soapgen_runtime::SoapVersion;
use soapgen_tests::pki::openssl;
use soapgen_tests::wss::request;

/// The directory of this file's PKI, made once per test process.
fn pki() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(make)
}

fn make() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("soapgen-trust-paths-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("ca.ext"),
        "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n\
         subjectKeyIdentifier=hash\n",
    )
    .unwrap();
    fs::write(
        dir.join("leaf.ext"),
        "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n\
         subjectKeyIdentifier=hash\n",
    )
    .unwrap();
    let d = &dir;
    let ec_key = |name: &str, curve: &str| {
        openssl(
            d,
            &[
                "genpkey",
                "-algorithm",
                "EC",
                "-pkeyopt",
                &format!("ec_paramgen_curve:{curve}"),
                "-out",
                &format!("{name}.key"),
            ],
        );
    };
    let rsa_key = |name: &str| {
        openssl(
            d,
            &[
                "genpkey",
                "-algorithm",
                "RSA",
                "-pkeyopt",
                "rsa_keygen_bits:2048",
                "-out",
                &format!("{name}.key"),
            ],
        );
    };
    // `name`, with the subject `cn`, issued by `issuer` (its .pem and .key) with `digest`.
    let issue = |name: &str, cn: &str, issuer: &str, ext: &str, digest: &str, serial: &str| {
        openssl(
            d,
            &[
                "req",
                "-new",
                "-key",
                &format!("{name}.key"),
                "-subj",
                &format!("/CN={cn}"),
                "-out",
                &format!("{name}.csr"),
            ],
        );
        openssl(
            d,
            &[
                "x509",
                "-req",
                "-in",
                &format!("{name}.csr"),
                "-CA",
                &format!("{issuer}.pem"),
                "-CAkey",
                &format!("{issuer}.key"),
                "-set_serial",
                serial,
                "-days",
                "2",
                &format!("-{digest}"),
                "-extfile",
                ext,
                "-out",
                &format!("{name}.pem"),
            ],
        );
    };
    ec_key("root", "P-256");
    openssl(
        d,
        &[
            "req",
            "-x509",
            "-new",
            "-key",
            "root.key",
            "-subj",
            "/CN=soapgen test EC root",
            "-days",
            "2",
            "-sha256",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
            "-out",
            "root.pem",
        ],
    );
    ec_key("inter", "P-384");
    issue(
        "inter",
        "soapgen test EC intermediate",
        "root",
        "ca.ext",
        "sha256",
        "11",
    );
    ec_key("notca", "P-256");
    issue(
        "notca",
        "soapgen test not a CA",
        "root",
        "leaf.ext",
        "sha256",
        "12",
    );
    rsa_key("leaf");
    issue(
        "leaf",
        "soapgen test leaf",
        "inter",
        "leaf.ext",
        "sha384",
        "13",
    );
    rsa_key("rogue");
    issue(
        "rogue",
        "soapgen test rogue",
        "notca",
        "leaf.ext",
        "sha256",
        "14",
    );
    ec_key("fake-inter", "P-384");
    openssl(
        d,
        &[
            "req",
            "-x509",
            "-new",
            "-key",
            "fake-inter.key",
            "-subj",
            "/CN=soapgen test EC intermediate",
            "-days",
            "2",
            "-sha256",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-out",
            "fake-inter.pem",
        ],
    );
    rsa_key("forged");
    issue(
        "forged",
        "soapgen test leaf",
        "fake-inter",
        "leaf.ext",
        "sha384",
        "13",
    );
    dir
}

/// The time of a check: after this file's PKI was made (its certificates are valid from then).
fn now() -> UtcTime {
    pki();
    UtcTime::now()
}

fn cert(name: &str) -> Certificate {
    let pem = fs::read(pki().join(format!("{name}.pem"))).unwrap();
    Certificate::from_pem(&pem, name).unwrap()
}

fn untrusted(r: Result<(), WssError>) -> String {
    match r {
        Err(e @ WssError::UntrustedCertificate { .. }) => e.to_string(),
        other => panic!("expected UntrustedCertificate, got {other:?}"),
    }
}

#[test]
fn a_leaf_reaches_an_ecdsa_root_through_an_intermediate() {
    let now = now();
    let store = TrustStore::new()
        .anchor(cert("root"))
        .intermediate(cert("inter"));
    store.check(&cert("leaf"), now).unwrap();
    // Checked again: from the path cache, same answer.
    store.check(&cert("leaf"), now).unwrap();
    // The intermediate itself chains to the root, but its keyUsage (keyCertSign, cRLSign) does
    // not let it sign messages; without the keyUsage check it is trusted through the root. The
    // intermediate as an anchor works.
    assert!(matches!(
        store.check(&cert("inter"), now),
        Err(WssError::KeyUsageNotAllowed { .. })
    ));
    store
        .clone()
        .check_key_usage(false)
        .check(&cert("inter"), now)
        .unwrap();
    TrustStore::new()
        .anchor(cert("inter"))
        .check(&cert("leaf"), now)
        .unwrap();
}

#[test]
fn a_missing_intermediate_or_another_root_leaves_the_leaf_untrusted() {
    let now = now();
    let e = untrusted(
        TrustStore::new()
            .anchor(cert("root"))
            .check(&cert("leaf"), now),
    );
    assert!(e.contains("soapgen test EC intermediate"), "{e}");
    let e = untrusted(
        TrustStore::new()
            .anchor(cert("notca"))
            .intermediate(cert("inter"))
            .check(&cert("leaf"), now),
    );
    assert!(e.contains("soapgen test leaf"), "{e}");
}

#[test]
fn an_end_entity_certificate_is_no_intermediate() {
    // notca signed rogue, and root signed notca, but notca says CA:FALSE.
    let e = untrusted(
        TrustStore::new()
            .anchor(cert("root"))
            .intermediate(cert("notca"))
            .check(&cert("rogue"), now()),
    );
    assert!(
        e.contains("not issued by a trusted anchor (issuer CN=soapgen test not a CA)"),
        "{e}"
    );
}

#[test]
fn a_certificate_in_a_trusted_name_but_signed_by_another_key_is_refused() {
    let now = now();
    // Issued in the intermediate's name by a key that is not the intermediate's.
    let e = untrusted(
        TrustStore::new()
            .anchor(cert("inter"))
            .check(&cert("forged"), now),
    );
    assert!(e.contains("does not verify"), "{e}");
    // The fake intermediate offered as an intermediate: root did not sign it.
    let e = untrusted(
        TrustStore::new()
            .anchor(cert("root"))
            .intermediate(cert("fake-inter"))
            .check(&cert("forged"), now),
    );
    assert!(e.contains("soapgen test leaf"), "{e}");
}

#[test]
fn a_validity_window_outside_now_is_refused_along_the_path() {
    let store = TrustStore::new()
        .anchor(cert("root"))
        .intermediate(cert("inter"));
    let later = now().plus(Duration::from_secs(3 * 24 * 3600));
    let e = untrusted(store.check(&cert("leaf"), later));
    assert!(e.contains("expired"), "{e}");
    let earlier = now().minus(Duration::from_secs(24 * 3600));
    let e = untrusted(store.check(&cert("leaf"), earlier));
    assert!(e.contains("not valid yet"), "{e}");
}

#[test]
fn a_message_signed_by_the_leaf_verifies_only_with_its_path_configured() {
    let dir = pki();
    let leaf = X509Credential::from_pem(
        &fs::read(dir.join("leaf.pem")).unwrap(),
        &fs::read(dir.join("leaf.key")).unwrap(),
    )
    .unwrap();
    let signed = request(
        WssConfig::new()
            .timestamp(Duration::from_secs(300))
            .sign(X509Signer::new(leaf)),
        SoapVersion::Soap11,
        "hello",
    );
    let verifier = |store: TrustStore| {
        WssConfig::new()
            .require_signature(true)
            .trust(store)
            .check_response(signed.as_bytes(), now())
    };
    let report = verifier(
        TrustStore::new()
            .anchor(cert("root"))
            .intermediate(cert("inter")),
    )
    .unwrap();
    assert_eq!(
        report.signer.map(|c| c.subject().to_owned()),
        Some(cert("leaf").subject().to_owned())
    );
    let e = verifier(TrustStore::new().anchor(cert("root"))).unwrap_err();
    assert!(matches!(e, WssError::UntrustedCertificate { .. }), "{e}");
}
