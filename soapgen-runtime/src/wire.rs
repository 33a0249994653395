//! Wire logging: every request and response envelope as a `tracing` event at level `TRACE` and
//! target [`TARGET`] (`soapgen::wire`), with secrets redacted and size bounded.
//!
//! Enable exactly these events with a filter such as `RUST_LOG=soapgen::wire=trace` (with
//! `tracing_subscriber::EnvFilter`). Their parent is the `soap_call` span (operation, endpoint,
//! SOAP version, HTTP status; target `soapgen_runtime::client`, level `DEBUG`), shown when that is
//! enabled too. Nothing is formatted unless a subscriber wants the events.
//!
//! Redacted ([`redact`]): the content of every element whose local name, with any prefix or
//! namespace, is one of [`SECRET_ELEMENTS`] — WS-Security 1.0/1.1 `Password`, `Nonce` and
//! `BinarySecurityToken` (UsernameToken Profile §3–4, X.509 Token Profile §3), XML-Enc
//! `CipherValue` (§3.3), XML-DSig `SignatureValue` (§4.2) and WS-Trust `BinarySecret` (§3.3).
//! Element names and attributes stay, so the shape of the message remains readable. An
//! application element named `Password` is redacted as well: better too much than too little.
//!
//! At most [`MAX_LOGGED_BYTES`] (64 KiB) of each envelope are logged, followed by a note of the
//! total size: an MTOM or base64 payload may be megabytes.

use std::borrow::Cow;
use std::fmt;

/// The tracing target of the envelope events.
pub const TARGET: &str = "soapgen::wire";

/// The longest part of an envelope that is logged, in bytes.
pub const MAX_LOGGED_BYTES: usize = 64 * 1024;

/// What replaces a secret.
pub const REDACTED: &str = "***redacted***";

/// Local names of the elements whose content is replaced by [`REDACTED`].
pub const SECRET_ELEMENTS: &[&str] = &[
    "Password",
    "Nonce",
    "BinarySecurityToken",
    "CipherValue",
    "SignatureValue",
    "BinarySecret",
];

/// An envelope (or any HTTP body) prepared for logging: displays as at most
/// [`MAX_LOGGED_BYTES`] of it, as UTF-8 (invalid bytes replaced), with secrets [redacted](redact),
/// followed by `… [N bytes in total, first M logged]` when cut. The work is done only when it is
/// displayed.
#[derive(Debug, Clone, Copy)]
pub struct Envelope<'a>(&'a [u8]);

/// `body` prepared for logging (see [`Envelope`]).
///
/// # Examples
///
/// ```
/// let body = b"<wsse:Password>hunter2</wsse:Password>";
/// assert_eq!(
///     soapgen_runtime::wire::envelope(body).to_string(),
///     "<wsse:Password>***redacted***</wsse:Password>"
/// );
/// ```
pub fn envelope(body: &[u8]) -> Envelope<'_> {
    Envelope(body)
}

impl fmt::Display for Envelope<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = &self.0[..self.0.len().min(MAX_LOGGED_BYTES)];
        let text = String::from_utf8_lossy(shown);
        f.write_str(&redact(&text))?;
        if shown.len() < self.0.len() {
            write!(
                f,
                "… [{} bytes in total, first {} logged]",
                self.0.len(),
                shown.len()
            )?;
        }
        Ok(())
    }
}

