//! Random bytes (nonces, key material, `wsu:Id` suffixes) and binary values as text.

use crate::error::WssError;

/// `n` random bytes from aws-lc-rs's system random generator.
pub(crate) fn random_bytes<const N: usize>() -> Result<[u8; N], WssError> {
    use aws_lc_rs::rand::SecureRandom;
    let mut out = [0u8; N];
    aws_lc_rs::rand::SystemRandom::new()
        .fill(&mut out)
        .map_err(|_| WssError::Random)?;
    Ok(out)
}

/// Standard base64 of `bytes` (RFC 4648 §4), as WS-Security's values carry them.
pub(crate) fn base64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Lower-case hex of `bytes` (Ids' random suffixes, key identifiers in error messages).
pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}
