//! The outgoing `wsse:Security` header block (WSS 1.1 §5), assembled from a [`WssConfig`] once
//! the rest of the envelope is written.

use super::sign::{KeyReference, DS_NS, EXC_C14N, THUMBPRINT_SHA1, X509V3, X509_SKI};
use super::{
    random_bytes, Timestamp, UtcTime, WssConfig, WssError, BASE64_BINARY, WSSE_NS, WSU_NS,
};
use crate::envelope::SoapVersion;
use crate::xml::{Name, XmlWriter};

/// WS-Security state of one envelope being written: the configuration, where the Security block
/// goes, and the Body's `wsu:Id` when the Body is signed.
#[derive(Debug)]
pub(crate) struct Outgoing {
    cfg: WssConfig,
    /// Byte offset just inside `Header`, where the Security block is inserted.
    header_at: usize,
    /// Per-message random suffix of every `wsu:Id`, so they cannot collide with the body's Ids.
    suffix: String,
    /// Byte offset of the Body start tag, once written.
    body_at: Option<usize>,
}

impl Outgoing {
    pub(crate) fn new(cfg: WssConfig, header_at: usize) -> Result<Outgoing, WssError> {
        Ok(Outgoing {
            cfg,
            header_at,
            suffix: hex(&random_bytes::<8>()?),
            body_at: None,
        })
    }

    /// The `wsu:Id` the Body start tag must carry, if the Body is signed.
    pub(crate) fn body_id(&self) -> Option<String> {
        self.cfg.signer().map(|_| format!("id-{}", self.suffix))
    }

    /// Records where the Body start tag begins.
    pub(crate) fn set_body_at(&mut self, at: usize) {
        self.body_at = Some(at);
    }

    /// Inserts the Security block into the finished `envelope`, whose envelope namespace prefix
    /// is `env_prefix`.
    pub(crate) fn finish(
        &self,
        version: SoapVersion,
        env_prefix: &str,
        envelope: &mut String,
    ) -> Result<(), WssError> {
        let security = self.security_header(version, env_prefix, envelope)?;
        envelope.insert_str(self.header_at, &security);
        Ok(())
    }

