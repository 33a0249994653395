//! Particles (XML Schema Part 1 §3.9) and model groups (§3.8): a `sequence` becomes a struct's
//! fields in order, a repeated or optional group its own struct; `Collector` gathers a type's fields
//! with their names and occurrence. A `choice` goes to [`choice`](super::choice).

use super::context::{append_doc, prose, undefined, unsupported, Builder, R};
use super::fields::{majority_namespace, value_constraint, Collector};
use crate::model::ir::*;
use crate::model::names;
use crate::read::components::*;

impl<'d> Builder<'d> {
    pub(super) fn struct_decl(
        &mut self,
        name: &str,
        ct: &ComplexType,
        origin: String,
    ) -> R<StructDecl> {
        let mut c = Collector::new();
        self.content(name, ct, &mut c, 0)?;
        let sequence = c.positional();
        let mut doc = prose(ct.doc.as_ref());
        for d in c.docs.drain(..) {
            append_doc(&mut doc, Paragraph::Prose(d));
        }
        Ok(StructDecl {
            name: name.to_owned(),
            doc,
            origin,
            xsd_type: None,
            namespace: majority_namespace(c.fields.iter().map(|f| (f.kind, &f.xml))),
            fields: c.fields,
            sequence,
            encoded: false,
            uses: Uses::BOTH,
        })
    }

    /// A model group held by a parent's field (XML Schema Part 1 §3.8): a repeated sequence of
    /// several elements becomes a `#[xml(sequence)]` struct, a repeated choice an enum; the field is
    /// `Vec` of it (or `Option`/one for a group that does not repeat). Returns after pushing the field.
    fn group_field(&mut self, owner: &str, p: &Particle, occ: Occurs, c: &mut Collector) -> R<()> {
        let card = match (occ.max, occ.min) {
            (Some(0), _) => return Ok(()),
            (Some(1), 0) => Occurrence::Optional,
            // A choice one of whose alternatives may be empty may be absent.
            (Some(1), _) if emptiable(p, self.schemas(), 0) => Occurrence::Optional,
            (Some(1), _) => Occurrence::One,
            _ => Occurrence::Many,
        };
        let once = Particle {
            occurs: Occurs::ONCE,
            term: p.term.clone(),
            doc: p.doc.clone(),
            loc: p.loc.clone(),
        };
        let (field, name, doc) = match &p.term {
            Term::Choice(ps) => {
                // A substitution group head referenced alone: named after the head.
                let head = match ps.as_slice() {
                    [Particle {
                        term: Term::ElementRef(h),
                        ..
                    }] => Some(h.local.clone()),
                    _ => None,
                };
                let hint = head.as_deref().map_or_else(
                    || format!("{owner}Choice"),
                    |h| format!("{owner}{}", names::type_name(h)),
                );
                let name = self.scope.unique(&hint);
                let origin = match &head {
                    Some(h) => format!("substitution group of {h} in {owner}"),
                    None => format!("xs:choice in {owner}"),
                };
                self.choice_decl(&name, origin, ps, &p.loc)?;
                let doc = match (&head, card == Occurrence::Many) {
                    (Some(_), true) => "The elements of a substitution group, in document order.",
                    (Some(_), false) => "The element of a substitution group present.",
                    (None, true) => "The occurrences of a repeated choice, in document order.",
                    (None, false) => "The alternative present (xs:choice).",
                };
                c.groups |= head.is_none();
                let field: &str = head.as_deref().unwrap_or("choice");
                (field.to_owned(), name, doc)
            }
            _ => {
                let name = self.scope.unique(&format!("{owner}Sequence"));
                self.sequence_decl(&name, &once, format!("a repeated sequence in {owner}"))?;
                c.groups = true;
                let doc = "The occurrences of a repeated sequence, in document order.";
                ("sequence".to_owned(), name, doc)
            }
        };
        c.push(
            &field,
            FieldDecl {
                constraint: None,
                name: String::new(),
                xml: QName::new("", ""),
                kind: FieldKind::Group,
                ty: TypeExpr {
                    base: Base::Named(name),
                    card,
                    boxed: false,
                },
                min_occurs: if card == Occurrence::Many { occ.min } else { 0 },
                doc: Some(match &p.doc {
                    // The group's own documentation first (XML Schema Part 1 §3.8, §3.13).
                    Some(d) => {
                        let mut with = Doc::prose(d.clone());
                        with.push(Paragraph::Markdown(doc.to_owned()));
                        with
                    }
                    None => Doc::markdown(doc),
                }),
            },
        );
        Ok(())
    }

