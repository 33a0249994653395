//! RSAES-OAEP (RFC 8017 §7.1) with SHA-1 as its digest and MGF1 with SHA-256 as its mask
//! generation function: the key transport of Apache CXF's `Basic256GCMMGFSHA256` algorithm suite,
//! written `xenc11#rsa-oaep` with a SHA-1 `ds:DigestMethod` and an `xenc11:MGF` of `mgf1sha256`
//! (XML-Enc 1.1 §5.5.2).
//!
//! aws-lc-rs offers OAEP only with the same hash for both (`OAEP_SHA1_MGF1SHA1`,
//! `OAEP_SHA256_MGF1SHA256`, …), so this pairing goes one level down to the AWS-LC library it
//! wraps, through `aws-lc-sys` as [`super::rsa_sha1`] does: an `EVP_PKEY_CTX` with OAEP padding,
//! `EVP_sha1` as the OAEP digest and `EVP_sha256` for MGF1. The public key is the certificate's
//! SubjectPublicKeyInfo (`d2i_PUBKEY`); the private key is the credential's AWS-LC form
//! ([`super::rsa_sha1::Sha1Key`]).

use std::ptr::NonNull;

/// An owned `EVP_PKEY_CTX` (freed on drop).
struct Ctx(NonNull<aws_lc_sys::EVP_PKEY_CTX>);

impl Drop for Ctx {
    fn drop(&mut self) {
        // SAFETY: the pointer came from a successful `EVP_PKEY_CTX_new` and is freed once.
        unsafe { aws_lc_sys::EVP_PKEY_CTX_free(self.0.as_ptr()) }
    }
}

/// An owned `EVP_PKEY` parsed from a SubjectPublicKeyInfo (freed on drop).
struct PublicKey(NonNull<aws_lc_sys::EVP_PKEY>);

impl Drop for PublicKey {
    fn drop(&mut self) {
        // SAFETY: the pointer came from a successful `d2i_PUBKEY` and is freed once.
        unsafe { aws_lc_sys::EVP_PKEY_free(self.0.as_ptr()) }
    }
}

/// A context for `pkey` set up for OAEP with SHA-1 and MGF1-SHA-256, after `init`
/// (`EVP_PKEY_encrypt_init` or `EVP_PKEY_decrypt_init`).
///
/// # Safety
///
/// `pkey` must be a live `EVP_PKEY` that outlives the context.
unsafe fn context(
    pkey: *mut aws_lc_sys::EVP_PKEY,
    init: unsafe extern "C" fn(*mut aws_lc_sys::EVP_PKEY_CTX) -> std::os::raw::c_int,
) -> Option<Ctx> {
    // SAFETY: `pkey` is live (the caller's contract); a null engine is AWS-LC's default.
    let ctx = Ctx(NonNull::new(unsafe {
        aws_lc_sys::EVP_PKEY_CTX_new(pkey, std::ptr::null_mut())
    })?);
    let c = ctx.0.as_ptr();
    // SAFETY: `c` is a live context; EVP_sha1/EVP_sha256 return static digests.
    let ok = unsafe {
        init(c) == 1
            && aws_lc_sys::EVP_PKEY_CTX_set_rsa_padding(c, aws_lc_sys::RSA_PKCS1_OAEP_PADDING) == 1
            && aws_lc_sys::EVP_PKEY_CTX_set_rsa_oaep_md(c, aws_lc_sys::EVP_sha1()) == 1
            && aws_lc_sys::EVP_PKEY_CTX_set_rsa_mgf1_md(c, aws_lc_sys::EVP_sha256()) == 1
    };
    ok.then_some(ctx)
}

/// `EVP_PKEY_encrypt` or `EVP_PKEY_decrypt`: the same shape.
type Operation = unsafe extern "C" fn(
    *mut aws_lc_sys::EVP_PKEY_CTX,
    *mut u8,
    *mut usize,
    *const u8,
    usize,
) -> std::os::raw::c_int;

/// `op` of `input` on `ctx`: asks for the output's size, then writes it. `None` on failure.
fn run(ctx: &Ctx, op: Operation, input: &[u8]) -> Option<Vec<u8>> {
    let mut out_len = 0usize;
    // SAFETY: `ctx` is live; a null output asks for the output's size.
    let sized = unsafe {
        op(
            ctx.0.as_ptr(),
            std::ptr::null_mut(),
            &mut out_len,
            input.as_ptr(),
            input.len(),
        )
    };
    if sized != 1 {
        return None;
    }
    let mut out = vec![0u8; out_len];
    // SAFETY: `out` has `out_len` writable bytes, the size AWS-LC asked for.
    let ok = unsafe {
        op(
            ctx.0.as_ptr(),
            out.as_mut_ptr(),
            &mut out_len,
            input.as_ptr(),
            input.len(),
        )
    };
    (ok == 1).then(|| {
        out.truncate(out_len);
        out
    })
}

/// Encrypts `msg` for the RSA key of the SubjectPublicKeyInfo `spki` (DER): as many bytes as
/// the modulus. `None` if AWS-LC refuses the key or the message (too long for the modulus).
pub(crate) fn encrypt(spki: &[u8], msg: &[u8]) -> Option<Vec<u8>> {
    let len = std::os::raw::c_long::try_from(spki.len()).ok()?;
    let mut input = spki.as_ptr();
    // SAFETY: `input` points at `len` readable bytes that outlive the call; a null first
    // argument asks for a new EVP_PKEY, owned by the `PublicKey` made here.
    let key = PublicKey(NonNull::new(unsafe {
        aws_lc_sys::d2i_PUBKEY(std::ptr::null_mut(), &mut input, len)
    })?);
    // SAFETY: `key` is live until the end of this function, after the context is dropped.
    let ctx = unsafe { context(key.0.as_ptr(), aws_lc_sys::EVP_PKEY_encrypt_init)? };
    run(&ctx, aws_lc_sys::EVP_PKEY_encrypt, msg)
}

/// Decrypts `input` with the private key `pkey`. `None` on any failure (bad padding, wrong
/// length), with no detail: what an oracle could use is not told apart.
///
/// # Safety
///
/// `pkey` must be a live RSA private `EVP_PKEY` for the duration of the call.
pub(crate) unsafe fn decrypt(pkey: *mut aws_lc_sys::EVP_PKEY, input: &[u8]) -> Option<Vec<u8>> {
    // SAFETY: `pkey` is live (the caller's contract).
    let ctx = unsafe { context(pkey, aws_lc_sys::EVP_PKEY_decrypt_init)? };
    run(&ctx, aws_lc_sys::EVP_PKEY_decrypt, input)
}
