//! Reads `xs:schema` elements into [`SchemaSet`] components (XML Schema Part 1 §3, XML
//! representations). Imports, includes and redefines are returned to the driver, which loads them.

use roxmltree::Node;

use crate::error::{Error, ErrorKind, Loc, Result};
use crate::read::components::*;
use crate::read::document::DocCtx;

/// A document a schema asks for.
#[derive(Debug, Clone)]
pub struct SchemaRef {
    /// `import`, `include` or `redefine`.
    pub kind: RefKind,
    /// `schemaLocation`, if given.
    pub location: Option<String>,
    /// `namespace` of an import.
    pub namespace: Option<String>,
    /// Where the reference is.
    pub loc: Loc,
}

/// How a schema references another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefKind {
    /// `xs:import`: another namespace.
    Import,
    /// `xs:include`: the same namespace (or a chameleon schema that takes it on).
    Include,
    /// `xs:redefine`: an include whose components may be redefined.
    Redefine,
}

/// The per-schema settings that name resolution needs.
struct SchemaCtx<'a, 'd> {
    doc: &'a DocCtx<'d>,
    /// The effective target namespace (a chameleon include takes the includer's).
    tns: String,
    /// The schema had no targetNamespace and is included into `tns`: no-namespace references are
    /// rewritten into `tns` (XML Schema Part 1 §4.2.1).
    chameleon: bool,
    element_qualified: bool,
    attribute_qualified: bool,
}

impl SchemaCtx<'_, '_> {
    fn qname(&self, node: Node, attr: &str) -> Result<Option<QName>> {
        let q = self.doc.qname_attr(node, attr)?;
        Ok(q.map(|mut q| {
            if self.chameleon && q.ns.is_empty() {
                q.ns = self.tns.clone();
            }
            q
        }))
    }

    fn required_qname(&self, node: Node, attr: &str) -> Result<QName> {
        self.qname(node, attr)?.ok_or_else(|| {
            Error::at(
                ErrorKind::Missing(format!(
                    "`{attr}` attribute on xs:{}",
                    node.tag_name().name()
                )),
                &self.doc.loc(node),
            )
        })
    }

    fn global_name(&self, node: Node) -> Result<QName> {
        let name = node.attribute("name").ok_or_else(|| {
            Error::at(
                ErrorKind::Missing(format!("`name` on top-level xs:{}", node.tag_name().name())),
                &self.doc.loc(node),
            )
        })?;
        Ok(QName::new(self.tns.clone(), name))
    }
}

mod declarations;
use declarations::{attribute_items, local_name, wsdl_array_type};

fn is_xs(node: &Node, name: &str) -> bool {
    node.is_element() && node.tag_name().namespace() == Some(XS) && node.tag_name().name() == name
}

fn xs_children<'a, 'd>(node: Node<'a, 'd>) -> impl Iterator<Item = Node<'a, 'd>> {
    node.children()
        .filter(|c| c.is_element() && c.tag_name().namespace() == Some(XS))
}

fn occurs(node: Node, doc: &DocCtx) -> Result<Occurs> {
    let parse = |attr: &str, default: u64| -> Result<Option<u64>> {
        match node.attribute(attr).map(str::trim) {
            None => Ok(Some(default)),
            Some("unbounded") if attr == "maxOccurs" => Ok(None),
            Some(v) => v.parse::<u64>().map(Some).map_err(|_| {
                Error::at(
                    ErrorKind::Invalid(format!("{attr}={v:?} is not a non-negative integer")),
                    &doc.loc(node),
                )
            }),
        }
    };
    Ok(Occurs {
        min: parse("minOccurs", 1)?.unwrap_or(1),
        max: parse("maxOccurs", 1)?,
    })
}

