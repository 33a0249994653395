//! Document style (WSDL 1.1 §3.5, WS-I Basic Profile R2204): the body is one element; a wrapped
//! operation (the element named after the operation, a sequence of elements) is unwrapped into
//! parameters, as svcutil and zeep present it.

use std::collections::BTreeSet;

use super::context::{add_prose, append_doc, undefined, Builder, WrapperChild, R};
use super::fields::card;
use crate::error::Loc;
use crate::model::ir::*;
use crate::model::names::{self, Scope};
use crate::read::components::*;

impl<'d> Builder<'d> {
    /// The children of a wrapper element: `Some` if its type is a plain sequence of elements with no
    /// attributes (the document/literal wrapped convention).
    fn wrapper_children(&self, q: &QName) -> Option<Vec<WrapperChild>> {
        let e = self.schemas().elements.get(q)?;
        let ct = match &e.ty {
            Some(TypeRef::Anonymous(td)) => match &**td {
                TypeDef::Complex(ct) => ct.clone(),
                TypeDef::Simple(_) => return None,
            },
            // A type with derived types may come as any of them (xsi:type): the element stays
            // whole, its value the type's enum (XML Schema Part 1 §2.6.1).
            Some(TypeRef::Named(t, _)) if self.derived.contains_key(t) => return None,
            Some(TypeRef::Named(t, _)) => match self.schemas().types.get(t)? {
                TypeDef::Complex(ct) => ct.clone(),
                TypeDef::Simple(_) => return None,
            },
            None => return None,
        };
        if !ct.attributes.is_empty() || ct.any_attribute || ct.mixed {
            return None;
        }
        let items = match &ct.content {
            Content::Empty => return Some(Vec::new()),
            Content::Particle(p) => match &p.term {
                Term::Sequence(items) if p.occurs == Occurs::ONCE => items.clone(),
                _ => return None,
            },
            _ => return None,
        };
        let mut out = Vec::new();
        for it in items {
            match &it.term {
                Term::Element(le) => out.push((
                    le.name.clone(),
                    le.ty.clone(),
                    it.occurs,
                    le.nillable,
                    le.loc.clone(),
                    le.doc.clone(),
                )),
                Term::ElementRef(r) => {
                    if self.substitutable(r) {
                        return None;
                    }
                    let g = self.schemas().elements.get(r)?;
                    out.push((
                        r.clone(),
                        g.ty.clone(),
                        it.occurs,
                        g.nillable,
                        it.loc.clone(),
                        g.doc.clone(),
                    ));
                }
                _ => return None,
            }
        }
        // An element named twice is read by position: the wrapper stays a struct.
        let mut names = BTreeSet::new();
        if !out.iter().all(|c| names.insert(c.0.clone())) {
            return None;
        }
        Some(out)
    }

