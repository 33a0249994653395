//! WS-SecureConversation security contexts (WS-SecureConversation 1.3 §3–§6; the February 2005
//! submission alike): a `wsc:SecurityContextToken` the service itself issues in answer to a
//! WS-Trust `RequestSecurityToken` (WS-Trust 1.3 §4; the February 2005 submission for
//! WS-SecurityPolicy 1.1 peers) that its bootstrap policy secures, the key both sides compute
//! from their entropies (WS-Trust 1.3 §4.4.3, P_SHA-1), and the Cancel that ends it (§6).
//!
//! A client configured with a [`SecureConversationToken`] establishes one context on its first
//! call, shares it between all calls (concurrent callers wait for the one exchange), issues a
//! new one shortly before the old one expires, and cancels it at [`Client::close`] (or, on a
//! tokio runtime, when the last clone of the client is dropped).

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::sign::DigestAlgorithm;
use super::symmetric::{p_sha1, SecureConversation};
use super::{base64, hex, random_bytes, UtcTime, WssConfig, WssError, WSSE_NS, WSU_NS};
use crate::addressing::{Addressing, AddressingVersion};
use crate::error::{EncodeError, Error};
use crate::message::{Exchanger, MessageLayer, Operation, SoapVersion};
use crate::xml::read::tree::{Document, Node};
use crate::xml::{Limits, Name, XmlWriter};

/// The WS-Trust 1.3 namespace (`wst`, OASIS 2007).
pub const WST_13_NS: &str = "http://docs.oasis-open.org/ws-sx/ws-trust/200512";
/// The WS-Trust February 2005 namespace, as WS-SecurityPolicy 1.1 peers (and ADFS) write it.
pub const WST_2005_NS: &str = "http://schemas.xmlsoap.org/ws/2005/02/trust";

/// A security context the client is to establish with the service and use on each call
/// (WS-SecurityPolicy 1.2 §5.4.7 `sp:SecureConversationToken`): its bootstrap (how the
/// `RequestSecurityToken` that asks for it is secured, the policy's `sp:BootstrapPolicy`, given
/// as a [`WssConfig`]), the WS-SecureConversation version, the key size asked for, and how the
/// request uses it. Given to [`SymmetricBinding::secure_conversation`](super::SymmetricBinding::secure_conversation)
/// (the context protects the messages: WCF's `wsHttpBinding`) or to
/// [`WssConfig::secure_conversation`] (it endorses them over TLS).
///
/// The context is requested from the endpoint the calls go to (WS-SecureConversation 1.3 §4:
/// the service is its own issuer), with WS-Addressing 1.0 headers (`wsa:Action`
/// `…/RST/SCT`, what WCF and CXF require), the client's entropy (a 128- or 256-bit nonce,
/// WS-Trust 1.3 §3.2 `wst:Entropy`) and `wst:KeySize`. Its key is what the response's
/// `wst:RequestedProofToken` says: computed from both entropies (`wst:ComputedKey` P_SHA-1,
/// WS-Trust 1.3 §4.4.3: P_SHA-1(client entropy, service entropy)), or a `wst:BinarySecret`.
///
/// Each request then carries the `wsc:SecurityContextToken` (`sp:IncludeToken`
/// AlwaysToRecipient). Under a SymmetricBinding it is the key the binding signs and encrypts
/// with (or derives its keys from). Over TLS (`sp:TransportBinding`, the token an
/// `sp:EndorsingSupportingTokens`) the request gets an endorsing signature under the context's
/// key: HMAC-SHA1 (XML-DSig §6.3) over the Timestamp and the header blocks of
/// [`sign_header_if_present`](Self::sign_header_if_present), its KeyInfo a
/// SecurityTokenReference to the token (WS-SecureConversation 1.3 §8).
///
/// A token request that fails fails the call that made it with its error, and the calls that
/// waited for it with [`WssError::ContextNotEstablished`]; a fault showing the service no longer
/// knows the context makes the next call request a new one.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use soapgen_runtime::wss::{SecureConversation, SecureConversationToken, WssConfig};
/// // CXF's and WCF's "secure conversation over TLS": the bootstrap is TLS alone.
/// let wss = WssConfig::new()
///     .timestamp(Duration::from_secs(300))
///     .secure_conversation(
///         SecureConversationToken::new(WssConfig::new()).version(SecureConversation::V13),
///     );
/// # let _ = wss;
/// ```
#[derive(Clone)]
#[must_use]
pub struct SecureConversationToken {
    pub(crate) version: SecureConversation,
    pub(crate) bootstrap: WssConfig,
    pub(crate) key_bits: u32,
    pub(crate) digest: DigestAlgorithm,
    pub(crate) headers: Vec<(String, String)>,
    /// The endorsing signature covers the Body too (a Cancel's does: it proves possession of the
    /// key for that request, WS-SecureConversation 1.3 §6).
    pub(crate) sign_body: bool,
    /// Whether the context is cancelled at close (not when the policy says
    /// `sp:MustNotSendCancel`).
    pub(crate) cancel: bool,
    pub(crate) slot: Arc<ContextSlot>,
}