    /// The `wsse:Security` element, a self-contained fragment (it declares `wsse`, `wsu` and the
    /// envelope prefix itself), in this order: Timestamp, BinarySecurityToken, UsernameToken,
    /// Signature. `mustUnderstand` is `"1"` in SOAP 1.1 (§4.2.3), `"true"` in SOAP 1.2 (Part 1
    /// §5.2.3).
    fn security_header(
        &self,
        version: SoapVersion,
        env_prefix: &str,
        envelope: &str,
    ) -> Result<String, WssError> {
        let cfg = &self.cfg;
        let suffix = &self.suffix;
        let now = UtcTime::now();
        let mut w = XmlWriter::with_capacity(if cfg.signer().is_some() { 4096 } else { 1024 });
        w.start_element_prefixed(Name::new(WSSE_NS, "Security"), Some("wsse"))?;
        w.declare_namespace("wsu", WSU_NS)?;
        w.declare_namespace(env_prefix, version.envelope_namespace())?;
        let must_understand = match version {
            SoapVersion::Soap11 => "1",
            SoapVersion::Soap12 => "true",
        };
        w.attribute(
            Name::new(version.envelope_namespace(), "mustUnderstand"),
            must_understand,
        )?;
        let ts_id = format!("TS-{suffix}");
        let mut ts_at = None;
        if let Some(ttl) = cfg.timestamp_ttl() {
            w.raw("")?; // close the open start tag so the offset is that of the next `<`
            ts_at = Some(w.as_str().len());
            Timestamp::new(now, ttl).write(&mut w, &ts_id)?;
        }
        let bst_id = format!("X509-{suffix}");
        if let Some(signer) = cfg
            .signer()
            .filter(|s| s.key_reference == KeyReference::DirectReference)
        {
            w.start_element(Name::new(WSSE_NS, "BinarySecurityToken"))?;
            w.attribute(Name::unqualified("EncodingType"), BASE64_BINARY)?;
            w.attribute(Name::unqualified("ValueType"), X509V3)?;
            w.attribute(Name::new(WSU_NS, "Id"), &bst_id)?;
            w.text(&super::base64(signer.credential().certificate().der()))?;
            w.end_element()?;
        }
        if let Some(ut) = cfg.username() {
            ut.write(&mut w, &format!("UT-{suffix}"), now)?;
        }
        if let Some(signer) = cfg.signer() {
            let body_at = self
                .body_at
                .ok_or_else(|| WssError::Encode("the Body to sign was not written".to_owned()))?;
            let mut scratch = Vec::with_capacity(envelope.len() - body_at);
            // Digests first: they do not depend on the Signature element.
            let mut references = Vec::with_capacity(2);
            if let Some(at) = ts_at {
                let digest = signer.reference_digest(w.as_str(), at, &mut scratch)?;
                references.push((ts_id.clone(), digest));
            }
            let body_digest = signer.reference_digest(envelope, body_at, &mut scratch)?;
            references.push((format!("id-{suffix}"), body_digest));

            w.start_element_prefixed(Name::new(DS_NS, "Signature"), Some("ds"))?;
            w.attribute(Name::unqualified("Id"), &format!("SIG-{suffix}"))?;
            w.raw("")?;
            let signed_info_at = w.as_str().len();
            w.start_element(Name::new(DS_NS, "SignedInfo"))?;
            w.start_element(Name::new(DS_NS, "CanonicalizationMethod"))?;
            w.attribute(Name::unqualified("Algorithm"), EXC_C14N)?;
            w.end_element()?;
            w.start_element(Name::new(DS_NS, "SignatureMethod"))?;
            w.attribute(Name::unqualified("Algorithm"), signer.signature.uri())?;
            w.end_element()?;
            for (id, digest) in &references {
                w.start_element(Name::new(DS_NS, "Reference"))?;
                w.attribute(Name::unqualified("URI"), &format!("#{id}"))?;
                w.start_element(Name::new(DS_NS, "Transforms"))?;
                w.start_element(Name::new(DS_NS, "Transform"))?;
                w.attribute(Name::unqualified("Algorithm"), EXC_C14N)?;
                w.end_element()?;
                w.end_element()?;
                w.start_element(Name::new(DS_NS, "DigestMethod"))?;
                w.attribute(Name::unqualified("Algorithm"), signer.digest.uri())?;
                w.end_element()?;
                w.simple_element(Name::new(DS_NS, "DigestValue"), digest.as_str())?;
                w.end_element()?;
            }
            w.end_element()?; // SignedInfo
            scratch.clear();
            super::exclusive_c14n(w.as_str(), signed_info_at, &[], &mut scratch)?;
            let value = signer.sign(&scratch)?;
            w.simple_element(Name::new(DS_NS, "SignatureValue"), value.as_str())?;
            w.start_element(Name::new(DS_NS, "KeyInfo"))?;
            w.attribute(Name::unqualified("Id"), &format!("KI-{suffix}"))?;
            w.start_element(Name::new(WSSE_NS, "SecurityTokenReference"))?;
            w.attribute(Name::new(WSU_NS, "Id"), &format!("STR-{suffix}"))?;
            let cert = signer.credential().certificate();
            let key_identifier = |w: &mut XmlWriter, value_type: &str, bytes: &[u8]| {
                w.start_element(Name::new(WSSE_NS, "KeyIdentifier"))?;
                w.attribute(Name::unqualified("EncodingType"), BASE64_BINARY)?;
                w.attribute(Name::unqualified("ValueType"), value_type)?;
                w.text(&super::base64(bytes))?;
                w.end_element()
            };
            match signer.key_reference {
                KeyReference::DirectReference => {
                    w.start_element(Name::new(WSSE_NS, "Reference"))?;
                    w.attribute(Name::unqualified("URI"), &format!("#{bst_id}"))?;
                    w.attribute(Name::unqualified("ValueType"), X509V3)?;
                    w.end_element()?;
                }
                KeyReference::SubjectKeyIdentifier => {
                    let ski = cert.subject_key_identifier().ok_or_else(|| {
                        WssError::Encode("the certificate has no SubjectKeyIdentifier".to_owned())
                    })?;
                    key_identifier(&mut w, X509_SKI, ski)?;
                }
                KeyReference::ThumbprintSha1 => {
                    key_identifier(&mut w, THUMBPRINT_SHA1, &cert.sha1_thumbprint())?;
                }
                KeyReference::X509IssuerSerial => {
                    w.start_element(Name::new(DS_NS, "X509Data"))?;
                    w.start_element(Name::new(DS_NS, "X509IssuerSerial"))?;
                    let issuer = cert.issuer_rfc4514();
                    w.simple_element(Name::new(DS_NS, "X509IssuerName"), issuer.as_str())?;
                    let serial = cert.serial_decimal();
                    w.simple_element(Name::new(DS_NS, "X509SerialNumber"), serial.as_str())?;
                    w.end_element()?;
                    w.end_element()?;
                }
            }
            w.end_element()?;
            w.end_element()?; // KeyInfo
            w.end_element()?; // Signature
        }
        w.end_element()?;
        Ok(w.into_string()?)
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}
