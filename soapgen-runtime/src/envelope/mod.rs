//! SOAP envelopes, written and read: SOAP 1.1 §4 and SOAP 1.2 Part 1 §5 (Envelope, Header, Body).
//!
//! [`EnvelopeWriter`] writes one (a client writes each request with it, its message layers'
//! header blocks first); [`read_response`] reads one from bytes, as a client reads each
//! response (the same walk: Header, Body, Fault, trailing content).

mod read;
mod write;

pub(crate) use read::read_envelope;
pub use write::EnvelopeWriter;

use crate::error::{DecodeError, Error};
use crate::message::Incoming;
use crate::mime::Attachments;
use crate::xml::{Limits, StartTag, XmlReader};

/// What a response envelope's `Body` held.
#[derive(Debug)]
pub enum BodyContent<T> {
    /// The expected payload.
    Payload(T),
    /// An empty `Body` (a one-way operation's acknowledgement).
    Empty,
}

/// Reads a response envelope: checks `Envelope` (either SOAP version), skips `Header`, and either
/// decodes the single `Body` child with `decode` or returns the `Fault` it holds as
/// [`Error::Fault`]. The whole document must end after the `Envelope` (truncation is an error).
///
/// `http_status` is recorded in a fault. `decode` gets the reader positioned just after the body
/// child's start tag.
///
/// # Errors
///
/// [`Error::Xml`] for malformed, refused or truncated XML; [`Error::Decode`] for a body that is not the
/// expected message (a wrong element, a missing Body); [`Error::Fault`] for a fault.
pub fn read_response<T>(
    body: &[u8],
    limits: Limits,
    http_status: Option<u16>,
    decode: impl for<'i> FnOnce(&mut XmlReader<'i>, StartTag<'i>) -> Result<T, DecodeError>,
) -> Result<BodyContent<T>, Error> {
    read_response_with_attachments(body, None, None, limits, http_status, decode)
}

/// [`read_response`] with what the HTTP layer knows: the `charset` of the Content-Type (which
/// overrides the XML declaration, RFC 7303 §3; see [`to_utf8`](crate::xml::to_utf8) for how the
/// encoding is found), and, for the root part of a multipart/related response (MTOM/XOP, SwA), the
/// attachments that base64Binary content given as `xop:Include` or `href="cid:…"` resolves to.
///
/// # Errors
///
/// As [`read_response`]; [`DecodeErrorKind::Attachment`](crate::error::DecodeErrorKind::Attachment) for a reference to no attachment; an
/// unknown encoding or bytes invalid in it.
pub fn read_response_with_attachments<T>(
    body: &[u8],
    attachments: Option<&Attachments>,
    http_charset: Option<&str>,
    limits: Limits,
    http_status: Option<u16>,
    decode: impl for<'i> FnOnce(&mut XmlReader<'i>, StartTag<'i>) -> Result<T, DecodeError>,
) -> Result<BodyContent<T>, Error> {
    let incoming = Incoming {
        attachments,
        http_charset,
        http_status,
        ..Incoming::new(body, limits)
    };
    decode_once(decode, |b| read_envelope(&incoming, None, b))
}