    pub(super) fn document_op(
        &mut self,
        op: &PortTypeOperation,
        in_parts: &[&Part],
        out_parts: Option<&[&Part]>,
        decl: &mut OperationDecl,
    ) -> R<()> {
        let resp_part = out_parts
            .map(|p| self.doc_part(p, op, "output"))
            .transpose()?;
        let resp_loc = resp_part.as_ref().map(|(_, l)| l.clone());
        let resp = resp_part.map(|(q, _)| q);
        // An input message with no body parts (WSDL 1.1 §2.3.1): an empty request Body, no
        // parameters; the name only labels the operation.
        let empty_request = in_parts.is_empty();
        let req = if empty_request {
            let ns = resp.as_ref().map(|r| r.ns.clone()).unwrap_or_default();
            QName::new(ns, op.name.clone())
        } else {
            let (req, req_loc) = self.doc_part(in_parts, op, "input")?;
            if !self.schemas().elements.contains_key(&req) {
                return Err(undefined(format!("element {req}"), &req_loc));
            }
            req
        };
        if let (Some(r), Some(l)) = (&resp, &resp_loc) {
            if !self.schemas().elements.contains_key(r) {
                return Err(undefined(format!("element {r}"), l));
            }
        }
        let in_children = if empty_request {
            Some(Vec::new())
        } else if req.local == op.name {
            self.wrapper_children(&req)
        } else {
            None
        };
        let out_children = match &resp {
            Some(r) => self.wrapper_children(r).filter(|c| c.len() <= 1),
            None => Some(Vec::new()),
        };
        decl.request = req.clone();
        decl.empty_request = empty_request;
        decl.response = resp.clone();
        self.wrapper_docs(&req, resp.as_ref(), decl);
        match (in_children, out_children) {
            (Some(ins), outs) => {
                // Wrapped: the wrapper's children are the parameters, its response's child the
                // result; more than MAX_POSITIONAL_PARAMETERS of them, the wrapper's struct is
                // the one parameter (its fields keep their documentation).
                let sent = ins.iter().filter(|c| card(c.2, c.3).is_some()).count();
                let ins = if sent > MAX_POSITIONAL_PARAMETERS {
                    decl.request_struct = true;
                    let (base, _) = self.element_base(&req, &op.loc)?;
                    decl.params.push(ParamDecl {
                        name: "request".to_owned(),
                        xml: req.clone(),
                        ty: TypeExpr::one(base),
                    });
                    Vec::new()
                } else {
                    ins
                };
                let mut pscope = Scope::new();
                let mut param_docs = Vec::new();
                for (name, ty, occ, nillable, loc, doc) in ins {
                    let hint = format!(
                        "{}{}",
                        names::type_name(&req.local),
                        names::type_name(&name.local)
                    );
                    let base = self.element_type(&name, ty.as_ref(), &hint, &loc)?;
                    let Some(card) = card(occ, nillable) else {
                        continue;
                    };
                    let pname =
                        names::escape_keyword(&pscope.unique(&names::field_name(&name.local)));
                    if let Some(d) = doc {
                        param_docs.push((pname.trim_start_matches("r#").to_owned(), d));
                    }
                    decl.params.push(ParamDecl {
                        name: pname,
                        xml: name,
                        ty: TypeExpr {
                            base,
                            card,
                            boxed: false,
                        },
                    });
                }
                if !param_docs.is_empty() {
                    let block = Paragraph::List {
                        heading: "Parameters:".to_owned(),
                        items: param_docs,
                    };
                    append_doc(&mut decl.doc, block);
                }
                match (&resp, outs) {
                    (Some(resp), Some(outs)) => {
                        if let Some((name, ty, occ, nillable, loc, rdoc)) = outs.into_iter().next()
                        {
                            if let Some(d) = &rdoc {
                                add_prose(&mut decl.doc, Some("Returns"), d);
                            }
                            let hint = format!(
                                "{}{}",
                                names::type_name(&resp.local),
                                names::type_name(&name.local)
                            );
                            let base = self.element_type(&name, ty.as_ref(), &hint, &loc)?;
                            if let Some(card) = card(occ, nillable) {
                                if matches!(card, Occurrence::Many | Occurrence::ManyNillable) {
                                    decl.result_min = occ.min;
                                }
                                decl.ret = Some(TypeExpr {
                                    base,
                                    card,
                                    boxed: false,
                                });
                                decl.result = Some(name);
                            }
                        }
                    }
                    (Some(resp), None) => {
                        // Several results (or not a plain sequence): the whole response element.
                        decl.bare_response = true;
                        let (base, _) = self.element_base(resp, &op.loc)?;
                        decl.ret = Some(TypeExpr::one(base));
                    }
                    (None, _) => {}
                }
            }
            _ => {
                // Bare: the body elements themselves.
                decl.bare = true;
                let (base, _) = self.element_base(&req, &op.loc)?;
                let pname = names::field_name(in_parts.first().map_or("body", |p| p.name.as_str()));
                decl.params.push(ParamDecl {
                    name: names::escape_keyword(&pname),
                    xml: req,
                    ty: TypeExpr::one(base),
                });
                if let Some(r) = &resp {
                    let (base, _) = self.element_base(r, &op.loc)?;
                    decl.ret = Some(TypeExpr::one(base));
                }
            }
        }
        Ok(())
    }

