//! The message-layer seam: what a protocol on the SOAP message itself (WS-Security, WSS 1.1)
//! does on the call path, as hooks the client and the envelope writer call without knowing the
//! protocol.
//!
//! A [`Client`](crate::Client) holds at most one [`MessageLayer`]. On the way out it starts its
//! part of each request envelope ([`MessageLayer::outbound`], which gives the
//! [`EnvelopeWriter`](crate::envelope::EnvelopeWriter) an [`EnvelopeLayer`] that follows the
//! Body and rewrites the finished document); on the way in it sees every response envelope before
//! anything is decoded from it ([`MessageLayer::inbound`]: verified, decrypted, or refused), and
//! says which header blocks it processes ([`MessageLayer::understands`], for `mustUnderstand`,
//! SOAP 1.1 §4.2.3, SOAP 1.2 Part 1 §5.2.3). The WS-Security layer (`wss` module here) is the
//! one implementation, registered by `ClientBuilder::wss` and `EnvelopeWriter::wss`.

use std::fmt;

use crate::envelope::Incoming;
use crate::error::{EncodeError, Error};
use crate::fault::FaultSecurity;
use crate::mime::RequestMessage;
use crate::xml::XmlWriter;

#[cfg(feature = "wss")]
mod wss;

/// A message-level protocol a client applies to every call.
pub(crate) trait MessageLayer: fmt::Debug + Send + Sync {
    /// Starts the layer's part of a request envelope, before any header block is written (as
    /// [`EnvelopeWriter::start_layer`](crate::envelope::EnvelopeWriter::start_layer)).
    fn outbound(&self, env: &mut crate::envelope::EnvelopeWriter) -> Result<(), EncodeError>;

    /// Processes `response`, the envelope of a response with a 2xx status (`ok`) or not, before
    /// it is read; `request_signatures` are the raw SignatureValues of the request. An error is
    /// the call's.
    fn inbound(
        &self,
        response: Incoming<'_>,
        request_signatures: &[Vec<u8>],
        ok: bool,
    ) -> Result<Inbound, Error>;

    /// Whether the layer processes the response header block `{namespace}local`.
    fn understands(&self, namespace: &str, local: &str) -> bool;
}

/// What a [`MessageLayer`] made of a response.
#[derive(Debug, Default)]
pub(crate) struct Inbound {
    /// The envelope to read instead (UTF-8), when the layer rewrote it (decrypted its Body).
    pub(crate) rewritten: Option<String>,
    /// What a fault in the response is marked with.
    pub(crate) fault_security: FaultSecurity,
}

/// A layer's state in one request envelope while it is written: it sees where the Body starts
/// and its content ends, may add attributes to the Body's start tag, and rewrites the finished
/// document.
pub(crate) trait EnvelopeLayer: fmt::Debug + Send + Sync {
    /// The Body's start tag is about to be written at byte `at` of the document.
    fn body_starting(&mut self, at: usize);

    /// The Body's start tag is open in `w` (the Envelope's namespace declarations in scope):
    /// attributes may be added, or the tag closed.
    fn body_started(&mut self, w: &mut XmlWriter) -> Result<(), EncodeError>;

    /// The Body's content is written; the writer is at its end.
    fn body_ended(&mut self, w: &XmlWriter);

    /// Rewrites the finished `message` (its envelope; its `signature_values`, the raw bytes of
    /// the SignatureValues the envelope now carries).
    fn finish(&self, message: &mut RequestMessage) -> Result<(), EncodeError>;
}
