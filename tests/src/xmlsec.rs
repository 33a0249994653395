//! xmlsec1 1.2.37 (Debian's `xmlsec1`, OpenSSL back end) as a WS-Security peer: it encrypts and
//! signs SOAP envelopes for the inbound tests, and decrypts soapgen's encrypted requests.
//!
//! xmlsec1 knows XML Encryption and XML Signature, not the WS-Security layout (WSS 1.1 §9: an
//! `xenc:EncryptedKey` in the `wsse:Security` header pointing at the `xenc:EncryptedData` by a
//! ReferenceList). So:
//!
//! - [`xmlsec1_encrypt_body`] writes the plain XML-Enc form: the EncryptedKey inline in the
//!   EncryptedData's `ds:KeyInfo` (XML-Enc §3.5.1 allows both; WSS4J and WCF read both);
//! - [`xmlsec1_decrypt`] first rewrites a WS-Security message into that form
//!   ([`inline_encrypted_key`]): the header's EncryptedKey is moved into the EncryptedData's
//!   KeyInfo (replacing the SecurityTokenReference there), without its own KeyInfo (xmlsec1 takes
//!   the private key it was given) and ReferenceList. Nothing else changes, so a signature over
//!   the plaintext Body still verifies after decryption.
//!
//! [`xmlsec1_verify`] checks a signature with the Ids WS-Security messages use declared.
//!
//! Every function panics if xmlsec1 is missing ("apt-get install -y xmlsec1") or fails (with its
//! output).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::wss::path_str;

/// The install hint of the xmlsec1 peer.
pub const XMLSEC1_HINT: &str = "apt-get install -y xmlsec1";

const XENC: &str = "http://www.w3.org/2001/04/xmlenc#";
const DS: &str = "http://www.w3.org/2000/09/xmldsig#";
const WSSE: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
const WSU: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
const EXC_C14N: &str = "http://www.w3.org/2001/10/xml-exc-c14n#";
const SOAP11: &str = "http://schemas.xmlsoap.org/soap/envelope/";
const SOAP12: &str = "http://www.w3.org/2003/05/soap-envelope";

/// Elements whose `Id` / `wsu:Id` attribute xmlsec1 is told is an ID (`--id-attr:Id`), for the
/// `#id` References of [`xmlsec1_sign`] and [`xmlsec1_verify`]: the SOAP 1.1 and 1.2 `Body`,
/// `wsu:Timestamp`, `wsse:BinarySecurityToken`, `wsse:UsernameToken`, `xenc:EncryptedData`,
/// `xenc:EncryptedKey`, and the WS-Addressing request headers of both versions (`Action`,
/// `MessageID`, `ReplyTo`, `To`).
pub fn id_elements() -> Vec<String> {
    let wsa = [
        "http://www.w3.org/2005/08/addressing",
        "http://schemas.xmlsoap.org/ws/2004/08/addressing",
    ]
    .into_iter()
    .flat_map(|ns| ["Action", "MessageID", "ReplyTo", "To"].map(|l| format!("{ns}:{l}")));
    let mut ids = vec![
        format!("{SOAP11}:Body"),
        format!("{SOAP12}:Body"),
        format!("{WSU}:Timestamp"),
        format!("{WSSE}:BinarySecurityToken"),
        format!("{WSSE}:UsernameToken"),
        format!("{XENC}:EncryptedData"),
        format!("{XENC}:EncryptedKey"),
    ];
    ids.extend(wsa);
    ids
}

