//! Element declarations (XML Schema Part 1 §3.3) as fields: global or local, by type or anonymous,
//! nillable, with their occurrence.

use super::context::{undefined, unsupported, Builder, TypeKey, R};
use super::fields::{card, Collector};
use crate::error::{Error, ErrorKind, Loc};
use crate::model::ir::*;
use crate::read::components::*;

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
                doc: doc.map(Doc::prose),
            },
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::*;

    #[test]
    fn local_elements_take_their_form_refs_their_global_name() {
        let m = lower_type(
            r#"<xs:element name="Top" type="xs:string"/>
<xs:complexType name="T"><xs:sequence>
  <xs:element name="one" type="xs:int"/>
  <xs:element name="local" type="xs:int" form="unqualified"/>
  <xs:element ref="tns:Top" minOccurs="0"/>
  <xs:element name="never" type="xs:int" maxOccurs="0"/>
</xs:sequence></xs:complexType>"#,
        );
        let t = strukt(&m, "T");
        assert_eq!(
            occurrences(t),
            [
                ("one", Occurrence::One, 0),
                ("local", Occurrence::One, 0),
                ("top", Occurrence::Optional, 0),
            ],
            "maxOccurs=\"0\" declares no field (XML Schema Part 1 §3.9.1)"
        );
        assert_eq!(
            field(t, "one").xml,
            q("one"),
            "elementFormDefault qualified"
        );
        assert_eq!(field(t, "local").xml.ns, "", "form=\"unqualified\" wins");
        assert_eq!(field(t, "top").xml, q("Top"), "a ref takes the global name");
        assert_eq!(field(t, "top").ty.base, Base::Std("String"));
    }

    #[test]
    fn an_anonymous_type_is_named_after_its_element() {
        let m = lower_sequence(
            r#"  <xs:element name="address"><xs:complexType><xs:sequence><xs:element name="city" type="xs:string"/></xs:sequence></xs:complexType></xs:element>"#,
        );
        let ty = &field(strukt(&m, "T"), "address").ty;
        let inner = strukt(&m, named(&ty.base));
        assert_eq!(inner.fields.len(), 1);
        assert_eq!(inner.fields[0].xml, q("city"));
    }

    #[test]
    fn an_undefined_element_ref_is_an_error_with_a_hint() {
        let wsdl = document_wsdl(
            r#"<xs:element name="Op"><xs:complexType><xs:sequence><xs:element ref="tns:Missing"/></xs:sequence></xs:complexType></xs:element>
<xs:element name="OpResponse"><xs:complexType/></xs:element>"#,
            r#"<message name="In"><part name="p" element="tns:Op"/></message>
<message name="Out"><part name="p" element="tns:OpResponse"/></message>
<portType name="Svc"><operation name="Op"><input message="tns:In"/><output message="tns:Out"/></operation></portType>"#,
            r#"<operation name="Op"><soap:operation soapAction=""/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>"#,
        );
        let path = std::path::Path::new("/soapgen-ir-test/t.wsdl");
        let e = crate::Builder::new()
            .document(path, &wsdl)
            .generate_one(path)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(e.contains("Missing") && e.contains("t.wsdl:"), "{e}");
    }
}
