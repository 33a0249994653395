//! Attributes of a start tag (XML Schema Part 1 §3.2 uses, `anyAttribute` wildcards), and the
//! schema-instance attributes `xsi:nil` (§2.6.2) and `xsi:type` (§2.6.1) with their checks.

use super::*;

impl<'i> XmlReader<'i> {
    /// The value of the attribute named `name` on `tag`, normalised (XML 1.0 §3.3.3) and unescaped.
    ///
    /// # Errors
    ///
    /// A malformed attribute list or an undefined entity in a value.
    pub fn attribute<'t>(
        &self,
        tag: &'t StartTag<'i>,
        name: Name<'_>,
    ) -> Result<Option<Cow<'i, str>>, DecodeError> {
        if tag.content.len() == tag.name_len {
            return Ok(None); // no attributes at all: the common case
        }
        for a in tag.attributes() {
            let (qname, raw) =
                a.map_err(|e| self.error_at(DecodeErrorKind::Syntax(e.to_owned()), tag.offset))?;
            let (prefix, local) = split_qname(qname);
            if local != name.local {
                continue;
            }
            // Unprefixed attributes are in no namespace (Namespaces in XML 1.0 §6.2).
            let ns = match prefix {
                None => Some(""),
                Some(p) => self.attribute_namespace(p),
            };
            if ns != Some(name.namespace) {
                continue;
            }
            return self.attribute_text(raw, tag.offset).map(Some);
        }
        Ok(None)
    }

    /// Reads and parses the attribute `name` of `tag` as a simple type; `None` when absent.
    ///
    /// # Errors
    ///
    /// As [`attribute`](Self::attribute), and [`DecodeErrorKind::InvalidValue`].
    pub fn attribute_value<T: FromXmlText>(
        &self,
        tag: &StartTag<'i>,
        name: Name<'_>,
    ) -> Result<Option<T>, DecodeError> {
        match self.attribute(tag, name)? {
            None => Ok(None),
            Some(text) => T::from_xml_text(&text, self).map(Some).map_err(|e| {
                let mut err = self.error_at(DecodeErrorKind::InvalidValue(e), tag.offset);
                err.location.path.push_str("/@");
                err.location.path.push_str(name.local);
                err
            }),
        }
    }

    /// The attributes of `tag` that an `xs:anyAttribute` wildcard takes (XML Schema Part 1 §3.10,
    /// §3.4.4): every attribute except namespace declarations, those in the XML Schema instance
    /// namespace (`xsi:type`, `xsi:nil`, …, which are never matched by a wildcard) and those named in
    /// `known` (the declared attributes); in document order, values normalised and unescaped.
    ///
    /// # Errors
    ///
    /// A malformed attribute list, a prefix bound to no namespace (Namespaces in XML 1.0 §5), or an
    /// undefined entity in a value; the error's path ends in the attribute.
    pub fn other_attributes(
        &self,
        tag: &StartTag<'i>,
        known: &[Name<'_>],
    ) -> Result<Vec<AnyAttribute>, DecodeError> {
        let mut out = Vec::new();
        if tag.content.len() == tag.name_len {
            return Ok(out);
        }
        for a in self.resolved_attributes(tag) {
            let (namespace, local, _, raw) = a?;
            if namespace == XSI_NS
                || known
                    .iter()
                    .any(|n| n.namespace == namespace && n.local == local)
            {
                continue;
            }
            let value = self.attribute_text(raw, tag.offset)?.into_owned();
            out.push(AnyAttribute {
                namespace: namespace.to_owned(),
                local: local.to_owned(),
                value,
            });
        }
        Ok(out)
    }

    /// The attributes of `tag` other than namespace declarations, in document order, each as
    /// (namespace, local name, qualified name as written, raw value); an unprefixed attribute is
    /// in no namespace (Namespaces in XML 1.0 §6.2).
    ///
    /// # Errors
    ///
    /// Per item: a malformed attribute list, or a prefix bound to no namespace (§5); the error's
    /// path ends in the attribute.
    fn resolved_attributes<'t>(
        &'t self,
        tag: &'t StartTag<'i>,
    ) -> impl Iterator<Item = Result<(&'t str, &'i str, &'i str, &'i str), DecodeError>> + 't {
        tag.attributes().filter_map(move |a| {
            let (qname, raw) = match a {
                Ok(a) => a,
                Err(e) => {
                    return Some(Err(
                        self.error_at(DecodeErrorKind::Syntax(e.to_owned()), tag.offset)
                    ))
                }
            };
            if qname == "xmlns" || qname.starts_with("xmlns:") {
                return None;
            }
            let (prefix, local) = split_qname(qname);
            let namespace = match prefix {
                None => "",
                Some(p) => match self.attribute_namespace(p) {
                    Some(ns) => ns,
                    None => {
                        let mut err = self.error_at(
                            DecodeErrorKind::Syntax(format!(
                                "the prefix of attribute {qname} is not bound to a namespace"
                            )),
                            tag.offset,
                        );
                        err.location.path.push_str("/@");
                        err.location.path.push_str(qname);
                        return Some(Err(err));
                    }
                },
            };
            Some(Ok((namespace, local, qname, raw)))
        })
    }

    /// Whether `tag` carries `xsi:nil="true"` (or `"1"`), XML Schema Part 1 §2.6.2.
    ///
    /// # Errors
    ///
    /// A malformed attribute list, or an `xsi:nil` value that is not a boolean.
    #[inline]
    pub fn is_nil(&self, tag: &StartTag<'i>) -> Result<bool, DecodeError> {
        if tag.content.len() == tag.name_len {
            return Ok(false); // no attributes: the common case, decided inline
        }
        Ok(self
            .attribute_value::<NilFlag>(tag, Name::new(XSI_NS, "nil"))?
            .is_some_and(|f| f.0))
    }

    /// The first attribute of `tag` other than namespace declarations and those in the XML Schema
    /// instance namespace (`xsi:nil`, `xsi:type`, …) that is named in `known` or, with `wildcard`
    /// (an `xs:anyAttribute`), any such attribute; as written (`prefix:local`). With `known` empty
    /// and `wildcard` true: whether a nil element carries attributes at all (§2.6.2).
    ///
    /// # Errors
    ///
    /// A malformed attribute list, or a prefix bound to no namespace.
    pub fn first_attribute_of(
        &self,
        tag: &StartTag<'i>,
        known: &[Name<'_>],
        wildcard: bool,
    ) -> Result<Option<&'i str>, DecodeError> {
        if tag.content.len() == tag.name_len {
            return Ok(None);
        }
        for a in self.resolved_attributes(tag) {
            let (namespace, local, qname, _) = a?;
            if namespace == XSI_NS {
                continue;
            }
            if wildcard
                || known
                    .iter()
                    .any(|n| n.namespace == namespace && n.local == local)
            {
                return Ok(Some(qname));
            }
        }
        Ok(None)
    }

    /// `tag` (just read) carries `xsi:nil="true"` but its declaration is not nillable and the
    /// field is optional: with [`Leniency::nil_on_non_nillable`] the element is skipped (read as
    /// absent) and a warning logged (target `soapgen::lenient`) with its path; otherwise
    /// [`DecodeErrorKind::UnexpectedNil`] at the element (XML Schema Part 1 §3.3.4 clause 3.1).
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::UnexpectedNil`] when not lenient; malformed XML while skipping.
    pub fn nil_on_non_nillable(&mut self, tag: &StartTag<'i>) -> Result<(), DecodeError> {
        if !self.limits.leniency.nil_on_non_nillable {
            return Err(self.error_at(DecodeErrorKind::UnexpectedNil, tag.offset));
        }
        // Its line and column cost a scan of the text before it: only for a warning recorded.
        let logged = tracing::enabled!(target: "soapgen::lenient", tracing::Level::WARN);
        let err = logged.then(|| self.error_at(DecodeErrorKind::UnexpectedNil, tag.offset));
        self.skip_element()?;
        let Some(err) = err else {
            return Ok(());
        };
        tracing::warn!(
            target: "soapgen::lenient",
            path = %err.location.path,
            line = err.location.line,
            column = err.location.column,
            "xsi:nil on an element that is not nillable read as absent \
             (Leniency::nil_on_non_nillable)"
        );
        Ok(())
    }

    /// The `xsi:type` of `tag` (XML Schema Part 1 §2.6.1): the type the element's content claims,
    /// its prefix resolved against the bindings in scope at `tag` (declared on it or on any
    /// ancestor; an unprefixed value takes the default namespace). `None` when absent.
    ///
    /// # Errors
    ///
    /// A malformed attribute list, or a value that is not a QName or whose prefix is not bound
    /// ([`DecodeErrorKind::InvalidValue`], at `…/@type`).
    pub fn xsi_type(&self, tag: &StartTag<'i>) -> Result<Option<crate::types::QName>, DecodeError> {
        self.attribute_value(tag, Name::new(XSI_NS, "type"))
    }

    /// The error for an element of the declared type `declared` whose `xsi:type` is `found` (a
    /// type the client does not know as `declared` or derived from it), or, with `found` `None`,
    /// which has no `xsi:type` although `declared` is abstract (XML Schema Part 1 §3.3.4
    /// Element Locally Valid (Element) 4.3, §3.4.1 {abstract}). `known` lists the types accepted.
    pub fn unexpected_type(
        &self,
        tag: &StartTag<'i>,
        found: Option<&crate::types::QName>,
        declared: Name<'_>,
        known: &str,
    ) -> DecodeError {
        let declared = crate::types::QName::new(declared.namespace, declared.local);
        let message = match found {
            Some(t) => format!(
                "xsi:type {t} is not {declared} or a type derived from it that this client knows \
                 (known: {known})"
            ),
            None => format!(
                "no xsi:type on an element of the abstract type {declared}: one of {known} is \
                 needed"
            ),
        };
        self.error_at(DecodeErrorKind::UnexpectedType(message), tag.offset)
    }

    /// With [`Leniency::unknown_elements`]: an element whose `xsi:type` is unknown (see
    /// [`unexpected_type`](Self::unexpected_type)) is read as its declared, non-abstract type
    /// instead, the elements of the unknown extension skipped, and a warning logged (target
    /// `soapgen::lenient`) with the path and both type names.
    ///
    /// # Errors
    ///
    /// Not lenient: the [`unexpected_type`](Self::unexpected_type) error.
    pub fn lenient_type(
        &self,
        tag: &StartTag<'i>,
        found: &crate::types::QName,
        declared: Name<'_>,
        known: &str,
    ) -> Result<(), DecodeError> {
        let logged = tracing::enabled!(target: "soapgen::lenient", tracing::Level::WARN);
        if self.limits.leniency.unknown_elements && !logged {
            // Its line and column cost a scan of the text before it: only for a warning recorded.
            return Ok(());
        }
        let mut err = self.unexpected_type(tag, Some(found), declared, known);
        if !self.limits.leniency.unknown_elements {
            if let DecodeErrorKind::UnexpectedType(m) = &mut err.kind {
                m.push_str("; Leniency::unknown_elements reads it as the declared type");
            }
            return Err(err);
        }
        tracing::warn!(
            target: "soapgen::lenient",
            path = %err.location.path,
            line = err.location.line,
            column = err.location.column,
            xsi_type = %found,
            declared = %crate::types::QName::new(declared.namespace, declared.local),
            "unknown xsi:type read as the declared type (Leniency::unknown_elements)"
        );
        Ok(())
    }
}

/// `xsi:nil` values: XSD boolean.
struct NilFlag(bool);

impl FromXmlText for NilFlag {
    fn from_xml_text(text: &str, _: &dyn PrefixResolver) -> Result<Self, crate::ValueError> {
        match crate::xml::collapse(text) {
            "true" | "1" => Ok(NilFlag(true)),
            "false" | "0" => Ok(NilFlag(false)),
            _ => Err(crate::ValueError::new("boolean", text)),
        }
    }
}
