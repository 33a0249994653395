//! Element declarations (XML Schema Part 1 §3.3) as fields: global or local, by type or anonymous,
//! nillable, with their occurrence.

use super::*;

impl<'d> Builder<'d> {
    /// The Rust type of a global element's content.
    pub(super) fn element_base(&mut self, q: &QName, loc: &Loc) -> R<(Base, bool)> {
        let Some(e) = self.schemas().elements.get(q) else {
            return Err(undefined(format!("element {q}"), loc).with_hint(
                "check the prefix's namespace and that the schema defining it is imported",
            ));
        };
        if e.is_abstract {
            return Err(unsupported(
                format!(
                    "abstract element {q} used where one element is expected (a message part or an \
                     operation wrapper); inside a complex type it is a choice among its substitution \
                     group"
                ),
                loc,
            ));
        }
        self.element_content(q, loc, 0)
    }

    /// The Rust type of a global element's content, abstract or not: its own type, or its head's
    /// when it has none (XML Schema Part 1 §3.3.2 {type definition}).
    pub(super) fn element_content(
        &mut self,
        q: &QName,
        loc: &Loc,
        depth: usize,
    ) -> R<(Base, bool)> {
        let Some(e) = self.schemas().elements.get(q) else {
            return Err(undefined(format!("element {q}"), loc));
        };
        if depth > 64 {
            return Err(Error::at(
                ErrorKind::Invalid(format!(
                    "substitution group affiliation of {q} deeper than 64 levels (a cycle?)"
                )),
                loc,
            ));
        }
        let nillable = e.nillable;
        let base = match &e.ty {
            Some(TypeRef::Anonymous(_)) => Base::Named(self.enqueue(TypeKey::Element(q.clone()))),
            Some(TypeRef::Named(t, l)) => self.named_type(t, l)?,
            None => match &e.substitution_group {
                Some(head) => self.element_content(head, loc, depth + 1)?.0,
                None => Base::Runtime("types::AnyXml"),
            },
        };
        Ok((base, nillable))
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn element_field(
        &mut self,
        name: &QName,
        base: Base,
        occ: Occurs,
        nillable: bool,
        doc: Option<String>,
        loc: &Loc,
        c: &mut Collector,
    ) -> R<()> {
        let Some(card) = card(occ, nillable) else {
            return Ok(()); // maxOccurs="0": the element cannot occur
        };
        if !c.elements.insert(name.clone()) {
            // The same element twice (`<a/><b/><a/>`): distinct fields, read by position.
            c.dup = true;
        }
        let _ = loc;
        c.push(
            &name.local,
            FieldDecl {
                constraint: None,
                name: String::new(),
                xml: name.clone(),
                kind: FieldKind::Element,
                ty: TypeExpr {
                    base,
                    card,
                    boxed: false,
                },
                min_occurs: if matches!(card, Occurrence::Many | Occurrence::ManyNillable) {
                    occ.min
                } else {
                    0
                },
                doc,
            },
        );
        Ok(())
    }
}