/// Reads one `xs:schema` element into `out`, returning the documents it references.
///
/// `inherited_tns` is the including schema's namespace for a chameleon include.
///
/// # Errors
///
/// Missing required attributes, unbound prefixes, duplicate definitions.
pub fn read_schema(
    doc: &DocCtx,
    schema: Node,
    inherited_tns: Option<&str>,
    out: &mut SchemaSet,
) -> Result<Vec<SchemaRef>> {
    let own_tns = schema.attribute("targetNamespace").map(str::to_owned);
    let chameleon = own_tns.is_none() && inherited_tns.is_some();
    let tns = own_tns
        .or_else(|| inherited_tns.map(str::to_owned))
        .unwrap_or_default();
    let ctx = SchemaCtx {
        doc,
        tns,
        chameleon,
        element_qualified: schema.attribute("elementFormDefault") == Some("qualified"),
        attribute_qualified: schema.attribute("attributeFormDefault") == Some("qualified"),
    };
    if let Some(d) = doc.documentation(schema) {
        let entry = (ctx.tns.clone(), d);
        if !out.docs.contains(&entry) {
            out.docs.push(entry);
        }
    }
    let mut refs = Vec::new();
    for child in xs_children(schema) {
        let loc = doc.loc(child);
        match child.tag_name().name() {
            "import" => refs.push(SchemaRef {
                kind: RefKind::Import,
                location: child.attribute("schemaLocation").map(str::to_owned),
                namespace: child.attribute("namespace").map(str::to_owned),
                loc,
            }),
            "include" | "redefine" => {
                let kind = if child.tag_name().name() == "include" {
                    RefKind::Include
                } else {
                    RefKind::Redefine
                };
                let location = child.attribute("schemaLocation").ok_or_else(|| {
                    Error::at(
                        ErrorKind::Missing("`schemaLocation` on xs:include".into()),
                        &loc,
                    )
                })?;
                refs.push(SchemaRef {
                    kind,
                    location: Some(location.to_owned()),
                    namespace: Some(ctx.tns.clone()),
                    loc: loc.clone(),
                });
                if kind == RefKind::Redefine {
                    for comp in xs_children(child).filter(|r| r.tag_name().name() != "annotation") {
                        redefine(&ctx, comp, out)?;
                    }
                }
            }
            _ => read_top_level(&ctx, child, out)?,
        }
    }
    Ok(refs)
}

/// One component of an `xs:redefine` (XML Schema Part 1 §4.2.2): it takes the name; its base
/// type (simpleType, complexType) or its reference to its own name (group, attributeGroup) now
/// names the original, kept under [`redefined_name`], whether the original was read before or
/// is read after.
fn redefine(ctx: &SchemaCtx, node: Node, out: &mut SchemaSet) -> Result<()> {
    let loc = ctx.doc.loc(node);
    let what = match node.tag_name().name() {
        "complexType" | "simpleType" => "type",
        "group" => "group",
        "attributeGroup" => "attribute group",
        other => {
            return Err(Error::at(
                ErrorKind::Invalid(format!(
                    "xs:{other} inside xs:redefine (XML Schema Part 1 §4.2.2 allows simpleType, \
                     complexType, group and attributeGroup)"
                )),
                &loc,
            ))
        }
    };
    let name = ctx.global_name(node)?;
    let original = redefined_name(&name);
    let mut read = SchemaSet::default();
    read_top_level(ctx, node, &mut read)?;
    let self_ref = |q: &mut QName| {
        if *q == name {
            *q = original.clone();
        }
    };
    fn move_original<T>(map: &mut std::collections::BTreeMap<QName, T>, from: &QName, to: QName) {
        if let Some(o) = map.remove(from) {
            map.insert(to, o);
        }
    }
    match what {
        "type" => {
            let Some(mut def) = read.types.remove(&name) else {
                return Ok(());
            };
            match &mut def {
                TypeDef::Complex(ct) => {
                    if let Content::Complex { base, .. } | Content::Simple { base, .. } =
                        &mut ct.content
                    {
                        self_ref(base);
                    }
                }
                TypeDef::Simple(st) => {
                    if let SimpleVariety::Restriction {
                        base: TypeRef::Named(base, _),
                        ..
                    } = &mut st.variety
                    {
                        self_ref(base);
                    }
                }
            }
            move_original(&mut out.types, &name, original.clone());
            out.types.insert(name.clone(), def);
        }
        "group" => {
            let Some(mut def) = read.groups.remove(&name) else {
                return Ok(());
            };
            fn walk(p: &mut Particle, f: &dyn Fn(&mut QName)) {
                match &mut p.term {
                    Term::GroupRef(q) => f(q),
                    Term::Sequence(ps) | Term::Choice(ps) | Term::All(ps) => {
                        ps.iter_mut().for_each(|p| walk(p, f))
                    }
                    _ => {}
                }
            }
            walk(&mut def.particle, &self_ref);
            move_original(&mut out.groups, &name, original.clone());
            out.groups.insert(name.clone(), def);
        }
        _ => {
            let Some(mut def) = read.attribute_groups.remove(&name) else {
                return Ok(());
            };
            for item in &mut def.attributes {
                if let AttributeItem::GroupRef(q, _) = item {
                    self_ref(q);
                }
            }
            move_original(&mut out.attribute_groups, &name, original.clone());
            out.attribute_groups.insert(name.clone(), def);
        }
    }
    out.redefinitions.insert((what, name));
    Ok(())
}

