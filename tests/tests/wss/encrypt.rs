//! XML Encryption (XML-Enc 1.0/1.1, WSS 1.1 §9) against real peers.
//!
//! Primitives ([`BlockEncryption`], [`KeyTransport`]): decrypting known answers made by the
//! `openssl` command line at test time (`openssl enc` for the CBC modes, `openssl pkeyutl` for
//! RSA-OAEP and RSA PKCS#1 v1.5 key transport), `openssl pkeyutl -decrypt` reading soapgen's
//! wrapped keys, and every tamper giving the one `DecryptionFailed`.
//!
//! Encrypted requests ([`X509Encryptor`]): xmlsec1 1.2.37 decrypts soapgen's requests for every
//! block algorithm × key transport, SOAP 1.1 and 1.2, encrypt-only, sign-then-encrypt (the
//! signature then verifies, with xmlsec1, over the decrypted Body) and encrypt-then-sign (verifies
//! before decryption); the decrypted Body content equals what was written (compared in exclusive
//! C14N). xmlsec1 does not know the WS-Security layout: `soapgen_tests::xmlsec` moves the
//! header's EncryptedKey into the EncryptedData first and says how. The other way, bodies that
//! xmlsec1 encrypted decrypt with soapgen's primitives (the AES-GCM known answers). WSS4J 1.6.19
//! (Santuario 2.1.7) decrypts soapgen's requests — the default algorithms among them — in both
//! orders, signed and not, SOAP 1.1 and 1.2, and refuses them without the recipient's key.
//!
//! Keys and certificates come from `soapgen_tests::pki`: `server.pem`/`server.key` are the
//! recipient, `client.pem`/`client.key` sign.

use std::time::Duration;

use soapgen_runtime::wss::{
    exclusive_c14n, BlockEncryption, Certificate, EncryptionOrder, KeyReference, KeyTransport,
    WssConfig, WssError, X509Encryptor, X509Signer,
};
use soapgen_runtime::xml::Name;
use soapgen_runtime::{Client, Operation, SoapVersion};
use soapgen_tests::peers;
use soapgen_tests::pki::{ec_leaf, test_pki};
use soapgen_tests::pki::{openssl_with_stdin, try_openssl_with_stdin};
use soapgen_tests::wss::{cert, credential, request_with, strs, wss4j_keys, ECHO_NS};
use soapgen_tests::wss4j_service::{echo11, Echo11Client, Echo12Client};
use soapgen_tests::xmlsec::{
    xmlsec1_decrypt, xmlsec1_encrypt_body, xmlsec1_verify, xmlsec1_verify_with_cert,
};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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
            let c = openssl_with_stdin(
                test_pki().dir(),
                &["enc", name, "-K", &hex(&key), "-iv", &hex(&iv)],
                &plain,
            );
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
            let back = openssl_with_stdin(
                test_pki().dir(),
                &["enc", "-d", name, "-K", &hex(&key), "-iv", &hex(iv)],
                c,
            );
            assert_eq!(back, plain, "{alg:?}");
        }
    }
}

/// The `openssl pkeyutl` options of a key transport's padding (XML-Enc §5.4, XML-Enc 1.1
/// §5.5.2): OAEP with SHA-1 and MGF1-SHA-1, SHA-1 and MGF1-SHA-256, SHA-256 and MGF1-SHA-256, or
/// PKCS#1 v1.5.
fn openssl_padding(kt: KeyTransport) -> &'static [&'static str] {
    match kt {
        KeyTransport::RsaOaepMgf1Sha1 => &[
            "-pkeyopt",
            "rsa_padding_mode:oaep",
            "-pkeyopt",
            "rsa_oaep_md:sha1",
            "-pkeyopt",
            "rsa_mgf1_md:sha1",
        ],
        KeyTransport::RsaOaepMgf1Sha256 => &[
            "-pkeyopt",
            "rsa_padding_mode:oaep",
            "-pkeyopt",
            "rsa_oaep_md:sha1",
            "-pkeyopt",
            "rsa_mgf1_md:sha256",
        ],
        KeyTransport::RsaOaepSha256Mgf1Sha256 => &[
            "-pkeyopt",
            "rsa_padding_mode:oaep",
            "-pkeyopt",
            "rsa_oaep_md:sha256",
            "-pkeyopt",
            "rsa_mgf1_md:sha256",
        ],
        _ => &["-pkeyopt", "rsa_padding_mode:pkcs1"],
    }
}

