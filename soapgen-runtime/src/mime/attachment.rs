//! Attachments as values: the bytes of a part and its media type ([`Attachment`]), a part to
//! send ([`OutgoingAttachment`]), and how a request's parts are packaged ([`Packaging`]).

use bytes::Bytes;

use super::Part;

/// The bytes of one MIME attachment and its media type: a message part bound to `mime:content` in a
/// WSDL 1.1 §5 MIME binding (SOAP Messages with Attachments 1.0, WS-I Attachments Profile 1.0 §3),
/// as a generated client's parameter or result.
///
/// Whatever type the WSDL gives the part (`xsd:base64Binary`, `xsd:string`, an element), the
/// attachment travels as raw bytes in its own MIME part, so it is bytes here: `data` is shared
/// ([`Bytes`]), never copied by the runtime.
///
/// `content_type` on a request: the part's Content-Type; `None` sends the first type the WSDL's
/// `mime:content` declares (a wildcard such as `image/*` becomes `application/octet-stream`). On a
/// response: the part's Content-Type header as received, if it had one.
///
/// # Examples
///
/// ```
/// use soapgen_runtime::mime::Attachment;
/// let photo = Attachment::new("image/jpeg", vec![0xFF, 0xD8, 0xFF]);
/// assert_eq!(photo.content_type.as_deref(), Some("image/jpeg"));
/// assert_eq!(&photo[..], &[0xFF, 0xD8, 0xFF]);
/// let raw = Attachment::from(b"plain bytes".to_vec()); // content type from the WSDL
/// assert!(raw.content_type.is_none());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Attachment {
    /// The MIME media type (RFC 2045 §5), e.g. `image/jpeg`; see the type's docs for `None`.
    pub content_type: Option<String>,
    /// The bytes.
    pub data: Bytes,
}

impl Attachment {
    /// An attachment of `data` with the media type `content_type`.
    pub fn new(content_type: impl Into<String>, data: impl Into<Bytes>) -> Self {
        Attachment {
            content_type: Some(content_type.into()),
            data: data.into(),
        }
    }

    /// The bytes.
    pub fn into_bytes(self) -> Bytes {
        self.data
    }

    /// The attachment a received part holds: its body and Content-Type (shared, not copied).
    pub fn from_part(part: &Part) -> Self {
        Attachment {
            content_type: part.content_type.clone(),
            data: part.body.clone(),
        }
    }
}

impl std::ops::Deref for Attachment {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.data
    }
}

impl AsRef<[u8]> for Attachment {
    fn as_ref(&self) -> &[u8] {
        &self.data
    }
}

impl From<Bytes> for Attachment {
    fn from(data: Bytes) -> Self {
        Attachment {
            content_type: None,
            data,
        }
    }
}

impl From<Vec<u8>> for Attachment {
    fn from(data: Vec<u8>) -> Self {
        Bytes::from(data).into()
    }
}

impl From<&[u8]> for Attachment {
    fn from(data: &[u8]) -> Self {
        Bytes::copy_from_slice(data).into()
    }
}

impl From<Attachment> for Bytes {
    fn from(a: Attachment) -> Self {
        a.data
    }
}

impl From<Attachment> for Vec<u8> {
    fn from(a: Attachment) -> Self {
        a.data.to_vec()
    }
}

/// An attachment to send: one MIME part of a multipart/related request, after the root part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingAttachment {
    /// Content-ID without angle brackets (referenced as `cid:` + this, percent-encoded).
    pub content_id: String,
    /// The part's Content-Type (`application/octet-stream` for MTOM parts).
    pub content_type: String,
    /// The bytes (shared, not copied, until the request body is assembled).
    pub data: Bytes,
}

/// How a request with attachments is packaged.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Packaging {
    /// MTOM/XOP (SOAP MTOM §3, XOP 1.0 §3): the root part is `application/xop+xml` and the
    /// envelope references attachments with `xop:Include`.
    #[default]
    Mtom,
    /// SOAP Messages with Attachments 1.0 (WS-I Attachments Profile 1.0 §3): the root part is the
    /// envelope as it is (`text/xml` for SOAP 1.1, `application/soap+xml` for 1.2); attachments are
    /// bound to message parts by the WSDL (`mime:content`) or referenced by `swaRef` values.
    SwA,
}