/// The name a top-level component of symbol space `what` is stored under: its own, or, when an
/// `xs:redefine` already replaced it, [`redefined_name`] (the original of the redefinition).
fn stored_name(out: &SchemaSet, what: &'static str, name: QName) -> QName {
    if out.redefinitions.contains(&(what, name.clone())) {
        redefined_name(&name)
    } else {
        name
    }
}

fn insert<T>(
    map: &mut std::collections::BTreeMap<QName, T>,
    name: QName,
    value: T,
    loc: &Loc,
    what: &str,
    existing_loc: impl Fn(&T) -> Loc,
) -> Result<()> {
    if let Some(prev) = map.get(&name) {
        if &existing_loc(prev) == loc {
            return Ok(()); // the same definition read again
        }
        return Err(Error::at(
            ErrorKind::Duplicate(format!(
                "{what} {name} (first defined at {})",
                existing_loc(prev)
            )),
            loc,
        ));
    }
    map.insert(name, value);
    Ok(())
}

/// Whether `node` is a top-level definition another document made first with the same text (a
/// schema copied into several WSDLs of one service): then it is read once. Records the first.
fn copied(ctx: &SchemaCtx, node: Node, loc: &Loc, out: &mut SchemaSet) -> Result<bool> {
    use std::hash::{Hash, Hasher};
    let space = match node.tag_name().name() {
        "element" => "element",
        "complexType" | "simpleType" => "type",
        "group" => "group",
        "attributeGroup" => "attribute group",
        "attribute" => "attribute",
        _ => return Ok(false),
    };
    let name = ctx.global_name(node)?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    node.document().input_text()[node.range()].hash(&mut h);
    let print = h.finish();
    match out.fingerprints.get(&(space, name.clone())) {
        Some((first, file)) => Ok(*first == print && *file != loc.file),
        None => {
            out.fingerprints
                .insert((space, name), (print, loc.file.clone()));
            Ok(false)
        }
    }
}

