//! xs:QName (XML Schema Part 2 §3.2.18): a qualified name, resolved against the namespace bindings in
//! scope where it was read.

use std::fmt;

use super::{collapse, FromXmlText, PrefixResolver, ToXmlText};
use crate::error::{EncodeError, ValueError};
use crate::xml::{is_ncname, TextOut, XML_NS};

/// xs:QName (XML Schema Part 2 §3.2.18): an expanded name, namespace URI plus local part.
///
/// Lexical form `prefix:local` or `local` (Namespaces in XML 1.0 §4, production QName). Reading
/// resolves the prefix against the bindings in scope (an unprefixed name takes the default namespace,
/// if any); writing picks or declares a prefix for the namespace. The prefix itself is not kept: two
/// QNames are equal when their namespace and local name are.
///
/// Displays as `{namespace}local` (James Clark notation), or `local` with no namespace.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct QName {
    /// Namespace URI; `None` for a name in no namespace (never `Some("")`).
    pub namespace: Option<String>,
    /// Local part, an NCName.
    pub local_name: String,
}

impl QName {
    /// A name in namespace `namespace` (an empty URI means no namespace) with local part `local`.
    pub fn new(namespace: impl Into<String>, local: impl Into<String>) -> Self {
        let namespace = namespace.into();
        QName {
            namespace: (!namespace.is_empty()).then_some(namespace),
            local_name: local.into(),
        }
    }

    /// A name in no namespace.
    pub fn local(local: impl Into<String>) -> Self {
        QName {
            namespace: None,
            local_name: local.into(),
        }
    }

    /// The namespace URI, `""` for none.
    pub fn namespace_uri(&self) -> &str {
        self.namespace.as_deref().unwrap_or("")
    }
}

/// `{namespace}local`, or `local` for a name in no namespace.
impl fmt::Display for QName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.namespace.as_deref() {
            Some(ns) if !ns.is_empty() => write!(f, "{{{ns}}}{}", self.local_name),
            _ => f.write_str(&self.local_name),
        }
    }
}

/// xs:QName (XML Schema Part 2 §3.2.18): `prefix:local`, with `prefix` bound (declared on the current
/// start tag if no binding is in scope), or `local` for a name in no namespace.
impl ToXmlText for QName {
    fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError> {
        if self.local_name.is_empty() {
            return Err(EncodeError::invalid_value("QName", "empty local name"));
        }
        if !is_ncname(&self.local_name) {
            return Err(EncodeError::invalid_value(
                "QName",
                &format!("local name {:?} is not an NCName", self.local_name),
            ));
        }
        match self.namespace.as_deref() {
            Some(ns) if !ns.is_empty() => {
                // The `xml` prefix is bound by definition and must not be declared (Namespaces in XML
                // 1.0 §3).
                let prefix = if ns == XML_NS {
                    "xml".to_owned()
                } else {
                    out.prefix_for(ns)?
                };
                out.push_str(&prefix)?;
                out.push_ascii_safe(":");
            }
            _ => {}
        }
        out.push_str(&self.local_name)
    }
}

