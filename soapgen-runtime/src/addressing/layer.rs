//! WS-Addressing as a message layer: the request's message addressing properties written on the
//! calls the client's mode addresses (Core §3.2, SOAP Binding §2–§3), the `wsa` blocks of their
//! replies understood, each successful reply's `wsa:RelatesTo` and `wsa:Action` checked against
//! the request (Core §3.4, Metadata §4.4), and a fault given its `wsa:Action`.

use super::headers::{new_message_id, RequestHeaders};
use super::{Addressing, AddressingVersion, Described};
use crate::error::{DecodeError, EncodeError, Error};
use crate::fault::Fault;
use crate::header::{HeaderError, HeaderErrorKind};
use crate::message::{InboundBlock, LayerCall, MessageLayer, Outbound, SoapVersion};
use crate::xml::{Name, XmlWriter};

impl MessageLayer for Addressing {
    /// An addressed call when the client's mode, resolved against the description's
    /// [`Described`] fact, gives a version; never a GET of SOAP 1.2's SOAP-response MEP, which
    /// has no request envelope (its reply's `wsa` blocks are then read as any header block).
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if the call is addressed and the operation has no action (Core §3.1:
    /// `[action]` is required), or no random bytes for its MessageID.
    fn start(&self, call: &Outbound<'_>) -> Result<Option<Box<dyn LayerCall>>, EncodeError> {
        let op = call.operation;
        if op.soap_response.is_some() {
            // A GET of SOAP 1.2's SOAP-response MEP (Part 2 §6.3) has no request envelope to
            // carry message addressing properties: such a call is not addressed.
            return Ok(None);
        }
        let described = op.fact::<Described>();
        let Some(version) = self
            .mode
            .resolve(described.and_then(|d| d.version(op.version)))
        else {
            return Ok(None);
        };
        if op.action.is_empty() {
            return Err(EncodeError {
                message: "WS-Addressing needs the operation's action (wsa:Action, Core §3.1): the \
                          operation has no soapAction or wsam:Action; name one with \
                          #[soap(action = \"…\")]"
                    .to_owned(),
            });
        }
        Ok(Some(Box::new(Addressed {
            version,
            action: op.action,
            message_id: new_message_id()?,
            reply_to: self.reply_to.clone(),
            fault_to: self.fault_to.clone(),
            to: call.endpoint.to_owned(),
            reply_action: described
                .and_then(|d| d.reply_action)
                .filter(|_| self.check_reply_action),
            relates_to: None,
            found_action: None,
        })))
    }
}

/// One addressed exchange: what the request carried, and what its reply's `wsa` blocks said.
#[derive(Debug)]
struct Addressed {
    version: AddressingVersion,
    action: &'static str,
    message_id: String,
    reply_to: Option<String>,
    fault_to: Option<String>,
    to: String,
    /// The `wsa:Action` the reply must carry, when checked.
    reply_action: Option<&'static str>,
    /// The reply's `wsa:RelatesTo` of the reply relationship.
    relates_to: Option<String>,
    /// The reply's `wsa:Action`.
    found_action: Option<String>,
}

impl LayerCall for Addressed {
    /// `wsa`, declared once on the `Envelope`.
    fn namespace(&self) -> Option<(&'static str, &'static str)> {
        Some(("wsa", self.version.namespace()))
    }

    /// `wsa:Action`, `wsa:MessageID`, `wsa:ReplyTo`, `wsa:FaultTo` and `wsa:To`.
    fn write_header(&mut self, w: &mut XmlWriter, soap: SoapVersion) -> Result<(), EncodeError> {
        RequestHeaders {
            version: self.version,
            action: self.action,
            message_id: &self.message_id,
            reply_to: self.reply_to.as_deref(),
            fault_to: self.fault_to.as_deref(),
            to: &self.to,
        }
        .write(w, soap)
    }