fn read_top_level(ctx: &SchemaCtx, node: Node, out: &mut SchemaSet) -> Result<()> {
    let loc = ctx.doc.loc(node);
    if copied(ctx, node, &loc, out)? {
        return Ok(());
    }
    match node.tag_name().name() {
        "element" => {
            let name = ctx.global_name(node)?;
            let decl = ElementDecl {
                name: name.clone(),
                ty: element_type(ctx, node)?,
                nillable: node.attribute("nillable") == Some("true"),
                is_abstract: node.attribute("abstract") == Some("true"),
                substitution_group: ctx.qname(node, "substitutionGroup")?,
                default: node.attribute("default").map(str::to_owned),
                fixed: node.attribute("fixed").map(str::to_owned),
                doc: ctx.doc.documentation(node),
                loc: loc.clone(),
            };
            insert(&mut out.elements, name, decl, &loc, "element", |d| {
                d.loc.clone()
            })
        }
        kind @ ("complexType" | "simpleType") => {
            // Complex and simple types share one symbol space (XML Schema Part 1 §2.5).
            let name = stored_name(out, "type", ctx.global_name(node)?);
            let def = if kind == "complexType" {
                TypeDef::Complex(complex_type(ctx, node, Some(name.clone()))?)
            } else {
                TypeDef::Simple(simple_type(ctx, node, Some(name.clone()))?)
            };
            insert(&mut out.types, name, def, &loc, "type", |t| t.loc().clone())
        }
        "group" => {
            let name = stored_name(out, "group", ctx.global_name(node)?);
            let mut particle = xs_children(node)
                .find(|c| matches!(c.tag_name().name(), "sequence" | "choice" | "all"))
                .map(|c| particle(ctx, c))
                .transpose()?
                .ok_or_else(|| {
                    Error::at(ErrorKind::Missing("model group in xs:group".into()), &loc)
                })?;
            // The group definition's documentation, before its model group's own.
            let inner = particle.doc.take();
            particle.doc = ctx.doc.documentation(node);
            join_doc(&mut particle.doc, inner);
            let def = GroupDef {
                name: name.clone(),
                particle,
            };
            insert(&mut out.groups, name, def, &loc, "group", |g| {
                g.particle.loc.clone()
            })
        }
        "attributeGroup" => {
            let name = stored_name(out, "attribute group", ctx.global_name(node)?);
            let (attributes, any_attribute, any_attribute_doc) = attribute_items(ctx, node)?;
            let def = AttributeGroupDef {
                name: name.clone(),
                attributes,
                any_attribute,
                any_attribute_doc,
                loc: loc.clone(),
            };
            insert(
                &mut out.attribute_groups,
                name,
                def,
                &loc,
                "attribute group",
                |g| g.loc.clone(),
            )
        }
        "attribute" => {
            let name = ctx.global_name(node)?;
            let decl = AttributeDecl {
                name: name.clone(),
                is_ref: false,
                ty: attribute_type(ctx, node)?,
                use_: AttributeUse::Optional,
                default: node.attribute("default").map(str::to_owned),
                fixed: node.attribute("fixed").map(str::to_owned),
                array_type: wsdl_array_type(node),
                doc: ctx.doc.documentation(node),
                loc: loc.clone(),
            };
            insert(&mut out.attributes, name, decl, &loc, "attribute", |a| {
                a.loc.clone()
            })
        }
        "annotation" | "notation" => Ok(()),
        other => Err(Error::at(
            ErrorKind::Unsupported(format!("xs:{other} at the top level of a schema")),
            &loc,
        )),
    }
}

fn element_type(ctx: &SchemaCtx, node: Node) -> Result<Option<TypeRef>> {
    if let Some(q) = ctx.qname(node, "type")? {
        return Ok(Some(TypeRef::Named(q, ctx.doc.loc(node))));
    }
    for c in xs_children(node) {
        match c.tag_name().name() {
            "complexType" => {
                return Ok(Some(TypeRef::Anonymous(Box::new(TypeDef::Complex(
                    complex_type(ctx, c, None)?,
                )))))
            }
            "simpleType" => {
                return Ok(Some(TypeRef::Anonymous(Box::new(TypeDef::Simple(
                    simple_type(ctx, c, None)?,
                )))))
            }
            _ => {}
        }
    }
    Ok(None)
}

fn attribute_type(ctx: &SchemaCtx, node: Node) -> Result<Option<TypeRef>> {
    if let Some(q) = ctx.qname(node, "type")? {
        return Ok(Some(TypeRef::Named(q, ctx.doc.loc(node))));
    }
    match xs_children(node).find(|c| c.tag_name().name() == "simpleType") {
        Some(st) => Ok(Some(TypeRef::Anonymous(Box::new(TypeDef::Simple(
            simple_type(ctx, st, None)?,
        ))))),
        None => Ok(None),
    }
}

/// The simple type an `xs:restriction` (`base`) or `xs:list` (`itemType`) names by the attribute
/// `attr`, or else its anonymous `xs:simpleType` child (XML Schema Part 2 §4.1.2).
///
/// # Errors
///
/// [`ErrorKind::Missing`] at `cloc` when it has neither.
fn named_or_inline(
    ctx: &SchemaCtx,
    c: Node,
    attr: &str,
    element: &str,
    cloc: &Loc,
) -> Result<TypeRef> {
    if let Some(q) = ctx.qname(c, attr)? {
        return Ok(TypeRef::Named(q, cloc.clone()));
    }
    match xs_children(c).find(|g| g.tag_name().name() == "simpleType") {
        Some(st) => Ok(TypeRef::Anonymous(Box::new(TypeDef::Simple(simple_type(
            ctx, st, None,
        )?)))),
        None => Err(Error::at(
            ErrorKind::Missing(format!("`{attr}` or a simpleType in {element}")),
            cloc,
        )),
    }
}

