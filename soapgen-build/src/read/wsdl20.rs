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

use crate::error::{Error, ErrorKind, Loc, Result};
use crate::model::components::*;
use crate::model::ir::Warning;
use crate::read::wsdl::{WsdlImport, WSDL20};
use crate::read::DocCtx;

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
    pub addressing: crate::model::addressing::AddressingFacts,
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

fn read_binding(
    doc: &DocCtx,
    node: Node,
    tns: &str,
    warnings: &mut Vec<Warning>,
) -> Result<Binding20> {
    let name = QName::new(tns, required(doc, node, "name")?);
    let loc = doc.loc(node);
    let ty = required(doc, node, "type")?.trim();
    let kind = if ty == WSOAP || WSOAP_DRAFTS.contains(&ty) {
        check_wsdl11_soap(doc, node)?;
        let version = wsoap_attr(node, "version").map(|(v, _)| v.trim());
        let soap12 = match version {
            None | Some("1.2") => true, // Part 2 §5.3: SOAP 1.2 by default
            Some("1.1") if ty != WSOAP_2004_SOAP12 => false,
            Some(v) => {
                return Err(unsupported(
                    doc,
                    node,
                    format!("wsoap:version {v:?} with binding type {ty} (SOAP 1.1 and 1.2 are)"),
                ))
            }
        };
        match wsoap_attr(node, "protocol") {
            // Part 2 §5.3 requires {soap underlying protocol}; Apache Axis2 writes SOAP bindings
            // without it, meaning SOAP over HTTP, the only protocol generated anyway.
            None => warnings.push(Warning {
                message: format!(
                    "SOAP binding {} has no wsoap:protocol (WSDL 2.0 Part 2 §5.3 requires one): \
                     read as SOAP {} over HTTP, {}/",
                    name.local,
                    if soap12 { "1.2" } else { "1.1" },
                    if soap12 { SOAP12_HTTP } else { SOAP11_HTTP }
                ),
                loc: loc.clone(),
            }),
            Some((p, _)) => {
                let p = p.trim().trim_end_matches('/');
                let expected = if soap12 { SOAP12_HTTP } else { SOAP11_HTTP };
                if p != SOAP12_HTTP && p != SOAP11_HTTP {
                    return Err(unsupported(
                        doc,
                        node,
                        format!(
                            "wsoap:protocol {p:?} (only SOAP over HTTP is: {SOAP12_HTTP}/ or {SOAP11_HTTP}/)"
                        ),
                    ));
                }
                if p != expected {
                    return Err(Error::at(
                        ErrorKind::Invalid(format!(
                            "wsoap:protocol {p:?} does not carry SOAP {}: use {expected}/",
                            if soap12 { "1.2" } else { "1.1" }
                        )),
                        &loc,
                    ));
                }
            }
        }
        BindingType::Soap { soap12 }
    } else if ty == WHTTP || WHTTP_DRAFTS.contains(&ty) {
        BindingType::Http
    } else {
        BindingType::Other(ty.to_owned())
    };
    let mut b = Binding20 {
        name,
        interface: doc.qname_attr(node, "interface")?,
        mep_default: None,
        kind,
        operations: Vec::new(),
        faults: Vec::new(),
        loc,
    };
    let soap = matches!(b.kind, BindingType::Soap { .. });
    if soap {
        b.mep_default = soap_mep(node, "mepDefault");
    }
    for c in node.children().filter(Node::is_element) {
        if soap {
            check_soap_extension(doc, c)?;
        } else if c.tag_name().namespace() != Some(WSDL20) {
            continue; // HTTP and other bindings are not generated: their extensions do not matter
        }
        if c.tag_name().namespace() != Some(WSDL20) {
            continue;
        }
        match c.tag_name().name() {
            "documentation" => {}
            "fault" => b.faults.push((required_qname(doc, c, "ref")?, doc.loc(c))),
            "operation" => {
                let mut op = BindingOperation20 {
                    reference: required_qname(doc, c, "ref")?,
                    action: wsoap_attr(c, "action").map(|(a, _)| a.to_owned()),
                    mep: if soap { soap_mep(c, "mep") } else { None },
                    input_headers: Vec::new(),
                    output_headers: Vec::new(),
                    loc: doc.loc(c),
                };
                for m in c.children().filter(Node::is_element) {
                    if soap {
                        check_soap_extension(doc, m)?;
                    }
                    if m.tag_name().namespace() != Some(WSDL20) {
                        continue;
                    }
                    let headers = match m.tag_name().name() {
                        "documentation" => continue,
                        "input" => &mut op.input_headers,
                        "output" => &mut op.output_headers,
                        "infault" | "outfault" => {
                            required_qname(doc, m, "ref")?;
                            continue;
                        }
                        _ => return Err(unexpected(doc, m, "binding operation")),
                    };
                    for h in m.children().filter(Node::is_element) {
                        if soap {
                            check_soap_extension(doc, h)?;
                        }
                        if is_wsoap_element(&h, "header") {
                            headers.push((required_qname(doc, h, "element")?, doc.loc(h)));
                        }
                    }
                }
                b.operations.push(op);
            }
            _ => return Err(unexpected(doc, c, "binding")),
        }
    }
    Ok(b)
}

