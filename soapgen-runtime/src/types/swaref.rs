//! The WS-I `swaRef` type (WS-I Attachments Profile 1.0 §4.4): an attachment of a SOAP Messages
//! with Attachments message referenced from the envelope by a `cid:` URL.

use std::ops::Deref;

use bytes::Bytes;

use super::{collapse, FromXmlText, PrefixResolver, ToXmlText};
use crate::error::{DecodeError, EncodeError, ValueError};
use crate::mime::Attachment;
use crate::xml::{StartTag, TextOut, XmlReader};

/// The namespace of the `swaRef` type: `http://ws-i.org/profiles/basic/1.1/xsd` (WS-I Attachments
/// Profile 1.0 §4.4, schema `http://ws-i.org/profiles/basic/1.1/swaref.xsd`).
pub const SWAREF_NS: &str = "http://ws-i.org/profiles/basic/1.1/xsd";

/// `{http://ws-i.org/profiles/basic/1.1/xsd}swaRef` (WS-I Attachments Profile 1.0 §4.4): in the
/// XML a `cid:` URL (RFC 2392) naming a MIME part of the same multipart/related message (SwA 1.0);
/// here the bytes of that part and its media type.
///
/// - Read: the element's text must be a `cid:` URL; it resolves to the part whose Content-ID it
///   names (percent-decoded, angle brackets ignored) and the value is that part's body, shared with
///   the response (not copied), and its Content-Type. A URL that names no part, or text that is
///   not a `cid:` URL, is a decode error at the element.
/// - Write: the bytes always travel as an attachment (whatever the client's MTOM setting): a part
///   with Content-Type `content_type` (`application/octet-stream` when `None`) and a fresh unique
///   Content-ID, and the element holds `cid:` + that Content-ID. The request is then sent as
///   `multipart/related` (SwA, with the envelope as a `text/xml` root for SOAP 1.1).
///
/// # Examples
///
/// ```
/// use soapgen_runtime::envelope::EnvelopeWriter;
/// use soapgen_runtime::mime::Packaging;
/// use soapgen_runtime::SoapVersion;
/// use soapgen_runtime::types::SwaRef;
/// use soapgen_runtime::xml::Name;
/// use soapgen_runtime::ToXml;
/// let photo = SwaRef::new("image/png", vec![0x89, b'P', b'N', b'G']);
/// let mut env = EnvelopeWriter::new(SoapVersion::Soap11, &[])?;
/// env.body(|w| photo.write_xml(w, Name::new("urn:photos", "photo")))?;
/// let message = env.finish_message()?;
/// assert_eq!(message.packaging, Packaging::SwA);
/// let part = &message.attachments[0];
/// assert_eq!(part.content_type, "image/png");
/// assert!(message.envelope.contains(&format!(">cid:{}<", part.content_id)));
/// # Ok::<(), soapgen_runtime::EncodeError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct SwaRef {
    /// The attachment's media type (RFC 2045 §5): as received, or what to send
    /// (`application/octet-stream` when `None`).
    pub content_type: Option<String>,
    /// The attachment's bytes.
    pub data: Bytes,
}

impl SwaRef {
    /// A `swaRef` to an attachment of `data` with the media type `content_type`.
    pub fn new(content_type: impl Into<String>, data: impl Into<Bytes>) -> Self {
        SwaRef {
            content_type: Some(content_type.into()),
            data: data.into(),
        }
    }

    /// The bytes.
    pub fn into_bytes(self) -> Bytes {
        self.data
    }
}

impl Deref for SwaRef {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.data
    }
}

impl AsRef<[u8]> for SwaRef {
    fn as_ref(&self) -> &[u8] {
        &self.data
    }
}

impl From<Bytes> for SwaRef {
    fn from(data: Bytes) -> Self {
        SwaRef {
            content_type: None,
            data,
        }
    }
}

