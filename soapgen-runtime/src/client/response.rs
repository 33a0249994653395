//! Reading a call's response: MIME packaging unpacked (MTOM/XOP, SwA), the inbound WS-Security
//! policy applied, the envelope walked and its header blocks checked (SOAP 1.1 §4.2.3, SOAP 1.2
//! Part 1 §5.2.3), the Body's child handed to the generated decoder, and the HTTP status and
//! content that are not a SOAP response turned into typed errors (SOAP 1.1 §6.2, SOAP 1.2 Part 2
//! §7.5.1.2).

use super::*;
use crate::fault::FaultSecurity;
use crate::layer::Sent;

impl Client {
    pub(super) fn decode_envelope<T>(
        &self,
        op: &Operation,
        resp: &HttpResponse,
        sent: Sent<'_>,
        decode: impl for<'i> FnOnce(&mut XmlReader<'i>, StartTag<'i>) -> Result<T, DecodeError>,
    ) -> Result<(BodyContent<T>, Attachments), Error> {
        crate::envelope::decode_once(decode, |body| {
            self.decode_response(resp, Some(op.version), sent, None, body)
        })
    }

    /// Reads the response to a call: multipart/related unpacked (MTOM/XOP, SwA), the WS-Security
    /// inbound policy applied to a 2xx response, the envelope walked, the Body's child handed to
    /// `decode`. Not generic: compiled once, whatever the result types of the operations.
    ///
    /// The header blocks are checked (`mustUnderstand`, SOAP 1.1 §4.2.3 and SOAP 1.2 Part 1
    /// §5.2.3; the reply's `wsa:RelatesTo` against `request`'s MessageID) and, with `kept`,
    /// kept there. `sent` is what the request carried (its addressing and SignatureValues), which
    /// the message layers check the reply against.
    pub(crate) fn decode_response(
        &self,
        resp: &HttpResponse,
        expected: Option<SoapVersion>,
        sent: Sent<'_>,
        kept: Option<&mut Vec<crate::header::ResponseHeader>>,
        decode: &mut BodyReader<'_>,
    ) -> Result<(BodyContent<()>, Attachments), Error> {
        let status = resp.status;
        let content_type = resp.content_type();
        let ok = (200..300).contains(&status);
        let headers = &self.inner.settings.soap_headers;
        let layers = self.inner.settings.layers();
        if is_blank(&resp.body) {
            let why = layers
                .iter()
                .find_map(|l| l.no_envelope(sent, headers, ok))
                .unwrap_or_else(|| "empty body where a SOAP envelope was expected".to_owned());
            return Err(http_error(resp, &why));
        }
        // MTOM/XOP or SwA (RFC 2387): the envelope is the root part, the rest are attachments.
        let multipart = match content_type {
            Some(ct) if crate::mime::is_multipart_related(ct) => {
                match parse_multipart_related(
                    ct,
                    resp.body.clone(),
                    self.inner.settings.limits.max_mime_parts,
                ) {
                    Ok(m) => Some(m),
                    Err(e) if ok => return Err(Error::Mime(Box::new(e))),
                    Err(_) => return Err(http_error(resp, &excerpt(&resp.body))),
                }
            }
            _ => None,
        };
        let (xml, attachments) = match &multipart {
            Some(m) => (&m.root.body, Some(&m.attachments)),
            None => (&resp.body, None),
        };
        let xml_type = match &multipart {
            Some(m) => m.root.content_type.as_deref(),
            None => content_type,
        };
        if !looks_like_xml(xml_type, xml) {
            return Err(http_error(resp, &excerpt(xml)));
        }
        let charset = xml_type.and_then(crate::xml::charset_of);
        let incoming = Incoming {
            body: xml,
            attachments,
            http_charset: charset.as_deref(),
            limits: self.inner.settings.limits,
            http_status: Some(status),
            expected,
        };
        // The message layers (WS-Security's inbound policy), before anything is read from the
        // response: what one rewrote (a decrypted Body) is what the next sees and what is read.
        let mut rewritten: Option<String> = None;
        let mut fault_security = FaultSecurity::default();
        for l in layers.iter() {
            let done = l.inbound(rewritten_or(incoming, &rewritten), sent, ok)?;
            if done.rewritten.is_some() {
                rewritten = done.rewritten;
            }
            if done.fault_security != FaultSecurity::NotChecked {
                fault_security = done.fault_security;
            }
        }
        let incoming = rewritten_or(incoming, &rewritten);
        let mut check = crate::header::HeaderCheck {
            understood: &headers.understood,
            sent,
            layers,
            keep: kept.is_some(),
            ..Default::default()
        };
        let read = read_envelope_with_headers(incoming, Some(&mut check), decode);
        if let Some(kept) = kept {
            *kept = std::mem::take(&mut check.kept);
        }
        match read {
            Ok(v) if ok => {
                if let Some(kind) = check.not_understood {
                    return Err(Error::Header(Box::new(crate::header::HeaderError { kind })));
                }
                for l in layers.iter() {
                    l.reply(sent, &check, headers)?;
                }
                Ok((v, multipart.map(|m| m.attachments).unwrap_or_default()))
            }
            // A non-fault envelope with an error status: report the HTTP error.
            Ok(_) => Err(http_error(resp, &excerpt(&resp.body))),
            Err(Error::Fault(mut f)) => {
                f.security = fault_security;
                f.action = check.action;
                Err(Error::Fault(f))
            }
            Err(e) if ok => Err(e),
            // An error status whose body is not a readable envelope: the HTTP error is the news.
            Err(_) => Err(http_error(resp, &excerpt(&resp.body))),
        }
    }
}

/// `incoming`, or the document a layer rewrote it to (UTF-8).
fn rewritten_or<'a>(incoming: Incoming<'a>, rewritten: &'a Option<String>) -> Incoming<'a> {
    match rewritten {
        Some(d) => Incoming {
            body: d.as_bytes(),
            http_charset: None,
            ..incoming
        },
        None => incoming,
    }
}

pub(super) fn is_blank(body: &[u8]) -> bool {
    body.iter().all(|b| b.is_ascii_whitespace())
}

/// Whether a body should be parsed as XML: an XML-ish content type, or none and a `<` first.
fn looks_like_xml(content_type: Option<&str>, body: &[u8]) -> bool {
    let first = body.iter().find(|b| !b.is_ascii_whitespace()).copied();
    let ct = content_type.map(|c| c.trim().to_ascii_lowercase());
    match ct.as_deref() {
        Some(c) if c.starts_with("text/html") || c.starts_with("application/xhtml") => false,
        Some(c) if c.starts_with("text/plain") || c.starts_with("application/json") => false,
        // `<`, or a byte order mark (UTF-8, UTF-16), or UTF-16BE without one.
        _ => matches!(first, Some(b'<' | 0xEF | 0xFE | 0xFF | 0)),
    }
}

fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(2048)]);
    let mut out: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if out.chars().count() > 512 {
        out = out.chars().take(512).collect();
        out.push('…');
    }
    out
}

fn http_error(resp: &HttpResponse, excerpt: &str) -> Error {
    Error::Http {
        status: resp.status,
        content_type: resp.content_type().map(str::to_owned),
        excerpt: excerpt.to_owned(),
    }
}
