//! WS-Security (WSS 1.1) as a message layer: the `wsse:Security` block of each request
//! (UsernameToken, Timestamp, signature, encryption; [`Outgoing`]) and the inbound policy on each
//! response ([`WssConfig::check_response_to`]), registered by
//! [`ClientBuilder::wss`](crate::ClientBuilder::wss).

use super::{Outgoing, Sent, UtcTime, WssConfig, WssError, WSSE_NS, WSU_NS};
use crate::error::{EncodeError, Error};
use crate::fault::{Fault, FaultSecurity};
use crate::message::{
    Exchanger, InboundBlock, Incoming, LayerCall, LayerFuture, MessageLayer, Outbound,
    RequestMessage, SoapVersion, Verdict,
};
use crate::mime::Packaging;
use crate::xml::{Name, XmlWriter};

impl MessageLayer for WssConfig {
    /// Every call is secured: a `wsse:Security` block for its request, the inbound policy on
    /// its response.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if the system's random source fails (the block's `wsu:Id`s).
    fn start(&self, call: &Outbound<'_>) -> Result<Option<Box<dyn LayerCall>>, EncodeError> {
        Ok(Some(Box::new(Secured {
            out: Outgoing::new(self.clone())?,
            version: call.operation.version,
            env_prefix: String::new(),
            content_start: None,
            sent: Sent::default(),
            failure: None,
            verified: false,
        })))
    }

    /// Establishes the WS-SecureConversation context, if the configuration has one
    /// ([`WssConfig::secure_conversation`]) and none is in use.
    fn prepare<'a>(
        &'a self,
        client: &'a dyn Exchanger,
        call: Outbound<'a>,
    ) -> Option<LayerFuture<'a>> {
        let sc = self.context_token()?;
        Some(Box::pin(sc.establish(self, client, call.operation.version)))
    }

    /// Cancels the WS-SecureConversation context in use, if any.
    fn close<'a>(&'a self, _client: &'a dyn Exchanger) -> Option<LayerFuture<'a>> {
        let sc = self.context_token()?;
        Some(Box::pin(sc.close()))
    }
}

/// One secured exchange: the Security block being written, the envelope's version and
/// namespace prefix, where the Body's content starts when it is encrypted, what the request left
/// for its response's check (its SignatureValues, which the response's SignatureConfirmations
/// echo, WSS 1.1 §8.5; a SymmetricBinding's request key), and what the response's check found.
#[derive(Debug)]
struct Secured {
    out: Outgoing,
    version: SoapVersion,
    env_prefix: String,
    content_start: Option<usize>,
    sent: Sent,
    /// Why the response failed the inbound policy.
    failure: Option<WssError>,
    /// The response met the inbound policy.
    verified: bool,
}

impl LayerCall for Secured {
    /// Signatures and encryption cover the Body (WSS 1.1 §8, §9): verified on the whole
    /// document.
    fn whole_response(&self) -> bool {
        true
    }

    /// Notes where the Security block goes: first in the `Header` (WSS 1.1 §5); it is written
    /// when the envelope is finished.
    fn write_header(&mut self, w: &mut XmlWriter, version: SoapVersion) -> Result<(), EncodeError> {
        self.version = version;
        self.out.set_header_at(w.as_str().len());
        Ok(())
    }

    /// The Body's `wsu:Id`, which the signature references (WSS 1.1 §4); its start tag closed
    /// when its content is encrypted.
    fn start_body(&mut self, w: &mut XmlWriter, at: usize) -> Result<(), EncodeError> {
        self.out.set_body_at(at);
        self.env_prefix = w.prefix_for(self.version.envelope_namespace())?;
        if let Some(id) = self.out.body_id() {
            w.declare_namespace("wsu", WSU_NS)?;
            w.attribute(Name::new(WSU_NS, "Id"), &id)?;
        }
        self.content_start = if self.out.encrypts_body() {
            w.raw("")?; // closes the Body start tag: the content starts here
            Some(w.as_str().len())
        } else {
            None
        };
        Ok(())
    }

    fn end_body(&mut self, w: &XmlWriter) {
        if let Some(start) = self.content_start.take() {
            self.out.set_body_content(start, w.as_str().len());
        }
    }

