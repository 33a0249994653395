//! Expanded names (Namespaces in XML 1.0 §2.1) and the namespaces every document may use.

use std::fmt;

/// An expanded element or attribute name: namespace URI (empty for "no namespace") and local name.
///
/// Namespaces in XML 1.0 §2.1. Generated code builds these from string constants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Name<'a> {
    /// Namespace URI; `""` means the name is in no namespace (unqualified).
    pub namespace: &'a str,
    /// Local part (an NCName).
    pub local: &'a str,
}

impl<'a> Name<'a> {
    /// A qualified name: `namespace` URI and `local` part.
    pub const fn new(namespace: &'a str, local: &'a str) -> Self {
        Name { namespace, local }
    }

    /// A name in no namespace (an unqualified local element or attribute).
    pub const fn unqualified(local: &'a str) -> Self {
        Name {
            namespace: "",
            local,
        }
    }
}

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.namespace.is_empty() {
            f.write_str(self.local)
        } else {
            write!(f, "{{{}}}{}", self.namespace, self.local)
        }
    }
}

/// The `xsi` namespace (XML Schema Part 1 §2.6), used for `xsi:nil` and `xsi:type`.
pub const XSI_NS: &str = "http://www.w3.org/2001/XMLSchema-instance";
/// The `xml` namespace, bound to the prefix `xml` by definition (Namespaces in XML 1.0 §3).
pub const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";
