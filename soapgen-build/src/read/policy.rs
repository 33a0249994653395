//! WS-Addressing facts of a WSDL 1.1 document, read into
//! [`AddressingFacts`]:
//!
//! - a binding or port that requires or allows addressing: `wsaw:UsingAddressing` among its
//!   extension elements (WS-Addressing 1.0 WSDL Binding, CR 2006, §3.1), or an attached
//!   WS-Policy (WS-PolicyAttachment 1.5 §4.1: an inline `wsp:Policy`, a `wsp:PolicyReference`,
//!   or the `wsp:PolicyURIs` attribute; WS-Policy 1.2 and 1.5) whose alternatives hold
//!   `wsam:Addressing` (WS-Addressing 1.0 Metadata §3.1), `wsaw:UsingAddressing`, or the
//!   2004/08 submission's `wsap:UsingAddressing`. `wsp:Optional="true"` still counts: the
//!   service accepts addressed requests;
//! - each portType operation's explicit actions: `wsam:Action` (Metadata §4.4.1) or
//!   `wsaw:Action` on its input, output and faults.
//!
//! A `wsp:PolicyReference` to no policy of the document is a located warning (policies in other
//! documents are not fetched).

use roxmltree::Node;

use crate::model::addressing::{AddressingFacts, AddressingVersion, OperationActions};
use crate::model::components::QName;
use crate::model::ir::Warning;
use crate::read::DocCtx;

const WSDL: &str = "http://schemas.xmlsoap.org/wsdl/";
/// WS-Policy 1.5 (W3C) and 1.2 (the 2004/09 submission WCF writes).
const WSP: [&str; 2] = [
    "http://www.w3.org/ns/ws-policy",
    "http://schemas.xmlsoap.org/ws/2004/09/policy",
];
const WSU: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
/// The WSDL Binding CR's namespace (`wsaw:UsingAddressing`, `wsaw:Action`).
const WSAW: &str = "http://www.w3.org/2006/05/addressing/wsdl";
/// Metadata 1.0 (`wsam:Addressing`, `wsam:Action`).
const WSAM: &str = "http://www.w3.org/2007/05/addressing/metadata";
/// The 2004/08 submission's policy assertion namespace (`wsap:UsingAddressing`).
const WSAP: &str = "http://schemas.xmlsoap.org/ws/2004/08/addressing/policy";
/// The 2004/08 submission itself (its `wsa:Action` attribute on WSDL messages).
const WSA2004: &str = "http://schemas.xmlsoap.org/ws/2004/08/addressing";

fn is_wsp(n: Node, local: &str) -> bool {
    n.is_element()
        && n.tag_name().name() == local
        && n.tag_name().namespace().is_some_and(|ns| WSP.contains(&ns))
}

fn is_wsdl(n: Node, local: &str) -> bool {
    n.is_element() && n.tag_name().namespace() == Some(WSDL) && n.tag_name().name() == local
}

/// The addressing assertion `n` is, if it is one.
fn assertion(n: Node) -> Option<AddressingVersion> {
    let t = n.tag_name();
    match (t.namespace(), t.name()) {
        (Some(WSAW), "UsingAddressing") | (Some(WSAM), "Addressing") => {
            Some(AddressingVersion::W3C)
        }
        (Some(WSAP), "UsingAddressing") => Some(AddressingVersion::Submission2004),
        _ => None,
    }
}

struct Reader<'a, 'd, 'i> {
    doc: &'a DocCtx<'d>,
    /// Every `wsp:Policy` of the document.
    policies: Vec<Node<'d, 'i>>,
    warnings: &'a mut Vec<Warning>,
}