/// `wsoap:mep`/`wsoap:mepDefault` (Part 2 §5.4) in the Recommendation's namespace (the drafts used
/// other values: not read).
fn soap_mep(node: Node, attr: &str) -> Option<String> {
    match wsoap_attr(node, attr) {
        Some((v, false)) => Some(v.trim().to_owned()),
        _ => None,
    }
}

/// Why an operation bound with the SOAP MEP `mep` is not generated.
fn mep_reason(mep: &str) -> String {
    if mep.trim_end_matches('/') == SOAP_MEP_SOAP_RESPONSE {
        format!(
            "its wsoap:mep is the SOAP-response MEP {mep} (WSDL 2.0 Part 2 §5.4, SOAP 1.2 Part 2 \
             §6.3: an HTTP GET with no request envelope); only the request-response SOAP MEP, \
             {SOAP_MEP_REQUEST_RESPONSE}/, is generated"
        )
    } else {
        format!(
            "its wsoap:mep {mep} is not the request-response SOAP MEP, \
             {SOAP_MEP_REQUEST_RESPONSE}/ (WSDL 2.0 Part 2 §5.4), the only one generated"
        )
    }
}

/// The namespaces of WSDL 1.1's SOAP 1.1 and SOAP 1.2 bindings (WSDL 1.1 §3, and the SOAP 1.2
/// binding note).
const WSDL11_SOAP: &[&str] = &[
    "http://schemas.xmlsoap.org/wsdl/soap/",
    "http://schemas.xmlsoap.org/wsdl/soap12/",
];

/// In a WSDL 2.0 SOAP binding, an attribute or element in a WSDL 1.1 SOAP binding namespace
/// (`soap:version` with `xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"`) is a prefix bound to
/// the wrong namespace: said so, rather than reading the binding as if it were absent.
fn check_wsdl11_soap(doc: &DocCtx, n: Node) -> Result<()> {
    let wrong = |ns: &str, what: String| {
        Error::at(
            ErrorKind::Invalid(format!(
                "{what} is in the namespace {ns}, WSDL 1.1's SOAP binding (WSDL 1.1 §3), inside \
                 a WSDL 2.0 binding, whose SOAP attributes and elements are in {WSOAP} (WSDL 2.0 \
                 Part 2 §5)"
            )),
            &doc.loc(n),
        )
        .with_hint(format!(
            "bind the prefix to {WSOAP}: xmlns:wsoap=\"{WSOAP}\""
        ))
    };
    if let Some(ns) = n
        .tag_name()
        .namespace()
        .filter(|ns| WSDL11_SOAP.contains(ns))
    {
        return Err(wrong(ns, format!("the element {}", n.tag_name().name())));
    }
    for a in n.attributes() {
        if let Some(ns) = a.namespace().filter(|ns| WSDL11_SOAP.contains(ns)) {
            let prefix = n.lookup_prefix(ns).unwrap_or("soap");
            return Err(wrong(
                ns,
                format!(
                    "the attribute {prefix}:{} on {}",
                    a.name(),
                    n.tag_name().name()
                ),
            ));
        }
    }
    Ok(())
}

/// In a SOAP binding: `wsoap:module` required by the service (Part 2 §5.7) is refused by name, as is
/// any other extension marked required.
fn check_soap_extension(doc: &DocCtx, n: Node) -> Result<()> {
    check_wsdl11_soap(doc, n)?;
    if is_wsoap_element(&n, "module") && truthy(n.attribute("required")) {
        return Err(unsupported(
            doc,
            n,
            format!(
                "the required SOAP module {} (wsoap:module, WSDL 2.0 Part 2 §5.7)",
                n.attribute("ref").unwrap_or("(no ref)")
            ),
        ));
    }
    check_extension(doc, n)
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
    crate::read::policy::read_wsdl20(doc, root, &tns, &mut into.addressing, &mut into.warnings);
    Ok(imports)
}

