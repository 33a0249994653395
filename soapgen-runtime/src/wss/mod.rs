//! WS-Security (OASIS Web Services Security: SOAP Message Security 1.1, "WSS 1.1"), feature `wss`.
//!
//! Configured once per client with a [`WssConfig`] given to
//! [`ClientBuilder::wss`](crate::ClientBuilder::wss); every request then carries a
//! `wsse:Security` header block with `mustUnderstand` set (WSS 1.1 §5), written first in the
//! SOAP `Header`, holding what the configuration asks for:
//!
//! - a [`UsernameToken`] (WSS UsernameToken Profile 1.1 §3): `PasswordText`, or `PasswordDigest`
//!   with a fresh `Nonce` and `Created` (digest = Base64(SHA-1(nonce + created + password)));
//! - a `wsu:Timestamp` with `Created` and `Expires` (WSS 1.1 §10), see [`WssConfig::timestamp`];
//! - an XML Signature (WSS 1.1 §8) of the Body and the Timestamp with an [`X509Credential`]: the
//!   certificate as a `wsse:BinarySecurityToken` referenced by a DirectReference (or a
//!   KeyIdentifier, or `ds:X509IssuerSerial`: [`KeyReference`]), exclusive C14N
//!   ([`exclusive_c14n`]), RSA-SHA256, RSA-SHA512 or RSA-SHA1, SHA-256 or SHA-1 digests; see
//!   [`WssConfig::sign`]. Keys and certificates come from PEM, DER or PKCS#12
//!   ([`X509Credential`]).
//!
//! Responses are checked against an inbound policy, which by default requires what the client
//! itself sends: a client that sends a Timestamp requires a fresh Timestamp in every successful
//! response, within a clock skew (WSS 1.1 §10, [`WssConfig::clock_skew`]).
//!
//! Cryptography (random nonces, SHA-1, SHA-256) is aws-lc-rs. Secrets are never logged: the wire
//! log redacts `Password`, `Nonce`, `BinarySecurityToken` and `SignatureValue`
//! ([`crate::wire`]), and the `Debug` form of a configuration hides the password.
//!
//! # Examples
//!
//! ```
//! # #[cfg(feature = "reqwest")] {
//! use std::time::Duration;
//! use soapgen_runtime::wss::{UsernameToken, WssConfig};
//!
//! let wss = WssConfig::new()
//!     .username_token(UsernameToken::digest("alice", "s3cret"))
//!     .timestamp(Duration::from_secs(300));
//! let client = soapgen_runtime::Client::builder("http://127.0.0.1:8080/soap")
//!     .wss(wss)
//!     .build()?;
//! # let _ = client;
//! # }
//! # Ok::<(), soapgen_runtime::Error>(())
//! ```

mod c14n;
mod dn;
mod error;
mod header;
mod inbound;
mod rsa_sha1;
mod sign;
mod time;
mod timestamp;
mod username;
mod x509;

use std::sync::Arc;
use std::time::Duration;

pub use c14n::exclusive_c14n;
pub use error::WssError;
pub use inbound::InboundReport;
pub use sign::{
    DigestAlgorithm, KeyReference, SignatureAlgorithm, X509Signer, DS_NS, EXC_C14N,
    THUMBPRINT_SHA1, X509V3, X509_SKI,
};
pub use time::UtcTime;
pub use timestamp::Timestamp;
pub use username::{PasswordType, UsernameToken};
pub use x509::{Certificate, X509Credential};

pub(crate) use header::Outgoing;
pub(crate) use inbound::check_response;

/// The `wsse` namespace of WSS 1.0 (WSS 1.1 §4, "oasis-200401-wss-wssecurity-secext-1.0.xsd").
pub const WSSE_NS: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
/// The `wsu` (utility) namespace of WSS 1.0: `Id`, `Timestamp`, `Created`, `Expires` (WSS 1.1 §4).
pub const WSU_NS: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
/// The `wsse11` namespace of WSS 1.1 (§4).
pub const WSSE11_NS: &str = "http://docs.oasis-open.org/wss/oasis-wss-wssecurity-secext-1.1.xsd";
/// `Type` of a `PasswordText` password (UsernameToken Profile 1.1 §3.1).
pub const PASSWORD_TEXT: &str = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText";
/// `Type` of a `PasswordDigest` password (UsernameToken Profile 1.1 §3.1).
pub const PASSWORD_DIGEST: &str = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest";
/// `EncodingType` of base64 binary content such as a `Nonce` (WSS 1.1 §6.2).
pub const BASE64_BINARY: &str = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary";

/// Default time to live of an outgoing Timestamp when [`WssConfig::timestamp`] is not given one:
/// 300 s (as WSS4J's and WCF's defaults).
pub const DEFAULT_TIMESTAMP_TTL: Duration = Duration::from_secs(300);
/// Default clock skew allowed when checking an incoming Timestamp: 300 s (WCF's
/// `MaxClockSkew`).
pub const DEFAULT_CLOCK_SKEW: Duration = Duration::from_secs(300);

