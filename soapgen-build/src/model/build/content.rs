//! Content models of complexTypes (XML Schema Part 1 §3.4.2 {content type}): element-only,
//! mixed, empty, simple content (an extension or restriction of a simple type with attributes),
//! and complex content derived by extension or restriction.

use std::collections::BTreeSet;

use super::context::{undefined, unsupported, Builder, R};
use super::fields::{push_any_attribute, Collector};
use crate::error::{Error, ErrorKind, Loc};
use crate::model::ir::*;
use crate::read::components::*;

impl<'d> Builder<'d> {
    /// Collects the fields of `ct`'s content and attributes, base types first.
    pub(super) fn content(
        &mut self,
        owner: &str,
        ct: &ComplexType,
        c: &mut Collector,
        depth: usize,
    ) -> R<()> {
        if depth > 64 {
            return Err(Error::at(
                ErrorKind::Invalid(
                    "type derivation deeper than 64 levels (a cycle of bases?)".into(),
                ),
                &ct.loc,
            ));
        }
        match &ct.content {
            Content::Empty => {
                if ct.mixed {
                    c.push(
                        "value",
                        text_field(
                            Base::Std("String"),
                            "The text content (mixed content without elements).",
                        ),
                    );
                }
            }
            Content::Particle(p) => {
                if ct.mixed {
                    push_mixed(c);
                } else {
                    self.particle(owner, p, Occurs::ONCE, false, c)?;
                }
            }
            Content::Simple { base, loc, .. } => {
                if ct.name.as_ref() == Some(base) {
                    return Err(Error::at(
                        ErrorKind::Invalid(format!(
                            "complexType {base} derives from itself (XML Schema Part 1 §3.4.6)"
                        )),
                        loc,
                    ));
                }
                self.simple_content(owner, base, loc, c, depth)?;
            }
            Content::Complex {
                derivation,
                base,
                particle,
                loc,
            } => {
                if ct.name.as_ref() == Some(base) {
                    return Err(Error::at(
                        ErrorKind::Invalid(format!(
                            "complexType {base} derives from itself (XML Schema Part 1 §3.4.6: a \
                             type's base is another type; only xs:redefine may name its own)"
                        )),
                        loc,
                    ));
                }
                if base.ns == "http://schemas.xmlsoap.org/soap/encoding/" && base.local == "Array" {
                    return Err(unsupported(
                        "SOAP-encoded arrays (soapenc:Array, rpc/encoded)",
                        loc,
                    ));
                }
                if ct.mixed {
                    // Mixed content: attributes stay typed, the content is kept as XML.
                    push_mixed(c);
                    self.attributes(&ct.attributes, c, &mut BTreeSet::new())?;
                    if ct.any_attribute {
                        push_any_attribute(c, ct.any_attribute_doc.as_ref());
                    }
                    return Ok(());
                }
                if *derivation == Derivation::Extension
                    && !(base.is_xs() && base.local == "anyType")
                {
                    let Some(TypeDef::Complex(bct)) = self.schemas().types.get(base).cloned()
                    else {
                        return Err(match self.schemas().types.get(base) {
                            Some(_) => unsupported(
                                format!("complexContent extension of the simple type {base}"),
                                loc,
                            ),
                            None => undefined(format!("base type {base}"), loc),
                        });
                    };
                    self.content(owner, &bct, c, depth + 1)?;
                } else if *derivation == Derivation::Restriction
                    && !(base.is_xs() && base.local == "anyType")
                {
                    // A restriction restates the content it keeps; attributes come from the base.
                    if let Some(TypeDef::Complex(bct)) = self.schemas().types.get(base).cloned() {
                        let mut battrs = Collector::new();
                        self.attributes(&bct.attributes, &mut battrs, &mut BTreeSet::new())?;
                        for f in battrs.fields {
                            let own = ct.attributes.iter().any(
                                |a| matches!(a, AttributeItem::Attribute(d) if d.name == f.xml),
                            );
                            if !own {
                                let xml_name = f.xml.local.clone();
                                c.push(&xml_name, f);
                            }
                        }
                    } else if !self.schemas().types.contains_key(base) {
                        return Err(undefined(format!("base type {base}"), loc));
                    }
                }
                if let Some(p) = particle {
                    self.particle(owner, p, Occurs::ONCE, false, c)?;
                }
            }
        }
        self.attributes(&ct.attributes, c, &mut BTreeSet::new())?;
        if ct.any_attribute {
            push_any_attribute(c, ct.any_attribute_doc.as_ref());
        }
        Ok(())
    }

