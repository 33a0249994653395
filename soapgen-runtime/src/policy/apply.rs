//! A port's policy and the user's credentials made into the WS-Security configuration of each
//! operation ([`WssConfig`]): the request built as the policy says, its response checked
//! against what the policy requires of it, and a response that falls short reported with the
//! assertion it does not meet ([`WssError::PolicyNotMet`]).

use std::time::Duration;

use super::model::{
    Binding, HttpAuthentication, MessagePolicy, OperationPolicy, PortPolicy, TransportBinding,
    X509Token,
};
use super::Credentials;
use crate::error::{EncodeError, Error};
use crate::fault::Fault;
use crate::message::{
    InboundBlock, Incoming, LayerCall, MessageLayer, Outbound, RequestMessage, SoapVersion, Verdict,
};
use crate::wss::{
    AlgorithmPolicy, EncryptionOrder, KeyReference, UsernameToken, WssConfig, WssError,
    X509Encryptor, X509Signer,
};
use crate::xml::XmlWriter;

/// How long a request's Timestamp is valid (what CXF and WSS4J write: 300 s).
const TIMESTAMP_TTL: Duration = Duration::from_secs(300);

/// The WS-Security of one port: each operation's configuration, made once.
#[derive(Debug)]
pub(crate) struct PolicyLayer {
    port: &'static str,
    operations: Vec<(&'static OperationPolicy, Option<WssConfig>)>,
}

impl PolicyLayer {
    /// The layer of `port` at `endpoint` with `credentials`.
    ///
    /// # Errors
    ///
    /// [`WssError::MissingCredential`] naming what the policy needs and was not given;
    /// [`WssError::HttpsRequired`] for a transport binding at a plain HTTP endpoint; a key
    /// reference the certificate cannot give ([`WssError::Certificate`]).
    pub(crate) fn new(
        port: &'static PortPolicy,
        credentials: &Credentials,
        endpoint: &str,
    ) -> Result<Self, WssError> {
        let mut operations = Vec::new();
        for op in port.operations {
            let needs_https = [&op.request, &op.response]
                .iter()
                .any(|m| matches!(m.binding, Some(Binding::Transport(_))));
            if needs_https && !endpoint.to_ascii_lowercase().starts_with("https://") {
                return Err(WssError::HttpsRequired {
                    port: port.port.to_owned(),
                    endpoint: endpoint.to_owned(),
                });
            }
            operations.push((op, configure(port, op, credentials)?));
        }
        Ok(PolicyLayer {
            port: port.port,
            operations,
        })
    }
}

impl PolicyLayer {
    /// Whether some operation's transport binding demands a TLS client certificate.
    pub(crate) fn client_certificate(&self) -> bool {
        self.transport().any(|t| t.client_certificate)
    }

    /// The HTTP authentication some operation's `sp:HttpsToken` demands, with the credentials'
    /// username and password.
    ///
    /// # Errors
    ///
    /// [`WssError::MissingCredential`] when the credentials have no username.
    pub(crate) fn http_authentication(
        &self,
        creds: &Credentials,
    ) -> Result<Option<(HttpAuthentication, String, String)>, WssError> {
        let Some(auth) = self.transport().find_map(|t| t.http_authentication) else {
            return Ok(None);
        };
        let (user, password) =
            creds
                .username
                .clone()
                .ok_or_else(|| WssError::MissingCredential {
                    port: self.port.to_owned(),
                    assertion: "sp:HttpsToken",
                    credential: "a username and password (HTTP authentication)",
                })?;
        Ok(Some((auth, user, password)))
    }

    fn transport(&self) -> impl Iterator<Item = TransportBinding> + '_ {
        self.operations
            .iter()
            .flat_map(|(op, _)| [op.request.binding, op.response.binding])
            .filter_map(|b| match b {
                Some(Binding::Transport(t)) => Some(t),
                _ => None,
            })
    }
}

fn missing(port: &PortPolicy, assertion: &'static str, credential: &'static str) -> WssError {
    WssError::MissingCredential {
        port: port.port.to_owned(),
        assertion,
        credential,
    }
}

/// How a token the client does not send is named (X.509 Token Profile 1.1 §3.2): as the policy
/// requires, else by issuer and serial number.
fn reference(token: &X509Token, sent: bool) -> KeyReference {
    if sent {
        KeyReference::DirectReference
    } else if token.thumbprint {
        KeyReference::ThumbprintSha1
    } else if token.key_identifier {
        KeyReference::SubjectKeyIdentifier
    } else {
        KeyReference::X509IssuerSerial
    }
}