/// What a client does with WS-Security: the tokens it puts in every request and the policy its
/// responses must meet. Cheap to clone (shared). Consuming setters, as [`ClientBuilder`](crate::ClientBuilder).
///
/// Outgoing (each request, in this order inside `wsse:Security`): [`timestamp`](Self::timestamp),
/// the BinarySecurityToken of [`sign`](Self::sign), [`username_token`](Self::username_token),
/// the `ds:Signature`.
///
/// Inbound policy (each response with a 2xx HTTP status; a SOAP fault is reported as
/// [`Error::Fault`](crate::Error::Fault) unchecked): by default a response must carry a Timestamp
/// iff the client sends one ([`require_timestamp`](Self::require_timestamp) overrides), checked
/// against the local clock with [`clock_skew`](Self::clock_skew) of tolerance.
#[derive(Clone, Debug, Default)]
#[must_use]
pub struct WssConfig {
    inner: Arc<ConfigInner>,
}

#[derive(Clone, Debug, Default)]
struct ConfigInner {
    username: Option<UsernameToken>,
    signer: Option<X509Signer>,
    timestamp_ttl: Option<Duration>,
    require_timestamp: Option<bool>,
    clock_skew: Option<Duration>,
}

impl WssConfig {
    /// An empty configuration: an empty `wsse:Security` header and no inbound requirement until
    /// something is added.
    pub fn new() -> Self {
        Self::default()
    }

    fn edit(mut self, f: impl FnOnce(&mut ConfigInner)) -> Self {
        f(Arc::make_mut(&mut self.inner));
        self
    }

    /// Sends `token` in every request (WSS UsernameToken Profile 1.1 §3); a `PasswordDigest`
    /// token gets a fresh 16-byte nonce and the current time as `Created` each time.
    pub fn username_token(self, token: UsernameToken) -> Self {
        self.edit(|c| c.username = Some(token))
    }

    /// Sends a `wsu:Timestamp` (WSS 1.1 §10) in every request: `Created` = now (UTC, milliseconds),
    /// `Expires` = now + `ttl` (whole milliseconds; a zero `ttl` means [`DEFAULT_TIMESTAMP_TTL`]).
    /// Also makes the inbound policy require a Timestamp in responses, unless
    /// [`require_timestamp`](Self::require_timestamp) says otherwise.
    pub fn timestamp(self, ttl: Duration) -> Self {
        let ttl = if ttl.is_zero() {
            DEFAULT_TIMESTAMP_TTL
        } else {
            ttl
        };
        self.edit(|c| c.timestamp_ttl = Some(ttl))
    }

    /// Signs every request (WSS 1.1 §8): the Body (given a `wsu:Id`) and, if one is sent, the
    /// Timestamp, as [`X509Signer`] describes.
    ///
    /// Incoming signatures are not verified yet, so a signing client does not yet require signed
    /// responses (only the Timestamp part of the inbound policy is in force).
    pub fn sign(self, signer: X509Signer) -> Self {
        self.edit(|c| c.signer = Some(signer))
    }

    /// Whether a successful response must carry a valid `wsu:Timestamp` in its `wsse:Security`
    /// header (WSS 1.1 §10). Default: `true` iff the client sends one ([`timestamp`](Self::timestamp)).
    /// A Timestamp that is present is always checked, required or not.
    pub fn require_timestamp(self, required: bool) -> Self {
        self.edit(|c| c.require_timestamp = Some(required))
    }

    /// The clock difference tolerated when checking an incoming Timestamp (default
    /// [`DEFAULT_CLOCK_SKEW`], 300 s): `Created` may be at most this far in the future, and
    /// `Expires` is honoured until this long after it passed.
    pub fn clock_skew(self, skew: Duration) -> Self {
        self.edit(|c| c.clock_skew = Some(skew))
    }

    /// The UsernameToken sent, if any.
    pub fn username(&self) -> Option<&UsernameToken> {
        self.inner.username.as_ref()
    }

    /// How requests are signed, if they are.
    pub fn signer(&self) -> Option<&X509Signer> {
        self.inner.signer.as_ref()
    }

    /// The time to live of the Timestamp sent, if one is.
    pub fn timestamp_ttl(&self) -> Option<Duration> {
        self.inner.timestamp_ttl
    }

    /// Whether responses must carry a Timestamp (see [`require_timestamp`](Self::require_timestamp)).
    pub fn requires_timestamp(&self) -> bool {
        self.inner
            .require_timestamp
            .unwrap_or(self.inner.timestamp_ttl.is_some())
    }

    /// The clock skew tolerated for incoming Timestamps.
    pub fn skew(&self) -> Duration {
        self.inner.clock_skew.unwrap_or(DEFAULT_CLOCK_SKEW)
    }
}

/// `n` random bytes from aws-lc-rs's system random generator.
pub(crate) fn random_bytes<const N: usize>() -> Result<[u8; N], WssError> {
    use aws_lc_rs::rand::SecureRandom;
    let mut out = [0u8; N];
    aws_lc_rs::rand::SystemRandom::new()
        .fill(&mut out)
        .map_err(|_| WssError::Random)?;
    Ok(out)
}

fn base64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}
