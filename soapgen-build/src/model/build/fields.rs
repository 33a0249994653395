//! The fields of one generated struct as they are collected from a content model
//! ([`Collector`]: unique Rust names, read by position or by name), and what every kind of field
//! shares: its occurrence ([`card`]), its element's value constraint, the `xs:anyAttribute`
//! field, and the namespace most fields are in.

use std::collections::{BTreeMap, BTreeSet};

use super::context::append_doc;
use crate::model::ir::{Base, Doc, FieldDecl, FieldKind, Occurrence, Paragraph, TypeExpr};
use crate::model::names::{self, Scope};
use crate::read::components::{Occurs, QName};

/// A field being collected from a content model.
pub(super) struct Collector {
    pub(super) fields: Vec<FieldDecl>,
    pub(super) scope: Scope,
    pub(super) elements: BTreeSet<QName>,
    /// Some element name occurs twice: the fields are read by position.
    pub(super) dup: bool,
    /// A model group field (xs:choice, repeated xs:sequence) sits among the fields: they are read
    /// by position. A substitution group's field does not count: its elements are in `elements`.
    pub(super) groups: bool,
    /// The documentation of model groups and group references whose elements became fields of
    /// their own (XML Schema Part 1 §3.8, §3.13): the type's documentation, after its own.
    pub(super) docs: Vec<String>,
}

impl Collector {
    pub(super) fn new() -> Self {
        Collector {
            fields: Vec::new(),
            scope: Scope::new(),
            elements: BTreeSet::new(),
            dup: false,
            groups: false,
            docs: Vec::new(),
        }
    }

    /// Whether the element fields must be read by position (`#[xml(sequence)]`): an element name
    /// occurs twice, a model group field sits among them, or a wildcard does (an element whose
    /// particle has passed is the wildcard's then, XML Schema Part 1 §3.9.4: read by name, a
    /// repeated `fieldsToNull` after `Id` would go back to its field). Not with text content.
    pub(super) fn positional(&self) -> bool {
        let has = |k: FieldKind| self.fields.iter().any(|f| f.kind == k);
        self.dup
            || self.groups
            || (has(FieldKind::Any)
                && has(FieldKind::Element)
                && !has(FieldKind::Text)
                && !has(FieldKind::Content))
    }

    pub(super) fn push(&mut self, xml_name: &str, mut f: FieldDecl) {
        f.name = names::escape_keyword(&self.scope.unique(&names::field_name(xml_name)));
        self.fields.push(f);
    }
}

/// The namespace most element fields are in (the derive's default); ties go to the smaller URI.
pub(super) fn majority_namespace<'a>(
    fields: impl Iterator<Item = (FieldKind, &'a QName)>,
) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, q) in fields.filter(|(k, _)| *k == FieldKind::Element) {
        *counts.entry(q.ns.as_str()).or_default() += 1;
    }
    counts
        .iter()
        .max_by_key(|(ns, n)| (**n, std::cmp::Reverse(**ns)))
        .map(|(ns, _)| (*ns).to_owned())
        .unwrap_or_default()
}

/// The occurrence of a field, parameter or result from its particle's bounds and its
/// declaration's `nillable` (XML Schema Part 1 §3.9.1, §3.3.1); `None` for `maxOccurs="0"`
/// (never present: no field).
pub(super) fn card(occurs: Occurs, nillable: bool) -> Option<Occurrence> {
    Some(match (occurs.max, occurs.min, nillable) {
        (Some(0), _, _) => return None,
        (Some(1), 0, false) => Occurrence::Optional,
        (Some(1), 0, true) => Occurrence::OptionalNillable,
        (Some(1), _, false) => Occurrence::One,
        (Some(1), _, true) => Occurrence::Nillable,
        (_, _, false) => Occurrence::Many,
        (_, _, true) => Occurrence::ManyNillable,
    })
}

/// An element field's default or fixed value (XML Schema Part 1 §3.3.1 {value constraint}): noted in
/// its documentation and, for a simple type (`simple`), read for a present, empty element (§3.3.4
/// item 5.1; a complex type's simple content with a default is only documented).
pub(super) fn value_constraint(
    field: Option<&mut FieldDecl>,
    simple: bool,
    default: Option<&String>,
    fixed: Option<&String>,
) {
    let value = default
        .map(|d| ("Default", d))
        .or(fixed.map(|f| ("Fixed value", f)));
    let (Some((what, v)), Some(f)) = (value, field) else {
        return;
    };
    if simple {
        f.constraint = Some((v.clone(), fixed.is_some() && default.is_none()));
    }
    let line = format!("{what} when present and empty: `{v}` (an absent element stays absent).");
    append_doc(&mut f.doc, Paragraph::Markdown(line));
}

/// The field of an `xs:anyAttribute` wildcard (XML Schema Part 1 §3.10), once per type however many
/// wildcards its base, its attribute groups and itself declare (§3.4.2 takes their union).
pub(super) fn push_any_attribute(c: &mut Collector, doc: Option<&String>) {
    if let Some(f) = c
        .fields
        .iter_mut()
        .find(|f| f.kind == FieldKind::AnyAttribute)
    {
        // Another wildcard of the union: its documentation too.
        if let Some(d) = doc {
            super::context::add_prose(&mut f.doc, None, d);
        }
        return;
    }
    let what = Doc::markdown(
        "Attributes matched by the wildcard `xs:anyAttribute`, kept by name and value.",
    );
    let field_doc = match doc {
        Some(d) => {
            let mut with = Doc::prose(d.clone());
            with.paragraphs.extend(what.paragraphs);
            with
        }
        None => what,
    };
    c.push(
        "any_attribute",
        FieldDecl {
            name: String::new(),
            xml: QName::new("", ""),
            kind: FieldKind::AnyAttribute,
            constraint: None,
            min_occurs: 0,
            ty: TypeExpr {
                base: Base::Runtime("types::AnyAttribute"),
                card: Occurrence::Many,
                boxed: false,
            },
            doc: Some(field_doc),
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occurrence_follows_min_max_and_nillable() {
        let o = |min, max| Occurs { min, max };
        use Occurrence::*;
        assert_eq!(card(o(1, Some(1)), false), Some(One));
        assert_eq!(card(o(0, Some(1)), false), Some(Optional));
        assert_eq!(card(o(0, Some(1)), true), Some(OptionalNillable));
        assert_eq!(card(o(1, Some(1)), true), Some(Nillable));
        assert_eq!(card(o(0, None), false), Some(Many));
        assert_eq!(card(o(1, Some(5)), true), Some(ManyNillable));
        assert_eq!(card(o(0, Some(0)), false), None);
    }
}