impl fmt::Debug for SecureConversationToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SecureConversationToken")
            .field("version", &self.version)
            .field("bootstrap", &self.bootstrap)
            .field("key_bits", &self.key_bits)
            .field("digest", &self.digest)
            .field("headers", &self.headers)
            .finish_non_exhaustive()
    }
}

impl SecureConversationToken {
    /// A context requested under `bootstrap` (the `sp:BootstrapPolicy`: TLS alone is
    /// `WssConfig::new()`; a UsernameToken over TLS, a signature, as that policy says), in
    /// WS-SecureConversation 1.3, with a 128-bit key (Basic128) and SHA-1 digests.
    pub fn new(bootstrap: WssConfig) -> Self {
        SecureConversationToken {
            version: SecureConversation::V13,
            bootstrap,
            key_bits: 128,
            digest: DigestAlgorithm::Sha1,
            headers: Vec::new(),
            sign_body: false,
            cancel: true,
            slot: Arc::new(ContextSlot::default()),
        }
    }

    /// The WS-SecureConversation (and with it WS-Trust) version: [`SecureConversation::V13`]
    /// (WS-SecurityPolicy 1.2 peers) or [`SecureConversation::V2005`] (WS-SecurityPolicy 1.1
    /// peers: WS-Trust February 2005).
    pub fn version(mut self, version: SecureConversation) -> Self {
        self.version = version;
        self
    }

    /// The key size asked for, in bits (`wst:KeySize`; the algorithm suite's: 128 for Basic128,
    /// 256 for Basic256). Also the size of the client's entropy.
    ///
    /// # Errors
    ///
    /// [`WssError::Encode`] for a size that is not 128, 192 or 256.
    pub fn key_size(mut self, bits: u32) -> Result<Self, WssError> {
        if !matches!(bits, 128 | 192 | 256) {
            return Err(WssError::Encode(format!(
                "a security context key of {bits} bits: 128, 192 or 256 (the algorithm suite's)"
            )));
        }
        self.key_bits = bits;
        Ok(self)
    }

    /// The digest of the endorsing signature's References (the algorithm suite's; SHA-1 by
    /// default).
    pub fn digest(mut self, digest: DigestAlgorithm) -> Self {
        self.digest = digest;
        self
    }

    /// Also signs the header block `{namespace}local_name` with the context's key when the
    /// request has one (an `sp:SignedParts` inside the `sp:EndorsingSupportingTokens`: WCF's
    /// `wsa:To`).
    pub fn sign_header_if_present(
        mut self,
        namespace: impl Into<String>,
        local_name: impl Into<String>,
    ) -> Self {
        self.headers.push((namespace.into(), local_name.into()));
        self
    }

    /// This token keeping its context in `slot` (shared with the other tokens given it: one
    /// context for every operation of a port).
    pub(crate) fn in_slot(mut self, slot: Arc<ContextSlot>) -> Self {
        self.slot = slot;
        self
    }

    /// Whether the context is cancelled (WS-SecureConversation 1.3 §6) at
    /// [`Client::close`](crate::Client::close) and when the client is dropped: yes by default; no for a service whose
    /// policy says `sp:MustNotSendCancel` (the context is then left to expire).
    pub fn cancel_at_close(mut self, cancel: bool) -> Self {
        self.cancel = cancel;
        self
    }

