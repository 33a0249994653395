//! The message-layer seam: what a protocol on the SOAP message itself does on the call path, as
//! hooks the client and the envelope writer call without knowing the protocol. Two layers plug
//! in: WS-Addressing (WS-Addressing 1.0 Core §3 and SOAP Binding; `addressing` module here, on
//! every client, active on the calls its mode addresses) and WS-Security (WSS 1.1; `wss` module,
//! feature `wss`, registered by `ClientBuilder::wss` and `EnvelopeWriter::wss`).
//!
//! On the way out, each layer may declare a namespace on the `Envelope`
//! ([`MessageLayer::namespace`]) and starts its part of each request envelope
//! ([`MessageLayer::outbound`]: header blocks, or an [`EnvelopeLayer`] given to the
//! [`EnvelopeWriter`](crate::envelope::EnvelopeWriter) that follows the Body and rewrites the
//! finished document); what the request carried for its reply ([`Sent`]: its `wsa:MessageID`,
//! its SignatureValues) travels with the call. On the way in, each layer sees every response
//! envelope before anything is decoded from it ([`MessageLayer::inbound`]: verified, decrypted, or
//! refused), says which header blocks it processes ([`MessageLayer::understands`], for
//! `mustUnderstand`, SOAP 1.1 §4.2.3, SOAP 1.2 Part 1 §5.2.3), and checks a successful reply
//! against the request once it is read ([`MessageLayer::reply`]: `wsa:RelatesTo`,
//! `wsa:Action`). The WS-Security layer goes first: its `wsse:Security` block leads the `Header`
//! (WSS 1.1 §5).

use std::fmt;

use crate::addressing::Addressed;
use crate::client::Operation;
use crate::envelope::{EnvelopeWriter, Incoming};
use crate::error::{EncodeError, Error};
use crate::fault::FaultSecurity;
use crate::header::{HeaderCheck, HeaderSettings};
use crate::mime::RequestMessage;
use crate::xml::XmlWriter;

mod addressing;
#[cfg(feature = "wss")]
mod wss;

/// A message-level protocol a client applies to every call.
pub(crate) trait MessageLayer: fmt::Debug + Send + Sync {
    /// A `(prefix, namespace)` to declare on the request's `Envelope`, so that the layer's
    /// header blocks share one declaration with the operation's namespaces (none by default).
    fn namespace(&self, _call: &Outbound<'_>) -> Option<(&'static str, &'static str)> {
        None
    }

    /// Starts the layer's part of a request envelope: header blocks, or an [`EnvelopeLayer`]
    /// given with [`EnvelopeWriter::start_layer`] (which must come before any header block).
    fn outbound(&self, call: &Outbound<'_>, env: &mut EnvelopeWriter) -> Result<(), EncodeError>;

    /// Why a response with no envelope at all (an empty body) has none, when the layer knows
    /// (the reply was sent to `wsa:ReplyTo`); `ok`: the HTTP status was 2xx.
    fn no_envelope(&self, _sent: Sent<'_>, _headers: &HeaderSettings, _ok: bool) -> Option<String> {
        None
    }

    /// Processes `response`, the envelope of a response with a 2xx status (`ok`) or not, before
    /// it is read (nothing by default). An error is the call's.
    fn inbound(
        &self,
        _response: Incoming<'_>,
        _sent: Sent<'_>,
        _ok: bool,
    ) -> Result<Inbound, Error> {
        Ok(Inbound::default())
    }

    /// Whether the layer processes the response header block `{namespace}local` of the call
    /// that sent `sent`.
    fn understands(&self, sent: Sent<'_>, namespace: &str, local: &str) -> bool;

    /// Checks a successful reply to `sent`, read, whose header blocks gave `found` (nothing by
    /// default). An error is the call's.
    fn reply(
        &self,
        _sent: Sent<'_>,
        _found: &HeaderCheck<'_>,
        _headers: &HeaderSettings,
    ) -> Result<(), Error> {
        Ok(())
    }
}

/// What the layers are told of a call when its request envelope is started.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Outbound<'a> {
    /// The operation called.
    pub(crate) op: &'a Operation,
    /// The client's endpoint URL.
    pub(crate) endpoint: &'a str,
    /// The WS-Addressing the service description gives the operation's binding, if any.
    pub(crate) described: Option<crate::addressing::AddressingVersion>,
    /// The client's SOAP header settings (its WS-Addressing mode and endpoints among them).
    pub(crate) headers: &'a HeaderSettings,
}

/// What a request carried that its reply is checked against: its addressing (the
/// `wsa:MessageID` the reply's `wsa:RelatesTo` must name) and the raw bytes of its
/// SignatureValues (which a reply's `wsse11:SignatureConfirmation`s must echo, WSS 1.1 §8.5).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Sent<'a> {
    /// The request's addressing, if it was addressed.
    pub(crate) addressed: Option<&'a Addressed>,
    /// The request's SignatureValues, raw.
    #[cfg_attr(not(feature = "wss"), allow(dead_code))] // read by the WS-Security layer
    pub(crate) signature_values: &'a [Vec<u8>],
}

/// The layers of a client, in order: its configured one (WS-Security), then WS-Addressing.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Layers<'a> {
    configured: Option<&'a dyn MessageLayer>,
}

impl<'a> Layers<'a> {
    /// The configured layer (if any), then WS-Addressing.
    pub(crate) fn new(configured: Option<&'a dyn MessageLayer>) -> Self {
        Layers { configured }
    }

    /// Each layer, in order.
    pub(crate) fn iter(self) -> impl Iterator<Item = &'a dyn MessageLayer> {
        static ADDRESSING: addressing::Addressing = addressing::Addressing;
        self.configured
            .into_iter()
            .chain(std::iter::once(&ADDRESSING as &dyn MessageLayer))
    }
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
