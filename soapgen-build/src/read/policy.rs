//! WS-Addressing facts of a WSDL 1.1 or WSDL 2.0 document, read into
//! [`AddressingFacts`]:
//!
//! - a binding or port (WSDL 2.0: endpoint) that requires or allows addressing: `wsaw:UsingAddressing` among its
//!   extension elements (WS-Addressing 1.0 WSDL Binding, CR 2006, §3.1), or an attached
//!   WS-Policy (WS-PolicyAttachment 1.5 §4.1: an inline `wsp:Policy`, a `wsp:PolicyReference`,
//!   or the `wsp:PolicyURIs` attribute; WS-Policy 1.2 and 1.5) whose alternatives hold
//!   `wsam:Addressing` (WS-Addressing 1.0 Metadata §3.1), `wsaw:UsingAddressing`, or the
//!   2004/08 submission's `wsap:UsingAddressing`. `wsp:Optional="true"` still counts: the
//!   service accepts addressed requests;
//! - each portType (WSDL 2.0: interface) operation's explicit actions: `wsam:Action` (Metadata
//!   §4.4.1) or `wsaw:Action` on its input, output and faults.
//!
//! A `wsp:PolicyReference` to no policy of the document is a located warning (policies in other
//! documents are not fetched).

use roxmltree::Node;

use crate::error::Warning;
use crate::read::components::{AddressingFacts, AddressingVersion, OperationActions, QName};
use crate::read::document::DocCtx;

/// The names of the elements read, in WSDL 1.1 and in WSDL 2.0.
struct Dialect {
    ns: &'static str,
    port_type: &'static str,
    port: &'static str,
    faults: [&'static str; 2],
    wsdl20: bool,
}

const WSDL11: Dialect = Dialect {
    ns: "http://schemas.xmlsoap.org/wsdl/",
    port_type: "portType",
    port: "port",
    faults: ["fault", "fault"],
    wsdl20: false,
};

const WSDL20: Dialect = Dialect {
    ns: crate::read::components::WSDL20,
    port_type: "interface",
    port: "endpoint",
    faults: ["infault", "outfault"],
    wsdl20: true,
};
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

fn is_wsdl(d: &Dialect, n: Node, local: &str) -> bool {
    n.is_element() && n.tag_name().namespace() == Some(d.ns) && n.tag_name().name() == local
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

/// Reads the WS-Addressing facts of `root` with target namespace `tns` into `facts`;
/// unresolved policy references go to `warnings`. `root` is a WSDL 1.1 `wsdl:definitions`, or a
/// WSDL 2.0 `description` (told by its namespace: interfaces, bindings, services' endpoints; an
/// interface operation's `fault` references are `infault`/`outfault`). Reads what it understands
/// and passes over the rest: it cannot fail.
pub fn read(
    doc: &DocCtx,
    root: Node,
    tns: &str,
    facts: &mut AddressingFacts,
    warnings: &mut Vec<Warning>,
) {
    let d = if root.tag_name().namespace() == Some(WSDL20.ns) {
        &WSDL20
    } else {
        &WSDL11
    };
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
        if is_wsdl(d, c, d.port_type) {
            for o in c.children().filter(|o| is_wsdl(d, *o, "operation")) {
                let Some(op) = o.attribute("name") else {
                    continue;
                };
                let mut acts = OperationActions {
                    wsdl20: d.wsdl20,
                    ..Default::default()
                };
                for m in o.children().filter(Node::is_element) {
                    if is_wsdl(d, m, "input") {
                        acts.input = action(m);
                        acts.input_name = m.attribute("name").map(str::to_owned);
                    } else if is_wsdl(d, m, "output") {
                        acts.output = action(m);
                        acts.output_name = m.attribute("name").map(str::to_owned);
                        acts.has_output = true;
                    } else if d.faults.iter().any(|f| is_wsdl(d, m, f)) {
                        let fault = m.attribute("name").or_else(|| m.attribute("ref"));
                        if let (Some(f), Some(a)) = (fault, action(m)) {
                            acts.faults.insert(f.to_owned(), a);
                        }
                    }
                }
                facts.actions.insert((qn(name), op.to_owned()), acts);
            }
        } else if is_wsdl(d, c, "binding") {
            if let Some(v) = r.subject(c) {
                facts.bindings.insert(qn(name), (v, doc.loc(c)));
            }
        } else if is_wsdl(d, c, "service") {
            for p in c.children().filter(|p| is_wsdl(d, *p, d.port)) {
                if let (Some(port), Some(v)) = (p.attribute("name"), r.subject(p)) {
                    facts
                        .ports
                        .insert((qn(name), port.to_owned()), (v, doc.loc(p)));
                }
            }
        }
    }
}
