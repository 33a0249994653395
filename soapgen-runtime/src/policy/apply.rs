//! A port's policy and the user's credentials made into the WS-Security configuration of each
//! operation ([`WssConfig`]): the request built as the policy says, its response checked
//! against what the policy requires of it, and a response that falls short reported with the
//! assertion it does not meet ([`WssError::PolicyNotMet`]).

use std::time::Duration;

use super::credentials::Lacking;
use super::model::{
    AsymmetricBinding, Binding, HttpAuthentication, MessagePolicy, OperationPolicy, PortPolicy,
    Suite, SymmetricBinding, TransportBinding, X509Token, X509TokenType,
};
use super::tokens::SecureConversationPolicy;
use super::Credentials;
use crate::wss::{
    self, AlgorithmPolicy, DigestAlgorithm, EncryptionOrder, Endorsement, KeyReference, Layout,
    UsernameToken, WssConfig, WssError, X509Encryptor, X509Signer, X509SupportingToken,
};

/// How long a request's Timestamp is valid (what CXF and WSS4J write: 300 s).
const TIMESTAMP_TTL: Duration = Duration::from_secs(300);

/// The WS-Security of one port: each operation's configuration, made once.
#[derive(Debug)]
pub(crate) struct PolicyLayer {
    pub(super) port: &'static str,
    pub(super) operations: Vec<(&'static OperationPolicy, Option<WssConfig>)>,
}

/// Where every operation of a port keeps its WS-SecureConversation context (one per port).
type Slot = std::sync::Arc<crate::wss::context::ContextSlot>;

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
        let mut lacking = Lacking::default();
        let slot = Slot::default();
        for op in port.operations {
            if needs_https(op) && !is_https(endpoint) {
                return Err(WssError::HttpsRequired {
                    port: port.port.to_owned(),
                    endpoint: endpoint.to_owned(),
                });
            }
            operations.push((op, configure(op, credentials, &mut lacking, &slot)?));
        }
        // Every credential the policy needs and was not given, named at once.
        if let Some((&(assertion, credential), also)) = lacking.0.split_first() {
            return Err(WssError::MissingCredential {
                port: port.port.to_owned(),
                assertion,
                credential,
                also: also.to_vec(),
            });
        }
        Ok(PolicyLayer {
            port: port.port,
            operations,
        })
    }
}

