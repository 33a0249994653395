//! What was read: the components of WSDL and XSD documents, with every QName resolved to
//! (namespace, local name) and every definition located, gathered in [`Definitions`]. Names follow
//! the specs: XML Schema Part 1 §3 for the schema components in [`SchemaSet`] (element
//! declarations, complex and simple type definitions, particles, model groups, attribute uses,
//! wildcards), WSDL 1.1 §2 for messages, portTypes, bindings and services (WSDL 2.0 descriptions
//! are mapped onto them), [`AddressingFacts`] for what the documents say about WS-Addressing, and
//! [`PolicyAttachments`] for the WS-Policy attached to their subjects.
//!
//! The readers ([`wsdl`](super::wsdl), [`wsdl20`](super::wsdl20), [`xsd`](super::xsd),
//! [`policy`](super::policy)) fill these in; the [model](crate::model) is built from them.

mod addressing;
mod policy;
mod schema;
mod wsdl;

pub use addressing::{AddressingFacts, AddressingVersion, OperationActions};
pub use policy::{
    Alternative, Assertion, OperationPolicies, Policy, PolicyAttachments, PolicyElement,
    MAX_ALTERNATIVES,
};
pub use schema::{
    redefined_name, AttributeDecl, AttributeGroupDef, AttributeItem, AttributeUse, ComplexType,
    Content, Derivation, ElementDecl, GroupDef, LocalElement, Occurs, Particle, SchemaSet,
    SimpleType, SimpleVariety, Term, TypeDef, TypeRef,
};
pub use wsdl::{
    Binding, BindingKind, BindingMessage, BindingOperation, BodyUse, Definitions, HttpLocation,
    Message, MimeAttachment, Part, PartKind, Port, PortType, PortTypeOperation, Service, Style,
};

use std::fmt;

/// The XML Schema namespace.
pub const XS: &str = "http://www.w3.org/2001/XMLSchema";
/// The WSDL 1.1 namespace.
pub const WSDL: &str = "http://schemas.xmlsoap.org/wsdl/";
/// The WSDL 2.0 namespace.
pub const WSDL20: &str = "http://www.w3.org/ns/wsdl";

/// An expanded name (Namespaces in XML 1.0 §2.1); `ns` is empty for no namespace.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct QName {
    /// Namespace URI, empty for none.
    pub ns: String,
    /// Local name.
    pub local: String,
}

impl QName {
    /// `{ns}local`.
    pub fn new(ns: impl Into<String>, local: impl Into<String>) -> Self {
        QName {
            ns: ns.into(),
            local: local.into(),
        }
    }

    /// Whether this names an XML Schema built-in type.
    pub fn is_xs(&self) -> bool {
        self.ns == XS
    }
}

impl fmt::Display for QName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ns.is_empty() {
            f.write_str(&self.local)
        } else {
            write!(f, "{{{}}}{}", self.ns, self.local)
        }
    }
}
