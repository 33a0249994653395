//! Where an XSD `choice` (XML Schema Part 1 §3.8, compositor `choice`) becomes a Rust enum: one
//! variant per alternative (an element, a nested sequence as a struct, a wildcard), in document order.

use super::context::{prose, undefined, unsupported, Builder, R};
use super::fields::majority_namespace;
use super::particles::first_element;
use crate::error::Loc;
use crate::model::ir::*;
use crate::model::names::{self, Scope};
use crate::read::components::*;

impl<'d> Builder<'d> {
    /// The enum for the choice of `ps` (XML Schema Part 1 §3.8), named `name`; `origin` says what
    /// it was generated from.
    pub(super) fn choice_decl(
        &mut self,
        name: &str,
        origin: String,
        ps: &[Particle],
        loc: &Loc,
    ) -> R<()> {
        let mut scope = Scope::new();
        let mut variants = Vec::new();
        for q in ps {
            self.alternative(name, q, Occurs::ONCE, &mut scope, &mut variants, 0)?;
        }
        if variants.is_empty() {
            return Err(unsupported("a choice with no alternative", loc));
        }
        let namespace = majority_namespace(
            variants
                .iter()
                .filter_map(|v| v.xml.as_ref().map(|q| (FieldKind::Element, q))),
        );
        let decl = ChoiceDecl {
            name: name.to_owned(),
            doc: None,
            origin,
            namespace,
            variants,
            uses: Uses::BOTH,
        };
        self.decls.insert(name.to_owned(), TypeDecl::Choice(decl));
        Ok(())
    }

