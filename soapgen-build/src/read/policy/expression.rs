//! WS-Policy expressions to their normal form (Web Services Policy 1.5 Framework §4.3): `wsp:Policy`
//! and `wsp:All` are conjunctions, `wsp:ExactlyOne` a choice, `wsp:Optional="true"` an assertion
//! with its alternative without it (§4.3.1), an assertion's nested `wsp:Policy` normalized on its
//! own and each of its alternatives an assertion of its own (§4.3.2), `wsp:PolicyReference`
//! replaced by the policy it names (§4.3.5). Policies of WS-Policy 1.5 and of the 1.2
//! submission (2004/09) are read alike.

use roxmltree::Node;

use crate::error::{Error, ErrorKind, Result};
use crate::read::components::{
    Alternative, Assertion, Policy, PolicyElement, QName, MAX_ALTERNATIVES,
};
use crate::read::document::DocCtx;

/// WS-Policy 1.5 (W3C) and 1.2 (the 2004/09 submission WCF and CXF's older tests write).
pub const WSP: [&str; 2] = [
    "http://www.w3.org/ns/ws-policy",
    "http://schemas.xmlsoap.org/ws/2004/09/policy",
];
/// WSS utility (`wsu:Id`, which names a policy for `#id` references).
const WSU: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
const XML: &str = "http://www.w3.org/XML/1998/namespace";

/// How deep references and nesting may go before a policy is refused as a loop.
const MAX_DEPTH: usize = 32;

/// Whether `n` is the WS-Policy element `local` (either version).
pub fn is_wsp(n: Node, local: &str) -> bool {
    n.is_element()
        && n.tag_name().name() == local
        && n.tag_name().namespace().is_some_and(|ns| WSP.contains(&ns))
}

/// The policy among `policies` that `uri` names: `#id` (its `wsu:Id` or `xml:id`), else its
/// `Name` (WS-Policy 1.5 §2.3).
pub fn resolve<'d, 'i>(policies: &[Node<'d, 'i>], uri: &str) -> Option<Node<'d, 'i>> {
    let uri = uri.trim();
    policies
        .iter()
        .copied()
        .find(|p| match uri.strip_prefix('#') {
            Some(id) => {
                p.attribute((WSU, "Id")) == Some(id) || p.attribute((XML, "id")) == Some(id)
            }
            None => p.attribute("Name") == Some(uri),
        })
}

/// A `wsp:` attribute (either version) that says `true` (`Optional`, `Ignorable`).
fn wsp_flag(n: Node, local: &str) -> bool {
    WSP.iter()
        .filter_map(|ns| n.attribute((*ns, local)))
        .any(|v| matches!(v.trim(), "true" | "1"))
}

/// The normalizer of one document's policy expressions.
pub struct Expressions<'a, 'd, 'i> {
    doc: &'a DocCtx<'d>,
    /// Every `wsp:Policy` of the document, which references resolve to.
    policies: Vec<Node<'d, 'i>>,
}

impl<'a, 'd, 'i> Expressions<'a, 'd, 'i> {
    /// The normalizer of the document `root` belongs to.
    pub fn new(doc: &'a DocCtx<'d>, root: Node<'d, 'i>) -> Self {
        Expressions {
            doc,
            policies: root
                .descendants()
                .filter(|n| is_wsp(*n, "Policy"))
                .collect(),
        }
    }

    /// The policy `uri` names ([`resolve`]).
    pub fn resolve(&self, uri: &str) -> Option<Node<'d, 'i>> {
        resolve(&self.policies, uri)
    }

    /// The policy attached to a subject element `n` (Attachment §4.1): the conjunction of its
    /// child `wsp:Policy` and `wsp:PolicyReference` elements and of the policies its
    /// `wsp:PolicyURIs` attribute names. `None` when nothing is attached.
    ///
    /// # Errors
    ///
    /// A policy whose normal form has more than [`MAX_ALTERNATIVES`] alternatives, or whose
    /// references loop.
    pub fn attached(&mut self, n: Node<'d, 'i>) -> Result<Option<Policy>> {
        let mut found = false;
        let mut policy = Policy::default();
        for c in n
            .children()
            .filter(|c| is_wsp(*c, "Policy") || is_wsp(*c, "PolicyReference"))
        {
            found = true;
            let p = self.expression(c, 0)?;
            policy = self.merged(&policy, &p, c)?;
        }
        let uris = WSP
            .iter()
            .find_map(|ns| n.attribute((*ns, "PolicyURIs")))
            .unwrap_or_default()
            .to_owned();
        for uri in uris.split_whitespace() {
            found = true;
            let p = match self.resolve(uri) {
                Some(p) => self.expression(p, 1)?,
                None => self.unresolved(uri, n),
            };
            policy = self.merged(&policy, &p, n)?;
        }
        Ok(found.then_some(policy))
    }

    /// A reference to no policy of this document: a placeholder assertion
    /// ([`super::link::REFERENCE`]) that [`super::link`] replaces by the policy of another
    /// document of the WSDL it names, once every document is read; one it names nowhere stays,
    /// and whoever interprets the policy refuses it.
    fn unresolved(&self, uri: &str, at: Node) -> Policy {
        Policy {
            alternatives: vec![Alternative {
                assertions: vec![Assertion {
                    name: QName::new(super::link::REFERENCE, uri.trim()),
                    ignorable: false,
                    optional: false,
                    attributes: Vec::new(),
                    parameters: Vec::new(),
                    nested: None,
                    loc: self.doc.loc(at),
                }],
            }],
        }
    }

