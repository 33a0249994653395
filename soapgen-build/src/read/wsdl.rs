//! Reads WSDL 1.1 `definitions` (WSDL 1.1 §2) with the SOAP 1.1 (§3), SOAP 1.2 and HTTP (§4) binding
//! extensions into [`Definitions`].

use std::collections::BTreeMap;

use roxmltree::Node;

use crate::error::{Error, ErrorKind, Loc, Result, Warning};
use crate::read::components::*;
use crate::read::document::DocCtx;

const SOAP11: &str = "http://schemas.xmlsoap.org/wsdl/soap/";
const SOAP12: &str = "http://schemas.xmlsoap.org/wsdl/soap12/";
const HTTP: &str = "http://schemas.xmlsoap.org/wsdl/http/";
const MIME: &str = "http://schemas.xmlsoap.org/wsdl/mime/";

/// A `wsdl:import`.
#[derive(Debug, Clone)]
pub struct WsdlImport {
    /// `location`.
    pub location: String,
    /// Where.
    pub loc: Loc,
}

fn wsdl_children<'a, 'd>(
    node: Node<'a, 'd>,
    name: &'static str,
) -> impl Iterator<Item = Node<'a, 'd>> {
    node.children().filter(move |c| {
        c.is_element() && c.tag_name().namespace() == Some(WSDL) && c.tag_name().name() == name
    })
}

fn ext_child<'a, 'd>(node: Node<'a, 'd>, name: &str) -> Option<Node<'a, 'd>> {
    node.children().find(|c| {
        c.is_element()
            && matches!(c.tag_name().namespace(), Some(SOAP11 | SOAP12))
            && c.tag_name().name() == name
    })
}

fn required<'a>(doc: &DocCtx, node: Node<'a, '_>, attr: &str) -> Result<&'a str> {
    node.attribute(attr).ok_or_else(|| {
        Error::at(
            ErrorKind::Missing(format!(
                "`{attr}` attribute on wsdl:{}",
                node.tag_name().name()
            )),
            &doc.loc(node),
        )
    })
}

fn required_qname(doc: &DocCtx, node: Node, attr: &str) -> Result<QName> {
    doc.qname_attr(node, attr)?.ok_or_else(|| {
        Error::at(
            ErrorKind::Missing(format!(
                "`{attr}` attribute on wsdl:{}",
                node.tag_name().name()
            )),
            &doc.loc(node),
        )
    })
}

fn style(v: Option<&str>) -> Option<Style> {
    match v {
        Some("rpc") => Some(Style::Rpc),
        Some("document") => Some(Style::Document),
        _ => None,
    }
}

/// Reads the messages, portTypes, bindings and services of one `wsdl:definitions` into `defs` and
/// returns its `wsdl:import`s; then its WS-Addressing facts and the WS-Policy attached to its
/// subjects ([`policy`](crate::read::policy)).
/// The `wsdl:types` schemas are read by the caller.
///
/// # Errors
///
/// Missing attributes, duplicate names, unsupported operation types.
pub fn read_definitions(
    doc: &DocCtx,
    root: Node,
    defs: &mut Definitions,
) -> Result<Vec<WsdlImport>> {
    let tns = root
        .attribute("targetNamespace")
        .unwrap_or_default()
        .to_owned();
    let qn = |local: &str| QName::new(tns.clone(), local);
    let mut imports = Vec::new();
    // Top-level definitions an earlier document defined first: left out, with what is attached
    // to them.
    let mut shadowed: Vec<Node> = Vec::new();
    for c in root.children().filter(|c| c.is_element()) {
        if c.tag_name().namespace() != Some(WSDL) {
            continue; // extensibility elements (policies…) at the top level carry no messages
        }
        let w = &mut defs.warnings;
        let kept = match c.tag_name().name() {
            "import" => {
                imports.push(WsdlImport {
                    location: required(doc, c, "location")?.to_owned(),
                    loc: doc.loc(c),
                });
                true
            }
            "message" => {
                let m = read_message(doc, c, qn(required(doc, c, "name")?))?;
                insert_once(
                    &mut defs.messages,
                    "message",
                    m.name.clone(),
                    m,
                    |m| &m.loc,
                    w,
                )?
            }
            "portType" => {
                let pt = read_port_type(doc, c, qn(required(doc, c, "name")?))?;
                let name = pt.name.clone();
                insert_once(&mut defs.port_types, "portType", name, pt, |p| &p.loc, w)?
            }
            "binding" => {
                let b = read_binding(doc, c, qn(required(doc, c, "name")?))?;
                insert_once(
                    &mut defs.bindings,
                    "binding",
                    b.name.clone(),
                    b,
                    |b| &b.loc,
                    w,
                )?
            }
            "service" => {
                let s = read_service(doc, c, qn(required(doc, c, "name")?))?;
                match defs.services.iter().find(|t| t.name == s.name) {
                    Some(first) => once_more("service", &s.name, &first.loc, s.loc.clone(), w)?,
                    None => {
                        defs.services.push(s);
                        true
                    }
                }
            }
            _ => true,
        };
        if !kept {
            shadowed.push(c);
        }
    }
    crate::read::policy::read(doc, root, &tns, &shadowed, &mut defs.addressing);
    crate::read::policy::attach::read(doc, root, &tns, &shadowed, &mut defs.policies)?;
    Ok(imports)
}