    /// Encrypts and signs the finished envelope and inserts the Security block.
    fn finish(&mut self, message: &mut RequestMessage) -> Result<(), EncodeError> {
        if !message.attachments.is_empty() {
            let (signs, encrypts) = self.out.protects_attachments();
            if (signs || encrypts) && message.packaging == Packaging::Mtom {
                return Err(EncodeError::misuse(
                    "WS-Security protects SwA attachments (WSS SwA Profile 1.1), not MTOM ones: \
                     send the data inline, or bind it as a MIME part",
                ));
            }
            if self.out.encrypts_body() && message.packaging == Packaging::Mtom {
                return Err(EncodeError::misuse(
                    "the Body is encrypted but its MTOM attachments would travel in the clear, and \
                     WS-Security protects SwA attachments only (WSS SwA Profile 1.1): send the \
                     data inline (no MTOM), or do not encrypt",
                ));
            }
            if self.out.encrypts_body() && !encrypts {
                return Err(EncodeError::misuse(
                    "the Body is encrypted but the attachments would travel in the clear: encrypt \
                     them too (X509Encryptor::encrypt_attachments, \
                     SymmetricBinding::encrypt_attachments), send the data inline, or do not \
                     encrypt",
                ));
            }
        }
        self.sent = self.out.finish(
            self.version,
            &self.env_prefix,
            &mut message.envelope,
            &mut message.attachments,
        )?;
        Ok(())
    }

    /// Signatures verified and the Body decrypted, before anything is read from the response (the
    /// decrypted envelope is what is read); a response that fails the policy is refused.
    fn inbound(&mut self, response: &Incoming<'_>) -> Verdict {
        if let Some(e) = unverifiable_attachments(self.out.config(), response) {
            self.failure = Some(e.clone());
            return Verdict::Refuse(Error::Security(Box::new(e)));
        }
        let doc = match crate::xml::to_utf8(response.body, response.http_charset) {
            Ok(d) => d,
            Err(e) => return Verdict::Refuse(e.into()),
        };
        let cfg = self.out.config();
        match cfg.check_response_with_limits(
            &doc,
            Some(&self.sent.signature_values),
            self.sent.request_key.as_ref(),
            UtcTime::now(),
            response.limits,
        ) {
            Ok(p) => {
                self.verified = true;
                match p.decrypted {
                    Some(d) => Verdict::Rewrite(d),
                    None => Verdict::Accept,
                }
            }
            Err(e) => {
                self.failure = Some(e.clone());
                Verdict::Refuse(Error::Security(Box::new(e)))
            }
        }
    }

    /// The `wsse:Security` block is processed (by [`inbound`](Self::inbound)).
    fn header_block(
        &mut self,
        block: &mut InboundBlock<'_, '_>,
    ) -> Result<bool, crate::error::DecodeError> {
        Ok(block.namespace() == WSSE_NS && block.local_name() == "Security")
    }

    /// Only a signature vouches for a fault (WSS 1.1 §8.4): a fault whose envelope met a policy
    /// that requires signatures is marked verified; one that failed the policy is marked not
    /// verified, or refused if the configuration
    /// [`refuses_unverified_faults`](WssConfig::refuses_unverified_faults).
    fn fault(&mut self, fault: &mut Fault) -> Result<(), Error> {
        self.out.context_refused(fault, self.failure.is_some());
        let cfg = self.out.config();
        match self.failure.take() {
            Some(e) if cfg.refuses_unverified_faults() => Err(Error::Security(Box::new(e))),
            Some(e) => {
                fault.security = FaultSecurity::NotVerified(e.to_string());
                Ok(())
            }
            None => {
                if self.verified && cfg.requires_signature() {
                    fault.security = FaultSecurity::Verified;
                }
                Ok(())
            }
        }
    }
}

/// A response's SwA attachments that its configuration requires signed or encrypted
/// ([`WssConfig::require_protected_attachments`]): soapgen does not verify or decrypt them yet, so
/// the first such attachment refuses the response.
fn unverifiable_attachments(cfg: &WssConfig, response: &Incoming<'_>) -> Option<WssError> {
    let (signed, encrypted) = cfg.protected_attachments();
    let part = response.attachments?.iter().next()?;
    let name = format!(
        "attachment <{}>",
        part.content_id.as_deref().unwrap_or("without a Content-ID")
    );
    let why = " (soapgen does not verify the attachments of a response yet)";
    if signed {
        Some(WssError::NotSigned {
            part: name,
            detail: why.to_owned(),
        })
    } else if encrypted {
        Some(WssError::NotEncrypted(format!("{name}{why}")))
    } else {
        None
    }
}
