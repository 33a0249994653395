//! RSASSA-PKCS1-v1_5 with SHA-1 (RFC 8017 §8.2, `DigestInfo` of RFC 8017 §9.2 note 1) for the
//! XML-DSig `rsa-sha1` SignatureMethod (XML-DSig §6.4.2), which old peers still demand.
//!
//! aws-lc-rs signs PKCS#1 v1.5 only with SHA-256/384/512 (its SHA-1 encodings verify only), so
//! this goes one level down to the same AWS-LC library it wraps, through `aws-lc-sys` (the very
//! crate aws-lc-rs links; keep the two versions in step): the key, serialized by aws-lc-rs as
//! PKCS#8 (a zeroized buffer), is parsed by `d2i_AutoPrivateKey` and signed by `RSA_sign` with
//! `NID_sha1` — AWS-LC's blinded, constant-time RSA, as aws-lc-rs's own signing uses. The
//! parsed key is freed before returning; nothing is shared between threads.

use aws_lc_rs::encoding::{AsDer, Pkcs8V1Der};
use aws_lc_rs::signature::RsaKeyPair;

use super::WssError;

/// Frees an `EVP_PKEY` on drop.
struct Pkey(*mut aws_lc_sys::EVP_PKEY);

impl Drop for Pkey {
    fn drop(&mut self) {
        // SAFETY: the pointer came from a successful `d2i_AutoPrivateKey` and is freed once.
        unsafe { aws_lc_sys::EVP_PKEY_free(self.0) }
    }
}

/// The RSASSA-PKCS1-v1_5 SHA-1 signature of `msg` with `key`, as many bytes as the modulus.
///
/// # Errors
///
/// [`WssError::Sign`] if AWS-LC refuses (it does not for a key aws-lc-rs accepted).
pub(crate) fn sign(key: &RsaKeyPair, msg: &[u8]) -> Result<Vec<u8>, WssError> {
    let digest = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA1_FOR_LEGACY_USE_ONLY, msg);
    let pkcs8: Pkcs8V1Der<'static> = key.as_der().map_err(|_| WssError::Sign)?;
    let der = pkcs8.as_ref();
    let len = std::os::raw::c_long::try_from(der.len()).map_err(|_| WssError::Sign)?;
    let mut input = der.as_ptr();
    // SAFETY: `input` points at `len` readable bytes that outlive the call; a null first
    // argument asks for a new EVP_PKEY, owned by `Pkey` below.
    let pkey = unsafe { aws_lc_sys::d2i_AutoPrivateKey(std::ptr::null_mut(), &mut input, len) };
    if pkey.is_null() {
        return Err(WssError::Sign);
    }
    let pkey = Pkey(pkey);
    // SAFETY: `pkey.0` is a live EVP_PKEY; the RSA it returns is borrowed from it (get0) and
    // lives as long as `pkey`.
    let rsa = unsafe { aws_lc_sys::EVP_PKEY_get0_RSA(pkey.0) };
    if rsa.is_null() {
        return Err(WssError::Sign);
    }
    let mut sig = vec![0u8; key.public_modulus_len()];
    let mut sig_len: std::os::raw::c_uint = 0;
    // SAFETY: `RSA_sign` writes at most RSA_size(rsa) bytes, which is the modulus length of the
    // same key, the length of `sig`; `digest` is 20 readable bytes; `rsa` is live (above).
    let ok = unsafe {
        aws_lc_sys::RSA_sign(
            aws_lc_sys::NID_sha1,
            digest.as_ref().as_ptr(),
            digest.as_ref().len(),
            sig.as_mut_ptr(),
            &mut sig_len,
            rsa,
        )
    };
    if ok != 1 || usize::try_from(sig_len).ok() != Some(sig.len()) {
        return Err(WssError::Sign);
    }
    Ok(sig)
}
