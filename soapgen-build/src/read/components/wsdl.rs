//! WSDL 1.1 components (WSDL 1.1 §2–§5): messages, portTypes, bindings with their SOAP and MIME
//! extensions, services, and the [`Definitions`] of everything read.

use std::collections::BTreeMap;

use super::{AddressingFacts, PolicyAttachments, QName, SchemaSet};
use crate::error::{Loc, Warning};

/// A WSDL message part (WSDL 1.1 §2.3.1).
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// `name`.
    pub name: String,
    /// `element=` or `type=`.
    pub kind: PartKind,
    /// Its `wsdl:documentation` (WSDL 1.1 §2.1.4).
    pub doc: Option<String>,
    /// Where.
    pub loc: Loc,
}

/// How a part is typed.
#[derive(Debug, Clone, PartialEq)]
pub enum PartKind {
    /// `element="…"` (document style).
    Element(QName),
    /// `type="…"` (rpc style).
    Type(QName),
}

/// `wsdl:message` (WSDL 1.1 §2.3).
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// Name.
    pub name: QName,
    /// Parts in order.
    pub parts: Vec<Part>,
    /// Its `wsdl:documentation` (WSDL 1.1 §2.1.4).
    pub doc: Option<String>,
    /// Where.
    pub loc: Loc,
}

/// An operation of a portType (WSDL 1.1 §2.4).
#[derive(Debug, Clone, PartialEq)]
pub struct PortTypeOperation {
    /// Name.
    pub name: String,
    /// Input message.
    pub input: Option<QName>,
    /// The input's `name` attribute, which tells overloaded operations apart (WSDL 1.1 §2.4.5).
    pub input_name: Option<String>,
    /// Output message (absent for one-way).
    pub output: Option<QName>,
    /// Fault messages (name, message).
    pub faults: Vec<(String, QName)>,
    /// Documentation.
    pub doc: Option<String>,
    /// The documentation of its `input`, `output` and `fault` elements (WSDL 1.1 §2.1.4), each
    /// with what it documents: `request`, `response`, `fault {name}`.
    pub message_docs: Vec<(String, String)>,
    /// Where.
    pub loc: Loc,
}

/// `wsdl:portType`.
#[derive(Debug, Clone, PartialEq)]
pub struct PortType {
    /// Name.
    pub name: QName,
    /// Operations in order.
    pub operations: Vec<PortTypeOperation>,
    /// Documentation.
    pub doc: Option<String>,
    /// Where.
    pub loc: Loc,
}

/// The protocol of a binding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BindingKind {
    /// `soap:binding` (WSDL 1.1 §3).
    Soap11,
    /// `soap12:binding` (WSDL 1.1 SOAP 1.2 binding).
    Soap12,
    /// `http:binding` (WSDL 1.1 §4): not generated.
    Http,
    /// Something else (the extension element's namespace).
    Other(String),
}

/// `style` of a SOAP binding or operation (WSDL 1.1 §3.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `document`.
    Document,
    /// `rpc`.
    Rpc,
}

/// `use` of a `soap:body` (WSDL 1.1 §3.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyUse {
    /// `literal`.
    Literal,
    /// `encoded`.
    Encoded,
}

/// The `soap:body` and `soap:header` of a binding operation's input or output.
#[derive(Debug, Clone, PartialEq)]
pub struct BindingMessage {
    /// `soap:body use`.
    pub use_: BodyUse,
    /// `soap:body namespace` (rpc wrapper namespace).
    pub namespace: Option<String>,
    /// `soap:body parts` (which parts go in the body; `None` = all).
    pub parts: Option<Vec<String>>,
    /// `soap:header`s: (message, part).
    pub headers: Vec<(QName, String, Loc)>,
    /// Message parts bound to MIME attachments by a `mime:multipartRelated` (WSDL 1.1 §5.3), in
    /// the order of their `mime:part`s; empty without a MIME binding.
    pub attachments: Vec<MimeAttachment>,
    /// Where.
    pub loc: Loc,
}

/// A `mime:part` of a `mime:multipartRelated` that holds a message part (WSDL 1.1 §5.3–§5.4): the
/// part is sent as a MIME attachment of one of the `mime:content` types (alternatives).
#[derive(Debug, Clone, PartialEq)]
pub struct MimeAttachment {
    /// The message part (`mime:content part`).
    pub part: String,
    /// The `mime:content type`s in document order (may hold wildcards such as `image/*`;
    /// empty when none is given).
    pub content_types: Vec<String>,
    /// Where the `mime:part` is.
    pub loc: Loc,
}

