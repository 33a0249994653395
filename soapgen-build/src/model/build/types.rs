//! Type dispatch: a QName or inline type reference becomes a `Base` (a built-in, or a named
//! declaration queued for generation), and each queued type becomes its declaration (XML Schema Part 1
//! §3.4 complexType, §3.14 simpleType, §3.3 element with an anonymous type).

use super::context::{append_doc, prose, undefined, unsupported, Builder, TypeKey, R};
use super::simple::enum_decl;
use super::soapenc::{is_soap_array, is_soap_enc_ns, is_swa_ref};
use crate::error::Loc;
use crate::model::ir::*;
use crate::read::components::*;

impl<'d> Builder<'d> {
    pub(super) fn enqueue(&mut self, key: TypeKey) -> String {
        let name = self.names[&key].clone();
        if self.queued.insert(key.clone()) {
            self.queue.push_back(key);
        }
        name
    }

    /// The Rust type of a named type reference.
    pub(super) fn named_type(&mut self, q: &QName, loc: &Loc) -> R<Base> {
        if is_swa_ref(q) {
            // WS-I AP 1.0 §4.4: whether its schema is bundled or declared inline, an attachment.
            return Ok(Base::Runtime("types::SwaRef"));
        }
        if q.is_xs() {
            return builtin(&q.local)
                .ok_or_else(|| undefined(format!("XML Schema built-in type {q}"), loc));
        }
        if q.ns == "http://schemas.xmlsoap.org/soap/encoding/" {
            if let Some(b) = builtin(&q.local) {
                // SOAP-ENC re-declares the built-ins (SOAP 1.1 §5.2.1).
                return Ok(b);
            }
        }
        if is_soap_enc_ns(&q.ns) && q.local == "Array" {
            // An array of anything (SOAP 1.1 §5.4.2): the items kept as XML.
            return Ok(Base::SoapArray(Box::new(Base::Runtime("types::AnyXml"))));
        }
        if let Some(TypeDef::Complex(ct)) = self.schemas().types.get(q) {
            if is_soap_array(ct) {
                if self.arrays.contains(q) {
                    return Err(unsupported(
                        format!("SOAP-ENC array type {q} whose items are arrays of itself"),
                        loc,
                    ));
                }
                self.arrays.push(q.clone());
                let item = self.soap_array_item(ct, &q.local);
                self.arrays.pop();
                return Ok(Base::SoapArray(Box::new(item?)));
            }
        }
        if q.ns == "http://xml.apache.org/xml-soap" && !self.schemas().types.contains_key(q) {
            // Apache SOAP / Axis 1 Map, Vector, Element, DataHandler: used by rpc/encoded WSDLs
            // without their schema; their content kept as XML.
            return Ok(Base::Runtime("types::AnyXml"));
        }
        let Some(def) = self.schemas().types.get(q) else {
            return Err(undefined(format!("type {q}"), loc).with_hint(
                "check the prefix's namespace and that the schema defining it is imported",
            ));
        };
        match def {
            TypeDef::Simple(st) => match &st.variety {
                SimpleVariety::Restriction { enumerations, .. } if enumerations.is_empty() => {
                    Ok(Base::Named(self.enqueue(TypeKey::Named(q.clone()))))
                }
                _ => Ok(Base::Named(self.enqueue(TypeKey::Named(q.clone())))),
            },
            TypeDef::Complex(_) if self.derived.contains_key(q) => {
                // Types derive from it: the element may hold any of them (xsi:type, §2.6.1).
                Ok(Base::Named(self.enqueue(TypeKey::Derivations(q.clone()))))
            }
            TypeDef::Complex(_) => Ok(Base::Named(self.enqueue(TypeKey::Named(q.clone())))),
        }
    }

