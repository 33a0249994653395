//! The headers of an addressed request: its `wsa:MessageID`, and the blocks of the table of the
//! [module](super) docs written into the `Header`.

use super::AddressingVersion;
use crate::error::EncodeError;
use crate::message::SoapVersion;
use crate::xml::{Name, XmlWriter};

/// Whether `address` can be a `wsa:Address`: an absolute IRI (Core §2.1: `[address]` is an
/// IRI; RFC 3987 §2.2, a scheme and `:`), without whitespace.
///
/// # Errors
///
/// [`EncodeError`] naming `what` (`wsa:ReplyTo`) and what is wrong.
pub(crate) fn check_address(what: &str, address: &str) -> Result<(), EncodeError> {
    let scheme_ok = address.split_once(':').is_some_and(|(s, _)| {
        s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    });
    if !scheme_ok || address.chars().any(char::is_whitespace) {
        return Err(EncodeError::invalid_value(
            what,
            &format!(
                "{address:?} is not an absolute IRI (WS-Addressing 1.0 Core §2.1: an \
                 endpoint's address is one, such as http://host/path)"
            ),
        ));
    }
    Ok(())
}

/// A fresh `wsa:MessageID`: `urn:uuid:` and a random version 4 UUID (RFC 9562 §5.4, from the
/// operating system's random source).
///
/// # Errors
///
/// [`EncodeError`] if the operating system gives no random bytes.
pub(crate) fn new_message_id() -> Result<String, EncodeError> {
    let mut b = [0u8; 16];
    getrandom::getrandom(&mut b).map_err(|e| EncodeError {
        message: format!("no random bytes for a WS-Addressing MessageID: {e}"),
    })?;
    b[6] = (b[6] & 0x0f) | 0x40; // version 4
    b[8] = (b[8] & 0x3f) | 0x80; // variant 10xx (RFC 9562 §4.1)
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    Ok(format!(
        "urn:uuid:{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    ))
}

/// The addressing properties of one request (Core §3.2).
#[derive(Debug)]
pub(super) struct RequestHeaders<'a> {
    pub(super) version: AddressingVersion,
    /// `[action]`, not empty.
    pub(super) action: &'a str,
    /// `[message id]`.
    pub(super) message_id: &'a str,
    /// `[reply endpoint]`'s address; the anonymous one when `None`.
    pub(super) reply_to: Option<&'a str>,
    /// `[fault endpoint]`'s address, if any.
    pub(super) fault_to: Option<&'a str>,
    /// `[destination]`.
    pub(super) to: &'a str,
}

impl RequestHeaders<'_> {
    /// Writes the blocks into the open `Header` of an envelope of `soap` (`wsa:Action` and
    /// `wsa:To` with `mustUnderstand`, SOAP Binding §3). WS-Security signs them when its signer
    /// is asked to (`X509Signer::sign_addressing`, feature `wss`), adding the `wsu:Id`s its
    /// references need (WSS 1.1 §4).
    ///
    /// # Errors
    ///
    /// [`EncodeError`] from the writer.
    pub(super) fn write(&self, w: &mut XmlWriter, soap: SoapVersion) -> Result<(), EncodeError> {
        let ns = self.version.namespace();
        let env = soap.envelope_namespace();
        let start = |w: &mut XmlWriter, local: &str, mu: bool| -> Result<(), EncodeError> {
            w.start_element(Name::new(ns, local))?;
            if mu {
                w.attribute(Name::new(env, "mustUnderstand"), "1")?;
            }
            Ok(())
        };
        start(w, "Action", true)?;
        w.text(self.action)?;
        w.end_element()?;
        start(w, "MessageID", false)?;
        w.text(self.message_id)?;
        w.end_element()?;
        start(w, "ReplyTo", false)?;
        w.simple_element(
            Name::new(ns, "Address"),
            self.reply_to.unwrap_or(self.version.anonymous()),
        )?;
        w.end_element()?;
        if let Some(fault_to) = self.fault_to {
            start(w, "FaultTo", false)?;
            w.simple_element(Name::new(ns, "Address"), fault_to)?;
            w.end_element()?;
        }
        start(w, "To", true)?;
        w.text(self.to)?;
        w.end_element()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_ids_are_version_4_uuids() {
        let a = new_message_id().unwrap();
        let b = new_message_id().unwrap();
        assert_ne!(a, b);
        let u = a.strip_prefix("urn:uuid:").unwrap();
        let parts: Vec<&str> = u.split('-').collect();
        assert_eq!(
            parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
            [8, 4, 4, 4, 12]
        );
        assert!(parts[2].starts_with('4'), "{a}");
        assert!(matches!(&parts[3][..1], "8" | "9" | "a" | "b"), "{a}");
    }

    #[test]
    fn reply_and_fault_endpoints_must_be_absolute_iris() {
        for bad in ["", "relative/path", "http ://x", "1http://x", "http://a b/"] {
            let e = check_address("wsa:ReplyTo address", bad).unwrap_err();
            assert!(e.message.contains("wsa:ReplyTo address"), "{bad:?}: {e}");
        }
        for good in [
            "http://127.0.0.1:9/replies",
            "urn:example:sink",
            "https://h/p?q=1",
        ] {
            check_address("wsa:FaultTo address", good).unwrap();
        }
        let e = super::super::Addressing::new()
            .fault_to("not an IRI")
            .check()
            .unwrap_err();
        assert!(e.message.contains("wsa:FaultTo"), "{e}");
    }
}