impl From<Vec<u8>> for SwaRef {
    fn from(data: Vec<u8>) -> Self {
        Bytes::from(data).into()
    }
}

impl From<&[u8]> for SwaRef {
    fn from(data: &[u8]) -> Self {
        Bytes::copy_from_slice(data).into()
    }
}

impl From<Attachment> for SwaRef {
    fn from(a: Attachment) -> Self {
        SwaRef {
            content_type: a.content_type,
            data: a.data,
        }
    }
}

impl From<SwaRef> for Attachment {
    fn from(r: SwaRef) -> Self {
        Attachment {
            content_type: r.content_type,
            data: r.data,
        }
    }
}

impl From<SwaRef> for Bytes {
    fn from(r: SwaRef) -> Self {
        r.data
    }
}

/// Writes `cid:…` and records the bytes as an attachment of the message being written.
impl ToXmlText for SwaRef {
    fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError> {
        let url = out.swa_attachment(self.content_type.as_deref().unwrap_or(""), &self.data);
        out.push_str(&url)
    }
}

/// Resolves the `cid:` URL to the attachment it names.
impl FromXmlText for SwaRef {
    /// For `swaRef` attribute values and list items: resolved through
    /// [`PrefixResolver::attachment`] (the reader's attachments).
    fn from_xml_text(text: &str, ns: &dyn PrefixResolver) -> Result<Self, ValueError> {
        let reference = collapse(text);
        if !reference
            .get(..4)
            .is_some_and(|s| s.eq_ignore_ascii_case("cid:"))
        {
            return Err(ValueError::new("swaRef", reference)
                .because("a swaRef is a cid: URL naming an attachment (WS-I AP 1.0 §4.4)"));
        }
        ns.attachment(reference).map(SwaRef::from).ok_or_else(|| {
            ValueError::new("swaRef", reference).because("it names no attachment of the message")
        })
    }

