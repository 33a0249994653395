//! Content kept as XML: elements matched by an `xs:any` wildcard (XML Schema Part 1 §3.10), attributes
//! matched by `xs:anyAttribute`, and the content of elements of type `xs:anyType` (§3.4.7), so nothing
//! a server sends is dropped and it can be sent back unchanged.

use crate::error::{DecodeError, EncodeError};
use crate::xml::{FromXml, Name, StartTag, ToXml, XmlReader, XmlWriter};

/// The bindings of `bindings` that `xml` may use: the default namespace, and every prefix `p` that
/// occurs as `p:` in it (in an element or attribute name, or in a QName-valued text such as an
/// `xsi:type` value, Namespaces in XML 1.0 §6). The other bindings in scope are context, not
/// content: keeping them would make the same content read in two places two different values.
fn used_bindings(bindings: Vec<(String, String)>, xml: &str) -> Vec<(String, String)> {
    bindings
        .into_iter()
        .filter(|(prefix, _)| prefix.is_empty() || xml.contains(&format!("{prefix}:")))
        .collect()
}

/// One element matched by `xs:any`, kept as self-contained XML: the namespace bindings in scope where
/// it was read that it uses (see below) are declared on its start tag, so it can be written anywhere
/// or parsed on its own.
///
/// A binding counts as used when its prefix occurs followed by `:` anywhere in the element (names,
/// attribute values, text), so prefixes in QName-valued content stay bound; the default namespace
/// is always kept.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct AnyElement {
    /// The element, start tag to end tag.
    pub xml: String,
}

impl AnyElement {
    /// Decodes this element as `T`.
    ///
    /// # Errors
    ///
    /// [`DecodeError`] if it does not match `T`.
    pub fn decode<T: FromXml>(&self) -> Result<T, DecodeError> {
        let mut r = XmlReader::new(&self.xml);
        let root = r.root()?;
        let v = T::read_xml(&mut r, root)?;
        r.finish()?;
        Ok(v)
    }

    /// Writes `value` as an element named `name` and keeps it as an `AnyElement`.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] from `value`.
    pub fn encode<T: ToXml + ?Sized>(value: &T, name: Name<'_>) -> Result<Self, EncodeError> {
        let mut w = XmlWriter::new();
        value.write_xml(&mut w, name)?;
        Ok(AnyElement {
            xml: w.into_string()?,
        })
    }
}

impl FromXml for AnyElement {
    fn read_xml<'i>(r: &mut XmlReader<'i>, start: StartTag<'i>) -> Result<Self, DecodeError> {
        let bindings = r.bindings_in_scope();
        let outer = r.read_outer_xml(&start)?;
        let bindings = used_bindings(bindings, outer);
        // Declare, on the start tag, every binding in scope that the tag does not declare itself.
        let name_end = 1 + start.qname().len();
        let mut xml = String::with_capacity(outer.len() + 64);
        xml.push_str(&outer[..name_end]);
        let tag_text = &outer[..outer.find('>').unwrap_or(outer.len())];
        for (prefix, uri) in bindings {
            let decl = if prefix.is_empty() {
                "xmlns=".to_owned()
            } else {
                format!("xmlns:{prefix}=")
            };
            if tag_text.contains(&decl) {
                continue;
            }
            xml.push(' ');
            xml.push_str(&decl);
            xml.push('"');
            xml.push_str(&uri.replace('&', "&amp;").replace('"', "&quot;"));
            xml.push('"');
        }
        xml.push_str(&outer[name_end..]);
        Ok(AnyElement { xml })
    }
}

impl ToXml for AnyElement {
    /// Writes the kept element as it is; `name` is ignored (the element carries its own).
    fn write_xml(&self, w: &mut XmlWriter, _name: Name<'_>) -> Result<(), EncodeError> {
        w.raw(&self.xml)
    }
}

/// The content of an element of type `xs:anyType` (or declared without a type), kept as XML with the
/// namespace bindings in scope where it was read.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct AnyXml {
    /// The XML between the element's start and end tags.
    pub content: String,
    /// Namespace bindings (prefix, URI) in scope at the element that the content uses (the default
    /// namespace, and each prefix occurring as `prefix:` in it); `""` is the default namespace.
    pub bindings: Vec<(String, String)>,
}

impl AnyXml {
    /// Text-only content.
    pub fn text(text: &str) -> Self {
        AnyXml {
            content: text
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;"),
            bindings: Vec::new(),
        }
    }
}

impl AnyXml {
    /// Reads the content of the current element (its start tag just read) through its end tag.
    ///
    /// # Errors
    ///
    /// Malformed or truncated XML.
    pub fn read_content(r: &mut XmlReader<'_>) -> Result<Self, DecodeError> {
        let bindings = r.bindings_in_scope();
        let content = r.read_inner_xml()?.to_owned();
        let bindings = used_bindings(bindings, &content);
        Ok(AnyXml { content, bindings })
    }

    /// Writes the kept content into the open element, declaring the saved prefixes on it.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if no start tag is open.
    pub fn write_content(&self, w: &mut XmlWriter) -> Result<(), EncodeError> {
        for (prefix, uri) in &self.bindings {
            if !prefix.is_empty() {
                w.declare_namespace(prefix, uri)?;
            }
        }
        w.raw(&self.content)
    }
}

impl FromXml for AnyXml {
    fn read_xml<'i>(r: &mut XmlReader<'i>, _start: StartTag<'i>) -> Result<Self, DecodeError> {
        AnyXml::read_content(r)
    }
}

impl ToXml for AnyXml {
    fn write_xml(&self, w: &mut XmlWriter, name: Name<'_>) -> Result<(), EncodeError> {
        w.start_element(name)?;
        self.write_content(w)?;
        w.end_element()
    }
}
