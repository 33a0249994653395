//! The supporting tokens of a message's policy (WS-SecurityPolicy 1.2 §5.4, §8): a UsernameToken,
//! an X.509 endorsing token, an X.509 token that does not endorse.

use super::X509Token;

/// A UsernameToken a supporting tokens assertion demands (§5.4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct UsernameTokenPolicy {
    /// `sp:HashPassword`: a password digest (UsernameToken Profile 1.0 §3.1).
    pub digest: bool,
    /// SP 1.3 `sp13:Nonce` / `sp13:Created`: a Nonce and Created with a plaintext password.
    pub nonce: bool,
    /// Covered by the message signature (`sp:SignedSupportingTokens` and the like in an
    /// asymmetric or symmetric binding).
    pub signed: bool,
    /// Encrypted (`sp:SignedEncryptedSupportingTokens`, `sp:EncryptedSupportingTokens`).
    pub encrypted: bool,
    /// `sp:NoPassword`: the username alone ([`PasswordType::None`](crate::wss::PasswordType::None)).
    pub no_password: bool,
    /// An endorsing token (`sp:EndorsingSupportingTokens` and the like, §8.3): its password
    /// derives the key of a signature ([`PasswordType::DerivedKey`](crate::wss::PasswordType::DerivedKey),
    /// UsernameToken Profile 1.1 §4), over the Timestamp under TLS, over the message signature
    /// under a SymmetricBinding.
    pub endorses: bool,
}

impl UsernameTokenPolicy {
    /// A token with the password in clear text.
    pub const fn text() -> Self {
        UsernameTokenPolicy {
            digest: false,
            nonce: false,
            signed: false,
            encrypted: false,
            no_password: false,
            endorses: false,
        }
    }

    /// A token with a password digest (always with Nonce and Created).
    pub const fn digest() -> Self {
        UsernameTokenPolicy {
            digest: true,
            nonce: true,
            signed: false,
            encrypted: false,
            no_password: false,
            endorses: false,
        }
    }

    /// A token without password (`sp:NoPassword`, SP 1.2 §5.4.1).
    pub const fn no_password() -> Self {
        UsernameTokenPolicy {
            digest: false,
            nonce: false,
            signed: false,
            encrypted: false,
            no_password: true,
            endorses: false,
        }
    }

    /// An endorsing token: its password derives the key that signs.
    pub const fn endorses(mut self) -> Self {
        self.endorses = true;
        self
    }

    /// With Nonce and Created.
    pub const fn nonce(mut self) -> Self {
        self.nonce = true;
        self
    }

    /// Covered by the message signature.
    pub const fn signed(mut self) -> Self {
        self.signed = true;
        self
    }

    /// Encrypted.
    pub const fn encrypted(mut self) -> Self {
        self.encrypted = true;
        self
    }
}

/// An X.509 endorsing supporting token (§8.3, §8.4, §8.7, §8.8): a second signature, by another key, over
/// the message signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct EndorsingToken {
    /// The token.
    pub token: X509Token,
    /// `sp:SignedEndorsingSupportingTokens`: the message signature covers it.
    pub signed: bool,
    /// `sp:EndorsingEncryptedSupportingTokens`, `sp:SignedEndorsingEncryptedSupportingTokens`
    /// (§8.7, §8.8) under a message-security binding: the token travels encrypted under the
    /// request's encryption key (over TLS the transport encrypts it).
    pub encrypted: bool,
    /// Its own `sp:SignedParts` has the Body: the endorsing signature covers it too.
    pub covers_body: bool,
    /// The header blocks its own `sp:SignedParts` names: (namespace, local name; empty for every
    /// block of the namespace); over TLS the endorsing signature covers them too.
    pub headers: &'static [(&'static str, &'static str)],
}

impl EndorsingToken {
    /// An endorsing `token`.
    pub const fn new(token: X509Token) -> Self {
        EndorsingToken {
            token,
            signed: false,
            encrypted: false,
            covers_body: false,
            headers: &[],
        }
    }

    /// Covered by the message signature.
    pub const fn signed(mut self) -> Self {
        self.signed = true;
        self
    }

    /// Encrypted under the request's encryption key.
    pub const fn encrypted(mut self) -> Self {
        self.encrypted = true;
        self
    }

    /// Also covers the Body.
    pub const fn covers_body(mut self) -> Self {
        self.covers_body = true;
        self
    }

    /// Also covers these header blocks (namespace, local name).
    pub const fn headers(mut self, headers: &'static [(&'static str, &'static str)]) -> Self {
        self.headers = headers;
        self
    }
}

/// An X.509 supporting token that does not endorse (§8.1 `sp:SupportingTokens`, §8.2
/// `sp:SignedSupportingTokens`, §8.5 `sp:SignedEncryptedSupportingTokens`, §8.6
/// `sp:EncryptedSupportingTokens`): the client's certificate, sent when the token's
/// `sp:IncludeToken` says so; signed and encrypted under a message-security binding as its
/// assertion says (over TLS the transport protects it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct SupportingX509Token {
    /// The token.
    pub token: X509Token,
    /// Covered by the message signature.
    pub signed: bool,
    /// Encrypted under the request's encryption key.
    pub encrypted: bool,
}

impl SupportingX509Token {
    /// A supporting `token`, neither signed nor encrypted.
    pub const fn new(token: X509Token) -> Self {
        SupportingX509Token {
            token,
            signed: false,
            encrypted: false,
        }
    }

    /// Covered by the message signature.
    pub const fn signed(mut self) -> Self {
        self.signed = true;
        self
    }

    /// Encrypted under the request's encryption key.
    pub const fn encrypted(mut self) -> Self {
        self.encrypted = true;
        self
    }
}

/// An `sp:SecureConversationToken` (WS-SecurityPolicy 1.2 §5.4.7) in an
/// `sp:EndorsingSupportingTokens` over TLS: the client establishes a WS-SecureConversation
/// security context with the service under the token's `sp:BootstrapPolicy` and endorses each
/// request with the context's key ([`SecureConversationToken`](crate::wss::SecureConversationToken)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct SecureConversationPolicy {
    /// The WS-SecureConversation (and WS-Trust) version: February 2005 for a WS-SecurityPolicy
    /// 1.1 token, 1.3 otherwise.
    pub version: crate::wss::SecureConversation,
    /// The `sp:BootstrapPolicy`: what the token request (`RequestSecurityToken`) and its
    /// response must be.
    pub bootstrap: &'static super::OperationPolicy,
    /// The header blocks its own `sp:SignedParts` names: (namespace, local name); the endorsing
    /// signature covers them when the request has them.
    pub headers: &'static [(&'static str, &'static str)],
    /// `sp:MustNotSendCancel`: the context is left to expire, never cancelled.
    pub no_cancel: bool,
}

impl SecureConversationPolicy {
    /// A token of `version` bootstrapped as `bootstrap` says.
    pub const fn new(
        version: crate::wss::SecureConversation,
        bootstrap: &'static super::OperationPolicy,
    ) -> Self {
        SecureConversationPolicy {
            version,
            bootstrap,
            headers: &[],
            no_cancel: false,
        }
    }

    /// The context is never cancelled (`sp:MustNotSendCancel`).
    pub const fn no_cancel(mut self) -> Self {
        self.no_cancel = true;
        self
    }

    /// Also covers these header blocks (namespace, local name).
    pub const fn headers(mut self, headers: &'static [(&'static str, &'static str)]) -> Self {
        self.headers = headers;
        self
    }
}
