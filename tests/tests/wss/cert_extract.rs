//! `soapgen cert extract` on messages signed by soapgen (a BinarySecurityToken) and by xmlsec1
//! (a `ds:X509Certificate` in `ds:KeyInfo`), its description checked against what openssl says
//! of the same certificates, and a malformed certificate among good ones.

use std::path::{Path, PathBuf};
use std::time::Duration;

use base64::Engine as _;
use soapgen_cli::cert::extract;
use soapgen_cli::main_with_args;
use soapgen_runtime::wss::{WssConfig, X509Signer};
use soapgen_runtime::SoapVersion;
use soapgen_tests::pki::{openssl, test_pki};
use soapgen_tests::wss::{credential, path_str, request};
use soapgen_tests::xmlsec::run_xmlsec1;

fn openssl_text(dir: &Path, args: &[&str]) -> String {
    String::from_utf8(openssl(dir, args))
        .unwrap()
        .trim()
        .to_owned()
}

/// A fresh output directory under the test PKI's.
fn out_dir(name: &str) -> PathBuf {
    let d = test_pki().dir().join(name);
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The lines `extract` must print for the certificate in `pem` (a file of the test PKI), each
/// value taken from openssl.
fn expected_description(pem: &str) -> Vec<String> {
    let dir = test_pki().dir();
    let field = |args: &[&str], prefix: &str| {
        let mut all = vec!["x509", "-in", pem, "-noout"];
        all.extend_from_slice(args);
        openssl_text(dir, &all)
            .strip_prefix(prefix)
            .unwrap_or_else(|| panic!("{args:?}"))
            .to_owned()
    };
    let subject = field(&["-subject", "-nameopt", "RFC2253"], "subject=");
    let issuer = field(&["-issuer", "-nameopt", "RFC2253"], "issuer=");
    let serial_hex = field(&["-serial"], "serial=").to_lowercase();
    let serial_dec = u128::from_str_radix(&serial_hex, 16).unwrap();
    let ski = openssl_text(
        dir,
        &["x509", "-in", pem, "-noout", "-ext", "subjectKeyIdentifier"],
    );
    let ski = ski
        .lines()
        .last()
        .unwrap()
        .trim()
        .replace(':', "")
        .to_lowercase();
    let sha1 = field(&["-fingerprint", "-sha1"], "sha1 Fingerprint=")
        .to_owned()
        .replace(':', "");
    let sha1: Vec<u8> = (0..sha1.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&sha1[i..i + 2], 16).unwrap())
        .collect();
    let iso = |args: &[&str], prefix: &str| {
        let mut all = vec!["-dateopt", "iso_8601"];
        all.extend_from_slice(args);
        field(&all, prefix).replace(' ', "T")
    };
    let not_before = iso(&["-startdate"], "notBefore=");
    let not_after = iso(&["-enddate"], "notAfter=");
    let bits = openssl_text(dir, &["x509", "-in", pem, "-noout", "-text"]);
    assert!(bits.contains("Public-Key: (2048 bit)"), "{bits}");
    vec![
        format!("  subject:     {subject}"),
        format!("  issuer:      {issuer}"),
        format!("  serial:      {serial_dec} (0x{serial_hex})"),
        format!("  SKI:         {ski}"),
        format!(
            "  SHA-1:       {} (ThumbprintSHA1)",
            base64::engine::general_purpose::STANDARD.encode(sha1)
        ),
        format!("  validity:    {not_before} to {not_after}"),
        "  key:         RSA 2048 bits".to_owned(),
    ]
}

fn der_of(pem: &str) -> Vec<u8> {
    openssl(test_pki().dir(), &["x509", "-in", pem, "-outform", "DER"])
}

fn check_report(report: &str, expected: &[String]) {
    for line in expected {
        assert!(
            report.lines().any(|l| l == line),
            "missing {line:?} in:\n{report}"
        );
    }
}

