//! What reading and writing share of names and values: the `collapse` whiteSpace facet (XML
//! Schema Part 2 §4.3.6), NCNames (Namespaces in XML 1.0 §3), and the attributes of a wildcard
//! kept as they are ([`AnyAttribute`]).

use super::Name;

/// Trims the XML whitespace characters (space, tab, CR, LF: XML 1.0 §2.3 production S) from both ends;
/// the `collapse` whiteSpace facet for single tokens (XML Schema Part 2 §4.3.6).
pub fn collapse(text: &str) -> &str {
    text.trim_matches(|c| matches!(c, ' ' | '\t' | '\r' | '\n'))
}

/// Whether `s` looks like an NCName (Namespaces in XML 1.0 §3, production NCName), checked loosely:
/// non-empty, not starting with a digit, `-` or `.`, and made of letters, digits, `_`, `-`, `.` and
/// non-ASCII characters (no whitespace, no colon, no other ASCII punctuation).
pub(crate) fn is_ncname(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let name_char = |c: char| {
        c.is_ascii_alphanumeric()
            || matches!(c, '_' | '-' | '.')
            || (!c.is_ascii() && !c.is_whitespace())
    };
    name_char(first) && !matches!(first, '0'..='9' | '-' | '.') && chars.all(name_char)
}

/// One attribute matched by an `xs:anyAttribute` wildcard (XML Schema Part 1 §3.10, §3.4.4), kept by
/// its expanded name so it can be written back under any prefix.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct AnyAttribute {
    /// Namespace URI; `""` for an unqualified attribute.
    pub namespace: String,
    /// Local name.
    pub local: String,
    /// The value, normalised and unescaped as XML 1.0 §3.3.3 reads it (written escaped again).
    pub value: String,
}

impl AnyAttribute {
    /// An attribute `{namespace}local="value"`; `namespace` `""` for an unqualified one.
    pub fn new(
        namespace: impl Into<String>,
        local: impl Into<String>,
        value: impl Into<String>,
    ) -> Self {
        AnyAttribute {
            namespace: namespace.into(),
            local: local.into(),
            value: value.into(),
        }
    }

    /// Its expanded name.
    pub fn name(&self) -> Name<'_> {
        Name::new(&self.namespace, &self.local)
    }
}
