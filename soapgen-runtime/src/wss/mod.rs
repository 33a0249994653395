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
//!   ([`X509Credential`]);
//! - XML Encryption (WSS 1.1 §9) of the Body's content for a recipient's certificate: an
//!   `xenc:EncryptedData` in the Body, the per-request key wrapped in an `xenc:EncryptedKey` in
//!   the header; AES-GCM or AES-CBC ([`BlockEncryption`]), RSA-OAEP ([`KeyTransport`]); signed
//!   before or after encryption ([`EncryptionOrder`]); see [`WssConfig::encrypt`].
//!
//! Responses are checked against an inbound policy, which by default requires what the client
//! itself sends: a client that sends a Timestamp requires a fresh Timestamp in every successful
//! response (WSS 1.1 §10: created at most [`WssConfig::max_timestamp_age`] ago, 300 s, and at
//! most [`WssConfig::clock_skew`] ahead, 60 s, as WSS4J's defaults; not expired).
//!
//! Cryptography (random nonces, SHA-1, SHA-256, RSA, AES, 3DES) is aws-lc-rs. Secrets are never logged: the wire
//! log redacts `Password`, `Nonce`, `BinarySecurityToken`, `SignatureValue` and `CipherValue`
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

mod attachments;
mod bytes;
mod c14n;
mod config;
pub(crate) mod context;
mod decrypt;
mod dn;
mod encrypt;
mod endorse;
mod header;
mod inbound;
mod layer;
mod oaep;
mod path;
mod policy;
mod rsa_sha1;
mod sign;
mod symmetric;
mod time;
mod timestamp;
mod trust;
mod username;
mod verify;
mod x509;
mod xmlenc;

use std::time::Duration;

pub use crate::error::WssError;
pub use attachments::{
    AttachmentCoverage, CIPHERTEXT_TRANSFORM, COMPLETE, COMPLETE_SIGNATURE_TRANSFORM, CONTENT_ONLY,
    CONTENT_SIGNATURE_TRANSFORM,
};
pub(crate) use bytes::{base64, hex, random_bytes};
pub use c14n::{canonicalize, exclusive_c14n, C14nMethod};
pub use c14n::{C14N_10, C14N_11};
pub use config::{WssConfig, DEFAULT_MAX_SIGNATURE_REFERENCES, DEFAULT_MIN_RSA_KEY_BITS};
pub use context::{SecureConversationToken, WST_13_NS, WST_2005_NS};
pub use encrypt::{EncryptionOrder, X509Encryptor, ENCRYPTED_KEY_SHA1, ENCRYPTED_KEY_TOKEN};
pub use endorse::{Endorsement, X509SupportingToken};
pub use path::{ElementPath, PathStep};
pub use policy::AlgorithmPolicy;
pub use sign::{
    DigestAlgorithm, KeyReference, SignatureAlgorithm, X509Signer, DS_NS, EXC_C14N,
    THUMBPRINT_SHA1, X509V3, X509_SKI,
};
pub use symmetric::{
    SecureConversation, SymmetricBinding, DEFAULT_LABEL, HMAC_SHA1, WSC_13_NS, WSC_2005_NS,
};
pub use time::UtcTime;
pub use timestamp::Timestamp;
pub use trust::TrustStore;
pub use username::{PasswordType, UsernameToken, DERIVED_KEY_ITERATIONS};
pub use verify::{InboundReport, Layout, MessagePart, STR_TRANSFORM, X509_PKCS7, X509_PKIPATH};
pub use x509::{Certificate, X509Credential};
pub use xmlenc::{
    BlockEncryption, KeyTransport, MGF1_SHA1, MGF1_SHA256, RSA_OAEP_XENC11, XENC11_NS,
    XENC_CONTENT, XENC_ELEMENT, XENC_NS,
};

pub(crate) use header::{Outgoing, Sent};

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
/// Default clock skew allowed when checking an incoming Timestamp or UsernameToken `Created`:
/// 60 s (WSS4J's `timeStampFutureTTL` and `utFutureTTL`; WCF's `MaxClockSkew` is 300 s).
pub const DEFAULT_CLOCK_SKEW: Duration = Duration::from_secs(60);
/// Default maximum age of an incoming Timestamp or UsernameToken `Created`: 300 s (WSS4J's
/// `timeStampTTL` and `utTTL`).
pub const DEFAULT_MAX_TIMESTAMP_AGE: Duration = Duration::from_secs(300);
