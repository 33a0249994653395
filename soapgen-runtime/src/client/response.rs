//! Reading a call's response, once: MIME packaging unpacked (MTOM/XOP, SwA), each message
//! layer's inbound check, the envelope walked with its header blocks offered to the layers and
//! `mustUnderstand` enforced (SOAP 1.1 §4.2.3, SOAP 1.2 Part 1 §5.2.3), the Body's child handed
//! to the result's reader, a reply checked or a fault annotated by the layers, and HTTP statuses
//! and content that are not a SOAP response turned into typed errors (SOAP 1.1 §6.2, SOAP 1.2
//! Part 2 §7.5.1.2).

use super::exchange::Exchanged;
use super::Client;
use crate::envelope::{read_envelope, BodyContent};
use crate::error::{DecodeError, DecodeErrorKind, Error, Location, ValueError};
use crate::header::{
    HeaderError, HeaderErrorKind, ResponseHeader, SOAP11_ACTOR_NEXT, SOAP12_ROLE_NEXT,
    SOAP12_ROLE_ULTIMATE_RECEIVER,
};
use crate::message::{InboundBlock, Incoming, LayerCall, Operation, SoapVersion, Verdict};
use crate::mime::{parse_multipart_related, Attachments};
use crate::transport::HttpResponse;
use crate::types::AnyElement;
use crate::xml::{FromXml, Name, StartTag, XmlReader};

/// What reads a call's result: given the Body's child (the reader just after its start tag),
/// or `None` for a one-way operation's empty acknowledgement (WSDL 1.1 §2.4.1), and the
/// response's attachments.
pub(crate) type ResultReader<'d> = dyn for<'i> FnMut(
        Option<(&mut XmlReader<'i>, StartTag<'i>)>,
        &Attachments,
    ) -> Result<(), DecodeError>
    + 'd;

impl Client {
    /// Reads the response of `exchanged`, a call of `op`, handing the Body's child to `read`
    /// (with `kept`, the response's header blocks go there), and returns its attachments. Not
    /// generic: compiled once, whatever the result types of the operations.
    pub(crate) fn read_result(
        &self,
        op: &Operation,
        exchanged: &mut Exchanged,
        kept: Option<&mut Vec<ResponseHeader>>,
        read: &mut ResultReader<'_>,
    ) -> Result<Attachments, Error> {
        let spooled = exchanged.multipart.take();
        let resp = &exchanged.response;
        let layers = &mut exchanged.layers;
        let ok = (200..300).contains(&resp.status);
        if spooled.is_none() && is_blank(&resp.body) {
            if op.one_way && ok {
                let none = Attachments::default();
                read(None, &none).map_err(Error::from)?;
                return Ok(none);
            }
            let why = layers
                .iter()
                .find_map(|l| l.no_envelope(ok))
                .unwrap_or_else(|| "empty body where a SOAP envelope was expected".to_owned());
            return Err(http_error(resp, &why));
        }
        let settings = &self.inner.settings;
        let content_type = resp.content_type();
        // MTOM/XOP or SwA (RFC 2387): the envelope is the root part, the rest are attachments.
        let (xml, xml_type, attachments) = match (spooled, content_type) {
            // Read as it arrived, its large parts in files.
            (Some(m), _) => (m.root.body, m.root.content_type, m.attachments),
            (None, Some(ct)) if crate::mime::is_multipart_related(ct) => {
                match parse_multipart_related(ct, resp.body.clone(), settings.limits.max_mime_parts)
                {
                    Ok(m) => (m.root.body, m.root.content_type, m.attachments),
                    Err(e) if ok => return Err(Error::Mime(Box::new(e))),
                    Err(_) => return Err(http_error(resp, &excerpt(&resp.body))),
                }
            }
            (None, _) => (
                resp.body.clone(),
                content_type.map(str::to_owned),
                Attachments::default(),
            ),
        };
        if !looks_like_xml(xml_type.as_deref(), &xml) {
            return Err(http_error(resp, &excerpt(&xml)));
        }
        let charset = xml_type.as_deref().and_then(crate::xml::charset_of);
        let incoming = Incoming {
            body: &xml,
            attachments: Some(&attachments),
            http_charset: charset.as_deref(),
            limits: settings.limits,
            http_status: Some(resp.status),
            expected: Some(op.version),
        };
        // The layers' inbound checks, before anything is read: what one rewrote (a decrypted
        // Body) is what the next sees and what is read.
        let mut rewritten: Option<String> = None;
        let mut refused = None;
        for l in layers.iter_mut() {
            match l.inbound(&rewritten_or(incoming, &rewritten)) {
                Verdict::Accept => {}
                Verdict::Rewrite(d) => rewritten = Some(d),
                Verdict::Refuse(e) => {
                    refused = Some(e);
                    break;
                }
            }
        }
        let incoming = rewritten_or(incoming, &rewritten);
        let mut headers = Headers {
            understood: &settings.understood,
            layers,
            kept,
            not_understood: None,
        };
        let walked = read_envelope(
            &incoming,
            Some(&mut |r, start, version| headers.block(r, start, version)),
            &mut |r, start| match refused {
                // A refused response is read for a fault only.
                Some(_) => r.skip_element(),
                None => read(Some((r, start)), &attachments),
            },
        );
        let not_understood = headers.not_understood.take();
        match walked {
            Ok(content) if ok && refused.is_none() => {
                if let Some(kind) = not_understood {
                    return Err(Error::Header(Box::new(HeaderError { kind })));
                }
                for l in layers.iter_mut() {
                    l.reply()?;
                }
                match content {
                    BodyContent::Payload(()) => {}
                    BodyContent::Empty if op.one_way => read(None, &attachments)?,
                    BodyContent::Empty => {
                        return Err(Error::Decode(Box::new(DecodeError::new(
                            DecodeErrorKind::MissingElement(format!(
                                "response element of {}",
                                op.name
                            )),
                            Location {
                                path: "Body".to_owned(),
                                ..Default::default()
                            },
                        ))))
                    }
                }
                Ok(attachments)
            }
            Err(Error::Fault(mut f)) => {
                for l in layers.iter_mut() {
                    l.fault(&mut f)?;
                }
                Err(Error::Fault(f))
            }
            // A non-fault envelope the layers refused.
            Ok(_) if ok => Err(refused.unwrap_or_else(|| http_error(resp, ""))),
            // A non-fault envelope with an error status: why a layer could not read it (a fault
            // encrypted for a key the client lacks), else the HTTP error.
            Ok(_) => Err(refused.unwrap_or_else(|| http_error(resp, &excerpt(&resp.body)))),
            Err(e) if ok => Err(refused.unwrap_or(e)),
            // An error status whose body is not a readable envelope: the HTTP error is the news.
            Err(_) => Err(http_error(resp, &excerpt(&resp.body))),
        }
    }
}

