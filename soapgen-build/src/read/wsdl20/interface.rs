//! WSDL 2.0 interfaces (Part 1 §2.2–§2.5): operations with their message exchange pattern (Part 2
//! §2.2), input and output element, and fault references; interface faults.

use roxmltree::Node;

use super::description::{
    ContentModel, Interface, InterfaceFault, InterfaceOperation, MessageRef, Pattern,
};
use super::syntax::{
    check_extension, required, required_qname, unexpected, unsupported, MEP_PREFIXES,
};
use crate::error::{Error, ErrorKind, Result};
use crate::read::components::{QName, WSDL20};
use crate::read::document::DocCtx;

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

pub(super) fn read_interface(doc: &DocCtx, node: Node, tns: &str) -> Result<Interface> {
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
