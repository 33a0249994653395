//! The WSDL 2.0 components as read from every `description` (Part 1 §2), before
//! [`resolve`](super::resolve) maps them onto WSDL 1.1's: interfaces with their operations and
//! faults, bindings, services with their endpoints.

use std::collections::BTreeMap;

use crate::error::{Loc, Warning};
use crate::read::components::{AddressingFacts, QName};

/// The {message content model} of an interface message reference or fault (Part 1 §2.5.1).
#[derive(Debug, Clone, PartialEq)]
pub enum ContentModel {
    /// `element="ns:name"` (`#element`): the body holds that global element declaration.
    Element(QName),
    /// `#none`: an empty body.
    None,
    /// `#any`: any single element.
    Any,
    /// `#other` (also when `element` is absent): a type system other than XML Schema.
    Other,
}

/// A message exchange pattern a client can call (Part 2 §2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// `in-out` (§2.2.3), faults by fault-replaces-message.
    InOut,
    /// `in-only` (§2.2.1), no faults.
    InOnly,
    /// `robust-in-only` (§2.2.2), faults by message-triggers-fault.
    RobustInOnly,
}

impl Pattern {
    /// The last segment of the pattern's URI (`in-out`).
    pub fn name(self) -> &'static str {
        match self {
            Pattern::InOut => "in-out",
            Pattern::InOnly => "in-only",
            Pattern::RobustInOnly => "robust-in-only",
        }
    }
}

/// An interface message reference: `input` or `output` (Part 1 §2.5).
#[derive(Debug, Clone, PartialEq)]
pub struct MessageRef {
    /// `element`.
    pub content: ContentModel,
    /// Where.
    pub loc: Loc,
}

/// An interface operation (Part 1 §2.4); its name is in the interface's target namespace.
#[derive(Debug, Clone, PartialEq)]
pub struct InterfaceOperation {
    /// `name`, qualified.
    pub name: QName,
    /// `pattern`.
    pub pattern: Pattern,
    /// `input` (message label `In`).
    pub input: Option<MessageRef>,
    /// `output` (message label `Out`).
    pub output: Option<MessageRef>,
    /// `infault`/`outfault` `ref`s: the interface faults it may return.
    pub faults: Vec<(QName, Loc)>,
    /// `documentation`.
    pub doc: Option<String>,
    /// Where.
    pub loc: Loc,
}

/// An interface fault (Part 1 §2.3).
#[derive(Debug, Clone, PartialEq)]
pub struct InterfaceFault {
    /// `name`, qualified.
    pub name: QName,
    /// `element`.
    pub content: ContentModel,
    /// Where.
    pub loc: Loc,
}

/// An `interface` (Part 1 §2.2).
#[derive(Debug, Clone, PartialEq)]
pub struct Interface {
    /// `name`, qualified.
    pub name: QName,
    /// `extends`: the interfaces it inherits operations and faults from.
    pub extends: Vec<QName>,
    /// Its own faults.
    pub faults: Vec<InterfaceFault>,
    /// Its own operations.
    pub operations: Vec<InterfaceOperation>,
    /// `documentation`.
    pub doc: Option<String>,
    /// Where.
    pub loc: Loc,
}

/// What a `binding`'s `type` says (Part 1 §2.9, Part 2 §5–§6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BindingType {
    /// The SOAP binding; `true` for SOAP 1.2.
    Soap {
        /// SOAP 1.2 (`wsoap:version="1.2"`, the default) rather than 1.1.
        soap12: bool,
    },
    /// The HTTP binding: not generated.
    Http,
    /// Any other binding type URI: not generated.
    Other(String),
}

/// A binding operation (Part 1 §2.11, Part 2 §5.6).
#[derive(Debug, Clone, PartialEq)]
pub struct BindingOperation20 {
    /// `ref`: the interface operation.
    pub reference: QName,
    /// `wsoap:action` (Part 2 §5.10.2).
    pub action: Option<String>,
    /// `wsoap:mep` (Part 2 §5.4; not read in the drafts' namespaces): an operation is generated
    /// only with the request-response SOAP MEP.
    pub mep: Option<String>,
    /// `whttp:location` (Part 2 §6.4.1; with the SOAP-response MEP, §5.10.3): the template of
    /// the request IRI of a GET.
    pub location: Option<String>,
    /// `whttp:queryParameterSeparator` (Part 2 §6.8.2.2.1).
    pub query_separator: Option<String>,
    /// `wsoap:header` `element`s of `input` and `output` (Part 2 §5.8).
    pub input_headers: Vec<(QName, Loc)>,
    /// As `input_headers`, for `output`.
    pub output_headers: Vec<(QName, Loc)>,
    /// Where.
    pub loc: Loc,
}

/// A `binding` (Part 1 §2.9).
#[derive(Debug, Clone, PartialEq)]
pub struct Binding20 {
    /// `name`, qualified.
    pub name: QName,
    /// `interface` (optional when the binding names no operation or fault).
    pub interface: Option<QName>,
    /// `type` and, for SOAP, `wsoap:version`.
    pub kind: BindingType,
    /// `wsoap:mepDefault` (Part 2 §5.4; not read in the drafts' namespaces): the `wsoap:mep` of
    /// the operations that give none.
    pub mep_default: Option<String>,
    /// `whttp:queryParameterSeparatorDefault` (Part 2 §6.8.2.2.1): the operations' separator
    /// unless they give one.
    pub query_separator_default: Option<String>,
    /// Binding operations given (the others take the defaults).
    pub operations: Vec<BindingOperation20>,
    /// Binding fault `ref`s (checked to exist).
    pub faults: Vec<(QName, Loc)>,
    /// Where.
    pub loc: Loc,
}

/// An `endpoint` (Part 1 §2.16).
#[derive(Debug, Clone, PartialEq)]
pub struct Endpoint {
    /// `name`.
    pub name: String,
    /// `binding`.
    pub binding: QName,
    /// `address`.
    pub address: Option<String>,
    /// Where.
    pub loc: Loc,
}

/// A `service` (Part 1 §2.15).
#[derive(Debug, Clone, PartialEq)]
pub struct Service20 {
    /// `name`, qualified.
    pub name: QName,
    /// `interface`.
    pub interface: QName,
    /// Its endpoints.
    pub endpoints: Vec<Endpoint>,
    /// `documentation`.
    pub doc: Option<String>,
    /// Where.
    pub loc: Loc,
}

/// The WSDL 2.0 components of every `description` read, before [`resolve`](super::resolve).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Description {
    /// Interfaces by name.
    pub interfaces: BTreeMap<QName, Interface>,
    /// Bindings by name.
    pub bindings: BTreeMap<QName, Binding20>,
    /// Services in document order.
    pub services: Vec<Service20>,
    /// Whether any `description` was read.
    pub read: bool,
    /// What was read otherwise than written (a SOAP binding without `wsoap:protocol`), located.
    pub warnings: Vec<Warning>,
    /// What the documents say about WS-Addressing.
    pub addressing: AddressingFacts,
}