    /// The WS-Trust namespace of this version.
    pub(crate) fn trust_ns(&self) -> &'static str {
        match self.version {
            SecureConversation::V13 => WST_13_NS,
            SecureConversation::V2005 => WST_2005_NS,
        }
    }

    /// The context now in use, if one is established and not about to expire.
    pub(crate) fn current(&self) -> Option<Arc<SecurityContext>> {
        self.slot.fresh(UtcTime::now())
    }

    /// Makes sure a context is established (issued by the service at `client`'s endpoint, the
    /// request secured by the bootstrap), sharing one exchange between concurrent callers.
    ///
    /// # Errors
    ///
    /// The exchange's [`Error`]; [`WssError::Malformed`] (as [`Error::Security`]) for a response
    /// that does not carry a context and its key.
    pub(crate) async fn establish(
        &self,
        app: &WssConfig,
        client: &dyn Exchanger,
        soap: SoapVersion,
    ) -> Result<(), Error> {
        if self.current().is_some() {
            return Ok(());
        }
        // The attempts finished before this call waited: one that finishes while it waits,
        // and fails, fails this call too (a burst makes one failed request, not one each).
        let seen = self.slot.attempts.load(Ordering::Acquire);
        let _one = self.slot.issuing.lock().await;
        if self.current().is_some() {
            return Ok(());
        }
        if self.slot.attempts.load(Ordering::Acquire) != seen {
            if let Some(reason) = self.slot.failure() {
                return Err(Error::Security(Box::new(WssError::ContextNotEstablished(
                    reason,
                ))));
            }
        }
        let issued = self.issue(client, soap).await;
        self.slot.attempts.fetch_add(1, Ordering::Release);
        let context = match issued {
            Ok(c) => Arc::new(c),
            Err(e) => {
                self.slot.fail(e.to_string());
                return Err(e);
            }
        };
        tracing::debug!(
            identifier = %context.identifier,
            expires = ?context.expires.map(|e| e.to_string()),
            "WS-SecureConversation: security context established"
        );
        // The same transport, and the requests' own security under this context, cancel it
        // when the client goes.
        let canceller = self
            .cancel
            .then(|| (client.detach(), app.cancelling(&context), soap));
        // A context replaced before it expired is cancelled in the background.
        if let Some(old) = self.slot.set(Established { context, canceller }) {
            cancel_in_background(old);
        }
        Ok(())
    }

    /// This configuration with `context` fixed in a slot of its own, the Body signed: what a
    /// Cancel of `context` is secured with.
    pub(crate) fn cancelling(&self, context: &Arc<SecurityContext>) -> SecureConversationToken {
        // Pinned: the Cancel of a context about to expire (one being replaced) is written under
        // it, never under a new one its own token request would bring.
        let mut slot = ContextSlot::default();
        slot.pinned = true;
        slot.set(Established {
            context: context.clone(),
            canceller: None,
        });
        SecureConversationToken {
            slot: Arc::new(slot),
            sign_body: true,
            ..self.clone()
        }
    }

    /// Sends the `RequestSecurityToken` and reads the context from its response.
    async fn issue(
        &self,
        client: &dyn Exchanger,
        soap: SoapVersion,
    ) -> Result<SecurityContext, Error> {
        let security = |e: WssError| Error::Security(Box::new(e));
        let entropy = match self.key_bits {
            128 => random_bytes::<16>().map(|b| b.to_vec()),
            192 => random_bytes::<24>().map(|b| b.to_vec()),
            _ => random_bytes::<32>().map(|b| b.to_vec()),
        }
        .map_err(security)?;
        let ns = self.trust_ns();
        let mut req = client.request(&[]);
        write_issue(req.body_writer(), self, ns, &entropy)?;
        let request = req.finish()?;
        let layers = vec![
            Arc::new(self.bootstrap.clone()) as Arc<dyn MessageLayer>,
            Arc::new(Addressing::on(AddressingVersion::W3C)),
        ];
        let op = operation(self.version, soap, false);
        let response = client.exchange(op, request, layers).await?;
        read_issued(&response.xml, self, &entropy).map_err(security)
    }

    /// Cancels `context` (WS-SecureConversation 1.3 §6): a `RequestSecurityToken` Cancel naming
    /// it, sent by `client` and secured by `wss` (the requests' own security with the context
    /// fixed, the Body signed under it: [`WssConfig::cancelling`]), its response held to `wss`'s
    /// inbound policy and required to say the context is cancelled
    /// (`wst:RequestedTokenCancelled`).
    async fn cancel(
        &self,
        client: &dyn Exchanger,
        soap: SoapVersion,
        context: &SecurityContext,
        wss: WssConfig,
    ) -> Result<(), Error> {
        let ns = self.trust_ns();
        let mut req = client.request(&[]);
        write_cancel(req.body_writer(), self, ns, context)?;
        let request = req.finish()?;
        let layers = vec![
            Arc::new(wss) as Arc<dyn MessageLayer>,
            Arc::new(Addressing::on(AddressingVersion::W3C)),
        ];
        let op = operation(self.version, soap, true);
        let response = client.exchange(op, request, layers).await?;
        read_cancelled(&response.xml, ns).map_err(|e| Error::Security(Box::new(e)))
    }

    /// Cancels the context in use, if any (see [`Client::close`](crate::Client::close)).
    ///
    /// # Errors
    ///
    /// The Cancel exchange's [`Error`]; the context is forgotten either way.
    pub(crate) async fn close(&self) -> Result<(), Error> {
        let established = self.slot.take();
        match established.and_then(|e| e.canceller.map(|c| (e.context, c))) {
            Some((context, (client, wss, soap))) => {
                self.cancel(client.as_ref(), soap, &context, wss).await
            }
            None => Ok(()),
        }
    }
}

