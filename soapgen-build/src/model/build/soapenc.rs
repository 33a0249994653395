//! SOAP 1.1 §5 encoding: SOAP-ENC arrays (§5.4.2, `soapenc:arrayType`) and SOAP 1.2 Part 2 §4
//! arrays become `Vec`s of their item type; the WS-I `swaRef` type (Attachments Profile 1.0 §4.4)
//! is recognised.

use super::context::{Builder, R};
use crate::model::ir::*;
use crate::read::components::*;

impl<'d> Builder<'d> {
    /// The item type of a SOAP-ENC array type (SOAP 1.1 §5.4.2; WSDL 1.1 §2.2): from
    /// `wsdl:arrayType="ns:T[]"` on the `soapenc:arrayType` attribute, else from the one element the
    /// restriction declares, else `anyType` (kept as XML).
    pub(super) fn soap_array_item(&mut self, ct: &ComplexType, hint: &str) -> R<Base> {
        for a in &ct.attributes {
            if let AttributeItem::Attribute(d) = a {
                if is_soap_enc_ns(&d.name.ns)
                    && matches!(d.name.local.as_str(), "arrayType" | "itemType")
                {
                    if let Some(item) = &d.array_type {
                        return self.named_type(item, &d.loc);
                    }
                }
            }
        }
        if let Content::Complex {
            particle: Some(p), ..
        } = &ct.content
        {
            let mut stack = vec![p];
            while let Some(p) = stack.pop() {
                match &p.term {
                    Term::Element(le) => {
                        return self.type_ref(le.ty.as_ref(), &format!("{hint}Item"));
                    }
                    Term::Sequence(ps) | Term::Choice(ps) | Term::All(ps) if ps.len() == 1 => {
                        stack.push(&ps[0]);
                    }
                    _ => {}
                }
            }
        }
        Ok(Base::Runtime("types::AnyXml"))
    }
}

/// The namespace of the WS-I `swaRef` type (WS-I Attachments Profile 1.0 §4.4).
const SWAREF_NS: &str = "http://ws-i.org/profiles/basic/1.1/xsd";

/// Whether `q` is `{http://ws-i.org/profiles/basic/1.1/xsd}swaRef`, generated as the runtime's
/// `types::SwaRef` (an attachment referenced by a `cid:` URL) rather than the `anyURI` its schema
/// restricts.
pub(super) fn is_swa_ref(q: &QName) -> bool {
    q.ns == SWAREF_NS && q.local == "swaRef"
}

/// Whether `ns` is the SOAP 1.1 encoding namespace (SOAP 1.1 §5) or SOAP 1.2's (SOAP 1.2 Part 2
/// §4, whose arrays are read the same way: items in order, whatever their names).
pub(super) fn is_soap_enc_ns(ns: &str) -> bool {
    ns == "http://schemas.xmlsoap.org/soap/encoding/"
        || ns == "http://www.w3.org/2003/05/soap-encoding"
}

/// Whether `ct` is a SOAP-ENC array type: complexContent derived from `soapenc:Array` (SOAP 1.1
/// §5.4.2).
pub(super) fn is_soap_array(ct: &ComplexType) -> bool {
    matches!(&ct.content, Content::Complex { base, .. }
        if is_soap_enc_ns(&base.ns) && base.local == "Array")
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::*;

    #[test]
    fn a_soap_enc_array_is_a_soap_array_of_its_item_type() {
        let types = format!(
            r#"<xs:schema targetNamespace="{NS}">
    <xs:import namespace="http://schemas.xmlsoap.org/soap/encoding/"/>
    <xs:complexType name="IntArray"><xs:complexContent><xs:restriction base="soapenc:Array">
      <xs:attribute ref="soapenc:arrayType" wsdl:arrayType="xs:int[]"/></xs:restriction></xs:complexContent></xs:complexType>
  </xs:schema>"#
        );
        let m = lower_wsdl(&rpc_wsdl(
            "Sum",
            "encoded",
            &types,
            r#"<part name="xs" type="tns:IntArray"/>"#,
            r#"<part name="n" type="xs:int"/>"#,
        ));
        let p = &m.clients[0].operations[0].params[0];
        let base = match &p.ty.base {
            Base::Named(n) => match decl(&m, n) {
                TypeDecl::Alias(a) => a.target.clone(),
                other => panic!("{other:?}"),
            },
            other => other.clone(),
        };
        assert_eq!(base, Base::SoapArray(Box::new(Base::Std("i32"))));
    }
}
