//! Operations bound to SOAP 1.2's SOAP-response message exchange pattern (WSDL 2.0 Part 2
//! §5.10.3): each is generated only where its request fits in a request IRI.

use super::context::{unsupported, Builder, R};
use crate::error::{Error, Loc};
use crate::model::ir::*;
use crate::read::components::QName;

impl Builder<'_> {
    /// Once the types are declared: each operation bound to SOAP 1.2's SOAP-response MEP whose
    /// request does not fit in a request IRI is dropped with a note (`skip_unsupported`) or is an
    /// error.
    pub(super) fn soap_response_operations(
        &mut self,
        clients: &mut [ClientDecl],
        errors: &mut Vec<Error>,
    ) {
        for c in clients.iter_mut() {
            let mut kept = Vec::with_capacity(c.operations.len());
            for op in std::mem::take(&mut c.operations) {
                let Some(l) = &op.soap_response else {
                    kept.push(op);
                    continue;
                };
                match self.check_iri_style(&op, &l.loc) {
                    Ok(()) => kept.push(op),
                    Err(e) if self.opts.skip_unsupported => self.notes.push(format!(
                        "operation {} of client {} not generated: {e}",
                        op.wsdl_name, c.name
                    )),
                    Err(e) => errors.push(e),
                }
            }
            c.operations = kept;
        }
    }

    /// That the request of `decl`, bound to SOAP 1.2's SOAP-response MEP, fits in a request IRI:
    /// no header blocks or attachments, and the input element of the IRI style (WSDL 2.0 Part 2
    /// §4.2, required by §5.10.3): its children elements of simple types, no attributes.
    fn check_iri_style(&self, decl: &OperationDecl, at: &Loc) -> R<()> {
        let refuse = |what: String| {
            Err(unsupported(
                format!(
                    "{what}: the operation is bound to the SOAP-response MEP (WSDL 2.0 Part 2 \
                     §5.10.3), a GET whose request is the IRI made of the input element's \
                     children, which must be of the IRI style (elements of simple types, Part 2 \
                     §4.2)"
                ),
                at,
            ))
        };
        if let Some(h) = decl.headers.first() {
            return refuse(format!("its input has the header {}", h.xml));
        }
        if let Some(a) = decl.attachments.first() {
            return refuse(format!("its input has the attachment {}", a.part));
        }
        if decl.empty_request {
            return check_location(decl, &[], at);
        }
        let simple = |b: &Base| match b {
            Base::Std(_) | Base::List(_) => true,
            Base::Runtime(t) => !t.starts_with("types::Any") && *t != "types::SwaRef",
            Base::Named(n) => matches!(
                self.decls.get(n.as_str()),
                Some(TypeDecl::Enum(_) | TypeDecl::Alias(_))
            ),
            Base::SoapArray(_) => false,
        };
        // The wrapper's children: the parameters, or the fields of the one struct parameter.
        let children: Vec<(&QName, &TypeExpr, bool)> =
            match (&decl.params[..], decl.bare || decl.request_struct) {
                ([p], true) => match &p.ty.base {
                    Base::Named(n) => match self.decls.get(n.as_str()) {
                        Some(TypeDecl::Struct(s)) => s
                            .fields
                            .iter()
                            .map(|f| (&f.xml, &f.ty, matches!(f.kind, FieldKind::Element)))
                            .collect(),
                        _ => {
                            return refuse(format!(
                                "its input element {} is not of a complexType",
                                p.xml
                            ))
                        }
                    },
                    _ => return refuse(format!("its input element {} is of a simple type", p.xml)),
                },
                (ps, _) => ps.iter().map(|p| (&p.xml, &p.ty, true)).collect(),
            };
        for (xml, ty, element) in &children {
            if !element {
                let what = if xml.local.is_empty() {
                    "a model group or wildcard".to_owned()
                } else {
                    format!("{xml}, which is not a child element")
                };
                return refuse(format!("its input element holds {what}"));
            }
            if !simple(&ty.base) || ty.base == Base::Runtime("types::QName") {
                return refuse(format!(
                    "its input element's child {xml} is not of a simple type (or is an \
                     xs:QName, whose prefix an IRI cannot bind)"
                ));
            }
        }
        let names: Vec<&str> = children.iter().map(|(q, _, _)| q.local.as_str()).collect();
        check_location(decl, &names, at)
    }
}

/// That the `whttp:location` template of `decl` is well formed and cites children of its input
/// (`names`), and that its query separator is one character that can separate pairs (WSDL 2.0
/// Part 2 §6.8.1.1, §6.8.2.2.1).
fn check_location(decl: &OperationDecl, names: &[&str], at: &Loc) -> R<()> {
    let Some(l) = &decl.soap_response else {
        return Ok(());
    };
    let invalid = |m: String| Err(Error::at(crate::error::ErrorKind::Invalid(m), at));
    let pieces = match soapgen_contract::location_template(&l.template) {
        Ok(p) => p,
        Err(m) => return invalid(m),
    };
    for p in pieces {
        if let soapgen_contract::TemplatePiece::Param { name, .. } = p {
            if !names.contains(&name) {
                return invalid(format!(
                    "the whttp:location {:?} cites {{{name}}}, which is no child of the input \
                     element (its children: {}; WSDL 2.0 Part 2 §6.8.1.1)",
                    l.template,
                    if names.is_empty() {
                        "none".to_owned()
                    } else {
                        names.join(", ")
                    }
                ));
            }
        }
    }
    let sep = &l.query_separator;
    if !soapgen_contract::is_query_separator(sep) {
        return invalid(format!(
            "whttp:queryParameterSeparator {sep:?} is not one character that can separate \
             name=value pairs (WSDL 2.0 Part 2 §6.8.2.2.1: `&` by default, `;` often)"
        ));
    }
    Ok(())
}