/// The static operations of the RST exchanges: (version, SOAP version, cancel).
fn operation(version: SecureConversation, soap: SoapVersion, cancel: bool) -> &'static Operation {
    const fn op(action: &'static str, soap: SoapVersion) -> Operation {
        Operation::new("RequestSecurityToken", action, soap)
    }
    const ISSUE_13: &str = "http://docs.oasis-open.org/ws-sx/ws-trust/200512/RST/SCT";
    const CANCEL_13: &str = "http://docs.oasis-open.org/ws-sx/ws-trust/200512/RST/SCT/Cancel";
    const ISSUE_2005: &str = "http://schemas.xmlsoap.org/ws/2005/02/trust/RST/SCT";
    const CANCEL_2005: &str = "http://schemas.xmlsoap.org/ws/2005/02/trust/RST/SCT/Cancel";
    static OPS: [Operation; 8] = [
        op(ISSUE_13, SoapVersion::Soap11),
        op(CANCEL_13, SoapVersion::Soap11),
        op(ISSUE_13, SoapVersion::Soap12),
        op(CANCEL_13, SoapVersion::Soap12),
        op(ISSUE_2005, SoapVersion::Soap11),
        op(CANCEL_2005, SoapVersion::Soap11),
        op(ISSUE_2005, SoapVersion::Soap12),
        op(CANCEL_2005, SoapVersion::Soap12),
    ];
    let v = match version {
        SecureConversation::V13 => 0,
        SecureConversation::V2005 => 4,
    };
    let s = match soap {
        SoapVersion::Soap11 => 0,
        SoapVersion::Soap12 => 2,
    };
    &OPS[v + s + usize::from(cancel)]
}

/// The `wst:RequestSecurityToken` that asks for a context (WS-SecureConversation 1.3 §4,
/// WS-Trust 1.3 §3.1): TokenType, RequestType Issue, the client's Entropy, KeySize.
fn write_issue(
    w: &mut XmlWriter,
    sc: &SecureConversationToken,
    ns: &str,
    entropy: &[u8],
) -> Result<(), EncodeError> {
    w.start_element_prefixed(Name::new(ns, "RequestSecurityToken"), Some("wst"))?;
    w.simple_element(Name::new(ns, "TokenType"), sct_type(sc.version))?;
    w.simple_element(Name::new(ns, "RequestType"), &format!("{ns}/Issue"))?;
    w.start_element(Name::new(ns, "Entropy"))?;
    w.start_element(Name::new(ns, "BinarySecret"))?;
    w.attribute(Name::unqualified("Type"), &format!("{ns}/Nonce"))?;
    w.text(&base64(entropy))?;
    w.end_element()?;
    w.end_element()?;
    w.simple_element(Name::new(ns, "KeySize"), &sc.key_bits.to_string())?;
    w.end_element()
}

/// The `wst:RequestSecurityToken` Cancel of `context` (WS-SecureConversation 1.3 §6,
/// WS-Trust 1.3 §8.3): its `wst:CancelTarget` a SecurityTokenReference by its Identifier.
fn write_cancel(
    w: &mut XmlWriter,
    sc: &SecureConversationToken,
    ns: &str,
    context: &SecurityContext,
) -> Result<(), EncodeError> {
    w.start_element_prefixed(Name::new(ns, "RequestSecurityToken"), Some("wst"))?;
    w.simple_element(Name::new(ns, "RequestType"), &format!("{ns}/Cancel"))?;
    w.start_element(Name::new(ns, "CancelTarget"))?;
    w.start_element_prefixed(Name::new(WSSE_NS, "SecurityTokenReference"), Some("wsse"))?;
    w.start_element(Name::new(WSSE_NS, "Reference"))?;
    w.attribute(Name::unqualified("URI"), &context.identifier)?;
    w.attribute(Name::unqualified("ValueType"), sct_type(sc.version))?;
    w.end_element()?;
    w.end_element()?;
    w.end_element()?;
    w.end_element()
}

/// Checks that the Body child `xml` of a Cancel's response says the context is cancelled
/// (WS-Trust 1.3 §8.3: a `wst:RequestSecurityTokenResponse`, or a collection of one, with
/// `wst:RequestedTokenCancelled`).
fn read_cancelled(xml: &str, ns: &str) -> Result<(), WssError> {
    let doc = Document::parse(xml, Limits::default()).map_err(|e| malformed(e.to_string()))?;
    let root = doc.root_element();
    let rstr = if root.has_tag_name((ns, "RequestSecurityTokenResponseCollection")) {
        child(root, ns, "RequestSecurityTokenResponse")
    } else {
        Some(root).filter(|r| r.has_tag_name((ns, "RequestSecurityTokenResponse")))
    };
    match rstr.and_then(|r| child(r, ns, "RequestedTokenCancelled")) {
        Some(_) => Ok(()),
        None => Err(malformed(format!(
            "the Cancel's response does not say the context is cancelled (no \
             {{{ns}}}RequestedTokenCancelled in a RequestSecurityTokenResponse)"
        ))),
    }
}

/// The TokenType (and SecurityTokenReference ValueType) of a SecurityContextToken
/// (WS-SecureConversation 1.3 §3).
pub(crate) fn sct_type(version: SecureConversation) -> &'static str {
    match version {
        SecureConversation::V13 => {
            "http://docs.oasis-open.org/ws-sx/ws-secureconversation/200512/sct"
        }
        SecureConversation::V2005 => "http://schemas.xmlsoap.org/ws/2005/02/sc/sct",
    }
}

