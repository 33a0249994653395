//! The SwA attachments of a request under WS-Security (WSS SwA Profile 1.1): the References a
//! signature makes to them (§5.3, with the Attachment-Content and Attachment-Complete Signature
//! Transforms, §5.4) and the attachments encrypted into their own MIME parts, each described by
//! an `xenc:EncryptedData` in the Security header whose `xenc:CipherReference` names it (§5.5).

use super::super::attachments::{AttachmentCoverage, CIPHERTEXT_TRANSFORM};
use super::super::encrypt::StrRef;
use super::super::sign::DS_NS;
use super::super::xmlenc::XENC_NS;
use super::super::{BlockEncryption, DigestAlgorithm, WssError};
use crate::mime::OutgoingAttachment;
use crate::xml::read::tree::{Document, NodeType};
use crate::xml::{Name, XmlWriter};

/// A `ds:Reference` to an attachment: `cid:` URI, its one Transform, its DigestValue (base64).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AttachmentReference {
    pub(crate) uri: String,
    pub(crate) transform: &'static str,
    pub(crate) digest: String,
}

/// The References to every attachment, in order, digested with `digest` as `coverage` says.
pub(crate) fn references(
    attachments: &[OutgoingAttachment],
    coverage: AttachmentCoverage,
    digest: DigestAlgorithm,
) -> Result<Vec<AttachmentReference>, WssError> {
    let mut octets = Vec::new();
    attachments
        .iter()
        .map(|a| {
            octets.clear();
            if coverage == AttachmentCoverage::Complete {
                octets.extend_from_slice(canonical_headers(a).as_bytes());
            }
            content(a, &mut octets)?;
            Ok(AttachmentReference {
                uri: format!("cid:{}", a.content_id),
                transform: coverage.signature_transform(),
                digest: super::super::base64(&digest.digest(&octets)),
            })
        })
        .collect()
}

/// The content of `a` as the signature transforms see it (§5.4.1): an XML media type
/// (`text/xml`, `application/xml`, `…+xml`) in Exclusive C14N without comments; other `text/*`
/// types with line ends made CRLF; any other type's bytes as they are.
fn content(a: &OutgoingAttachment, out: &mut Vec<u8>) -> Result<(), WssError> {
    let media = crate::mime::media_type(&a.content_type).to_ascii_lowercase();
    if is_xml(&media) {
        if a.data.is_empty() {
            return Err(WssError::Encode(format!(
                "the XML attachment <{}> to sign is empty: no document to canonicalize (send it \
                 as application/octet-stream to sign its bytes)",
                a.content_id
            )));
        }
        let text = std::str::from_utf8(&a.data).map_err(|_| {
            WssError::Encode(format!(
                "the XML attachment <{}> to sign is not UTF-8",
                a.content_id
            ))
        })?;
        let doc = Document::parse(text, crate::xml::Limits::default()).map_err(|e| {
            WssError::Encode(format!(
                "the XML attachment <{}> to sign: {e}",
                a.content_id
            ))
        })?;
        if doc.root().children().any(|n| n.node_type() == NodeType::PI) {
            return Err(WssError::Encode(format!(
                "the XML attachment <{}> to sign has a processing instruction outside its root \
                 element: not supported",
                a.content_id
            )));
        }
        super::super::c14n::exclusive_c14n_node(doc.root_element(), &[], out)
    } else if media.starts_with("text/") {
        let mut bytes = a.data.iter().copied().peekable();
        while let Some(b) = bytes.next() {
            match b {
                b'\r' => {
                    out.extend_from_slice(b"\r\n");
                    if bytes.peek() == Some(&b'\n') {
                        bytes.next();
                    }
                }
                b'\n' => out.extend_from_slice(b"\r\n"),
                b => out.push(b),
            }
        }
        Ok(())
    } else {
        out.extend_from_slice(&a.data);
        Ok(())
    }
}

fn is_xml(media: &str) -> bool {
    media == "text/xml"
        || media == "application/xml"
        || ((media.starts_with("application/") || media.starts_with("image/"))
            && media.ends_with("+xml"))
}

/// The MIME headers of `a` canonicalized (§5.4.2 step by step, as WSS4J writes them): the profile's
/// headers a request part carries, Content-ID then Content-Type, each `Name:value` and CRLF.
fn canonical_headers(a: &OutgoingAttachment) -> String {
    format!(
        "Content-ID:<{}>\r\nContent-Type:{}\r\n",
        a.content_id,
        canonical_content_type(&one_line(&a.content_type))
    )
}