fn simple_type(ctx: &SchemaCtx, node: Node, name: Option<QName>) -> Result<SimpleType> {
    let loc = ctx.doc.loc(node);
    // The type's documentation, then its restriction's, list's or union's.
    let mut doc = ctx.doc.documentation(node);
    for c in xs_children(node)
        .filter(|c| matches!(c.tag_name().name(), "restriction" | "list" | "union"))
    {
        join_doc(&mut doc, ctx.doc.documentation(c));
    }
    for c in xs_children(node) {
        let cloc = ctx.doc.loc(c);
        let variety = match c.tag_name().name() {
            "restriction" => {
                let base = named_or_inline(ctx, c, "base", "xs:restriction", &cloc)?;
                let mut enumerations = Vec::new();
                let mut enumeration_docs = Vec::new();
                let mut facets = Vec::new();
                for f in xs_children(c) {
                    let fname = f.tag_name().name();
                    match fname {
                        "enumeration" => {
                            let value = f.attribute("value").unwrap_or_default().to_owned();
                            if let Some(d) = ctx.doc.documentation(f) {
                                enumeration_docs.push((value.clone(), d));
                            }
                            enumerations.push(value)
                        }
                        "simpleType" | "annotation" => {}
                        _ => facets.push((
                            fname.to_owned(),
                            f.attribute("value").unwrap_or_default().to_owned(),
                        )),
                    }
                }
                SimpleVariety::Restriction {
                    base,
                    enumerations,
                    enumeration_docs,
                    facets,
                }
            }
            "list" => {
                let item = named_or_inline(ctx, c, "itemType", "xs:list", &cloc)?;
                SimpleVariety::List { item }
            }
            "union" => {
                let mut members = Vec::new();
                if let Some(list) = c.attribute("memberTypes") {
                    for m in list.split_ascii_whitespace() {
                        let q = ctx.doc.resolve_qname(c, m)?;
                        let q = if ctx.chameleon && q.ns.is_empty() {
                            QName::new(ctx.tns.clone(), q.local)
                        } else {
                            q
                        };
                        members.push(TypeRef::Named(q, cloc.clone()));
                    }
                }
                for st in xs_children(c).filter(|g| g.tag_name().name() == "simpleType") {
                    members.push(TypeRef::Anonymous(Box::new(TypeDef::Simple(simple_type(
                        ctx, st, None,
                    )?))));
                }
                SimpleVariety::Union { members }
            }
            "annotation" => continue,
            other => {
                return Err(Error::at(
                    ErrorKind::Unsupported(format!("xs:{other} in xs:simpleType")),
                    &cloc,
                ))
            }
        };
        return Ok(SimpleType {
            name,
            variety,
            doc,
            loc,
        });
    }
    Err(Error::at(
        ErrorKind::Missing("restriction, list or union in xs:simpleType".into()),
        &loc,
    ))
}