    /// Adds what the request element `req` and the response element `resp` say of themselves,
    /// and their anonymous types, to the operation's documentation (a wrapper's documentation
    /// is on no generated type).
    fn wrapper_docs(&self, req: &QName, resp: Option<&QName>, decl: &mut OperationDecl) {
        let docs = |q: &QName| -> Vec<String> {
            let Some(e) = self.schemas().elements.get(q) else {
                return Vec::new();
            };
            let inner = match &e.ty {
                Some(TypeRef::Anonymous(t)) => match &**t {
                    TypeDef::Complex(ct) => ct.doc.clone(),
                    TypeDef::Simple(st) => st.doc.clone(),
                },
                _ => None,
            };
            e.doc.iter().chain(inner.iter()).cloned().collect()
        };
        for d in docs(req) {
            add_prose(&mut decl.doc, None, &d);
        }
        for d in resp.map(docs).unwrap_or_default() {
            add_prose(&mut decl.doc, Some("Response"), &d);
        }
    }

    /// The Rust type of a wrapper child: an `element ref` is looked up, a local element typed.
    fn element_type(
        &mut self,
        name: &QName,
        ty: Option<&TypeRef>,
        hint: &str,
        loc: &Loc,
    ) -> R<Base> {
        match ty {
            Some(TypeRef::Anonymous(_)) | Some(TypeRef::Named(..)) => self.type_ref(ty, hint),
            None => {
                if self.schemas().elements.contains_key(name) {
                    Ok(self.element_base(name, loc)?.0)
                } else {
                    Ok(Base::Runtime("types::AnyXml"))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::*;

    #[test]
    fn a_wrapped_operation_is_unwrapped_into_parameters_and_a_result() {
        let m = lower(
            r#"<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="city" type="xs:string"/><xs:element name="days" type="xs:int" minOccurs="0"/></xs:sequence></xs:complexType></xs:element>
<xs:element name="OpResponse"><xs:complexType><xs:sequence><xs:element name="OpResult" type="xs:string"/></xs:sequence></xs:complexType></xs:element>"#,
        );
        let op = &m.clients[0].operations[0];
        assert!(!op.bare);
        let params: Vec<_> = op
            .params
            .iter()
            .map(|p| (p.name.as_str(), p.ty.card))
            .collect();
        assert_eq!(
            params,
            [("city", Occurrence::One), ("days", Occurrence::Optional)]
        );
        assert_eq!(op.result, Some(q("OpResult")));
        assert_eq!(op.ret.as_ref().map(|t| &t.base), Some(&Base::Std("String")));
    }

    #[test]
    fn a_wrapper_that_is_not_a_plain_sequence_stays_bare() {
        let m = lower(
            r#"<xs:element name="Op"><xs:complexType><xs:choice><xs:element name="a" type="xs:string"/><xs:element name="b" type="xs:string"/></xs:choice></xs:complexType></xs:element>
<xs:element name="OpResponse"><xs:complexType><xs:sequence><xs:element name="x" type="xs:string"/><xs:element name="y" type="xs:string"/></xs:sequence></xs:complexType></xs:element>"#,
        );
        let op = &m.clients[0].operations[0];
        assert!(op.bare);
        assert_eq!(op.params[0].ty.base, Base::Named("Op".into()));
        assert!(op.bare_response || op.result.is_none());
    }

    /// Four wrapped parameters stay positional; five or more become the wrapper's struct (one
    /// `request` parameter, written whole), the result still unwrapped; a `maxOccurs="0"` child
    /// is not counted (it is never sent).
    #[test]
    fn more_than_four_wrapped_parameters_become_the_request_struct() {
        let children = |n: usize| {
            (0..n)
                .map(|i| format!(r#"<xs:element name="p{i}" type="xs:string" minOccurs="0"/>"#))
                .collect::<String>()
        };
        let schema = |n: usize| {
            format!(
                r#"<xs:element name="Op"><xs:complexType><xs:sequence>{}<xs:element name="never" type="xs:int" minOccurs="0" maxOccurs="0"/></xs:sequence></xs:complexType></xs:element>
<xs:element name="OpResponse"><xs:complexType><xs:sequence><xs:element name="OpResult" type="xs:string"/></xs:sequence></xs:complexType></xs:element>"#,
                children(n)
            )
        };
        let m = lower(&schema(4));
        let op = &m.clients[0].operations[0];
        assert!(!op.request_struct && !op.bare);
        assert_eq!(op.params.len(), 4);
        let m = lower(&schema(5));
        let op = &m.clients[0].operations[0];
        assert!(op.request_struct && !op.bare && !op.bare_response);
        assert_eq!(op.params.len(), 1);
        assert_eq!(op.params[0].name, "request");
        assert_eq!(op.params[0].xml, q("Op"));
        assert_eq!(op.params[0].ty.base, Base::Named("Op".into()));
        assert_eq!(op.result, Some(q("OpResult")));
        assert_eq!(op.ret.as_ref().map(|t| &t.base), Some(&Base::Std("String")));
        // Nothing reads it: the writer alone is derived.
        assert_eq!(
            strukt(&m, "Op").uses,
            Uses {
                write: true,
                read: false
            }
        );
    }

    /// Each type gets the directions the operation uses it in: what the request reaches is
    /// written, what the response reaches read, a type both reach both (a type neither reaches
    /// is not generated).
    #[test]
    fn types_get_the_directions_the_operation_uses_them_in() {
        let m = lower(
            r#"<xs:complexType name="Query"><xs:sequence><xs:element name="text" type="xs:string"/></xs:sequence></xs:complexType>
<xs:complexType name="Row"><xs:sequence><xs:element name="id" type="xs:int"/><xs:element name="kind" type="tns:Kind"/></xs:sequence></xs:complexType>
<xs:complexType name="Kind"><xs:choice><xs:element name="a" type="xs:int"/><xs:element name="b" type="tns:Shared"/></xs:choice></xs:complexType>
<xs:complexType name="Shared"><xs:sequence><xs:element name="v" type="xs:string"/></xs:sequence></xs:complexType>
<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="q" type="tns:Query"/><xs:element name="s" type="tns:Shared"/></xs:sequence></xs:complexType></xs:element>
<xs:element name="OpResponse"><xs:complexType><xs:sequence><xs:element name="row" type="tns:Row" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>"#,
        );
        let uses = |n: &str| match m.types.iter().find(|t| t.name() == n) {
            Some(TypeDecl::Struct(s)) => s.uses,
            Some(TypeDecl::Choice(c)) => c.uses,
            other => panic!("{n}: {other:?}"),
        };
        let (w, r) = (
            Uses {
                write: true,
                read: false,
            },
            Uses {
                write: false,
                read: true,
            },
        );
        assert_eq!(uses("Query"), w);
        assert_eq!(uses("Row"), r);
        assert_eq!(uses("Kind"), r);
        assert_eq!(uses("Shared"), Uses::BOTH);
    }

    /// A request struct whose type something else holds is read too: not write-only.
    #[test]
    fn a_request_struct_another_type_holds_keeps_its_reader() {
        let children: String = (0..5)
            .map(|i| format!(r#"<xs:element name="p{i}" type="xs:string"/>"#))
            .collect();
        let m = lower(&format!(
            r#"<xs:complexType name="Args"><xs:sequence>{children}</xs:sequence></xs:complexType>
<xs:element name="Op" type="tns:Args"/>
<xs:element name="OpResponse"><xs:complexType><xs:sequence><xs:element name="echo" type="tns:Args"/></xs:sequence></xs:complexType></xs:element>"#
        ));
        let op = &m.clients[0].operations[0];
        assert!(op.request_struct);
        assert!(strukt(&m, named(&op.params[0].ty.base)).uses.read);
    }
}