    fn simple_content(
        &mut self,
        owner: &str,
        base: &QName,
        loc: &Loc,
        c: &mut Collector,
        depth: usize,
    ) -> R<()> {
        let complex_base = if base.is_xs() {
            None
        } else {
            match self.schemas().types.get(base).cloned() {
                Some(TypeDef::Complex(bct)) => Some(bct),
                Some(TypeDef::Simple(_)) => None,
                None => return Err(undefined(format!("base type {base}"), loc)),
            }
        };
        match complex_base {
            Some(bct) => {
                // Simple content of a complex base: its text and attributes, then ours.
                self.content(owner, &bct, c, depth + 1)
            }
            None => {
                let ty = self.named_type(base, loc)?;
                c.push("value", text_field(ty, "The simple content."));
                Ok(())
            }
        }
    }
}

/// Mixed content (text between elements, XML Schema Part 1 §3.4.2 {content type} mixed): kept whole
/// as XML, so nothing is lost.
fn push_mixed(c: &mut Collector) {
    c.fields
        .retain(|f| matches!(f.kind, FieldKind::Attribute | FieldKind::AnyAttribute));
    c.push(
        "content",
        FieldDecl {
            constraint: None,
            name: String::new(),
            xml: QName::new("", ""),
            kind: FieldKind::Content,
            ty: TypeExpr::one(Base::Runtime("types::AnyXml")),
            min_occurs: 0,
            doc: Some(Doc::markdown(
                "Mixed content (text and elements), kept as XML.",
            )),
        },
    );
}

/// The simple content of a complex type (XML Schema Part 1 §3.4.2 `{content type}` a simple type
/// definition, or mixed text): the field `#[xml(text)]` of type `base`.
fn text_field(base: Base, doc: &str) -> FieldDecl {
    FieldDecl {
        constraint: None,
        name: String::new(),
        xml: QName::new("", ""),
        kind: FieldKind::Text,
        ty: TypeExpr::one(base),
        min_occurs: 0,
        doc: Some(Doc::markdown(doc)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::*;

    #[test]
    fn simple_content_is_a_text_field_beside_the_attributes() {
        let m = lower(&format!(
            r#"{PRICE}
<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="p" type="tns:Price"/></xs:sequence></xs:complexType></xs:element>
<xs:element name="OpResponse"><xs:complexType/></xs:element>"#
        ));
        let s = strukt(&m, "Price");
        let got: Vec<_> = s.fields.iter().map(|f| (f.name.as_str(), f.kind)).collect();
        assert_eq!(
            got,
            [
                ("value", FieldKind::Text),
                ("currency", FieldKind::Attribute)
            ]
        );
        assert_eq!(s.fields[0].ty.base, Base::Runtime("types::Decimal"));
    }

    #[test]
    fn complex_content_by_extension_keeps_the_base_fields_first() {
        let m = lower(
            r#"<xs:complexType name="Base"><xs:sequence><xs:element name="id" type="xs:string"/></xs:sequence>
  <xs:attribute name="v" type="xs:int"/></xs:complexType>
<xs:complexType name="Ext"><xs:complexContent><xs:extension base="tns:Base">
  <xs:sequence><xs:element name="extra" type="xs:string"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="e" type="tns:Ext"/></xs:sequence></xs:complexType></xs:element>
<xs:element name="OpResponse"><xs:complexType/></xs:element>"#,
        );
        let names: Vec<_> = strukt(&m, "Ext")
            .fields
            .iter()
            .map(|f| f.name.as_str())
            .collect();
        // XML Schema Part 1 §3.4.2: the base type's content and attribute uses come first.
        assert_eq!(names, ["id", "v", "extra"]);
    }

    #[test]
    fn mixed_content_is_kept_as_xml() {
        let m = lower(
            r#"<xs:element name="Op"><xs:complexType mixed="true"><xs:sequence><xs:element name="b" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
<xs:element name="OpResponse"><xs:complexType/></xs:element>"#,
        );
        let kinds: Vec<_> = strukt(&m, "Op").fields.iter().map(|f| f.kind).collect();
        assert!(kinds.contains(&FieldKind::Content), "{kinds:?}");
    }
}