    /// The field of a reference to the top-level element `q` (particle `p`, occurring `occ`):
    /// typed as the declaration, documented by the reference and then the declaration.
    fn element_ref_field(
        &mut self,
        q: &QName,
        p: &Particle,
        occ: Occurs,
        c: &mut Collector,
    ) -> R<()> {
        let (base, nillable) = self.element_base(q, &p.loc)?;
        let decl = self.schemas().elements.get(q);
        // The reference's own documentation, then the declaration's.
        let doc = match (p.doc.clone(), decl.and_then(|e| e.doc.clone())) {
            (Some(r), Some(d)) if r != d => Some(format!("{r}\n\n{d}")),
            (r, d) => r.or(d),
        };
        let n = c.fields.len();
        self.element_field(q, base, occ, nillable, doc, &p.loc, c)?;
        if let Some(e) = decl {
            let simple = self.is_simple_type(e.ty.as_ref());
            value_constraint(
                c.fields.get_mut(n),
                simple,
                e.default.as_ref(),
                e.fixed.as_ref(),
            );
        }
        Ok(())
    }

    /// A `#[xml(sequence)]` struct named `name` for the particle `p` (read by position; no
    /// attributes, so it can be a group inside another type's content).
    pub(super) fn sequence_decl(&mut self, name: &str, p: &Particle, origin: String) -> R<()> {
        let mut c = Collector::new();
        self.particle(name, p, Occurs::ONCE, false, &mut c)?;
        let mut doc = None;
        for d in c.docs {
            append_doc(&mut doc, Paragraph::Prose(d));
        }
        let decl = StructDecl {
            name: name.to_owned(),
            doc,
            origin,
            xsd_type: None,
            namespace: majority_namespace(c.fields.iter().map(|f| (f.kind, &f.xml))),
            fields: c.fields,
            sequence: true,
            encoded: false,
            uses: Uses::BOTH,
        };
        self.decls.insert(name.to_owned(), TypeDecl::Struct(decl));
        Ok(())
    }

    /// Flattens a particle into fields, multiplying occurrence bounds through groups. A choice becomes
    /// optional fields (at most one present).
    pub(super) fn particle(
        &mut self,
        owner: &str,
        p: &Particle,
        outer: Occurs,
        in_choice: bool,
        c: &mut Collector,
    ) -> R<()> {
        let mut occ = p.occurs.times(outer);
        if in_choice {
            occ.min = 0;
        }
        match &p.term {
            Term::Element(le) => {
                let hint = format!("{owner}{}", names::type_name(&le.name.local));
                let base = self.type_ref(le.ty.as_ref(), &hint)?;
                let n = c.fields.len();
                self.element_field(&le.name, base, occ, le.nillable, le.doc.clone(), &le.loc, c)?;
                let (simple, default, fixed) = (
                    self.is_simple_type(le.ty.as_ref()),
                    le.default.as_ref(),
                    le.fixed.as_ref(),
                );
                value_constraint(c.fields.get_mut(n), simple, default, fixed);
                Ok(())
            }
            Term::ElementRef(q) if self.substitutable(q) => {
                // A reference to a substitution group head: a choice among the group's elements
                // (XML Schema Part 1 §3.3.6), with the reference's occurrence bounds.
                let choice = Particle {
                    occurs: occ,
                    term: Term::Choice(vec![Particle {
                        occurs: Occurs::ONCE,
                        term: p.term.clone(),
                        doc: None,
                        loc: p.loc.clone(),
                    }]),
                    doc: p.doc.clone(),
                    loc: p.loc.clone(),
                };
                // Read by name like any element field, unless a name is also another field's.
                for m in self.substitution_set(q) {
                    if !c.elements.insert(m) {
                        c.dup = true;
                    }
                }
                self.group_field(owner, &choice, occ, c)
            }
            Term::ElementRef(q) => self.element_ref_field(q, p, occ, c),
            Term::GroupRef(q) => {
                let Some(g) = self.schemas().groups.get(q).cloned() else {
                    return Err(undefined(format!("group {q}"), &p.loc));
                };
                c.docs.extend(p.doc.clone());
                self.particle(owner, &g.particle, occ, in_choice, c)
            }
            Term::Sequence(ps) | Term::All(ps) => {
                if occ.max != Some(1) && count_elements(ps, self.schemas()) > 1 {
                    if matches!(p.term, Term::All(_)) {
                        return Err(unsupported(
                            "a repeated xs:all of several elements (maxOccurs > 1 on xs:all)",
                            &p.loc,
                        ));
                    }
                    return self.group_field(owner, p, occ, c);
                }
                c.docs.extend(p.doc.clone());
                for q in ps {
                    self.particle(owner, q, occ, in_choice, c)?;
                }
                Ok(())
            }
            Term::Choice(ps) => {
                // A choice between several elements is an enum (`Vec` of it when it repeats).
                if count_elements(ps, self.schemas()) > 1 {
                    return self.group_field(owner, p, occ, c);
                }
                c.docs.extend(p.doc.clone());
                let before = c.fields.len();
                for q in ps {
                    self.particle(owner, q, occ, true, c)?;
                }
                let names: Vec<String> = c.fields[before..]
                    .iter()
                    .map(|f| format!("`{}`", f.name))
                    .collect();
                if names.len() > 1 {
                    for f in &mut c.fields[before..] {
                        let line = format!(
                            "One of a choice: at most one of {} is present.",
                            names.join(", ")
                        );
                        append_doc(&mut f.doc, Paragraph::Markdown(line));
                    }
                }
                Ok(())
            }
            Term::Any { namespace } => {
                if let Some(existing) = c.fields.iter_mut().find(|f| f.kind == FieldKind::Any) {
                    existing.ty.card = Occurrence::Many;
                    return Ok(());
                }
                let card = if occ.max == Some(1) {
                    Occurrence::Optional
                } else {
                    Occurrence::Many
                };
                if occ.max == Some(0) {
                    return Ok(());
                }
                c.push(
                    "any",
                    FieldDecl {
                        constraint: None,
                        name: String::new(),
                        xml: QName::new("", ""),
                        kind: FieldKind::Any,
                        ty: TypeExpr {
                            base: Base::Runtime("types::AnyElement"),
                            card,
                            boxed: false,
                        },
                        min_occurs: 0,
                        doc: Some({
                            let what = Doc::markdown(format!(
                                "Elements matched by the wildcard `xs:any namespace=\"{namespace}\"`, kept as XML."
                            ));
                            match &p.doc {
                                Some(d) => {
                                    let mut with = Doc::prose(d.clone());
                                    with.paragraphs.extend(what.paragraphs);
                                    with
                                }
                                None => what,
                            }
                        }),
                    },
                );
                Ok(())
            }
        }
    }
}

