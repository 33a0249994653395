//! Reads WSDL 2.0 `description` documents (W3C Recommendation 2007: Part 1 "Core Language", Part 2
//! "Adjuncts") into the same [`Definitions`] a WSDL 1.1 document gives, so one model and one emitter
//! serve both:
//!
//! - an `interface` (Part 1 §2.2) becomes a portType holding its own operations and those of every
//!   interface it `extends` (§2.2.1, transitively, each once);
//! - an interface operation (§2.4) with `pattern` in-out becomes a request-response operation,
//!   in-only and robust-in-only (Part 2 §2.2.10–§2.2.11) a one-way one; its `input`/`output`
//!   `element` (§2.5) becomes a message with one element part (`#none`: no parts);
//! - an interface `fault` (§2.3) referenced by `outfault` (in-out, fault-replaces-message, Part 2
//!   §2.1.2) or `infault` (robust-in-only, message-triggers-fault, §2.1.3) becomes a fault message;
//! - a SOAP `binding` (Part 2 §5, `type="http://www.w3.org/ns/wsdl/soap"`) becomes a
//!   document/literal binding of SOAP 1.1 or 1.2 (`wsoap:version`, default 1.2, §5.3), every
//!   interface operation bound (defaults, §5.1), `wsoap:action` as the action, `wsoap:header` as
//!   header parts; without `wsoap:protocol` (§5.3, as Apache Axis2 writes them) SOAP over HTTP,
//!   with a located warning; an operation whose `wsoap:mep` (§5.4) is not the request-response
//!   SOAP MEP (the SOAP-response MEP is a GET, SOAP 1.2 Part 2 §6.3) is left out with a located
//!   note, the rest of the binding generated; an attribute or element of WSDL 1.1's SOAP binding
//!   namespace in it is a located error naming both namespaces;
//! - a `service` `endpoint` (§2.15–§2.16) becomes a port with its `address`.
//!
//! HTTP bindings (Part 2 §6) are listed in the notes as not generated. The SOAP binding's draft
//! namespaces (2004–2006, still in Apache Axis2's samples) are read as the Recommendation's. Components are collected
//! from every document first ([`Description`]) and resolved at the end ([`resolve`]), since an
//! interface, its base and the binding of it may live in different imported documents.

use std::collections::{BTreeMap, BTreeSet};

use roxmltree::Node;

use crate::error::Warning;
use crate::error::{Error, ErrorKind, Loc, Result};
use crate::read::components::*;
use crate::read::wsdl::WsdlImport;
use crate::read::DocCtx;

mod binding;
mod components;

use binding::*;
use components::duplicate;
pub use components::resolve;

/// The WSDL 2.0 SOAP binding type and `wsoap` namespace (Part 2 §5).
pub const WSOAP: &str = "http://www.w3.org/ns/wsdl/soap";
/// The WSDL 2.0 HTTP binding type (Part 2 §6).
pub const WHTTP: &str = "http://www.w3.org/ns/wsdl/http";
/// Namespaces of the WSDL 2.0 drafts (2004–2006) for the SOAP binding, still found in real documents
/// (Apache Axis2's samples): read as the Recommendation's. The 2004 one named SOAP 1.2 itself.
const WSOAP_DRAFTS: &[&str] = &[
    "http://www.w3.org/2006/01/wsdl/soap",
    "http://www.w3.org/2005/08/wsdl/soap",
    "http://www.w3.org/2004/08/wsdl/soap12",
];
const WSOAP_2004_SOAP12: &str = "http://www.w3.org/2004/08/wsdl/soap12";
const WHTTP_DRAFTS: &[&str] = &[
    "http://www.w3.org/2006/01/wsdl/http",
    "http://www.w3.org/2005/08/wsdl/http",
    "http://www.w3.org/2004/08/wsdl/http",
];
/// Part 2 §2.2: the message exchange patterns, and their draft spellings' common prefixes.
const MEP_PREFIXES: &[&str] = &[
    "http://www.w3.org/ns/wsdl/",
    "http://www.w3.org/2006/01/wsdl/",
    "http://www.w3.org/2005/08/wsdl/",
    "http://www.w3.org/2004/08/wsdl/",
];
/// SOAP 1.2 Part 2 §7: the SOAP HTTP binding (`wsoap:protocol` for SOAP 1.2).
const SOAP12_HTTP: &str = "http://www.w3.org/2003/05/soap/bindings/HTTP";
/// The W3C Note "WSDL 2.0 SOAP 1.1 Binding" (2007) §2: `wsoap:protocol` for SOAP 1.1 over HTTP.
const SOAP11_HTTP: &str = "http://www.w3.org/2006/01/soap11/bindings/HTTP";
/// SOAP 1.2 Part 2 §6.2: the request-response SOAP MEP (`wsoap:mep`, Part 2 §5.4).
const SOAP_MEP_REQUEST_RESPONSE: &str = "http://www.w3.org/2003/05/soap/mep/request-response";
/// SOAP 1.2 Part 2 §6.3: the SOAP response MEP (a GET: no request envelope).
const SOAP_MEP_SOAP_RESPONSE: &str = "http://www.w3.org/2003/05/soap/mep/soap-response";

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

