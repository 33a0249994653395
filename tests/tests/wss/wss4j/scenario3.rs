//! WSS "Scenario 3" (Timestamp; signature of Body + Timestamp with a BinarySecurityToken; Body
//! content encrypted for a certificate named by its SubjectKeyIdentifier) as Apache WSS4J 1.6.19
//! builds and checks it, proved without soapgen's inbound side so that the fixtures can be trusted:
//!
//! * WSS4J's own Scenario-3 requests (`wss4j-peer --make-request`) are accepted by the WSS4J server,
//!   for every symmetric algorithm, both signature algorithms, both key transports and both orders;
//! * its replies are decrypted by xmlsec1 1.2.37 with the client's key (XML-Enc 1.1 §4) and their
//!   signature verified by xmlsec1 with the server's certificate (XML-DSig §3.2), before or after
//!   decryption as the order says, and processed by WSS4J on the client side (`--process`);
//! * the server refuses a `/scenario3` request whose Body is not signed or not encrypted;
//! * the `/ut-digest-reply` UsernameToken (WSS UsernameToken Profile 1.1 §3.1) is accepted by WSS4J
//!   with the right password only, and its digest recomputes here.
//!
//! Keys and certificates come from `soapgen_tests::pki` (openssl, at test time).

use std::process::Command;

use base64::Engine as _;
use soapgen_runtime::SoapVersion;
use soapgen_tests::peers::{self, Peer};
use soapgen_tests::pki::{test_pki, Pki};
use soapgen_tests::wss::{path_str, post_raw, strs, wss4j_keys, wss4j_scenario3_server};
use soapgen_tests::xmlsec::{xmlsec1_decrypt, xmlsec1_verify_with_cert};

/// The Scenario-3 variants: (path below /scenario3/, symmetric algorithm URI, key transport URI,
/// signature method URI, sign first?).
const VARIANTS: &[(&str, &str, &str, &str, bool)] = &[
    (
        "aes128-cbc",
        "http://www.w3.org/2001/04/xmlenc#aes128-cbc",
        "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
        "http://www.w3.org/2000/09/xmldsig#rsa-sha1",
        true,
    ),
    (
        "aes256-cbc",
        "http://www.w3.org/2001/04/xmlenc#aes256-cbc",
        "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
        "http://www.w3.org/2000/09/xmldsig#rsa-sha1",
        true,
    ),
    (
        "3des",
        "http://www.w3.org/2001/04/xmlenc#tripledes-cbc",
        "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
        "http://www.w3.org/2000/09/xmldsig#rsa-sha1",
        true,
    ),
    (
        "aes128-gcm",
        "http://www.w3.org/2009/xmlenc11#aes128-gcm",
        "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
        "http://www.w3.org/2000/09/xmldsig#rsa-sha1",
        true,
    ),
    (
        "aes256-gcm",
        "http://www.w3.org/2009/xmlenc11#aes256-gcm",
        "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
        "http://www.w3.org/2000/09/xmldsig#rsa-sha1",
        true,
    ),
    (
        "aes128-cbc?sig=rsa-sha256",
        "http://www.w3.org/2001/04/xmlenc#aes128-cbc",
        "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
        "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
        true,
    ),
    (
        "3des?kt=rsa15",
        "http://www.w3.org/2001/04/xmlenc#tripledes-cbc",
        "http://www.w3.org/2001/04/xmlenc#rsa-1_5",
        "http://www.w3.org/2000/09/xmldsig#rsa-sha1",
        true,
    ),
    (
        "aes256-gcm?order=encrypt-sign&sig=rsa-sha256&kt=rsa15",
        "http://www.w3.org/2009/xmlenc11#aes256-gcm",
        "http://www.w3.org/2001/04/xmlenc#rsa-1_5",
        "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
        false,
    ),
];

/// A Scenario-3 request built by WSS4J as the client: signed with client.p12, encrypted for the
/// server.
fn wss4j_request(pki: &Pki, profile: &str, text: &str) -> Vec<u8> {
    let mut args = wss4j_keys("client", "ca.pem");
    args.extend([
        "--encrypt-for".into(),
        path_str(&pki.path("server.pem")).into(),
        "--text".into(),
        text.into(),
    ]);
    peers::wss4j_make_request(profile, &strs(&args))
}

