//! The tokenizer under [`XmlReader`]: start tags (namespace declarations bound and attributes
//! checked for syntax, uniqueness and the limit, XML 1.0 §3.1, Namespaces in XML §5.3), end tags,
//! character and entity references (XML 1.0 §4.1, only the predefined entities, §4.6), CDATA,
//! comments and processing instructions; a DOCTYPE is refused.

use super::*;

impl<'i> XmlReader<'i> {
    /// Reads the next token: a start tag (pushed on the stack of open elements, its namespace
    /// declarations in scope), an end tag (checked against the start tag and popped), a run of
    /// character data, a reference, a CDATA section, or markup that carries no data.
    pub(super) fn next_token(&mut self) -> Result<Token<'i>, DecodeError> {
        if let Some(n) = self.pending_pop.take() {
            self.bindings.truncate(n);
        }
        let start = self.pos;
        self.last_event_start = start as u64;
        if self.empty_pending {
            // XML 1.0 §3.1: an empty-element tag is the start and end of one element.
            self.empty_pending = false;
            self.close_element();
            return Ok(Token::End);
        }
        let bytes = self.input.as_bytes();
        let Some(&first) = bytes.get(start) else {
            return Ok(Token::Eof);
        };
        match first {
            b'<' => match bytes.get(start + 1) {
                Some(b'/') => self.end_tag(start),
                Some(b'!') => self.bang(start),
                Some(b'?') => self.processing_instruction(start),
                Some(_) => self.start_tag(start),
                None => Err(self.error_at(DecodeErrorKind::Truncated, start as u64)),
            },
            b'&' => self.reference(start),
            _ => {
                let end = memchr2(b'<', b'&', &bytes[start..]).map_or(bytes.len(), |i| start + i);
                self.pos = end;
                Ok(Token::Text(&self.input[start..end]))
            }
        }
    }

    /// Pops the innermost open element; its declarations leave scope with the next token.
    pub(super) fn close_element(&mut self) {
        if let Some(open) = self.stack.pop() {
            self.pending_pop = Some(open.bindings_len);
        }
    }

    /// `&name;` or `&#n;` at `start` (XML 1.0 §4.1); the name is checked by the caller.
    pub(super) fn reference(&mut self, start: usize) -> Result<Token<'i>, DecodeError> {
        let rest = &self.input.as_bytes()[start + 1..];
        match memchr3(b';', b'<', b'&', rest) {
            Some(j) if j > 0 && rest[j] == b';' && !rest[..j].iter().any(|&b| is_space(b)) => {
                self.pos = start + 2 + j;
                Ok(Token::Reference(&self.input[start + 1..start + 1 + j]))
            }
            _ => Err(self.error_at(
                DecodeErrorKind::Syntax(
                    "unclosed reference: `&` starts no `&name;` or `&#n;` (XML 1.0 §4.1)"
                        .to_owned(),
                ),
                start as u64,
            )),
        }
    }

    /// The character the reference `&name;` just read names (XML 1.0 §4.1, §4.6), or an
    /// [`DecodeErrorKind::Entity`] error at it.
    pub(super) fn reference_char(&self, name: &str) -> Result<char, DecodeError> {
        resolve_reference(name).ok_or_else(|| {
            self.error_at(
                DecodeErrorKind::Entity(format!("&{name};")),
                self.last_event_start,
            )
        })
    }

    /// An end tag at `start` (XML 1.0 §3.1 production ETag): it must name the innermost open
    /// element (§3 well-formedness constraint Element Type Match).
    pub(super) fn end_tag(&mut self, start: usize) -> Result<Token<'i>, DecodeError> {
        let bytes = self.input.as_bytes();
        let Some(k) = memchr(b'>', &bytes[start + 2..]) else {
            return Err(self.error_at(DecodeErrorKind::Truncated, start as u64));
        };
        let gt = start + 2 + k;
        let name = self.input[start + 2..gt].trim_end_matches([' ', '\t', '\r', '\n']);
        let kind = match self.stack.last() {
            Some(open) if open.qname == name => None,
            Some(open) => Some(format!(
                "end tag </{name}> does not match the start tag <{}> (XML 1.0 §3)",
                open.qname
            )),
            None => Some(format!(
                "end tag </{name}> without a start tag (XML 1.0 §3)"
            )),
        };
        if let Some(message) = kind {
            return Err(self.error_at(DecodeErrorKind::Syntax(message), start as u64));
        }
        self.pos = gt + 1;
        self.close_element();
        Ok(Token::End)
    }

    /// Markup starting `<!` at `start`: a comment, a CDATA section, or a refused DOCTYPE.
    pub(super) fn bang(&mut self, start: usize) -> Result<Token<'i>, DecodeError> {
        let rest = &self.input.as_bytes()[start..];
        let at = start as u64;
        if rest.starts_with(b"<!--") {
            // XML 1.0 §2.5.
            return match memmem::find(&rest[4..], b"-->") {
                Some(k) => {
                    self.pos = start + 4 + k + 3;
                    Ok(Token::Other)
                }
                None => Err(self.error_at(DecodeErrorKind::Truncated, at)),
            };
        }
        if rest.starts_with(b"<![CDATA[") {
            // XML 1.0 §2.7.
            return match memmem::find(&rest[9..], b"]]>") {
                Some(k) => {
                    self.pos = start + 9 + k + 3;
                    Ok(Token::CData(&self.input[start + 9..start + 9 + k]))
                }
                None => Err(self.error_at(DecodeErrorKind::Truncated, at)),
            };
        }
        let doctype = b"<!DOCTYPE";
        if rest.len() >= doctype.len() && rest[..doctype.len()].eq_ignore_ascii_case(doctype) {
            return Err(self.error_at(DecodeErrorKind::DocType, at));
        }
        let cut_short =
            |full: &[u8]| rest.len() < full.len() && full[..rest.len()].eq_ignore_ascii_case(rest);
        if cut_short(b"<!--") || cut_short(b"<![CDATA[") || cut_short(doctype) {
            return Err(self.error_at(DecodeErrorKind::Truncated, at));
        }
        Err(self.error_at(
            DecodeErrorKind::Syntax(
                "`<!` starts no comment, CDATA section or document type declaration".to_owned(),
            ),
            at,
        ))
    }

    /// A processing instruction at `start` (XML 1.0 §2.6), or the XML declaration (§2.8), whose
    /// encoding must be UTF-8 here (§4.3.3; [`to_utf8`](crate::xml::to_utf8) transcodes others).
    pub(super) fn processing_instruction(
        &mut self,
        start: usize,
    ) -> Result<Token<'i>, DecodeError> {
        let bytes = self.input.as_bytes();
        let Some(k) = memmem::find(&bytes[start + 2..], b"?>") else {
            return Err(self.error_at(DecodeErrorKind::Truncated, start as u64));
        };
        let content = &self.input[start + 2..start + 2 + k];
        let target_len = content.bytes().position(is_space).unwrap_or(content.len());
        if &content[..target_len] == "xml" {
            let declaration = Attributes {
                s: &content[target_len..],
                pos: 0,
            };
            for a in declaration {
                let (name, value) = a.map_err(|e| {
                    self.error_at(
                        DecodeErrorKind::Syntax(format!("XML declaration: {e}")),
                        start as u64,
                    )
                })?;
                if name == "encoding"
                    && !value.eq_ignore_ascii_case("utf-8")
                    && !value.eq_ignore_ascii_case("utf8")
                {
                    let enc = value.to_ascii_lowercase();
                    return Err(self.error_at(
                        DecodeErrorKind::Other(format!(
                            "document encoding {enc:?}: XmlReader reads UTF-8; transcode first with xml::to_utf8 (read_response does)"
                        )),
                        start as u64,
                    ));
                }
            }
        }
        self.pos = start + 2 + k + 2;
        Ok(Token::Other)
    }

    /// A start tag at `start` (XML 1.0 §3.1 productions STag, EmptyElemTag): its attributes are
    /// checked (syntax, uniqueness, the attribute limit), its namespace declarations put in scope,
    /// the depth limit applied, and its name's namespace resolved (Namespaces in XML 1.0 §6).
    pub(super) fn start_tag(&mut self, start: usize) -> Result<Token<'i>, DecodeError> {
        let bytes = self.input.as_bytes();
        let offset = start as u64;
        // The `>` that ends the tag: the first one outside quoted attribute values.
        let mut i = start + 1;
        let gt = loop {
            let Some(k) = memchr3(b'>', b'"', b'\'', &bytes[i..]) else {
                return Err(self.error_at(DecodeErrorKind::Truncated, offset));
            };
            let j = i + k;
            if bytes[j] == b'>' {
                break j;
            }
            let Some(m) = memchr(bytes[j], &bytes[j + 1..]) else {
                return Err(self.error_at(DecodeErrorKind::Truncated, offset));
            };
            i = j + m + 2;
        };
        let mut content = &self.input[start + 1..gt];
        let empty = content.ends_with('/');
        if empty {
            content = &content[..content.len() - 1];
        }
        let cb = content.as_bytes();
        // One pass over the name: where it ends and where its local part starts.
        let mut name_len = cb.len();
        let mut local_start = 0;
        for (k, &b) in cb.iter().enumerate() {
            if b == b':' && local_start == 0 {
                local_start = k + 1;
            } else if is_space(b) {
                name_len = k;
                break;
            }
        }
        if name_len == 0 {
            return Err(self.error_at(
                DecodeErrorKind::Syntax("a start tag without an element name".to_owned()),
                offset,
            ));
        }
        let bindings_len = self.bindings.len();
        if name_len < cb.len() {
            if let Err(kind) = self.scan_attributes(&content[name_len..]) {
                self.bindings.truncate(bindings_len);
                return Err(self.error_at(kind, offset));
            }
        }
        if self.stack.len() >= self.limits.max_depth {
            self.bindings.truncate(bindings_len);
            return Err(self.error_at(DecodeErrorKind::DepthLimit(self.limits.max_depth), offset));
        }
        let qname = &content[..name_len];
        self.stack.push(Open {
            qname,
            bindings_len,
        });
        self.pos = gt + 1;
        self.empty_pending = empty;
        let namespace = if local_start == 0 {
            // Namespaces in XML 1.0 §6.2: the default namespace, if one is declared.
            self.lookup("").unwrap_or("")
        } else {
            let prefix = &qname[..local_start - 1];
            match self.lookup(prefix) {
                Some(ns) if !prefix.is_empty() => ns,
                None if prefix == "xml" => crate::xml::XML_NS,
                _ => {
                    return Err(self.error_at(
                        DecodeErrorKind::Syntax(format!("unbound namespace prefix {prefix:?}")),
                        offset,
                    ))
                }
            }
        };
        Ok(Token::Start(StartTag {
            content,
            name_len,
            local_start,
            offset,
            namespace,
        }))
    }

    /// Checks the attribute part of a start tag and puts its namespace declarations in scope
    /// (Namespaces in XML 1.0 §3: `xml` only for its own namespace, `xmlns` never declared).
    pub(super) fn scan_attributes(&mut self, attrs: &'i str) -> Result<(), DecodeErrorKind> {
        let mut names = std::mem::take(&mut self.attribute_names);
        names.clear();
        let own = self.bindings.len();
        let mut result = Ok(());
        for a in (Attributes { s: attrs, pos: 0 }) {
            let (name, value) = match a {
                Ok(a) => a,
                Err(e) => {
                    result = Err(DecodeErrorKind::Syntax(e.to_owned()));
                    break;
                }
            };
            if names.len() >= self.limits.max_attributes {
                result = Err(DecodeErrorKind::AttributeLimit(self.limits.max_attributes));
                break;
            }
            let declared = name == "xmlns" || name.starts_with("xmlns:");
            if names.iter().any(|(n, _)| *n == name) {
                // gSOAP repeats a namespace declaration on elements it re-serialises (kept
                // `xs:any` content): the same binding twice is read as one.
                let prefix = name.strip_prefix("xmlns:").unwrap_or("");
                if declared
                    && self.bindings[own..]
                        .iter()
                        .any(|b| b.prefix == prefix && b.uri == value)
                {
                    continue;
                }
                result = Err(DecodeErrorKind::Syntax(format!(
                    "attribute {name} appears twice in one start tag (XML 1.0 §3.1 Unique Att Spec)"
                )));
                break;
            }
            names.push((name, value));
            let prefix = if name == "xmlns" {
                ""
            } else if let Some(p) = name.strip_prefix("xmlns:") {
                p
            } else {
                continue;
            };
            let misuse = match prefix {
                "xml" if value == crate::xml::XML_NS => continue,
                "xml" => Some("the prefix xml bound to another namespace"),
                "xmlns" => Some("the prefix xmlns declared"),
                _ if value == crate::xml::XML_NS || value == XMLNS_NS => {
                    Some("a reserved namespace bound to another prefix")
                }
                _ => None,
            };
            if let Some(m) = misuse {
                result = Err(DecodeErrorKind::Syntax(format!(
                    "{m} in {name}=\"{value}\" (Namespaces in XML 1.0 §3)"
                )));
                break;
            }
            self.bindings.push(Binding { prefix, uri: value });
        }
        self.attribute_names = names;
        result
    }

    /// The URI bound to `prefix` (`""`: the default namespace) by the innermost declaration in
    /// scope, as written (`""` when the declaration undeclares it).
    pub(super) fn lookup(&self, prefix: &str) -> Option<&'i str> {
        self.bindings
            .iter()
            .rev()
            .find(|b| b.prefix == prefix)
            .map(|b| b.uri)
    }

    /// The namespace of a prefixed attribute name (Namespaces in XML 1.0 §6.3; `xml` and `xmlns`
    /// are bound by definition, §3); `None` for an unbound prefix.
    pub(super) fn attribute_namespace(&self, prefix: &str) -> Option<&'i str> {
        match prefix {
            "xml" => Some(crate::xml::XML_NS),
            "xmlns" => Some(XMLNS_NS),
            _ => self.lookup(prefix).filter(|u| !u.is_empty()),
        }
    }

    pub(super) fn attribute_text(
        &self,
        raw: &'i str,
        offset: u64,
    ) -> Result<Cow<'i, str>, DecodeError> {
        // The common case, nothing to replace: one word-at-a-time scan finds no control
        // character and no `&` (it also stops at `<`, `>`, `"` and U+FFFE/F lead bytes, which
        // the slow path below handles as well).
        if crate::xml::write::find_special(raw.as_bytes(), true).is_none() {
            return Ok(Cow::Borrowed(raw));
        }
        // XML 1.0 §3.3.3: each literal whitespace character becomes a space (after §2.11 line-end
        // normalisation); references are then expanded (a `&#10;` stays a line feed).
        let normalized: Cow<'i, str> = if raw.bytes().any(|b| matches!(b, b'\t' | b'\n' | b'\r')) {
            Cow::Owned(raw.replace("\r\n", " ").replace(['\t', '\n', '\r'], " "))
        } else {
            Cow::Borrowed(raw)
        };
        if !normalized.contains('&') {
            return Ok(normalized);
        }
        let mut out = String::with_capacity(normalized.len());
        let mut rest: &str = &normalized;
        while let Some(i) = rest.find('&') {
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            let Some(j) = after.find(';') else {
                return Err(self.error_at(
                    DecodeErrorKind::Entity("unterminated reference in attribute value".to_owned()),
                    offset,
                ));
            };
            let name = &after[..j];
            match resolve_reference(name) {
                Some(c) => out.push(c),
                None => {
                    return Err(self.error_at(DecodeErrorKind::Entity(format!("&{name};")), offset))
                }
            }
            rest = &after[j + 1..];
        }
        out.push_str(rest);
        Ok(Cow::Owned(out))
    }
}

