//! Certificate chains in BinarySecurityTokens (X.509 Token Profile 1.1 §3.1): a PKIPath (a DER
//! SEQUENCE of certificates, leaf last) and a PKCS#7 SignedData's `certificates` (RFC 2315 §9.1).

use super::*;

/// A DER TLV: (tag, content, the whole TLV, what follows it).
pub(super) type Tlv<'a> = (u8, &'a [u8], &'a [u8], &'a [u8]);

/// One DER TLV at the start of `input` (X.690 §8.1, definite lengths up to 4 bytes).
pub(super) fn der_tlv(input: &[u8]) -> Option<Tlv<'_>> {
    let (&tag, after_tag) = input.split_first()?;
    let (&first, rest) = after_tag.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        let len = rest[..n]
            .iter()
            .fold(0usize, |a, b| (a << 8) | usize::from(*b));
        (len, &rest[n..])
    };
    if rest.len() < len {
        return None;
    }
    let whole = input.len() - (rest.len() - len);
    Some((tag, &rest[..len], &input[..whole], &rest[len..]))
}

/// The certificates of a run of DER `Certificate`s (the content of a `SEQUENCE OF` or `SET OF`).
pub(super) fn der_certificates(
    mut content: &[u8],
    name: &str,
) -> Result<Vec<Certificate>, WssError> {
    let mut out = Vec::new();
    while !content.is_empty() {
        let (tag, _, whole, rest) = der_tlv(content).ok_or_else(|| WssError::Certificate {
            name: name.to_owned(),
            reason: format!("certificate {} is not DER", out.len() + 1),
        })?;
        if tag != 0x30 {
            return Err(WssError::Certificate {
                name: name.to_owned(),
                reason: format!(
                    "element {} is not a certificate (tag {tag:#04x})",
                    out.len() + 1
                ),
            });
        }
        out.push(Certificate::from_der(
            whole,
            &format!("{name} certificate {}", out.len() + 1),
        )?);
        content = rest;
    }
    Ok(out)
}

/// The DER `PkiPath` (`SEQUENCE OF Certificate`, X.509 Token Profile 1.1 §3.1) of `path`, in the
/// order given (a path is written from the certificate nearest the trust anchor to the end
/// entity, leaf last).
pub(crate) fn pki_path_der(path: &[&Certificate]) -> Vec<u8> {
    let len: usize = path.iter().map(|c| c.der().len()).sum();
    let mut out = sequence_header(len);
    out.reserve(len);
    for c in path {
        out.extend_from_slice(c.der());
    }
    out
}

/// The tag and definite length (X.690 §8.1.3) of a DER SEQUENCE of `len` content bytes.
fn sequence_header(len: usize) -> Vec<u8> {
    let mut out = vec![0x30];
    match u8::try_from(len) {
        Ok(short) if short < 0x80 => out.push(short),
        _ => {
            let bytes = len.to_be_bytes();
            let skip = bytes.iter().take_while(|b| **b == 0).count();
            // At most 8 length bytes: the count fits the low 7 bits.
            out.push(0x80 | u8::try_from(bytes.len() - skip).unwrap_or(0x7f));
            out.extend_from_slice(&bytes[skip..]);
        }
    }
    out
}

/// The certificates of an ASN.1 `PkiPath` (`SEQUENCE OF Certificate`, X.509 Token Profile 1.1
/// §3.1), in order.
pub(crate) fn pki_path(der: &[u8], name: &str) -> Result<Vec<Certificate>, WssError> {
    match der_tlv(der) {
        Some((0x30, content, _, [])) => der_certificates(content, name),
        _ => Err(WssError::Certificate {
            name: name.to_owned(),
            reason: "not a DER PkiPath (SEQUENCE OF Certificate)".to_owned(),
        }),
    }
}

/// The `certificates` of a PKCS#7 `ContentInfo` holding a `SignedData` (RFC 2315 §7, §9.1; the
/// "certs-only" form `openssl crl2pkcs7` writes), in the order they appear.
pub(crate) fn pkcs7_certificates(der: &[u8], name: &str) -> Result<Vec<Certificate>, WssError> {
    // 1.2.840.113549.1.7.2, signedData.
    const SIGNED_DATA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02];
    let bad = |reason: &str| WssError::Certificate {
        name: name.to_owned(),
        reason: reason.to_owned(),
    };
    let Some((0x30, content_info, _, [])) = der_tlv(der) else {
        return Err(bad("not a DER PKCS#7 ContentInfo"));
    };
    let Some((0x06, oid, _, rest)) = der_tlv(content_info) else {
        return Err(bad("the ContentInfo has no contentType"));
    };
    if oid != SIGNED_DATA {
        return Err(bad(
            "the ContentInfo is not signedData (1.2.840.113549.1.7.2)",
        ));
    }
    let Some((0xa0, explicit, _, _)) = der_tlv(rest) else {
        return Err(bad("the ContentInfo has no content"));
    };
    let Some((0x30, mut signed_data, _, _)) = der_tlv(explicit) else {
        return Err(bad("the content is not a SignedData"));
    };
    // version, digestAlgorithms, contentInfo, then [0] IMPLICIT certificates (optional).
    for field in ["version", "digestAlgorithms", "contentInfo"] {
        let Some((_, _, _, rest)) = der_tlv(signed_data) else {
            return Err(bad(&format!("the SignedData has no {field}")));
        };
        signed_data = rest;
    }
    match der_tlv(signed_data) {
        Some((0xa0, certificates, _, _)) => der_certificates(certificates, name),
        _ => Ok(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequence_lengths_read_back() {
        // Each DER length form: short, one length byte, two, three.
        for len in [0usize, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x1_0000] {
            let mut tlv = sequence_header(len);
            tlv.resize(tlv.len() + len, 0);
            let (tag, content, whole, rest) = der_tlv(&tlv).expect("a TLV");
            assert_eq!(
                (tag, content.len(), whole.len(), rest.len()),
                (0x30, len, tlv.len(), 0)
            );
        }
        assert_eq!(pki_path_der(&[]), vec![0x30, 0x00]);
    }
}