    /// The Rust type of an element's or attribute's type; anonymous types are generated in place,
    /// named after `hint`.
    pub(super) fn type_ref(&mut self, ty: Option<&TypeRef>, hint: &str) -> R<Base> {
        match ty {
            None => Ok(Base::Runtime("types::AnyXml")),
            Some(TypeRef::Named(q, loc)) => self.named_type(q, loc),
            Some(TypeRef::Anonymous(td)) => match &**td {
                TypeDef::Simple(st) => self.simple_base(st, Some(hint)),
                TypeDef::Complex(ct) if is_soap_array(ct) => {
                    let item = self.soap_array_item(ct, hint)?;
                    Ok(Base::SoapArray(Box::new(item)))
                }
                TypeDef::Complex(ct) => {
                    let name = self.scope.unique(hint);
                    let decl =
                        self.struct_decl(&name, ct, format!("anonymous complexType of {hint}"))?;
                    self.decls.insert(name.clone(), TypeDecl::Struct(decl));
                    Ok(Base::Named(name))
                }
            },
        }
    }

    pub(super) fn type_decl(&mut self, key: &TypeKey) -> R<()> {
        let name = self.names[key].clone();
        match key {
            TypeKey::Named(q) => {
                let def = self.schemas().types[q].clone();
                match def {
                    TypeDef::Complex(ct) => {
                        let mut d = self.struct_decl(&name, &ct, format!("complexType {q}"))?;
                        d.xsd_type = Some(q.clone());
                        self.decls.insert(name, TypeDecl::Struct(d));
                    }
                    TypeDef::Simple(st) => {
                        let origin = format!("simpleType {q}");
                        match &st.variety {
                            SimpleVariety::Restriction { enumerations, .. }
                                if !enumerations.is_empty() =>
                            {
                                let mut d = enum_decl(&name, &st, enumerations, origin);
                                d.xsd_type = Some(q.clone());
                                self.decls.insert(name, TypeDecl::Enum(d));
                            }
                            _ => {
                                let target =
                                    self.simple_base(&st, Some(&format!("{name}Value")))?;
                                let mut doc = prose(st.doc.as_ref());
                                if let SimpleVariety::Restriction { facets, .. } = &st.variety {
                                    if !facets.is_empty() {
                                        let f = facets
                                            .iter()
                                            .map(|(k, v)| format!("`{k}` = `{v}`"))
                                            .collect::<Vec<_>>()
                                            .join(", ");
                                        let line = format!("Facets (not checked): {f}.");
                                        append_doc(&mut doc, Paragraph::Markdown(line));
                                    }
                                }
                                if let SimpleVariety::Union { members } = &st.variety {
                                    let line = format!(
                                        "A union of {} member types, kept as its text.",
                                        members.len()
                                    );
                                    append_doc(&mut doc, Paragraph::Markdown(line));
                                }
                                self.decls.insert(
                                    name.clone(),
                                    TypeDecl::Alias(AliasDecl {
                                        name,
                                        doc,
                                        origin,
                                        target,
                                    }),
                                );
                            }
                        }
                    }
                }
            }
            TypeKey::Derivations(q) => self.derivations_decl(name, q)?,
            TypeKey::Element(q) => {
                let e = self.schemas().elements[q].clone();
                let Some(TypeRef::Anonymous(td)) = &e.ty else {
                    return Ok(());
                };
                match &**td {
                    TypeDef::Complex(ct) => {
                        let mut d = self.struct_decl(&name, ct, format!("element {q}"))?;
                        if d.doc.is_none() {
                            d.doc = prose(e.doc.as_ref());
                        }
                        self.decls.insert(name, TypeDecl::Struct(d));
                    }
                    TypeDef::Simple(st) => {
                        let origin = format!("element {q}");
                        match &st.variety {
                            SimpleVariety::Restriction { enumerations, .. }
                                if !enumerations.is_empty() =>
                            {
                                let d = enum_decl(&name, st, enumerations, origin);
                                self.decls.insert(name, TypeDecl::Enum(d));
                            }
                            _ => {
                                let target = self.simple_base(st, Some(&format!("{name}Value")))?;
                                self.decls.insert(
                                    name.clone(),
                                    TypeDecl::Alias(AliasDecl {
                                        name,
                                        doc: prose(e.doc.as_ref()),
                                        origin,
                                        target,
                                    }),
                                );
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// XSD built-in types (XML Schema Part 2 §3) and their Rust types.
fn builtin(local: &str) -> Option<Base> {
    Some(match local {
        "string" | "normalizedString" | "token" | "language" | "Name" | "NCName" | "ID"
        | "IDREF" | "ENTITY" | "NMTOKEN" | "anyURI" | "NOTATION" | "anySimpleType" => {
            Base::Std("String")
        }
        "boolean" => Base::Std("bool"),
        "float" => Base::Std("f32"),
        "double" => Base::Std("f64"),
        "decimal" => Base::Runtime("types::Decimal"),
        "integer" | "nonPositiveInteger" | "negativeInteger" | "nonNegativeInteger"
        | "positiveInteger" => Base::Runtime("types::Integer"),
        "long" => Base::Std("i64"),
        "int" => Base::Std("i32"),
        "short" => Base::Std("i16"),
        "byte" => Base::Std("i8"),
        "unsignedLong" => Base::Std("u64"),
        "unsignedInt" => Base::Std("u32"),
        "unsignedShort" => Base::Std("u16"),
        "unsignedByte" => Base::Std("u8"),
        "dateTime" => Base::Runtime("types::DateTime"),
        "date" => Base::Runtime("types::Date"),
        "time" => Base::Runtime("types::Time"),
        "duration" => Base::Runtime("types::Duration"),
        "gYear" => Base::Runtime("types::GYear"),
        "gYearMonth" => Base::Runtime("types::GYearMonth"),
        "gMonth" => Base::Runtime("types::GMonth"),
        "gMonthDay" => Base::Runtime("types::GMonthDay"),
        "gDay" => Base::Runtime("types::GDay"),
        "base64Binary" => Base::Runtime("types::Base64Binary"),
        "hexBinary" => Base::Runtime("types::HexBinary"),
        "QName" => Base::Runtime("types::QName"),
        "IDREFS" | "NMTOKENS" | "ENTITIES" => Base::List(Box::new(Base::Std("String"))),
        "anyType" => Base::Runtime("types::AnyXml"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::*;

    #[test]
    fn built_ins_map_to_std_and_runtime_types() {
        let m = lower_sequence(
            r#"  <xs:element name="s" type="xs:token"/>
  <xs:element name="i" type="xs:int"/>
  <xs:element name="u" type="xs:unsignedLong"/>
  <xs:element name="d" type="xs:decimal"/>
  <xs:element name="n" type="xs:positiveInteger"/>
  <xs:element name="t" type="xs:dateTime"/>
  <xs:element name="b" type="xs:base64Binary"/>
  <xs:element name="l" type="xs:NMTOKENS"/>
  <xs:element name="a" type="xs:anyType"/>"#,
        );
        let t = strukt(&m, "T");
        let base = |n: &str| field(t, n).ty.base.clone();
        assert_eq!(base("s"), Base::Std("String"));
        assert_eq!(base("i"), Base::Std("i32"));
        assert_eq!(base("u"), Base::Std("u64"));
        assert_eq!(base("d"), Base::Runtime("types::Decimal"));
        assert_eq!(base("n"), Base::Runtime("types::Integer"));
        assert_eq!(base("t"), Base::Runtime("types::DateTime"));
        assert_eq!(base("b"), Base::Runtime("types::Base64Binary"));
        assert_eq!(base("l"), Base::List(Box::new(Base::Std("String"))));
        assert_eq!(base("a"), Base::Runtime("types::AnyXml"));
    }

    #[test]
    fn a_named_type_is_declared_once_however_often_it_is_used() {
        let m = lower_type(
            r#"<xs:complexType name="Money"><xs:sequence><xs:element name="v" type="xs:decimal"/></xs:sequence></xs:complexType>
<xs:complexType name="T"><xs:sequence>
  <xs:element name="price" type="tns:Money"/>
  <xs:element name="tax" type="tns:Money" minOccurs="0"/>
</xs:sequence></xs:complexType>"#,
        );
        let t = strukt(&m, "T");
        assert_eq!(named(&field(t, "price").ty.base), "Money");
        assert_eq!(named(&field(t, "tax").ty.base), "Money");
        assert_eq!(m.types.iter().filter(|d| d.name() == "Money").count(), 1);
    }
}