fn duplicate(what: &str, name: &QName, first: &Loc, at: &Loc) -> Error {
    Error::at(
        ErrorKind::Duplicate(format!("{what} {name} (first defined at {first})")),
        at,
    )
}

fn undefined(what: String, at: &Loc) -> Error {
    Error::at(ErrorKind::Undefined(what), at)
}

/// An interface with everything it inherits (Part 1 §2.2.1): operations and faults, each once,
/// base interfaces' first.
struct Flat<'a> {
    operations: Vec<&'a InterfaceOperation>,
    faults: BTreeMap<QName, &'a InterfaceFault>,
}

fn flatten<'a>(d: &'a Description, name: &QName, at: &Loc) -> Result<Flat<'a>> {
    fn visit<'a>(
        d: &'a Description,
        name: &QName,
        at: &Loc,
        stack: &mut Vec<QName>,
        done: &mut BTreeSet<QName>,
        out: &mut Flat<'a>,
    ) -> Result<()> {
        if stack.contains(name) {
            return Err(Error::at(
                ErrorKind::Invalid(format!(
                    "interfaces extending each other in a cycle: {} → {} (WSDL 2.0 Part 1 §2.2.1 forbids it)",
                    stack
                        .iter()
                        .map(|q| q.local.as_str())
                        .collect::<Vec<_>>()
                        .join(" → "),
                    name.local
                )),
                at,
            ));
        }
        if !done.insert(name.clone()) {
            return Ok(());
        }
        let Some(i) = d.interfaces.get(name) else {
            return Err(undefined(format!("interface {name}"), at));
        };
        stack.push(name.clone());
        for base in &i.extends {
            visit(d, base, &i.loc, stack, done, out)?;
        }
        stack.pop();
        for f in &i.faults {
            if let Some(prev) = out.faults.insert(f.name.clone(), f) {
                return Err(duplicate("interface fault", &f.name, &prev.loc, &f.loc));
            }
        }
        for o in &i.operations {
            if let Some(prev) = out.operations.iter().find(|p| p.name == o.name) {
                return Err(duplicate("interface operation", &o.name, &prev.loc, &o.loc));
            }
            if let Some(prev) = out.operations.iter().find(|p| p.name.local == o.name.local) {
                return Err(Error::at(
                    ErrorKind::Unsupported(format!(
                        "two operations named {:?} in one interface, from the namespaces {:?} and {:?} (first at {})",
                        o.name.local, prev.name.ns, o.name.ns, prev.loc
                    )),
                    &o.loc,
                ));
            }
            out.operations.push(o);
        }
        Ok(())
    }
    let mut out = Flat {
        operations: Vec::new(),
        faults: BTreeMap::new(),
    };
    visit(d, name, at, &mut Vec::new(), &mut BTreeSet::new(), &mut out)?;
    Ok(out)
}

/// A message of one element part (or none), as WSDL 1.1 would have declared it.
fn message(name: QName, content: &ContentModel, what: &str, loc: &Loc) -> Result<Message> {
    let parts = match content {
        ContentModel::Element(e) => vec![Part {
            name: e.local.clone(),
            kind: PartKind::Element(e.clone()),
            loc: loc.clone(),
        }],
        ContentModel::None => Vec::new(),
        ContentModel::Any => {
            return Err(Error::at(
                ErrorKind::Unsupported(format!(
                "{what} element=\"#any\" (any element, WSDL 2.0 Part 1 §2.5.1): name the element"
            )),
                loc,
            ))
        }
        ContentModel::Other => {
            return Err(Error::at(
                ErrorKind::Unsupported(format!(
                "{what} with no `element` (content model #other, WSDL 2.0 Part 1 §2.5.1: a type \
                     system other than XML Schema)"
            )),
                loc,
            ))
        }
    };
    Ok(Message {
        name,
        parts,
        loc: loc.clone(),
    })
}

