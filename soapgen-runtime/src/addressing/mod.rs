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
//! | `wsa:ReplyTo` | `wsa:Address` = the version's anonymous IRI: reply on the HTTP response (or the address of [`Addressing::reply_to`]) | Core §3.2 `[reply endpoint]`, §3 predefined addresses |
//! | `wsa:FaultTo` | only with [`Addressing::fault_to`]: its address | Core §3.2 `[fault endpoint]` |
//! | `wsa:To` (`mustUnderstand="1"`) | the client's endpoint URL | Core §3.2 `[destination]` |
//!
//! and its reply must carry `wsa:RelatesTo` (with no `RelationshipType`, or the reply one) equal
//! to that `MessageID` (Core §3.4), else the call fails with
//! [`HeaderErrorKind::RelatesTo`](crate::header::HeaderErrorKind::RelatesTo), and, when the
//! operation's output action is known ([`Described::reply_action`]), a `wsa:Action` equal to it,
//! else [`HeaderErrorKind::Action`](crate::header::HeaderErrorKind::Action). A SOAP fault is
//! reported as the fault whatever its addressing headers (its `wsa:Action` is the fault action,
//! `…/addressing/fault` or `…/addressing/soap/fault`, SOAP Binding §6 Faults, or one the WSDL names).
//!
//! Addressing is on for a call when the client says so ([`ClientBuilder::addressing`]) or, if
//! the client leaves it to the service description ([`AddressingMode::FromDescription`], the
//! default), when the generated client's WSDL or `#[soap_client(addressing = "…")]` says so
//! ([`Described`], the fact generated code gives each operation).
//!
//! Everything WS-Addressing does on the call path is this module's message layer
//! ([`Addressing`] implements [`MessageLayer`](crate::message::MessageLayer)): it writes the
//! headers, understands the `wsa` blocks of the reply, relates the reply to the request, and
//! gives a fault its `wsa:Action`.
//!
//! [`ClientBuilder::addressing`]: crate::ClientBuilder::addressing
//!
//! # Examples
//!
//! ```
//! # #[cfg(feature = "reqwest")] {
//! use soapgen_runtime::addressing::{Addressing, AddressingVersion};
//! let client = soapgen_runtime::Client::builder("http://127.0.0.1:8080/svc")
//!     .addressing(Addressing::on(AddressingVersion::W3C).reply_to("http://127.0.0.1:9/replies"))
//!     .build()?;
//! # }
//! # Ok::<(), soapgen_runtime::Error>(())
//! ```

mod headers;
mod layer;

pub(crate) use headers::check_address;

use crate::error::EncodeError;
use crate::message::SoapVersion;

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

    /// The local names of the request headers an addressed request carries, in order (the
    /// table of the [module](self) docs; `wsa:FaultTo` only when set).
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

/// Whether a client's calls are addressed, the first setting of an [`Addressing`].
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

/// A client's WS-Addressing, one value: whether its calls are addressed ([`AddressingMode`]),
/// where replies and faults go, and whether the reply's action is checked. Given to
/// [`ClientBuilder::addressing`](crate::ClientBuilder::addressing) (an [`AddressingMode`]
/// converts into one); the default addresses the calls the description addresses, replies on the
/// HTTP response, and checks the reply's action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Addressing {
    pub(crate) mode: AddressingMode,
    pub(crate) reply_to: Option<String>,
    pub(crate) fault_to: Option<String>,
    pub(crate) check_reply_action: bool,
}

impl Default for Addressing {
    fn default() -> Self {
        Addressing {
            mode: AddressingMode::FromDescription,
            reply_to: None,
            fault_to: None,
            check_reply_action: true,
        }
    }
}

impl From<AddressingMode> for Addressing {
    fn from(mode: AddressingMode) -> Self {
        Addressing::default().mode(mode)
    }
}

impl Addressing {
    /// As the description says ([`AddressingMode::FromDescription`]): the default.
    pub fn new() -> Self {
        Self::default()
    }