/// POSTs `body` (SOAP 1.1) to the peer; returns the HTTP status and the response body.
fn post(peer: &Peer, path: &str, body: &[u8]) -> (u16, String) {
    post_raw(peer, path, SoapVersion::Soap11, body)
}

/// The text between `<tag` ... `>` and `</tag>` (first occurrence).
fn element<'a>(xml: &'a str, tag: &str) -> Option<&'a str> {
    let start = xml.find(&format!("<{tag}"))?;
    let content = start + xml[start..].find('>')? + 1;
    if xml[start..content].ends_with("/>") {
        return Some("");
    }
    let end = content + xml[content..].find(&format!("</{tag}>"))?;
    Some(&xml[content..end])
}

/// The SubjectKeyIdentifier of a PEM certificate, base64, as openssl reads it.
fn ski_base64(pki: &Pki, cert: &str) -> String {
    let out = Command::new("openssl")
        .args(["x509", "-noout", "-ext", "subjectKeyIdentifier", "-in"])
        .arg(pki.path(cert))
        .output()
        .unwrap_or_else(|e| panic!("cannot run openssl ({e}): apt-get install -y openssl"));
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let hex = text.lines().nth(1).unwrap().trim().replace(':', "");
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// One round trip: a WSS4J Scenario-3 request to /scenario3/<variant>; the reply.
fn round_trip(pki: &Pki, peer: &Peer, variant: &str, text: &str) -> String {
    let request = wss4j_request(pki, &format!("scenario3/{variant}"), text);
    let (status, reply) = post(peer, &format!("/scenario3/{variant}"), &request);
    assert_eq!(
        status,
        200,
        "{variant}: {reply}\n--- request ---\n{}\n--- peer ---\n{}",
        String::from_utf8_lossy(&request),
        peer.stderr_output()
    );
    reply
}

#[test]
fn wss4j_accepts_its_own_scenario3_requests_and_xmlsec1_decrypts_the_replies() {
    let pki = test_pki();
    let peer = wss4j_scenario3_server(&[]);
    let client_ski = ski_base64(pki, "client.pem");
    for &(variant, sym, kt, sig, sign_first) in VARIANTS {
        let text = format!("scenario 3 <{variant}> & é");
        let reply = round_trip(pki, &peer, variant, &text);

        // The reply's shape, as asked for.
        let header = element(&reply, "wsse:Security").unwrap();
        assert!(
            header.contains(&format!("<xenc:EncryptionMethod Algorithm=\"{kt}\"")),
            "{variant}: {header}"
        );
        assert!(
            header.contains(&format!("<ds:SignatureMethod Algorithm=\"{sig}\"")),
            "{variant}"
        );
        assert!(header.contains("#X509SubjectKeyIdentifier\">"), "{variant}");
        assert_eq!(
            element(header, "wsse:KeyIdentifier"),
            Some(client_ski.as_str()),
            "{variant}: the key is transported to the client's certificate"
        );
        assert!(header.contains("<wsse:BinarySecurityToken"), "{variant}");
        assert!(header.contains("<wsu:Timestamp"), "{variant}");
        let body = element(&reply, "e:Body").unwrap();
        assert!(
            body.starts_with("<xenc:EncryptedData")
                && body.contains(&format!("<xenc:EncryptionMethod Algorithm=\"{sym}\"")),
            "{variant}: {body}"
        );
        assert!(
            !reply.contains("scenario 3"),
            "{variant}: the text is not in clear"
        );
        // In the header, the later step comes first (WSS 1.1 §5: prepended).
        let (ek, signature) = (
            header.find("<xenc:EncryptedKey").unwrap(),
            header.find("<ds:Signature").unwrap(),
        );
        assert_eq!(ek < signature, sign_first, "{variant}: header order");

        // Encrypted then signed: the signature covers the encrypted Body, as sent.
        if !sign_first {
            xmlsec1_verify_with_cert(&reply, &pki.path("server.pem"))
                .unwrap_or_else(|e| panic!("{variant}: xmlsec1 refused the signature: {e}"));
            assert!(xmlsec1_verify_with_cert(&reply, &pki.path("client.pem")).is_err());
        }

        // xmlsec1 decrypts the Body with the client's key, and only with it.
        let plain = xmlsec1_decrypt(&reply, &pki.path("client.key"))
            .unwrap_or_else(|e| panic!("{variant}: xmlsec1 cannot decrypt: {e}\n{reply}"));
        assert!(
            xmlsec1_decrypt(&reply, &pki.path("server.key")).is_err(),
            "{variant}: decrypted with the wrong key"
        );
        let result = element(&plain, "r:EchoResult")
            .unwrap_or_else(|| panic!("{variant}: no EchoResult in {plain}"));
        // What the server reported about the request WSS4J built: decrypted, verified, fresh.
        let escaped = text
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        assert_eq!(
            element(result, "r:text"),
            Some(escaped.as_str()),
            "{variant}"
        );
        let actions = element(result, "r:actions").unwrap();
        for a in ["ENC", "SIGN", "BST", "TS"] {
            assert!(actions.split(',').any(|x| x == a), "{variant}: {actions}");
        }
        assert_eq!(element(result, "r:encrypted"), Some("Body"), "{variant}");
        assert_eq!(
            element(result, "r:signed"),
            Some("Body,Timestamp"),
            "{variant}"
        );
        assert!(
            element(result, "r:signer")
                .unwrap()
                .contains("CN=soapgen test client"),
            "{variant}"
        );

        // Signed then encrypted: the signature verifies once the Body is decrypted.
        if sign_first {
            xmlsec1_verify_with_cert(&plain, &pki.path("server.pem"))
                .unwrap_or_else(|e| panic!("{variant}: xmlsec1 refused the signature: {e}"));
            assert!(xmlsec1_verify_with_cert(&plain, &pki.path("client.pem")).is_err());
            let tampered = plain.replacen("<r:text>", "<r:text>x", 1);
            assert!(xmlsec1_verify_with_cert(&tampered, &pki.path("server.pem")).is_err());
        }
    }
}

#[test]
fn wss4j_as_client_processes_the_scenario3_replies() {
    let pki = test_pki();
    let peer = wss4j_scenario3_server(&[]);
    let client_keys = wss4j_keys("client", "ca.pem");
    // A sample (each --process is a JVM start): both orders, both key transports, CBC and GCM.
    let sample = VARIANTS.iter().filter(|v| {
        matches!(
            v.0,
            "aes128-cbc"
                | "3des?kt=rsa15"
                | "aes256-gcm?order=encrypt-sign&sig=rsa-sha256&kt=rsa15"
        )
    });
    for &(variant, _, _, _, sign_first) in sample {
        let reply = round_trip(pki, &peer, variant, "back");
        let v = peers::wss4j_process(
            Some("/scenario3/any"),
            &strs(&client_keys),
            reply.as_bytes(),
        )
        .unwrap_or_else(|e| panic!("{variant}: WSS4J refused the reply: {e}\n{reply}"));
        assert_eq!(v["text"], "back", "{variant}");
        assert_eq!(v["encrypted"], "Body", "{variant}");
        assert_eq!(v["signed"], "Body,Timestamp", "{variant}");
        assert!(v["signer"].contains("CN=soapgen test server"), "{variant}");
        let order: Vec<&str> = v["actions"].split(',').collect();
        let (enc, sig) = (
            order.iter().position(|a| *a == "ENC").unwrap(),
            order.iter().position(|a| *a == "SIGN").unwrap(),
        );
        assert_eq!(enc < sig, sign_first, "{variant}: {order:?}");

        // A client trusting another CA refuses the signature.
        let e = peers::wss4j_process(
            None,
            &strs(&wss4j_keys("client", "stranger.pem")),
            reply.as_bytes(),
        )
        .unwrap_err();
        assert!(!e.is_empty());
        // A party without the client's key cannot decrypt it.
        let e = peers::wss4j_process(
            None,
            &strs(&wss4j_keys("server", "ca.pem")),
            reply.as_bytes(),
        )
        .unwrap_err();
        assert!(!e.is_empty());
    }
}

#[test]
fn scenario3_requires_a_signed_and_encrypted_body() {
    let pki = test_pki();
    let peer = wss4j_scenario3_server(&["--user", "bob:pw"]);
    // A UsernameToken + Timestamp request: accepted on /echo, refused on /scenario3.
    let ut = peers::wss4j_make_request("ut-digest", &["--user", "bob:pw", "--text", "plain"]);
    let (status, reply) = post(&peer, "/echo", &ut);
    assert_eq!(status, 200, "{reply}");
    assert!(reply.contains("<r:actions>TS,UT</r:actions>"), "{reply}");
    let (status, reply) = post(&peer, "/scenario3/aes128-cbc", &ut);
    assert_eq!(status, 500, "{reply}");
    assert!(reply.contains("Body is not signed"), "{reply}");

    // Signed by zeep but not encrypted: verified, then refused.
    let (key, cert) = (pki.path("client.key"), pki.path("client.pem"));
    let signed = peers::zeep_wss_request(&[
        "--key",
        path_str(&key),
        "--cert",
        path_str(&cert),
        "--user",
        "bob",
        "--password",
        "pw",
        "--no-token",
    ]);
    let (status, reply) = post(&peer, "/echo", &signed);
    assert_eq!(status, 200, "{reply}");
    assert!(reply.contains("<r:signed>Body</r:signed>"), "{reply}");
    let (status, reply) = post(&peer, "/scenario3/aes128-cbc", &signed);
    assert_eq!(status, 500, "{reply}");
    assert!(reply.contains("Body is not encrypted"), "{reply}");

    // The same refusals from --process, which the benchmark uses.
    let ks = pki.path("server.p12");
    let keys = [
        "--keystore",
        path_str(&ks),
        "--storepass",
        "changeit",
        "--user",
        "bob:pw",
    ];
    let e = peers::wss4j_process(Some("/scenario3/aes128-cbc"), &keys, &ut).unwrap_err();
    assert!(e.contains("Body is not signed"), "{e}");
    let ok = peers::wss4j_process(None, &keys, &ut).unwrap();
    assert_eq!(ok["actions"], "TS,UT");
}

#[test]
fn ut_digest_reply_is_accepted_by_wss4j_with_the_right_password_only() {
    let pki = test_pki();
    let password = "s3cret & <ünï>";
    let user = format!("server-user:{password}");
    let peer = wss4j_scenario3_server(&["--reply-user", &user]);
    let request = wss4j_request(pki, "scenario3/aes128-cbc", "ut");
    let (status, reply) = post(&peer, "/ut-digest-reply", &request);
    assert_eq!(status, 200, "{reply}\n{}", peer.stderr_output());
    let token = element(&reply, "wsse:UsernameToken").unwrap();
    assert!(token.contains("#PasswordDigest\""), "{token}");
    assert!(!reply.contains("s3cret"), "{reply}");
    assert!(reply.contains("<wsu:Timestamp"), "{reply}");

    // The digest recomputes: Base64(SHA-1(nonce + created + password)) (UsernameToken Profile
    // 1.1 §3.1).
    let b64 = base64::engine::general_purpose::STANDARD;
    let nonce = b64.decode(element(token, "wsse:Nonce").unwrap()).unwrap();
    let created = element(token, "wsu:Created").unwrap();
    let mut input = nonce.clone();
    input.extend_from_slice(created.as_bytes());
    input.extend_from_slice(password.as_bytes());
    let digest = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA1_FOR_LEGACY_USE_ONLY, &input);
    assert_eq!(
        element(token, "wsse:Password").unwrap(),
        b64.encode(digest.as_ref())
    );
    assert_eq!(nonce.len(), 16);

    let good = peers::wss4j_process(None, &["--user", &user], reply.as_bytes()).unwrap();
    assert_eq!(good["actions"], "TS,UT");
    assert_eq!(good["user"], "server-user");
    assert_eq!(good["passwordType"], "PasswordDigest");
    assert_eq!(good["text"], "ut");
    let bad =
        peers::wss4j_process(None, &["--user", "server-user:wrong"], reply.as_bytes()).unwrap_err();
    assert!(bad.contains("authenticate"), "{bad}");
}