/// The WSDL 2.0 components of every `description` read, before [`resolve`].
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

fn missing(doc: &DocCtx, node: Node, what: &str) -> Error {
    Error::at(
        ErrorKind::Missing(format!("`{what}` attribute on {}", node.tag_name().name())),
        &doc.loc(node),
    )
}

fn required<'a>(doc: &DocCtx, node: Node<'a, '_>, attr: &str) -> Result<&'a str> {
    node.attribute(attr).ok_or_else(|| missing(doc, node, attr))
}

fn required_qname(doc: &DocCtx, node: Node, attr: &str) -> Result<QName> {
    doc.qname_attr(node, attr)?
        .ok_or_else(|| missing(doc, node, attr))
}

fn unsupported(doc: &DocCtx, node: Node, what: String) -> Error {
    Error::at(ErrorKind::Unsupported(what), &doc.loc(node))
}

/// A `wsoap:` attribute, in the Recommendation's namespace or a draft's.
fn wsoap_attr<'a>(node: Node<'a, '_>, local: &str) -> Option<(&'a str, bool)> {
    node.attributes().find_map(|a| {
        let ns = a.namespace()?;
        (a.name() == local && (ns == WSOAP || WSOAP_DRAFTS.contains(&ns)))
            .then(|| (a.value(), ns != WSOAP))
    })
}

fn is_wsoap_element(n: &Node, local: &str) -> bool {
    n.is_element()
        && n.tag_name().name() == local
        && n.tag_name()
            .namespace()
            .is_some_and(|ns| ns == WSOAP || WSOAP_DRAFTS.contains(&ns))
}

fn truthy(v: Option<&str>) -> bool {
    matches!(v.map(str::trim), Some("true" | "1"))
}

/// Part 1 §6.1.1: an extension element marked `wsdl:required="true"` must be understood; none is
/// here but the SOAP binding's own, so such an element is refused by name.
fn check_extension(doc: &DocCtx, n: Node) -> Result<()> {
    if n.is_element()
        && n.tag_name().namespace() != Some(WSDL20)
        && truthy(n.attribute((WSDL20, "required")))
    {
        return Err(unsupported(
            doc,
            n,
            format!(
                "the required extension {{{}}}{} (WSDL 2.0 Part 1 §6.1.1: a client must understand \
                 it)",
                n.tag_name().namespace().unwrap_or_default(),
                n.tag_name().name()
            ),
        ));
    }
    Ok(())
}

/// An element of the WSDL 2.0 namespace where the Recommendation allows none of that name
/// (the drafts' `feature` and `property`, a misspelling…).
fn unexpected(doc: &DocCtx, n: Node, parent: &str) -> Error {
    unsupported(
        doc,
        n,
        format!(
            "the WSDL 2.0 element `{}` inside `{parent}` (not in the WSDL 2.0 Recommendation)",
            n.tag_name().name()
        ),
    )
}

fn content_model(doc: &DocCtx, node: Node) -> Result<ContentModel> {
    Ok(match node.attribute("element").map(str::trim) {
        None | Some("#other") => ContentModel::Other,
        Some("#none") => ContentModel::None,
        Some("#any") => ContentModel::Any,
        Some(_) => ContentModel::Element(required_qname(doc, node, "element")?),
    })
}