fn complex_type(ctx: &SchemaCtx, node: Node, name: Option<QName>) -> Result<ComplexType> {
    let loc = ctx.doc.loc(node);
    let mut ct = ComplexType {
        name,
        is_abstract: node.attribute("abstract") == Some("true"),
        mixed: node.attribute("mixed") == Some("true"),
        content: Content::Empty,
        attributes: Vec::new(),
        any_attribute: false,
        any_attribute_doc: None,
        doc: ctx.doc.documentation(node),
        loc,
    };
    for c in xs_children(node) {
        let cloc = ctx.doc.loc(c);
        match c.tag_name().name() {
            "sequence" | "choice" | "all" | "group" => {
                ct.content = Content::Particle(particle(ctx, c)?)
            }
            "simpleContent" | "complexContent" => {
                let simple = c.tag_name().name() == "simpleContent";
                if c.attribute("mixed") == Some("true") {
                    ct.mixed = true;
                }
                let Some(d) = xs_children(c)
                    .find(|d| matches!(d.tag_name().name(), "extension" | "restriction"))
                else {
                    return Err(Error::at(
                        ErrorKind::Missing(format!(
                            "extension or restriction in xs:{}",
                            c.tag_name().name()
                        )),
                        &cloc,
                    ));
                };
                let derivation = if d.tag_name().name() == "extension" {
                    Derivation::Extension
                } else {
                    Derivation::Restriction
                };
                let base = ctx.required_qname(d, "base")?;
                let dloc = ctx.doc.loc(d);
                // The documentation of the content and of its derivation, after the type's own.
                join_doc(&mut ct.doc, ctx.doc.documentation(c));
                join_doc(&mut ct.doc, ctx.doc.documentation(d));
                if simple {
                    ct.content = Content::Simple {
                        derivation,
                        base,
                        loc: dloc,
                    };
                } else {
                    let p = xs_children(d)
                        .find(|p| {
                            matches!(p.tag_name().name(), "sequence" | "choice" | "all" | "group")
                        })
                        .map(|p| particle(ctx, p))
                        .transpose()?;
                    ct.content = Content::Complex {
                        derivation,
                        base,
                        particle: p,
                        loc: dloc,
                    };
                }
                let (attrs, any, any_doc) = attribute_items(ctx, d)?;
                ct.attributes.extend(attrs);
                ct.any_attribute |= any;
                ct.any_attribute_doc = ct.any_attribute_doc.take().or(any_doc);
            }
            "attribute" | "attributeGroup" | "anyAttribute" | "annotation" => {}
            other => {
                return Err(Error::at(
                    ErrorKind::Unsupported(format!("xs:{other} in xs:complexType")),
                    &cloc,
                ))
            }
        }
    }
    let (attrs, any, any_doc) = attribute_items(ctx, node)?;
    ct.attributes.extend(attrs);
    ct.any_attribute |= any;
    ct.any_attribute_doc = ct.any_attribute_doc.take().or(any_doc);
    Ok(ct)
}

/// `extra` after `doc`, as a paragraph of its own.
fn join_doc(doc: &mut Option<String>, extra: Option<String>) {
    if let Some(extra) = extra {
        *doc = Some(match doc.take() {
            Some(own) => format!("{own}\n\n{extra}"),
            None => extra,
        });
    }
}

fn particle(ctx: &SchemaCtx, node: Node) -> Result<Particle> {
    let loc = ctx.doc.loc(node);
    let occurs = occurs(node, ctx.doc)?;
    let term = match node.tag_name().name() {
        "element" => {
            if let Some(r) = ctx.qname(node, "ref")? {
                Term::ElementRef(r)
            } else {
                Term::Element(LocalElement {
                    name: local_name(ctx, node, "xs:element", ctx.element_qualified, &loc)?,
                    ty: element_type(ctx, node)?,
                    nillable: node.attribute("nillable") == Some("true"),
                    default: node.attribute("default").map(str::to_owned),
                    fixed: node.attribute("fixed").map(str::to_owned),
                    doc: ctx.doc.documentation(node),
                    loc: loc.clone(),
                })
            }
        }
        "group" => Term::GroupRef(ctx.required_qname(node, "ref")?),
        "any" => Term::Any {
            namespace: node.attribute("namespace").unwrap_or("##any").to_owned(),
        },
        kind @ ("sequence" | "choice" | "all") => {
            let mut parts = Vec::new();
            for c in xs_children(node) {
                match c.tag_name().name() {
                    "annotation" => {}
                    "element" | "group" | "any" | "sequence" | "choice" | "all" => {
                        parts.push(particle(ctx, c)?)
                    }
                    other => {
                        return Err(Error::at(
                            ErrorKind::Unsupported(format!("xs:{other} in xs:{kind}")),
                            &ctx.doc.loc(c),
                        ))
                    }
                }
            }
            match kind {
                "sequence" => Term::Sequence(parts),
                "choice" => Term::Choice(parts),
                _ => Term::All(parts),
            }
        }
        other => {
            return Err(Error::at(
                ErrorKind::Unsupported(format!("xs:{other} as a particle")),
                &loc,
            ))
        }
    };
    // A local element's documentation is its declaration's; any other particle's is its own.
    let doc = match term {
        Term::Element(_) => None,
        _ => ctx.doc.documentation(node),
    };
    Ok(Particle {
        occurs,
        term,
        doc,
        loc,
    })
}

/// Whether `node` is an `xs:schema` element.
pub fn is_schema(node: &Node) -> bool {
    is_xs(node, "schema")
}