/// Adds `value` under `name` and returns `true`, unless a definition of that name was read
/// already (WSDL 1.1 §2.1.1: names are unique in their symbol space): see [`once_more`].
fn insert_once<T>(
    map: &mut BTreeMap<QName, T>,
    what: &str,
    name: QName,
    value: T,
    loc: impl Fn(&T) -> &Loc,
    warnings: &mut Vec<Warning>,
) -> Result<bool> {
    if let Some(prev) = map.get(&name) {
        return once_more(what, &name, loc(prev), loc(&value).clone(), warnings);
    }
    map.insert(name, value);
    Ok(true)
}

/// A second definition of `name` at `again`, the first at `first` (WSDL 1.1 §2.1.1: names are
/// unique in their symbol space). In the same document, an [`ErrorKind::Duplicate`] at the
/// second. In another document (an overlay that imports the documents it redefines, as
/// WSDL4J-based stacks accept), the first read is kept, the entry document's before its imports'
/// (depth first), and `Ok(false)` says the second and what is attached to it are left out, with a
/// warning at it.
fn once_more(
    what: &str,
    name: &QName,
    first: &Loc,
    again: Loc,
    warnings: &mut Vec<Warning>,
) -> Result<bool> {
    if first.file != again.file {
        warnings.push(Warning {
            message: format!(
                "{what} {name} is defined again in another document; the first definition, at \
                 {first}, is used and this one left out with its policies"
            ),
            loc: again,
        });
        return Ok(false);
    }
    Err(Error::at(
        ErrorKind::Duplicate(format!("{what} {name} (first defined at {first})")),
        &again,
    ))
}

/// A `wsdl:message` and its parts, each typed by `element=` or `type=` (WSDL 1.1 §2.3).
fn read_message(doc: &DocCtx, node: Node, name: QName) -> Result<Message> {
    let mut parts = Vec::new();
    for p in wsdl_children(node, "part") {
        let ploc = doc.loc(p);
        let kind = if let Some(e) = doc.qname_attr(p, "element")? {
            PartKind::Element(e)
        } else if let Some(t) = doc.qname_attr(p, "type")? {
            PartKind::Type(t)
        } else {
            return Err(Error::at(
                ErrorKind::Missing("`element` or `type` on wsdl:part".into()),
                &ploc,
            ));
        };
        parts.push(Part {
            name: required(doc, p, "name")?.to_owned(),
            kind,
            doc: doc.documentation(p),
            loc: ploc,
        });
    }
    Ok(Message {
        name,
        parts,
        doc: doc.documentation(node),
        loc: doc.loc(node),
    })
}

/// A `wsdl:portType` and its operations (WSDL 1.1 §2.4).
fn read_port_type(doc: &DocCtx, node: Node, name: QName) -> Result<PortType> {
    let operations = wsdl_children(node, "operation")
        .map(|o| read_port_type_operation(doc, o))
        .collect::<Result<_>>()?;
    Ok(PortType {
        name,
        operations,
        doc: doc.documentation(node),
        loc: doc.loc(node),
    })
}

