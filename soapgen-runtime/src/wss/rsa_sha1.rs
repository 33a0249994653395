//! RSASSA-PKCS1-v1_5 with SHA-1 (RFC 8017 §8.2, `DigestInfo` of RFC 8017 §9.2 note 1) for the
//! XML-DSig `rsa-sha1` SignatureMethod (XML-DSig §6.4.2), which old peers still demand.
//!
//! aws-lc-rs signs PKCS#1 v1.5 only with SHA-256/384/512 (its SHA-1 encodings verify only), so
//! this goes one level down to the same AWS-LC library it wraps, through `aws-lc-sys` (the very
//! crate aws-lc-rs links; keep the two versions in step): the key, serialized by aws-lc-rs as
//! PKCS#8 (a zeroized buffer), is parsed once by `d2i_AutoPrivateKey` into a [`Sha1Key`], which
//! signs with `RSA_sign` and `NID_sha1` — AWS-LC's blinded, constant-time RSA, as aws-lc-rs's
//! own signing uses.

use std::ptr::NonNull;

use aws_lc_rs::encoding::{AsDer, Pkcs8V1Der};
use aws_lc_rs::signature::RsaKeyPair;

use super::WssError;

/// An RSA private key as an AWS-LC `EVP_PKEY`, owned (freed on drop), for SHA-1 signing.
#[derive(Debug)]
pub(crate) struct Sha1Key {
    pkey: NonNull<aws_lc_sys::EVP_PKEY>,
    modulus_len: usize,
}

// SAFETY: the EVP_PKEY is owned by this value alone and never mutated through it after parsing;
// AWS-LC's RSA signing may be called on one key from several threads at once (it locks its
// lazily built caches), which is what aws-lc-rs relies on for its own Send + Sync RsaKeyPair.
unsafe impl Send for Sha1Key {}
// SAFETY: as for Send.
unsafe impl Sync for Sha1Key {}

impl Drop for Sha1Key {
    fn drop(&mut self) {
        // SAFETY: the pointer came from a successful `d2i_AutoPrivateKey` and is freed once.
        unsafe { aws_lc_sys::EVP_PKEY_free(self.pkey.as_ptr()) }
    }
}

impl Sha1Key {
    /// The AWS-LC form of `key`.
    ///
    /// # Errors
    ///
    /// [`WssError::Sign`] if AWS-LC cannot read back what aws-lc-rs wrote.
    pub(crate) fn new(key: &RsaKeyPair) -> Result<Sha1Key, WssError> {
        let pkcs8: Pkcs8V1Der<'static> = key.as_der().map_err(|_| WssError::Sign)?;
        let der = pkcs8.as_ref();
        let len = std::os::raw::c_long::try_from(der.len()).map_err(|_| WssError::Sign)?;
        let mut input = der.as_ptr();
        // SAFETY: `input` points at `len` readable bytes that outlive the call; a null first
        // argument asks for a new EVP_PKEY, owned by the `Sha1Key` made below.
        let pkey = unsafe { aws_lc_sys::d2i_AutoPrivateKey(std::ptr::null_mut(), &mut input, len) };
        let pkey = NonNull::new(pkey).ok_or(WssError::Sign)?;
        Ok(Sha1Key {
            pkey,
            modulus_len: key.public_modulus_len(),
        })
    }

    /// The RSASSA-PKCS1-v1_5 SHA-1 signature of `msg`, as many bytes as the modulus.
    ///
    /// # Errors
    ///
    /// [`WssError::Sign`] if AWS-LC refuses (it does not for a key aws-lc-rs accepted).
    pub(crate) fn sign(&self, msg: &[u8]) -> Result<Vec<u8>, WssError> {
        let digest = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA1_FOR_LEGACY_USE_ONLY, msg);
        // SAFETY: `self.pkey` is a live EVP_PKEY; the RSA returned is borrowed from it (get0)
        // and lives as long as `self`.
        let rsa = unsafe { aws_lc_sys::EVP_PKEY_get0_RSA(self.pkey.as_ptr()) };
        if rsa.is_null() {
            return Err(WssError::Sign);
        }
        // SAFETY: `rsa` is live (above).
        let size = unsafe { aws_lc_sys::RSA_size(rsa) };
        if usize::try_from(size).ok() != Some(self.modulus_len) {
            return Err(WssError::Sign);
        }
        let mut sig = vec![0u8; self.modulus_len];
        let mut sig_len: std::os::raw::c_uint = 0;
        // SAFETY: `RSA_sign` writes at most RSA_size(rsa) bytes, checked above to be the length
        // of `sig`; `digest` is 20 readable bytes; `rsa` is live.
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

    /// Decrypts an RSAES-OAEP `input` with SHA-1 and MGF1-SHA-256 ([`super::oaep`]); `None` on
    /// any failure.
    pub(crate) fn oaep_sha1_mgf1_sha256_decrypt(&self, input: &[u8]) -> Option<Vec<u8>> {
        // SAFETY: `self.pkey` is a live RSA private EVP_PKEY owned by `self`.
        unsafe { super::oaep::decrypt(self.pkey.as_ptr(), input) }
    }
}
