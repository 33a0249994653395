//! The credentials a port's WS-SecurityPolicy needs: what the user supplies, the policy the rest.

use std::fmt;

use crate::wss::{Certificate, TrustStore, X509Credential};

/// What a client meeting a WS-SecurityPolicy needs besides the policy itself: a username and
/// password (UsernameToken, HTTP authentication), the client's signing key and certificate
/// (the initiator token; it also decrypts encrypted responses), the service's certificate
/// (requests are encrypted for it; a response signature by it is trusted), and the trust
/// anchors of the service's signing certificate. Which ones a port needs: `soapgen inspect`
/// lists them, and [`ClientBuilder::build`](crate::ClientBuilder::build) names a missing one
/// ([`WssError::MissingCredential`](crate::wss::WssError::MissingCredential)).
///
/// The TLS side of an HTTPS transport (trust anchors, a client certificate) is the transport's:
/// [`ClientBuilder::trust_anchors`](crate::ClientBuilder::trust_anchors) and
/// [`ClientBuilder::client_identity`](crate::ClientBuilder::client_identity).
#[derive(Clone, Default)]
#[must_use]
pub struct Credentials {
    pub(crate) username: Option<(String, String)>,
    pub(crate) signing: Option<X509Credential>,
    pub(crate) issuers: Vec<Certificate>,
    pub(crate) endorsing: Option<X509Credential>,
    pub(crate) service_certificate: Option<Certificate>,
    pub(crate) trust: Option<TrustStore>,
}

impl Credentials {
    /// No credential yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The username and password of UsernameTokens and HTTP authentication.
    pub fn username(mut self, username: impl Into<String>, password: impl Into<String>) -> Self {
        self.username = Some((username.into(), password.into()));
        self
    }

    /// The client's key and certificate: it signs requests and decrypts responses.
    pub fn signing(mut self, credential: X509Credential) -> Self {
        self.signing = Some(credential);
        self
    }

    /// The certificates that issued the signing certificate, the issuing CA first: sent with it
    /// when the policy's initiator token is a PkiPath (X.509 Token Profile 1.1 §3.1).
    pub fn issuers(mut self, issuers: Vec<Certificate>) -> Self {
        self.issuers = issuers;
        self
    }

    /// The key and certificate of an endorsing supporting token (WS-SecurityPolicy 1.2 §8.3;
    /// default: the signing key).
    pub fn endorsing(mut self, credential: X509Credential) -> Self {
        self.endorsing = Some(credential);
        self
    }

    /// The service's certificate: requests are encrypted for it, and it is known when the
    /// service's signature names it without sending it.
    pub fn service_certificate(mut self, certificate: Certificate) -> Self {
        self.service_certificate = Some(certificate);
        self
    }

    /// The trust anchors (and known certificates) the service's signatures are checked with.
    pub fn trust(mut self, store: TrustStore) -> Self {
        self.trust = Some(store);
        self
    }
}

impl fmt::Debug for Credentials {
    /// Which credentials are given; never a password or key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("username", &self.username.as_ref().map(|(u, _)| u))
            .field("signing", &self.signing.is_some())
            .field("issuers", &self.issuers.len())
            .field("endorsing", &self.endorsing.is_some())
            .field("service_certificate", &self.service_certificate.is_some())
            .field("trust", &self.trust.is_some())
            .finish()
    }
}

/// The credentials a port's policy needs and the [`Credentials`] lack: (assertion, what is
/// missing), each once, in the order the policy is applied.
#[derive(Debug, Default)]
pub(super) struct Lacking(pub(super) Vec<(&'static str, &'static str)>);

impl Lacking {
    /// `value`; when it is `None`, notes that `assertion` needs `credential`, so that the rest
    /// of the policy is applied on and every missing credential is named together.
    pub(super) fn need<T>(
        &mut self,
        value: Option<T>,
        assertion: &'static str,
        credential: &'static str,
    ) -> Option<T> {
        if value.is_none() && !self.0.contains(&(assertion, credential)) {
            self.0.push((assertion, credential));
        }
        value
    }
}