    /// Every call addressed in `version` ([`AddressingMode::On`]).
    pub fn on(version: AddressingVersion) -> Self {
        AddressingMode::On(version).into()
    }

    /// No call addressed ([`AddressingMode::Off`]).
    pub fn off() -> Self {
        AddressingMode::Off.into()
    }

    /// Which calls are addressed.
    pub fn mode(mut self, mode: AddressingMode) -> Self {
        self.mode = mode;
        self
    }

    /// The `wsa:ReplyTo` address of addressed requests (Core §3.2 `[reply endpoint]`), an
    /// absolute IRI, instead of the anonymous one: the service sends the reply there (for SOAP
    /// over HTTP, in a request of its own to that address) and answers the call's HTTP request
    /// with an empty `202 Accepted`. A request-response call then fails with
    /// [`Error::Http`](crate::Error::Http) of status 202 saying where the reply went; one-way
    /// calls succeed. `ClientBuilder::build` refuses an address that is not an absolute IRI.
    pub fn reply_to(mut self, address: impl Into<String>) -> Self {
        self.reply_to = Some(address.into());
        self
    }

    /// A `wsa:FaultTo` on addressed requests (Core §3.2 `[fault endpoint]`), an absolute IRI:
    /// the service sends faults there and answers the call's HTTP request with an empty `202
    /// Accepted` (the call fails with [`Error::Http`](crate::Error::Http) of status 202).
    /// Replies are unaffected. Without it no `wsa:FaultTo` is sent and faults go where replies
    /// go. WS-Security's `sign_addressing` does not cover `wsa:FaultTo`: sign it with
    /// `sign_header(version.namespace(), "FaultTo")`.
    pub fn fault_to(mut self, address: impl Into<String>) -> Self {
        self.fault_to = Some(address.into());
        self
    }

    /// Whether the reply of an addressed call must carry the operation's output action as its
    /// `wsa:Action` (Core §3.2; the output action of Metadata §4.4, explicit or by the default
    /// pattern), else [`HeaderErrorKind::Action`](crate::header::HeaderErrorKind::Action). On
    /// by default, for operations whose output action the description gives; `false` accepts
    /// any (some services send the input action back).
    pub fn check_reply_action(mut self, on: bool) -> Self {
        self.check_reply_action = on;
        self
    }

    /// Checks the settings: the reply and fault addresses are absolute IRIs.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] naming the address that is not.
    pub fn check(&self) -> Result<(), EncodeError> {
        if let Some(a) = &self.reply_to {
            check_address("wsa:ReplyTo address", a)?;
        }
        if let Some(a) = &self.fault_to {
            check_address("wsa:FaultTo address", a)?;
        }
        Ok(())
    }
}

/// What a service description says of an operation's WS-Addressing: static data generated
/// code gives the [`Operation`](crate::Operation) ([`Operation::described`](crate::Operation::described)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Described {
    /// The version the binding of each SOAP version asks for (`wsaw:UsingAddressing`, a
    /// `wsam:Addressing` policy assertion, `#[soap_client(addressing = "…")]`): a call in a
    /// version listed is addressed unless the client's [`AddressingMode`] says otherwise.
    pub versions: &'static [(SoapVersion, AddressingVersion)],
    /// The operation's output action (Metadata §4.4: the output's `wsam:Action`, else the
    /// default pattern `{namespace}/{portType}/{output name}`), which the reply of an addressed
    /// call must carry.
    pub reply_action: Option<&'static str>,
}

impl Described {
    /// The facts: the addressed `versions`, the operation's `reply_action`.
    pub const fn new(
        versions: &'static [(SoapVersion, AddressingVersion)],
        reply_action: Option<&'static str>,
    ) -> Self {
        Described {
            versions,
            reply_action,
        }
    }

    /// The version a call in SOAP `soap` is addressed in by default.
    pub fn version(&self, soap: SoapVersion) -> Option<AddressingVersion> {
        self.versions
            .iter()
            .find(|(s, _)| *s == soap)
            .map(|(_, a)| *a)
    }
}