/// Runs `read` with a [`BodyReader`] that hands the Body's child to `decode` (a second child
/// is unexpected), and gives what `read` returned with the payload `decode` made: the shim
/// between a reader generic over the result type and the envelope walk, which is not.
fn decode_once<T>(
    decode: impl for<'i> FnOnce(&mut XmlReader<'i>, StartTag<'i>) -> Result<T, DecodeError>,
    read: impl FnOnce(&mut BodyReader<'_>) -> Result<BodyContent<()>, Error>,
) -> Result<BodyContent<T>, Error> {
    let mut decode = Some(decode);
    let mut value = None;
    let content = read(&mut |r, start| match decode.take() {
        Some(f) => {
            value = Some(f(r, start)?);
            Ok(())
        }
        None => Err(r.unexpected(&start)),
    })?;
    Ok(match (content, value) {
        (BodyContent::Payload(()), Some(v)) => BodyContent::Payload(v),
        _ => BodyContent::Empty,
    })
}

/// The body child's reader of the envelope walk: gets the reader just after the child's start
/// tag and reads the child to its end.
pub type BodyReader<'d> =
    dyn for<'i> FnMut(&mut XmlReader<'i>, StartTag<'i>) -> Result<(), DecodeError> + 'd;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::DecodeErrorKind;
    use crate::message::{SoapVersion, SOAP11_ENV_NS};
    use crate::xml::Name;

    fn decode_text(doc: &str) -> Result<BodyContent<String>, Error> {
        read_response(doc.as_bytes(), Limits::default(), Some(200), |r, _tag| {
            Ok(r.read_text()?.into_owned())
        })
    }

    #[test]
    fn writes_both_versions() {
        for v in [SoapVersion::Soap11, SoapVersion::Soap12] {
            let mut env = EnvelopeWriter::new(v, &[("tns", "urn:t")]).unwrap();
            env.header_entry(|w| w.simple_element(Name::new("urn:t", "h"), "1"))
                .unwrap();
            env.body(|w| w.simple_element(Name::new("urn:t", "b"), "2"))
                .unwrap();
            let xml = env.finish().unwrap();
            let p = v.prefix();
            assert_eq!(
                xml,
                format!(
                    "<?xml version=\"1.0\" encoding=\"utf-8\"?><{p}:Envelope xmlns:{p}=\"{ns}\" \
                     xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:tns=\"urn:t\"><{p}:Header><tns:h>1</tns:h></{p}:Header>\
                     <{p}:Body><tns:b>2</tns:b></{p}:Body></{p}:Envelope>",
                    ns = v.envelope_namespace()
                )
            );
            // And it reads back.
            assert!(matches!(
                decode_text(&xml).unwrap(),
                BodyContent::Payload(s) if s == "2"
            ));
        }
    }

    #[test]
    fn reads_faults_of_both_versions() {
        let f11 = r#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault>
            <faultcode>s:Client.Auth</faultcode><faultstring xml:lang="en">denied</faultstring>
            <faultactor>urn:a</faultactor><detail><e:x xmlns:e="urn:e">1</e:x></detail></s:Fault></s:Body></s:Envelope>"#;
        let Err(Error::Fault(f)) = decode_text(f11) else {
            panic!("expected fault")
        };
        assert_eq!(f.code.namespace.as_deref(), Some(SOAP11_ENV_NS));
        assert_eq!(f.code.local_name, "Client.Auth");
        assert!(f.is_sender());
        assert_eq!(f.reason, "denied");
        assert_eq!(f.reasons[0].lang.as_deref(), Some("en"));
        assert_eq!(f.node.as_deref(), Some("urn:a"));
        assert_eq!(f.http_status, Some(200));
        let x: Option<i32> = f
            .detail
            .as_ref()
            .unwrap()
            .decode(Name::new("urn:e", "x"))
            .unwrap();
        assert_eq!(x, Some(1));

        let f12 = r#"<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope" xmlns:m="urn:m">
          <env:Body><env:Fault><env:Code><env:Value>env:Sender</env:Value><env:Subcode><env:Value>m:Bad</env:Value>
          <env:Subcode><env:Value>m:Worse</env:Value></env:Subcode></env:Subcode></env:Code>
          <env:Reason><env:Text xml:lang="en">bad</env:Text><env:Text xml:lang="de">schlecht</env:Text></env:Reason>
          <env:Node>urn:n</env:Node><env:Role>urn:r</env:Role><env:Detail><m:d>z</m:d></env:Detail>
          </env:Fault></env:Body></env:Envelope>"#;
        let Err(Error::Fault(f)) = decode_text(f12) else {
            panic!("expected fault")
        };
        assert_eq!(f.version, SoapVersion::Soap12);
        assert_eq!(f.code.local_name, "Sender");
        assert_eq!(
            f.subcodes
                .iter()
                .map(|q| (q.namespace.as_deref().unwrap(), q.local_name.as_str()))
                .collect::<Vec<_>>(),
            [("urn:m", "Bad"), ("urn:m", "Worse")]
        );
        assert_eq!(f.reasons.len(), 2);
        assert_eq!(f.reasons[1].lang.as_deref(), Some("de"));
        assert_eq!(f.role.as_deref(), Some("urn:r"));
        assert_eq!(f.detail.as_ref().unwrap().entry_names(), ["d"]);
    }

    #[test]
    fn rejects_what_is_not_an_envelope() {
        assert!(matches!(
            decode_text("<html><body/></html>"),
            Err(Error::Decode(_))
        ));
        let e = decode_text(
            r#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><a>x</a>"#,
        )
        .unwrap_err();
        assert!(
            matches!(&e, Error::Xml(d) if d.kind == DecodeErrorKind::Truncated),
            "{e}"
        );
        let e = decode_text(r#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"/>"#)
            .unwrap_err();
        assert!(
            e.to_string().contains("missing required element Body"),
            "{e}"
        );
    }
}
