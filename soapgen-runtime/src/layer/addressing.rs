//! WS-Addressing as a message layer: the request's message addressing properties written on
//! the calls the client's mode addresses (WS-Addressing 1.0 Core §3.2, SOAP Binding §2–§3; see
//! [`crate::addressing`]), the `wsa` blocks of their replies understood, and each successful
//! reply's `wsa:RelatesTo` and `wsa:Action` checked against the request (Core §3.4, Metadata
//! §4.4).

use super::{MessageLayer, Outbound, Sent};
use crate::envelope::EnvelopeWriter;
use crate::error::{EncodeError, Error};
use crate::header::{HeaderCheck, HeaderError, HeaderErrorKind, HeaderSettings};

/// The WS-Addressing layer. It holds nothing: the client's [`HeaderSettings`] say whether and
/// how a call is addressed, and the request's [`Sent`] what its reply must match.
#[derive(Debug)]
pub(crate) struct Addressing;

impl Addressing {
    /// The version `call` is addressed in: the client's mode, resolved against the description.
    fn version(call: &Outbound<'_>) -> Option<crate::addressing::AddressingVersion> {
        call.headers.addressing.resolve(call.described)
    }
}

impl MessageLayer for Addressing {
    /// `wsa`, declared once on the `Envelope` of an addressed request.
    fn namespace(&self, call: &Outbound<'_>) -> Option<(&'static str, &'static str)> {
        Self::version(call).map(|v| ("wsa", v.namespace()))
    }

    /// `wsa:Action` (the operation's action), `wsa:MessageID`, `wsa:ReplyTo`, `wsa:FaultTo` and
    /// `wsa:To` (the endpoint), when the call is addressed.
    fn outbound(&self, call: &Outbound<'_>, env: &mut EnvelopeWriter) -> Result<(), EncodeError> {
        match Self::version(call) {
            Some(v) => env.addressing_to(v, call.op.action, call.endpoint, &call.headers.endpoints),
            None => Ok(()),
        }
    }

    /// An empty 2xx body answers an addressed request whose reply (or fault) was sent to
    /// `wsa:ReplyTo` (or `wsa:FaultTo`), not on the HTTP response (Core §3.2).
    fn no_envelope(&self, sent: Sent<'_>, headers: &HeaderSettings, ok: bool) -> Option<String> {
        let addressed = sent.addressed?;
        if !ok {
            return None;
        }
        match (&addressed.reply_to, &headers.endpoints.fault_to) {
            (Some(r), _) => Some(format!(
                "empty body: the request was accepted and its reply goes to wsa:ReplyTo {r} \
                 (WS-Addressing 1.0 Core §3.2)"
            )),
            (None, Some(f)) => Some(format!(
                "empty body: the request was accepted and a fault went to wsa:FaultTo {f} \
                 (WS-Addressing 1.0 Core §3.2)"
            )),
            (None, None) => None,
        }
    }

    /// The `wsa` blocks of the version the request was addressed in.
    fn understands(&self, sent: Sent<'_>, namespace: &str, _local: &str) -> bool {
        sent.addressed
            .is_some_and(|a| a.version.namespace() == namespace)
    }

    /// The reply's `wsa:RelatesTo` names the request's `wsa:MessageID` (Core §3.4), and its
    /// `wsa:Action` is the operation's output action when that is known (Metadata §4.4) and the
    /// client checks it.
    fn reply(
        &self,
        sent: Sent<'_>,
        found: &HeaderCheck<'_>,
        headers: &HeaderSettings,
    ) -> Result<(), Error> {
        let Some(a) = sent.addressed else {
            return Ok(());
        };
        let refuse = |kind| Err(Error::Header(Box::new(HeaderError { kind })));
        if found.relates_to.as_deref() != Some(a.message_id.as_str()) {
            return refuse(HeaderErrorKind::RelatesTo {
                expected: a.message_id.clone(),
                found: found.relates_to.clone(),
                version: a.version,
            });
        }
        match &a.reply_action {
            Some(expected)
                if !headers.ignore_reply_action
                    && found.action.as_deref() != Some(expected.as_str()) =>
            {
                refuse(HeaderErrorKind::Action {
                    expected: expected.clone(),
                    found: found.action.clone(),
                    version: a.version,
                })
            }
            _ => Ok(()),
        }
    }
}
