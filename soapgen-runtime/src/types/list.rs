//! `xs:list` simple types (XML Schema Part 2 §2.5.1.2): whitespace-separated items.

use crate::error::{EncodeError, ValueError};
use crate::types::{FromXmlText, PrefixResolver, ToXmlText};
use crate::xml::TextOut;

/// A list of simple values, written separated by single spaces (IDREFS, NMTOKENS, and `xs:list`
/// types).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct List<T>(pub Vec<T>);

impl<T> From<Vec<T>> for List<T> {
    fn from(v: Vec<T>) -> Self {
        List(v)
    }
}

impl<T> std::ops::Deref for List<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T: ToXmlText> ToXmlText for List<T> {
    fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError> {
        for (i, item) in self.0.iter().enumerate() {
            if i > 0 {
                out.push_str(" ")?;
            }
            item.write_xml_text(out)?;
        }
        Ok(())
    }
}

impl<T: FromXmlText> FromXmlText for List<T> {
    fn from_xml_text(text: &str, ns: &dyn PrefixResolver) -> Result<Self, ValueError> {
        text.split_ascii_whitespace()
            .map(|item| T::from_xml_text(item, ns))
            .collect::<Result<Vec<T>, _>>()
            .map(List)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::NoNamespaces;

    #[test]
    fn round_trip() {
        let l: List<i32> = List::from_xml_text("  1 2\n\t3 ", &NoNamespaces).unwrap();
        assert_eq!(l.0, [1, 2, 3]);
        let mut w = crate::xml::XmlWriter::new();
        w.simple_element(crate::xml::Name::unqualified("l"), &l)
            .unwrap();
        assert_eq!(w.into_string().unwrap(), "<l>1 2 3</l>");
        assert!(List::<i32>::from_xml_text("1 x", &NoNamespaces).is_err());
    }
}