    /// An empty 2xx body answers a request whose reply (or fault) was sent to `wsa:ReplyTo`
    /// (or `wsa:FaultTo`), not on the HTTP response (Core §3.2).
    fn no_envelope(&self, ok: bool) -> Option<String> {
        if !ok {
            return None;
        }
        match (&self.reply_to, &self.fault_to) {
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

    /// Every block of the request's addressing version is understood; the first `wsa:RelatesTo`
    /// of the reply relationship and the first `wsa:Action` are kept.
    fn header_block(&mut self, block: &mut InboundBlock<'_, '_>) -> Result<bool, DecodeError> {
        if block.namespace() != self.version.namespace() {
            return Ok(false);
        }
        match block.local_name() {
            "RelatesTo" if self.relates_to.is_none() => {
                let reply = block
                    .attribute(Name::unqualified("RelationshipType"))?
                    .is_none_or(|t| self.version.is_reply_relationship(t.trim()));
                if reply {
                    self.relates_to = Some(block.text()?.trim().to_owned());
                }
            }
            "Action" if self.found_action.is_none() => {
                self.found_action = Some(block.text()?.trim().to_owned());
            }
            _ => {}
        }
        Ok(true)
    }

    /// The reply's `wsa:RelatesTo` names the request's `wsa:MessageID` (Core §3.4), and its
    /// `wsa:Action` is the operation's output action when that is known (Metadata §4.4) and
    /// checked.
    fn reply(&mut self) -> Result<(), Error> {
        let refuse = |kind| Err(Error::Header(Box::new(HeaderError { kind })));
        if self.relates_to.as_deref() != Some(self.message_id.as_str()) {
            return refuse(HeaderErrorKind::RelatesTo {
                expected: self.message_id.clone(),
                found: self.relates_to.clone(),
                version: self.version,
            });
        }
        match self.reply_action {
            Some(expected) if self.found_action.as_deref() != Some(expected) => {
                refuse(HeaderErrorKind::Action {
                    expected: expected.to_owned(),
                    found: self.found_action.clone(),
                    version: self.version,
                })
            }
            _ => Ok(()),
        }
    }

    /// The fault's `wsa:Action`, whatever it is (a fault is reported as the fault).
    fn fault(&mut self, fault: &mut Fault) -> Result<(), Error> {
        fault.action = self.found_action.clone();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::addressing::AddressingMode;
    use crate::message::{Incoming, Operation};

    static FACTS: [crate::message::Fact; 1] = [&Described::new(
        &[(SoapVersion::Soap12, AddressingVersion::Submission2004)],
        None,
    )];

    #[test]
    fn mode_resolves_against_the_description() {
        let d = Some(AddressingVersion::Submission2004);
        assert_eq!(AddressingMode::FromDescription.resolve(d), d);
        assert_eq!(AddressingMode::FromDescription.resolve(None), None);
        assert_eq!(AddressingMode::Off.resolve(d), None);
        assert_eq!(
            AddressingMode::On(AddressingVersion::W3C).resolve(None),
            Some(AddressingVersion::W3C)
        );
        let op = Operation::new("Echo", "urn:echo", SoapVersion::Soap12).described(&FACTS);
        let call = Outbound::new(&op, "http://x/");
        assert!(Addressing::new().start(&call).unwrap().is_some());
        assert!(Addressing::off().start(&call).unwrap().is_none());
        let op11 = Operation::new("Echo", "urn:echo", SoapVersion::Soap11).described(&FACTS);
        assert!(Addressing::new()
            .start(&Outbound::new(&op11, "http://x/"))
            .unwrap()
            .is_none());
    }

    #[test]
    fn no_action_is_an_error() {
        let op = Operation::new("Echo", "", SoapVersion::Soap11);
        let e = Addressing::on(AddressingVersion::W3C)
            .start(&Outbound::new(&op, "http://x/"))
            .unwrap_err();
        assert!(e.message.contains("wsa:Action"), "{e}");
    }

    /// The reply header blocks `header` read by an addressed call of `version`.
    fn read_headers(version: AddressingVersion, header: &str) -> Addressed {
        let mut call = Addressed {
            version,
            action: "urn:echo",
            message_id: "urn:uuid:0".to_owned(),
            reply_to: None,
            fault_to: None,
            to: "http://x/".to_owned(),
            reply_action: None,
            relates_to: None,
            found_action: None,
        };
        let doc = format!(
            "<e:Envelope xmlns:e=\"{}\"><e:Header>{header}</e:Header><e:Body/></e:Envelope>",
            SoapVersion::Soap11.envelope_namespace()
        );
        let incoming = Incoming::new(doc.as_bytes(), Default::default());
        crate::envelope::read_envelope(
            &incoming,
            Some(&mut |r, start, v| {
                let ns = String::from_utf8_lossy(r.namespace_of(&start)).into_owned();
                let mut block = InboundBlock::new(r, &start, &ns, v, None);
                call.header_block(&mut block)?;
                if !block.consumed() {
                    r.skip_element()?;
                }
                Ok(())
            }),
            &mut |r, _| r.skip_element(),
        )
        .unwrap();
        call
    }

    #[test]
    fn relates_to_is_the_reply_relationship_only() {
        let ns = AddressingVersion::W3C.namespace();
        let a = read_headers(
            AddressingVersion::W3C,
            &format!(
                r#"<a:RelatesTo xmlns:a="{ns}" RelationshipType="urn:other">urn:uuid:1</a:RelatesTo><a:RelatesTo xmlns:a="{ns}"> urn:uuid:2 </a:RelatesTo><a:Action xmlns:a="{ns}">urn:out</a:Action>"#
            ),
        );
        assert_eq!(a.relates_to.as_deref(), Some("urn:uuid:2"));
        assert_eq!(a.found_action.as_deref(), Some("urn:out"));
        let old = AddressingVersion::Submission2004.namespace();
        let a = read_headers(
            AddressingVersion::Submission2004,
            &format!(
                r#"<w:RelatesTo xmlns:w="{old}" RelationshipType="w:Reply">urn:uuid:3</w:RelatesTo>"#
            ),
        );
        assert_eq!(a.relates_to.as_deref(), Some("urn:uuid:3"));
        // Blocks of the other version are not this call's.
        let a = read_headers(
            AddressingVersion::Submission2004,
            &format!(r#"<a:Action xmlns:a="{ns}">urn:x</a:Action>"#),
        );
        assert_eq!(a.found_action, None);
    }
}