fn pattern(doc: &DocCtx, node: Node) -> Result<Pattern> {
    let Some(uri) = node.attribute("pattern").map(str::trim) else {
        // Part 1 §2.4.2.1: no pattern attribute is in-out.
        return Ok(Pattern::InOut);
    };
    let short = MEP_PREFIXES
        .iter()
        .find_map(|p| uri.strip_prefix(p))
        .unwrap_or(uri);
    match short {
        "in-out" => Ok(Pattern::InOut),
        "in-only" => Ok(Pattern::InOnly),
        "robust-in-only" => Ok(Pattern::RobustInOnly),
        "out-in" | "out-only" | "robust-out-only" | "out-optional-in" => Err(unsupported(
            doc,
            node,
            format!(
                "the message exchange pattern {uri} (WSDL 2.0 Part 2 §2.2: the service sends first; \
                 a client cannot call it)"
            ),
        )),
        "in-optional-out" => Err(unsupported(
            doc,
            node,
            format!("the message exchange pattern {uri} (an optional response, WSDL 2.0 Part 2 §2.2.4)"),
        )),
        _ => Err(unsupported(
            doc,
            node,
            format!("the message exchange pattern {uri} (not one of WSDL 2.0 Part 2 §2.2)"),
        )),
    }
}

fn check_label(doc: &DocCtx, node: Node, expected: &str) -> Result<()> {
    match node.attribute("messageLabel") {
        Some(l) if l.trim() != expected => Err(Error::at(
            ErrorKind::Invalid(format!(
                "messageLabel {l:?} on {}: this operation's pattern has the label {expected:?} \
                 there (WSDL 2.0 Part 1 §2.5.2, Part 2 §2.2)",
                node.tag_name().name()
            )),
            &doc.loc(node),
        )),
        _ => Ok(()),
    }
}

fn read_interface(doc: &DocCtx, node: Node, tns: &str) -> Result<Interface> {
    let name = QName::new(tns, required(doc, node, "name")?);
    let mut extends = Vec::new();
    for q in node
        .attribute("extends")
        .unwrap_or_default()
        .split_ascii_whitespace()
    {
        extends.push(doc.resolve_qname(node, q)?);
    }
    let mut faults = Vec::new();
    let mut operations = Vec::new();
    for c in node.children().filter(Node::is_element) {
        check_extension(doc, c)?;
        if c.tag_name().namespace() != Some(WSDL20) {
            continue;
        }
        match c.tag_name().name() {
            "documentation" => {}
            "fault" => faults.push(InterfaceFault {
                name: QName::new(tns, required(doc, c, "name")?),
                content: content_model(doc, c)?,
                loc: doc.loc(c),
            }),
            "operation" => operations.push(read_operation(doc, c, tns)?),
            _ => return Err(unexpected(doc, c, "interface")),
        }
    }
    Ok(Interface {
        name,
        extends,
        faults,
        operations,
        doc: doc.documentation(node),
        loc: doc.loc(node),
    })
}

fn read_operation(doc: &DocCtx, node: Node, tns: &str) -> Result<InterfaceOperation> {
    let pattern = pattern(doc, node)?;
    let mut op = InterfaceOperation {
        name: QName::new(tns, required(doc, node, "name")?),
        pattern,
        input: None,
        output: None,
        faults: Vec::new(),
        doc: doc.documentation(node),
        loc: doc.loc(node),
    };
    for c in node.children().filter(Node::is_element) {
        check_extension(doc, c)?;
        if c.tag_name().namespace() != Some(WSDL20) {
            continue;
        }
        let what = c.tag_name().name();
        let slot = match (what, pattern) {
            ("documentation", _) => continue,
            ("input", _) => {
                check_label(doc, c, "In")?;
                &mut op.input
            }
            ("output", Pattern::InOut) => {
                check_label(doc, c, "Out")?;
                &mut op.output
            }
            ("outfault", Pattern::InOut) | ("infault", Pattern::RobustInOnly) => {
                op.faults.push((required_qname(doc, c, "ref")?, doc.loc(c)));
                continue;
            }
            ("output" | "infault" | "outfault", _) => {
                let rule = match pattern {
                    Pattern::InOut => "fault-replaces-message (faults are outfaults)",
                    Pattern::InOnly => "no-faults and a single In message",
                    Pattern::RobustInOnly => {
                        "message-triggers-fault (faults are infaults) and a single In message"
                    }
                };
                return Err(Error::at(
                    ErrorKind::Invalid(format!(
                        "`{what}` in an operation of pattern {}, which has {rule} (WSDL 2.0 Part 2 §2.1–§2.2)",
                        pattern.name()
                    )),
                    &doc.loc(c),
                ));
            }
            _ => return Err(unexpected(doc, c, "interface operation")),
        };
        if slot.is_some() {
            return Err(Error::at(
                ErrorKind::Duplicate(format!(
                    "`{what}` of operation {} (its pattern has one)",
                    op.name.local
                )),
                &doc.loc(c),
            ));
        }
        *slot = Some(MessageRef {
            content: content_model(doc, c)?,
            loc: doc.loc(c),
        });
    }
    if op.input.is_none() {
        return Err(Error::at(
            ErrorKind::Missing(format!("`input` of operation {}", op.name.local)),
            &op.loc,
        ));
    }
    if pattern == Pattern::InOut && op.output.is_none() {
        return Err(Error::at(
            ErrorKind::Missing(format!(
                "`output` of in-out operation {} (WSDL 2.0 Part 2 §2.2.3)",
                op.name.local
            )),
            &op.loc,
        ));
    }
    Ok(op)
}