/// `xml` with the content of every [secret element](SECRET_ELEMENTS) replaced by [`REDACTED`].
///
/// The text is scanned, not parsed, so it works on truncated or malformed XML too: the content of a
/// secret element runs to its end tag (`</` and the same qualified name), or to the end of the text
/// if there is none. Self-closing secret elements are left alone. Borrows `xml` when nothing is
/// redacted.
///
/// # Examples
///
/// ```
/// use soapgen_runtime::wire::redact;
/// let xml = r#"<o:Nonce EncodingType="…#Base64Binary">cGFzc3dvcmQ=</o:Nonce><u:Created>2024</u:Created>"#;
/// assert_eq!(
///     redact(xml),
///     r#"<o:Nonce EncodingType="…#Base64Binary">***redacted***</o:Nonce><u:Created>2024</u:Created>"#
/// );
/// ```
pub fn redact(xml: &str) -> Cow<'_, str> {
    let mut out: Option<String> = None;
    let bytes = xml.as_bytes();
    // Everything before `copied` is in `out` (when it exists).
    let mut copied = 0;
    let mut i = 0;
    while let Some(off) = memchr(b'<', &bytes[i..]) {
        let open = i + off;
        let name_start = open + 1;
        let name_end = bytes[name_start..]
            .iter()
            .position(|&b| !is_name_byte(b))
            .map_or(bytes.len(), |p| name_start + p);
        let qname = &xml[name_start..name_end];
        let local = qname.rsplit(':').next().unwrap_or(qname);
        if qname.is_empty() || !SECRET_ELEMENTS.contains(&local) {
            i = name_start;
            continue;
        }
        // The end of the start tag: the first `>` outside quoted attribute values.
        let Some(tag_end) = start_tag_end(bytes, name_end) else {
            break; // a start tag cut off: no content to hide
        };
        if bytes[tag_end - 1] == b'/' {
            i = tag_end + 1;
            continue; // <Password/>
        }
        let content_start = tag_end + 1;
        let content_end = find_end_tag(xml, content_start, qname).unwrap_or(xml.len());
        if content_end > content_start {
            let o = out.get_or_insert_with(|| String::with_capacity(xml.len()));
            o.push_str(&xml[copied..content_start]);
            o.push_str(REDACTED);
            copied = content_end;
        }
        i = content_end.max(content_start);
        if i >= bytes.len() {
            break;
        }
    }
    match out {
        None => Cow::Borrowed(xml),
        Some(mut o) => {
            o.push_str(&xml[copied..]);
            Cow::Owned(o)
        }
    }
}

/// Bytes of an XML name (with a prefix): ASCII name characters and any non-ASCII byte.
fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b':' | b'_' | b'-' | b'.') || b >= 0x80
}

/// The index of the `>` closing the start tag whose name ends at `from`.
fn start_tag_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut quote = None;
    for (j, &b) in bytes.iter().enumerate().skip(from) {
        match (quote, b) {
            (None, b'"' | b'\'') => quote = Some(b),
            (Some(q), c) if c == q => quote = None,
            (None, b'>') => return Some(j),
            _ => {}
        }
    }
    None
}

/// The index of the `<` of `</qname>` (whitespace allowed before `>`) at or after `from`; CDATA
/// sections are skipped, so a secret cannot end its element early by containing the end tag.
fn find_end_tag(xml: &str, from: usize, qname: &str) -> Option<usize> {
    let mut i = from;
    while let Some(off) = xml[i..].find('<') {
        let at = i + off;
        let rest = &xml[at..];
        if rest.starts_with("<![CDATA[") {
            i = at + rest.find("]]>")? + 3;
            continue;
        }
        if let Some(after) = rest.strip_prefix("</").and_then(|r| r.strip_prefix(qname)) {
            let after = after.trim_start_matches([' ', '\t', '\r', '\n']);
            if after.is_empty() || after.starts_with('>') {
                return Some(at);
            }
        }
        i = at + 1;
    }
    None
}

fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&b| b == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A WS-Security header as WSS4J writes it: UsernameToken with a digest password and nonce,
    /// a BinarySecurityToken, a signature, an encrypted body.
    const SECURED: &str = r#"<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