/// Every key transport: XML-Enc 1.0's two, and the OAEP variants with MGF1-SHA-256.
fn transports() -> impl Iterator<Item = KeyTransport> {
    KeyTransport::ALL
        .into_iter()
        .chain(KeyTransport::MGF1_SHA256)
}

#[test]
fn openssl_pkeyutl_wrapped_keys_unwrap() {
    let cred = credential("server");
    for kt in transports() {
        let padding = openssl_padding(kt);
        for alg in BlockEncryption::ALL {
            let key = alg.generate_key().unwrap();
            let mut args = vec!["pkeyutl", "-encrypt", "-certin", "-inkey", "server.pem"];
            args.extend_from_slice(padding);
            let wrapped = openssl_with_stdin(test_pki().dir(), &args, &key);
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
    let cert = cert("server.pem");
    let cred = credential("server");
    for kt in transports() {
        let padding = openssl_padding(kt);
        for alg in BlockEncryption::ALL {
            let key = alg.generate_key().unwrap();
            let wrapped = kt.wrap(&cert, &key).unwrap();
            assert_eq!(wrapped.len(), 256);
            let mut args = vec!["pkeyutl", "-decrypt", "-inkey", "server.key"];
            args.extend_from_slice(padding);
            assert_eq!(
                openssl_with_stdin(test_pki().dir(), &args, &wrapped),
                key,
                "{kt:?} {alg:?}"
            );
            // And soapgen's own round trip.
            assert_eq!(kt.unwrap(&cred, &wrapped, key.len()).unwrap(), key);
        }
    }
    // The wrong padding does not decrypt in openssl either (so the modes really differ).
    let wrapped = KeyTransport::RsaOaepMgf1Sha1
        .wrap(&cert, &[7u8; 32])
        .unwrap();
    assert!(try_openssl_with_stdin(
        test_pki().dir(),
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
    // Nor does OAEP with MGF1-SHA-256 under MGF1-SHA-1, nor the reverse, in soapgen.
    let wrapped = KeyTransport::RsaOaepMgf1Sha256
        .wrap(&cert, &[7u8; 32])
        .unwrap();
    assert!(KeyTransport::RsaOaepMgf1Sha1
        .unwrap(&cred, &wrapped, 32)
        .is_err());
    assert_eq!(
        KeyTransport::RsaOaepMgf1Sha256
            .unwrap(&cred, &wrapped, 32)
            .unwrap(),
        [7u8; 32]
    );
    let wrapped = KeyTransport::RsaOaepMgf1Sha1
        .wrap(&cert, &[7u8; 32])
        .unwrap();
    assert!(KeyTransport::RsaOaepMgf1Sha256
        .unwrap(&cred, &wrapped, 32)
        .is_err());
}

#[test]
fn oaep_failures_are_decryption_failed() {
    let cert = cert("server.pem");
    let cred = credential("server");
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
    let client = credential("client");
    assert_eq!(
        oaep.unwrap(&client, &wrapped, 32),
        Err(WssError::DecryptionFailed)
    );
}

#[test]
fn rsa15_failures_are_random_keys_that_then_fail() {
    let cert = cert("server.pem");
    let cred = credential("server");
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
    let client = credential("client");
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
    let ec = test_pki().path(&format!("{}.pem", ec_leaf("P-256")));
    let cert = Certificate::from_pem(&std::fs::read(&ec).unwrap(), "ec").unwrap();
    let e = KeyTransport::RsaOaepMgf1Sha1
        .wrap(&cert, &[0u8; 16])
        .unwrap_err();
    assert!(matches!(e, WssError::Certificate { .. }), "{e}");
    assert!(e.to_string().contains("not RSA"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Encrypted requests.

const SECRET: &str = "top secret: h\u{e9}llo & <goodbye>";

/// A request envelope as the client sends it, without sending it: `Echo` with a `text` child
/// holding `text`, and an attribute and a nested element so the content is more than text.
fn request(wss: WssConfig, version: SoapVersion, text: &str) -> String {
    request_with(wss, version, |w| {
        w.start_element(Name::new(ECHO_NS, "Echo"))?;
        w.attribute(Name::unqualified("lang"), "en")?;
        w.simple_element(Name::new(ECHO_NS, "text"), text)?;
        w.start_element(Name::new("urn:other", "extra"))?;
        w.simple_element(Name::new("urn:other", "n"), "42")?;
        w.end_element()?;
        w.end_element()
    })
}

/// The exclusive canonical form of the first element inside the SOAP Body of `doc`.
fn payload_c14n(doc: &str) -> String {
    let body = doc
        .find(":Body")
        .unwrap_or_else(|| panic!("no Body in {doc}"));
    let content = body + doc[body..].find('>').unwrap() + 1;
    let child = content + doc[content..].find('<').unwrap();
    let mut out = Vec::new();
    exclusive_c14n(doc, child, &[], &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn encryptor() -> X509Encryptor {
    X509Encryptor::new(cert("server.pem"))
}

fn signer() -> X509Signer {
    X509Signer::new(credential("client"))
}

/// What the plaintext request's Body payload looks like (the same request, not encrypted).
fn expected_payload(version: SoapVersion) -> String {
    payload_c14n(&request(WssConfig::new(), version, SECRET))
}

fn decrypt_with_xmlsec1(msg: &str) -> String {
    xmlsec1_decrypt(msg, &test_pki().path("server.key"))
        .unwrap_or_else(|e| panic!("xmlsec1 could not decrypt: {e}\n--- message ---\n{msg}"))
}

fn assert_encrypted(msg: &str, enc: &X509Encryptor) {
    assert!(!msg.contains("top secret"), "plaintext visible: {msg}");
    assert!(!msg.contains("urn:other"), "plaintext visible: {msg}");
    assert!(msg.contains(enc.block_algorithm().uri()), "{msg}");
    assert!(msg.contains(enc.key_transport_algorithm().uri()), "{msg}");
    assert_eq!(msg.matches("EncryptedData ").count(), 1, "{msg}");
    assert_eq!(msg.matches(":EncryptedKey ").count(), 1, "{msg}");
}

#[test]
fn xmlsec1_decrypts_every_algorithm_both_versions_encrypt_only() {
    for version in [SoapVersion::Soap11, SoapVersion::Soap12] {
        let expected = expected_payload(version);
        for block in BlockEncryption::ALL {
            for kt in KeyTransport::ALL {
                let enc = encryptor().block_encryption(block).key_transport(kt);
                let msg = request(WssConfig::new().encrypt(enc.clone()), version, SECRET);
                assert_encrypted(&msg, &enc);
                let plain = decrypt_with_xmlsec1(&msg);
                assert_eq!(payload_c14n(&plain), expected, "{version} {block:?} {kt:?}");
            }
        }
    }
}

#[test]
fn xmlsec1_decrypts_then_verifies_sign_then_encrypt() {
    let client_pem = test_pki().path("client.pem");
    for version in [SoapVersion::Soap11, SoapVersion::Soap12] {
        let expected = expected_payload(version);
        for block in BlockEncryption::ALL {
            for kt in KeyTransport::ALL {
                let enc = encryptor().block_encryption(block).key_transport(kt);
                let msg = request(
                    WssConfig::new()
                        .timestamp(Duration::from_secs(300))
                        .sign(signer())
                        .encrypt(enc.clone()),
                    version,
                    SECRET,
                );
                assert_encrypted(&msg, &enc);
                // Processing order = document order (WSS 1.1 §5): the key before the signature.
                assert!(msg.find(":EncryptedKey ").unwrap() < msg.find(":Signature ").unwrap());
                // The signature is over the plaintext: it does not verify before decryption...
                let before = xmlsec1_verify_with_cert(&msg, &client_pem);
                assert!(
                    before.is_err(),
                    "{version} {block:?} {kt:?}: verified before decryption"
                );
                // ...and does after.
                let plain = decrypt_with_xmlsec1(&msg);
                assert_eq!(payload_c14n(&plain), expected, "{version} {block:?} {kt:?}");
                xmlsec1_verify_with_cert(&plain, &client_pem)
                    .unwrap_or_else(|e| panic!("{version} {block:?} {kt:?}: {e}\n{plain}"));
            }
        }
    }
}

#[test]
fn xmlsec1_verifies_then_decrypts_encrypt_then_sign() {
    let pki = test_pki();
    let client_pem = pki.path("client.pem");
    for version in [SoapVersion::Soap11, SoapVersion::Soap12] {
        let expected = expected_payload(version);
        for block in [BlockEncryption::Aes256Gcm, BlockEncryption::Aes128Cbc] {
            let enc = encryptor()
                .block_encryption(block)
                .order(EncryptionOrder::EncryptThenSign);
            let msg = request(
                WssConfig::new()
                    .timestamp(Duration::from_secs(300))
                    .sign(signer())
                    .encrypt(enc.clone()),
                version,
                SECRET,
            );
            assert_encrypted(&msg, &enc);
            assert!(msg.find(":Signature ").unwrap() < msg.find(":EncryptedKey ").unwrap());
            xmlsec1_verify_with_cert(&msg, &client_pem)
                .unwrap_or_else(|e| panic!("{version} {block:?}: {e}\n{msg}"));
            // A flipped ciphertext character breaks the signature.
            // (the Body's CipherValue: the last start tag of one)
            let cv = msg.rfind("<xenc:CipherValue>").unwrap() + "<xenc:CipherValue>".len();
            let mut tampered = msg.clone();
            let c = if &msg[cv + 4..cv + 5] == "A" {
                "B"
            } else {
                "A"
            };
            tampered.replace_range(cv + 4..cv + 5, c);
            assert!(xmlsec1_verify_with_cert(&tampered, &client_pem).is_err());
            if block == BlockEncryption::Aes256Gcm {
                // Still well-formed, and GCM refuses it in xmlsec1 too.
                assert!(xmlsec1_decrypt(&tampered, &pki.path("server.key")).is_err());
            }
            let plain = decrypt_with_xmlsec1(&msg);
            assert_eq!(payload_c14n(&plain), expected, "{version} {block:?}");
        }
    }
}

#[test]
fn key_references_name_the_recipient() {
    let cert = cert("server.pem");
    use base64::Engine;
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let msg = request(
        WssConfig::new().encrypt(encryptor()),
        SoapVersion::Soap11,
        SECRET,
    );
    assert!(msg.contains("#X509SubjectKeyIdentifier"), "{msg}");
    assert!(
        msg.contains(&b64(cert.subject_key_identifier().unwrap())),
        "{msg}"
    );
    let enc = encryptor()
        .key_reference(KeyReference::ThumbprintSha1)
        .unwrap();
    let msg = request(WssConfig::new().encrypt(enc), SoapVersion::Soap11, SECRET);
    assert!(msg.contains("#ThumbprintSHA1"), "{msg}");
    assert!(msg.contains(&b64(&cert.sha1_thumbprint())), "{msg}");
    decrypt_with_xmlsec1(&msg);
    let e = encryptor()
        .key_reference(KeyReference::DirectReference)
        .unwrap_err();
    assert!(matches!(e, WssError::Encode(_)), "{e}");
}

#[test]
fn each_request_has_a_fresh_key_and_iv() {
    let wss = WssConfig::new().encrypt(encryptor());
    let a = request(wss.clone(), SoapVersion::Soap11, SECRET);
    let b = request(wss, SoapVersion::Soap11, SECRET);
    let values = |m: &str| -> Vec<String> {
        m.split("CipherValue>")
            .skip(1)
            .step_by(2)
            .map(|v| v.split('<').next().unwrap().to_owned())
            .collect()
    };
    let (va, vb) = (values(&a), values(&b));
    assert_eq!(va.len(), 2);
    assert_ne!(va[0], vb[0], "wrapped keys repeat");
    assert_ne!(va[1], vb[1], "ciphertexts repeat");
}

#[test]
fn the_wire_log_hides_cipher_values() {
    let msg = request(
        WssConfig::new().encrypt(encryptor()),
        SoapVersion::Soap12,
        SECRET,
    );
    let logged = soapgen_runtime::wire::envelope(msg.as_bytes()).to_string();
    assert_eq!(logged.matches("***redacted***").count(), 2, "{logged}");
    let values = msg
        .split("CipherValue>")
        .nth(1)
        .unwrap()
        .split('<')
        .next()
        .unwrap();
    assert!(!logged.contains(values), "{logged}");
}

#[test]
fn a_non_rsa_recipient_is_a_typed_error_when_sending() {
    let ec = test_pki().path(&format!("{}.pem", ec_leaf("P-256")));
    let cert = Certificate::from_pem(&std::fs::read(&ec).unwrap(), "ec").unwrap();
    let client = Client::builder("http://127.0.0.1:9/")
        .wss(WssConfig::new().encrypt(X509Encryptor::new(cert)))
        .build()
        .unwrap();
    let op = Operation::new("Echo", "", SoapVersion::Soap11);
    let mut req = client.request(&[]);
    req.body_writer()
        .simple_element(Name::new("urn:x", "x"), "1")
        .unwrap();
    let e = client.message(&op, &req.finish().unwrap()).unwrap_err();
    assert!(e.to_string().contains("not RSA"), "{e}");
}

/// The CipherValues of a document xmlsec1 encrypted, in document order (the inline EncryptedKey's
/// first, then the EncryptedData's), base64-decoded.
fn cipher_values(doc: &str) -> Vec<Vec<u8>> {
    use base64::Engine;
    doc.split("CipherValue>")
        .skip(1)
        .step_by(2)
        .map(|v| {
            let text: String = v
                .split('<')
                .next()
                .unwrap()
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            base64::engine::general_purpose::STANDARD
                .decode(text)
                .unwrap()
        })
        .collect()
}

#[test]
fn xmlsec1_encrypted_bodies_decrypt_with_soapgen_primitives() {
    let pki = test_pki();
    let cred = credential("server");
    let plain_request = request(WssConfig::new(), SoapVersion::Soap11, SECRET);
    let body_start = plain_request.find("<soapenv:Body>").unwrap() + "<soapenv:Body>".len();
    let body_end = plain_request.find("</soapenv:Body>").unwrap();
    let content = &plain_request[body_start..body_end];
    for block in BlockEncryption::ALL {
        for kt in KeyTransport::ALL {
            let doc = xmlsec1_encrypt_body(
                &plain_request,
                &pki.path("server.pem"),
                block.uri(),
                kt.uri(),
            );
            assert!(!doc.contains("top secret"));
            let values = cipher_values(&doc);
            assert_eq!(values.len(), 2, "{doc}");
            let key = kt.unwrap(&cred, &values[0], block.key_len()).unwrap();
            let got = block.decrypt(&key, &values[1]).unwrap();
            assert_eq!(String::from_utf8(got).unwrap(), content, "{block:?} {kt:?}");
            // And xmlsec1 itself reads it back.
            let back = xmlsec1_decrypt(&doc, &pki.path("server.key")).unwrap();
            assert_eq!(payload_c14n(&back), payload_c14n(&plain_request));
            // One flipped bit in the data: the one error.
            let mut bad = values[1].clone();
            let last = bad.len() - 1;
            bad[last - 20] ^= 0x80;
            match block.decrypt(&key, &bad) {
                Err(WssError::DecryptionFailed) => {}
                Ok(p) => assert!(
                    !matches!(
                        block,
                        BlockEncryption::Aes128Gcm | BlockEncryption::Aes256Gcm
                    ) && p != content.as_bytes(),
                    "{block:?}: tampering undetected"
                ),
                Err(e) => panic!("{block:?}: {e}"),
            }
        }
    }
}

#[test]
fn xmlsec1_signed_envelopes_verify() {
    use soapgen_tests::xmlsec::xmlsec1_sign;
    let pki = test_pki();
    let env = request(
        WssConfig::new().timestamp(Duration::from_secs(60)),
        SoapVersion::Soap12,
        SECRET,
    );
    // Give the Body an Id to sign.
    let env = env.replacen(
        "<soap:Body>",
        &format!(
            "<soap:Body xmlns:wsu=\"{}\" wsu:Id=\"body-1\">",
            "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
        ),
        1,
    );
    let ts_id = env
        .split("wsu:Id=\"TS-")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    let ts_id = format!("TS-{ts_id}");
    for (sig, digest) in [
        (
            "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
            "http://www.w3.org/2001/04/xmlenc#sha256",
        ),
        (
            "http://www.w3.org/2000/09/xmldsig#rsa-sha1",
            "http://www.w3.org/2000/09/xmldsig#sha1",
        ),
    ] {
        let signed = xmlsec1_sign(
            &env,
            &pki.path("server.key"),
            &pki.path("server.pem"),
            sig,
            digest,
            &["body-1", &ts_id],
        );
        assert!(signed.contains(sig) && signed.contains(digest));
        assert_eq!(signed.matches("<ds:Reference ").count(), 2);
        let ca = pki.path("ca.pem");
        xmlsec1_verify(&signed, &["--trusted-pem", ca.to_str().unwrap()])
            .unwrap_or_else(|e| panic!("{e}\n{signed}"));
        let tampered = signed.replacen("top secret", "top public", 1);
        assert!(xmlsec1_verify(&tampered, &["--trusted-pem", ca.to_str().unwrap()]).is_err());
    }
    // Without a Header, one is made.
    let bare = request(WssConfig::new(), SoapVersion::Soap11, SECRET).replacen(
        "<soapenv:Body>",
        "<soapenv:Body xmlns:wsu=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd\" wsu:Id=\"b\">",
        1,
    );
    let signed = xmlsec1_sign(
        &bare,
        &pki.path("client.key"),
        &pki.path("client.pem"),
        "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
        "http://www.w3.org/2001/04/xmlenc#sha256",
        &["b"],
    );
    assert!(
        signed.contains("<soapenv:Header><wsse:Security"),
        "{signed}"
    );
    xmlsec1_verify(
        &signed,
        &[
            "--pubkey-cert-pem",
            pki.path("client.pem").to_str().unwrap(),
        ],
    )
    .unwrap_or_else(|e| panic!("{e}\n{signed}"));
}

/// The WSS4J peer with the server's PKCS#12 store as its decryption crypto and the test CA as
/// its signature trust anchor.
fn wss4j_decrypting() -> peers::Peer {
    peers::wss4j(&strs(&wss4j_keys("server", "ca.pem")))
}

#[tokio::test]
async fn wss4j_decrypts_soapgen_requests() {
    let p = wss4j_decrypting();
    let text = "chiffr\u{e9} & <sign\u{e9}>";
    let mut cases: Vec<(X509Encryptor, bool, &str)> = Vec::new();
    // The defaults, encrypt only and signed both ways.
    cases.push((encryptor(), false, "ENC"));
    cases.push((encryptor(), true, "TS,BST,ENC,SIGN"));
    cases.push((
        encryptor().order(EncryptionOrder::EncryptThenSign),
        true,
        "TS,BST,SIGN,ENC",
    ));
    // Every block algorithm (but AES-192's: below) and key transport, and the thumbprint
    // reference.
    for block in BlockEncryption::ALL {
        if matches!(
            block,
            BlockEncryption::Aes192Cbc | BlockEncryption::Aes192Gcm
        ) {
            continue;
        }
        for kt in KeyTransport::ALL {
            cases.push((
                encryptor().block_encryption(block).key_transport(kt),
                false,
                "ENC",
            ));
        }
    }
    cases.push((
        encryptor()
            .key_reference(KeyReference::ThumbprintSha1)
            .unwrap(),
        false,
        "ENC",
    ));
    for (enc, sign, actions) in cases {
        let label = format!(
            "{:?} {:?} {:?} sign={sign}",
            enc.block_algorithm(),
            enc.key_transport_algorithm(),
            enc.encryption_order()
        );
        // These peer paths answer unsigned and unencrypted: the client's default inbound
        // requirements (what it sends) are lifted; responses are tested in wss_interop.rs.
        let mut wss = WssConfig::new()
            .require_signature(false)
            .require_encryption(false)
            .encrypt(enc);
        if sign {
            wss = wss.timestamp(Duration::from_secs(300)).sign(signer());
        }
        let path = if sign { "/echo" } else { "/no-timestamp" };
        let client = Client::builder(p.url(path)).wss(wss).build().unwrap();
        let v = Echo11Client::from_client(client.clone())
            .echo(text.into())
            .await
            .unwrap_or_else(|e| panic!("{label}: {e}\n--- peer ---\n{}", p.stderr_output()));
        assert_eq!(v.text, text, "{label}");
        assert_eq!(v.actions, actions, "{label}");
        if sign {
            assert_eq!(v.signed, "Timestamp,Body", "{label}");
        }
        let v = Echo12Client::from_client(client)
            .echo("douze".into())
            .await
            .unwrap_or_else(|e| panic!("{label} (1.2): {e}\n--- peer ---\n{}", p.stderr_output()));
        assert_eq!(
            (v.text.as_str(), v.actions.as_str()),
            ("douze", actions),
            "{label}"
        );
    }
}

/// WSS4J 1.6.19 knows no AES-192 (its key-length table has none): it names the algorithm as not
/// supported rather than failing to decrypt, so the message itself is fine (xmlsec1 decrypts it
/// above).
#[tokio::test]
async fn wss4j_names_aes192_unsupported() {
    let p = wss4j_decrypting();
    for (block, uri) in [
        (
            BlockEncryption::Aes192Cbc,
            "http://www.w3.org/2001/04/xmlenc#aes192-cbc",
        ),
        (
            BlockEncryption::Aes192Gcm,
            "http://www.w3.org/2009/xmlenc11#aes192-gcm",
        ),
    ] {
        let e = echo11(
            p.url("/no-timestamp"),
            WssConfig::new()
                .require_encryption(false)
                .encrypt(encryptor().block_encryption(block)),
            "x".into(),
        )
        .await
        .unwrap_err();
        assert!(
            e.to_string().contains(&format!("is not supported: {uri}")),
            "{e}"
        );
    }
}

#[tokio::test]
async fn wss4j_cannot_decrypt_for_another_recipient() {
    let p = wss4j_decrypting();
    // Encrypted for the client's certificate: the peer holds only the server's key.
    let other = cert("client.pem");
    let e = echo11(
        p.url("/no-timestamp"),
        WssConfig::new()
            .require_encryption(false)
            .encrypt(X509Encryptor::new(other)),
        "x".into(),
    )
    .await
    .unwrap_err();
    assert!(matches!(e, soapgen_runtime::Error::Fault(_)), "{e}");
    assert!(
        e.to_string()
            .contains("No certificates were found for decryption"),
        "{e}"
    );
}

#[test]
fn requests_with_attachments_are_not_sent_half_encrypted() {
    let client = Client::builder("http://127.0.0.1:9/")
        .wss(WssConfig::new().encrypt(encryptor()))
        .build()
        .unwrap();
    let op = Operation::new("Put", "", SoapVersion::Soap11);
    let request = |client: &Client| {
        let mut req = client.request(&[]);
        let w = req.body_writer();
        let cid = w.swa_attachment(
            "application/octet-stream",
            &bytes::Bytes::from_static(b"data"),
        );
        w.simple_element(Name::new("urn:x", "ref"), cid.as_str())
            .unwrap();
        req.finish().unwrap()
    };
    let e = client.message(&op, &request(&client)).unwrap_err();
    assert!(
        e.to_string()
            .contains("attachments would travel in the clear"),
        "{e}"
    );
    // Without encryption the same request is fine.
    let client = Client::builder("http://127.0.0.1:9/").build().unwrap();
    let m = client.message(&op, &request(&client)).unwrap();
    assert_eq!(m.attachments.len(), 1);
    // With its attachments encrypted too (WSS SwA Profile 1.1 §5.5): the part holds the
    // ciphertext under its Content-ID, an EncryptedData in the Security header names it.
    let client = Client::builder("http://127.0.0.1:9/")
        .wss(WssConfig::new().encrypt(
            encryptor().encrypt_attachments(soapgen_runtime::wss::AttachmentCoverage::Content),
        ))
        .build()
        .unwrap();
    let m = client.message(&op, &request(&client)).unwrap();
    let part = &m.attachments[0];
    assert_eq!(part.content_type, "application/octet-stream");
    assert_ne!(&part.data[..], b"data");
    assert!(
        m.envelope.contains(&format!(
            "<xenc:CipherReference URI=\"cid:{}\"",
            part.content_id
        )),
        "{}",
        m.envelope
    );
}

#[test]
fn mtom_attachments_are_not_protected_as_swa_ones() {
    let client = Client::builder("http://127.0.0.1:9/")
        .wss(WssConfig::new().encrypt(
            encryptor().encrypt_attachments(soapgen_runtime::wss::AttachmentCoverage::Complete),
        ))
        .build()
        .unwrap();
    let op = Operation::new("Put", "", SoapVersion::Soap11);
    let mut req = client.request(&[]);
    let w = req.body_writer();
    w.set_mtom(Some(1));
    let url = w
        .mtom_attachment(&bytes::Bytes::from_static(b"data"))
        .unwrap();
    w.start_element(Name::new("urn:x", "put")).unwrap();
    w.start_element(Name::new(
        "http://www.w3.org/2004/08/xop/include",
        "Include",
    ))
    .unwrap();
    w.attribute(Name::unqualified("href"), &url).unwrap();
    w.end_element().unwrap();
    w.end_element().unwrap();
    let e = client.message(&op, &req.finish().unwrap()).unwrap_err();
    assert!(e.to_string().contains("not MTOM ones"), "{e}");
}
