//! XML Encryption (XML-Enc 1.0/1.1, WSS 1.1 §9) against real peers.
//!
//! Primitives ([`BlockEncryption`], [`KeyTransport`]): decrypting known answers made by the
//! `openssl` command line at test time (`openssl enc` for the CBC modes, `openssl pkeyutl` for
//! RSA-OAEP and RSA PKCS#1 v1.5 key transport), `openssl pkeyutl -decrypt` reading soapgen's
//! wrapped keys, and every tamper giving the one `DecryptionFailed`. Keys and certificates come
//! from `soapgen_tests::pki`: `server.pem`/`server.key` are the recipient.

use std::path::Path;
use std::process::{Command, Stdio};

use soapgen_runtime::wss::{BlockEncryption, Certificate, KeyTransport, WssError, X509Credential};
use soapgen_tests::pki::test_pki;

const OPENSSL_HINT: &str = "apt-get install -y openssl";

fn server_cert() -> Certificate {
    Certificate::from_pem(&test_pki().read("server.pem"), "server.pem").unwrap()
}

fn server_credential() -> X509Credential {
    let pki = test_pki();
    X509Credential::from_pem(&pki.read("server.pem"), &pki.read("server.key")).unwrap()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs `openssl args…` with `input` on stdin; its stdout. Panics (with the output) on failure.
fn openssl(args: &[&str], input: &[u8]) -> Vec<u8> {
    try_openssl(args, input).unwrap_or_else(|e| panic!("openssl {args:?} failed: {e}"))
}

fn try_openssl(args: &[&str], input: &[u8]) -> Result<Vec<u8>, String> {
    use std::io::Write;
    let mut child = Command::new("openssl")
        .args(args)
        .current_dir(test_pki().dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run openssl ({e}): {OPENSSL_HINT}"));
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
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

/// The `openssl enc` cipher name of a CBC algorithm.
fn openssl_cbc_name(alg: BlockEncryption) -> Option<(&'static str, usize)> {
    match alg {
        BlockEncryption::Aes128Cbc => Some(("-aes-128-cbc", 16)),
        BlockEncryption::Aes192Cbc => Some(("-aes-192-cbc", 16)),
        BlockEncryption::Aes256Cbc => Some(("-aes-256-cbc", 16)),
        BlockEncryption::TripleDesCbc => Some(("-des-ede3-cbc", 8)),
        _ => None,
    }
}

fn plaintexts() -> Vec<Vec<u8>> {
    let mut out = vec![
        Vec::new(),
        b"x".to_vec(),
        b"<m:Echo xmlns:m=\"urn:m\"><m:text>h\xc3\xa9llo</m:text></m:Echo>".to_vec(),
    ];
    out.push((0..4096u32).map(|i| (i * 31 % 253) as u8).collect());
    out.push(vec![b'a'; 16]);
    out
}

#[test]
fn openssl_enc_ciphertexts_decrypt() {
    for alg in BlockEncryption::ALL {
        let Some((name, block)) = openssl_cbc_name(alg) else {
            continue;
        };
        for plain in plaintexts() {
            let key = alg.generate_key().unwrap();
            let iv = BlockEncryption::Aes128Cbc.generate_key().unwrap()[..block].to_vec();
            // openssl enc pads PKCS#7 style: one of the paddings XML-Enc §5.2 allows.
            let c = openssl(&["enc", name, "-K", &hex(&key), "-iv", &hex(&iv)], &plain);
            let mut data = iv.clone();
            data.extend_from_slice(&c);
            assert_eq!(alg.decrypt(&key, &data).unwrap(), plain, "{alg:?}");
        }
    }
}

#[test]
fn soapgen_ciphertexts_decrypt_with_openssl_enc() {
    for alg in BlockEncryption::ALL {
        let Some((name, block)) = openssl_cbc_name(alg) else {
            continue;
        };
        for plain in plaintexts() {
            let key = alg.generate_key().unwrap();
            let data = alg.encrypt(&key, &plain).unwrap();
            let (iv, c) = data.split_at(block);
            let back = openssl(&["enc", "-d", name, "-K", &hex(&key), "-iv", &hex(iv)], c);
            assert_eq!(back, plain, "{alg:?}");
        }
    }
}

#[test]
fn openssl_pkeyutl_wrapped_keys_unwrap() {
    let cred = server_credential();
    for kt in KeyTransport::ALL {
        let padding: &[&str] = match kt {
            KeyTransport::RsaOaepMgf1Sha1 => &[
                "-pkeyopt",
                "rsa_padding_mode:oaep",
                "-pkeyopt",
                "rsa_oaep_md:sha1",
                "-pkeyopt",
                "rsa_mgf1_md:sha1",
            ],
            _ => &["-pkeyopt", "rsa_padding_mode:pkcs1"],
        };
        for alg in BlockEncryption::ALL {
            let key = alg.generate_key().unwrap();
            let mut args = vec!["pkeyutl", "-encrypt", "-certin", "-inkey", "server.pem"];
            args.extend_from_slice(padding);
            let wrapped = openssl(&args, &key);
            assert_eq!(wrapped.len(), 256);
            assert_eq!(
                kt.unwrap(&cred, &wrapped, alg.key_len()).unwrap(),
                key,
                "{kt:?} {alg:?}"
            );
        }
    }
}

#[test]
fn soapgen_wrapped_keys_unwrap_with_openssl_pkeyutl() {
    let cert = server_cert();
    let cred = server_credential();
    for kt in KeyTransport::ALL {
        let padding: &[&str] = match kt {
            KeyTransport::RsaOaepMgf1Sha1 => &[
                "-pkeyopt",
                "rsa_padding_mode:oaep",
                "-pkeyopt",
                "rsa_oaep_md:sha1",
                "-pkeyopt",
                "rsa_mgf1_md:sha1",
            ],
            _ => &["-pkeyopt", "rsa_padding_mode:pkcs1"],
        };
        for alg in BlockEncryption::ALL {
            let key = alg.generate_key().unwrap();
            let wrapped = kt.wrap(&cert, &key).unwrap();
            assert_eq!(wrapped.len(), 256);
            let mut args = vec!["pkeyutl", "-decrypt", "-inkey", "server.key"];
            args.extend_from_slice(padding);
            assert_eq!(openssl(&args, &wrapped), key, "{kt:?} {alg:?}");
            // And soapgen's own round trip.
            assert_eq!(kt.unwrap(&cred, &wrapped, key.len()).unwrap(), key);
        }
    }
    // The wrong padding does not decrypt in openssl either (so the modes really differ).
    let wrapped = KeyTransport::RsaOaepMgf1Sha1
        .wrap(&cert, &[7u8; 32])
        .unwrap();
    assert!(try_openssl(
        &[
            "pkeyutl",
            "-decrypt",
            "-inkey",
            "server.key",
            "-pkeyopt",
            "rsa_padding_mode:pkcs1"
        ],
        &wrapped
    )
    .map_or(true, |k| k != [7u8; 32]));
}

#[test]
fn oaep_failures_are_decryption_failed() {
    let cert = server_cert();
    let cred = server_credential();
    let key = [0x5au8; 32];
    let wrapped = KeyTransport::RsaOaepMgf1Sha1.wrap(&cert, &key).unwrap();
    let oaep = KeyTransport::RsaOaepMgf1Sha1;
    for i in [0usize, 1, 100, 255] {
        let mut bad = wrapped.clone();
        bad[i] ^= 0x04;
        assert_eq!(
            oaep.unwrap(&cred, &bad, 32),
            Err(WssError::DecryptionFailed),
            "byte {i}"
        );
    }
    assert_eq!(
        oaep.unwrap(&cred, &wrapped[1..], 32),
        Err(WssError::DecryptionFailed)
    );
    assert_eq!(oaep.unwrap(&cred, &[], 32), Err(WssError::DecryptionFailed));
    // A key of another length than the block algorithm's.
    assert_eq!(
        oaep.unwrap(&cred, &wrapped, 16),
        Err(WssError::DecryptionFailed)
    );
    // Another recipient's key.
    let pki = test_pki();
    let client =
        X509Credential::from_pem(&pki.read("client.pem"), &pki.read("client.key")).unwrap();
    assert_eq!(
        oaep.unwrap(&client, &wrapped, 32),
        Err(WssError::DecryptionFailed)
    );
}

#[test]
fn rsa15_failures_are_random_keys_that_then_fail() {
    let cert = server_cert();
    let cred = server_credential();
    let rsa15 = KeyTransport::Rsa15;
    let alg = BlockEncryption::Aes256Gcm;
    let key = alg.generate_key().unwrap();
    let wrapped = rsa15.wrap(&cert, &key).unwrap();
    let data = alg.encrypt(&key, b"<x>secret</x>").unwrap();
    assert_eq!(
        alg.decrypt(&rsa15.unwrap(&cred, &wrapped, 32).unwrap(), &data)
            .unwrap(),
        b"<x>secret</x>"
    );
    let mut tampered = wrapped.clone();
    tampered[5] ^= 0x10;
    let pki = test_pki();
    let client =
        X509Credential::from_pem(&pki.read("client.pem"), &pki.read("client.key")).unwrap();
    let cases: Vec<(&str, Result<Vec<u8>, WssError>)> = vec![
        ("tampered", rsa15.unwrap(&cred, &tampered, 32)),
        ("truncated", rsa15.unwrap(&cred, &wrapped[..200], 32)),
        ("wrong length", rsa15.unwrap(&cred, &wrapped, 16)),
        ("other key", rsa15.unwrap(&client, &wrapped, 32)),
        ("empty", rsa15.unwrap(&cred, &[], 32)),
    ];
    for (what, got) in cases {
        let substitute = got.unwrap_or_else(|e| panic!("{what}: implicit rejection, not {e}"));
        assert_ne!(substitute, key, "{what}");
        let expected_len = if what == "wrong length" { 16 } else { 32 };
        assert_eq!(substitute.len(), expected_len, "{what}");
        if expected_len == 32 {
            assert_eq!(
                alg.decrypt(&substitute, &data),
                Err(WssError::DecryptionFailed),
                "{what}"
            );
        }
    }
    // Substitutes are random, not a fixed value an attacker could test for.
    assert_ne!(
        rsa15.unwrap(&cred, &tampered, 32).unwrap(),
        rsa15.unwrap(&cred, &tampered, 32).unwrap()
    );
}

#[test]
fn wrap_needs_an_rsa_certificate() {
    let dir = test_pki().dir();
    let ec = dir.join("ec-wss-encrypt.pem");
    make_ec_cert(dir, &ec);
    let cert = Certificate::from_pem(&std::fs::read(&ec).unwrap(), "ec").unwrap();
    let e = KeyTransport::RsaOaepMgf1Sha1
        .wrap(&cert, &[0u8; 16])
        .unwrap_err();
    assert!(matches!(e, WssError::Certificate { .. }), "{e}");
    assert!(e.to_string().contains("not RSA"), "{e}");
}

fn make_ec_cert(dir: &Path, out: &Path) {
    let key = dir.join("ec-wss-encrypt.key");
    let status = Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
        ])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(out)
        .args(["-subj", "/CN=soapgen ec test", "-days", "1"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("cannot run openssl ({e}): {OPENSSL_HINT}"));
    assert!(status.success());
}
