//! Simple values read from text (XML Schema Part 2 §2.3 lexical spaces): the [`FromXmlText`]
//! trait every simple type implements, the [`PrefixResolver`] that `QName` values are read with,
//! and the reader's simple-content readers.

use super::{StartTag, XmlReader};
use crate::error::{DecodeError, DecodeErrorKind, ValueError};

/// A simple-type value that can be read from text (XML Schema Part 2 §2.3, lexical space).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from XML: it implements neither `FromXml` nor `FromXmlText`",
    note = "a type soapgen generated derives `FromXml` only when a response, header or fault carries it; to read the ones only sent, generate with `--both-directions` (`Builder::both_directions(true)`)"
)]
pub trait FromXmlText: Sized {
    /// Parses `text` (already unescaped, with line ends normalised per XML 1.0 §2.11), applying the
    /// type's whiteSpace facet (§4.3.6: `collapse` for everything but the string family). `ns`
    /// resolves prefixes for `QName` values.
    ///
    /// # Errors
    ///
    /// [`ValueError`] naming the type and the offending text.
    fn from_xml_text(text: &str, ns: &dyn PrefixResolver) -> Result<Self, ValueError>;

    /// As [`from_xml_text`](Self::from_xml_text), given the text as the reader holds it: borrowed
    /// from the document, or owned when the reader had to build it (references expanded, CDATA
    /// sections joined, line ends normalised: XML 1.0 §4.6, §2.7, §2.11). [`String`] takes an
    /// owned text as it is instead of copying it; the default parses the borrowed form.
    ///
    /// # Errors
    ///
    /// As [`from_xml_text`](Self::from_xml_text).
    fn from_xml_cow(
        text: std::borrow::Cow<'_, str>,
        ns: &dyn PrefixResolver,
    ) -> Result<Self, ValueError> {
        Self::from_xml_text(&text, ns)
    }

    /// Reads an element whose content is a value of this type, from just after its start tag up to
    /// and including its end tag (the blanket [`FromXml`](crate::FromXml) impl calls it).
    ///
    /// The default reads the text ([`XmlReader::read_simple`]); [`Base64Binary`](crate::types::Base64Binary) overrides it to
    /// decode while the text streams and to resolve MTOM/SwA attachments.
    ///
    /// # Errors
    ///
    /// As [`XmlReader::read_simple`].
    fn read_element_content<'i>(
        r: &mut XmlReader<'i>,
        start: &StartTag<'i>,
    ) -> Result<Self, DecodeError> {
        r.read_simple(start)
    }
}

/// Resolves namespace prefixes in scope where a simple value was read (Namespaces in XML 1.0 §6).
pub trait PrefixResolver {
    /// The namespace URI bound to `prefix` (`""` for the default namespace), or `None` if unbound.
    fn resolve_prefix(&self, prefix: &str) -> Option<String>;

    /// The attachment of the message that a `cid:` URL (RFC 2392) names, for [`SwaRef`](crate::types::SwaRef) values
    /// read from attributes or lists; `None` outside a multipart/related message (the default).
    fn attachment(&self, reference: &str) -> Option<crate::mime::Attachment> {
        let _ = reference;
        None
    }
}

/// A [`PrefixResolver`] with no bindings, for values read outside any document.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoNamespaces;

impl PrefixResolver for NoNamespaces {
    fn resolve_prefix(&self, _prefix: &str) -> Option<String> {
        None
    }
}

impl FromXmlText for String {
    fn from_xml_text(text: &str, _ns: &dyn PrefixResolver) -> Result<Self, ValueError> {
        Ok(text.to_owned())
    }

    fn from_xml_cow(
        text: std::borrow::Cow<'_, str>,
        _ns: &dyn PrefixResolver,
    ) -> Result<Self, ValueError> {
        Ok(text.into_owned())
    }
}

impl<'i> XmlReader<'i> {
    /// Reads the current element's text and parses it as a simple type (XML Schema Part 2).
    ///
    /// # Errors
    ///
    /// As [`read_text`](Self::read_text), and [`DecodeErrorKind::InvalidValue`] at the element.
    pub fn read_simple<T: FromXmlText>(&mut self, start: &StartTag<'i>) -> Result<T, DecodeError> {
        let text = self.read_text()?;
        T::from_xml_cow(text, self).map_err(|e| {
            // The end tag is consumed: put the element back on the path (built only on error).
            let mut err = self.error_at(DecodeErrorKind::InvalidValue(e), start.offset);
            self.push_path(&mut err.location.path, start);
            err
        })
    }

    /// As [`read_simple`](Self::read_simple), but empty content (no characters at all) is read as
    /// `default`: the value of an element whose declaration gives a default or fixed value (XML
    /// Schema Part 1 §3.3.1 {value constraint}, §3.3.4 item 5.1).
    ///
    /// # Errors
    ///
    /// As [`read_simple`](Self::read_simple); an invalid `default` is an invalid value at the element.
    pub fn read_simple_or<T: FromXmlText>(
        &mut self,
        start: &StartTag<'i>,
        default: &str,
    ) -> Result<T, DecodeError> {
        let text = self.read_text()?;
        let text: &str = if text.is_empty() { default } else { &text };
        T::from_xml_text(text, self).map_err(|e| {
            let mut err = self.error_at(DecodeErrorKind::InvalidValue(e), start.offset);
            self.push_path(&mut err.location.path, start);
            err
        })
    }
}

impl PrefixResolver for XmlReader<'_> {
    fn attachment(&self, reference: &str) -> Option<crate::mime::Attachment> {
        self.attachments?
            .get(reference)
            .map(crate::mime::Attachment::from_part)
    }

    fn resolve_prefix(&self, prefix: &str) -> Option<String> {
        match self.lookup(prefix) {
            Some(uri) if !uri.is_empty() => Some(uri.to_owned()),
            _ if prefix.is_empty() => Some(String::new()),
            _ if prefix == "xml" => Some(crate::xml::XML_NS.to_owned()),
            _ => None,
        }
    }
}
