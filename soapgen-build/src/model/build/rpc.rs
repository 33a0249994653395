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
        if in_parts.len() > MAX_POSITIONAL_PARAMETERS {
            self.rpc_request_struct(op, in_parts, decl)?;
        } else {
            let mut pscope = Scope::new();
            for p in in_parts {
                let (xml, base) = self.rpc_part(p)?;
                decl.params.push(ParamDecl {
                    name: names::escape_keyword(&pscope.unique(&names::field_name(&p.name))),
                    xml,
                    ty: TypeExpr::one(base),
                });
            }
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
                    let name = self.parts_struct(
                        &format!("{}Response", op.name),
                        outs,
                        format!(
                            "the {} parts of the rpc response of operation {}",
                            outs.len(),
                            op.name
                        ),
                        None,
                    )?;
                    decl.ret = Some(TypeExpr::one(Base::Named(name)));
                    decl.bare_response = true;
                }
            }
        }
        Ok(())
    }

    /// More than [`MAX_POSITIONAL_PARAMETERS`] request parts: one `request` parameter, a struct
    /// of the parts in order (a `sequence` struct, `encoded` for rpc/encoded), written inside the
    /// operation element (`request_struct`).
    fn rpc_request_struct(
        &mut self,
        op: &PortTypeOperation,
        in_parts: &[&Part],
        decl: &mut OperationDecl,
    ) -> R<()> {
        let origin = format!(
            "the {} parts of the rpc request of operation {}",
            in_parts.len(),
            op.name
        );
        let name = self.parts_struct(&op.name, in_parts, origin, Some(decl.encoded))?;
        decl.request_struct = true;
        decl.params.push(ParamDecl {
            name: "request".to_owned(),
            xml: decl.request.clone(),
            ty: TypeExpr::one(Base::Named(name)),
        });
        Ok(())
    }

    /// A struct of rpc `parts` in order (WSDL 1.1 §3.5: each an unqualified accessor named after
    /// it), named after `base`, declared among the types; its name. A request's (`encoded` is
    /// `Some`) is a `sequence` struct, written as a group inside the operation element; a
    /// response's is read whole, by position where names repeat.
    fn parts_struct(
        &mut self,
        base: &str,
        parts: &[&Part],
        origin: String,
        encoded: Option<bool>,
    ) -> R<String> {
        let name = self.scope.unique(&names::type_name(base));
        let mut c = Collector::new();
        for p in parts {
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
        let decl = StructDecl {
            name: name.clone(),
            doc: None,
            origin,
            xsd_type: None,
            namespace: String::new(),
            sequence: encoded.is_some() || c.positional(),
            encoded: encoded.unwrap_or(false),
            uses: Uses::BOTH,
            fields: c.fields,
        };
        self.decls.insert(name.clone(), TypeDecl::Struct(decl));
        Ok(name)
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

    /// Five parts or more: one `request` parameter, a `sequence` struct of the parts in order
    /// (unqualified, `encoded` for rpc/encoded), the operation still rpc.
    #[test]
    fn more_than_four_rpc_parts_become_a_request_struct() {
        let parts: String = ["a", "b", "c", "d", "e"]
            .iter()
            .map(|n| format!(r#"<part name="{n}" type="xs:int"/>"#))
            .collect();
        for (use_, encoded) in [("literal", false), ("encoded", true)] {
            let m = lower_wsdl(&rpc_wsdl(
                "Add",
                use_,
                "",
                &parts,
                r#"<part name="sum" type="xs:int"/>"#,
            ));
            let op = &m.clients[0].operations[0];
            assert!(op.request_struct && !op.bare, "{use_}");
            assert_eq!(op.params.len(), 1);
            assert_eq!(op.params[0].name, "request");
            assert_eq!(op.params[0].xml, op.request);
            let s = strukt(&m, named(&op.params[0].ty.base));
            assert!(s.sequence);
            assert_eq!(s.encoded, encoded, "{use_}");
            let fields: Vec<_> = s
                .fields
                .iter()
                .map(|f| (f.name.as_str(), f.xml.ns.as_str()))
                .collect();
            assert_eq!(
                fields,
                [("a", ""), ("b", ""), ("c", ""), ("d", ""), ("e", "")]
            );
            assert_eq!(op.ret.as_ref().map(|t| &t.base), Some(&Base::Std("i32")));
        }
    }
}
