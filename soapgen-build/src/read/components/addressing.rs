//! What a WSDL says about WS-Addressing (WS-Addressing 1.0 Metadata §3.1 `wsam:Addressing`, the
//! WSDL Binding CR's `wsaw:UsingAddressing`, the 2004/08 submission's policy assertion; explicit
//! actions, Metadata §4.4.1), as [`read::policy`](crate::read::policy) reads it: which bindings
//! and ports are addressed, in which version, and each operation's actions.
//! [`model::addressing`](crate::model::addressing) turns the facts into the clients' settings.

use std::collections::BTreeMap;

use super::QName;
use crate::error::Loc;

/// The WS-Addressing a client's calls are addressed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AddressingVersion {
    /// WS-Addressing 1.0 (W3C Recommendation 2006): `wsam:Addressing`, `wsaw:UsingAddressing`.
    W3C,
    /// The 2004/08 member submission: its policy assertion `wsap:UsingAddressing`.
    Submission2004,
}

impl AddressingVersion {
    /// The value of `#[soap_client(addressing = …)]`: `"1.0"` or `"2004/08"`.
    pub fn attr_value(self) -> &'static str {
        match self {
            AddressingVersion::W3C => "1.0",
            AddressingVersion::Submission2004 => "2004/08",
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

/// The explicit actions of one portType operation's messages (Metadata §4.4.1), and the names
/// the default pattern (§4.4.4) needs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OperationActions {
    /// The input's `wsam:Action` (or `wsaw:Action`).
    pub input: Option<String>,
    /// The output's.
    pub output: Option<String>,
    /// Each fault's, by fault name.
    pub faults: BTreeMap<String, String>,
    /// The input's `name`, if given.
    pub input_name: Option<String>,
    /// The output's `name`, if given.
    pub output_name: Option<String>,
    /// Whether the operation has an output (request-response) or not (one-way).
    pub has_output: bool,
    /// Read from WSDL 2.0: the default pattern is Metadata §4.4.2's.
    pub wsdl20: bool,
}

/// What a WSDL says about WS-Addressing, read by [`read::policy`](crate::read::policy).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AddressingFacts {
    /// Bindings that require or allow addressing (directly or by an attached policy), with
    /// where it is said.
    pub bindings: BTreeMap<QName, (AddressingVersion, Loc)>,
    /// Ports (service, port name) that do, likewise.
    pub ports: BTreeMap<(QName, String), (AddressingVersion, Loc)>,
    /// Per (portType, operation name): its messages' actions.
    pub actions: BTreeMap<(QName, String), OperationActions>,
}

impl AddressingFacts {
    /// Adds `other`'s facts (another document's); on the same key, `other`'s.
    pub fn absorb(&mut self, other: AddressingFacts) {
        self.bindings.extend(other.bindings);
        self.ports.extend(other.ports);
        self.actions.extend(other.actions);
    }
}