/// A fresh file path in the system temp directory for `what`.
fn scratch_path(what: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    std::env::temp_dir().join(format!(
        "soapgen-xmlsec1-{}-{}-{what}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Runs `xmlsec1 args…`; `Ok(stdout)` on success, `Err(status, stdout and stderr)` otherwise.
pub fn run_xmlsec1(args: &[&str]) -> Result<String, String> {
    run_xmlsec1_both(args).map(|(stdout, _)| stdout)
}

/// Runs `xmlsec1 args…`; `Ok((stdout, stderr))` on success, `Err(status, stdout and stderr)`
/// otherwise.
fn run_xmlsec1_both(args: &[&str]) -> Result<(String, String), String> {
    let out = Command::new("xmlsec1")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run xmlsec1 ({e}): {XMLSEC1_HINT}"));
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    if out.status.success() {
        Ok((stdout, stderr))
    } else {
        Err(format!(
            "xmlsec1 {args:?}: {}\n{stdout}{stderr}",
            out.status
        ))
    }
}

/// The xmlsec1 `--session-key` name of a block encryption algorithm URI (XML-Enc §5.2).
fn session_key(block_uri: &str) -> &'static str {
    match block_uri.rsplit('#').next().unwrap_or("") {
        "aes128-cbc" | "aes128-gcm" => "aes-128",
        "aes192-cbc" | "aes192-gcm" => "aes-192",
        "aes256-cbc" | "aes256-gcm" => "aes-256",
        "tripledes-cbc" => "des-192",
        other => panic!("no xmlsec1 session key for block algorithm {block_uri} ({other})"),
    }
}

/// Encrypts the content of `envelope`'s SOAP `Body` with xmlsec1 (`xmlsec1 --encrypt
/// --pubkey-cert-pem recipient --session-key … --xml-data envelope`, from a template): the Body
/// then holds one `xenc:EncryptedData` (`Type` = `xmlenc#Content`, `Id="ED-xmlsec1"`, the
/// `block_uri` EncryptionMethod) whose `ds:KeyInfo` holds an inline `xenc:EncryptedKey` (the
/// `key_transport_uri` EncryptionMethod, with a `ds:DigestMethod` SHA-1 child for
/// `rsa-oaep-mgf1p`; `ds:KeyInfo/ds:X509Data/ds:X509Certificate` with the recipient's
/// certificate). Returns the whole document as xmlsec1 writes it (an XML declaration, base64 in
/// 64-character lines).
///
/// `block_uri`: `xmlenc#aes{128,192,256}-cbc`, `xmlenc11#aes{128,256}-gcm`,
/// `xmlenc#tripledes-cbc`; `key_transport_uri`: `xmlenc#rsa-oaep-mgf1p` or `xmlenc#rsa-1_5`.
pub fn xmlsec1_encrypt_body(
    envelope: &str,
    recipient_pem: &Path,
    block_uri: &str,
    key_transport_uri: &str,
) -> String {
    let digest = if key_transport_uri.ends_with("#rsa-oaep-mgf1p") {
        format!("<ds:DigestMethod Algorithm=\"{DS}sha1\"/>")
    } else {
        String::new()
    };
    let template = format!(
        "<xenc:EncryptedData xmlns:xenc=\"{XENC}\" Id=\"ED-xmlsec1\" Type=\"{XENC}Content\">\
         <xenc:EncryptionMethod Algorithm=\"{block_uri}\"/>\
         <ds:KeyInfo xmlns:ds=\"{DS}\"><xenc:EncryptedKey>\
         <xenc:EncryptionMethod Algorithm=\"{key_transport_uri}\">{digest}</xenc:EncryptionMethod>\
         <ds:KeyInfo><ds:X509Data><ds:X509Certificate/></ds:X509Data></ds:KeyInfo>\
         <xenc:CipherData><xenc:CipherValue/></xenc:CipherData></xenc:EncryptedKey></ds:KeyInfo>\
         <xenc:CipherData><xenc:CipherValue/></xenc:CipherData></xenc:EncryptedData>"
    );
    let tmpl = scratch_path("enc-template.xml");
    let data = scratch_path("enc-data.xml");
    std::fs::write(&tmpl, template).unwrap();
    std::fs::write(&data, envelope).unwrap();
    let out = run_xmlsec1(&[
        "--encrypt",
        "--pubkey-cert-pem",
        path_str(recipient_pem),
        "--session-key",
        session_key(block_uri),
        "--xml-data",
        path_str(&data),
        "--node-xpath",
        "/*[local-name()='Envelope']/*[local-name()='Body']",
        path_str(&tmpl),
    ]);
    let _ = std::fs::remove_file(&tmpl);
    let _ = std::fs::remove_file(&data);
    out.unwrap_or_else(|e| panic!("xmlsec1 could not encrypt: {e}"))
}

/// Signs `envelope` with xmlsec1 (`xmlsec1 --sign --privkey-pem key,cert` on a template): a
/// `ds:Signature` appended to the `wsse:Security` header block (one is added first in the SOAP
/// `Header`, without `mustUnderstand`, when there is none; a `Header` too), with exclusive C14N
/// (`xml-exc-c14n#`) as CanonicalizationMethod and as each Reference's Transform, `sig_uri` as
/// SignatureMethod (e.g. `http://www.w3.org/2001/04/xmldsig-more#rsa-sha256`), one Reference
/// `URI="#id"` per `ids` (each an `Id` or `wsu:Id` of one of [`id_elements`]) with `digest_uri`
/// as DigestMethod, and `ds:KeyInfo/ds:X509Data/ds:X509Certificate` holding `cert_pem`'s
/// certificate. Returns the signed document as xmlsec1 writes it.
pub fn xmlsec1_sign(
    envelope: &str,
    key_pem: &Path,
    cert_pem: &Path,
    sig_uri: &str,
    digest_uri: &str,
    ids: &[&str],
) -> String {
    xmlsec1_sign_with_key_info(
        envelope,
        key_pem,
        cert_pem,
        sig_uri,
        digest_uri,
        ids,
        "<ds:X509Data><ds:X509Certificate/></ds:X509Data>",
    )
}

/// [`xmlsec1_sign`] with `key_info_template` as the content of the `ds:KeyInfo` template (the
/// `ds` prefix is bound), which xmlsec1 fills as it does for its own templates: e.g.
/// `<ds:X509Data><ds:X509IssuerSerial/><ds:X509Certificate/></ds:X509Data>`, the template zeep's
/// `Signature` gives libxmlsec1.
pub fn xmlsec1_sign_with_key_info(
    envelope: &str,
    key_pem: &Path,
    cert_pem: &Path,
    sig_uri: &str,
    digest_uri: &str,
    ids: &[&str],
    key_info_template: &str,
) -> String {
    xmlsec1_sign_with(
        envelope,
        key_pem,
        cert_pem,
        &[sig_uri, digest_uri, EXC_C14N],
        ids,
        key_info_template,
    )
}

/// [`xmlsec1_sign`] with `c14n_uri` as CanonicalizationMethod and as each Reference's Transform
/// (e.g. Canonical XML 1.0 `http://www.w3.org/TR/2001/REC-xml-c14n-20010315` or 1.1
/// `http://www.w3.org/2006/12/xml-c14n11`).
pub fn xmlsec1_sign_c14n(
    envelope: &str,
    key_pem: &Path,
    cert_pem: &Path,
    sig_uri: &str,
    digest_uri: &str,
    c14n_uri: &str,
    ids: &[&str],
) -> String {
    xmlsec1_sign_with(
        envelope,
        key_pem,
        cert_pem,
        &[sig_uri, digest_uri, c14n_uri],
        ids,
        "<ds:X509Data><ds:X509Certificate/></ds:X509Data>",
    )
}

/// The template signing of the functions above; `algorithms` = [SignatureMethod, DigestMethod,
/// canonicalization].
fn xmlsec1_sign_with(
    envelope: &str,
    key_pem: &Path,
    cert_pem: &Path,
    algorithms: &[&str; 3],
    ids: &[&str],
    key_info_template: &str,
) -> String {
    let [sig_uri, digest_uri, c14n_uri] = *algorithms;
    let mut references = String::new();
    for id in ids {
        references.push_str(&format!(
            "<ds:Reference URI=\"#{id}\"><ds:Transforms><ds:Transform Algorithm=\"{c14n_uri}\"/>\
             </ds:Transforms><ds:DigestMethod Algorithm=\"{digest_uri}\"/><ds:DigestValue/>\
             </ds:Reference>"
        ));
    }
    let signature = format!(
        "<ds:Signature xmlns:ds=\"{DS}\" Id=\"SIG-xmlsec1\"><ds:SignedInfo>\
         <ds:CanonicalizationMethod Algorithm=\"{c14n_uri}\"/>\
         <ds:SignatureMethod Algorithm=\"{sig_uri}\"/>{references}</ds:SignedInfo>\
         <ds:SignatureValue/><ds:KeyInfo>{key_info_template}</ds:KeyInfo></ds:Signature>"
    );
    let template = insert_into_security(envelope, &signature);
    let file = scratch_path("sign.xml");
    std::fs::write(&file, template).unwrap();
    let key = format!("{},{}", path_str(key_pem), path_str(cert_pem));
    let mut args = vec!["--sign", "--privkey-pem", key.as_str()];
    let id_elements = id_elements();
    for e in &id_elements {
        args.extend(["--id-attr:Id", e.as_str()]);
    }
    args.push(path_str(&file));
    let out = run_xmlsec1(&args);
    let _ = std::fs::remove_file(&file);
    out.unwrap_or_else(|e| panic!("xmlsec1 could not sign: {e}"))
}

/// Runs `xmlsec1 --verify` on `document` with `key_args` (e.g. `["--trusted-pem", ca]` or
/// `["--pubkey-cert-pem", cert]`), the Ids of [`id_elements`] declared (so the SOAP 1.1 and 1.2
/// Body and the Timestamp are found by their `wsu:Id`); `Ok(stdout and stderr)` when the (first)
/// signature verifies (exit status 0 and xmlsec1's `OK`), `Err(xmlsec1's output)` otherwise.
pub fn xmlsec1_verify(document: &str, key_args: &[&str]) -> Result<String, String> {
    let file = scratch_path("verify.xml");
    std::fs::write(&file, document).unwrap();
    let mut args = vec!["--verify"];
    args.extend_from_slice(key_args);
    let id_elements = id_elements();
    for e in &id_elements {
        args.extend(["--id-attr:Id", e.as_str()]);
    }
    args.push(path_str(&file));
    let out = run_xmlsec1_both(&args);
    let _ = std::fs::remove_file(&file);
    match out {
        Ok((stdout, stderr)) if stderr.contains("OK") => Ok(format!("{stdout}{stderr}")),
        Ok((stdout, stderr)) => Err(format!("xmlsec1 {args:?}: no OK\n{stdout}{stderr}")),
        Err(e) => Err(e),
    }
}

/// [`xmlsec1_verify`] with the certificate file `cert_pem` as the only key
/// (`--pubkey-cert-pem`).
pub fn xmlsec1_verify_with_cert(document: &str, cert_pem: &Path) -> Result<String, String> {
    xmlsec1_verify(document, &["--pubkey-cert-pem", path_str(cert_pem)])
}

/// Decrypts the (first) `xenc:EncryptedData` of `document` with `xmlsec1 --decrypt
/// --privkey-pem key_pem`, after [`inline_encrypted_key`] when the EncryptedKey is in the
/// Security header; `Ok(the decrypted document)`, or `Err(xmlsec1's output)`.
pub fn xmlsec1_decrypt(document: &str, key_pem: &Path) -> Result<String, String> {
    let document = inline_encrypted_key(document);
    let file = scratch_path("decrypt.xml");
    std::fs::write(&file, &document).unwrap();
    let out = run_xmlsec1(&[
        "--decrypt",
        "--privkey-pem",
        path_str(key_pem),
        path_str(&file),
    ]);
    let _ = std::fs::remove_file(&file);
    out
}

/// Rewrites a WS-Security message (WSS 1.1 §9: `xenc:EncryptedKey` in the Security header with a
/// ReferenceList, `xenc:EncryptedData` in the Body with a KeyInfo referring to the key) into plain
/// XML-Enc form for xmlsec1: the EncryptedKey is removed from the header and put, without its
/// `ds:KeyInfo` and `xenc:ReferenceList` and with the `xenc` namespace declared on it, as the
/// only child of the EncryptedData's `ds:KeyInfo` (one is added when the EncryptedData has none).
/// A document without an EncryptedKey outside an EncryptedData is returned unchanged.
///
/// Text-level, for the documents soapgen and xmlsec1 write: elements found by their qualified
/// names with the prefixes used in the document (`xenc:`, `ds:` or any other).
pub fn inline_encrypted_key(document: &str) -> String {
    let Some(ek) = find_element(document, "EncryptedKey", 0) else {
        return document.to_owned();
    };
    let Some(ed) = find_element(document, "EncryptedData", 0) else {
        return document.to_owned();
    };
    if ek.start > ed.start && ek.end < ed.end {
        return document.to_owned(); // already inline
    }
    let mut key = document[ek.start..ek.end].to_owned();
    for child in ["KeyInfo", "ReferenceList"] {
        if let Some(c) = find_element(&key, child, 0) {
            key.replace_range(c.start..c.end, "");
        }
    }
    // The start tag of the key keeps its attributes; make sure xenc's namespace is declared.
    let key_prefix = ek.prefix.clone();
    if !key[..key.find('>').unwrap()].contains("xmlns") {
        let at =
            1 + key_prefix.len() + if key_prefix.is_empty() { 0 } else { 1 } + "EncryptedKey".len();
        let decl = if key_prefix.is_empty() {
            format!(" xmlns=\"{XENC}\"")
        } else {
            format!(" xmlns:{key_prefix}=\"{XENC}\"")
        };
        key.insert_str(at, &decl);
    }
    // Build the new EncryptedData: its KeyInfo replaced by one holding the key.
    let mut data = document[ed.start..ed.end].to_owned();
    let key_info = format!("<dsx:KeyInfo xmlns:dsx=\"{DS}\">{key}</dsx:KeyInfo>");
    match find_element(&data, "KeyInfo", 0) {
        Some(ki) => data.replace_range(ki.start..ki.end, &key_info),
        None => {
            // After EncryptionMethod (XML-Enc §3.1's order), else first.
            let at = match find_element(&data, "EncryptionMethod", 0) {
                Some(m) => m.end,
                None => data.find('>').unwrap() + 1,
            };
            data.insert_str(at, &key_info);
        }
    }
    // Replace the later one first so the earlier offsets stay valid.
    let mut out = document.to_owned();
    if ek.start > ed.start {
        out.replace_range(ek.start..ek.end, "");
        out.replace_range(ed.start..ed.end, &data);
    } else {
        out.replace_range(ed.start..ed.end, &data);
        out.replace_range(ek.start..ek.end, "");
    }
    out
}

/// An element found in a document by its local name: byte range of the whole element and its
/// prefix.
#[derive(Debug)]
struct Found {
    start: usize,
    end: usize,
    prefix: String,
}

/// The first element with local name `local` at or after `from` (start tag `<p:local` or
/// `<local`), with its extent (to its matching end tag, or its `/>`); nested elements of the same
/// name are counted.
fn find_element(doc: &str, local: &str, from: usize) -> Option<Found> {
    let bytes = doc.as_bytes();
    let mut i = from;
    while let Some(off) = doc[i..].find('<') {
        let start = i + off;
        let name_end = start
            + 1
            + doc[start + 1..].find(|c: char| c.is_whitespace() || c == '>' || c == '/')?;
        let qname = &doc[start + 1..name_end];
        let (prefix, name) = match qname.split_once(':') {
            Some((p, n)) => (p, n),
            None => ("", qname),
        };
        if name == local
            && !qname.starts_with('/')
            && !qname.starts_with('?')
            && !qname.starts_with('!')
        {
            let tag_end = start + doc[start..].find('>')?;
            if bytes[tag_end - 1] == b'/' {
                return Some(Found {
                    start,
                    end: tag_end + 1,
                    prefix: prefix.to_owned(),
                });
            }
            // Walk to the matching end tag.
            let open = format!("<{qname}");
            let close = format!("</{qname}>");
            let mut depth = 1;
            let mut j = tag_end + 1;
            loop {
                let next_close = j + doc[j..].find(&close)?;
                let next_open = doc[j..].find(&open).map(|o| j + o).filter(|&o| {
                    o < next_close
                        && matches!(
                            bytes.get(o + open.len()),
                            Some(b' ' | b'>' | b'/' | b'\t' | b'\n' | b'\r')
                        )
                });
                match next_open {
                    Some(o) => {
                        let e = o + doc[o..].find('>')?;
                        if bytes[e - 1] != b'/' {
                            depth += 1;
                        }
                        j = e + 1;
                    }
                    None => {
                        depth -= 1;
                        j = next_close + close.len();
                        if depth == 0 {
                            return Some(Found {
                                start,
                                end: j,
                                prefix: prefix.to_owned(),
                            });
                        }
                    }
                }
            }
        }
        i = name_end;
    }
    None
}

/// Inserts `fragment` as the last child of the `Security` header block of `envelope`, making
/// that block (and the `Header`) when missing.
fn insert_into_security(envelope: &str, fragment: &str) -> String {
    let mut out = envelope.to_owned();
    if let Some(sec) = find_element(envelope, "Security", 0) {
        let inner_end = if envelope[..sec.end].ends_with("/>") {
            // <wsse:Security .../>: open it.
            let tag = &envelope[sec.start..sec.end - 2];
            let close = if sec.prefix.is_empty() {
                "</Security>".to_owned()
            } else {
                format!("</{}:Security>", sec.prefix)
            };
            out.replace_range(sec.start..sec.end, &format!("{tag}>{fragment}{close}"));
            return out;
        } else {
            envelope[..sec.end].rfind("</").unwrap()
        };
        out.insert_str(inner_end, fragment);
        return out;
    }
    let security = format!("<wsse:Security xmlns:wsse=\"{WSSE}\">{fragment}</wsse:Security>");
    let root = find_element(envelope, "Envelope", 0).expect("a SOAP Envelope");
    if let Some(h) = find_element(envelope, "Header", root.start) {
        if envelope[..h.end].ends_with("/>") {
            let tag = &envelope[h.start..h.end - 2];
            out.replace_range(
                h.start..h.end,
                &format!("{tag}>{security}</{}:Header>", h.prefix),
            );
        } else {
            let after = h.start + envelope[h.start..].find('>').unwrap() + 1;
            out.insert_str(after, &security);
        }
        return out;
    }
    let after = root.start + envelope[root.start..].find('>').unwrap() + 1;
    let header = format!("<{p}:Header>{security}</{p}:Header>", p = root.prefix);
    out.insert_str(after, &header);
    out
}