/// The WS-Security configuration of `op`, or `None` when neither message is secured.
fn configure(
    port: &PortPolicy,
    op: &OperationPolicy,
    creds: &Credentials,
) -> Result<Option<WssConfig>, WssError> {
    let (req, resp) = (&op.request, &op.response);
    if req.is_empty() && resp.is_empty() {
        return Ok(None);
    }
    let mut cfg = WssConfig::new();
    if let Some(u) = req.username_token {
        let (user, password) = creds
            .username
            .clone()
            .ok_or_else(|| missing(port, "sp:UsernameToken", "a username and password"))?;
        cfg = cfg.username_token(if u.digest {
            UsernameToken::digest(user, password)
        } else {
            UsernameToken::text(user, password).with_nonce(u.nonce)
        });
    }
    let timestamp = |m: &MessagePolicy| match m.binding {
        Some(Binding::Transport(t)) => t.timestamp,
        Some(Binding::Asymmetric(a)) => a.timestamp,
        None => false,
    };
    if timestamp(req) {
        cfg = cfg.timestamp(TIMESTAMP_TTL);
    }
    if let Some(token) = req.endorsing {
        let cred = creds.signing.clone().ok_or_else(|| {
            missing(
                port,
                "sp:EndorsingSupportingTokens",
                "the client's signing key and certificate",
            )
        })?;
        let mut signer = X509Signer::new(cred)
            .key_reference(reference(&token, token.inclusion.in_requests()))?;
        if let Some(Binding::Transport(TransportBinding {
            suite: Some(suite), ..
        })) = req.binding
        {
            signer = signer
                .signature_algorithm(suite.signature)
                .digest(suite.digest);
        }
        cfg = cfg.sign(signer);
    }
    if let Some(Binding::Asymmetric(a)) = req.binding {
        if let (Some(token), false) = (a.initiator_signature, req.signed.is_empty()) {
            let cred = creds.signing.clone().ok_or_else(|| {
                missing(
                    port,
                    "sp:InitiatorToken",
                    "the client's signing key and certificate",
                )
            })?;
            let mut signer = X509Signer::new(cred)
                .signature_algorithm(a.suite.signature)
                .digest(a.suite.digest)
                .key_reference(reference(&token, token.inclusion.in_requests()))?;
            for (ns, name) in req.signed.headers {
                signer = signer.sign_header(ns, name);
            }
            cfg = cfg.sign(signer);
        }
        if let (Some(token), false) = (a.recipient_encryption, req.encrypted.is_empty()) {
            let cert = creds
                .service_certificate
                .clone()
                .ok_or_else(|| missing(port, "sp:RecipientToken", "the service's certificate"))?;
            let mut enc = X509Encryptor::new(cert)
                .block_encryption(a.suite.encryption)
                .key_transport(a.suite.key_transport)
                .key_reference(reference(&token, false))?
                .order(if a.encrypt_before_signing {
                    EncryptionOrder::EncryptThenSign
                } else {
                    EncryptionOrder::SignThenEncrypt
                });
            for (ns, name) in req.encrypted.headers {
                enc = enc.encrypt_header(ns, name);
            }
            cfg = cfg.encrypt(enc);
        }
    }
    inbound(port, resp, creds, cfg.require_timestamp(timestamp(resp))).map(Some)
}

/// What the response must be.
fn inbound(
    port: &PortPolicy,
    resp: &MessagePolicy,
    creds: &Credentials,
    mut cfg: WssConfig,
) -> Result<WssConfig, WssError> {
    let Some(Binding::Asymmetric(a)) = resp.binding else {
        return Ok(cfg.require_signature(false).require_encryption(false));
    };
    let signed = a.recipient_signature.is_some() && !resp.signed.is_empty();
    cfg = cfg
        .require_signature(signed)
        .algorithms(AlgorithmPolicy::only(
            a.suite.signature,
            a.suite.digest,
            a.suite.encryption,
            a.suite.key_transport,
        ));
    if signed {
        let mut trust = creds.trust.clone().ok_or_else(|| {
            missing(
                port,
                "sp:RecipientToken",
                "the trust anchors of the service's signing certificate",
            )
        })?;
        if let Some(c) = &creds.service_certificate {
            trust = trust.known_certificate(c.clone());
        }
        cfg = cfg.trust(trust);
        for (ns, name) in resp.signed.headers {
            cfg = cfg.require_signed_header(ns, name);
        }
    }
    let encrypted = resp.encrypted.body || !resp.encrypted.headers.is_empty();
    cfg = cfg.require_encryption(resp.encrypted.body);
    if encrypted {
        let key = creds.signing.clone().ok_or_else(|| {
            missing(
                port,
                "sp:InitiatorToken",
                "the client's key (it decrypts the responses)",
            )
        })?;
        cfg = cfg.decrypt_with(key);
        for (ns, name) in resp.encrypted.headers {
            cfg = cfg.require_encrypted_header(ns, name);
        }
    }
    Ok(cfg.signature_confirmation(resp.signature_confirmation))
}

