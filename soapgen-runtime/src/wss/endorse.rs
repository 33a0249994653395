//! X.509 supporting tokens (WS-SecurityPolicy 1.2 §8): endorsing ones (§8.3–8.4, §8.7–8.8), a
//! second signature, by another X.509 key, over the message signature; and ones that only carry
//! a certificate (§8.1–8.2, §8.5–8.6).

use super::{Certificate, X509Signer};

/// An endorsing signature a client adds to every signed request (WS-SecurityPolicy 1.2 §8.3
/// `sp:EndorsingSupportingTokens`, §8.4 `sp:SignedEndorsingSupportingTokens`): after the message
/// signature of [`WssConfig::sign`](super::WssConfig::sign), a second `ds:Signature` by
/// [`signer`](Self::new)'s key whose References cover the message signature's `ds:Signature`
/// element (by its `Id`), and, as asked, the Body ([`cover_body`](Self::cover_body), an
/// `sp:SignedParts` inside the supporting token's policy) and its own BinarySecurityToken
/// ([`X509Signer::protect_token`]). Its algorithms, digest, key reference and token form
/// ([`X509Signer::pki_path`]) are the signer's own. With [`signed`](Self::signed) the message
/// signature covers the endorsing token too; with [`encrypted`](Self::encrypted) the token travels
/// encrypted under the request's encryption key.
///
/// A request with an endorsement but no message signature fails with
/// [`WssError::Encode`](super::WssError::Encode).
///
/// # Examples
///
/// ```no_run
/// use soapgen_runtime::wss::{Endorsement, WssConfig, X509Credential, X509Signer};
/// let me = X509Credential::from_pkcs12_file("client.p12", "changeit")?;
/// let endorser = X509Credential::from_pkcs12_file("endorser.p12", "changeit")?;
/// let wss = WssConfig::new()
///     .sign(X509Signer::new(me))
///     .endorse(Endorsement::new(X509Signer::new(endorser)).cover_body(true));
/// # Ok::<(), soapgen_runtime::wss::WssError>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct Endorsement {
    pub(crate) signer: X509Signer,
    pub(crate) body: bool,
    pub(crate) signed: bool,
    pub(crate) encrypted: bool,
}

impl Endorsement {
    /// An endorsing signature by `signer`, over the message signature only.
    pub fn new(signer: X509Signer) -> Self {
        Endorsement {
            signer,
            body: false,
            signed: false,
            encrypted: false,
        }
    }

    /// Whether the endorsing signature also covers the Body (default `false`): what an
    /// `sp:SignedParts` with `sp:Body` inside the supporting token's policy asks.
    pub fn cover_body(mut self, on: bool) -> Self {
        self.body = on;
        self
    }

    /// Whether the message signature also covers the endorsing token's BinarySecurityToken
    /// (default `false`; `sp:SignedEndorsingSupportingTokens`, WS-SecurityPolicy 1.2 §8.4). The
    /// token must then be in the message ([`KeyReference::DirectReference`](super::KeyReference),
    /// the default), else requests fail with [`WssError::Encode`](super::WssError::Encode).
    pub fn signed(mut self, on: bool) -> Self {
        self.signed = on;
        self
    }

    /// Whether the endorsing token's BinarySecurityToken is encrypted (default `false`;
    /// `sp:EndorsingEncryptedSupportingTokens` and `sp:SignedEndorsingEncryptedSupportingTokens`,
    /// WS-SecurityPolicy 1.2 §8.7–§8.8): an `xenc:EncryptedData` (Type Element) under the key
    /// that encrypts the Body, named by that key's ReferenceList and placed after the
    /// EncryptedKey, as CXF places it. It needs the token in the message
    /// ([`KeyReference::DirectReference`](super::KeyReference)), a request encryption
    /// ([`WssConfig::encrypt`](super::WssConfig::encrypt) or
    /// [`WssConfig::symmetric`](super::WssConfig::symmetric)) and signing before encrypting
    /// ([`EncryptionOrder::SignThenEncrypt`](super::EncryptionOrder)): the recipient must have
    /// decrypted the token before it checks the endorsing signature. Otherwise requests fail with
    /// [`WssError::Encode`](super::WssError::Encode). Over TLS (no message encryption) it is
    /// not needed: the transport encrypts the token.
    pub fn encrypted(mut self, on: bool) -> Self {
        self.encrypted = on;
        self
    }

    /// The endorsing signer.
    pub fn signer(&self) -> &X509Signer {
        &self.signer
    }
}

/// An X.509 supporting token that does not endorse (WS-SecurityPolicy 1.2 §8.1
/// `sp:SupportingTokens`, §8.2 `sp:SignedSupportingTokens`, §8.5
/// `sp:SignedEncryptedSupportingTokens`, §8.6 `sp:EncryptedSupportingTokens`): a certificate every
/// request carries as a `wsse:BinarySecurityToken` (X509v3, X.509 Token Profile 1.1 §3.1) with no
/// signature by its key. With [`signed`](Self::signed) the message signature covers it; with
/// [`encrypted`](Self::encrypted) it travels as an `xenc:EncryptedData` (Type Element) under the
/// request's encryption key, after the EncryptedKey that lists it. Under a SymmetricBinding it
/// comes before the message signature.
///
/// A signed token without a message signature ([`WssConfig::sign`](super::WssConfig::sign) or
/// [`WssConfig::symmetric`](super::WssConfig::symmetric)), or an encrypted one without a request
/// encryption or with [`EncryptionOrder::EncryptThenSign`](super::EncryptionOrder), fails the
/// request with [`WssError::Encode`](super::WssError::Encode). Over TLS, where the transport
/// protects it, neither is needed.
///
/// # Examples
///
/// ```no_run
/// use soapgen_runtime::wss::{Certificate, WssConfig, X509SupportingToken};
/// let mine = Certificate::from_pem(&std::fs::read("client.pem")?, "client.pem")?;
/// let wss = WssConfig::new().support(X509SupportingToken::new(mine));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct X509SupportingToken {
    pub(crate) certificate: Certificate,
    pub(crate) signed: bool,
    pub(crate) encrypted: bool,
}

impl X509SupportingToken {
    /// A token carrying `certificate`, neither signed nor encrypted.
    pub fn new(certificate: Certificate) -> Self {
        X509SupportingToken {
            certificate,
            signed: false,
            encrypted: false,
        }
    }

    /// Whether the message signature covers it (default `false`).
    pub fn signed(mut self, on: bool) -> Self {
        self.signed = on;
        self
    }

    /// Whether it is encrypted under the request's encryption key (default `false`).
    pub fn encrypted(mut self, on: bool) -> Self {
        self.encrypted = on;
        self
    }

    /// The certificate it carries.
    pub fn certificate(&self) -> &Certificate {
        &self.certificate
    }
}
