//! Simple types (XML Schema Part 2 §4.1): restrictions of built-ins become aliases or enums (an
//! `enumeration` facet, §4.3.5), lists and unions their Rust shapes.

use std::collections::BTreeSet;

use super::context::{prose, Builder, R};
use crate::model::ir::*;
use crate::model::names::{self, Scope};
use crate::read::components::*;

impl<'d> Builder<'d> {
    /// The Rust type of a simple type: an enum for enumerations (named `hint` when anonymous),
    /// otherwise what it restricts, `List<…>` for lists, `String` for unions (lossless).
    pub(super) fn simple_base(&mut self, st: &SimpleType, hint: Option<&str>) -> R<Base> {
        match &st.variety {
            SimpleVariety::Restriction {
                base, enumerations, ..
            } => {
                if !enumerations.is_empty() {
                    let name = self.scope.unique(hint.unwrap_or("Enumeration"));
                    let decl =
                        enum_decl(&name, st, enumerations, "anonymous simpleType".to_owned());
                    self.decls.insert(name.clone(), TypeDecl::Enum(decl));
                    return Ok(Base::Named(name));
                }
                self.type_ref(Some(base), hint.unwrap_or("Value"))
            }
            SimpleVariety::List { item } => {
                let item = self.type_ref(Some(item), &format!("{}Item", hint.unwrap_or("List")))?;
                Ok(Base::List(Box::new(item)))
            }
            SimpleVariety::Union { .. } => Ok(Base::Std("String")),
        }
    }

    /// Whether a declared element type is a simple type (XML Schema Part 2), whose values the
    /// runtime reads from text; `None` (no type: `xs:anyType`) is not.
    pub(super) fn is_simple_type(&self, ty: Option<&TypeRef>) -> bool {
        match ty {
            None => false,
            Some(TypeRef::Anonymous(td)) => matches!(&**td, TypeDef::Simple(_)),
            Some(TypeRef::Named(q, _)) if q.is_xs() => q.local != "anyType",
            Some(TypeRef::Named(q, _)) => {
                matches!(self.schemas().types.get(q), Some(TypeDef::Simple(_)))
            }
        }
    }
}

pub(super) fn enum_decl(
    name: &str,
    st: &SimpleType,
    values: &[String],
    origin: String,
) -> EnumDecl {
    let mut scope = Scope::new();
    let mut seen = BTreeSet::new();
    let values = values
        .iter()
        .filter(|v| seen.insert((*v).clone()))
        .map(|v| (scope.unique(&names::variant_name(v)), v.clone()))
        .collect();
    let value_docs = match &st.variety {
        SimpleVariety::Restriction {
            enumeration_docs, ..
        } => enumeration_docs
            .iter()
            .map(|(v, d)| (v.clone(), Doc::prose(d)))
            .collect(),
        _ => Vec::new(),
    };
    EnumDecl {
        name: name.to_owned(),
        doc: prose(st.doc.as_ref()),
        origin,
        xsd_type: None,
        values,
        value_docs,
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::*;

    #[test]
    fn an_enumeration_is_an_enum_and_other_facets_an_alias() {
        let m = lower(
            r#"<xs:simpleType name="Color"><xs:restriction base="xs:string"><xs:enumeration value="red"/><xs:enumeration value="dark-blue"/></xs:restriction></xs:simpleType>
<xs:simpleType name="Code"><xs:restriction base="xs:string"><xs:maxLength value="3"/></xs:restriction></xs:simpleType>
<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="c" type="tns:Color"/><xs:element name="k" type="tns:Code"/></xs:sequence></xs:complexType></xs:element>
<xs:element name="OpResponse"><xs:complexType/></xs:element>"#,
        );
        let TypeDecl::Enum(e) = decl(&m, "Color") else {
            panic!("Color is not an enum")
        };
        assert_eq!(
            e.values,
            [
                ("Red".into(), "red".into()),
                ("DarkBlue".into(), "dark-blue".into())
            ]
        );
        let TypeDecl::Alias(a) = decl(&m, "Code") else {
            panic!("Code is not an alias")
        };
        assert_eq!(a.target, Base::Std("String"));
        assert!(
            a.doc
                .as_ref()
                .is_some_and(|d| d.to_string().contains("maxLength")),
            "facets are documented"
        );
    }

    #[test]
    fn a_list_type_is_a_runtime_list_of_its_item() {
        let m = lower_type(
            r#"<xs:simpleType name="Ints"><xs:list itemType="xs:int"/></xs:simpleType>
<xs:complexType name="T"><xs:sequence><xs:element name="l" type="tns:Ints"/></xs:sequence></xs:complexType>"#,
        );
        let ty = &field(strukt(&m, "T"), "l").ty.base;
        let list = match ty {
            Base::Named(n) => match decl(&m, n) {
                TypeDecl::Alias(a) => a.target.clone(),
                other => panic!("{other:?}"),
            },
            other => other.clone(),
        };
        assert_eq!(list, Base::List(Box::new(Base::Std("i32"))));
    }
}
