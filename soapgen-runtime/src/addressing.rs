//! WS-Addressing message addressing properties on requests, and the reply's `wsa:RelatesTo`
//! checked: WS-Addressing 1.0 (W3C Recommendation 2006, Core §3 and SOAP Binding §2–§3) and the
//! 2004/08 member submission that older WCF and Axis2 services speak.
//!
//! A request of an addressed call carries, in its SOAP `Header`:
//!
//! | header | value | spec |
//! |---|---|---|
//! | `wsa:Action` (`mustUnderstand="1"`) | the operation's action IRI (also the `SOAPAction`) | Core §3.2 `[action]` |
//! | `wsa:MessageID` | `urn:uuid:` and a random (version 4) UUID, RFC 9562 | Core §3.2 `[message id]` |
//! | `wsa:ReplyTo` | `wsa:Address` = the version's anonymous IRI: reply on the HTTP response (or the address of [`ResponseEndpoints::reply_to`]) | Core §3.2 `[reply endpoint]`, §3 predefined addresses |
//! | `wsa:FaultTo` | only with [`ResponseEndpoints::fault_to`]: its address | Core §3.2 `[fault endpoint]` |
//! | `wsa:To` (`mustUnderstand="1"`) | the client's endpoint URL | Core §3.2 `[destination]` |
//!
//! and its reply must carry `wsa:RelatesTo` (with no `RelationshipType`, or the reply one) equal
//! to that `MessageID` (Core §3.4), else the call fails with
//! [`HeaderErrorKind::RelatesTo`](crate::header::HeaderErrorKind::RelatesTo), and, when the
//! operation's output action is known ([`Addressed::reply_action`]), a `wsa:Action` equal to it,
//! else [`HeaderErrorKind::Action`](crate::header::HeaderErrorKind::Action). A SOAP fault is
//! reported as the fault whatever its addressing headers (its `wsa:Action` is the fault action,
//! `…/addressing/fault` or `…/addressing/soap/fault`, SOAP Binding §6 Faults, or one the WSDL names).
//!
//! Addressing is on for a call when the client says so ([`ClientBuilder::addressing`]) or, if
//! the client leaves it to the service description ([`AddressingMode::FromDescription`], the
//! default), when the generated client's WSDL or `#[soap_client(addressing = "…")]` says so.
//!
//! [`ClientBuilder::addressing`]: crate::ClientBuilder::addressing
//!
//! # Examples
//!
//! ```
//! # #[cfg(feature = "reqwest")] {
//! use soapgen_runtime::addressing::{AddressingMode, AddressingVersion};
//! let client = soapgen_runtime::Client::builder("http://127.0.0.1:8080/svc")
//!     .addressing(AddressingMode::On(AddressingVersion::W3C))
//!     .build()?;
//! # }
//! # Ok::<(), soapgen_runtime::Error>(())
//! ```

use crate::envelope::SoapVersion;
use crate::error::EncodeError;
use crate::xml::{Name, XmlWriter};

/// The WS-Addressing 1.0 namespace (W3C Recommendation 2006, Core §1.2 `wsa`).
pub const WSA_NS: &str = "http://www.w3.org/2005/08/addressing";
/// The namespace of the 2004/08 member submission (`wsa`, W3C Member Submission 2004-08-10).
pub const WSA_2004_NS: &str = "http://schemas.xmlsoap.org/ws/2004/08/addressing";

/// Which WS-Addressing the headers are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddressingVersion {
    /// WS-Addressing 1.0, W3C Recommendation 2006 ([`WSA_NS`]): WCF's `Soap12WSAddressing10`,
    /// what `wsam:Addressing` and `wsaw:UsingAddressing` mean.
    W3C,
    /// The 2004/08 member submission ([`WSA_2004_NS`]): WCF's `WSAddressingAugust2004`, Axis2's
    /// `submission`.
    Submission2004,
}

