//! Binary content: `xs:base64Binary` decoded as it streams (MIME line breaks ignored), MTOM/XOP
//! `xop:Include` references (XOP §3) and WS-I `swaRef` attachments (Attachments Profile 1.0 §4.4).

use super::*;

impl<'i> XmlReader<'i> {
    /// Reads the current element's base64Binary content (XML Schema Part 2 §3.2.16) up to and
    /// including its end tag, decoding while the text streams: character data, CDATA sections and
    /// character references (`&#13;`) go straight into the decoder, whatever the line breaks (see
    /// [`crate::base64`]).
    ///
    /// MTOM/XOP (XOP 1.0 §3.2): content that is a single `xop:Include href="cid:…"` element is the
    /// bytes of the attachment with that Content-ID. SwA: an element with an `href="cid:…"`
    /// attribute and no content is the bytes of that attachment. Attachments are shared, not
    /// copied; one part may be referenced more than once.
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::InvalidValue`] for invalid base64, with the offset within the element's
    /// text and the document position of the offending character; [`DecodeErrorKind::Attachment`] for
    /// a `cid:` that names no part (or a response without attachments); an element other than
    /// `xop:Include`, or `xop:Include` mixed with text; truncation.
    pub fn read_base64(&mut self, start: &StartTag<'i>) -> Result<Bytes, DecodeError> {
        let href = self.attribute(start, Name::unqualified("href"))?;
        let mut decoder = crate::base64::Decoder::new();
        let mut include: Option<Bytes> = None;
        loop {
            let before = decoder.consumed();
            let (fed, at) = match self.next_token()? {
                Token::Text(raw) => (decoder.feed(raw.as_bytes()), self.last_event_start),
                Token::CData(raw) => (decoder.feed(raw.as_bytes()), self.last_event_start + 9),
                Token::Reference(name) => {
                    let c = self.reference_char(name)?;
                    let mut buf = [0u8; 4];
                    (
                        decoder.feed(c.encode_utf8(&mut buf).as_bytes()),
                        self.last_event_start,
                    )
                }
                Token::Start(tag) => {
                    let is_include = tag.is(Name::new(XOP_NS, "Include"));
                    if !is_include || include.is_some() {
                        return Err(self.error_at(
                            DecodeErrorKind::UnexpectedElement(format!(
                                "<{}> in base64Binary content (only one xop:Include may be there)",
                                tag.qname()
                            )),
                            tag.offset,
                        ));
                    }
                    let reference = self
                        .attribute(&tag, Name::unqualified("href"))?
                        .ok_or_else(|| {
                            self.error_at(
                                DecodeErrorKind::MissingAttribute("href of xop:Include".to_owned()),
                                tag.offset,
                            )
                        })?;
                    let bytes = self.attachment(&reference, tag.offset)?;
                    self.skip_element()?;
                    include = Some(bytes);
                    continue;
                }
                Token::End => break,
                Token::Eof => return Err(self.error(DecodeErrorKind::Truncated)),
                Token::Other => continue,
            };
            if decoder.consumed() > self.limits.max_text_bytes {
                return Err(self.error_at(
                    DecodeErrorKind::TextLimit(self.limits.max_text_bytes),
                    self.last_event_start,
                ));
            }
            if let Err(e) = fed {
                let in_piece = e.offset.saturating_sub(before) as u64;
                let mut err = self.error_at(
                    DecodeErrorKind::InvalidValue(
                        crate::ValueError::new("base64Binary", "…")
                            .because(format!("{e} (offset in the element's text)")),
                    ),
                    at + in_piece,
                );
                err.location.path = self.path();
                return Err(err);
            }
        }
        // The end tag is consumed from here on: errors put the element back on the path.
        if let Some(bytes) = include {
            if decoder.has_data() {
                return Err(self.error_at(
                    DecodeErrorKind::UnexpectedText(
                        "base64 text beside xop:Include in base64Binary content".to_owned(),
                    ),
                    start.offset,
                ));
            }
            return Ok(bytes);
        }
        if let Some(reference) = href {
            if !decoder.has_data() {
                return self
                    .attachment(&reference, start.offset)
                    .map_err(|mut err| {
                        self.push_path(&mut err.location.path, start);
                        err
                    });
            }
        }
        decoder.finish().map(Bytes::from).map_err(|e| {
            let mut err = self.error_at(
                DecodeErrorKind::InvalidValue(
                    crate::ValueError::new("base64Binary", "…")
                        .because(format!("{e} (offset in the element's text)")),
                ),
                start.offset,
            );
            self.push_path(&mut err.location.path, start);
            err
        })
    }

    /// Reads the current element's text as a WS-I `swaRef` (Attachments Profile 1.0 §4.4: a `cid:`
    /// URL, RFC 2392) up to and including its end tag, and returns the attachment it names: the
    /// part's bytes (shared, not copied) and Content-Type.
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::InvalidValue`] for text that is not a `cid:` URL;
    /// [`DecodeErrorKind::Attachment`] for a `cid:` that names no part (or a response without
    /// attachments); as [`read_text`](Self::read_text). Located at the element, with it on the path.
    pub(crate) fn read_swaref(
        &mut self,
        start: &StartTag<'i>,
    ) -> Result<crate::mime::Attachment, DecodeError> {
        let text = self.read_text()?;
        let reference = crate::xml::collapse(&text);
        let result = if reference
            .get(..4)
            .is_some_and(|s| s.eq_ignore_ascii_case("cid:"))
        {
            self.attachment_part(reference, start.offset)
                .map(crate::mime::Attachment::from_part)
        } else {
            Err(self.error_at(
                DecodeErrorKind::InvalidValue(
                    crate::ValueError::new("swaRef", reference)
                        .because("a swaRef is a cid: URL naming an attachment (WS-I AP 1.0 §4.4)"),
                ),
                start.offset,
            ))
        };
        // The end tag is consumed: put the element back on the path.
        result.map_err(|mut err| {
            self.push_path(&mut err.location.path, start);
            err
        })
    }

    /// The attachment a `cid:` reference names.
    pub(super) fn attachment(&self, reference: &str, offset: u64) -> Result<Bytes, DecodeError> {
        self.attachment_part(reference, offset)
            .map(|part| part.body.clone())
    }

    /// The part of the message a `cid:` reference names (RFC 2392), or an
    /// [`DecodeErrorKind::Attachment`] error at `offset` naming the Content-IDs there are.
    pub(crate) fn attachment_part(
        &self,
        reference: &str,
        offset: u64,
    ) -> Result<&'i crate::mime::Part, DecodeError> {
        let Some(attachments) = self.attachments else {
            return Err(self.error_at(
                DecodeErrorKind::Attachment(format!(
                    "{reference:?} refers to an attachment, but the response is not a \
                     multipart/related message"
                )),
                offset,
            ));
        };
        match attachments.get(reference) {
            Some(part) => Ok(part),
            None => Err(self.error_at(
                DecodeErrorKind::Attachment(format!(
                    "{reference:?} names no part of the message (Content-IDs: {})",
                    attachments
                        .iter()
                        .map(|p| format!("<{}>", p.content_id.as_deref().unwrap_or("none")))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
                offset,
            )),
        }
    }
}
