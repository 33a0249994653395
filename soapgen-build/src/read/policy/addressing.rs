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
//! Only the policies of the document itself are read for addressing: a reference to another
//! document's policy does not make a binding addressed (its security assertions are linked in
//! later, [`super::link`]).

use roxmltree::Node;

use crate::read::components::{AddressingFacts, AddressingVersion, OperationActions, QName};
use crate::read::document::DocCtx;

use super::expression::Expressions;

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
/// The WSDL Binding CR's namespace (`wsaw:UsingAddressing`, `wsaw:Action`).
const WSAW: &str = "http://www.w3.org/2006/05/addressing/wsdl";
/// Metadata 1.0 (`wsam:Addressing`, `wsam:Action`).
const WSAM: &str = "http://www.w3.org/2007/05/addressing/metadata";
/// The 2004/08 submission's policy assertion namespace (`wsap:UsingAddressing`).
const WSAP: &str = "http://schemas.xmlsoap.org/ws/2004/08/addressing/policy";
/// The 2004/08 submission itself (its `wsa:Action` attribute on WSDL messages).
const WSA2004: &str = "http://schemas.xmlsoap.org/ws/2004/08/addressing";

fn is_wsdl(d: &Dialect, n: Node, local: &str) -> bool {
    n.is_element() && n.tag_name().namespace() == Some(d.ns) && n.tag_name().name() == local
}

/// The addressing assertion `n` is, if it is one.
fn assertion(n: Node) -> Option<AddressingVersion> {
    let t = n.tag_name();
    named(t.namespace().unwrap_or_default(), t.name())
}

/// The addressing assertion named `{ns}local`, if it is one.
fn named(ns: &str, local: &str) -> Option<AddressingVersion> {
    match (ns, local) {
        (WSAW, "UsingAddressing") | (WSAM, "Addressing") => Some(AddressingVersion::W3C),
        (WSAP, "UsingAddressing") => Some(AddressingVersion::Submission2004),
        _ => None,
    }
}

/// The addressing of a policy subject (a binding, a port or an endpoint): a `wsaw:UsingAddressing`
/// extension element, or an addressing assertion in any alternative of the policy attached to it.
fn subject<'d, 'i>(x: &mut Expressions<'_, 'd, 'i>, n: Node<'d, 'i>) -> Option<AddressingVersion> {
    if let Some(v) = n.children().find_map(assertion) {
        return Some(v);
    }
    // A policy too large to normalize is reported where security policies are read.
    let policy = x.attached(n).ok().flatten()?;
    policy
        .alternatives
        .iter()
        .flat_map(|a| &a.assertions)
        .find_map(|a| named(&a.name.ns, &a.name.local))
}

/// The explicit action on a WSDL input, output or fault element.
fn action(n: Node) -> Option<String> {
    [WSAM, WSAW, WSA2004]
        .iter()
        .find_map(|ns| n.attribute((*ns, "Action")))
        .map(|a| a.trim().to_owned())
}

/// Reads the WS-Addressing facts of `root` with target namespace `tns` into `facts`, but those
/// of the `shadowed` definitions (names an earlier document defined). `root` is a WSDL 1.1 `wsdl:definitions`, or a
/// WSDL 2.0 `description` (told by its namespace: interfaces, bindings, services' endpoints; an
/// interface operation's `fault` references are `infault`/`outfault`). Reads what it understands
/// and passes over the rest: it cannot fail.
pub fn read(doc: &DocCtx, root: Node, tns: &str, shadowed: &[Node], facts: &mut AddressingFacts) {
    let d = if root.tag_name().namespace() == Some(WSDL20.ns) {
        &WSDL20
    } else {
        &WSDL11
    };
    let qn = |local: &str| QName::new(tns.to_owned(), local);
    let mut x = Expressions::new(doc, root);
    for c in root
        .children()
        .filter(|c| c.is_element() && !shadowed.contains(c))
    {
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
            if let Some(v) = subject(&mut x, c) {
                facts.bindings.insert(qn(name), (v, doc.loc(c)));
            }
        } else if is_wsdl(d, c, "service") {
            for p in c.children().filter(|p| is_wsdl(d, *p, d.port)) {
                if let (Some(port), Some(v)) = (p.attribute("name"), subject(&mut x, p)) {
                    facts
                        .ports
                        .insert((qn(name), port.to_owned()), (v, doc.loc(p)));
                }
            }
        }
    }
}
