//! Local declarations of a schema component: the name of a local element or attribute (its
//! `form`), the attribute uses and wildcard of a complexType or attribute group, and the
//! `wsdl:arrayType` of a SOAP-encoded array's attribute.

use roxmltree::Node;

use super::{attribute_type, xs_children, SchemaCtx};
use crate::error::{Error, ErrorKind, Loc, Result};
use crate::read::components::*;

/// The name of a local element or attribute declaration `node` (`what`: `xs:element` or
/// `xs:attribute`, for the error when it has neither `name` nor `ref`): in the target namespace
/// when its `form`, or else the schema's `elementFormDefault`/`attributeFormDefault`
/// (`default_qualified`), is `qualified` (XML Schema Part 1 §3.3.2, §3.2.2).
pub(super) fn local_name(
    ctx: &SchemaCtx,
    node: Node,
    what: &str,
    default_qualified: bool,
    loc: &Loc,
) -> Result<QName> {
    let local = node.attribute("name").ok_or_else(|| {
        Error::at(
            ErrorKind::Missing(format!("`name` or `ref` on {what}")),
            loc,
        )
    })?;
    let qualified = match node.attribute("form") {
        Some(f) => f == "qualified",
        None => default_qualified,
    };
    let ns = if qualified {
        ctx.tns.clone()
    } else {
        String::new()
    };
    Ok(QName::new(ns, local))
}

/// The attribute uses and attribute group references among `node`'s children, whether it has
/// an `xs:anyAttribute`, and that wildcard's documentation.
pub(super) fn attribute_items(
    ctx: &SchemaCtx,
    node: Node,
) -> Result<(Vec<AttributeItem>, bool, Option<String>)> {
    let mut items = Vec::new();
    let mut any = false;
    let mut any_doc = None;
    for c in xs_children(node) {
        let loc = ctx.doc.loc(c);
        match c.tag_name().name() {
            "attribute" => {
                let use_ = match c.attribute("use") {
                    Some("required") => AttributeUse::Required,
                    Some("prohibited") => AttributeUse::Prohibited,
                    _ => AttributeUse::Optional,
                };
                let (name, is_ref) = match ctx.qname(c, "ref")? {
                    Some(r) => (r, true),
                    None => (
                        local_name(ctx, c, "xs:attribute", ctx.attribute_qualified, &loc)?,
                        false,
                    ),
                };
                items.push(AttributeItem::Attribute(AttributeDecl {
                    name,
                    is_ref,
                    ty: attribute_type(ctx, c)?,
                    use_,
                    default: c.attribute("default").map(str::to_owned),
                    fixed: c.attribute("fixed").map(str::to_owned),
                    array_type: wsdl_array_type(c),
                    doc: ctx.doc.documentation(c),
                    loc,
                }));
            }
            "attributeGroup" => {
                items.push(AttributeItem::GroupRef(ctx.required_qname(c, "ref")?, loc))
            }
            "anyAttribute" => {
                any = true;
                any_doc = any_doc.or(ctx.doc.documentation(c));
            }
            _ => {}
        }
    }
    Ok((items, any, any_doc))
}

/// The item type of `wsdl:arrayType="ns:T[]"` (WSDL 1.1 §2.2, SOAP 1.1 §5.4.2 arrayTypeValue):
/// `{ns}T` for a single-dimension array; `None` when absent, multi-dimensional (`T[,]`), an array
/// of arrays (`T[][]`) or with an unbound prefix.
pub(super) fn wsdl_array_type(node: Node) -> Option<QName> {
    let v = node
        .attribute(("http://schemas.xmlsoap.org/wsdl/", "arrayType"))?
        .trim();
    let open = v.find('[')?;
    let (ty, dims) = v.split_at(open);
    if dims.matches('[').count() != 1 || dims.contains(',') {
        return None;
    }
    let (prefix, local) = match ty.split_once(':') {
        Some((p, l)) => (Some(p), l),
        None => (None, ty),
    };
    let ns = node.lookup_namespace_uri(prefix);
    if prefix.is_some() && ns.is_none() {
        return None;
    }
    Some(QName::new(ns.unwrap_or_default(), local))
}
