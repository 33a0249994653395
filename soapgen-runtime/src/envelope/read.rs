//! Reading a response envelope: one walk over the document (SOAP 1.1 §4, SOAP 1.2 Part 1 §5).

use super::{BodyContent, BodyReader};
use crate::error::{DecodeError, DecodeErrorKind, Error};
use crate::fault::Fault;
use crate::message::{Incoming, SoapVersion};
use crate::xml::{Name, StartTag, XmlReader};

/// What reads a response's header blocks: given the reader just after a block's start tag and
/// the envelope's version, it reads the block to its end.
pub(crate) type HeaderReader<'d> = dyn for<'i> FnMut(&mut XmlReader<'i>, StartTag<'i>, SoapVersion) -> Result<(), DecodeError>
    + 'd;

/// Reads a response envelope, once: the document decoded to UTF-8 (its `charset` or
/// declaration, RFC 7303 §3), multi-reference values inlined (SOAP 1.1 §5.4.1), the `Envelope`
/// checked (either SOAP version), each `Header` block handed to `headers` (`None`: skipped
/// unread), and the `Body`'s single child handed to `decode`, or the `Fault` it holds returned as
/// [`Error::Fault`]. The whole document must end after the `Envelope` (truncation is an error).
/// Not generic: every reader of a response, whatever its result type, is a shim over this one.
///
/// With `incoming.expected` (the request's version), an envelope of the other version is refused
/// with [`DecodeErrorKind::VersionMismatch`] unless its Body holds a fault, which is returned as
/// [`Error::Fault`] (SOAP 1.2 Part 1 §5.4.7).
///
/// # Errors
///
/// [`Error::Xml`] for malformed, refused or truncated XML; [`Error::Decode`] for a body that is
/// not the expected message (a wrong element, a missing Body); [`Error::Fault`] for a fault.
pub(crate) fn read_envelope(
    incoming: &Incoming<'_>,
    mut headers: Option<&mut HeaderReader<'_>>,
    decode: &mut BodyReader<'_>,
) -> Result<BodyContent<()>, Error> {
    let limits = incoming.limits;
    let document = crate::xml::to_utf8(incoming.body, incoming.http_charset)?;
    // rpc/encoded: multi-reference values (SOAP 1.1 §5.4.1) inlined first, when there are any.
    let text = std::str::from_utf8(&document).ok();
    let resolved = match text {
        Some(text) => crate::xml::multiref::resolve(text.trim_start_matches('\u{feff}'), limits)?,
        None => None,
    };
    // UTF-8 is checked once: the reader takes the text validated above (it skips a BOM itself);
    // only invalid bytes go through from_bytes, which locates them.
    let mut r = match (&resolved, text) {
        (Some(resolved), _) => XmlReader::with_limits(resolved, limits),
        (None, Some(text)) => XmlReader::with_limits(text, limits),
        (None, None) => XmlReader::from_bytes(&document, limits)?,
    };
    if let Some(a) = incoming.attachments {
        r.set_attachments(a);
    }
    r.set_path_skip(1);
    let root = r.root()?;
    let Some(version) = SoapVersion::from_envelope_namespace(r.namespace_of(&root)) else {
        return Err(r
            .error_at(
                DecodeErrorKind::NotAnEnvelope(format!(
                    "root element is {{{}}}{}",
                    r.namespace_str(&root),
                    root.local_name()
                )),
                root.offset(),
            )
            .into());
    };
    if root.local_name() != "Envelope" {
        return Err(r
            .error_at(
                DecodeErrorKind::NotAnEnvelope(format!("root element is {}", root.local_name())),
                root.offset(),
            )
            .into());
    }
    let env_ns = version.envelope_namespace();
    let mut result = None;
    let mut seen_body = false;
    while let Some(child) = r.next_child()? {
        if r.matches(&child, Name::new(env_ns, "Header")) && !seen_body {
            match headers.as_deref_mut() {
                Some(h) => {
                    while let Some(block) = r.next_child()? {
                        h(&mut r, block, version)?;
                    }
                }
                None => r.skip_element()?,
            }
        } else if r.matches(&child, Name::new(env_ns, "Body")) && !seen_body {
            seen_body = true;
            result = Some(match incoming.expected {
                Some(expected) if expected != version => {
                    let mismatch = |r: &mut XmlReader<'_>, start: StartTag<'_>| {
                        Err(r.error_at(
                            DecodeErrorKind::VersionMismatch {
                                expected,
                                found: version,
                            },
                            start.offset(),
                        ))
                    };
                    match read_body(&mut r, version, incoming.http_status, &mut |r, s| {
                        mismatch(r, s)
                    })? {
                        Err(fault) => Err(fault),
                        Ok(_) => {
                            return Err(r
                                .error_at(
                                    DecodeErrorKind::VersionMismatch {
                                        expected,
                                        found: version,
                                    },
                                    root.offset(),
                                )
                                .into())
                        }
                    }
                }
                _ => read_body(&mut r, version, incoming.http_status, decode)?,
            });
            break;
        } else {
            return Err(r.unexpected(&child).into());
        }
    }
    if !seen_body {
        return Err(r
            .error(DecodeErrorKind::MissingElement("Body".to_owned()))
            .into());
    }
    // After Body: SOAP 1.1 allows trailing elements in the envelope (§4.3); SOAP 1.2 does not.
    while let Some(child) = r.next_child()? {
        if version == SoapVersion::Soap12 {
            return Err(r.unexpected(&child).into());
        }
        r.skip_element()?;
    }
    r.finish()?;
    match result {
        Some(Ok(c)) => Ok(c),
        Some(Err(f)) => Err(Error::Fault(Box::new(f))),
        None => unreachable_body(),
    }
}

fn read_body(
    r: &mut XmlReader<'_>,
    version: SoapVersion,
    http_status: Option<u16>,
    decode: &mut BodyReader<'_>,
) -> Result<Result<BodyContent<()>, Fault>, DecodeError> {
    let Some(first) = r.next_child()? else {
        return Ok(Ok(BodyContent::Empty));
    };
    let out = if r.matches(&first, Name::new(version.envelope_namespace(), "Fault")) {
        let mut fault = Fault::read(r, first, version)?;
        fault.http_status = http_status;
        Err(fault)
    } else {
        decode(r, first)?;
        Ok(BodyContent::Payload(()))
    };
    if let Some(extra) = r.next_child()? {
        return Err(r.unexpected(&extra));
    }
    Ok(out)
}

fn unreachable_body() -> Result<BodyContent<()>, Error> {
    // `seen_body` implies `result` is set; kept as an error rather than a panic.
    Err(Error::Decode(Box::new(DecodeError::new(
        DecodeErrorKind::MissingElement("Body".to_owned()),
        Default::default(),
    ))))
}