/// Maps the WSDL 2.0 components read into WSDL 1.1's: each interface a portType (its inherited
/// operations included) with one message per input, output and fault; each SOAP binding a
/// document/literal SOAP 1.1 or 1.2 binding of every operation of its interface; each endpoint a
/// port. HTTP and other bindings are skipped with a note in `defs.notes`.
///
/// The messages made up are named `<interface>.<operation>.In`/`.Out`, `<interface>.fault.<name>`
/// and `<binding>.<operation>.<In|Out>.header<N>` (not NCNames, so they cannot clash with a WSDL 1.1
/// message).
///
/// # Errors
///
/// [`ErrorKind::Undefined`] for a reference to an interface, operation, fault or binding not read;
/// [`ErrorKind::Invalid`] for an interface extending itself; [`ErrorKind::Unsupported`] for a
/// message of `#any` or `#other` content, or two inherited operations of one local name.
pub fn resolve(d: Description, defs: &mut Definitions) -> Result<()> {
    defs.warnings.extend(d.warnings.iter().cloned());
    defs.addressing.absorb(d.addressing.clone());
    // Interfaces: a portType each.
    let mut flats = BTreeMap::new();
    for i in d.interfaces.values() {
        let flat = flatten(&d, &i.name, &i.loc)?;
        let mut operations = Vec::new();
        for o in &flat.operations {
            let msg = |label: &str| {
                QName::new(
                    &i.name.ns,
                    format!("{}.{}.{label}", i.name.local, o.name.local),
                )
            };
            let mut input = None;
            let mut output = None;
            for (label, r, slot) in [
                ("In", &o.input, &mut input),
                ("Out", &o.output, &mut output),
            ] {
                if let Some(r) = r {
                    let m = message(
                        msg(label),
                        &r.content,
                        &format!(
                            "operation {} {}",
                            o.name.local,
                            if label == "In" { "input" } else { "output" }
                        ),
                        &r.loc,
                    )?;
                    *slot = Some(m.name.clone());
                    defs.messages.insert(m.name.clone(), m);
                }
            }
            let mut faults = Vec::new();
            for (f, at) in &o.faults {
                let Some(fault) = flat.faults.get(f) else {
                    return Err(undefined(
                        format!(
                            "interface fault {f} (in interface {} or those it extends)",
                            i.name
                        ),
                        at,
                    ));
                };
                let name = QName::new(&i.name.ns, format!("{}.fault.{}", i.name.local, f.local));
                let m = message(
                    name.clone(),
                    &fault.content,
                    &format!("fault {}", f.local),
                    &fault.loc,
                )?;
                if m.parts.is_empty() {
                    return Err(Error::at(
                        ErrorKind::Unsupported(format!(
                            "fault {} element=\"#none\" (a fault with no detail element)",
                            f.local
                        )),
                        &fault.loc,
                    ));
                }
                defs.messages.insert(name.clone(), m);
                faults.push((f.local.clone(), name));
            }
            operations.push(PortTypeOperation {
                input_name: None,
                name: o.name.local.clone(),
                input,
                output,
                faults,
                doc: o.doc.clone(),
                loc: o.loc.clone(),
            });
        }
        defs.port_types.insert(
            i.name.clone(),
            PortType {
                name: i.name.clone(),
                operations,
                doc: i.doc.clone(),
                loc: i.loc.clone(),
            },
        );
        flats.insert(i.name.clone(), flat);
    }
    // Services: a port per endpoint.
    for s in &d.services {
        if !d.interfaces.contains_key(&s.interface) {
            return Err(undefined(format!("interface {}", s.interface), &s.loc));
        }
        let mut ports = Vec::new();
        for e in &s.endpoints {
            let Some(b) = d.bindings.get(&e.binding) else {
                return Err(undefined(format!("binding {}", e.binding), &e.loc));
            };
            if let Some(bi) = &b.interface {
                if bi != &s.interface {
                    return Err(Error::at(
                        ErrorKind::Invalid(format!(
                            "endpoint {} uses binding {} of interface {bi}, but its service is of interface {} (WSDL 2.0 Part 1 §2.16.1)",
                            e.name, b.name.local, s.interface
                        )),
                        &e.loc,
                    ));
                }
            }
            ports.push(Port {
                name: e.name.clone(),
                binding: e.binding.clone(),
                address: e.address.clone(),
                loc: e.loc.clone(),
            });
        }
        defs.services.push(Service {
            name: s.name.clone(),
            ports,
            doc: s.doc.clone(),
            loc: s.loc.clone(),
        });
    }
    // Bindings.
    for b in d.bindings.values() {
        let soap12 = match &b.kind {
            BindingType::Soap { soap12 } => *soap12,
            BindingType::Http => {
                defs.notes.push(format!(
                    "binding {} is a WSDL 2.0 HTTP binding (WSDL 2.0 Part 2 §6): not generated; use a SOAP binding of the same interface",
                    b.name.local
                ));
                continue;
            }
            BindingType::Other(t) => {
                defs.notes.push(format!(
                    "binding {} is of type {t:?} (not the WSDL 2.0 SOAP binding): not generated",
                    b.name.local
                ));
                continue;
            }
        };
        // Part 1 §2.9: a binding without `interface` binds nothing itself; an endpoint's service
        // gives it one.
        let interface = match &b.interface {
            Some(i) => i.clone(),
            None => match d
                .services
                .iter()
                .find(|s| s.endpoints.iter().any(|e| e.binding == b.name))
            {
                Some(s) => s.interface.clone(),
                None => {
                    defs.notes.push(format!(
                        "binding {} names no interface and no endpoint uses it: not generated",
                        b.name.local
                    ));
                    continue;
                }
            },
        };
        let Some(flat) = flats.get(&interface) else {
            return Err(undefined(format!("interface {interface}"), &b.loc));
        };
        for (f, at) in &b.faults {
            if !flat.faults.contains_key(f) {
                return Err(undefined(
                    format!("interface fault {f} of interface {interface}"),
                    at,
                ));
            }
        }
        let mut given: BTreeMap<&QName, &BindingOperation20> = BTreeMap::new();
        for o in &b.operations {
            if !flat.operations.iter().any(|io| io.name == o.reference) {
                return Err(undefined(
                    format!("operation {} of interface {interface}", o.reference),
                    &o.loc,
                ));
            }
            if let Some(prev) = given.insert(&o.reference, o) {
                return Err(duplicate(
                    "binding operation",
                    &o.reference,
                    &prev.loc,
                    &o.loc,
                ));
            }
        }
        let mut operations = Vec::new();
        for io in &flat.operations {
            let bo = given.get(&io.name);
            // Only the request-response SOAP MEP (SOAP 1.2 Part 2 §6.2) is a call with a request
            // envelope; any other leaves this operation out, the rest of the binding generated.
            let (mep, mep_at) = match bo.and_then(|o| o.mep.as_ref().map(|m| (m, &o.loc))) {
                Some(m) => (Some(m.0), m.1),
                None => (b.mep_default.as_ref(), &b.loc),
            };
            if let Some(mep) = mep.filter(|m| m.trim_end_matches('/') != SOAP_MEP_REQUEST_RESPONSE)
            {
                defs.notes.push(format!(
                    "operation {} of binding {} ({mep_at}) not generated: {}",
                    io.name.local,
                    b.name.local,
                    mep_reason(mep)
                ));
                continue;
            }
            let headers =
                |label: &str, list: Option<&Vec<(QName, Loc)>>, defs: &mut Definitions| {
                    let mut out = Vec::new();
                    for (n, (el, at)) in list.into_iter().flatten().enumerate() {
                        let name = QName::new(
                            &b.name.ns,
                            format!("{}.{}.{label}.header{}", b.name.local, io.name.local, n + 1),
                        );
                        defs.messages.insert(
                            name.clone(),
                            Message {
                                name: name.clone(),
                                parts: vec![Part {
                                    name: el.local.clone(),
                                    kind: PartKind::Element(el.clone()),
                                    loc: at.clone(),
                                }],
                                loc: at.clone(),
                            },
                        );
                        out.push((name, el.local.clone(), at.clone()));
                    }
                    out
                };
            let at = bo.map_or(&b.loc, |o| &o.loc).clone();
            let bm = |headers: Vec<(QName, String, Loc)>| BindingMessage {
                use_: BodyUse::Literal,
                namespace: None,
                parts: None,
                headers,
                attachments: Vec::new(),
                loc: at.clone(),
            };
            let input = bm(headers("In", bo.map(|o| &o.input_headers), defs));
            let output = io
                .output
                .is_some()
                .then(|| bm(headers("Out", bo.map(|o| &o.output_headers), defs)));
            operations.push(BindingOperation {
                input_name: None,
                name: io.name.local.clone(),
                soap_action: bo.and_then(|o| o.action.clone()),
                style: Some(Style::Document),
                input: Some(input),
                output,
                loc: at.clone(),
            });
        }
        defs.bindings.insert(
            b.name.clone(),
            Binding {
                name: b.name.clone(),
                port_type: interface,
                kind: if soap12 {
                    BindingKind::Soap12
                } else {
                    BindingKind::Soap11
                },
                style: Some(Style::Document),
                operations,
                loc: b.loc.clone(),
            },
        );
    }
    Ok(())
}