fn read_service(doc: &DocCtx, node: Node, tns: &str) -> Result<Service20> {
    let mut s = Service20 {
        name: QName::new(tns, required(doc, node, "name")?),
        interface: required_qname(doc, node, "interface")?,
        endpoints: Vec::new(),
        doc: doc.documentation(node),
        loc: doc.loc(node),
    };
    for c in node.children().filter(Node::is_element) {
        check_extension(doc, c)?;
        if c.tag_name().namespace() != Some(WSDL20) {
            continue;
        }
        match c.tag_name().name() {
            "documentation" => {}
            "endpoint" => {
                for e in c.children().filter(Node::is_element) {
                    check_extension(doc, e)?;
                }
                s.endpoints.push(Endpoint {
                    name: required(doc, c, "name")?.to_owned(),
                    binding: required_qname(doc, c, "binding")?,
                    address: c.attribute("address").map(|a| a.trim().to_owned()),
                    loc: doc.loc(c),
                })
            }
            _ => return Err(unexpected(doc, c, "service")),
        }
    }
    Ok(s)
}

/// Reads the interfaces, bindings and services of one `description` (Part 1 §2.1) into `into`
/// and returns its `import`s (§4.2, those with a `location`) and `include`s (§4.1) to follow.
/// The `types` are read by the caller.
///
/// # Errors
///
/// [`ErrorKind::Missing`] for a required attribute, [`ErrorKind::Duplicate`] for a component named
/// twice, [`ErrorKind::Unsupported`] for a message exchange pattern a client cannot call, a required
/// extension, a SOAP module or protocol not implemented, [`ErrorKind::Invalid`] for an element the
/// operation's pattern does not allow or an attribute or element of WSDL 1.1's SOAP namespace in a
/// SOAP binding; each located. A SOAP binding without `wsoap:protocol` is read as SOAP over HTTP
/// with a warning in `into.warnings`.
pub fn read_description(
    doc: &DocCtx,
    root: Node,
    into: &mut Description,
) -> Result<Vec<WsdlImport>> {
    into.read = true;
    let tns = root
        .attribute("targetNamespace")
        .ok_or_else(|| missing(doc, root, "targetNamespace"))?
        .to_owned();
    let mut imports = Vec::new();
    for c in root.children().filter(Node::is_element) {
        check_extension(doc, c)?;
        if c.tag_name().namespace() != Some(WSDL20) {
            continue;
        }
        let loc = doc.loc(c);
        match c.tag_name().name() {
            "documentation" | "types" => {}
            "include" => imports.push(WsdlImport {
                location: required(doc, c, "location")?.to_owned(),
                loc,
            }),
            "import" => {
                required(doc, c, "namespace")?;
                if let Some(l) = c.attribute("location") {
                    imports.push(WsdlImport {
                        location: l.to_owned(),
                        loc,
                    });
                }
            }
            "interface" => {
                let i = read_interface(doc, c, &tns)?;
                if let Some(prev) = into.interfaces.get(&i.name) {
                    return Err(duplicate("interface", &i.name, &prev.loc, &loc));
                }
                into.interfaces.insert(i.name.clone(), i);
            }
            "binding" => {
                let b = read_binding(doc, c, &tns, &mut into.warnings)?;
                if let Some(prev) = into.bindings.get(&b.name) {
                    return Err(duplicate("binding", &b.name, &prev.loc, &loc));
                }
                into.bindings.insert(b.name.clone(), b);
            }
            "service" => {
                let s = read_service(doc, c, &tns)?;
                if let Some(prev) = into.services.iter().find(|p| p.name == s.name) {
                    return Err(duplicate("service", &s.name, &prev.loc, &loc));
                }
                into.services.push(s);
            }
            _ => return Err(unexpected(doc, c, "description")),
        }
    }
    crate::read::policy::read(doc, root, &tns, &mut into.addressing, &mut into.warnings);
    Ok(imports)
}
