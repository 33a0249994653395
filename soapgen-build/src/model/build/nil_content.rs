//! Nil elements that keep their attributes (XML Schema Part 1 §2.6.2, §3.3.4 clause 3.2: an
//! element with `xsi:nil="true"` has no content but may have attributes). A simpleContent struct
//! with attributes that is the type of a nillable element gets its text field as `Nillable<T>`,
//! so that `<price currency="EUR" xsi:nil="true"/>` reads as a value whose attribute is kept and
//! whose content is nil, and writes back the same; the same struct elsewhere reads and writes as
//! before with a `Nillable::Value` content.
//!
//! Nil then has one shape: the elements of such a struct are not nillable a second time around
//! it (a `Nillable<Price>` field becomes `Price`, `OptionalNillable<Price>` becomes
//! `Option<Price>`, a nillable list a plain one), so that `<price xsi:nil="true"/>` is
//! `Price { value: Nil, currency: None }` and nothing else.

use std::collections::BTreeSet;

use super::context::Builder;
use crate::model::ir::*;

impl<'d> Builder<'d> {
    /// Makes the text field of every simpleContent struct with attributes that a nillable field,
    /// variant, parameter or result holds `Nillable<T>` (once: a field already nillable stays).
    pub(super) fn nil_content(&mut self, clients: &mut [ClientDecl]) {
        let mut nillable: BTreeSet<String> = BTreeSet::new();
        let mut note = |ty: &TypeExpr| {
            if let (
                Base::Named(n),
                Occurrence::Nillable | Occurrence::OptionalNillable | Occurrence::ManyNillable,
            ) = (&ty.base, ty.card)
            {
                nillable.insert(n.clone());
            }
        };
        for d in self.decls.values() {
            match d {
                TypeDecl::Struct(s) => s.fields.iter().for_each(|f| note(&f.ty)),
                TypeDecl::Choice(c) => c.variants.iter().for_each(|v| note(&v.ty)),
                _ => {}
            }
        }
        for op in clients.iter().flat_map(|c| c.operations.iter()) {
            op.params.iter().for_each(|p| note(&p.ty));
            op.ret.iter().for_each(&mut note);
        }
        // Through type aliases to the struct they name.
        let resolved: BTreeSet<String> = nillable
            .iter()
            .map(|n| resolve_alias(&self.decls, n))
            .collect();
        let mut inner_nil: BTreeSet<String> = BTreeSet::new();
        for n in resolved {
            let Some(TypeDecl::Struct(s)) = self.decls.get_mut(&n) else {
                continue;
            };
            let has_attributes = s
                .fields
                .iter()
                .any(|f| matches!(f.kind, FieldKind::Attribute | FieldKind::AnyAttribute));
            if !has_attributes {
                continue;
            }
            for f in &mut s.fields {
                if f.kind == FieldKind::Text && f.ty.card == Occurrence::One && !f.ty.boxed {
                    f.ty.card = Occurrence::Nillable;
                    inner_nil.insert(n.clone());
                }
            }
        }
        if inner_nil.is_empty() {
            return;
        }
        // One shape for nil: the struct's content carries it, the element around it does not.
        let decls = &self.decls;
        let flatten = |ty: &mut TypeExpr| {
            let Base::Named(n) = &ty.base else { return };
            if !inner_nil.contains(&resolve_alias(decls, n)) {
                return;
            }
            ty.card = match ty.card {
                Occurrence::Nillable => Occurrence::One,
                Occurrence::OptionalNillable => Occurrence::Optional,
                Occurrence::ManyNillable => Occurrence::Many,
                other => other,
            };
        };
        let mut edits: Vec<(String, usize, TypeExpr)> = Vec::new();
        for (name, d) in decls {
            let tys: Vec<&TypeExpr> = match d {
                TypeDecl::Struct(s) => s.fields.iter().map(|f| &f.ty).collect(),
                TypeDecl::Choice(c) => c.variants.iter().map(|v| &v.ty).collect(),
                _ => continue,
            };
            for (i, ty) in tys.into_iter().enumerate() {
                let mut t = ty.clone();
                flatten(&mut t);
                if t.card != ty.card {
                    edits.push((name.clone(), i, t));
                }
            }
        }
        for op in clients.iter_mut().flat_map(|c| c.operations.iter_mut()) {
            op.params.iter_mut().for_each(|p| flatten(&mut p.ty));
            op.ret.iter_mut().for_each(&flatten);
        }
        for (name, i, t) in edits {
            match self.decls.get_mut(&name) {
                Some(TypeDecl::Struct(s)) => s.fields[i].ty = t,
                Some(TypeDecl::Choice(c)) => c.variants[i].ty = t,
                _ => {}
            }
        }
    }
}

/// `name`, or the struct a chain of type aliases from it names.
fn resolve_alias(decls: &std::collections::BTreeMap<String, TypeDecl>, name: &str) -> String {
    let mut n = name.to_owned();
    for _ in 0..8 {
        match decls.get(&n) {
            Some(TypeDecl::Alias(AliasDecl {
                target: Base::Named(t),
                ..
            })) => n = t.clone(),
            _ => break,
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::*;

    #[test]
    fn simple_content_of_a_nillable_element_with_attributes_is_nillable() {
        let m = lower(&format!(
            r#"{PRICE}
               <xs:complexType name="Bare"><xs:simpleContent><xs:extension base="xs:decimal"/>
                 </xs:simpleContent></xs:complexType>
               <xs:complexType name="Other"><xs:simpleContent><xs:extension base="xs:int">
                 <xs:attribute name="unit" type="xs:string"/></xs:extension></xs:simpleContent>
               </xs:complexType>
               <xs:element name="Op"><xs:complexType><xs:sequence>
                 <xs:element name="price" type="tns:Price" nillable="true"/>
                 <xs:element name="bare" type="tns:Bare" nillable="true"/>
               </xs:sequence></xs:complexType></xs:element>
               <xs:element name="OpResponse"><xs:complexType><xs:sequence>
                 <xs:element name="other" type="tns:Other"/>
               </xs:sequence></xs:complexType></xs:element>"#
        ));
        let text = |name: &str| {
            let s = strukt(&m, name);
            let f = s.fields.iter().find(|f| f.kind == FieldKind::Text);
            f.map(|f| f.ty.card).unwrap()
        };
        assert_eq!(text("Price"), Occurrence::Nillable);
        // One shape for nil: the element of that type is not nillable around it (the wrapper's
        // children are the operation's parameters).
        let op = &m.clients[0].operations[0];
        let card = |name: &str| {
            op.params
                .iter()
                .find(|p| p.xml.local == name)
                .unwrap()
                .ty
                .card
        };
        assert_eq!(card("price"), Occurrence::One);
        assert_eq!(card("bare"), Occurrence::Nillable);
        // No attributes to keep: plain nil one level up.
        assert_eq!(text("Bare"), Occurrence::One);
        // Not the type of a nillable element.
        assert_eq!(text("Other"), Occurrence::One);
    }
}