/// An established security context: the token as the service issued it, its key and expiry.
pub(crate) struct SecurityContext {
    /// The `wsc:SecurityContextToken` element, self-contained (its namespaces declared on it),
    /// with a `wsu:Id` (the service's, else one of ours).
    pub(crate) token: String,
    /// Its `wsu:Id`.
    pub(crate) token_id: String,
    /// Its `wsc:Identifier` (an absolute URI).
    pub(crate) identifier: String,
    pub(crate) key: Vec<u8>,
    /// From the response's `wst:Lifetime`; `None`: the service gave none.
    pub(crate) expires: Option<UtcTime>,
    /// When it was established.
    pub(crate) created: UtcTime,
    pub(crate) version: SecureConversation,
}

impl fmt::Debug for SecurityContext {
    /// The identifier and expiry; never the key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SecurityContext")
            .field("identifier", &self.identifier)
            .field("expires", &self.expires.map(|e| e.to_string()))
            .finish_non_exhaustive()
    }
}

/// The path of the response's Body child, for errors.
const RSTR_PATH: &str = "/Envelope/Body/RequestSecurityTokenResponse";

fn malformed(reason: impl Into<String>) -> WssError {
    WssError::Malformed {
        path: RSTR_PATH.to_owned(),
        reason: reason.into(),
    }
}

/// Reads the context the service issued from the Body child `xml` of its response: a
/// `wst:RequestSecurityTokenResponseCollection` (WS-Trust 1.3 §4.3) or a lone
/// `wst:RequestSecurityTokenResponse` (February 2005), with the `wsc:SecurityContextToken` in
/// `wst:RequestedSecurityToken`, the key in `wst:RequestedProofToken`, the expiry in
/// `wst:Lifetime`.
fn read_issued(
    xml: &str,
    sc: &SecureConversationToken,
    entropy: &[u8],
) -> Result<SecurityContext, WssError> {
    let doc = Document::parse(xml, Limits::default()).map_err(|e| malformed(e.to_string()))?;
    let ns = sc.trust_ns();
    let root = doc.root_element();
    let rstr = if root.has_tag_name((ns, "RequestSecurityTokenResponse")) {
        root
    } else if root.has_tag_name((ns, "RequestSecurityTokenResponseCollection")) {
        child(root, ns, "RequestSecurityTokenResponse")
            .ok_or_else(|| malformed("the collection holds no RequestSecurityTokenResponse"))?
    } else {
        return Err(malformed(format!(
            "the response's Body holds {{{}}}{}, not a {{{ns}}}RequestSecurityTokenResponse",
            root.tag_name().namespace().unwrap_or(""),
            root.tag_name().name()
        )));
    };
    let wsc = sc.version.namespace();
    let token = child(rstr, ns, "RequestedSecurityToken")
        .and_then(|t| child(t, wsc, "SecurityContextToken"))
        .ok_or_else(|| {
            malformed(format!(
                "no RequestedSecurityToken/{{{wsc}}}SecurityContextToken (a token of another \
                 WS-SecureConversation version, or none)"
            ))
        })?;
    let identifier = child(token, wsc, "Identifier")
        .and_then(|i| i.text())
        .map(str::trim)
        .filter(|i| !i.is_empty())
        .ok_or_else(|| malformed("the SecurityContextToken has no Identifier"))?
        .to_owned();
    let token_id = match token.attribute((WSU_NS, "Id")) {
        Some(id) => id.to_owned(),
        None => format!("sct-{}", hex(&random_bytes::<8>()?)),
    };
    let mut w = XmlWriter::with_capacity(token.range().len() + 256);
    write_copy(&mut w, token, Some(&token_id)).map_err(|e| malformed(e.to_string()))?;
    let key = proof_key(rstr, ns, sc, entropy)?;
    let expires = child(rstr, ns, "Lifetime")
        .and_then(|l| child(l, WSU_NS, "Expires"))
        .and_then(|e| e.text())
        .map(|t| {
            t.trim()
                .parse::<UtcTime>()
                .map_err(|e| malformed(format!("Lifetime/Expires {t:?}: {e}")))
        })
        .transpose()?;
    Ok(SecurityContext {
        token: w.into_string().map_err(|e| malformed(e.to_string()))?,
        token_id,
        identifier,
        key,
        expires,
        created: UtcTime::now(),
        version: sc.version,
    })
}

