//! WS-Policy expressions as read (Web Services Policy 1.5 Framework §4; the 1.2 submission of
//! 2004/09 has the same structure), each in its normal form (§4.3.1): a choice of
//! [`Alternative`]s, each a conjunction of [`Assertion`]s. An assertion keeps its parameters (the
//! child elements that are not a nested policy, e.g. `sp:Body` in `sp:SignedParts`) and its
//! nested policy, itself one alternative: an assertion whose nested policy has several
//! alternatives is read as that many assertions, one per nested alternative (§4.3.2), so that
//! every alternative of a subject's policy is concrete.
//!
//! [`PolicyAttachments`] says which policy is attached to which WSDL 1.1 subject
//! (Web Services Policy 1.5 Attachment §4.1: service, endpoint — port, binding, portType —,
//! operation — binding and portType operation — and message — binding and portType input,
//! output and fault, `wsdl:message`), by an inline `wsp:Policy`, a `wsp:PolicyReference` or
//! the `wsp:PolicyURIs` attribute. The [model](crate::model) merges them into each message's
//! effective policy (Attachment §4.1.2) and interprets its assertions.

use std::collections::BTreeMap;
use std::fmt;

use super::QName;
use crate::error::Loc;

/// The most alternatives a normal form may have: the cross product of nested choices grows
/// fast, and a policy beyond this is refused rather than expanded.
pub const MAX_ALTERNATIVES: usize = 4096;

/// An element below an assertion that is not its nested policy: a parameter (WS-Policy 1.5
/// §3.3), e.g. `sp:Header Name="…" Namespace="…"` in `sp:SignedParts`, or `sp:XPath` with its
/// text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyElement {
    /// Its expanded name.
    pub name: QName,
    /// Its attributes, in document order, by expanded name.
    pub attributes: Vec<(QName, String)>,
    /// Its text content (the concatenated text children, trimmed).
    pub text: String,
    /// Its child elements.
    pub children: Vec<PolicyElement>,
    /// The namespace declarations in scope at it, `(prefix, namespace)` (`""` for the default
    /// namespace): what the prefixes of an `sp:XPath` expression resolve to.
    pub namespaces: Vec<(String, String)>,
    /// Where it is.
    pub loc: Loc,
}

impl PolicyElement {
    /// The value of the attribute `local` in no namespace.
    pub fn attribute(&self, local: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n.ns.is_empty() && n.local == local)
            .map(|(_, v)| v.as_str())
    }
}

/// A policy assertion (WS-Policy 1.5 §3.2) of one alternative.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assertion {
    /// The assertion type: its element's expanded name.
    pub name: QName,
    /// `wsp:Ignorable="true"` (§3.4.1): a requester may leave it out of its reasoning.
    pub ignorable: bool,
    /// It was `wsp:Optional="true"` (§4.3.1): its alternative is one of the two it gave.
    pub optional: bool,
    /// Its attributes other than `wsp:Optional` and `wsp:Ignorable` (e.g. `sp:IncludeToken`).
    pub attributes: Vec<(QName, String)>,
    /// Its parameters: the child elements that are not its nested policy.
    pub parameters: Vec<PolicyElement>,
    /// Its nested policy (§4.3.2), one alternative of it; `None` when it has none.
    pub nested: Option<Alternative>,
    /// Where its element is.
    pub loc: Loc,
}

impl Assertion {
    /// The value of the attribute named `local` in any namespace (`sp:IncludeToken` is
    /// written in the SecurityPolicy namespace of the assertion).
    pub fn attribute(&self, local: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n.local == local)
            .map(|(_, v)| v.as_str())
    }

    /// The assertions of its nested policy (none when it has none).
    pub fn nested_assertions(&self) -> &[Assertion] {
        self.nested.as_ref().map_or(&[], |a| &a.assertions)
    }
}

impl fmt::Display for Assertion {
    /// `{namespace}local` of the assertion, as error messages name it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)
    }
}

/// A policy alternative (§3.2): a collection of assertions that all hold.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Alternative {
    /// Its assertions, in document order.
    pub assertions: Vec<Assertion>,
}

/// A policy in normal form (§4.3.1): exactly one of its alternatives applies. A policy with one
/// empty alternative requires nothing; one with no alternative admits no behaviour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    /// The alternatives, in the order normalization gives.
    pub alternatives: Vec<Alternative>,
}

impl Default for Policy {
    /// The policy that requires nothing: one empty alternative.
    fn default() -> Self {
        Policy {
            alternatives: vec![Alternative::default()],
        }
    }
}

impl Policy {
    /// Whether it requires nothing: one alternative, with no assertion.
    pub fn is_empty(&self) -> bool {
        self.alternatives.len() == 1 && self.alternatives[0].assertions.is_empty()
    }

    /// The conjunction of `self` and `other` (WS-Policy 1.5 §4.5, merging): every alternative of
    /// one combined with every alternative of the other, or `None` when that would give more
    /// than [`MAX_ALTERNATIVES`].
    pub fn merge(&self, other: &Policy) -> Option<Policy> {
        if other.is_empty() {
            return Some(self.clone());
        }
        if self.is_empty() {
            return Some(other.clone());
        }
        let count = self
            .alternatives
            .len()
            .checked_mul(other.alternatives.len())?;
        if count > MAX_ALTERNATIVES {
            return None;
        }
        let mut alternatives = Vec::with_capacity(count);
        for a in &self.alternatives {
            for b in &other.alternatives {
                let mut assertions = a.assertions.clone();
                assertions.extend(b.assertions.iter().cloned());
                alternatives.push(Alternative { assertions });
            }
        }
        Some(Policy { alternatives })
    }

    /// The policy that admits the behaviours of `self` or of `other` (`wsp:ExactlyOne`).
    pub fn or(mut self, other: Policy) -> Option<Policy> {
        if self.alternatives.len() + other.alternatives.len() > MAX_ALTERNATIVES {
            return None;
        }
        self.alternatives.extend(other.alternatives);
        Some(self)
    }
}

/// The policies attached to one operation's subjects (Attachment §4.1: the operation policy
/// subject and its messages).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OperationPolicies {
    /// Attached to the operation itself.
    pub operation: Policy,
    /// Attached to its input.
    pub input: Policy,
    /// Attached to its output.
    pub output: Policy,
    /// Attached to its faults, by fault name.
    pub faults: BTreeMap<String, Policy>,
}

/// Which policy is attached to which WSDL 1.1 subject, as read from every document (Web Services
/// Policy 1.5 Attachment §4.1). A subject with nothing attached is absent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PolicyAttachments {
    /// To a `wsdl:binding`.
    pub bindings: BTreeMap<QName, Policy>,
    /// To a binding's operations and their messages, by (binding, operation name).
    pub binding_operations: BTreeMap<(QName, String), OperationPolicies>,
    /// To a `wsdl:portType`.
    pub port_types: BTreeMap<QName, Policy>,
    /// To a portType's operations and their messages, by (portType, operation name).
    pub port_type_operations: BTreeMap<(QName, String), OperationPolicies>,
    /// To a `wsdl:port`, by (service, port name).
    pub ports: BTreeMap<(QName, String), Policy>,
    /// To a `wsdl:service`.
    pub services: BTreeMap<QName, Policy>,
    /// To a `wsdl:message`.
    pub messages: BTreeMap<QName, Policy>,
    /// Every policy a reference can name, in reading order: the document it is in, its key (`#`
    /// and its `wsu:Id` or `xml:id`, or its `Name`), its normal form.
    pub named: Vec<(std::sync::Arc<str>, String, Policy)>,
}