/// An operation of a binding.
#[derive(Debug, Clone, PartialEq)]
pub struct BindingOperation {
    /// Name (matches a portType operation).
    pub name: String,
    /// The input's `name` attribute, matched against the portType operation's when the name
    /// is overloaded (WSDL 1.1 §2.4.5, §2.5).
    pub input_name: Option<String>,
    /// `soapAction`.
    pub soap_action: Option<String>,
    /// `style` of the operation, if given.
    pub style: Option<Style>,
    /// Input binding.
    pub input: Option<BindingMessage>,
    /// Output binding.
    pub output: Option<BindingMessage>,
    /// Its `wsdl:documentation` (WSDL 1.1 §2.1.4).
    pub doc: Option<String>,
    /// Bound to SOAP 1.2's SOAP-response message exchange pattern (WSDL 2.0 Part 2 §5.10.3,
    /// SOAP 1.2 Part 2 §6.3): an HTTP GET whose IRI this makes of the input; `None` for a POST.
    pub soap_response: Option<HttpLocation>,
    /// Where.
    pub loc: Loc,
}

/// The request IRI of an operation bound to SOAP 1.2's SOAP-response message exchange pattern
/// (WSDL 2.0 Part 2 §6.8.1.1): the binding operation's `whttp:location` template (empty: the
/// endpoint address) and `whttp:queryParameterSeparator` (`&` unless the binding says otherwise).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpLocation {
    /// The `whttp:location` template.
    pub template: String,
    /// The separator of the query's `name=value` pairs.
    pub query_separator: String,
    /// Where the binding operation is.
    pub loc: Loc,
}

/// `wsdl:binding` (WSDL 1.1 §2.5).
#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    /// Name.
    pub name: QName,
    /// The portType it binds.
    pub port_type: QName,
    /// SOAP 1.1, SOAP 1.2, HTTP…
    pub kind: BindingKind,
    /// Default style of its operations.
    pub style: Option<Style>,
    /// Operations.
    pub operations: Vec<BindingOperation>,
    /// Its `wsdl:documentation` (WSDL 1.1 §2.1.4).
    pub doc: Option<String>,
    /// Where.
    pub loc: Loc,
}

/// `wsdl:port`.
#[derive(Debug, Clone, PartialEq)]
pub struct Port {
    /// Name.
    pub name: String,
    /// The binding it uses.
    pub binding: QName,
    /// `soap:address location`.
    pub address: Option<String>,
    /// Where.
    pub loc: Loc,
}

/// `wsdl:service` (WSDL 1.1 §2.7).
#[derive(Debug, Clone, PartialEq)]
pub struct Service {
    /// Name.
    pub name: QName,
    /// Ports.
    pub ports: Vec<Port>,
    /// Documentation.
    pub doc: Option<String>,
    /// Where.
    pub loc: Loc,
}

/// Everything read from a WSDL and the documents it imports.
#[derive(Debug, Default, Clone)]
pub struct Definitions {
    /// The entry document's `wsdl:documentation`.
    pub doc: Option<String>,
    /// The entry document's target namespace.
    pub target_namespace: String,
    /// Messages.
    pub messages: BTreeMap<QName, Message>,
    /// PortTypes.
    pub port_types: BTreeMap<QName, PortType>,
    /// Bindings.
    pub bindings: BTreeMap<QName, Binding>,
    /// Services, in document order.
    pub services: Vec<Service>,
    /// The schemas.
    pub schemas: SchemaSet,
    /// Documents not read, and why (a namespace imported again from another location).
    pub notes: Vec<String>,
    /// What the readers read otherwise than written, each located (a WSDL 2.0 SOAP binding
    /// without `wsoap:protocol` read as SOAP over HTTP, WSDL 2.0 Part 2 §5.3): carried into
    /// [`Module::warnings`](crate::model::ir::Module::warnings).
    pub warnings: Vec<Warning>,
    /// What the WSDL says about WS-Addressing (bindings, ports, actions).
    pub addressing: AddressingFacts,
    /// The WS-Policy attached to its subjects (WSDL 1.1 documents), each in normal form.
    pub policies: PolicyAttachments,
}