/// The context's key from `wst:RequestedProofToken`: `wst:ComputedKey` P_SHA-1 over the client's
/// `entropy` (the secret) and the service's `wst:Entropy` (the seed), of `wst:KeySize` bits (the
/// response's, else the request's); or a `wst:BinarySecret`.
fn proof_key(
    rstr: Node<'_, '_>,
    ns: &str,
    sc: &SecureConversationToken,
    entropy: &[u8],
) -> Result<Vec<u8>, WssError> {
    let proof = child(rstr, ns, "RequestedProofToken")
        .ok_or_else(|| malformed("no RequestedProofToken: the context's key is not given"))?;
    if let Some(secret) = child(proof, ns, "BinarySecret") {
        return decode(secret, "RequestedProofToken/BinarySecret");
    }
    if let Some(computed) = child(proof, ns, "ComputedKey") {
        let algorithm = computed.text().unwrap_or("").trim();
        if algorithm != format!("{ns}/CK/PSHA1") {
            return Err(malformed(format!(
                "ComputedKey {algorithm:?}: only {ns}/CK/PSHA1 is defined"
            )));
        }
        let server = child(rstr, ns, "Entropy")
            .and_then(|e| child(e, ns, "BinarySecret"))
            .ok_or_else(|| malformed("a ComputedKey without the service's Entropy/BinarySecret"))?;
        let server = decode(server, "Entropy/BinarySecret")?;
        let bits = match child(rstr, ns, "KeySize").and_then(|k| k.text()) {
            Some(k) => k
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|b| matches!(b, 128 | 192 | 256))
                .ok_or_else(|| malformed(format!("KeySize {k:?}: 128, 192 or 256 bits")))?,
            None => sc.key_bits,
        };
        return p_sha1(entropy, &server, 0, bits as usize / 8);
    }
    Err(malformed(
        "the RequestedProofToken is neither a ComputedKey nor a BinarySecret (an EncryptedKey \
         proof token is not supported yet)",
    ))
}

fn decode(n: Node<'_, '_>, what: &str) -> Result<Vec<u8>, WssError> {
    let text: String = n
        .text()
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    let bytes = crate::base64::decode(text.as_bytes())
        .map_err(|e| malformed(format!("{what} is not base64: {e}")))?;
    if bytes.len() < 16 {
        return Err(malformed(format!(
            "{what} is {} bytes: less than the 128 bits a key needs",
            bytes.len()
        )));
    }
    Ok(bytes)
}

fn child<'a, 'i>(n: Node<'a, 'i>, ns: &str, name: &str) -> Option<Node<'a, 'i>> {
    n.children().find(|c| c.has_tag_name((ns, name)))
}

/// Writes a copy of element `n` (and its content) with `w`, each name in its own namespace and
/// under its own prefix; `id`: the `wsu:Id` the root gets when it has none.
fn write_copy(w: &mut XmlWriter, n: Node<'_, '_>, id: Option<&str>) -> Result<(), EncodeError> {
    let tag = n.tag_name();
    let prefix = n.qname().split_once(':').map(|(p, _)| p);
    w.start_element_prefixed(Name::new(tag.namespace().unwrap_or(""), tag.name()), prefix)?;
    if id.is_some() {
        // The root's wsu:Id under the usual prefix (the copy stands alone).
        w.declare_namespace("wsu", WSU_NS)?;
    }
    let mut has_id = false;
    for a in n.attributes() {
        let name = match a.namespace() {
            Some(ns) => {
                has_id |= ns == WSU_NS && a.name() == "Id";
                Name::new(ns, a.name())
            }
            None => Name::unqualified(a.name()),
        };
        w.attribute(name, a.value())?;
    }
    if let Some(id) = id.filter(|_| !has_id) {
        w.attribute(Name::new(WSU_NS, "Id"), id)?;
    }
    for c in n.children() {
        if c.is_element() {
            write_copy(w, c, None)?;
        } else if let Some(t) = c.text() {
            w.text(t)?;
        }
    }
    w.end_element()
}

/// A context and what cancels it: a client without layers on the same transport, the token's
/// configuration, the SOAP version.
pub(crate) struct Established {
    pub(crate) context: Arc<SecurityContext>,
    canceller: Option<(Arc<dyn Exchanger>, WssConfig, SoapVersion)>,
}

/// Where a [`SecureConversationToken`] keeps its context: shared by every clone of the
/// configuration (and so of the client), one issue exchange at a time.
#[derive(Default)]
pub(crate) struct ContextSlot {
    current: Mutex<Option<Established>>,
    issuing: tokio::sync::Mutex<()>,
    /// Token requests finished (issued or failed).
    attempts: AtomicU64,
    /// Why the last one failed, until one succeeds.
    failure: Mutex<Option<String>>,
    /// Its context is used whatever its expiry, and never replaced (a Cancel's).
    pinned: bool,
}

impl fmt::Debug for ContextSlot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ContextSlot").finish_non_exhaustive()
    }
}

/// How long before its expiry a context is replaced: a fifth of its lifetime, at most 60 s (a
/// request signed under it must still be valid when the service reads it).
fn renew_margin(context: &SecurityContext) -> Duration {
    let lifetime = context.expires.map_or(0, |e| {
        e.unix_millis()
            .saturating_sub(context.created.unix_millis())
    });
    Duration::from_millis(u64::try_from(lifetime / 5).unwrap_or(0)).min(Duration::from_secs(60))
}