#[test]
fn a_message_signed_by_soapgen() {
    let pki = test_pki();
    let wss = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .sign(X509Signer::new(credential("client")));
    // The token under another prefix than soapgen's own, as other stacks write it.
    let xml = request(wss, SoapVersion::Soap12, "x")
        .replace("wsse:", "o:")
        .replace("xmlns:wsse=", "xmlns:o=");
    let id_at = xml.find("wsu:Id=\"X509-").unwrap() + "wsu:Id=\"".len();
    let id = &xml[id_at..id_at + xml[id_at..].find('"').unwrap()];
    let message = pki.dir().join("soapgen-signed.xml");
    std::fs::write(&message, &xml).unwrap();
    let out = out_dir("extract-soapgen");
    let x = extract(&message, &out).unwrap();
    assert_eq!(x.failed, 0, "{}", x.report);
    assert_eq!(x.files, vec![out.join(format!("{id}.cer"))], "{}", x.report);
    assert_eq!(std::fs::read(&x.files[0]).unwrap(), der_of("client.pem"));
    assert!(
        x.report.starts_with(&format!(
            "token 1: wsse:BinarySecurityToken Id={id:?} (line 1)\n"
        )),
        "{}",
        x.report
    );
    check_report(&x.report, &expected_description("client.pem"));
    assert!(
        x.report.contains("serial:      4242 (0x1092)"),
        "{}",
        x.report
    );
    // Through the command line: exit status 0.
    let args = [
        "soapgen",
        "cert",
        "extract",
        message.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    assert_eq!(main_with_args(args.map(Into::into)), 0);
}

#[test]
fn a_message_signed_by_xmlsec1() {
    let pki = test_pki();
    let dir = pki.dir();
    // An enveloped signature whose KeyInfo xmlsec1 fills with the signer's certificate
    // (ds:X509Data/ds:X509Certificate, default namespace, no Id).
    let template = r#"<?xml version="1.0"?>
<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header><sec:Security xmlns:sec="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"><Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo><CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/><SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/><Reference URI=""><Transforms><Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/></Transforms><DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><DigestValue/></Reference></SignedInfo><SignatureValue/><KeyInfo><X509Data><X509Certificate/></X509Data></KeyInfo></Signature></sec:Security></s:Header><s:Body><x>1</x></s:Body></s:Envelope>
"#;
    std::fs::write(dir.join("xmlsec1-template.xml"), template).unwrap();
    let key = format!(
        "{},{}",
        path_str(&pki.path("server.key")),
        path_str(&pki.path("server.pem"))
    );
    run_xmlsec1(&[
        "--sign",
        "--privkey-pem",
        &key,
        "--output",
        path_str(&dir.join("xmlsec1-signed.xml")),
        path_str(&dir.join("xmlsec1-template.xml")),
    ])
    .unwrap_or_else(|e| panic!("xmlsec1 could not sign: {e}"));
    let signed = std::fs::read_to_string(dir.join("xmlsec1-signed.xml")).unwrap();
    assert!(!signed.contains("<X509Certificate/>"), "{signed}");
    let target = out_dir("extract-xmlsec1");
    let x = extract(&dir.join("xmlsec1-signed.xml"), &target).unwrap();
    assert_eq!(x.failed, 0, "{}", x.report);
    assert_eq!(x.files, vec![target.join("1.cer")]);
    assert_eq!(std::fs::read(&x.files[0]).unwrap(), der_of("server.pem"));
    assert!(
        x.report.starts_with("token 1: ds:X509Certificate (line "),
        "{}",
        x.report
    );
    check_report(&x.report, &expected_description("server.pem"));
}

#[test]
fn a_malformed_certificate_is_reported_and_the_others_still_printed() {
    let pki = test_pki();
    let dir = pki.dir();
    // A certificate with an empty SubjectKeyIdentifier: openssl writes a one-byte one, emptied
    // in place (04 01 00 -> 04 00 + a stray byte).
    std::fs::write(
        dir.join("extract-empty-ski.ext"),
        "2.5.29.14=DER:04:01:00\n",
    )
    .unwrap();
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "client.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-set_serial",
            "9",
            "-days",
            "1",
            "-extfile",
            "extract-empty-ski.ext",
            "-outform",
            "DER",
            "-out",
            "extract-empty-ski.der",
        ],
    );
    let mut bad = pki.read("extract-empty-ski.der");
    let ext = [0x06, 0x03, 0x55, 0x1d, 0x0e, 0x04, 0x03, 0x04, 0x01, 0x00];
    let at = bad.windows(ext.len()).position(|w| w == ext).unwrap();
    bad[at + 8] = 0x00;
    let b64 = |der: &[u8]| base64::engine::general_purpose::STANDARD.encode(der);
    let bst = |id: &str, der: &[u8]| {
        format!(
            "<wsse:BinarySecurityToken wsu:Id=\"{id}\" EncodingType=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary\" ValueType=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3\">{}</wsse:BinarySecurityToken>",
            b64(der)
        )
    };
    let xml = format!(
        "<e:Envelope xmlns:e=\"http://schemas.xmlsoap.org/soap/envelope/\" \
         xmlns:wsse=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd\" \
         xmlns:wsu=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd\">\n\
         <e:Header><wsse:Security>\n{}\n{}\n{}\n\
         <wsse:BinarySecurityToken ValueType=\"urn:other#Kerberos\">AAAA</wsse:BinarySecurityToken>\n\
         </wsse:Security></e:Header><e:Body/></e:Envelope>",
        bst("good", &der_of("client.pem")),
        bst("bad", &bad),
        bst("not-base64", b"").replace("></", ">*$!</"),
    );
    let message = dir.join("extract-bad.xml");
    std::fs::write(&message, xml).unwrap();
    let out = out_dir("extract-bad");
    let x = extract(&message, &out).unwrap();
    assert_eq!(x.failed, 2, "{}", x.report);
    // The good one is described; the bad one's error names it and the extension.
    check_report(&x.report, &expected_description("client.pem"));
    let bad_part =
        &x.report[x.report.find("token 2:").unwrap()..x.report.find("token 3:").unwrap()];
    assert!(
        bad_part.starts_with("token 2: wsse:BinarySecurityToken Id=\"bad\" (line 4)"),
        "{bad_part}"
    );
    assert!(
        bad_part.contains("error: ")
            && bad_part.contains("bad")
            && bad_part.contains("SubjectKeyIdentifier")
            && bad_part.contains("2.5.29.14"),
        "{bad_part}"
    );
    // Its DER is written all the same, for other tools; the non-base64 one is not.
    assert_eq!(std::fs::read(out.join("bad.cer")).unwrap(), bad);
    assert!(x
        .report
        .contains("token 3: wsse:BinarySecurityToken Id=\"not-base64\""));
    assert!(
        x.report[x.report.find("token 3:").unwrap()..].contains("error: its content is not base64")
    );
    assert!(!out.join("not-base64.cer").exists());
    assert!(
        !x.report.contains("token 4"),
        "the Kerberos token is not a certificate"
    );
    // The command exits with 1.
    let args = [
        "soapgen",
        "cert",
        "extract",
        message.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    assert_eq!(main_with_args(args.map(Into::into)), 1);
    // A message without certificates, and one that is not XML, are errors.
    std::fs::write(dir.join("extract-none.xml"), "<a/>").unwrap();
    let e = extract(&dir.join("extract-none.xml"), &out).unwrap_err();
    assert!(e.contains("no X.509 certificate"), "{e}");
    std::fs::write(dir.join("extract-notxml.xml"), "<a>").unwrap();
    let e = extract(&dir.join("extract-notxml.xml"), &out).unwrap_err();
    assert!(e.contains("not well-formed XML"), "{e}");
}