/// The character a reference names: the five predefined entities (XML 1.0 §4.6) or a character
/// reference (§4.1) to a character allowed by §2.2.
pub(super) fn resolve_reference(name: &str) -> Option<char> {
    let c = match name {
        "lt" => '<',
        "gt" => '>',
        "amp" => '&',
        "apos" => '\'',
        "quot" => '"',
        _ => {
            let n = if let Some(hex) = name.strip_prefix("#x") {
                u32::from_str_radix(hex, 16).ok()?
            } else if let Some(dec) = name.strip_prefix('#') {
                dec.parse::<u32>().ok()?
            } else {
                return None;
            };
            let c = char::from_u32(n)?;
            let allowed = matches!(c, '\t' | '\n' | '\r')
                || ('\u{20}'..='\u{D7FF}').contains(&c)
                || ('\u{E000}'..='\u{FFFD}').contains(&c)
                || c >= '\u{10000}';
            if !allowed {
                return None;
            }
            c
        }
    };
    Some(c)
}

/// `(prefix, local part)` of a qualified name (Namespaces in XML 1.0 §4).
pub(super) fn split_qname(q: &str) -> (Option<&str>, &str) {
    match q.find(':') {
        Some(i) => (Some(&q[..i]), &q[i + 1..]),
        None => (None, q),
    }
}

#[inline]
pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}
