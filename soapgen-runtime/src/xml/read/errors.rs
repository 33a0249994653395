//! The reader's errors: each located at a byte offset with its line, column and element path
//! (`Body/Op/field`), for what the document holds and for what the expected message does not.

use std::fmt::Write as _;

use super::{location_in, DecodeError, DecodeErrorKind, StartTag, XmlReader};
use crate::xml::Name;

impl<'i> XmlReader<'i> {
    /// An error of `kind` at the current position and path.
    pub fn error(&self, kind: DecodeErrorKind) -> DecodeError {
        self.error_at(kind, self.pos as u64)
    }

    /// An error of `kind` at byte `offset`, with the current path.
    pub fn error_at(&self, kind: DecodeErrorKind, offset: u64) -> DecodeError {
        let off = (offset as usize).min(self.input.len());
        let prefix = self.input.get(..off).unwrap_or(self.input);
        DecodeError::new(kind, location_in(prefix, offset, self.path()))
    }

    /// "Unexpected element" for `tag` (which was just read: its name is on the path).
    pub fn unexpected(&self, tag: &StartTag<'i>) -> DecodeError {
        let ns = tag.namespace;
        let name = if ns.is_empty() {
            tag.local_name().to_owned()
        } else {
            format!("{{{ns}}}{}", tag.local_name())
        };
        self.error_at(DecodeErrorKind::UnexpectedElement(name), tag.offset)
    }

    /// An element that the expected content has no place for, just read: an error
    /// ([`unexpected`](Self::unexpected)), or with
    /// [`Leniency::unknown_elements`](crate::xml::Leniency::unknown_elements) skipped (with its content) and logged as a warning.
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::UnexpectedElement`] when not lenient; malformed XML while skipping.
    pub fn unknown_element(&mut self, tag: &StartTag<'i>) -> Result<(), DecodeError> {
        self.unknown_element_in(tag, &[])
    }

    /// [`unknown_element`](Self::unknown_element) in content whose elements include `expected`,
    /// `(namespace, local name)` pairs (`""`: no namespace): an element whose local name is one
    /// of them in another namespace is reported as such (the usual cause: one side qualifies
    /// local elements and the other does not, XML Schema Part 1 §3.3.2 `form` and
    /// `elementFormDefault`). What derived readers call.
    ///
    /// # Errors
    ///
    /// As [`unknown_element`](Self::unknown_element).
    pub fn unknown_element_in(
        &mut self,
        tag: &StartTag<'i>,
        expected: &[(&str, &str)],
    ) -> Result<(), DecodeError> {
        if !self.limits.leniency.unknown_elements {
            let mut err = self.unexpected_in(tag, expected);
            let other_namespace = expected.iter().any(|(_, l)| *l == tag.local_name());
            if let DecodeErrorKind::UnexpectedElement(name) = &mut err.kind {
                if !other_namespace {
                    name.push_str(
                        " (not in the expected content; Leniency::unknown_elements skips such \
                         elements)",
                    );
                }
            }
            return Err(err);
        }
        // Its line and column cost a scan of the text before it, its XML a copy: only for a
        // warning recorded (else skipping thousands of elements would take quadratic time).
        if !tracing::enabled!(target: "soapgen::lenient", tracing::Level::WARN) {
            return self.skip_element();
        }
        let err = self.unexpected(tag);
        let xml = self.read_outer_xml(tag)?;
        let mut end = xml.len().min(512);
        while !xml.is_char_boundary(end) {
            end -= 1;
        }
        tracing::warn!(
            target: "soapgen::lenient",
            path = %err.location.path,
            line = err.location.line,
            column = err.location.column,
            xml = &xml[..end],
            "unknown element skipped (Leniency::unknown_elements)"
        );
        Ok(())
    }

    /// [`unexpected`](Self::unexpected) where one of `expected` (`(namespace, local name)`
    /// pairs) was due: when `tag`'s local name is one of them in another namespace, the error says
    /// so (the usual cause: one side qualifies local elements and the other does not, XML Schema
    /// Part 1 §3.3.2 `form` and `elementFormDefault`).
    pub fn unexpected_in(&self, tag: &StartTag<'i>, expected: &[(&str, &str)]) -> DecodeError {
        let mut err = self.unexpected(tag);
        if let DecodeErrorKind::UnexpectedElement(name) = &mut err.kind {
            let local = tag.local_name();
            if let Some((ns, _)) = expected.iter().find(|(_, l)| *l == local) {
                let here = if ns.is_empty() {
                    "in no namespace".to_owned()
                } else {
                    format!("in the namespace {ns}")
                };
                let _ = write!(
                    name,
                    " (expected {local} {here}: the names match, the namespaces differ; one side \
                     qualifies local elements and the other does not, XML Schema Part 1 §3.3.2 \
                     form and elementFormDefault)"
                );
            }
        }
        err
    }

    /// "Missing required element" for `name`, inside the current element.
    pub fn missing(&self, name: Name<'_>) -> DecodeError {
        self.error(DecodeErrorKind::MissingElement(name.local.to_owned()))
    }

    /// "Missing required element" for `name` inside `parent`, whose content was just read (its end
    /// tag consumed): located at the parent's start tag, with the parent on the path.
    pub fn missing_in(&self, parent: &StartTag<'i>, name: Name<'_>) -> DecodeError {
        let mut e = self.error_at(
            DecodeErrorKind::MissingElement(name.local.to_owned()),
            parent.offset(),
        );
        self.push_path(&mut e.location.path, parent);
        e
    }

    /// "Element appears more than once" for `tag`.
    pub fn duplicate(&self, tag: &StartTag<'i>) -> DecodeError {
        self.error_at(
            DecodeErrorKind::DuplicateElement(tag.local_name().to_owned()),
            tag.offset,
        )
    }

    /// The current element path (`Body/Op/field`).
    pub fn path(&self) -> String {
        let mut p = String::new();
        for open in self.stack.iter().skip(self.path_skip) {
            let q = open.qname;
            if !p.is_empty() {
                p.push('/');
            }
            p.push_str(match q.find(':') {
                Some(i) => &q[i + 1..],
                None => q,
            });
        }
        p
    }
}