/// One operation of a portType: its input, output and faults (WSDL 1.1 §2.4.1–§2.4.2, §2.4.5).
/// Solicit-response and notification operations (§2.4.3–§2.4.4), where the service speaks
/// first, are refused.
fn read_port_type_operation(doc: &DocCtx, node: Node) -> Result<PortTypeOperation> {
    let loc = doc.loc(node);
    let msgs: Vec<Node> = node
        .children()
        .filter(|m| m.is_element() && m.tag_name().namespace() == Some(WSDL))
        .collect();
    let first_io = msgs
        .iter()
        .find(|m| matches!(m.tag_name().name(), "input" | "output"));
    if first_io.is_some_and(|m| m.tag_name().name() == "output") {
        return Err(Error::at(
            ErrorKind::Unsupported(
                "solicit-response and notification operations (output before input, WSDL 1.1 §2.4.3–4): a client cannot call them".into(),
            ),
            &loc,
        ));
    }
    let mut op = PortTypeOperation {
        name: required(doc, node, "name")?.to_owned(),
        input: None,
        input_name: None,
        output: None,
        faults: Vec::new(),
        doc: doc.documentation(node),
        message_docs: Vec::new(),
        loc,
    };
    for m in msgs {
        if let Some(d) = doc.documentation(m) {
            let what = match m.tag_name().name() {
                "input" => "request".to_owned(),
                "output" => "response".to_owned(),
                _ => format!("fault {}", m.attribute("name").unwrap_or_default()),
            };
            op.message_docs.push((what, d));
        }
        match m.tag_name().name() {
            "input" => {
                op.input = Some(required_qname(doc, m, "message")?);
                op.input_name = m.attribute("name").map(str::to_owned);
            }
            "output" => op.output = Some(required_qname(doc, m, "message")?),
            "fault" => op.faults.push((
                required(doc, m, "name")?.to_owned(),
                required_qname(doc, m, "message")?,
            )),
            _ => {}
        }
    }
    Ok(op)
}

/// A `wsdl:service` and its ports, each with its binding and `soap:address` (WSDL 1.1 §2.7, §3.8).
fn read_service(doc: &DocCtx, node: Node, name: QName) -> Result<Service> {
    let mut ports = Vec::new();
    for p in wsdl_children(node, "port") {
        let address = p
            .children()
            .find(|a| a.is_element() && a.tag_name().name() == "address")
            .and_then(|a| a.attribute("location"))
            .map(str::to_owned);
        ports.push(Port {
            name: required(doc, p, "name")?.to_owned(),
            binding: required_qname(doc, p, "binding")?,
            address,
            loc: doc.loc(p),
        });
    }
    Ok(Service {
        name,
        ports,
        doc: doc.documentation(node),
        loc: doc.loc(node),
    })
}

fn read_binding(doc: &DocCtx, node: Node, name: QName) -> Result<Binding> {
    let loc = doc.loc(node);
    let port_type = required_qname(doc, node, "type")?;
    // WSDL 1.1 §2.1.3: extensibility elements may come in any order, and one not understood (a
    // vendor's `stk:binding`, as the MS SOAP Toolkit writes before `soap:binding`) is ignored
    // unless it says `wsdl:required="true"`: the protocol is the first binding element soapgen
    // knows, else the first other one.
    let ext_bindings = || {
        node.children().filter(|c| {
            c.is_element()
                && c.tag_name().name() == "binding"
                && c.tag_name().namespace() != Some(WSDL)
        })
    };
    let proto = ext_bindings()
        .find(|c| matches!(c.tag_name().namespace(), Some(SOAP11 | SOAP12 | HTTP)))
        .or_else(|| ext_bindings().next());
    let (kind, bstyle) = match proto {
        Some(p) => match p.tag_name().namespace() {
            Some(SOAP11) => (BindingKind::Soap11, style(p.attribute("style"))),
            Some(SOAP12) => (BindingKind::Soap12, style(p.attribute("style"))),
            Some(HTTP) => (BindingKind::Http, None),
            other => (
                BindingKind::Other(other.unwrap_or_default().to_owned()),
                None,
            ),
        },
        None => (BindingKind::Other(String::new()), None),
    };
    let mut operations = Vec::new();
    for o in wsdl_children(node, "operation") {
        let oloc = doc.loc(o);
        let soap_op = ext_child(o, "operation");
        let mut bo = BindingOperation {
            name: required(doc, o, "name")?.to_owned(),
            input_name: wsdl_children(o, "input")
                .next()
                .and_then(|i| i.attribute("name"))
                .map(str::to_owned),
            soap_action: soap_op
                .and_then(|s| s.attribute("soapAction"))
                .map(str::to_owned),
            style: soap_op.and_then(|s| style(s.attribute("style"))),
            input: None,
            output: None,
            doc: doc.documentation(o),
            soap_response: None,
            loc: oloc,
        };
        if matches!(kind, BindingKind::Soap11 | BindingKind::Soap12) {
            for io in ["input", "output"] {
                if let Some(m) = wsdl_children(o, io).next() {
                    let bm = read_binding_message(doc, m)?;
                    if io == "input" {
                        bo.input = Some(bm);
                    } else {
                        bo.output = Some(bm);
                    }
                }
            }
        }
        operations.push(bo);
    }
    Ok(Binding {
        name,
        port_type,
        kind,
        style: bstyle,
        operations,
        doc: doc.documentation(node),
        loc,
    })
}

