//! Which policy is attached to which subject of a WSDL 1.1 document (Web Services Policy 1.5
//! Attachment §4.1): `wsdl:service`, `wsdl:port`, `wsdl:binding`, `wsdl:portType`, their
//! operations and the operations' `input`, `output` and `fault`, and `wsdl:message`, by child
//! `wsp:Policy` and `wsp:PolicyReference` elements or the `wsp:PolicyURIs` attribute. Each
//! attached policy is read in its normal form ([`expression`](super::expression)).

use roxmltree::Node;

use super::expression::Expressions;
use crate::error::Result;
use crate::read::components::{OperationPolicies, Policy, PolicyAttachments, QName, WSDL};
use crate::read::document::DocCtx;

fn is_wsdl(n: Node, local: &str) -> bool {
    n.is_element() && n.tag_name().namespace() == Some(WSDL) && n.tag_name().name() == local
}

/// Reads the policies attached in the `wsdl:definitions` `root` (target namespace `tns`) into
/// `out`, but those of the `shadowed` definitions (names an earlier document defined); and every
/// policy a reference can name into `out.named`, under `file`. A reference to no policy of the
/// document is kept as a placeholder [`super::link`] resolves.
///
/// # Errors
///
/// A policy that cannot be normalized ([`Expressions::attached`]).
pub fn read(
    doc: &DocCtx,
    root: Node,
    tns: &str,
    shadowed: &[Node],
    out: &mut PolicyAttachments,
) -> Result<()> {
    let mut x = Expressions::new(doc, root);
    let file = doc.loc(root).file;
    for (key, policy) in x.named() {
        out.named.push((file.clone(), key, policy));
    }
    let qn = |local: &str| QName::new(tns.to_owned(), local);
    for c in root
        .children()
        .filter(|c| c.is_element() && !shadowed.contains(c))
    {
        let Some(name) = c.attribute("name") else {
            continue;
        };
        if is_wsdl(c, "binding") {
            if let Some(p) = x.attached(c)? {
                out.bindings.insert(qn(name), p);
            }
            operations(&mut x, c, &qn(name), &mut out.binding_operations)?;
        } else if is_wsdl(c, "portType") {
            if let Some(p) = x.attached(c)? {
                out.port_types.insert(qn(name), p);
            }
            operations(&mut x, c, &qn(name), &mut out.port_type_operations)?;
        } else if is_wsdl(c, "service") {
            if let Some(p) = x.attached(c)? {
                out.services.insert(qn(name), p);
            }
            for port in c.children().filter(|p| is_wsdl(*p, "port")) {
                if let (Some(port_name), Some(p)) = (port.attribute("name"), x.attached(port)?) {
                    out.ports.insert((qn(name), port_name.to_owned()), p);
                }
            }
        } else if is_wsdl(c, "message") {
            if let Some(p) = x.attached(c)? {
                out.messages.insert(qn(name), p);
            }
        }
    }
    Ok(())
}

/// The policies attached to the operations of the binding or portType `parent` (named `owner`)
/// and to their messages.
fn operations<'d, 'i>(
    x: &mut Expressions<'_, 'd, 'i>,
    parent: Node<'d, 'i>,
    owner: &QName,
    out: &mut std::collections::BTreeMap<(QName, String), OperationPolicies>,
) -> Result<()> {
    for o in parent.children().filter(|o| is_wsdl(*o, "operation")) {
        let Some(op) = o.attribute("name") else {
            continue;
        };
        let mut policies = OperationPolicies::default();
        let mut found = set(x.attached(o)?, &mut policies.operation);
        for m in o.children().filter(Node::is_element) {
            if is_wsdl(m, "input") {
                found |= set(x.attached(m)?, &mut policies.input);
            } else if is_wsdl(m, "output") {
                found |= set(x.attached(m)?, &mut policies.output);
            } else if is_wsdl(m, "fault") {
                if let Some(p) = x.attached(m)? {
                    found = true;
                    let fault = m.attribute("name").unwrap_or_default().to_owned();
                    policies.faults.insert(fault, p);
                }
            }
        }
        if found {
            out.insert((owner.clone(), op.to_owned()), policies);
        }
    }
    Ok(())
}

/// Puts `p` in `slot` if there is one; whether there was.
fn set(p: Option<Policy>, slot: &mut Policy) -> bool {
    match p {
        Some(p) => {
            *slot = p;
            true
        }
        None => false,
    }
}
