//! Simple types (XML Schema Part 2 §4.1): restrictions of built-ins become aliases or enums (an
//! `enumeration` facet, §4.3.5), lists and unions their Rust shapes.

use super::*;

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
    EnumDecl {
        name: name.to_owned(),
        doc: st.doc.clone(),
        origin,
        xsd_type: None,
        values,
    }
}