impl<'d, 'i> Reader<'_, 'd, 'i> {
    /// The policy `uri` names: `#id` (its `wsu:Id` or `xml:id`), else its `Name`.
    fn resolve(&self, uri: &str) -> Option<Node<'d, 'i>> {
        let uri = uri.trim();
        self.policies
            .iter()
            .copied()
            .find(|p| match uri.strip_prefix('#') {
                Some(id) => {
                    p.attribute((WSU, "Id")) == Some(id)
                        || p.attribute(("http://www.w3.org/XML/1998/namespace", "id")) == Some(id)
                }
                None => p.attribute("Name") == Some(uri),
            })
    }

    /// The addressing a policy expression (or a reference to one) holds, looked for in every
    /// alternative; `depth` bounds reference chains.
    fn in_policy(&mut self, n: Node<'d, 'i>, depth: usize) -> Option<AddressingVersion> {
        if depth > 16 {
            return None;
        }
        if let Some(v) = assertion(n) {
            return Some(v);
        }
        if is_wsp(n, "PolicyReference") {
            let uri = n.attribute("URI").unwrap_or_default();
            return match self.resolve(uri) {
                Some(p) => self.in_policy(p, depth + 1),
                None => {
                    self.warnings.push(Warning {
                        message: format!(
                            "wsp:PolicyReference {uri:?} names no wsp:Policy of this document: \
                             not applied (WS-PolicyAttachment 1.5 §4.1)"
                        ),
                        loc: self.doc.loc(n),
                    });
                    None
                }
            };
        }
        if is_wsp(n, "Policy") || is_wsp(n, "ExactlyOne") || is_wsp(n, "All") {
            let children: Vec<Node<'d, 'i>> = n.children().filter(Node::is_element).collect();
            for c in children {
                if let Some(v) = self.in_policy(c, depth + 1) {
                    return Some(v);
                }
            }
        }
        None
    }

    /// What a binding or port element says, directly or by attached policies.
    fn subject(&mut self, n: Node<'d, 'i>) -> Option<AddressingVersion> {
        let children: Vec<Node<'d, 'i>> = n.children().filter(Node::is_element).collect();
        for c in children {
            if let Some(v) = self.in_policy(c, 0) {
                return Some(v);
            }
        }
        let uris = WSP
            .iter()
            .find_map(|ns| n.attribute((*ns, "PolicyURIs")))
            .unwrap_or_default()
            .to_owned();
        for uri in uris.split_whitespace() {
            match self.resolve(uri) {
                Some(p) => {
                    if let Some(v) = self.in_policy(p, 0) {
                        return Some(v);
                    }
                }
                None => self.warnings.push(Warning {
                    message: format!(
                        "wsp:PolicyURIs names {uri:?}, no wsp:Policy of this document: not \
                         applied (WS-PolicyAttachment 1.5 §4.1)"
                    ),
                    loc: self.doc.loc(n),
                }),
            }
        }
        None
    }
}

/// The explicit action on a WSDL input, output or fault element.
fn action(n: Node) -> Option<String> {
    [WSAM, WSAW, WSA2004]
        .iter()
        .find_map(|ns| n.attribute((*ns, "Action")))
        .map(|a| a.trim().to_owned())
}

/// Reads the WS-Addressing facts of `root`, a `wsdl:definitions` with target namespace `tns`,
/// into `facts`; unresolved policy references go to `warnings`. Reads what it understands and
/// passes over the rest: it cannot fail.
pub fn read(
    doc: &DocCtx,
    root: Node,
    tns: &str,
    facts: &mut AddressingFacts,
    warnings: &mut Vec<Warning>,
) {
    let qn = |local: &str| QName::new(tns.to_owned(), local);
    let mut r = Reader {
        doc,
        policies: root
            .descendants()
            .filter(|n| is_wsp(*n, "Policy"))
            .collect(),
        warnings,
    };
    for c in root.children().filter(Node::is_element) {
        let Some(name) = c.attribute("name") else {
            continue;
        };
        if is_wsdl(c, "portType") {
            for o in c.children().filter(|o| is_wsdl(*o, "operation")) {
                let Some(op) = o.attribute("name") else {
                    continue;
                };
                let mut acts = OperationActions::default();
                for m in o.children().filter(Node::is_element) {
                    match m.tag_name().name() {
                        "input" if is_wsdl(m, "input") => {
                            acts.input = action(m);
                            acts.input_name = m.attribute("name").map(str::to_owned);
                        }
                        "output" if is_wsdl(m, "output") => {
                            acts.output = action(m);
                            acts.output_name = m.attribute("name").map(str::to_owned);
                            acts.has_output = true;
                        }
                        "fault" if is_wsdl(m, "fault") => {
                            if let (Some(f), Some(a)) = (m.attribute("name"), action(m)) {
                                acts.faults.insert(f.to_owned(), a);
                            }
                        }
                        _ => {}
                    }
                }
                facts.actions.insert((qn(name), op.to_owned()), acts);
            }
        } else if is_wsdl(c, "binding") {
            if let Some(v) = r.subject(c) {
                facts.bindings.insert(qn(name), (v, doc.loc(c)));
            }
        } else if is_wsdl(c, "service") {
            for p in c.children().filter(|p| is_wsdl(*p, "port")) {
                if let (Some(port), Some(v)) = (p.attribute("name"), r.subject(p)) {
                    facts
                        .ports
                        .insert((qn(name), port.to_owned()), (v, doc.loc(p)));
                }
            }
        }
    }
}