impl PolicyLayer {
    /// Whether some operation has a transport binding: every address must be `https://`.
    pub(crate) fn https_required(&self) -> bool {
        self.operations.iter().any(|(op, _)| needs_https(op))
    }

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
                    credential:
                        "a username and password for HTTP authentication (Credentials::username)",
                    also: Vec::new(),
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

/// Whether a message of `op` has a transport binding: TLS must carry it.
pub(super) fn needs_https(op: &OperationPolicy) -> bool {
    [&op.request, &op.response]
        .iter()
        .any(|m| matches!(m.binding, Some(Binding::Transport(_))))
}

pub(super) fn is_https(endpoint: &str) -> bool {
    endpoint
        .get(..8)
        .is_some_and(|s| s.eq_ignore_ascii_case("https://"))
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
    op: &OperationPolicy,
    creds: &Credentials,
    lacking: &mut Lacking,
    slot: &Slot,
) -> Result<Option<WssConfig>, WssError> {
    let (req, resp) = (&op.request, &op.response);
    if req.is_empty() && resp.is_empty() {
        return Ok(None);
    }
    let mut cfg = WssConfig::new();
    let (timestamp, layout) = properties(req);
    if timestamp {
        cfg = cfg.timestamp(TIMESTAMP_TTL);
    }
    cfg = cfg.layout(layout);
    let user_token = req.username_token.and_then(|u| {
        let needed = if u.endorses {
            "a username and password (Credentials::username; the password derives the key that \
             signs, it is not sent)"
        } else if u.no_password {
            "a username (Credentials::username; the password is not sent)"
        } else {
            "a username and password (Credentials::username)"
        };
        lacking
            .need(creds.username.clone(), "sp:UsernameToken", needed)
            .map(|c| (u, c))
    });
    if let Some((u, (user, password))) = user_token {
        if u.endorses {
            // UsernameToken Profile 1.1 §4: the key its endorsing signature is made with.
            cfg = cfg.username_token_endorses(match req.binding {
                Some(Binding::Transport(t)) => t.suite.map_or(DigestAlgorithm::Sha1, |s| s.digest),
                Some(Binding::Symmetric(b)) => b.suite.digest,
                Some(Binding::Asymmetric(a)) => a.suite.digest,
                None => DigestAlgorithm::Sha1,
            });
        }
        cfg = cfg.username_token(if u.endorses {
            UsernameToken::derived_key(user, password)
        } else if u.no_password {
            UsernameToken::without_password(user).with_nonce(u.nonce)
        } else if u.digest {
            UsernameToken::digest(user, password)
        } else {
            UsernameToken::text(user, password).with_nonce(u.nonce)
        });
    }
    cfg = match req.binding {
        Some(Binding::Transport(t)) => transport(req, t, creds, cfg, lacking, slot)?,
        Some(Binding::Asymmetric(a)) => asymmetric(req, a, creds, cfg, lacking)?,
        Some(Binding::Symmetric(b)) => symmetric(req, b, creds, cfg, lacking, slot)?,
        None => cfg,
    };
    if let Some(t) = req
        .supporting_x509
        .filter(|t| t.token.inclusion.in_requests())
    {
        let certificate = creds.signing.as_ref().or(creds.endorsing.as_ref());
        if let Some(c) = lacking.need(
            certificate.map(|c| c.certificate().clone()),
            "sp:X509Token",
            "the client's certificate, sent as a supporting token (Credentials::signing)",
        ) {
            // Over TLS the transport signs and encrypts it.
            let message = !matches!(req.binding, Some(Binding::Transport(_)));
            cfg = cfg.support(
                X509SupportingToken::new(c)
                    .signed(message && t.signed)
                    .encrypted(message && t.encrypted),
            );
        }
    }
    let (timestamp, layout) = properties(resp);
    let cfg = cfg.require_timestamp(timestamp).require_layout(layout);
    inbound(resp, creds, cfg, lacking).map(|cfg| Some(required(resp, cfg)))
}

/// A message's `sp:IncludeTimestamp` and `sp:Layout`.
fn properties(m: &MessagePolicy) -> (bool, Layout) {
    match m.binding {
        Some(Binding::Transport(t)) => (t.timestamp, t.layout),
        Some(Binding::Asymmetric(a)) => (a.timestamp, a.layout),
        Some(Binding::Symmetric(b)) => (b.timestamp, b.layout),
        None => (false, Layout::Lax),
    }
}

/// The signer of an endorsing token: the credentials' endorsing key, else their signing key;
/// `None` when they have neither (noted in `lacking`).
fn endorser(
    token: &X509Token,
    suite: Option<Suite>,
    creds: &Credentials,
    lacking: &mut Lacking,
) -> Result<Option<X509Signer>, WssError> {
    let Some(cred) = lacking.need(
        creds.endorsing.clone().or_else(|| creds.signing.clone()),
        "sp:EndorsingSupportingTokens",
        "an endorsing key and certificate (Credentials::endorsing, else the signing one)",
    ) else {
        return Ok(None);
    };
    let mut signer =
        X509Signer::new(cred).key_reference(reference(token, token.inclusion.in_requests()))?;
    if let Some(suite) = suite {
        signer = signer
            .signature_algorithm(suite.signature)
            .digest(suite.digest);
    }
    Ok(Some(signer))
}

/// Over TLS: an endorsing token signs the Timestamp and Body; a WS-SecureConversation context
/// (kept in `slot`), established under its bootstrap policy, signs the Timestamp.
fn transport(
    req: &MessagePolicy,
    t: TransportBinding,
    creds: &Credentials,
    mut cfg: WssConfig,
    lacking: &mut Lacking,
    slot: &Slot,
) -> Result<WssConfig, WssError> {
    if let Some(sc) = req.secure_conversation {
        // The suite's key size and digest; Basic128's without one.
        let suite = t.suite.unwrap_or(Suite::new(
            "Basic128",
            DigestAlgorithm::Sha1,
            wss::BlockEncryption::Aes128Cbc,
            wss::KeyTransport::RsaOaepMgf1Sha1,
            wss::SignatureAlgorithm::RsaSha1,
        ));
        cfg = cfg.secure_conversation(secure_conversation(sc, suite, creds, lacking, slot)?);
    }
    let Some(e) = req.endorsing else {
        return Ok(cfg);
    };
    let Some(mut signer) = endorser(&e.token, t.suite, creds, lacking)? else {
        return Ok(cfg);
    };
    for (ns, name) in e.headers {
        signer = signer.sign_header_if_present(ns, name);
    }
    Ok(cfg.sign(signer))
}

/// The security context `sc` asks for, kept in `slot`: requested under its bootstrap policy
/// (whose own contexts, if it had any, get a slot of their own), with `suite`'s key size and
/// digest.
fn secure_conversation(
    sc: SecureConversationPolicy,
    suite: Suite,
    creds: &Credentials,
    lacking: &mut Lacking,
    slot: &Slot,
) -> Result<wss::SecureConversationToken, WssError> {
    let bootstrap = configure(sc.bootstrap, creds, lacking, &Slot::default())?.unwrap_or_default();
    let bits = u32::try_from(suite.encryption.key_len() * 8).unwrap_or(128);
    let mut token = wss::SecureConversationToken::new(bootstrap)
        .version(sc.version)
        .key_size(bits)?
        .digest(suite.digest)
        .cancel_at_close(!sc.no_cancel)
        .in_slot(slot.clone());
    for (ns, name) in sc.headers {
        token = token.sign_header_if_present(*ns, *name);
    }
    Ok(token)
}

/// The client's signature, the encryption for the service, an endorsing signature.
fn asymmetric(
    req: &MessagePolicy,
    a: AsymmetricBinding,
    creds: &Credentials,
    mut cfg: WssConfig,
    lacking: &mut Lacking,
) -> Result<WssConfig, WssError> {
    let ut = req.username_token;
    // A message signature whenever something is to be signed (the parts, the Timestamp, the
    // token, the signature an endorsing token signs) or the token is to be sent: a signature
    // carries it.
    let signs = !req.signed.is_empty()
        || !req.signed_elements.is_empty()
        || a.timestamp
        || a.protect_tokens
        || req.endorsing.is_some()
        || a.initiator_signature
            .is_some_and(|t| t.inclusion.in_requests());
    let signing = a.initiator_signature.filter(|_| signs).and_then(|token| {
        lacking
            .need(
                creds.signing.clone(),
                "sp:InitiatorToken",
                "the client's signing key and certificate (Credentials::signing)",
            )
            .map(|cred| (token, cred))
    });
    if let Some((token, cred)) = signing {
        let mut signer = X509Signer::new(cred)
            .signature_algorithm(a.suite.signature)
            .digest(a.suite.digest)
            .key_reference(reference(&token, token.inclusion.in_requests()))?
            .protect_token(a.protect_tokens)
            .sign_username_token(ut.is_some_and(|u| u.signed));
        if token.token_type == X509TokenType::PkiPath {
            let issuers = (!creds.issuers.is_empty()).then(|| creds.issuers.clone());
            if let Some(issuers) = lacking.need(
                issuers,
                "sp:WssX509PkiPathV1Token11",
                "the issuers of the client's certificate for a PkiPath token (Credentials::issuers)",
            ) {
                signer = signer.pki_path(issuers);
            }
        }
        for (ns, name) in req.signed.headers {
            signer = signer.sign_header_if_present(ns, name);
        }
        for x in req.signed_elements {
            signer = signer.sign_element_if_present(x.to_element_path());
        }
        if let Some(c) = req.signed.attachments {
            signer = signer.sign_attachments(c);
        }
        cfg = cfg.sign(signer);
    }
    let encrypting = a
        .recipient_encryption
        .filter(|_| !req.encrypted.is_empty() || !req.encrypted_elements.is_empty())
        .and_then(|token| {
            lacking
                .need(
                    creds.service_certificate.clone(),
                    "sp:RecipientToken",
                    "the service's certificate (Credentials::service_certificate)",
                )
                .map(|cert| (token, cert))
        });
    if let Some((token, cert)) = encrypting {
        let mut enc = X509Encryptor::new(cert)
            .encrypt_body(req.encrypted.body)
            .block_encryption(a.suite.encryption)
            .key_transport(a.suite.key_transport)
            .key_reference(reference(&token, false))?
            .order(if a.encrypt_before_signing {
                EncryptionOrder::EncryptThenSign
            } else {
                EncryptionOrder::SignThenEncrypt
            })
            .encrypt_signature(a.encrypt_signature)
            .encrypt_username_token(ut.is_some_and(|u| u.encrypted));
        for (ns, name) in req.encrypted.headers {
            enc = enc.encrypt_header_if_present(ns, name);
        }
        for x in req.encrypted_elements {
            enc = enc.encrypt_element_if_present(x.to_element_path());
        }
        if let Some(c) = req.encrypted.attachments {
            enc = enc.encrypt_attachments(c);
        }
        cfg = cfg.encrypt(enc);
    }
    if let Some(e) = req.endorsing {
        if let Some(signer) = endorser(&e.token, Some(a.suite), creds, lacking)? {
            cfg = cfg.endorse(
                Endorsement::new(signer)
                    .cover_body(e.covers_body)
                    .signed(e.signed)
                    .encrypted(e.encrypted),
            );
        }
    }
    Ok(cfg)
}

/// A key per request, wrapped for the service's certificate, signs and encrypts.
fn symmetric(
    req: &MessagePolicy,
    b: SymmetricBinding,
    creds: &Credentials,
    cfg: WssConfig,
    lacking: &mut Lacking,
    slot: &Slot,
) -> Result<WssConfig, WssError> {
    let endorsing = match req.endorsing {
        Some(e) => endorser(&e.token, Some(b.suite), creds, lacking)?.map(|s| (e, s)),
        None => None,
    };
    // A context's bootstrap first, so that what it lacks is named with the rest.
    let context = match b.context {
        Some(sc) => Some(secure_conversation(sc, b.suite, creds, lacking, slot)?),
        None => None,
    };
    let Some(cert) = lacking.need(
        creds.service_certificate.clone(),
        "sp:ProtectionToken",
        "the service's certificate (Credentials::service_certificate)",
    ) else {
        return Ok(cfg);
    };
    let token = b.protection;
    let binding = match context {
        // The context's key protects the requests: the certificate is the identity its
        // responses are reported signed by.
        Some(context) => wss::SymmetricBinding::secure_conversation(cert, context),
        None => wss::SymmetricBinding::new(cert)
            .key_reference(reference(&token, token.inclusion.in_requests()))?,
    };
    let mut binding = binding
        .block_encryption(b.suite.encryption)
        .key_transport(b.suite.key_transport)
        .digest(b.suite.digest)
        .order(if b.encrypt_before_signing {
            EncryptionOrder::EncryptThenSign
        } else {
            EncryptionOrder::SignThenEncrypt
        })
        .encrypt_body(req.encrypted.body)
        .sign_body(req.signed.body)
        .protect_tokens(b.protect_tokens)
        .encrypt_signature(b.encrypt_signature);
    for (ns, name) in req.signed.headers {
        binding = binding.sign_header_if_present(ns, name);
    }
    if let Some(u) = req.username_token {
        binding = binding
            .sign_username_token(u.signed)
            .encrypt_username_token(u.encrypted);
    }
    for (ns, name) in req.encrypted.headers {
        binding = binding.encrypt_header_if_present(ns, name);
    }
    for x in req.signed_elements {
        binding = binding.sign_element_if_present(x.to_element_path());
    }
    for x in req.encrypted_elements {
        binding = binding.encrypt_element_if_present(x.to_element_path());
    }
    if let Some(c) = req.signed.attachments {
        binding = binding.sign_attachments(c);
    }
    if let Some(c) = req.encrypted.attachments {
        binding = binding.encrypt_attachments(c);
    }
    if let Some(version) = token.derived_keys {
        binding = binding.derived_keys(version);
    }
    let mut cfg = cfg.symmetric(binding);
    if let Some((e, signer)) = endorsing {
        cfg = cfg.endorse(
            Endorsement::new(signer)
                .cover_body(e.covers_body)
                .signed(e.signed)
                .encrypted(e.encrypted),
        );
    }
    Ok(cfg)
}

/// What the response must be.
fn inbound(
    resp: &MessagePolicy,
    creds: &Credentials,
    mut cfg: WssConfig,
    lacking: &mut Lacking,
) -> Result<WssConfig, WssError> {
    // The envelope's parts to sign: a response without attachments signs none of those.
    let signs_envelope = resp.signed.body || !resp.signed.headers.is_empty();
    cfg = cfg.require_protected_attachments(
        resp.signed.attachments.is_some(),
        resp.encrypted.attachments.is_some(),
    );
    let a = match resp.binding {
        Some(Binding::Asymmetric(a)) => a,
        // The response is signed and encrypted under the request's key, as its policy says.
        Some(Binding::Symmetric(b)) => {
            cfg = cfg
                .algorithms(AlgorithmPolicy::only(
                    b.suite.signature,
                    b.suite.digest,
                    b.suite.encryption,
                    b.suite.key_transport,
                ))
                .require_signature(signs_envelope)
                .require_encrypted_signature(b.encrypt_signature && signs_envelope)
                .require_encryption(resp.encrypted.body)
                .signature_confirmation(resp.signature_confirmation);
            for (ns, name) in resp.signed.headers {
                cfg = cfg.require_signed_header_if_present(ns, name);
            }
            for (ns, name) in resp.encrypted.headers {
                cfg = cfg.require_encrypted_header_if_present(ns, name);
            }
            return Ok(cfg);
        }
        // TLS protects the whole response, attachments too.
        _ => {
            return Ok(cfg
                .require_signature(false)
                .require_encryption(false)
                .require_protected_attachments(false, false))
        }
    };
    let signed = a.recipient_signature.is_some() && signs_envelope;
    cfg = cfg
        .require_signature(signed)
        .algorithms(AlgorithmPolicy::only(
            a.suite.signature,
            a.suite.digest,
            a.suite.encryption,
            a.suite.key_transport,
        ));
    cfg = cfg
        .require_protected_token(a.protect_tokens && signed)
        .require_encrypted_signature(a.encrypt_signature && signed);
    // Elements it names must be signed by the service when the response has them.
    let trusted = a.recipient_signature.is_some() && (signed || !resp.signed_elements.is_empty());
    if let (Some(token), true) = (a.recipient_signature, trusted) {
        cfg = cfg.allow_signer_references(&signer_references(&token));
    }
    let trust = trusted
        .then(|| {
            lacking.need(
                creds.trust.clone(),
                "sp:RecipientToken",
                "the trust anchors of the service's signing certificate (Credentials::trust)",
            )
        })
        .flatten();
    if let Some(mut trust) = trust {
        if let Some(c) = &creds.service_certificate {
            trust = trust.known_certificate(c.clone());
        }
        cfg = cfg.trust(trust);
        for (ns, name) in resp.signed.headers {
            cfg = cfg.require_signed_header_if_present(ns, name);
        }
    }
    let encrypted = resp.encrypted.body
        || !resp.encrypted.headers.is_empty()
        || !resp.encrypted_elements.is_empty();
    cfg = cfg.require_encryption(resp.encrypted.body);
    let key = encrypted
        .then(|| {
            lacking.need(
                creds.signing.clone(),
                "sp:InitiatorToken",
                "the client's key, which decrypts the responses (Credentials::signing)",
            )
        })
        .flatten();
    if let Some(key) = key {
        cfg = cfg.decrypt_with(key);
        for (ns, name) in resp.encrypted.headers {
            cfg = cfg.require_encrypted_header_if_present(ns, name);
        }
    }
    Ok(cfg.signature_confirmation(resp.signature_confirmation))
}

/// `sp:RequiredParts`, `sp:RequiredElements`, `sp:SignedElements` and `sp:EncryptedElements` of
/// a response.
fn required(resp: &MessagePolicy, mut cfg: WssConfig) -> WssConfig {
    for x in resp.signed_elements {
        cfg = cfg.require_signed_element_if_present(x.to_element_path());
    }
    for x in resp.encrypted_elements {
        cfg = cfg.require_encrypted_element_if_present(x.to_element_path());
    }
    for (ns, name) in resp.required_headers {
        cfg = cfg.require_header(ns, name);
    }
    for x in resp.required_elements {
        cfg = cfg.require_element(x.to_element_path());
    }
    cfg
}

/// How the service's signature may name its token (X.509 Token Profile 1.1 §3.2): as its
/// `sp:Require…Reference` assertions say, by a BinarySecurityToken unless `sp:IncludeToken` is
/// `Never`; every form when it requires none and may send the token.
fn signer_references(token: &X509Token) -> Vec<KeyReference> {
    let mut forms = Vec::new();
    if token.issuer_serial {
        forms.push(KeyReference::X509IssuerSerial);
    }
    if token.thumbprint {
        forms.push(KeyReference::ThumbprintSha1);
    }
    if token.key_identifier {
        forms.push(KeyReference::SubjectKeyIdentifier);
    }
    let never = token.inclusion == super::model::Inclusion::Never;
    if forms.is_empty() && never {
        forms = vec![
            KeyReference::X509IssuerSerial,
            KeyReference::ThumbprintSha1,
            KeyReference::SubjectKeyIdentifier,
        ];
    } else if !forms.is_empty() && !never {
        forms.push(KeyReference::DirectReference);
    }
    forms
}