/// The assertion of `resp`'s policy a response check failure means it does not meet.
fn assertion_of(e: &WssError, resp: &MessagePolicy) -> &'static str {
    match e {
        WssError::MissingTimestamp
        | WssError::MalformedTimestamp(_)
        | WssError::TimestampExpired { .. }
        | WssError::TimestampTooOld { .. }
        | WssError::TimestampInFuture { .. } => "sp:IncludeTimestamp",
        WssError::NotSigned { .. } | WssError::InvalidSignature(_) => "sp:SignedParts",
        WssError::NotEncrypted(_) | WssError::DecryptionFailed => "sp:EncryptedParts",
        WssError::MissingSignatureConfirmation { .. }
        | WssError::SignatureConfirmationMismatch(_)
        | WssError::UnsignedSignatureConfirmation(_) => "sp:RequireSignatureConfirmation",
        WssError::AlgorithmNotAllowed { .. } => "sp:AlgorithmSuite",
        WssError::UntrustedCertificate { .. } | WssError::UntrustedKey(_) => "sp:RecipientToken",
        _ => match resp.binding {
            Some(Binding::Transport(_)) => "sp:TransportBinding",
            Some(Binding::Asymmetric(_)) => "sp:AsymmetricBinding",
            None => "sp:SupportingTokens",
        },
    }
}

/// `e` as a failure to meet `resp`'s policy, when it is a WS-Security check's.
fn annotate(e: Error, resp: &MessagePolicy) -> Error {
    match e {
        Error::Security(cause) if !matches!(*cause, WssError::PolicyNotMet { .. }) => {
            Error::Security(Box::new(WssError::PolicyNotMet {
                assertion: assertion_of(&cause, resp),
                cause,
            }))
        }
        other => other,
    }
}

impl MessageLayer for PolicyLayer {
    /// The operation's WS-Security, if its policy has any.
    ///
    /// # Errors
    ///
    /// As [`WssConfig`]'s layer.
    fn start(&self, call: &Outbound<'_>) -> Result<Option<Box<dyn LayerCall>>, EncodeError> {
        let Some((op, Some(cfg))) = self
            .operations
            .iter()
            .find(|(op, _)| op.operation == call.operation.name)
        else {
            return Ok(None);
        };
        Ok(cfg.start(call)?.map(|inner| {
            Box::new(Checked {
                inner,
                response: &op.response,
            }) as Box<dyn LayerCall>
        }))
    }
}

/// One exchange: WS-Security's own part, its response failures named by the policy's
/// assertion.
#[derive(Debug)]
struct Checked {
    inner: Box<dyn LayerCall>,
    response: &'static MessagePolicy,
}

impl LayerCall for Checked {
    fn namespace(&self) -> Option<(&'static str, &'static str)> {
        self.inner.namespace()
    }

    fn write_header(&mut self, w: &mut XmlWriter, version: SoapVersion) -> Result<(), EncodeError> {
        self.inner.write_header(w, version)
    }

    fn start_body(&mut self, w: &mut XmlWriter, at: usize) -> Result<(), EncodeError> {
        self.inner.start_body(w, at)
    }

    fn end_body(&mut self, w: &XmlWriter) {
        self.inner.end_body(w)
    }

    fn finish(&mut self, message: &mut RequestMessage) -> Result<(), EncodeError> {
        self.inner.finish(message)
    }

    fn no_envelope(&self, ok: bool) -> Option<String> {
        self.inner.no_envelope(ok)
    }

    fn inbound(&mut self, response: &Incoming<'_>) -> Verdict {
        match self.inner.inbound(response) {
            Verdict::Refuse(e) => Verdict::Refuse(annotate(e, self.response)),
            v => v,
        }
    }

    fn header_block(
        &mut self,
        block: &mut InboundBlock<'_, '_>,
    ) -> Result<bool, crate::DecodeError> {
        self.inner.header_block(block)
    }

    fn reply(&mut self) -> Result<(), Error> {
        self.inner.reply().map_err(|e| annotate(e, self.response))
    }

    fn fault(&mut self, fault: &mut Fault) -> Result<(), Error> {
        self.inner
            .fault(fault)
            .map_err(|e| annotate(e, self.response))
    }
}
