//! Elements named by the XPath subset WS-SecurityPolicy assertions use (WS-SecurityPolicy 1.2
//! §4.1.2, §4.2.2, §4.3.1): an absolute location path of child steps
//! (`/soap:Envelope/soap:Header/wsse:Security`), or one that starts with a descendant step
//! (`//ex:DoubleIt/numberToDouble`; a relative path reads as one), each step an element name
//! test by expanded name (XPath 1.0 §2.3, §2.5 abbreviations).

use crate::xml::read::tree::Node;

/// One step of an [`ElementPath`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PathStep {
    /// `//`: any descendant of the context, not only a child.
    pub descendant: bool,
    /// The element's namespace (`""`: none).
    pub namespace: String,
    /// The element's local name.
    pub name: String,
}

impl PathStep {
    /// A child step `/ns:name`.
    pub fn child(namespace: &str, name: &str) -> Self {
        PathStep {
            descendant: false,
            namespace: namespace.to_owned(),
            name: name.to_owned(),
        }
    }

    /// A descendant step `//ns:name`.
    pub fn descendant(namespace: &str, name: &str) -> Self {
        PathStep {
            descendant: true,
            ..Self::child(namespace, name)
        }
    }
}

/// A path to elements of a message, from the document: its steps in order, and the expression
/// as written (for messages).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ElementPath {
    /// The expression, as the policy wrote it.
    pub expression: String,
    /// Its steps; the first applies to the document, so a first child step names the root
    /// element.
    pub steps: Vec<PathStep>,
}

impl ElementPath {
    /// The path `expression` with `steps`.
    pub fn new(expression: &str, steps: Vec<PathStep>) -> Self {
        ElementPath {
            expression: expression.to_owned(),
            steps,
        }
    }

    /// Whether the document of `root` (its document node) has an element the path names.
    pub(crate) fn matches_in(&self, root: Node<'_, '_>) -> bool {
        !self.select(root).is_empty()
    }

    /// The elements of the document of `root` (its document node) the path names, in document
    /// order.
    pub(crate) fn select<'a, 'input>(&self, root: Node<'a, 'input>) -> Vec<Node<'a, 'input>> {
        let mut context = vec![root];
        for step in &self.steps {
            let named = |n: &Node<'_, '_>| {
                n.is_element() && n.has_tag_name((step.namespace.as_str(), step.name.as_str()))
            };
            let mut next = Vec::new();
            for c in &context {
                if step.descendant {
                    next.extend(c.descendants().skip(1).filter(named));
                } else {
                    next.extend(c.children().filter(named));
                }
            }
            next.sort_by_key(|n| n.index());
            next.dedup_by_key(|n| n.index());
            if next.is_empty() {
                return next;
            }
            context = next;
        }
        context
    }
}

#[cfg(test)]
mod tests {
    use super::{ElementPath, PathStep};
    use crate::xml::read::tree::Document;
    use crate::xml::Limits;

    const ENV: &str = "http://schemas.xmlsoap.org/soap/envelope/";

    #[test]
    fn absolute_and_descendant_paths() {
        let text = format!(
            r#"<s:Envelope xmlns:s="{ENV}"><s:Header><h:A xmlns:h="urn:h"/></s:Header><s:Body><d:Op xmlns:d="urn:d"><n>1</n></d:Op></s:Body></s:Envelope>"#
        );
        let doc = Document::parse(&text, Limits::default()).unwrap();
        let root = doc.root();
        let header = ElementPath::new(
            "/s:Envelope/s:Header/h:A",
            vec![
                PathStep::child(ENV, "Envelope"),
                PathStep::child(ENV, "Header"),
                PathStep::child("urn:h", "A"),
            ],
        );
        assert!(header.matches_in(root));
        let n = ElementPath::new(
            "//d:Op/n",
            vec![
                PathStep::descendant("urn:d", "Op"),
                PathStep::child("", "n"),
            ],
        );
        assert!(n.matches_in(root));
        // A child step is not a descendant one; a name in another namespace is another name.
        let not_child = ElementPath::new("/d:Op", vec![PathStep::child("urn:d", "Op")]);
        assert!(!not_child.matches_in(root));
        let other = ElementPath::new("//x:Op", vec![PathStep::descendant("urn:x", "Op")]);
        assert!(!other.matches_in(root));
    }
}
