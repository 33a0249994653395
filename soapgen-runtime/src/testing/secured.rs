//! WS-Security on the service side of the fake: each request checked against the service's
//! policy before the implementation sees it, each answer secured (WSS 1.1).

use super::fake::{Dispatch, DispatchFuture, ServiceRequest};
use crate::fault::Fault;
use crate::types::QName;
use crate::wss::{UtcTime, WssConfig, WssError, WSSE_NS};
use crate::SoapVersion;

/// A [`Dispatch`] behind WS-Security (WSS 1.1), as a secured service is: each request's
/// `wsse:Security` header is checked against the inbound policy of the service's own
/// [`WssConfig`] with [`WssConfig::process_request`] (Timestamp, signatures against its
/// [`TrustStore`](crate::wss::TrustStore), EncryptedKey and EncryptedData with its
/// [`decrypt_with`](WssConfig::decrypt_with) key, the UsernameToken of
/// [`expect_username_token`](WssConfig::expect_username_token), the parts it requires signed or
/// encrypted), and the service reads the envelope as the check left it (decrypted). Each answer
/// then carries the `wsse:Security` block the same configuration writes, as a client's request
/// does: Timestamp ([`timestamp`](WssConfig::timestamp)), the Body signed
/// ([`sign`](WssConfig::sign)), encrypted ([`encrypt`](WssConfig::encrypt)).
///
/// A request that fails the check is answered with a SOAP fault of WSS 1.1 §12, its reason the
/// check's error: `wsse:FailedAuthentication` (a wrong user or password, an untrusted signer),
/// `wsse:FailedCheck` (a signature or decryption that fails, a part not signed or encrypted as
/// required, a replay), `wsse:MessageExpired` (the Timestamp), `wsse:UnsupportedAlgorithm`,
/// `wsse:InvalidSecurityToken`, else `wsse:InvalidSecurity`: the `faultcode` in SOAP 1.1, a
/// `Subcode` of `Sender` in SOAP 1.2. Faults are secured as answers are (these and the
/// implementation's), so a client that checks the signature of every response (zeep's
/// `BinarySignature` does) reads them.
///
/// The defaults are a client's, the same way round: a configuration that signs its answers
/// requires signed requests, and one that encrypts them requires encrypted requests, unless
/// [`require_signature`](WssConfig::require_signature) and
/// [`require_encryption`](WssConfig::require_encryption) say otherwise (a service that takes a
/// UsernameToken alone and signs its answers sets `require_signature(false)`).
///
/// The service side of a SymmetricBinding (a key the client chose, WS-SecurityPolicy 1.3 §7.4)
/// and `wsse11:SignatureConfirmation`s in answers (WSS 1.1 §8.5) are not implemented:
/// [`new`](Self::new) refuses the first, and the second is not sent.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "testing-server")]
/// # async fn run(service: std::sync::Arc<dyn soapgen_runtime::testing::Dispatch>) {
/// use soapgen_runtime::testing::{Loopback, SecuredService};
/// use soapgen_runtime::wss::WssConfig;
/// // A service that takes the requests of user `alice`, password `secret`.
/// let policy = WssConfig::new().expect_username_token("alice", "secret");
/// let secured = SecuredService::new(service, policy).unwrap();
/// let server = Loopback::serve(std::sync::Arc::new(secured), None).await.unwrap();
/// # drop(server);
/// # }
/// ```
pub struct SecuredService<D> {
    service: D,
    config: WssConfig,
}

impl<D> std::fmt::Debug for SecuredService<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SecuredService")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl<D: Dispatch> SecuredService<D> {
    /// `service` behind the WS-Security of `config`: its inbound policy for requests, its
    /// outbound security for answers.
    ///
    /// # Errors
    ///
    /// [`WssError::Encode`] for a configuration with a
    /// [`SymmetricBinding`](crate::wss::SymmetricBinding), whose service side is not implemented;
    /// [`WssError::NothingTrusted`] for one that requires signed requests but trusts nothing.
    pub fn new(service: D, config: WssConfig) -> Result<Self, WssError> {
        if let Some(e) = config.unverifiable() {
            return Err(e);
        }
        if config.symmetric_binding().is_some() {
            return Err(WssError::Encode(
                "the service side of a SymmetricBinding is not implemented: secure the fake \
                 with X.509 signatures and encryption, UsernameTokens and Timestamps"
                    .to_owned(),
            ));
        }
        Ok(SecuredService { service, config })
    }
}

impl<D: Dispatch> Dispatch for SecuredService<D> {
    fn dispatch<'a>(&'a self, request: &'a ServiceRequest) -> DispatchFuture<'a> {
        Box::pin(async move {
            let checked = self
                .config
                .process_request(request.raw_envelope(), UtcTime::now());
            let secured = match checked {
                Ok((report, envelope)) => request.secured(envelope, self.config.clone(), report),
                Err(e) => Err(Box::new(security_fault(request.version(), &e))),
            };
            match secured {
                Ok(secured) => self.service.dispatch(&secured).await,
                Err(fault) => request.fault_secured(fault, Some(&self.config)),
            }
        })
    }
}

/// The fault answering a request that failed the service's WS-Security check with `error`
/// (WSS 1.1 §12).
pub(crate) fn security_fault(version: SoapVersion, error: &WssError) -> Fault {
    use WssError as E;
    let code = match error {
        E::UsernameToken(_)
        | E::UntrustedCertificate { .. }
        | E::UntrustedKey(_)
        | E::SubjectNotAllowed { .. }
        | E::KeyUsageNotAllowed { .. }
        | E::ExtendedKeyUsageNotAllowed { .. }
        | E::WeakKey { .. } => "FailedAuthentication",
        E::InvalidSignature(_)
        | E::DecryptionFailed
        | E::Canonicalization(_)
        | E::NotSigned { .. }
        | E::NotEncrypted(_)
        | E::Replay(_) => "FailedCheck",
        E::TimestampExpired { .. } | E::TimestampTooOld { .. } | E::TimestampInFuture { .. } => {
            "MessageExpired"
        }
        E::AlgorithmNotAllowed { .. } => "UnsupportedAlgorithm",
        E::Certificate { .. } | E::Key { .. } | E::KeyReference { .. } => "InvalidSecurityToken",
        _ => "InvalidSecurity",
    };
    let code = QName::new(WSSE_NS, code);
    let reason = format!("the request's WS-Security header was refused: {error}");
    match version {
        SoapVersion::Soap11 => Fault::new(version, code, reason),
        SoapVersion::Soap12 => {
            let mut fault = Fault::sender(version, reason);
            fault.subcodes.push(code);
            fault
        }
    }
}