    /// Every `wsp:Policy` of the document that a reference can name, normalized: by `#` and its
    /// `wsu:Id` or `xml:id`, and by its `Name` (WS-Policy 1.5 §2.3). One that cannot be
    /// normalized is left out (a reference to it then names nothing).
    pub fn named(&mut self) -> Vec<(String, Policy)> {
        let mut out = Vec::new();
        for p in self.policies.clone() {
            let keys: Vec<String> = [p.attribute((WSU, "Id")), p.attribute((XML, "id"))]
                .into_iter()
                .flatten()
                .map(|id| format!("#{}", id.trim()))
                .chain(p.attribute("Name").map(|n| n.trim().to_owned()))
                .collect();
            if keys.is_empty() {
                continue;
            }
            if let Ok(policy) = self.expression(p, 0) {
                for k in keys {
                    out.push((k, policy.clone()));
                }
            }
        }
        out
    }

    fn merged(&self, a: &Policy, b: &Policy, at: Node) -> Result<Policy> {
        a.merge(b).ok_or_else(|| self.too_many(at))
    }

    fn too_many(&self, at: Node) -> Error {
        Error::at(
            ErrorKind::Unsupported(format!(
                "a WS-Policy expression with more than {MAX_ALTERNATIVES} alternatives in normal \
                 form (WS-Policy 1.5 §4.3)"
            )),
            &self.doc.loc(at),
        )
    }

    /// The normal form of the policy expression `n`: an operator, a reference, or an
    /// assertion.
    fn expression(&mut self, n: Node<'d, 'i>, depth: usize) -> Result<Policy> {
        if depth > MAX_DEPTH {
            return Err(Error::at(
                ErrorKind::Unsupported(format!(
                    "WS-Policy references or nesting deeper than {MAX_DEPTH} (a reference loop?)"
                )),
                &self.doc.loc(n),
            ));
        }
        if is_wsp(n, "Policy") || is_wsp(n, "All") {
            let mut policy = Policy::default();
            for c in n.children().filter(Node::is_element) {
                let p = self.expression(c, depth + 1)?;
                policy = self.merged(&policy, &p, c)?;
            }
            return Ok(policy);
        }
        if is_wsp(n, "ExactlyOne") {
            let mut policy = Policy {
                alternatives: Vec::new(),
            };
            for c in n.children().filter(Node::is_element) {
                let p = self.expression(c, depth + 1)?;
                policy = policy.or(p).ok_or_else(|| self.too_many(c))?;
            }
            return Ok(policy);
        }
        if is_wsp(n, "PolicyReference") {
            let uri = n.attribute("URI").unwrap_or_default();
            return match self.resolve(uri) {
                Some(p) => self.expression(p, depth + 1),
                None => Ok(self.unresolved(uri, n)),
            };
        }
        self.assertion(n, depth)
    }

    /// An assertion, as the alternatives it gives: one per alternative of its nested policy,
    /// and, when it is optional, the empty one too.
    fn assertion(&mut self, n: Node<'d, 'i>, depth: usize) -> Result<Policy> {
        let mut nested: Option<Policy> = None;
        let mut parameters = Vec::new();
        for c in n.children().filter(Node::is_element) {
            if is_wsp(c, "Policy") {
                let p = self.expression(c, depth + 1)?;
                nested = Some(match nested {
                    Some(prev) => self.merged(&prev, &p, c)?,
                    None => p,
                });
            } else if is_wsp(c, "PolicyReference") {
                // A reference in an assertion's body stands for its nested policy.
                let p = self.expression(c, depth + 1)?;
                nested = Some(match nested {
                    Some(prev) => self.merged(&prev, &p, c)?,
                    None => p,
                });
            } else {
                parameters.push(self.element(c));
            }
        }
        let optional = wsp_flag(n, "Optional");
        let base = Assertion {
            name: qname(n),
            ignorable: wsp_flag(n, "Ignorable"),
            optional,
            attributes: n
                .attributes()
                .filter(|a| !a.namespace().is_some_and(|ns| WSP.contains(&ns)))
                .map(|a| {
                    (
                        QName::new(a.namespace().unwrap_or_default(), a.name()),
                        a.value().to_owned(),
                    )
                })
                .collect(),
            parameters,
            nested: None,
            loc: self.doc.loc(n),
        };
        let mut alternatives: Vec<Alternative> = match nested {
            None => vec![Alternative {
                assertions: vec![base],
            }],
            Some(p) => p
                .alternatives
                .into_iter()
                .map(|nested| Alternative {
                    assertions: vec![Assertion {
                        nested: Some(nested),
                        ..base.clone()
                    }],
                })
                .collect(),
        };
        if optional {
            alternatives.push(Alternative::default());
        }
        if alternatives.len() > MAX_ALTERNATIVES {
            return Err(self.too_many(n));
        }
        Ok(Policy { alternatives })
    }

    /// A parameter element, whole.
    fn element(&self, n: Node) -> PolicyElement {
        PolicyElement {
            name: qname(n),
            attributes: n
                .attributes()
                .map(|a| {
                    (
                        QName::new(a.namespace().unwrap_or_default(), a.name()),
                        a.value().to_owned(),
                    )
                })
                .collect(),
            text: n
                .children()
                .filter(Node::is_text)
                .filter_map(|t| t.text())
                .collect::<String>()
                .trim()
                .to_owned(),
            children: n
                .children()
                .filter(Node::is_element)
                .map(|c| self.element(c))
                .collect(),
            namespaces: n
                .namespaces()
                .map(|ns| {
                    (
                        ns.name().unwrap_or_default().to_owned(),
                        ns.uri().to_owned(),
                    )
                })
                .collect(),
            loc: self.doc.loc(n),
        }
    }
}

fn qname(n: Node) -> QName {
    QName::new(
        n.tag_name().namespace().unwrap_or_default(),
        n.tag_name().name(),
    )
}