/// Whether a particle can match no element at all (XML Schema Part 1 §3.8.6 emptiable).
fn emptiable(p: &Particle, s: &SchemaSet, depth: usize) -> bool {
    if p.occurs.min == 0 || depth > 64 {
        return true;
    }
    match &p.term {
        Term::Element(_) | Term::ElementRef(_) | Term::Any { .. } => false,
        Term::Sequence(ps) | Term::All(ps) => ps.iter().all(|q| emptiable(q, s, depth + 1)),
        Term::Choice(ps) => ps.iter().any(|q| emptiable(q, s, depth + 1)),
        Term::GroupRef(g) => s
            .groups
            .get(g)
            .is_some_and(|g| emptiable(&g.particle, s, depth + 1)),
    }
}

/// The first element a particle can start with, to name a choice alternative after.
pub(super) fn first_element(p: &Particle, s: &SchemaSet, depth: usize) -> Option<QName> {
    if depth > 64 {
        return None;
    }
    match &p.term {
        Term::Element(le) => Some(le.name.clone()),
        Term::ElementRef(r) => Some(r.clone()),
        Term::GroupRef(g) => first_element(&s.groups.get(g)?.particle, s, depth + 1),
        Term::Sequence(ps) | Term::Choice(ps) | Term::All(ps) => {
            ps.iter().find_map(|q| first_element(q, s, depth + 1))
        }
        Term::Any { .. } => None,
    }
}

/// How many element fields a group of particles yields (to spot repeated multi-element groups).
fn count_elements(ps: &[Particle], s: &SchemaSet) -> usize {
    ps.iter()
        .map(|p| match &p.term {
            Term::Element(_) | Term::ElementRef(_) | Term::Any { .. } => 1,
            Term::Sequence(q) | Term::Choice(q) | Term::All(q) => count_elements(q, s),
            Term::GroupRef(g) => s
                .groups
                .get(g)
                .map_or(1, |g| count_elements(std::slice::from_ref(&g.particle), s)),
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::*;

    #[test]
    fn a_sequence_gives_fields_in_order_with_their_occurrence() {
        let m = lower_sequence(
            r#"  <xs:element name="one" type="xs:string"/>
  <xs:element name="opt" type="xs:string" minOccurs="0"/>
  <xs:element name="many" type="xs:int" minOccurs="2" maxOccurs="unbounded"/>
  <xs:element name="nil" type="xs:int" nillable="true"/>
  <xs:element name="optnil" type="xs:int" nillable="true" minOccurs="0"/>
  <xs:element name="self" type="xs:boolean"/>"#,
        );
        let s = strukt(&m, "T");
        assert_eq!(
            occurrences(s),
            [
                ("one", Occurrence::One, 0),
                ("opt", Occurrence::Optional, 0),
                ("many", Occurrence::Many, 2),
                ("nil", Occurrence::Nillable, 0),
                ("optnil", Occurrence::OptionalNillable, 0),
                ("self_", Occurrence::One, 0),
            ]
        );
        assert_eq!(field(s, "self_").xml, q("self"));
    }

    #[test]
    fn a_repeated_sequence_group_is_a_vec_of_its_own_struct() {
        let m = lower(
            r#"<xs:element name="Op"><xs:complexType><xs:sequence>
  <xs:sequence maxOccurs="unbounded"><xs:element name="k" type="xs:string"/><xs:element name="v" type="xs:string"/></xs:sequence>
</xs:sequence></xs:complexType></xs:element>
<xs:element name="OpResponse"><xs:complexType/></xs:element>"#,
        );
        let s = strukt(&m, "Op");
        assert_eq!(s.fields.len(), 1);
        let f = &s.fields[0];
        assert_eq!((f.kind, f.ty.card), (FieldKind::Group, Occurrence::Many));
        let inner = strukt(&m, named(&f.ty.base));
        let names: Vec<_> = inner.fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["k", "v"]);
    }
}