impl ContextSlot {
    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Established>> {
        self.current.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The context, if there is one that is not about to expire at `now`.
    fn fresh(&self, now: UtcTime) -> Option<Arc<SecurityContext>> {
        let current = self.lock();
        let c = &current.as_ref()?.context;
        match c.expires {
            Some(e) if !self.pinned && now.plus(renew_margin(c)) >= e => None,
            _ => Some(c.clone()),
        }
    }

    fn set(&self, e: Established) -> Option<Established> {
        *self.failure.lock().unwrap_or_else(|p| p.into_inner()) = None;
        self.lock().replace(e)
    }

    /// Records why a token request failed.
    fn fail(&self, reason: String) {
        *self.failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(reason);
    }

    /// Why the last token request failed, if the last one did.
    fn failure(&self) -> Option<String> {
        self.failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn take(&self) -> Option<Established> {
        self.lock().take()
    }

    /// Forgets the context `identifier` (the service refused it).
    pub(crate) fn forget(&self, identifier: &str) {
        let mut current = self.lock();
        if current
            .as_ref()
            .is_some_and(|e| e.context.identifier == identifier)
        {
            *current = None;
        }
    }
}

impl Drop for ContextSlot {
    /// Cancels the context in use on the tokio runtime the drop happens on, if any (a client
    /// dropped outside a runtime leaves its context to expire).
    fn drop(&mut self) {
        if let Some(e) = self.take() {
            cancel_in_background(e);
        }
    }
}

/// Cancels `e`'s context on the tokio runtime the caller runs on, in the background; without a
/// runtime (or without a transport feature, which brings it) the context is left to expire.
fn cancel_in_background(e: Established) {
    let Established {
        context,
        canceller: Some((client, wss, soap)),
    } = e
    else {
        return;
    };
    #[cfg(any(feature = "reqwest", feature = "hyper"))]
    if let Ok(rt) = tokio::runtime::Handle::try_current() {
        rt.spawn(async move {
            let Some(token) = wss.context_token().cloned() else {
                return;
            };
            if let Err(e) = token.cancel(client.as_ref(), soap, &context, wss).await {
                tracing::debug!(error = %e, "WS-SecureConversation: Cancel failed");
            }
        });
    }
    #[cfg(not(any(feature = "reqwest", feature = "hyper")))]
    drop((client, wss, soap, context));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CXF 4.2's answer to a WS-SecureConversation 1.3 RST whose client entropy was
    /// `HZpzxGwdoOWVR4edvOwnzQ==` (captured from the CXF peer).
    const CXF_RSTR: &str = include_str!("testdata/cxf-rstr-sct13.xml");
    const CLIENT_ENTROPY: &str = "HZpzxGwdoOWVR4edvOwnzQ==";

    fn token() -> SecureConversationToken {
        SecureConversationToken::new(WssConfig::new())
    }

    fn entropy() -> Vec<u8> {
        crate::base64::decode(CLIENT_ENTROPY.as_bytes()).unwrap()
    }

    #[test]
    fn reads_cxf_s_context_and_computes_its_key() {
        let c = read_issued(CXF_RSTR, &token(), &entropy()).unwrap();
        // P_SHA-1(client entropy, server entropy), first 16 bytes: Python's hmac module's answer.
        assert_eq!(hex(&c.key), "c307b7f3dd04b2dfee6fb929f391adee");
        assert_eq!(c.identifier, "uuid:88d4e912-385d-4c48-a834-5db033263cfe");
        assert_eq!(c.token_id, "sctId-08eb8c3a-f0b7-4b45-9980-d60b884ebc6c");
        assert_eq!(
            c.expires.map(|e| e.to_string()).as_deref(),
            Some("2026-12-07T18:53:46.867Z")
        );
        // Self-contained: parses alone, with the Id kept.
        let doc = Document::parse(&c.token, Limits::default()).unwrap();
        let root = doc.root_element();
        assert!(root.has_tag_name((WSC_13, "SecurityContextToken")));
        assert_eq!(root.attribute((WSU_NS, "Id")), Some(c.token_id.as_str()));
        assert!(c.token.contains(" wsu:Id=\"sctId-"), "{}", c.token);
        assert!(!format!("{c:?}").contains("c307"), "Debug shows no key");
    }

    const WSC_13: &str = "http://docs.oasis-open.org/ws-sx/ws-secureconversation/200512";

    #[test]
    fn a_response_without_what_the_context_needs_is_malformed() {
        let e = entropy();
        let cases = [
            (
                CXF_RSTR.replace("RequestedProofToken", "Other"),
                "no RequestedProofToken",
            ),
            (
                CXF_RSTR.replace("CK/PSHA1", "CK/HMAC"),
                "only http://docs.oasis-open.org/ws-sx/ws-trust/200512/CK/PSHA1",
            ),
            (
                CXF_RSTR.replace("8Ui7bX4bETqveOxIbj9R+A==", "AAAA"),
                "less than the 128 bits",
            ),
            (CXF_RSTR.replace("<wst:Entropy>", "<wst:Other>").replace("</wst:Entropy>", "</wst:Other>"), "without the service's Entropy"),
            (
                CXF_RSTR.replace("wsc:Identifier", "wsc:Name"),
                "has no Identifier",
            ),
            (
                CXF_RSTR.replace(WSC_13, WSC_2005),
                "SecurityContextToken (a token of another",
            ),
            (
                "<x:Fault xmlns:x=\"urn:x\"/>".to_owned(),
                "not a {http://docs.oasis-open.org/ws-sx/ws-trust/200512}RequestSecurityTokenResponse",
            ),
        ];
        for (xml, expected) in cases {
            let err = read_issued(&xml, &token(), &e).unwrap_err().to_string();
            assert!(err.contains(expected), "{expected:?} in {err}");
            assert!(err.contains(RSTR_PATH), "{err}");
        }
    }

    const WSC_2005: &str = "http://schemas.xmlsoap.org/ws/2005/02/sc";

    #[test]
    fn a_binary_secret_proof_token_is_the_key_and_an_id_is_added_when_missing() {
        let xml = format!(
            "<wst:RequestSecurityTokenResponse xmlns:wst=\"{WST_2005_NS}\">\
             <wst:RequestedSecurityToken><wsc:SecurityContextToken xmlns:wsc=\"{WSC_2005}\">\
             <wsc:Identifier>urn:ctx:1</wsc:Identifier></wsc:SecurityContextToken>\
             </wst:RequestedSecurityToken><wst:RequestedProofToken>\
             <wst:BinarySecret>AAECAwQFBgcICQoLDA0ODw==</wst:BinarySecret>\
             </wst:RequestedProofToken></wst:RequestSecurityTokenResponse>"
        );
        let sc = token().version(SecureConversation::V2005);
        let c = read_issued(&xml, &sc, &entropy()).unwrap();
        assert_eq!(hex(&c.key), "000102030405060708090a0b0c0d0e0f");
        assert!(c.expires.is_none());
        assert!(c.token_id.starts_with("sct-"));
        assert!(
            c.token.contains(&format!("wsu:Id=\"{}\"", c.token_id)),
            "{}",
            c.token
        );
    }

    #[test]
    fn a_context_is_replaced_a_fifth_of_its_lifetime_before_it_expires() {
        let slot = ContextSlot::default();
        let created = UtcTime::now();
        let context = |lifetime: Duration| SecurityContext {
            token: String::new(),
            token_id: "t".into(),
            identifier: "urn:x".into(),
            key: vec![0; 16],
            expires: Some(created.plus(lifetime)),
            created,
            version: SecureConversation::V13,
        };
        slot.set(Established {
            context: Arc::new(context(Duration::from_secs(100))),
            canceller: None,
        });
        assert!(slot.fresh(created.plus(Duration::from_secs(79))).is_some());
        assert!(slot.fresh(created.plus(Duration::from_secs(81))).is_none());
        // At most 60 s before: a 10-minute context lasts 9 minutes.
        slot.set(Established {
            context: Arc::new(context(Duration::from_secs(600))),
            canceller: None,
        });
        assert!(slot.fresh(created.plus(Duration::from_secs(539))).is_some());
        assert!(slot.fresh(created.plus(Duration::from_secs(541))).is_none());
        // The Cancel of a context being replaced is written under it, not under a new one.
        let token = token().cancelling(&slot.fresh(created).expect("fresh"));
        assert!(token
            .slot
            .fresh(created.plus(Duration::from_secs(599)))
            .is_some());
        slot.forget("urn:other");
        assert!(slot.fresh(created).is_some());
        slot.forget("urn:x");
        assert!(slot.fresh(created).is_none());
    }

    #[test]
    fn a_cancel_is_confirmed_by_requested_token_cancelled() {
        let rstr = |inner: &str| {
            format!(
                "<wst:RequestSecurityTokenResponse xmlns:wst=\"{WST_13_NS}\">{inner}\
                 </wst:RequestSecurityTokenResponse>"
            )
        };
        assert!(read_cancelled(&rstr("<wst:RequestedTokenCancelled/>"), WST_13_NS).is_ok());
        let collection = format!(
            "<wst:RequestSecurityTokenResponseCollection xmlns:wst=\"{WST_13_NS}\">{}\
             </wst:RequestSecurityTokenResponseCollection>",
            rstr("<wst:RequestedTokenCancelled/>")
        );
        assert!(read_cancelled(&collection, WST_13_NS).is_ok());
        let e = read_cancelled(&rstr(""), WST_13_NS)
            .unwrap_err()
            .to_string();
        assert!(e.contains("does not say the context is cancelled"), "{e}");
        // Of another WS-Trust version: not this one's answer.
        let other = rstr("<wst:RequestedTokenCancelled/>");
        assert!(read_cancelled(&other, WST_2005_NS).is_err());
    }

    #[test]
    fn key_sizes_are_the_suites() {
        assert!(token().key_size(256).is_ok());
        assert!(token().key_size(100).is_err());
        assert_eq!(
            operation(SecureConversation::V2005, SoapVersion::Soap12, true).action,
            "http://schemas.xmlsoap.org/ws/2005/02/trust/RST/SCT/Cancel"
        );
        assert_eq!(
            operation(SecureConversation::V13, SoapVersion::Soap11, false).version,
            SoapVersion::Soap11
        );
    }
}