/// xs:QName (XML Schema Part 2 §3.2.18): `prefix:local` or `local`, resolved with `ns`; an unbound
/// prefix is an error. The `xml` prefix is always bound to the XML namespace.
impl FromXmlText for QName {
    fn from_xml_text(text: &str, ns: &dyn PrefixResolver) -> Result<Self, ValueError> {
        let t = collapse(text);
        let error = |reason: String| ValueError::new("QName", t).because(reason);
        let (prefix, local) = match t.split_once(':') {
            Some((p, l)) => (Some(p), l),
            None => (None, t),
        };
        if t.is_empty() {
            return Err(error("empty name".to_owned()));
        }
        if let Some(p) = prefix {
            if !is_ncname(p) {
                return Err(error(format!("prefix {p:?} is not an NCName")));
            }
        }
        if !is_ncname(local) {
            return Err(error(format!("local name {local:?} is not an NCName")));
        }
        let namespace = match prefix {
            Some(p) => match ns.resolve_prefix(p) {
                Some(uri) if !uri.is_empty() => Some(uri),
                _ if p == "xml" => Some(XML_NS.to_owned()),
                // An empty URI can only be a default namespace undeclaration, never a prefix binding
                // (Namespaces in XML 1.0 §3): treat it as unbound.
                _ => return Err(error(format!("prefix {p:?} is not bound"))),
            },
            None => ns.resolve_prefix("").filter(|uri| !uri.is_empty()),
        };
        Ok(QName {
            namespace,
            local_name: local.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::NoNamespaces;
    use crate::xml::{Name, XmlWriter};

    /// A resolver with fixed bindings; `""` is the default namespace.
    struct Bindings(&'static [(&'static str, &'static str)]);

    impl PrefixResolver for Bindings {
        fn resolve_prefix(&self, prefix: &str) -> Option<String> {
            self.0
                .iter()
                .find(|(p, _)| *p == prefix)
                .map(|(_, uri)| (*uri).to_owned())
                .or_else(|| prefix.is_empty().then(String::new))
        }
    }

    const NS: Bindings = Bindings(&[
        ("tns", "urn:svc"),
        ("soap", "http://schemas.xmlsoap.org/soap/envelope/"),
    ]);
    const WITH_DEFAULT: Bindings = Bindings(&[("", "urn:default"), ("tns", "urn:svc")]);

    fn read(s: &str, ns: &dyn PrefixResolver) -> Result<QName, ValueError> {
        QName::from_xml_text(s, ns)
    }

    #[test]
    fn constructors_and_display() {
        let q = QName::new("urn:svc", "Op");
        assert_eq!(q.namespace.as_deref(), Some("urn:svc"));
        assert_eq!(q.to_string(), "{urn:svc}Op");
        assert_eq!(QName::new("", "Op"), QName::local("Op"));
        assert_eq!(QName::local("Op").to_string(), "Op");
        assert_eq!(QName::local("Op").namespace_uri(), "");
        assert!(QName::new("urn:a", "z") < QName::new("urn:b", "a"));
        assert!(QName::local("z") < QName::new("urn:a", "a"));
    }

    #[test]
    fn reads_prefixed_and_unprefixed_names() {
        assert_eq!(read(" tns:Op\n", &NS).unwrap(), QName::new("urn:svc", "Op"));
        assert_eq!(
            read("soap:Server", &NS).unwrap(),
            QName::new("http://schemas.xmlsoap.org/soap/envelope/", "Server")
        );
        assert_eq!(read("Op", &NS).unwrap(), QName::local("Op"));
        assert_eq!(read("Op", &NoNamespaces).unwrap(), QName::local("Op"));
        assert_eq!(
            read("Op", &WITH_DEFAULT).unwrap(),
            QName::new("urn:default", "Op")
        );
        assert_eq!(
            read("xml:lang", &NoNamespaces).unwrap(),
            QName::new(XML_NS, "lang")
        );
        assert_eq!(
            read("été:nœud", &Bindings(&[("été", "urn:fr")])).unwrap(),
            QName::new("urn:fr", "nœud")
        );
        assert_eq!(read("_a.b-c", &NS).unwrap(), QName::local("_a.b-c"));
    }

    #[test]
    fn unbound_prefix_is_an_error() {
        assert_eq!(
            read("x:y", &NS).unwrap_err().to_string(),
            "invalid QName \"x:y\": prefix \"x\" is not bound"
        );
        assert!(read("tns:Op", &NoNamespaces)
            .unwrap_err()
            .to_string()
            .contains("not bound"));
        assert!(read("e:Op", &Bindings(&[("e", "")]))
            .unwrap_err()
            .to_string()
            .contains("not bound"));
    }

    #[test]
    fn rejects_malformed_names() {
        for s in [
            "", " ", ":", "tns:", ":Op", "a:b:c", "tns :Op", "tns: Op", "a b", "1abc", "tns:1a",
            "-a", ".a", "a/b", "a<b", "a,b",
        ] {
            let e = read(s, &NS).unwrap_err().to_string();
            assert!(e.starts_with("invalid QName"), "{s:?}: {e}");
        }
    }

    fn write_element(q: &QName) -> Result<String, EncodeError> {
        let mut w = XmlWriter::new();
        w.start_element(Name::new("urn:svc", "faultcode"))?;
        w.text_value(q)?;
        w.end_element()?;
        w.into_string()
    }

    #[test]
    fn writes_with_prefix_in_scope() {
        assert_eq!(
            write_element(&QName::new("urn:svc", "Op")).unwrap(),
            "<ns1:faultcode xmlns:ns1=\"urn:svc\">ns1:Op</ns1:faultcode>"
        );
    }

    #[test]
    fn writes_declaring_a_prefix() {
        assert_eq!(
            write_element(&QName::new(
                "http://schemas.xmlsoap.org/soap/envelope/",
                "Server"
            ))
            .unwrap(),
            "<ns1:faultcode xmlns:ns1=\"urn:svc\" \
             xmlns:ns2=\"http://schemas.xmlsoap.org/soap/envelope/\">ns2:Server</ns1:faultcode>"
        );
    }

    #[test]
    fn writes_without_namespace_and_xml_prefix() {
        assert_eq!(
            write_element(&QName::local("Op")).unwrap(),
            "<ns1:faultcode xmlns:ns1=\"urn:svc\">Op</ns1:faultcode>"
        );
        assert_eq!(
            write_element(&QName {
                namespace: Some(String::new()),
                local_name: "Op".into()
            })
            .unwrap(),
            "<ns1:faultcode xmlns:ns1=\"urn:svc\">Op</ns1:faultcode>"
        );
        assert_eq!(
            write_element(&QName::new(XML_NS, "lang")).unwrap(),
            "<ns1:faultcode xmlns:ns1=\"urn:svc\">xml:lang</ns1:faultcode>"
        );
    }

    #[test]
    fn writes_as_attribute_value() {
        let mut w = XmlWriter::new();
        w.start_element(Name::unqualified("e")).unwrap();
        w.attribute_value(Name::unqualified("type"), &QName::new("urn:t", "T"))
            .unwrap();
        w.end_element().unwrap();
        assert_eq!(
            w.into_string().unwrap(),
            "<e xmlns:ns1=\"urn:t\" type=\"ns1:T\"/>"
        );
    }

    #[test]
    fn refuses_invalid_local_names_when_writing() {
        assert!(write_element(&QName::local("")).is_err());
        assert!(write_element(&QName::local("a b")).is_err());
        assert!(write_element(&QName::new("urn:x", "a:b")).is_err());
    }

    #[test]
    fn round_trips_through_writer_bindings() {
        for q in [
            QName::new("urn:svc", "Op"),
            QName::new("urn:other", "X"),
            QName::local("L"),
        ] {
            let xml = write_element(&q).unwrap();
            // ns1 = urn:svc on the element, ns2 possibly urn:other.
            let text = xml.split('>').nth(1).unwrap().split('<').next().unwrap();
            let resolver = Bindings(&[("ns1", "urn:svc"), ("ns2", "urn:other")]);
            assert_eq!(read(text, &resolver).unwrap(), q);
        }
    }
}
