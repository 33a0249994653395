//! Attribute uses (XML Schema Part 1 §3.2, §3.5 attribute groups, §3.10 `anyAttribute`) as
//! fields, with their `default`/`fixed` value constraints (§3.2.1).

use std::collections::BTreeSet;

use super::context::{append_doc, prose, undefined, Builder, R};
use super::fields::{push_any_attribute, Collector};
use crate::model::ir::*;
use crate::model::names;
use crate::read::components::*;

impl<'d> Builder<'d> {
    pub(super) fn attributes(
        &mut self,
        items: &[AttributeItem],
        c: &mut Collector,
        seen_groups: &mut BTreeSet<QName>,
    ) -> R<()> {
        for item in items {
            match item {
                AttributeItem::GroupRef(q, loc) => {
                    if !seen_groups.insert(q.clone()) {
                        continue;
                    }
                    let Some(g) = self.schemas().attribute_groups.get(q).cloned() else {
                        return Err(undefined(format!("attribute group {q}"), loc));
                    };
                    self.attributes(&g.attributes, c, seen_groups)?;
                    if g.any_attribute {
                        push_any_attribute(c, g.any_attribute_doc.as_ref());
                    }
                }
                AttributeItem::Attribute(a) => {
                    if a.use_ == AttributeUse::Prohibited {
                        continue;
                    }
                    if c.fields
                        .iter()
                        .any(|f| f.kind == FieldKind::Attribute && f.xml == a.name)
                    {
                        continue;
                    }
                    let (ty_ref, doc) = if a.is_ref {
                        match self.schemas().attributes.get(&a.name).cloned() {
                            Some(g) => (g.ty, prose(a.doc.as_ref().or(g.doc.as_ref()))),
                            // xml:lang and friends without xml.xsd loaded: plain strings.
                            None if a.name.ns == "http://www.w3.org/XML/1998/namespace" => {
                                (None, prose(a.doc.as_ref()))
                            }
                            None => return Err(undefined(format!("attribute {}", a.name), &a.loc)),
                        }
                    } else {
                        (a.ty.clone(), prose(a.doc.as_ref()))
                    };
                    let base = match &ty_ref {
                        None => Base::Std("String"),
                        Some(t) => {
                            let hint = format!("{}Attribute", names::type_name(&a.name.local));
                            self.type_ref(Some(t), &hint)?
                        }
                    };
                    let card = if a.use_ == AttributeUse::Required {
                        Occurrence::One
                    } else {
                        Occurrence::Optional
                    };
                    let mut doc = doc;
                    // A value constraint (XML Schema Part 1 §3.2.1): an absent attribute reads as
                    // it, so the field holds a value (prohibited attributes are never generated).
                    let constraint = match (&a.fixed, &a.default) {
                        (Some(f), _) => Some((f.clone(), true)),
                        (None, Some(d)) => Some((d.clone(), false)),
                        (None, None) => None,
                    };
                    let card = if constraint.is_some() {
                        Occurrence::One
                    } else {
                        card
                    };
                    if let Some((d, fixed)) = &constraint {
                        let what = if *fixed { "Fixed value" } else { "Default" };
                        let line = format!("{what} when absent: `{d}`.");
                        append_doc(&mut doc, Paragraph::Markdown(line));
                    }
                    c.push(
                        &a.name.local.clone(),
                        FieldDecl {
                            constraint,
                            name: String::new(),
                            xml: a.name.clone(),
                            kind: FieldKind::Attribute,
                            ty: TypeExpr {
                                base,
                                card,
                                boxed: false,
                            },
                            min_occurs: 0,
                            doc,
                        },
                    );
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::*;

    #[test]
    fn attribute_uses_carry_occurrence_and_value_constraints() {
        let m = lower(
            r###"<xs:element name="Op"><xs:complexType>
  <xs:attribute name="req" type="xs:string" use="required"/>
  <xs:attribute name="opt" type="xs:int"/>
  <xs:attribute name="dflt" type="xs:int" default="3"/>
  <xs:attribute name="fix" type="xs:string" fixed="1.0"/>
  <xs:anyAttribute namespace="##other"/>
</xs:complexType></xs:element>
<xs:element name="OpResponse"><xs:complexType/></xs:element>"###,
        );
        let s = strukt(&m, "Op");
        let got: Vec<_> = s
            .fields
            .iter()
            .map(|f| (f.name.as_str(), f.kind, f.ty.card, f.constraint.clone()))
            .collect();
        let a = FieldKind::Attribute;
        assert_eq!(got[0], ("req", a, Occurrence::One, None));
        assert_eq!(got[1], ("opt", a, Occurrence::Optional, None));
        assert_eq!(
            got[2],
            ("dflt", a, Occurrence::One, Some(("3".into(), false)))
        );
        assert_eq!(got[3].3, Some(("1.0".into(), true)));
        assert_eq!(got[4].1, FieldKind::AnyAttribute);
        assert_eq!(
            field(s, "req").xml.ns,
            "",
            "unqualified by default (§3.2.2)"
        );
    }
}