impl AddressingVersion {
    /// The namespace of the headers.
    pub const fn namespace(self) -> &'static str {
        match self {
            AddressingVersion::W3C => WSA_NS,
            AddressingVersion::Submission2004 => WSA_2004_NS,
        }
    }

    /// The version whose namespace is `ns`.
    pub fn from_namespace(ns: &str) -> Option<Self> {
        match ns {
            WSA_NS => Some(AddressingVersion::W3C),
            WSA_2004_NS => Some(AddressingVersion::Submission2004),
            _ => None,
        }
    }

    /// The anonymous address, "reply on the back channel" (Core §3's predefined addresses; the
    /// submission's `…/role/anonymous`).
    pub const fn anonymous(self) -> &'static str {
        match self {
            AddressingVersion::W3C => "http://www.w3.org/2005/08/addressing/anonymous",
            AddressingVersion::Submission2004 => {
                "http://schemas.xmlsoap.org/ws/2004/08/addressing/role/anonymous"
            }
        }
    }

    /// Whether a `RelationshipType` value says "reply": WS-Addressing 1.0's IRI
    /// `…/addressing/reply` (Core §3's predefined relationship), or the submission's QName `wsa:Reply` (§3.2; any
    /// prefix: its local part is taken). An absent attribute means reply in both.
    pub fn is_reply_relationship(self, value: &str) -> bool {
        match self {
            AddressingVersion::W3C => value == "http://www.w3.org/2005/08/addressing/reply",
            AddressingVersion::Submission2004 => value.rsplit(':').next() == Some("Reply"),
        }
    }

    /// The local names of the request headers [`write_request_headers`] writes, in order.
    pub const REQUEST_HEADERS: [&'static str; 4] = ["Action", "MessageID", "ReplyTo", "To"];

    /// The actions a fault may carry when the description names none (SOAP Binding §6,
    /// `…/fault` and `…/soap/fault`; the submission's §5 `…/fault`).
    pub const fn fault_actions(self) -> &'static [&'static str] {
        match self {
            AddressingVersion::W3C => &[
                "http://www.w3.org/2005/08/addressing/fault",
                "http://www.w3.org/2005/08/addressing/soap/fault",
            ],
            AddressingVersion::Submission2004 => {
                &["http://schemas.xmlsoap.org/ws/2004/08/addressing/fault"]
            }
        }
    }
}

impl std::fmt::Display for AddressingVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            AddressingVersion::W3C => "WS-Addressing 1.0",
            AddressingVersion::Submission2004 => "WS-Addressing 2004/08",
        })
    }
}

/// Whether a client's calls are addressed, set with
/// [`ClientBuilder::addressing`](crate::ClientBuilder::addressing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AddressingMode {
    /// As the generated client says: on where its WSDL requires or allows it
    /// (`wsaw:UsingAddressing`, a `wsam:Addressing` policy assertion) or its trait has
    /// `#[soap_client(addressing = "…")]`, off otherwise. The default.
    #[default]
    FromDescription,
    /// Every call addressed in this version, whatever the description says.
    On(AddressingVersion),
    /// No call addressed, whatever the description says (a service that lists addressing as
    /// optional and a proxy that refuses it).
    Off,
}

impl AddressingMode {
    /// The version a call is addressed in, given the description's `default`.
    pub const fn resolve(self, default: Option<AddressingVersion>) -> Option<AddressingVersion> {
        match self {
            AddressingMode::FromDescription => default,
            AddressingMode::On(v) => Some(v),
            AddressingMode::Off => None,
        }
    }
}

/// What an addressed request was sent with: its version and `wsa:MessageID`, which the reply's
/// `wsa:RelatesTo` must name (Core §3.4), where its reply was sent, and the `wsa:Action` the
/// reply must carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Addressed {
    /// The version the headers were written in.
    pub version: AddressingVersion,
    /// The request's `wsa:MessageID`.
    pub message_id: String,
    /// The request's `wsa:ReplyTo` address when it is not the anonymous one (Core §3.2
    /// `[reply endpoint]`): the reply goes there, not on the HTTP response.
    pub reply_to: Option<String>,
    /// The `wsa:Action` the reply must carry (the operation's output action, WS-Addressing 1.0
    /// Metadata §4.4), if known: set by [`Call::expect_reply_action`](crate::Call::expect_reply_action).
    pub reply_action: Option<String>,
}

/// Where the replies and faults of addressed requests go, when not on the HTTP response
/// (Core §3.2 `[reply endpoint]` and `[fault endpoint]`; SOAP Binding §5 for the anonymous
/// address): set on a client with
/// [`ClientBuilder::reply_to`](crate::ClientBuilder::reply_to) and
/// [`fault_to`](crate::ClientBuilder::fault_to). `None`: `wsa:ReplyTo` is the anonymous address,
/// and no `wsa:FaultTo` is sent (faults then go where replies go, Core §3.4).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResponseEndpoints {
    /// The `wsa:ReplyTo`'s `wsa:Address` (an absolute IRI).
    pub reply_to: Option<String>,
    /// The `wsa:FaultTo`'s `wsa:Address` (an absolute IRI).
    pub fault_to: Option<String>,
}