    /// Reads the element's `cid:` URL and resolves it to the part of the message it names, with
    /// errors located at the element ([`DecodeErrorKind::Attachment`](crate::error::DecodeErrorKind::Attachment)
    /// for a URL that names no part).
    fn read_element_content<'i>(
        r: &mut XmlReader<'i>,
        start: &StartTag<'i>,
    ) -> Result<Self, DecodeError> {
        r.read_swaref(start).map(SwaRef::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::envelope::{read_response_with_attachments, BodyContent, EnvelopeWriter};
    use crate::error::DecodeErrorKind;
    use crate::message::{RequestMessage, SoapVersion};
    use crate::mime::Packaging;
    use crate::mime::{parse_multipart_related, write_swa};
    use crate::xml::{FromXml, Limits, Name, ToXml};
    use crate::Error;

    fn request(values: &[SwaRef]) -> RequestMessage {
        let mut env = EnvelopeWriter::new(SoapVersion::Soap11, &[("p", "urn:p")]).unwrap();
        env.body(|w| {
            w.start_element(Name::new("urn:p", "Upload"))?;
            for v in values {
                v.write_xml(w, Name::new("urn:p", "photo"))?;
            }
            w.end_element()
        })
        .unwrap();
        env.finish_message().unwrap()
    }

    #[test]
    fn written_as_cid_and_attachment_and_read_back() {
        let values = [
            SwaRef::new("image/png", vec![1u8, 2, 3]),
            SwaRef::from(Vec::new()),
            SwaRef::from(&b"\r\n--x"[..]),
        ];
        let m = request(&values);
        assert_eq!(m.packaging, Packaging::SwA);
        assert_eq!(m.attachments.len(), 3);
        assert_eq!(m.attachments[0].content_type, "image/png");
        assert_eq!(m.attachments[1].content_type, "application/octet-stream");
        assert_ne!(m.attachments[0].content_id, m.attachments[1].content_id);
        // The whole message as a server would receive it, read back as a response.
        let (ct, body) = write_swa(&m, "text/xml; charset=utf-8");
        assert!(
            ct.starts_with("multipart/related; type=\"text/xml\""),
            "{ct}"
        );
        let parsed = parse_multipart_related(&ct, body, 10).unwrap();
        assert_eq!(
            parsed.root.content_type.as_deref(),
            Some("text/xml; charset=utf-8")
        );
        let read = read_response_with_attachments(
            &parsed.root.body,
            Some(&parsed.attachments),
            None,
            Limits::default(),
            Some(200),
            |r, _| {
                let mut out = Vec::new();
                while let Some(child) = r.next_child()? {
                    out.push(SwaRef::read_xml(r, child)?);
                }
                Ok(out)
            },
        )
        .unwrap();
        let BodyContent::Payload(read) = read else {
            panic!("no payload")
        };
        assert_eq!(read.len(), 3);
        assert_eq!(read[0], values[0]);
        assert_eq!(&read[1][..], b"");
        assert_eq!(
            read[1].content_type.as_deref(),
            Some("application/octet-stream")
        );
        assert_eq!(&read[2][..], b"\r\n--x");
    }

    fn read_one(
        xml: &str,
        attachments: Option<&crate::mime::Attachments>,
    ) -> Result<SwaRef, Error> {
        let doc = format!(
            "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>\
             <p:Up xmlns:p=\"urn:p\">\n{xml}</p:Up></s:Body></s:Envelope>"
        );
        match read_response_with_attachments(
            doc.as_bytes(),
            attachments,
            None,
            Limits::default(),
            Some(200),
            |r, _| {
                let child = r
                    .next_child()?
                    .ok_or_else(|| r.missing(Name::new("urn:p", "photo")))?;
                let v = SwaRef::read_xml(r, child)?;
                while r.next_child()?.is_some() {}
                Ok(v)
            },
        )? {
            BodyContent::Payload(v) => Ok(v),
            BodyContent::Empty => panic!("empty"),
        }
    }

    #[test]
    fn bad_references_are_errors_at_the_element() {
        let body = "--b\r\nContent-ID: <root>\r\n\r\n<E/>\r\n--b\r\nContent-ID: <a%20b@x>\r\n\
                    Content-Type: image/gif\r\n\r\nGIF\r\n--b--\r\n";
        let m = parse_multipart_related("multipart/related; boundary=b", Bytes::from(body), 10)
            .unwrap();
        let ok = read_one("<p:photo> cid:a%2520b@x </p:photo>", Some(&m.attachments)).unwrap();
        assert_eq!(&ok[..], b"GIF");
        assert_eq!(ok.content_type.as_deref(), Some("image/gif"));
        let Err(Error::Decode(e)) = read_one("<p:photo>cid:nope@x</p:photo>", Some(&m.attachments))
        else {
            panic!("expected a decode error")
        };
        assert!(matches!(e.kind, DecodeErrorKind::Attachment(_)), "{e}");
        assert_eq!(e.location.path, "Body/Up/photo");
        assert_eq!(e.location.line, 2);
        assert!(e.to_string().contains("<a%20b@x>"), "{e}");
        let Err(Error::Decode(e)) = read_one("<p:photo>cid:a@x</p:photo>", None) else {
            panic!("expected a decode error")
        };
        assert!(e.to_string().contains("not a multipart/related"), "{e}");
        let Err(Error::Decode(e)) = read_one(
            "<p:photo>http://example.com/a</p:photo>",
            Some(&m.attachments),
        ) else {
            panic!("expected a decode error")
        };
        assert!(matches!(e.kind, DecodeErrorKind::InvalidValue(_)), "{e}");
        assert_eq!(e.location.path, "Body/Up/photo");
        // From an attribute value: through PrefixResolver::attachment.
        assert!(SwaRef::from_xml_text("cid:x", &crate::types::NoNamespaces)
            .unwrap_err()
            .to_string()
            .contains("names no attachment"));
    }
}
