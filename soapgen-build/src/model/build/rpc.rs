//! RPC style (WSDL 1.1 §3.5, SOAP 1.1 §7.1): the body is a wrapper named after the operation whose
//! children are the message parts, literal or SOAP-encoded.

use super::context::{Builder, R};
use super::fields::Collector;
use crate::model::ir::*;
use crate::model::names::{self, Scope};
use crate::read::components::*;

impl<'d> Builder<'d> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn rpc_op(
        &mut self,
        op: &PortTypeOperation,
        in_parts: &[&Part],
        out_parts: Option<&[&Part]>,
        in_bind: Option<&BindingMessage>,
        out_bind: Option<&BindingMessage>,
        decl: &mut OperationDecl,
    ) -> R<()> {
        // WSDL 1.1 §3.5: the wrapper is named after the operation, in soap:body's namespace; its
        // children are the parts, named after them and unqualified.
        let in_ns = in_bind
            .and_then(|b| b.namespace.clone())
            .unwrap_or_else(|| self.defs.target_namespace.clone());
        let out_ns = out_bind
            .and_then(|b| b.namespace.clone())
            .unwrap_or_else(|| in_ns.clone());
        decl.request = QName::new(in_ns.clone(), op.name.clone());
        decl.response =
            out_parts.map(|_| QName::new(out_ns.clone(), format!("{}Response", op.name)));
        let mut pscope = Scope::new();
        for p in in_parts {
            let (xml, base) = self.rpc_part(p)?;
            decl.params.push(ParamDecl {
                name: names::escape_keyword(&pscope.unique(&names::field_name(&p.name))),
                xml,
                ty: TypeExpr::one(base),
            });
        }
        if let Some(outs) = out_parts {
            match outs {
                [] => {}
                [p] => {
                    let (xml, base) = self.rpc_part(p)?;
                    decl.ret = Some(TypeExpr::one(base));
                    decl.result = Some(xml);
                }
                _ => {
                    // Several results (WSDL 1.1 §3.5): the response wrapper as a struct, one field
                    // per part.
                    let name = self
                        .scope
                        .unique(&names::type_name(&format!("{}Response", op.name)));
                    let mut c = Collector::new();
                    for p in outs {
                        let (xml, base) = self.rpc_part(p)?;
                        c.push(
                            &p.name,
                            FieldDecl {
                                constraint: None,
                                name: String::new(),
                                xml,
                                kind: FieldKind::Element,
                                ty: TypeExpr::one(base),
                                min_occurs: 0,
                                doc: None,
                            },
                        );
                    }
                    let origin = format!(
                        "the {} parts of the rpc response of operation {}",
                        outs.len(),
                        op.name
                    );
                    let decl_s = StructDecl {
                        name: name.clone(),
                        doc: None,
                        origin,
                        xsd_type: None,
                        namespace: String::new(),
                        sequence: c.positional(),
                        fields: c.fields,
                    };
                    self.decls.insert(name.clone(), TypeDecl::Struct(decl_s));
                    decl.ret = Some(TypeExpr::one(Base::Named(name)));
                    decl.bare_response = true;
                }
            }
        }
        Ok(())
    }

    fn rpc_part(&mut self, p: &Part) -> R<(QName, Base)> {
        match &p.kind {
            PartKind::Type(t) => {
                let base = self.named_type(t, &p.loc)?;
                Ok((QName::new("", p.name.clone()), base))
            }
            PartKind::Element(e) => {
                let (base, _) = self.element_base(e, &p.loc)?;
                Ok((e.clone(), base))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::*;

    fn rpc(use_: &str) -> Module {
        lower_wsdl(&rpc_wsdl(
            "Add",
            use_,
            "",
            r#"<part name="a" type="xs:int"/><part name="b" type="xs:string"/>"#,
            r#"<part name="sum" type="xs:int"/>"#,
        ))
    }

    #[test]
    fn rpc_parts_become_parameters_of_a_wrapper_in_the_body_namespace() {
        for (use_, encoded) in [("literal", false), ("encoded", true)] {
            let m = rpc(use_);
            let op = &m.clients[0].operations[0];
            assert_eq!(op.encoded, encoded, "{use_}");
            assert_eq!(op.request.ns, "urn:rpc");
            assert_eq!(op.request.local, "Add");
            let params: Vec<_> = op
                .params
                .iter()
                .map(|p| (p.name.as_str(), p.xml.ns.as_str()))
                .collect();
            assert_eq!(
                params,
                [("a", ""), ("b", "")],
                "parts are unqualified (WS-I BP R2735)"
            );
            assert_eq!(op.ret.as_ref().map(|t| &t.base), Some(&Base::Std("i32")));
        }
    }
}
