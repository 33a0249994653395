//! WS-Security (WSS 1.1) as the client's message layer: the `wsse:Security` block of each request
//! (UsernameToken, Timestamp, signature, encryption; [`crate::wss::Outgoing`]) and the inbound
//! policy on each response ([`crate::wss::check_response`]), registered by
//! [`ClientBuilder::wss`] and [`EnvelopeWriter::wss`]: the one place where the call path meets
//! the `wss` feature.

use std::sync::Arc;

use super::{EnvelopeLayer, Inbound, MessageLayer, Outbound, Sent};
use crate::envelope::{read_envelope_with_headers, EnvelopeWriter, Incoming, SoapVersion};
use crate::error::{EncodeError, Error};
use crate::mime::RequestMessage;
use crate::wss::{Checked, Outgoing, WssConfig, WSSE_NS, WSU_NS};
use crate::xml::{Name, XmlReader, XmlWriter};
use crate::ClientBuilder;

impl ClientBuilder {
    /// WS-Security for every call (feature `wss`): each request gets a `wsse:Security` header
    /// made from `cfg` (UsernameToken, Timestamp, signature; WSS 1.1 §5), and each response with a 2xx
    /// status must meet its inbound policy, else [`Error::Security`]. See [`crate::wss`].
    pub fn wss(self, cfg: WssConfig) -> Self {
        self.layer(Arc::new(Wss(cfg)))
    }
}

impl EnvelopeWriter {
    /// Puts a `wsse:Security` header block made from `cfg` first in this envelope's `Header`
    /// (WSS 1.1 §5), written when the envelope is finished. Call it before any header entry.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if a header entry or the body was already written.
    pub fn wss(&mut self, cfg: WssConfig) -> Result<(), EncodeError> {
        let version = self.version();
        self.start_layer(
            "WS-Security configured after the header was started",
            |header_at| {
                Ok(Box::new(WssEnvelope {
                    out: Outgoing::new(cfg, header_at)?,
                    version,
                    env_prefix: String::new(),
                    content_start: None,
                }))
            },
        )
    }
}

/// The client's layer: its WS-Security configuration.
#[derive(Debug)]
struct Wss(WssConfig);

impl MessageLayer for Wss {
    fn outbound(&self, _call: &Outbound<'_>, env: &mut EnvelopeWriter) -> Result<(), EncodeError> {
        env.wss(self.0.clone())
    }

    /// Signatures verified and the Body decrypted, before anything is read from the response (the
    /// decrypted envelope is what is read). A fault that fails the policy is returned marked as
    /// not verified (or refused, as the policy says).
    fn inbound(&self, response: Incoming<'_>, sent: Sent<'_>, ok: bool) -> Result<Inbound, Error> {
        let read_fault = || match read_envelope_with_headers(
            Incoming {
                expected: None,
                ..response
            },
            None,
            &mut |r: &mut XmlReader<'_>, _| r.skip_element(),
        ) {
            Err(Error::Fault(f)) => Some(f),
            _ => None,
        };
        match crate::wss::check_response(
            &self.0,
            response.body,
            sent.signature_values,
            response.http_charset,
            ok,
            response.limits,
            read_fault,
        ) {
            Checked::Fail(e) => Err(e),
            Checked::Read {
                decrypted,
                fault_security,
            } => Ok(Inbound {
                rewritten: decrypted,
                fault_security,
            }),
        }
    }

    fn understands(&self, _sent: Sent<'_>, namespace: &str, local: &str) -> bool {
        namespace == WSSE_NS && local == "Security"
    }
}

/// The Security block of one request envelope, the envelope's version and namespace prefix,
/// and where the Body's content starts when it is encrypted.
#[derive(Debug)]
struct WssEnvelope {
    out: Outgoing,
    version: SoapVersion,
    env_prefix: String,
    content_start: Option<usize>,
}

impl EnvelopeLayer for WssEnvelope {
    fn body_starting(&mut self, at: usize) {
        self.out.set_body_at(at);
    }

    fn body_started(&mut self, w: &mut XmlWriter) -> Result<(), EncodeError> {
        self.env_prefix = w.prefix_for(self.version.envelope_namespace())?;
        if let Some(id) = self.out.body_id() {
            // WSS 1.1 §4: the signature references the Body by its wsu:Id.
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

    fn body_ended(&mut self, w: &XmlWriter) {
        if let Some(start) = self.content_start.take() {
            self.out.set_body_content(start, w.as_str().len());
        }
    }

    fn finish(&self, message: &mut RequestMessage) -> Result<(), EncodeError> {
        if self.out.encrypts_body() && !message.attachments.is_empty() {
            return Err(EncodeError::misuse(
                "WS-Security encryption does not cover attachments (MTOM, SwA): \
                 send the data inline, or do not encrypt",
            ));
        }
        message.signature_values =
            self.out
                .finish(self.version, &self.env_prefix, &mut message.envelope)?;
        Ok(())
    }
}