/// A header value as the multipart writer sends it: on one line.
fn one_line(value: &str) -> String {
    value.replace(['\r', '\n'], " ")
}

/// A Content-Type value canonicalized (SwA Profile 1.1 §5.4.2, RFC 2045 §5.1): with parameters, the
/// media type lowercased, parameter names lowercased and sorted, each value quoted (and lowercased
/// for the parameters whose values are case-insensitive), `;` between without spaces; without
/// parameters, the value as written, trimmed.
fn canonical_content_type(value: &str) -> String {
    let value = value.trim();
    let Some((media, _)) = value.split_once(';') else {
        return value.to_owned();
    };
    let mut params = crate::mime::content_type_parameters(value);
    params.sort();
    let mut out = media.trim().to_ascii_lowercase();
    for (name, v) in params {
        let v = if matches!(
            name.as_str(),
            "charset"
                | "creation-date"
                | "filename"
                | "modification-date"
                | "padding"
                | "read-date"
                | "size"
                | "type"
        ) {
            v.to_ascii_lowercase()
        } else {
            v
        };
        out.push_str(&format!(
            ";{name}=\"{}\"",
            v.replace('\\', "\\\\").replace('"', "\\\"")
        ));
    }
    out
}

/// Encrypts every attachment in place under `key` with `block` (§5.5): each part's body becomes
/// the IV, ciphertext (and GCM tag) as raw bytes, its Content-Type `application/octet-stream`,
/// its Content-ID kept; with [`AttachmentCoverage::Complete`] its MIME headers are encrypted with
/// the content. Returns the `xenc:EncryptedData` elements for the Security header (Id
/// `id(i)` for the i-th attachment, from 1, KeyInfo `key_info` if any), in order, and their Ids.
pub(crate) fn encrypt(
    attachments: &mut [OutgoingAttachment],
    coverage: AttachmentCoverage,
    block: BlockEncryption,
    key: &[u8],
    key_info: Option<&StrRef<'_>>,
    id: impl Fn(usize) -> String,
) -> Result<(String, Vec<String>), WssError> {
    let mut xml = String::new();
    let mut ids = Vec::with_capacity(attachments.len());
    for (i, a) in attachments.iter_mut().enumerate() {
        let cipher = match coverage {
            AttachmentCoverage::Content => block.encrypt(key, &a.data)?,
            AttachmentCoverage::Complete => {
                let mut plain = format!(
                    "Content-ID:<{}>\r\nContent-Type:{}\r\n\r\n",
                    a.content_id,
                    one_line(&a.content_type)
                )
                .into_bytes();
                plain.extend_from_slice(&a.data);
                block.encrypt(key, &plain)?
            }
        };
        let data_id = id(i + 1);
        let mut w = XmlWriter::with_capacity(1024);
        w.start_element_prefixed(Name::new(XENC_NS, "EncryptedData"), Some("xenc"))?;
        w.attribute(Name::unqualified("Id"), &data_id)?;
        w.attribute(Name::unqualified("MimeType"), &a.content_type)?;
        w.attribute(Name::unqualified("Type"), coverage.encrypted_data_type())?;
        w.start_element(Name::new(XENC_NS, "EncryptionMethod"))?;
        w.attribute(Name::unqualified("Algorithm"), block.uri())?;
        w.end_element()?;
        if let Some(r) = key_info {
            w.start_element_prefixed(Name::new(DS_NS, "KeyInfo"), Some("ds"))?;
            r.write(&mut w)?;
            w.end_element()?;
        }
        w.start_element(Name::new(XENC_NS, "CipherData"))?;
        w.start_element(Name::new(XENC_NS, "CipherReference"))?;
        w.attribute(Name::unqualified("URI"), &format!("cid:{}", a.content_id))?;
        w.start_element(Name::new(XENC_NS, "Transforms"))?;
        w.start_element_prefixed(Name::new(DS_NS, "Transform"), Some("ds"))?;
        w.attribute(Name::unqualified("Algorithm"), CIPHERTEXT_TRANSFORM)?;
        w.end_element()?; // Transform
        w.end_element()?; // Transforms
        w.end_element()?; // CipherReference
        w.end_element()?; // CipherData
        w.end_element()?; // EncryptedData
        xml.push_str(&w.into_string()?);
        a.data = cipher.into();
        a.content_type = "application/octet-stream".to_owned();
        ids.push(data_id);
    }
    Ok((xml, ids))
}

#[cfg(test)]
mod tests {
    use super::super::super::attachments::COMPLETE;
    use super::*;