    /// The variants of one alternative `q` of the choice `owner`: an element, the alternatives of a
    /// nested single choice (flattened), or any other particle as a generated sequence struct.
    fn alternative(
        &mut self,
        owner: &str,
        q: &Particle,
        outer: Occurs,
        scope: &mut Scope,
        variants: &mut Vec<VariantDecl>,
        depth: usize,
    ) -> R<()> {
        if depth > 64 {
            return Err(unsupported("choices nested deeper than 64 levels", &q.loc));
        }
        let occ = q.occurs.times(outer);
        if occ.max == Some(0) {
            return Ok(());
        }
        let mut element = |name: &QName, base: Base, nillable: bool, doc| {
            let card = match (occ.max == Some(1), nillable) {
                (true, false) => Occurrence::One,
                (true, true) => Occurrence::Nillable,
                (false, false) => Occurrence::Many,
                (false, true) => Occurrence::ManyNillable,
            };
            variants.push(VariantDecl {
                name: scope.unique(&names::type_name(&name.local)),
                xml: Some(name.clone()),
                any: false,
                ty: TypeExpr {
                    base,
                    card,
                    boxed: false,
                },
                doc,
            });
        };
        match &q.term {
            Term::Element(le) => {
                let hint = format!("{owner}{}", names::type_name(&le.name.local));
                let base = self.type_ref(le.ty.as_ref(), &hint)?;
                element(&le.name, base, le.nillable, prose(le.doc.as_ref()));
                return Ok(());
            }
            Term::ElementRef(r) => {
                // A head stands for each element of its substitution group (§3.3.6).
                let set = if self.substitutable(r) {
                    self.substitution_set(r)
                } else {
                    vec![r.clone()]
                };
                if set.is_empty() {
                    return Err(unsupported(
                        format!("abstract element {r} with no concrete substitution group member"),
                        &q.loc,
                    ));
                }
                for m in &set {
                    let (base, nillable) = self.element_content(m, &q.loc, 0)?;
                    let doc = prose(self.schemas().elements.get(m).and_then(|e| e.doc.as_ref()));
                    element(m, base, nillable, doc);
                }
                return Ok(());
            }
            Term::Choice(inner) if occ.max == Some(1) => {
                for i in inner {
                    self.alternative(owner, i, occ, scope, variants, depth + 1)?;
                }
                return Ok(());
            }
            Term::GroupRef(g) if occ.max == Some(1) => {
                let Some(gd) = self.schemas().groups.get(g).cloned() else {
                    return Err(undefined(format!("group {g}"), &q.loc));
                };
                if matches!(gd.particle.term, Term::Choice(_)) {
                    return self.alternative(owner, &gd.particle, occ, scope, variants, depth + 1);
                }
            }
            Term::Any { namespace } => {
                variants.push(VariantDecl {
                    name: scope.unique("Any"),
                    xml: None,
                    any: true,
                    ty: TypeExpr::one(Base::Runtime("types::AnyElement")),
                    doc: Some(Doc::markdown(format!(
                        "An element matched by the wildcard `xs:any namespace=\"{namespace}\"`, kept as XML."
                    ))),
                });
                return Ok(());
            }
            _ => {}
        }
        let first = first_element(q, self.schemas(), 0)
            .map(|n| names::type_name(&n.local))
            .unwrap_or_else(|| "Sequence".to_owned());
        let vname = scope.unique(&first);
        let sname = self.scope.unique(&format!("{owner}{vname}"));
        let p = Particle {
            occurs: occ,
            term: q.term.clone(),
            doc: q.doc.clone(),
            loc: q.loc.clone(),
        };
        self.sequence_decl(&sname, &p, format!("an alternative of {owner}"))?;
        variants.push(VariantDecl {
            name: vname,
            xml: None,
            any: false,
            ty: TypeExpr::one(Base::Named(sname)),
            doc: Some(Doc::markdown(
                "A sequence of elements (one alternative of the choice).",
            )),
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::*;

    const SCHEMA: &str = r###"
<xs:element name="Op"><xs:complexType><xs:sequence>
  <xs:choice><xs:element name="a" type="xs:string"/><xs:element name="b" type="xs:int"/></xs:choice>
  <xs:choice maxOccurs="unbounded">
    <xs:element name="c" type="xs:string"/>
    <xs:sequence><xs:element name="d" type="xs:int"/><xs:element name="e" type="xs:int"/></xs:sequence>
    <xs:any namespace="##other" processContents="lax"/>
  </xs:choice>
</xs:sequence></xs:complexType></xs:element>
<xs:element name="OpResponse"><xs:complexType/></xs:element>"###;

    fn choice<'m>(m: &'m Module, name: &str) -> &'m ChoiceDecl {
        match decl(m, name) {
            TypeDecl::Choice(c) => c,
            other => panic!("{name} is not a choice: {other:?}"),
        }
    }

    #[test]
    fn a_choice_once_is_a_group_field_holding_an_enum_of_its_elements() {
        let m = lower(SCHEMA);
        let f = field(strukt(&m, "Op"), "choice");
        assert_eq!(f.kind, FieldKind::Group);
        assert_eq!(f.ty.card, Occurrence::One);
        assert_eq!(f.ty.base, Base::Named("OpChoice".into()));
        let c = choice(&m, "OpChoice");
        let v: Vec<_> = c
            .variants
            .iter()
            .map(|v| (v.name.as_str(), v.xml.clone()))
            .collect();
        assert_eq!(v, [("A", Some(q("a"))), ("B", Some(q("b")))]);
        assert_eq!(c.variants[1].ty.base, Base::Std("i32"));
    }

    #[test]
    fn a_repeated_choice_is_a_vec_and_its_sequence_and_wildcard_are_variants() {
        let m = lower(SCHEMA);
        let f = field(strukt(&m, "Op"), "choice2");
        assert_eq!(
            (f.kind, f.ty.card, f.min_occurs),
            (FieldKind::Group, Occurrence::Many, 1)
        );
        let c = choice(&m, named(&f.ty.base));
        let names: Vec<_> = c.variants.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["C", "D", "Any"]);
        let seq = &c.variants[1];
        assert_eq!(seq.xml, None);
        let fields: Vec<_> = strukt(&m, named(&seq.ty.base))
            .fields
            .iter()
            .map(|f| f.xml.clone())
            .collect();
        assert_eq!(fields, [q("d"), q("e")]);
        let any = &c.variants[2];
        assert!(any.any);
        assert_eq!(any.ty.base, Base::Runtime("types::AnyElement"));
    }
}
