//! The outgoing `wsse:Security` header block (WSS 1.1 §5), assembled from a [`WssConfig`].

use super::{random_bytes, Timestamp, UtcTime, WssConfig, WssError, WSSE_NS, WSU_NS};
use crate::envelope::SoapVersion;
use crate::xml::{Name, XmlWriter};

/// The `wsse:Security` element for one request, as a self-contained fragment (it declares `wsse`,
/// `wsu` and the envelope prefix `env_prefix` itself), to be placed first in the SOAP `Header`.
///
/// `mustUnderstand` is `"1"` in SOAP 1.1 (§4.2.3) and `"true"` in SOAP 1.2 (Part 1 §5.2.3). The
/// `wsu:Id`s end in a per-message random suffix so they cannot collide with Ids of the body.
pub(crate) fn write_security_header(
    cfg: &WssConfig,
    version: SoapVersion,
    env_prefix: &str,
) -> Result<String, WssError> {
    let now = UtcTime::now();
    let suffix = hex(&random_bytes::<8>()?);
    let mut w = XmlWriter::with_capacity(1024);
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
    if let Some(ttl) = cfg.timestamp_ttl() {
        Timestamp::new(now, ttl).write(&mut w, &format!("TS-{suffix}"))?;
    }
    if let Some(ut) = cfg.username() {
        ut.write(&mut w, &format!("UT-{suffix}"), now)?;
    }
    w.end_element()?;
    Ok(w.into_string()?)
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}