<soapenv:Header>
<wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd" soapenv:mustUnderstand="1">
<wsse:BinarySecurityToken EncodingType="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary" ValueType="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3" wsu:Id="X509-1">MIIBszCCAV2gAwIBAgIJAKey</wsse:BinarySecurityToken>
<wsse:UsernameToken wsu:Id="UsernameToken-2">
<wsse:Username>alice</wsse:Username>
<wsse:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest">s3cr3tDigest=</wsse:Password>
<wsse:Nonce EncodingType="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary">bm9uY2U=</wsse:Nonce>
<wsu:Created>2024-01-01T00:00:00Z</wsu:Created>
</wsse:UsernameToken>
<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo><ds:DigestValue>ZGlnZXN0</ds:DigestValue></ds:SignedInfo>
<ds:SignatureValue>
c2lnbmF0dXJl
c2lnbmF0dXJl
</ds:SignatureValue></ds:Signature>
<xenc:EncryptedKey xmlns:xenc="http://www.w3.org/2001/04/xmlenc#"><xenc:CipherData><xenc:CipherValue>a2V5</xenc:CipherValue></xenc:CipherData></xenc:EncryptedKey>
</wsse:Security>
</soapenv:Header>
<soapenv:Body><xenc:EncryptedData><xenc:CipherData><xenc:CipherValue>Ym9keQ==</xenc:CipherValue></xenc:CipherData></xenc:EncryptedData></soapenv:Body>
</soapenv:Envelope>"#;

    #[test]
    fn secrets_are_redacted_and_the_rest_kept() {
        let r = redact(SECURED);
        for secret in [
            "MIIBszCCAV2gAwIBAgIJAKey",
            "s3cr3tDigest=",
            "bm9uY2U=",
            "c2lnbmF0dXJl",
            "a2V5",
            "Ym9keQ==",
        ] {
            assert!(!r.contains(secret), "{secret} leaked:\n{r}");
        }
        assert_eq!(r.matches(REDACTED).count(), 6, "{r}");
        // Names, attributes and other content stay.
        for kept in [
            "<wsse:Username>alice</wsse:Username>",
            "<wsu:Created>2024-01-01T00:00:00Z</wsu:Created>",
            "<ds:DigestValue>ZGlnZXN0</ds:DigestValue>",
            "#PasswordDigest\">***redacted***</wsse:Password>",
            "<ds:SignatureValue>***redacted***</ds:SignatureValue>",
            "<xenc:CipherValue>***redacted***</xenc:CipherValue>",
            "wsu:Id=\"X509-1\">***redacted***</wsse:BinarySecurityToken>",
        ] {
            assert!(r.contains(kept), "{kept} missing:\n{r}");
        }
    }

    #[test]
    fn any_prefix_or_none_and_any_namespace() {
        for (xml, want) in [
            (
                "<Password>x</Password>",
                "<Password>***redacted***</Password>",
            ),
            (
                "<o:Password>x</o:Password>",
                "<o:Password>***redacted***</o:Password>",
            ),
            (
                "<tns:Password>x</tns:Password >",
                "<tns:Password>***redacted***</tns:Password >",
            ),
            (
                "<Nonce\n  a='>'>x</Nonce>",
                "<Nonce\n  a='>'>***redacted***</Nonce>",
            ),
            (
                "<t:BinarySecret>k</t:BinarySecret>",
                "<t:BinarySecret>***redacted***</t:BinarySecret>",
            ),
            (
                "<p:Password><![CDATA[a</p:Password>bcd]]></p:Password><b/>",
                "<p:Password>***redacted***</p:Password><b/>",
            ),
        ] {
            assert_eq!(redact(xml), want, "{xml}");
        }
    }

    #[test]
    fn look_alikes_and_empty_elements_are_left_alone() {
        for xml in [
            "<PasswordHint>x</PasswordHint>",
            "<NewPassword>x</NewPassword>",
            "<Password/>",
            "<Password />",
            "<Password></Password>",
            "<a>Password</a>",
            "plain text < Password",
            "",
            "<",
            "</Password>",
        ] {
            assert_eq!(redact(xml), xml, "{xml}");
            assert!(matches!(redact(xml), Cow::Borrowed(_)), "{xml}");
        }
    }

    #[test]
    fn truncated_secrets_are_redacted_to_the_end() {
        assert_eq!(
            redact("<a><wsse:Password>hunter2 and more"),
            "<a><wsse:Password>***redacted***"
        );
        // Mismatched end tag: everything after the start tag.
        assert_eq!(
            redact("<x:Password>p</y:Password>"),
            "<x:Password>***redacted***"
        );
        // A start tag cut off has no content to hide.
        assert_eq!(redact("<wsse:Password Type=\"x"), "<wsse:Password Type=\"x");
    }

    #[test]
    fn non_ascii_is_kept_intact() {
        assert_eq!(
            redact("<é><Password>мой пароль</Password>ü</é>"),
            "<é><Password>***redacted***</Password>ü</é>"
        );
    }

    #[test]
    fn long_envelopes_are_cut_with_a_note_of_their_size() {
        let mut body = b"<Password>p</Password>".to_vec();
        body.extend(std::iter::repeat_n(b'A', 10 * MAX_LOGGED_BYTES));
        let shown = envelope(&body).to_string();
        assert!(shown.starts_with("<Password>***redacted***</Password>AAAA"));
        assert!(
            shown.ends_with(&format!(
                "… [{} bytes in total, first {MAX_LOGGED_BYTES} logged]",
                body.len()
            )),
            "{}",
            &shown[shown.len() - 80..]
        );
        assert!(shown.len() < MAX_LOGGED_BYTES + 100);
        // A secret cut by the limit is still hidden.
        let mut cut = vec![b'A'; MAX_LOGGED_BYTES - 12];
        cut.extend_from_slice(b"<Password>secret-that-straddles</Password>");
        let shown = envelope(&cut).to_string();
        assert!(!shown.contains("secr"), "{}", &shown[shown.len() - 80..]);
        // Short bodies are shown whole, invalid UTF-8 replaced.
        assert_eq!(envelope(b"<a>\xff</a>").to_string(), "<a>\u{fffd}</a>");
    }
}
