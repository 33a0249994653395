//! Simple values written as text (XML Schema Part 2 §2.3 lexical spaces): the [`ToXmlText`]
//! trait every simple type implements, and the [`TextOut`] sink it writes into, escaped for
//! element content or an attribute value.

use std::fmt;

use super::escape::escape_into;
use super::XmlWriter;
use crate::error::EncodeError;

/// A simple-type value that can be written as text (XML Schema Part 2 §2.3, lexical space).
///
/// Implement it (or derive [`ToXml`](crate::ToXml) on a unit-only enum) for enumerations and other
/// simple types; element and attribute writing come with it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be written as XML: it implements neither `ToXml` nor `ToXmlText`",
    note = "a type soapgen generated derives `ToXml` only when a request sends it; to write the ones only received, generate with `--both-directions` (`Builder::both_directions(true)`)"
)]
pub trait ToXmlText {
    /// Writes the canonical lexical form (XML Schema Part 2 §2.3.1) of `self` into `out`, which escapes
    /// it for where it lands.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if the value has no lexical form (a character XML cannot carry, a date out of
    /// range).
    fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError>;

    /// Writes an element named `name` whose content is this value (the blanket
    /// [`ToXml`](crate::ToXml) impl calls it). The default writes the text
    /// ([`XmlWriter::simple_element`](crate::xml::XmlWriter::simple_element)); [`Base64Binary`](crate::types::Base64Binary)
    /// overrides it to send large values as MTOM attachments when the writer has MTOM on.
    ///
    /// # Errors
    ///
    /// As [`write_xml_text`](Self::write_xml_text).
    fn write_element(
        &self,
        w: &mut XmlWriter,
        name: crate::xml::Name<'_>,
    ) -> Result<(), EncodeError> {
        w.simple_element(name, self)
    }
}

impl ToXmlText for str {
    fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError> {
        out.push_str(self)
    }
}

impl ToXmlText for String {
    fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError> {
        out.push_str(self)
    }
}

impl<T: ToXmlText + ?Sized> ToXmlText for Box<T> {
    fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError> {
        (**self).write_xml_text(out)
    }
}

/// The sink a simple-type value writes its lexical form into ([`ToXmlText`]).
///
/// Text pushed here is escaped for where it lands (element content or an attribute value). A value
/// that needs a namespace prefix (`QName`) asks for one with [`TextOut::prefix_for`] before writing.
pub struct TextOut<'w> {
    pub(super) w: &'w mut XmlWriter,
    /// `Some(buffer)` while writing an attribute value (escaped into the buffer).
    pub(super) attr: Option<&'w mut String>,
}

impl TextOut<'_> {
    /// Appends `s`, escaped.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if `s` holds a character XML 1.0 cannot represent.
    pub fn push_str(&mut self, s: &str) -> Result<(), EncodeError> {
        match &mut self.attr {
            Some(buf) => escape_into(buf, s, true),
            None => self.w.text(s),
        }
    }

    /// Appends text known to need no escaping and to hold only XML characters (digits, signs, `T`,
    /// `:`; base64 and hex alphabets). Debug builds check the claim.
    pub fn push_ascii_safe(&mut self, s: &str) {
        debug_assert!(s.bytes().all(|b| b.is_ascii_graphic()
            && !matches!(b, b'<' | b'>' | b'&' | b'"' | b'\'')
            || b == b'\r'
            || b == b'\n'));
        match &mut self.attr {
            Some(buf) => buf.push_str(s),
            None => {
                self.w.close_start_tag();
                self.w.buf.push_str(s);
            }
        }
    }

    /// Whether base64 should be written in 76-column MIME lines (see [`XmlWriter::set_mime_base64`]).
    pub fn mime_base64(&self) -> bool {
        self.w.mime_base64
    }

    /// Records `data` as an attachment of the message and returns the `cid:` URL to write as the
    /// value (a `swaRef`, WS-I Attachments Profile 1.0 §4.4); see [`XmlWriter::swa_attachment`].
    pub fn swa_attachment(&mut self, content_type: &str, data: &bytes::Bytes) -> String {
        self.w.swa_attachment(content_type, data)
    }

    /// The prefix to use for `namespace` in a QName value, declared on the current start tag if needed.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if the namespace is not in scope and no element is open.
    pub fn prefix_for(&mut self, namespace: &str) -> Result<String, EncodeError> {
        self.w.prefix_for(namespace)
    }
}

impl fmt::Write for TextOut<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push_str(s).map_err(|_| fmt::Error)
    }
}