fn read_binding_message(doc: &DocCtx, node: Node) -> Result<BindingMessage> {
    let loc = doc.loc(node);
    let mime_child = |n: Node<'_, '_>, name: &str| {
        n.is_element() && n.tag_name().namespace() == Some(MIME) && n.tag_name().name() == name
    };
    let mut attachments = Vec::new();
    // WSDL 1.1 §5.3: the SOAP binding elements sit in one `mime:part` of `mime:multipartRelated`
    // (the root part); every other `mime:part` binds a message part to a MIME attachment.
    let mut soap_holder = node;
    if let Some(mime) = node
        .children()
        .find(|c| c.is_element() && c.tag_name().namespace() == Some(MIME))
    {
        if mime.tag_name().name() != "multipartRelated" {
            return Err(Error::at(
                ErrorKind::Unsupported(format!(
                    "mime:{} in a SOAP binding operation (only mime:multipartRelated, SOAP with \
                     Attachments, is)",
                    mime.tag_name().name()
                )),
                &doc.loc(mime),
            ));
        }
        let mut root = None;
        for part in mime.children().filter(|c| c.is_element()) {
            if !mime_child(part, "part") {
                return Err(Error::at(
                    ErrorKind::Unsupported(format!(
                        "{} inside mime:multipartRelated (WSDL 1.1 §5.3 allows mime:part)",
                        part.tag_name().name()
                    )),
                    &doc.loc(part),
                ));
            }
            let has_soap = part.children().any(|c| {
                c.is_element() && matches!(c.tag_name().namespace(), Some(SOAP11 | SOAP12))
            });
            if has_soap {
                if root.is_some() {
                    return Err(Error::at(
                        ErrorKind::Unsupported(
                            "a second mime:part with SOAP binding elements (WSDL 1.1 §5.3: one \
                             part holds the envelope)"
                                .to_owned(),
                        ),
                        &doc.loc(part),
                    ));
                }
                root = Some(part);
                continue;
            }
            let mut content_part: Option<&str> = None;
            let mut content_types = Vec::new();
            for c in part.children().filter(|c| c.is_element()) {
                if !mime_child(c, "content") {
                    return Err(Error::at(
                        ErrorKind::Unsupported(format!(
                            "{}:{} in a mime:part (only mime:content and the SOAP binding \
                             elements are)",
                            c.tag_name().namespace().map_or("", |n| if n == MIME {
                                "mime"
                            } else {
                                n
                            }),
                            c.tag_name().name()
                        )),
                        &doc.loc(c),
                    ));
                }
                let Some(p) = c.attribute("part") else {
                    return Err(Error::at(
                        ErrorKind::Unsupported(
                            "mime:content without part= in a mime:multipartRelated".to_owned(),
                        ),
                        &doc.loc(c),
                    ));
                };
                match content_part {
                    Some(prev) if prev != p => {
                        return Err(Error::at(
                            ErrorKind::Unsupported(format!(
                                "one mime:part binding two message parts ({prev} and {p})"
                            )),
                            &doc.loc(c),
                        ))
                    }
                    _ => content_part = Some(p),
                }
                if let Some(t) = c.attribute("type") {
                    content_types.push(t.trim().to_owned());
                }
            }
            let Some(p) = content_part else {
                return Err(Error::at(
                    ErrorKind::Missing("mime:content in a mime:part".to_owned()),
                    &doc.loc(part),
                ));
            };
            attachments.push(MimeAttachment {
                part: p.to_owned(),
                content_types,
                loc: doc.loc(part),
            });
        }
        soap_holder = root.ok_or_else(|| {
            Error::at(
                ErrorKind::Missing(
                    "a mime:part holding soap:body in mime:multipartRelated (WSDL 1.1 §5.3)"
                        .to_owned(),
                ),
                &doc.loc(mime),
            )
        })?;
    }
    let node = soap_holder;
    let body = ext_child(node, "body");
    let use_ = match body.and_then(|b| b.attribute("use")) {
        Some("encoded") => BodyUse::Encoded,
        _ => BodyUse::Literal,
    };
    let mut headers = Vec::new();
    for h in node.children().filter(|c| {
        c.is_element()
            && matches!(c.tag_name().namespace(), Some(SOAP11 | SOAP12))
            && c.tag_name().name() == "header"
    }) {
        headers.push((
            required_qname(doc, h, "message")?,
            required(doc, h, "part")?.to_owned(),
            doc.loc(h),
        ));
    }
    Ok(BindingMessage {
        use_,
        namespace: body
            .and_then(|b| b.attribute("namespace"))
            .map(str::to_owned),
        parts: body
            .and_then(|b| b.attribute("parts"))
            .map(|p| p.split_ascii_whitespace().map(str::to_owned).collect()),
        headers,
        attachments,
        loc,
    })
}