/// Whether `address` can be a `wsa:Address`: an absolute IRI (Core §2.1: `[address]` is an
/// IRI; RFC 3987 §2.2, a scheme and `:`), without whitespace.
///
/// # Errors
///
/// [`EncodeError`] naming `what` (`wsa:ReplyTo`) and what is wrong.
pub fn check_address(what: &str, address: &str) -> Result<(), EncodeError> {
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
pub fn new_message_id() -> Result<String, EncodeError> {
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

/// Writes the request's addressing headers (the table of the [module](self) docs) into the open
/// `Header` of an envelope of `soap`, and returns the `MessageID` written. WS-Security signs
/// them when its signer is asked to (`X509Signer::sign_addressing`, feature `wss`), adding the
/// `wsu:Id`s its references need (WSS 1.1 §4).
///
/// # Errors
///
/// [`EncodeError`] if `action` is empty (Core §3.1: `[action]` is required; give the operation an
/// action or let the default action pattern of WS-Addressing Metadata §4.4.4 name it), or from
/// the writer.
pub fn write_request_headers(
    w: &mut XmlWriter,
    version: AddressingVersion,
    soap: SoapVersion,
    action: &str,
    to: &str,
) -> Result<String, EncodeError> {
    write_request_headers_to(w, version, soap, action, to, &ResponseEndpoints::default())
}

/// [`write_request_headers`] with the reply and fault endpoints of `endpoints`: `wsa:ReplyTo`'s
/// address is `endpoints.reply_to` (else the anonymous one), and a `wsa:FaultTo` follows it
/// when `endpoints.fault_to` is set (Core §3.2). WS-Security's `sign_addressing` does not
/// cover `wsa:FaultTo`: sign it with `sign_header(version.namespace(), "FaultTo")`.
///
/// # Errors
///
/// As [`write_request_headers`], and [`EncodeError`] if an address is not an absolute IRI
/// ([`check_address`]).
pub fn write_request_headers_to(
    w: &mut XmlWriter,
    version: AddressingVersion,
    soap: SoapVersion,
    action: &str,
    to: &str,
    endpoints: &ResponseEndpoints,
) -> Result<String, EncodeError> {
    if let Some(a) = &endpoints.reply_to {
        check_address("wsa:ReplyTo address", a)?;
    }
    if let Some(a) = &endpoints.fault_to {
        check_address("wsa:FaultTo address", a)?;
    }
    if action.is_empty() {
        return Err(EncodeError {
            message: "WS-Addressing needs the operation's action (wsa:Action, Core §3.1): the \
                      operation has no soapAction or wsam:Action; name one with \
                      #[soap(action = \"…\")]"
                .to_owned(),
        });
    }
    let ns = version.namespace();
    let env = soap.envelope_namespace();
    let message_id = new_message_id()?;
    let start = |w: &mut XmlWriter, local: &str, mu: bool| -> Result<(), EncodeError> {
        w.start_element(Name::new(ns, local))?;
        if mu {
            w.attribute(Name::new(env, "mustUnderstand"), "1")?;
        }
        Ok(())
    };
    start(w, "Action", true)?;
    w.text(action)?;
    w.end_element()?;
    start(w, "MessageID", false)?;
    w.text(&message_id)?;
    w.end_element()?;
    start(w, "ReplyTo", false)?;
    let reply_to = endpoints.reply_to.as_deref();
    w.simple_element(
        Name::new(ns, "Address"),
        reply_to.unwrap_or(version.anonymous()),
    )?;
    w.end_element()?;
    if let Some(fault_to) = &endpoints.fault_to {
        start(w, "FaultTo", false)?;
        w.simple_element(Name::new(ns, "Address"), fault_to)?;
        w.end_element()?;
    }
    start(w, "To", true)?;
    w.text(to)?;
    w.end_element()?;
    Ok(message_id)
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
    fn no_action_is_an_error() {
        let mut w = XmlWriter::new();
        w.start_element(Name::new(crate::envelope::SOAP11_ENV_NS, "Header"))
            .unwrap();
        let e = write_request_headers(
            &mut w,
            AddressingVersion::W3C,
            SoapVersion::Soap11,
            "",
            "http://x/",
        )
        .unwrap_err();
        assert!(e.message.contains("wsa:Action"), "{e}");
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
        let mut w = XmlWriter::new();
        w.start_element(Name::new(crate::envelope::SOAP11_ENV_NS, "Header"))
            .unwrap();
        let endpoints = ResponseEndpoints {
            reply_to: None,
            fault_to: Some("not an IRI".to_owned()),
        };
        let e = write_request_headers_to(
            &mut w,
            AddressingVersion::W3C,
            SoapVersion::Soap11,
            "urn:a",
            "http://x/",
            &endpoints,
        )
        .unwrap_err();
        assert!(e.message.contains("wsa:FaultTo"), "{e}");
    }

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
    }
}