/// What the client does with a response's header blocks, as the walk reads them: offers each
/// to the layers, keeps it (for [`Response::headers`](crate::header::Response::headers)), and
/// notes the first `mustUnderstand` block targeted at the client that no one processes (SOAP
/// 1.1 §4.2.3, SOAP 1.2 Part 1 §5.2.3).
struct Headers<'a> {
    /// Blocks the caller says it processes: (namespace, local name).
    understood: &'a [(String, String)],
    layers: &'a mut [Box<dyn LayerCall>],
    kept: Option<&'a mut Vec<ResponseHeader>>,
    not_understood: Option<HeaderErrorKind>,
}

impl Headers<'_> {
    /// Reads one header block, `start` just read, of an envelope of `version`, to its end.
    fn block<'i>(
        &mut self,
        r: &mut XmlReader<'i>,
        start: StartTag<'i>,
        version: SoapVersion,
    ) -> Result<(), DecodeError> {
        let env = version.envelope_namespace();
        let mu = match r.attribute(&start, Name::new(env, "mustUnderstand"))? {
            None => false,
            Some(v) => match v.trim() {
                "1" | "true" => true,
                "0" | "false" => false,
                other => {
                    let mut e = r.error_at(
                        DecodeErrorKind::InvalidValue(ValueError::new("boolean", other)),
                        start.offset(),
                    );
                    e.location.path.push_str("/@mustUnderstand");
                    return Err(e);
                }
            },
        };
        let role = r
            .attribute(&start, Name::new(env, version.role_attribute()))?
            .map(|v| v.trim().to_owned());
        let targeted = match (version, role.as_deref()) {
            (_, None) => true,
            (SoapVersion::Soap11, Some(a)) => a == SOAP11_ACTOR_NEXT,
            (SoapVersion::Soap12, Some(a)) => {
                a == SOAP12_ROLE_NEXT || a == SOAP12_ROLE_ULTIMATE_RECEIVER
            }
        };
        let namespace = String::from_utf8_lossy(r.namespace_of(&start)).into_owned();
        let local = start.local_name();
        let kept = match self.kept {
            Some(_) => Some(AnyElement::read_xml(r, start)?),
            None => None,
        };
        let mut understood = self
            .understood
            .iter()
            .any(|(n, l)| *n == namespace && l == local);
        let mut block = InboundBlock::new(r, &start, &namespace, version, kept.as_ref());
        for l in self.layers.iter_mut() {
            understood |= l.header_block(&mut block)?;
        }
        let consumed = block.consumed();
        if mu && targeted && !understood && self.not_understood.is_none() {
            self.not_understood = Some(HeaderErrorKind::MustUnderstand {
                namespace: namespace.clone(),
                local_name: local.to_owned(),
                role: role.clone(),
            });
        }
        match (kept, &mut self.kept) {
            (Some(element), Some(all)) => all.push(ResponseHeader {
                local_name: local.to_owned(),
                namespace,
                must_understand: mu,
                role,
                element,
            }),
            _ if consumed => {}
            _ => r.skip_element()?,
        }
        Ok(())
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

fn is_blank(body: &[u8]) -> bool {
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

/// The response as an [`Error::Http`]; a redirect (RFC 9110 §15.4) names where it leads, since
/// the transport did not follow it, and a `401` or `407` (RFC 9110 §11.6) the schemes offered.
fn http_error(resp: &HttpResponse, excerpt: &str) -> Error {
    let hint = match resp.status {
        401 => Some(challenge_hint(
            resp,
            "www-authenticate",
            "the service",
            "ClientBuilder::basic_auth or ReqwestTransportBuilder::auth",
        )),
        407 => Some(challenge_hint(
            resp,
            "proxy-authenticate",
            "the proxy",
            "Proxy::basic_auth or Proxy::auth",
        )),
        300..=399 => resp.header("location").map(|to| {
            format!(
                "redirected to {to}, not followed (a SOAP request is not sent again elsewhere by \
                 surprise): call that address, or let the transport follow 307 and 308 \
                 (ReqwestTransportBuilder::follow_redirects)"
            )
        }),
        _ => None,
    };
    let excerpt = match hint {
        Some(h) if excerpt.is_empty() => h,
        Some(h) => format!("{h}: {excerpt}"),
        None => excerpt.to_owned(),
    };
    Error::Http {
        status: resp.status,
        content_type: resp.content_type().map(str::to_owned),
        excerpt,
    }
}

/// What a `401` or `407` asks for: the schemes its challenge `field`s offer, and `how` to answer.
fn challenge_hint(resp: &HttpResponse, field: &str, who: &str, how: &str) -> String {
    let values: Vec<&str> = resp
        .headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case(field))
        .map(|(_, v)| v.as_str())
        .collect();
    #[cfg(feature = "reqwest")]
    let offered = crate::transport::auth::offered_schemes(&values);
    #[cfg(not(feature = "reqwest"))]
    let offered = values.join(", ");
    format!(
        "{who} asks for authentication and offers {offered}: the credentials were refused or \
         none were given ({how})"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::Incoming;

    /// Runs the header checks over `header` (the Header's content) in `version`: the first
    /// block not understood, and how many were kept.
    fn check(version: SoapVersion, header: &str) -> Result<(Option<String>, usize), Error> {
        let doc = format!(
            "<e:Envelope xmlns:e=\"{}\" xmlns:x=\"urn:x\"><e:Header>{header}</e:Header><e:Body/></e:Envelope>",
            version.envelope_namespace()
        );
        let mut kept = Vec::new();
        let mut h = Headers {
            understood: &[],
            layers: &mut [],
            kept: Some(&mut kept),
            not_understood: None,
        };
        read_envelope(
            &Incoming::new(doc.as_bytes(), Default::default()),
            Some(&mut |r, s, v| h.block(r, s, v)),
            &mut |r, _| r.skip_element(),
        )?;
        let flagged = match h.not_understood {
            Some(HeaderErrorKind::MustUnderstand { local_name, .. }) => Some(local_name),
            _ => None,
        };
        Ok((flagged, kept.len()))
    }

    #[test]
    fn must_understand_follows_the_actor_and_role_rules() {
        use SoapVersion::*;
        let cases = [
            (Soap11, r#"<x:A e:mustUnderstand="1"/>"#, Some("A")),
            (Soap11, r#"<x:A e:mustUnderstand="0"/>"#, None),
            (
                Soap11,
                r#"<x:A e:mustUnderstand="1" e:actor="http://schemas.xmlsoap.org/soap/actor/next"/>"#,
                Some("A"),
            ),
            (
                Soap11,
                r#"<x:A e:mustUnderstand="1" e:actor="urn:someone-else"/>"#,
                None,
            ),
            (Soap12, r#"<x:A e:mustUnderstand="true"/>"#, Some("A")),
            (
                Soap12,
                r#"<x:A e:mustUnderstand="false"/><x:B e:mustUnderstand="1"/>"#,
                Some("B"),
            ),
            (
                Soap12,
                r#"<x:A e:mustUnderstand="true" e:role="http://www.w3.org/2003/05/soap-envelope/role/none"/>"#,
                None,
            ),
            (
                Soap12,
                r#"<x:A e:mustUnderstand="true" e:role="http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver"/>"#,
                Some("A"),
            ),
            (
                Soap12,
                r#"<x:A e:mustUnderstand="true" e:role="http://www.w3.org/2003/05/soap-envelope/role/next"/>"#,
                Some("A"),
            ),
            // A mustUnderstand attribute of no namespace is not SOAP's.
            (Soap12, r#"<x:A mustUnderstand="true"/>"#, None),
        ];
        for (v, header, want) in cases {
            let (flagged, kept) = check(v, header).unwrap();
            assert_eq!(flagged.as_deref(), want, "{v} {header}");
            assert!(kept > 0, "{header}");
        }
        let e = check(Soap11, r#"<x:A e:mustUnderstand="yes"/>"#).unwrap_err();
        assert!(e.to_string().contains("yes"), "{e}");
        assert!(
            matches!(&e, Error::Decode(d) if d.location.path.ends_with("/@mustUnderstand")),
            "{e:?}"
        );
    }
}