    fn part(content_type: &str, data: &[u8]) -> OutgoingAttachment {
        OutgoingAttachment {
            content_id: "abc@x".to_owned(),
            content_type: content_type.to_owned(),
            data: data.to_vec().into(),
        }
    }

    fn octets(a: &OutgoingAttachment, coverage: AttachmentCoverage) -> Vec<u8> {
        let mut out = Vec::new();
        if coverage == AttachmentCoverage::Complete {
            out.extend_from_slice(canonical_headers(a).as_bytes());
        }
        content(a, &mut out).unwrap();
        out
    }

    #[test]
    fn complete_coverage_is_the_canonical_headers_then_the_content() {
        let a = part("image/jpeg", &[0xFF, 0xD8, 0x0A]);
        assert_eq!(
            octets(&a, AttachmentCoverage::Complete),
            b"Content-ID:<abc@x>\r\nContent-Type:image/jpeg\r\n\xFF\xD8\x0A"
        );
        assert_eq!(octets(&a, AttachmentCoverage::Content), b"\xFF\xD8\x0A");
    }

    #[test]
    fn a_line_break_in_a_content_type_stays_out_of_the_headers() {
        let a = part("text/plain\r\nX-Evil: 1", b"x");
        let headers = canonical_headers(&a);
        assert_eq!(headers.matches("\r\n").count(), 2, "{headers:?}");
        let mut parts = vec![a];
        let key = vec![7u8; 16];
        let alg = BlockEncryption::Aes128Cbc;
        encrypt(
            &mut parts,
            AttachmentCoverage::Complete,
            alg,
            &key,
            None,
            |i| format!("E{i}"),
        )
        .unwrap();
        let plain = alg.decrypt(&key, &parts[0].data).unwrap();
        assert!(
            plain.starts_with(b"Content-ID:<abc@x>\r\nContent-Type:text/plain  X-Evil: 1\r\n\r\n")
        );
        let empty = part("application/xml", b"");
        let e = content(&empty, &mut Vec::new()).unwrap_err();
        assert!(e.to_string().contains("is empty"), "{e}");
    }

    #[test]
    fn content_type_parameters_are_sorted_lowercased_and_quoted() {
        assert_eq!(
            canonical_content_type(" Text/Plain; Format=flowed; Charset=UTF-8"),
            "text/plain;charset=\"utf-8\";format=\"flowed\""
        );
        assert_eq!(canonical_content_type("Image/JPEG"), "Image/JPEG");
        assert_eq!(
            canonical_content_type("text/plain; name=\"a\\\"b\""),
            "text/plain;name=\"a\\\"b\""
        );
    }

    #[test]
    fn text_content_gets_crlf_line_ends_and_xml_content_exclusive_c14n() {
        let a = part("text/plain", b"a\nb\rc\r\nd");
        assert_eq!(octets(&a, AttachmentCoverage::Content), b"a\r\nb\r\nc\r\nd");
        let x = part(
            "application/xml",
            b"<?xml version=\"1.0\"?><r xmlns:u=\"urn:u\" b='2' a=\"1\"><!--c--><e/></r>",
        );
        assert_eq!(
            octets(&x, AttachmentCoverage::Content),
            b"<r a=\"1\" b=\"2\"><e></e></r>"
        );
    }

    #[test]
    fn encrypted_parts_hold_the_ciphertext_under_the_same_content_id() {
        let mut parts = vec![part("image/jpeg", b"21 jpeg bytes")];
        let key = vec![7u8; 16];
        let (xml, ids) = encrypt(
            &mut parts,
            AttachmentCoverage::Complete,
            BlockEncryption::Aes128Cbc,
            &key,
            None,
            |i| format!("EDA{i}-s"),
        )
        .unwrap();
        assert_eq!(ids, ["EDA1-s"]);
        assert!(xml.contains("MimeType=\"image/jpeg\""), "{xml}");
        assert!(xml.contains(COMPLETE), "{xml}");
        assert!(xml.contains("URI=\"cid:abc@x\""), "{xml}");
        assert_eq!(parts[0].content_id, "abc@x");
        assert_eq!(parts[0].content_type, "application/octet-stream");
        let plain = BlockEncryption::Aes128Cbc
            .decrypt(&key, &parts[0].data)
            .unwrap();
        assert_eq!(
            plain,
            b"Content-ID:<abc@x>\r\nContent-Type:image/jpeg\r\n\r\n21 jpeg bytes"
        );
    }
}
