//! Derivation and substitution: the complexTypes derived from a named one become an `xsi:type`
//! enum (XML Schema Part 1 §2.6.1, §3.4.2), and the members of a substitution group its
//! alternatives (§3.3.2 {substitution group affiliation}, §3.3.6).

use std::collections::BTreeSet;

use super::context::{unsupported, Builder, TypeKey, R};
use crate::model::ir::*;
use crate::read::components::*;
use std::collections::VecDeque;

impl<'d> Builder<'d> {
    /// The types an element declared with the complexType `q` may hold (XML Schema Part 1 §3.4.6
    /// Type Derivation OK, §2.6.1): `q` unless abstract, then every type derived from it,
    /// transitively, abstract ones left out; breadth first, each level in name order; cycles cut.
    fn derivation_set(&self, q: &QName) -> Vec<QName> {
        let mut seen = BTreeSet::new();
        let mut queue = VecDeque::from([q.clone()]);
        let mut out = Vec::new();
        while let Some(t) = queue.pop_front() {
            if !seen.insert(t.clone()) {
                continue;
            }
            if matches!(self.schemas().types.get(&t), Some(TypeDef::Complex(ct)) if !ct.is_abstract)
            {
                out.push(t.clone());
            }
            if let Some(ds) = self.derived.get(&t) {
                queue.extend(ds.iter().cloned());
            }
        }
        out
    }

    /// The enum of the complexType `q` and its derived types (see [`TypeKey::Derivations`]).
    pub(super) fn derivations_decl(&mut self, name: String, q: &QName) -> R<()> {
        let Some(TypeDef::Complex(ct)) = self.schemas().types.get(q) else {
            return Ok(());
        };
        let is_abstract = ct.is_abstract;
        let set = self.derivation_set(q);
        if set.is_empty() {
            return Err(unsupported(
                format!("abstract complexType {q} with no concrete type derived from it"),
                &ct.loc,
            ));
        }
        let variants = set
            .into_iter()
            .map(|t| {
                let n = self.enqueue(TypeKey::Named(t.clone()));
                DerivedVariant {
                    name: n.clone(),
                    xsd_type: t,
                    ty: TypeExpr::one(Base::Named(n)),
                }
            })
            .collect();
        let doc = if is_abstract {
            format!(
                "A value of a type derived from the abstract complexType `{q}`, as its `xsi:type` says \
                 (XML Schema Part 1 §2.6.1)."
            )
        } else {
            format!(
                "A value of the complexType `{q}` (no `xsi:type`) or of a type derived from it, as its \
                 `xsi:type` says (XML Schema Part 1 §2.6.1)."
            )
        };
        self.decls.insert(
            name.clone(),
            TypeDecl::Derivations(DerivationsDecl {
                name,
                doc: Some(Doc::markdown(doc)),
                base: q.clone(),
                is_abstract,
                variants,
                uses: Uses::BOTH,
            }),
        );
        Ok(())
    }

    /// Whether a reference to `q` stands for more than one element: `q` is abstract or the head
    /// of a substitution group (XML Schema Part 1 §3.3.6, §2.2.2.3).
    pub(super) fn substitutable(&self, q: &QName) -> bool {
        self.members.contains_key(q)
            || self
                .schemas()
                .elements
                .get(q)
                .is_some_and(|e| e.is_abstract)
    }

    /// The elements that may appear where `head` is referenced (XML Schema Part 1 §3.3.6
    /// substitution group): `head` unless abstract, then every member, transitively, across all
    /// schemas read, abstract members left out (their own members kept); in document-independent
    /// order (head first, then breadth first, members by name). Each name once, cycles cut.
    pub(super) fn substitution_set(&self, head: &QName) -> Vec<QName> {
        let mut seen = BTreeSet::new();
        let mut queue = VecDeque::from([head.clone()]);
        let mut out = Vec::new();
        while let Some(q) = queue.pop_front() {
            if !seen.insert(q.clone()) {
                continue;
            }
            if self
                .schemas()
                .elements
                .get(&q)
                .is_some_and(|e| !e.is_abstract)
            {
                out.push(q.clone());
            }
            if let Some(ms) = self.members.get(&q) {
                queue.extend(ms.iter().cloned());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::*;

    const SHAPES: &str = r#"
<xs:complexType name="Shape" abstract="true"><xs:sequence><xs:element name="id" type="xs:string"/></xs:sequence></xs:complexType>
<xs:complexType name="Circle"><xs:complexContent><xs:extension base="tns:Shape"><xs:sequence><xs:element name="r" type="xs:double"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
<xs:complexType name="Square"><xs:complexContent><xs:extension base="tns:Shape"><xs:sequence><xs:element name="side" type="xs:double"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
<xs:complexType name="T"><xs:sequence><xs:element name="s" type="tns:Shape" maxOccurs="unbounded"/></xs:sequence></xs:complexType>"#;

    #[test]
    fn an_element_of_a_type_with_derivations_holds_the_kind_enum() {
        let m = lower_type(SHAPES);
        let f = field(strukt(&m, "T"), "s");
        assert_eq!(f.ty.base, Base::Named("ShapeKind".into()));
        let TypeDecl::Derivations(d) = decl(&m, "ShapeKind") else {
            panic!("ShapeKind is not a Derivations")
        };
        assert!(d.is_abstract, "an abstract base has no variant of its own");
        let v: Vec<_> = d
            .variants
            .iter()
            .map(|v| (v.name.as_str(), v.xsd_type.clone()))
            .collect();
        assert_eq!(v, [("Circle", q("Circle")), ("Square", q("Square"))]);
    }

    #[test]
    fn substitution_group_members_are_accepted_in_place_of_the_head() {
        let m = lower(
            r#"<xs:element name="item" type="xs:string"/>
<xs:element name="book" type="xs:string" substitutionGroup="tns:item"/>
<xs:element name="Op"><xs:complexType><xs:sequence><xs:element ref="tns:item"/></xs:sequence></xs:complexType></xs:element>
<xs:element name="OpResponse"><xs:complexType/></xs:element>"#,
        );
        let s = strukt(&m, "Op");
        assert_eq!(s.fields.len(), 1);
        let f = &s.fields[0];
        let alternatives = match decl(&m, named(&f.ty.base)) {
            TypeDecl::Choice(c) => c.variants.iter().map(|v| v.xml.clone()).collect::<Vec<_>>(),
            other => panic!("the head is not read as a choice: {other:?}"),
        };
        assert_eq!(alternatives, [Some(q("item")), Some(q("book"))]);
    }
}
