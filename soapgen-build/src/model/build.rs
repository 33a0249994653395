//! From components to the Rust model: the operations of every SOAP binding become methods (with
//! document/literal wrapped parameters unwrapped, as svcutil and zeep present them), and the types
//! they reach become structs, enums and aliases. Only reachable types are generated. Bindings of one
//! portType that differ only in SOAP version become one client; [`clients`](crate::model::clients)
//! says when, and how clients and fault sets are named.
//!
//! SOAP with Attachments (WSDL 1.1 §5, WS-I Attachments Profile 1.0): in a `mime:multipartRelated`
//! binding the `mime:part` holding `soap:body` gives the envelope's parts, and each message part
//! bound by a `mime:content` becomes an attachment parameter (`mime::Attachment`, after the body's
//! parameters) or, in the output, an attachment after the body's result (the method returns a
//! tuple). The WS-I `swaRef` type becomes `types::SwaRef`, whether its schema is the bundled one or
//! declared inline.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::error::{Error, ErrorKind, Errors, Loc};
use crate::model::clients;
use crate::model::components::*;
use crate::model::ir::*;
use crate::model::names::{self, Scope};

/// Choices of the model builder.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Leave out operations that use unsupported constructs (each listed in the module docs), instead
    /// of failing.
    pub skip_unsupported: bool,
    /// Which WSDL operations to generate (default all); only the types they reach are generated.
    pub selection: crate::model::select::Selection,
    /// Refuse `use="encoded"` under `style="document"` (SOAP 1.1 §5 encoding is for rpc style,
    /// WS-I Basic Profile 1.0 R2706) instead of reading it as literal with a warning.
    pub strict_use: bool,
}

/// What a named or element-anonymous type is generated as.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum TypeKey {
    Named(QName),
    Element(QName),
    /// A named complexType with derived types, as an element's declared type: the enum of it and
    /// them (XML Schema Part 1 §2.6.1 `xsi:type`).
    Derivations(QName),
}

struct Builder<'d> {
    defs: &'d Definitions,
    opts: &'d Options,
    /// Rust names of every named type and every element with an anonymous type.
    names: BTreeMap<TypeKey, String>,
    scope: Scope,
    decls: BTreeMap<String, TypeDecl>,
    queue: VecDeque<TypeKey>,
    queued: BTreeSet<TypeKey>,
    notes: Vec<String>,
    /// What was generated otherwise than the WSDL reads, each located.
    warnings: Vec<Warning>,
    /// The fault set of each portType operation (shared by the bindings of that portType): its
    /// index in `fault_sets`.
    fault_types: BTreeMap<(QName, String), usize>,
    /// The distinct fault sets, in order of first use; named once the clients are
    /// ([`clients`](crate::model::clients)).
    fault_sets: Vec<Vec<(String, Base, QName)>>,
    /// SOAP-ENC array item types being resolved (an array of itself is refused, not recursed).
    arrays: Vec<QName>,
    /// The direct members of each substitution group head (XML Schema Part 1 §3.3.2
    /// {substitution group affiliation}), over every schema read, in name order.
    members: BTreeMap<QName, Vec<QName>>,
    /// The complexTypes derived directly from each named complexType (XML Schema Part 1 §3.4.2
    /// {base type definition}, by extension or restriction, complex or simple content), over every
    /// schema read, in name order.
    derived: BTreeMap<QName, Vec<QName>>,
}

type R<T> = Result<T, Error>;

/// Builds the model of `defs`.
///
/// # Errors
///
/// Every unsupported construct and undefined reference found, each with its location (all
/// operations are tried, so one run reports them all).
pub fn build(defs: &Definitions, source: &str, opts: &Options) -> Result<Module, Errors> {
    let mut b = Builder {
        defs,
        opts,
        names: BTreeMap::new(),
        scope: Scope::new(),
        decls: BTreeMap::new(),
        queue: VecDeque::new(),
        queued: BTreeSet::new(),
        notes: defs.notes.clone(),
        warnings: defs.warnings.clone(),
        fault_types: BTreeMap::new(),
        fault_sets: Vec::new(),
        arrays: Vec::new(),
        members: BTreeMap::new(),
        derived: BTreeMap::new(),
    };
    for (q, e) in &defs.schemas.elements {
        if let Some(head) = &e.substitution_group {
            b.members.entry(head.clone()).or_default().push(q.clone());
        }
    }
    // Names for every named type first, then elements with anonymous types, each in sorted order:
    // the names do not depend on which operations reach them.
    for q in defs.schemas.types.keys() {
        let n = b.scope.unique(&names::type_name(&q.local));
        b.names.insert(TypeKey::Named(q.clone()), n);
    }
    for (q, e) in &defs.schemas.elements {
        if matches!(e.ty, Some(TypeRef::Anonymous(_))) {
            let n = b.scope.unique(&names::type_name(&q.local));
            b.names.insert(TypeKey::Element(q.clone()), n);
        }
    }
    for (q, t) in &defs.schemas.types {
        let TypeDef::Complex(ct) = t else { continue };
        let (Content::Complex { base, .. } | Content::Simple { base, .. }) = &ct.content else {
            continue;
        };
        let complex_base = matches!(defs.schemas.types.get(base), Some(TypeDef::Complex(_)));
        if complex_base && base != q && !is_soap_enc_ns(&base.ns) && !is_soap_array(ct) {
            b.derived.entry(base.clone()).or_default().push(q.clone());
        }
    }
    // Last, so that the names above do not depend on them.
    for q in b.derived.keys() {
        let n = b
            .scope
            .unique(&format!("{}Kind", b.names[&TypeKey::Named(q.clone())]));
        b.names.insert(TypeKey::Derivations(q.clone()), n);
    }
    opts.selection.check(defs, source)?;
    let mut errors = Vec::new();
    let mut clients = Vec::new();
    for binding in defs.bindings.values() {
        match binding.kind {
            BindingKind::Soap11 | BindingKind::Soap12 => match b.client(binding) {
                Ok(c) => clients.push(c),
                Err(mut es) => errors.append(&mut es),
            },
            BindingKind::Http => b.notes.push(format!(
                "binding {} is an HTTP GET/POST binding (WSDL 1.1 §4): not generated; use a SOAP binding of the same portType",
                binding.name.local
            )),
            BindingKind::Other(ref ns) => b.notes.push(format!(
                "binding {} uses the protocol namespace {ns:?}: not generated",
                binding.name.local
            )),
        }
    }
    if !opts.selection.is_all() {
        // Bindings left without operations are left out (before clients are merged and named).
        clients.retain(|c| !c.operations.is_empty());
        let ops = defs
            .bindings
            .values()
            .filter(|b| matches!(b.kind, BindingKind::Soap11 | BindingKind::Soap12))
            .flat_map(|b| b.operations.iter());
        let (all, left_out) = ops.fold((0, 0), |(n, l), o| {
            (n + 1, l + usize::from(!opts.selection.selects(&o.name)))
        });
        b.notes.push(format!(
            "{left_out} of the {all} operations of the SOAP bindings (not selected), and the types \
             only they reach"
        ));
    }
    // One client per portType and set of bindings that differ only in SOAP version, named; then
    // the fault sets, named after them (before the types the queue below names).
    let mut clients = clients::merge(clients, defs);
    let port_type_names = clients::name(&mut clients, defs, &mut b.scope);
    b.name_fault_sets(&mut clients, &port_type_names);
    crate::model::addressing::apply(defs, &mut clients, &mut b.warnings);
    let mut warnings = std::mem::take(&mut b.warnings);
    warnings.extend(clients::warnings(&clients));
    let mut failed: BTreeMap<String, Error> = BTreeMap::new();
    let schema_only =
        defs.bindings.is_empty() && defs.port_types.is_empty() && defs.services.is_empty();
    if schema_only {
        // A schema given on its own (no WSDL): every type and element it defines.
        let keys: Vec<TypeKey> = b
            .names
            .keys()
            .filter(|k| !matches!(k, TypeKey::Named(q) if is_swa_ref(q)))
            .cloned()
            .collect();
        for k in keys {
            b.enqueue(k);
        }
        for e in defs.schemas.elements.values() {
            if let Some(TypeRef::Named(t, loc)) = &e.ty {
                if let Err(err) = b.named_type(t, loc) {
                    errors.push(err);
                }
            }
        }
        b.notes
            .push("no WSDL bindings: the schema's types only, no client".to_owned());
    }
    while let Some(key) = b.queue.pop_front() {
        if let Err(e) = b.type_decl(&key) {
            if opts.skip_unsupported && matches!(e.kind, ErrorKind::Unsupported(_)) {
                failed.insert(b.names[&key].clone(), e);
            } else {
                errors.push(e);
            }
        }
    }
    if !failed.is_empty() {
        b.drop_unsupported(&mut clients, &failed);
    }
    if !errors.is_empty() {
        errors.sort_by(|a, b| a.loc.cmp(&b.loc));
        errors.dedup();
        return Err(Errors(errors));
    }
    if !schema_only && clients.iter().all(|c| c.operations.is_empty()) {
        return Err(no_client(defs, &clients, &b.notes).into());
    }
    b.box_cycles();
    Ok(Module {
        source: source.to_owned(),
        doc: defs.doc.clone(),
        types: b.decls.into_values().collect(),
        encoded: clients
            .iter()
            .any(|c| c.operations.iter().any(|o| o.encoded)),
        clients,
        notes: b.notes,
        warnings,
    })
}

/// The error of a WSDL (not a schema on its own) that gives no client with an operation: every
/// reason an operation, binding or portType was not generated, in one line, located at the binding,
/// portType or service that comes first.
fn no_client(defs: &Definitions, clients: &[ClientDecl], notes: &[String]) -> Error {
    let mut reasons: Vec<String> = notes.to_vec();
    for c in clients {
        let names: Vec<&str> = c.bindings.iter().map(|(b, _)| b.local.as_str()).collect();
        reasons.push(format!(
            "binding {} of portType {} has no operation to generate",
            names.join(", "),
            c.port_type.local
        ));
    }
    for pt in defs.port_types.values() {
        if !defs.bindings.values().any(|b| b.port_type == pt.name) {
            reasons.push(format!(
                "portType {} has no binding (an abstract WSDL: generate from the WSDL that binds \
                 it)",
                pt.name.local
            ));
        }
    }
    if reasons.is_empty() {
        reasons.push("the WSDL has no portType and no binding".to_owned());
    }
    let at = defs
        .bindings
        .values()
        .map(|b| &b.loc)
        .chain(defs.port_types.values().map(|p| &p.loc))
        .chain(defs.services.iter().map(|s| &s.loc))
        .min();
    Error::new(
        ErrorKind::Unsupported(format!(
            "no client to generate (WSDL 1.1 §2.5–§2.6, WSDL 2.0 Part 1 §2.9: a client calls the \
             operations of a SOAP binding): {}",
            reasons.join("; ")
        )),
        at.cloned(),
    )
    .with_hint(
        "a document of schemas only (no portType, binding or service) generates its types alone",
    )
}

/// What an operation's `faults` holds until the fault sets are named: this and the set's index
/// (not an identifier, so never a type's name).
const FAULT_PLACEHOLDER: &str = "#faults";

/// The fault set index of a placeholder `faults` name.
fn fault_placeholder(faults: &str) -> Option<usize> {
    faults.strip_prefix(FAULT_PLACEHOLDER)?.parse().ok()
}

fn unsupported(what: impl Into<String>, loc: &Loc) -> Error {
    Error::at(ErrorKind::Unsupported(what.into()), loc)
}

fn undefined(what: impl Into<String>, loc: &Loc) -> Error {
    Error::at(ErrorKind::Undefined(what.into()), loc)
}

/// The namespace of the WS-I `swaRef` type (WS-I Attachments Profile 1.0 §4.4).
const SWAREF_NS: &str = "http://ws-i.org/profiles/basic/1.1/xsd";

/// Whether `q` is `{http://ws-i.org/profiles/basic/1.1/xsd}swaRef`, generated as the runtime's
/// `types::SwaRef` (an attachment referenced by a `cid:` URL) rather than the `anyURI` its schema
/// restricts.
fn is_swa_ref(q: &QName) -> bool {
    q.ns == SWAREF_NS && q.local == "swaRef"
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

fn card(occurs: Occurs, nillable: bool) -> Option<Card> {
    Some(match (occurs.max, occurs.min, nillable) {
        (Some(0), _, _) => return None,
        (Some(1), 0, false) => Card::Optional,
        (Some(1), 0, true) => Card::OptionalNillable,
        (Some(1), _, false) => Card::One,
        (Some(1), _, true) => Card::Nillable,
        (_, _, false) => Card::Many,
        (_, _, true) => Card::ManyNillable,
    })
}

/// A child of a document/literal wrapper element: name, type, occurrence, nillable, location.
type WrapperChild = (QName, Option<TypeRef>, Occurs, bool, Loc, Option<String>);

/// A field being collected from a content model.
struct Collector {
    fields: Vec<FieldDecl>,
    scope: Scope,
    elements: BTreeSet<QName>,
    /// Some element name occurs twice: the fields are read by position.
    dup: bool,
    /// A model group field (xs:choice, repeated xs:sequence) sits among the fields: they are read
    /// by position. A substitution group's field does not count: its elements are in `elements`.
    groups: bool,
}

impl Collector {
    fn new() -> Self {
        Collector {
            fields: Vec::new(),
            scope: Scope::new(),
            elements: BTreeSet::new(),
            dup: false,
            groups: false,
        }
    }

    /// Whether the element fields must be read by position (`#[xml(sequence)]`): an element name
    /// occurs twice, or a model group field sits among them.
    fn positional(&self) -> bool {
        self.dup || self.groups
    }

    fn push(&mut self, xml_name: &str, mut f: FieldDecl) {
        f.name = names::escape_keyword(&self.scope.unique(&names::field_name(xml_name)));
        self.fields.push(f);
    }
}

impl<'d> Builder<'d> {
    fn schemas(&self) -> &'d SchemaSet {
        &self.defs.schemas
    }

    fn enqueue(&mut self, key: TypeKey) -> String {
        let name = self.names[&key].clone();
        if self.queued.insert(key.clone()) {
            self.queue.push_back(key);
        }
        name
    }

    /// The Rust type of a named type reference.
    fn named_type(&mut self, q: &QName, loc: &Loc) -> R<Base> {
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

    /// The types an element declared with the complexType `q` may hold (XML Schema Part 1 §3.4.6
    /// Type Derivation OK, §2.6.1): `q` unless abstract, then every type derived from it,
    /// transitively, abstract ones left out; breadth first, each level in name order; cycles cut.
    fn derivation_set(&self, q: &QName) -> Vec<QName> {
        let mut seen = BTreeSet::new();
        let mut queue = VecDeque::from([q.clone()]);
        let mut out = Vec::new();
        while let Some(t) = queue.pop_front() {
            if !seen.insert(t.clone()) {
                continue;
            }
            if matches!(self.schemas().types.get(&t), Some(TypeDef::Complex(ct)) if !ct.is_abstract)
            {
                out.push(t.clone());
            }
            if let Some(ds) = self.derived.get(&t) {
                queue.extend(ds.iter().cloned());
            }
        }
        out
    }

    /// The enum of the complexType `q` and its derived types (see [`TypeKey::Derivations`]).
    fn derivations_decl(&mut self, name: String, q: &QName) -> R<()> {
        let Some(TypeDef::Complex(ct)) = self.schemas().types.get(q) else {
            return Ok(());
        };
        let is_abstract = ct.is_abstract;
        let set = self.derivation_set(q);
        if set.is_empty() {
            return Err(unsupported(
                format!("abstract complexType {q} with no concrete type derived from it"),
                &ct.loc,
            ));
        }
        let variants = set
            .into_iter()
            .map(|t| {
                let n = self.enqueue(TypeKey::Named(t.clone()));
                DerivedVariant {
                    name: n.clone(),
                    xsd_type: t,
                    ty: TypeExpr::one(Base::Named(n)),
                }
            })
            .collect();
        let doc = if is_abstract {
            format!(
                "A value of a type derived from the abstract complexType `{q}`, as its `xsi:type` says \
                 (XML Schema Part 1 §2.6.1)."
            )
        } else {
            format!(
                "A value of the complexType `{q}` (no `xsi:type`) or of a type derived from it, as its \
                 `xsi:type` says (XML Schema Part 1 §2.6.1)."
            )
        };
        self.decls.insert(
            name.clone(),
            TypeDecl::Derivations(DerivationsDecl {
                name,
                doc: Some(doc),
                base: q.clone(),
                is_abstract,
                variants,
            }),
        );
        Ok(())
    }

    /// The Rust type of an element's or attribute's type; anonymous types are generated in place,
    /// named after `hint`.
    fn type_ref(&mut self, ty: Option<&TypeRef>, hint: &str) -> R<Base> {
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

    /// The item type of a SOAP-ENC array type (SOAP 1.1 §5.4.2; WSDL 1.1 §2.2): from
    /// `wsdl:arrayType="ns:T[]"` on the `soapenc:arrayType` attribute, else from the one element the
    /// restriction declares, else `anyType` (kept as XML).
    fn soap_array_item(&mut self, ct: &ComplexType, hint: &str) -> R<Base> {
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

    /// The Rust type of a simple type: an enum for enumerations (named `hint` when anonymous),
    /// otherwise what it restricts, `List<…>` for lists, `String` for unions (lossless).
    fn simple_base(&mut self, st: &SimpleType, hint: Option<&str>) -> R<Base> {
        match &st.variety {
            SimpleVariety::Restriction {
                base, enumerations, ..
            } => {
                if !enumerations.is_empty() {
                    let name = self.scope.unique(hint.unwrap_or("Enumeration"));
                    let decl =
                        enum_decl(&name, st, enumerations, "anonymous simpleType".to_owned());
                    self.decls.insert(name.clone(), TypeDecl::Enum(decl));
                    return Ok(Base::Named(name));
                }
                self.type_ref(Some(base), hint.unwrap_or("Value"))
            }
            SimpleVariety::List { item } => {
                let item = self.type_ref(Some(item), &format!("{}Item", hint.unwrap_or("List")))?;
                Ok(Base::List(Box::new(item)))
            }
            SimpleVariety::Union { .. } => Ok(Base::Std("String")),
        }
    }

    fn type_decl(&mut self, key: &TypeKey) -> R<()> {
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
                                let mut doc = st.doc.clone();
                                if let SimpleVariety::Restriction { facets, .. } = &st.variety {
                                    if !facets.is_empty() {
                                        let f = facets
                                            .iter()
                                            .map(|(k, v)| format!("`{k}` = `{v}`"))
                                            .collect::<Vec<_>>()
                                            .join(", ");
                                        let line = format!("Facets (not checked): {f}.");
                                        append_doc(&mut doc, line);
                                    }
                                }
                                if let SimpleVariety::Union { members } = &st.variety {
                                    let line = format!(
                                        "A union of {} member types, kept as its text.",
                                        members.len()
                                    );
                                    append_doc(&mut doc, line);
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
                            d.doc = e.doc.clone();
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
                                        doc: e.doc.clone(),
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

    /// The Rust type of a global element's content.
    fn element_base(&mut self, q: &QName, loc: &Loc) -> R<(Base, bool)> {
        let Some(e) = self.schemas().elements.get(q) else {
            return Err(undefined(format!("element {q}"), loc).with_hint(
                "check the prefix's namespace and that the schema defining it is imported",
            ));
        };
        if e.is_abstract {
            return Err(unsupported(
                format!(
                    "abstract element {q} used where one element is expected (a message part or an \
                     operation wrapper); inside a complex type it is a choice among its substitution \
                     group"
                ),
                loc,
            ));
        }
        self.element_content(q, loc, 0)
    }

    /// The Rust type of a global element's content, abstract or not: its own type, or its head's
    /// when it has none (XML Schema Part 1 §3.3.2 {type definition}).
    fn element_content(&mut self, q: &QName, loc: &Loc, depth: usize) -> R<(Base, bool)> {
        let Some(e) = self.schemas().elements.get(q) else {
            return Err(undefined(format!("element {q}"), loc));
        };
        if depth > 64 {
            return Err(Error::at(
                ErrorKind::Invalid(format!(
                    "substitution group affiliation of {q} deeper than 64 levels (a cycle?)"
                )),
                loc,
            ));
        }
        let nillable = e.nillable;
        let base = match &e.ty {
            Some(TypeRef::Anonymous(_)) => Base::Named(self.enqueue(TypeKey::Element(q.clone()))),
            Some(TypeRef::Named(t, l)) => self.named_type(t, l)?,
            None => match &e.substitution_group {
                Some(head) => self.element_content(head, loc, depth + 1)?.0,
                None => Base::Runtime("types::AnyXml"),
            },
        };
        Ok((base, nillable))
    }

    /// Whether a reference to `q` stands for more than one element: `q` is abstract or the head
    /// of a substitution group (XML Schema Part 1 §3.3.6, §2.2.2.3).
    fn substitutable(&self, q: &QName) -> bool {
        self.members.contains_key(q)
            || self
                .schemas()
                .elements
                .get(q)
                .is_some_and(|e| e.is_abstract)
    }

    /// The elements that may appear where `head` is referenced (XML Schema Part 1 §3.3.6
    /// substitution group): `head` unless abstract, then every member, transitively, across all
    /// schemas read, abstract members left out (their own members kept); in document-independent
    /// order (head first, then breadth first, members by name). Each name once, cycles cut.
    fn substitution_set(&self, head: &QName) -> Vec<QName> {
        let mut seen = BTreeSet::new();
        let mut queue = VecDeque::from([head.clone()]);
        let mut out = Vec::new();
        while let Some(q) = queue.pop_front() {
            if !seen.insert(q.clone()) {
                continue;
            }
            if self
                .schemas()
                .elements
                .get(&q)
                .is_some_and(|e| !e.is_abstract)
            {
                out.push(q.clone());
            }
            if let Some(ms) = self.members.get(&q) {
                queue.extend(ms.iter().cloned());
            }
        }
        out
    }

    fn struct_decl(&mut self, name: &str, ct: &ComplexType, origin: String) -> R<StructDecl> {
        let mut c = Collector::new();
        self.content(name, ct, &mut c, 0)?;
        let sequence = c.positional();
        Ok(StructDecl {
            name: name.to_owned(),
            doc: ct.doc.clone(),
            origin,
            xsd_type: None,
            namespace: majority_namespace(c.fields.iter().map(|f| (f.kind, &f.xml))),
            fields: c.fields,
            sequence,
        })
    }

    /// A model group held by a parent's field (XML Schema Part 1 §3.8): a repeated sequence of
    /// several elements becomes a `#[xml(sequence)]` struct, a repeated choice an enum; the field is
    /// `Vec` of it (or `Option`/one for a group that does not repeat). Returns after pushing the field.
    fn group_field(&mut self, owner: &str, p: &Particle, occ: Occurs, c: &mut Collector) -> R<()> {
        let card = match (occ.max, occ.min) {
            (Some(0), _) => return Ok(()),
            (Some(1), 0) => Card::Optional,
            // A choice one of whose alternatives may be empty may be absent.
            (Some(1), _) if emptiable(p, self.schemas(), 0) => Card::Optional,
            (Some(1), _) => Card::One,
            _ => Card::Many,
        };
        let once = Particle {
            occurs: Occurs::ONCE,
            term: p.term.clone(),
            loc: p.loc.clone(),
        };
        let (field, name, doc) = match &p.term {
            Term::Choice(ps) => {
                // A substitution group head referenced alone: named after the head.
                let head = match ps.as_slice() {
                    [Particle {
                        term: Term::ElementRef(h),
                        ..
                    }] => Some(h.local.clone()),
                    _ => None,
                };
                let hint = head.as_deref().map_or_else(
                    || format!("{owner}Choice"),
                    |h| format!("{owner}{}", names::type_name(h)),
                );
                let name = self.scope.unique(&hint);
                let origin = match &head {
                    Some(h) => format!("substitution group of {h} in {owner}"),
                    None => format!("xs:choice in {owner}"),
                };
                self.choice_decl(&name, origin, ps, &p.loc)?;
                let doc = match (&head, card == Card::Many) {
                    (Some(_), true) => "The elements of a substitution group, in document order.",
                    (Some(_), false) => "The element of a substitution group present.",
                    (None, true) => "The occurrences of a repeated choice, in document order.",
                    (None, false) => "The alternative present (xs:choice).",
                };
                c.groups |= head.is_none();
                let field: &str = head.as_deref().unwrap_or("choice");
                (field.to_owned(), name, doc)
            }
            _ => {
                let name = self.scope.unique(&format!("{owner}Sequence"));
                self.sequence_decl(&name, &once, format!("a repeated sequence in {owner}"))?;
                c.groups = true;
                let doc = "The occurrences of a repeated sequence, in document order.";
                ("sequence".to_owned(), name, doc)
            }
        };
        c.push(
            &field,
            FieldDecl {
                constraint: None,
                name: String::new(),
                xml: QName::new("", ""),
                kind: FieldKind::Group,
                ty: TypeExpr {
                    base: Base::Named(name),
                    card,
                    boxed: false,
                },
                min_occurs: if card == Card::Many { occ.min } else { 0 },
                doc: Some(doc.into()),
            },
        );
        Ok(())
    }

    /// A `#[xml(sequence)]` struct named `name` for the particle `p` (read by position; no
    /// attributes, so it can be a group inside another type's content).
    fn sequence_decl(&mut self, name: &str, p: &Particle, origin: String) -> R<()> {
        let mut c = Collector::new();
        self.particle(name, p, Occurs::ONCE, false, &mut c)?;
        let decl = StructDecl {
            name: name.to_owned(),
            doc: None,
            origin,
            xsd_type: None,
            namespace: majority_namespace(c.fields.iter().map(|f| (f.kind, &f.xml))),
            fields: c.fields,
            sequence: true,
        };
        self.decls.insert(name.to_owned(), TypeDecl::Struct(decl));
        Ok(())
    }

    /// The enum for the choice of `ps` (XML Schema Part 1 §3.8), named `name`; `origin` says what
    /// it was generated from.
    fn choice_decl(&mut self, name: &str, origin: String, ps: &[Particle], loc: &Loc) -> R<()> {
        let mut scope = Scope::new();
        let mut variants = Vec::new();
        for q in ps {
            self.alternative(name, q, Occurs::ONCE, &mut scope, &mut variants, 0)?;
        }
        if variants.is_empty() {
            return Err(unsupported("a choice with no alternative", loc));
        }
        let namespace = majority_namespace(
            variants
                .iter()
                .filter_map(|v| v.xml.as_ref().map(|q| (FieldKind::Element, q))),
        );
        let decl = ChoiceDecl {
            name: name.to_owned(),
            doc: None,
            origin,
            namespace,
            variants,
        };
        self.decls.insert(name.to_owned(), TypeDecl::Choice(decl));
        Ok(())
    }

    /// The variants of one alternative `q` of the choice `owner`: an element, the alternatives of a
    /// nested single choice (flattened), or any other particle as a generated sequence struct.
    fn alternative(
        &mut self,
        owner: &str,
        q: &Particle,
        outer: Occurs,
        scope: &mut Scope,
        variants: &mut Vec<VariantDecl>,
        depth: usize,
    ) -> R<()> {
        if depth > 64 {
            return Err(unsupported("choices nested deeper than 64 levels", &q.loc));
        }
        let occ = q.occurs.times(outer);
        if occ.max == Some(0) {
            return Ok(());
        }
        let mut element = |name: &QName, base: Base, nillable: bool, doc| {
            let card = match (occ.max == Some(1), nillable) {
                (true, false) => Card::One,
                (true, true) => Card::Nillable,
                (false, false) => Card::Many,
                (false, true) => Card::ManyNillable,
            };
            variants.push(VariantDecl {
                name: scope.unique(&names::type_name(&name.local)),
                xml: Some(name.clone()),
                any: false,
                ty: TypeExpr {
                    base,
                    card,
                    boxed: false,
                },
                doc,
            });
        };
        match &q.term {
            Term::Element(le) => {
                let hint = format!("{owner}{}", names::type_name(&le.name.local));
                let base = self.type_ref(le.ty.as_ref(), &hint)?;
                element(&le.name, base, le.nillable, le.doc.clone());
                return Ok(());
            }
            Term::ElementRef(r) => {
                // A head stands for each element of its substitution group (§3.3.6).
                let set = if self.substitutable(r) {
                    self.substitution_set(r)
                } else {
                    vec![r.clone()]
                };
                if set.is_empty() {
                    return Err(unsupported(
                        format!("abstract element {r} with no concrete substitution group member"),
                        &q.loc,
                    ));
                }
                for m in &set {
                    let (base, nillable) = self.element_content(m, &q.loc, 0)?;
                    let doc = self.schemas().elements.get(m).and_then(|e| e.doc.clone());
                    element(m, base, nillable, doc);
                }
                return Ok(());
            }
            Term::Choice(inner) if occ.max == Some(1) => {
                for i in inner {
                    self.alternative(owner, i, occ, scope, variants, depth + 1)?;
                }
                return Ok(());
            }
            Term::GroupRef(g) if occ.max == Some(1) => {
                let Some(gd) = self.schemas().groups.get(g).cloned() else {
                    return Err(undefined(format!("group {g}"), &q.loc));
                };
                if matches!(gd.particle.term, Term::Choice(_)) {
                    return self.alternative(owner, &gd.particle, occ, scope, variants, depth + 1);
                }
            }
            Term::Any { namespace } => {
                variants.push(VariantDecl {
                    name: scope.unique("Any"),
                    xml: None,
                    any: true,
                    ty: TypeExpr::one(Base::Runtime("types::AnyElement")),
                    doc: Some(format!(
                        "An element matched by the wildcard `xs:any namespace=\"{namespace}\"`, kept as XML."
                    )),
                });
                return Ok(());
            }
            _ => {}
        }
        let first = first_element(q, self.schemas(), 0)
            .map(|n| names::type_name(&n.local))
            .unwrap_or_else(|| "Sequence".to_owned());
        let vname = scope.unique(&first);
        let sname = self.scope.unique(&format!("{owner}{vname}"));
        let p = Particle {
            occurs: occ,
            term: q.term.clone(),
            loc: q.loc.clone(),
        };
        self.sequence_decl(&sname, &p, format!("an alternative of {owner}"))?;
        variants.push(VariantDecl {
            name: vname,
            xml: None,
            any: false,
            ty: TypeExpr::one(Base::Named(sname)),
            doc: Some("A sequence of elements (one alternative of the choice).".into()),
        });
        Ok(())
    }

    /// Collects the fields of `ct`'s content and attributes, base types first.
    fn content(&mut self, owner: &str, ct: &ComplexType, c: &mut Collector, depth: usize) -> R<()> {
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
                        FieldDecl {
                            constraint: None,
                            name: String::new(),
                            xml: QName::new("", ""),
                            kind: FieldKind::Text,
                            ty: TypeExpr::one(Base::Std("String")),
                            min_occurs: 0,
                            doc: Some("The text content (mixed content without elements).".into()),
                        },
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
                        push_any_attribute(c);
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
            push_any_attribute(c);
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
                c.push(
                    "value",
                    FieldDecl {
                        constraint: None,
                        name: String::new(),
                        xml: QName::new("", ""),
                        kind: FieldKind::Text,
                        ty: TypeExpr::one(ty),
                        min_occurs: 0,
                        doc: Some("The simple content.".into()),
                    },
                );
                Ok(())
            }
        }
    }

    fn attributes(
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
                        push_any_attribute(c);
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
                            Some(g) => (g.ty, a.doc.clone().or(g.doc)),
                            // xml:lang and friends without xml.xsd loaded: plain strings.
                            None if a.name.ns == "http://www.w3.org/XML/1998/namespace" => {
                                (None, a.doc.clone())
                            }
                            None => return Err(undefined(format!("attribute {}", a.name), &a.loc)),
                        }
                    } else {
                        (a.ty.clone(), a.doc.clone())
                    };
                    let base = match &ty_ref {
                        None => Base::Std("String"),
                        Some(t) => {
                            let hint = format!("{}Attribute", names::type_name(&a.name.local));
                            self.type_ref(Some(t), &hint)?
                        }
                    };
                    let card = if a.use_ == AttributeUse::Required {
                        Card::One
                    } else {
                        Card::Optional
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
                        Card::One
                    } else {
                        card
                    };
                    if let Some((d, fixed)) = &constraint {
                        let what = if *fixed { "Fixed value" } else { "Default" };
                        let line = format!("{what} when absent: `{d}`.");
                        append_doc(&mut doc, line);
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

    /// Flattens a particle into fields, multiplying occurrence bounds through groups. A choice becomes
    /// optional fields (at most one present).
    fn particle(
        &mut self,
        owner: &str,
        p: &Particle,
        outer: Occurs,
        in_choice: bool,
        c: &mut Collector,
    ) -> R<()> {
        let mut occ = p.occurs.times(outer);
        if in_choice {
            occ.min = 0;
        }
        match &p.term {
            Term::Element(le) => {
                let hint = format!("{owner}{}", names::type_name(&le.name.local));
                let base = self.type_ref(le.ty.as_ref(), &hint)?;
                let n = c.fields.len();
                self.element_field(&le.name, base, occ, le.nillable, le.doc.clone(), &le.loc, c)?;
                let (simple, default, fixed) = (
                    self.is_simple_type(le.ty.as_ref()),
                    le.default.as_ref(),
                    le.fixed.as_ref(),
                );
                value_constraint(c.fields.get_mut(n), simple, default, fixed);
                Ok(())
            }
            Term::ElementRef(q) if self.substitutable(q) => {
                // A reference to a substitution group head: a choice among the group's elements
                // (XML Schema Part 1 §3.3.6), with the reference's occurrence bounds.
                let choice = Particle {
                    occurs: occ,
                    term: Term::Choice(vec![Particle {
                        occurs: Occurs::ONCE,
                        term: p.term.clone(),
                        loc: p.loc.clone(),
                    }]),
                    loc: p.loc.clone(),
                };
                // Read by name like any element field, unless a name is also another field's.
                for m in self.substitution_set(q) {
                    if !c.elements.insert(m) {
                        c.dup = true;
                    }
                }
                self.group_field(owner, &choice, occ, c)
            }
            Term::ElementRef(q) => {
                let (base, nillable) = self.element_base(q, &p.loc)?;
                let decl = self.schemas().elements.get(q);
                let doc = decl.and_then(|e| e.doc.clone());
                let n = c.fields.len();
                self.element_field(q, base, occ, nillable, doc, &p.loc, c)?;
                if let Some(e) = decl {
                    let simple = self.is_simple_type(e.ty.as_ref());
                    value_constraint(
                        c.fields.get_mut(n),
                        simple,
                        e.default.as_ref(),
                        e.fixed.as_ref(),
                    );
                }
                Ok(())
            }
            Term::GroupRef(q) => {
                let Some(g) = self.schemas().groups.get(q).cloned() else {
                    return Err(undefined(format!("group {q}"), &p.loc));
                };
                self.particle(owner, &g.particle, occ, in_choice, c)
            }
            Term::Sequence(ps) | Term::All(ps) => {
                if occ.max != Some(1) && count_elements(ps, self.schemas()) > 1 {
                    if matches!(p.term, Term::All(_)) {
                        return Err(unsupported(
                            "a repeated xs:all of several elements (maxOccurs > 1 on xs:all)",
                            &p.loc,
                        ));
                    }
                    return self.group_field(owner, p, occ, c);
                }
                for q in ps {
                    self.particle(owner, q, occ, in_choice, c)?;
                }
                Ok(())
            }
            Term::Choice(ps) => {
                // A choice between several elements is an enum (`Vec` of it when it repeats).
                if count_elements(ps, self.schemas()) > 1 {
                    return self.group_field(owner, p, occ, c);
                }
                let before = c.fields.len();
                for q in ps {
                    self.particle(owner, q, occ, true, c)?;
                }
                let names: Vec<String> = c.fields[before..]
                    .iter()
                    .map(|f| format!("`{}`", f.name))
                    .collect();
                if names.len() > 1 {
                    for f in &mut c.fields[before..] {
                        let line = format!(
                            "One of a choice: at most one of {} is present.",
                            names.join(", ")
                        );
                        append_doc(&mut f.doc, line);
                    }
                }
                Ok(())
            }
            Term::Any { namespace } => {
                if let Some(existing) = c.fields.iter_mut().find(|f| f.kind == FieldKind::Any) {
                    existing.ty.card = Card::Many;
                    return Ok(());
                }
                let card = if occ.max == Some(1) {
                    Card::Optional
                } else {
                    Card::Many
                };
                if occ.max == Some(0) {
                    return Ok(());
                }
                c.push(
                    "any",
                    FieldDecl {
                        constraint: None,
                        name: String::new(),
                        xml: QName::new("", ""),
                        kind: FieldKind::Any,
                        ty: TypeExpr {
                            base: Base::Runtime("types::AnyElement"),
                            card,
                            boxed: false,
                        },
                        min_occurs: 0,
                        doc: Some(format!(
                            "Elements matched by the wildcard `xs:any namespace=\"{namespace}\"`, kept as XML."
                        )),
                    },
                );
                Ok(())
            }
        }
    }

    /// Whether a declared element type is a simple type (XML Schema Part 2), whose values the
    /// runtime reads from text; `None` (no type: `xs:anyType`) is not.
    fn is_simple_type(&self, ty: Option<&TypeRef>) -> bool {
        match ty {
            None => false,
            Some(TypeRef::Anonymous(td)) => matches!(&**td, TypeDef::Simple(_)),
            Some(TypeRef::Named(q, _)) if q.is_xs() => q.local != "anyType",
            Some(TypeRef::Named(q, _)) => {
                matches!(self.schemas().types.get(q), Some(TypeDef::Simple(_)))
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn element_field(
        &mut self,
        name: &QName,
        base: Base,
        occ: Occurs,
        nillable: bool,
        doc: Option<String>,
        loc: &Loc,
        c: &mut Collector,
    ) -> R<()> {
        let Some(card) = card(occ, nillable) else {
            return Ok(()); // maxOccurs="0": the element cannot occur
        };
        if !c.elements.insert(name.clone()) {
            // The same element twice (`<a/><b/><a/>`): distinct fields, read by position.
            c.dup = true;
        }
        let _ = loc;
        c.push(
            &name.local,
            FieldDecl {
                constraint: None,
                name: String::new(),
                xml: name.clone(),
                kind: FieldKind::Element,
                ty: TypeExpr {
                    base,
                    card,
                    boxed: false,
                },
                min_occurs: if matches!(card, Card::Many | Card::ManyNillable) {
                    occ.min
                } else {
                    0
                },
                doc,
            },
        );
        Ok(())
    }

    /// With `skip_unsupported`: drops the types that failed and every type that reaches one, and the
    /// operations that use any of them (each listed in the notes with the reason).
    fn drop_unsupported(&mut self, clients: &mut [ClientDecl], failed: &BTreeMap<String, Error>) {
        fn named(b: &Base) -> Option<&str> {
            match b {
                Base::Named(n) => Some(n),
                Base::List(i) => named(i),
                _ => None,
            }
        }
        // Which failed type each broken type reaches.
        let mut broken: BTreeMap<String, String> =
            failed.keys().map(|k| (k.clone(), k.clone())).collect();
        loop {
            let mut grew = false;
            for (name, d) in &self.decls {
                if broken.contains_key(name) {
                    continue;
                }
                let refs: Vec<&str> = match d {
                    TypeDecl::Struct(st) => {
                        st.fields.iter().filter_map(|f| named(&f.ty.base)).collect()
                    }
                    TypeDecl::Alias(a) => named(&a.target).into_iter().collect(),
                    TypeDecl::Faults(f) => f.variants.iter().filter_map(|v| named(&v.1)).collect(),
                    TypeDecl::Choice(c) => c
                        .variants
                        .iter()
                        .filter_map(|v| named(&v.ty.base))
                        .collect(),
                    TypeDecl::Derivations(d) => d
                        .variants
                        .iter()
                        .filter_map(|v| named(&v.ty.base))
                        .collect(),
                    TypeDecl::Enum(_) => Vec::new(),
                };
                if let Some(cause) = refs.iter().find_map(|r| broken.get(*r)) {
                    broken.insert(name.clone(), cause.clone());
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        self.decls.retain(|n, _| !broken.contains_key(n));
        for c in clients.iter_mut() {
            let client = c.name.clone();
            c.operations.retain(|op| {
                let types = op
                    .params
                    .iter()
                    .chain(op.headers.iter())
                    .map(|p| &p.ty.base)
                    .chain(op.ret.iter().map(|t| &t.base))
                    .filter_map(named)
                    .chain(op.faults.as_deref());
                let cause = types.into_iter().find_map(|t| broken.get(t).map(|c| (t, c)));
                match cause {
                    Some((t, c)) => {
                        self.notes.push(format!(
                            "operation {} of client {client} not generated: it uses {t}, which needs {c}: {}",
                            op.wsdl_name, failed[c]
                        ));
                        false
                    }
                    None => true,
                }
            });
        }
    }

    /// Boxes the fields that make a type contain itself by value (through `T` or `Option<T>` fields):
    /// the fields between types of one strongly connected component.
    fn box_cycles(&mut self) {
        let names: Vec<String> = self.decls.keys().cloned().collect();
        let index: BTreeMap<&str, usize> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); names.len()];
        fn members(d: &mut TypeDecl) -> Vec<&mut TypeExpr> {
            match d {
                TypeDecl::Struct(s) => s.fields.iter_mut().map(|f| &mut f.ty).collect(),
                TypeDecl::Choice(c) => c.variants.iter_mut().map(|v| &mut v.ty).collect(),
                TypeDecl::Derivations(d) => d.variants.iter_mut().map(|v| &mut v.ty).collect(),
                _ => Vec::new(),
            }
        }
        for (i, n) in names.iter().enumerate() {
            if let Some(d) = self.decls.get_mut(n) {
                for ty in members(d) {
                    if let (Base::Named(t), false) =
                        (&ty.base, matches!(ty.card, Card::Many | Card::ManyNillable))
                    {
                        if let Some(&j) = index.get(t.as_str()) {
                            edges[i].push(j);
                        }
                    }
                }
            }
        }
        let comp = tarjan(&edges);
        for (i, n) in names.iter().enumerate() {
            if let Some(d) = self.decls.get_mut(n) {
                if matches!(d, TypeDecl::Derivations(_)) {
                    // Its variants are structs: every cycle through it continues through a
                    // struct field, boxed below, so the variants stay unboxed.
                    continue;
                }
                for ty in members(d) {
                    if let Base::Named(t) = &ty.base {
                        if matches!(ty.card, Card::Many | Card::ManyNillable) {
                            continue;
                        }
                        if let Some(&j) = index.get(t.as_str()) {
                            if comp[i] == comp[j] {
                                ty.boxed = true;
                            }
                        }
                    }
                }
            }
        }
    }

    /// The client of one SOAP binding, without name, ports or summary yet: [`clients::merge`]
    /// merges the clients of bindings that differ only in SOAP version and fills them in.
    fn client(&mut self, binding: &Binding) -> Result<ClientDecl, Vec<Error>> {
        let defs = self.defs;
        let Some(pt) = defs.port_types.get(&binding.port_type) else {
            return Err(vec![undefined(
                format!("portType {}", binding.port_type),
                &binding.loc,
            )]);
        };
        let Some(version) = clients::version(&binding.kind) else {
            return Err(vec![unsupported(
                format!("binding {} is not a SOAP binding", binding.name),
                &binding.loc,
            )]);
        };
        let mut errors = Vec::new();
        let mut ops = Vec::new();
        let methods = method_names(binding, pt);
        for (bop, method) in binding.operations.iter().zip(methods) {
            if !self.opts.selection.selects(&bop.name) {
                continue;
            }
            match self.operation(binding, pt, bop, method) {
                Ok(op) => ops.push(op),
                Err(e)
                    if self.opts.skip_unsupported
                        && matches!(e.kind, ErrorKind::Unsupported(_)) =>
                {
                    self.notes.push(format!(
                        "operation {} of binding {} not generated: {e}",
                        bop.name, binding.name.local
                    ));
                }
                Err(e) => errors.push(e),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let service_doc = defs
            .services
            .iter()
            .find(|s| s.ports.iter().any(|p| p.binding == binding.name))
            .and_then(|s| s.doc.clone());
        let doc = match (service_doc, pt.doc.clone()) {
            (Some(s), Some(p)) if s != p => Some(format!("{s}\n\n{p}")),
            (s, p) => s.or(p),
        };
        Ok(ClientDecl {
            name: String::new(),
            doc,
            summary: String::new(),
            port_type: pt.name.clone(),
            bindings: vec![(binding.name.clone(), version)],
            versions: vec![version],
            namespace: defs.target_namespace.clone(),
            endpoint: None,
            ports: Vec::new(),
            operations: ops,
            addressing: Vec::new(),
        })
    }

    /// Names the fault sets ([`clients`] documents how), adds their types and gives each operation
    /// its set's name.
    fn name_fault_sets(
        &mut self,
        clients: &mut [ClientDecl],
        port_type_names: &BTreeMap<QName, String>,
    ) {
        if self.fault_sets.is_empty() {
            return;
        }
        // The operations of each set, in client and operation order, each once.
        let mut users: Vec<Vec<(QName, String)>> = vec![Vec::new(); self.fault_sets.len()];
        let mut order: Vec<usize> = Vec::new();
        for c in clients.iter() {
            for op in &c.operations {
                let Some(i) = op.faults.as_deref().and_then(fault_placeholder) else {
                    continue;
                };
                let user = (c.port_type.clone(), op.wsdl_name.clone());
                if !users[i].contains(&user) {
                    users[i].push(user);
                }
                if !order.contains(&i) {
                    order.push(i);
                }
            }
        }
        // A set every operation of a portType declares is named after that portType's client.
        let whole = |i: usize| -> Option<(&QName, &String)> {
            port_type_names.iter().find(|(pt, _)| {
                let mut ops = clients
                    .iter()
                    .filter(|c| &c.port_type == *pt)
                    .flat_map(|c| c.operations.iter())
                    .peekable();
                ops.peek().is_some()
                    && ops.all(|o| o.faults.as_deref().and_then(fault_placeholder) == Some(i))
            })
        };
        let mut names: BTreeMap<usize, String> = BTreeMap::new();
        for &i in &order {
            let variants: Vec<&str> = self.fault_sets[i].iter().map(|v| v.0.as_str()).collect();
            let base =
                clients::fault_set_name(&variants, &users[i], whole(i).map(|w| w.1.as_str()));
            let name = self.scope.unique(&base);
            let ops: Vec<String> = users[i].iter().map(|(_, op)| format!("`{op}`")).collect();
            const LISTED: usize = 16;
            let listed = if ops.len() > LISTED {
                format!(
                    "{} and {} more",
                    ops[..LISTED].join(", "),
                    ops.len() - LISTED
                )
            } else {
                match ops.as_slice() {
                    [init @ .., last] if !init.is_empty() => {
                        format!("{} and {last}", init.join(", "))
                    }
                    _ => ops.join(""),
                }
            };
            let doc = match whole(i) {
                Some((pt, _)) => format!(
                    "The faults every operation of portType `{}` declares: {listed}.",
                    pt.local
                ),
                None if ops.len() == 1 => format!("The faults the operation {listed} declares."),
                None => format!("The faults the operations {listed} declare."),
            };
            self.decls.insert(
                name.clone(),
                TypeDecl::Faults(FaultsDecl {
                    name: name.clone(),
                    doc: Some(doc),
                    variants: self.fault_sets[i].clone(),
                }),
            );
            names.insert(i, name);
        }
        for c in clients.iter_mut() {
            for op in &mut c.operations {
                if let Some(i) = op.faults.as_deref().and_then(fault_placeholder) {
                    op.faults = names.get(&i).cloned();
                }
            }
        }
    }

    fn message(&self, q: &QName, loc: &Loc) -> R<&'d Message> {
        self.defs
            .messages
            .get(q)
            .ok_or_else(|| undefined(format!("message {q}"), loc))
    }

    fn operation(
        &mut self,
        binding: &Binding,
        pt: &PortType,
        bop: &BindingOperation,
        method: String,
    ) -> R<OperationDecl> {
        let Some(op) = port_type_operation(binding, pt, bop) else {
            return Err(undefined(
                format!("operation {} in portType {}", bop.name, pt.name),
                &bop.loc,
            ));
        };
        let style = bop.style.or(binding.style).unwrap_or(Style::Document);
        let Some(input_q) = &op.input else {
            return Err(unsupported("an operation without input", &op.loc));
        };
        let input = self.message(input_q, &op.loc)?;
        let output = op
            .output
            .as_ref()
            .map(|q| self.message(q, &op.loc))
            .transpose()?;
        let mut in_bind = bop.input.clone();
        let mut out_bind = bop.output.clone();
        // SOAP 1.1 §5 encoding: rpc style (§7). document/encoded is an erratum of published WSDLs
        // (WS-I Basic Profile 1.0 R2706 forbids encoded): read as literal, unless `strict_use`.
        let encoded_at = [&in_bind, &out_bind]
            .into_iter()
            .flatten()
            .find(|b| b.use_ == BodyUse::Encoded)
            .map(|b| b.loc.clone());
        if let (Some(at), false) = (&encoded_at, style == Style::Rpc) {
            if self.opts.strict_use {
                return Err(unsupported(
                    "use=\"encoded\" with style=\"document\" (document/encoded; rpc/encoded is \
                     supported, and without strict use document/encoded is read as literal)",
                    at,
                ));
            }
            self.warnings.push(Warning {
                message: format!(
                    "operation {} of binding {}: use=\"encoded\" with style=\"document\" read as \
                     use=\"literal\" (SOAP encoding belongs to rpc style, SOAP 1.1 §5, §7; WS-I \
                     Basic Profile 1.0 R2706 forbids encoded)",
                    bop.name, binding.name.local
                ),
                loc: at.clone(),
            });
            for b in [&mut in_bind, &mut out_bind].into_iter().flatten() {
                b.use_ = BodyUse::Literal;
            }
        }
        let encoded = style == Style::Rpc && encoded_at.is_some();
        let header_parts: BTreeSet<(QName, String)> = in_bind
            .iter()
            .chain(out_bind.iter())
            .flat_map(|b| b.headers.iter().map(|(m, p, _)| (m.clone(), p.clone())))
            .collect();
        // Parts bound to MIME attachments (WSDL 1.1 §5.3): each must exist, once.
        for (msg, bind) in [(Some(input), &in_bind), (output, &out_bind)] {
            let (Some(msg), Some(bind)) = (msg, bind) else {
                continue;
            };
            let mut seen = BTreeSet::new();
            for a in &bind.attachments {
                if !msg.parts.iter().any(|p| p.name == a.part) {
                    return Err(undefined(
                        format!(
                            "part {} of message {} (mime:content part=)",
                            a.part, msg.name
                        ),
                        &a.loc,
                    ));
                }
                let in_body = bind.parts.as_ref().is_some_and(|l| l.contains(&a.part));
                if !seen.insert(a.part.as_str()) || in_body {
                    return Err(unsupported(
                        format!(
                            "message part {} bound twice (to two mime:parts, or to soap:body and \
                             a mime:part)",
                            a.part
                        ),
                        &a.loc,
                    ));
                }
            }
        }
        let body_parts = |msg: &'d Message, bind: &Option<BindingMessage>| -> Vec<&'d Part> {
            let attached = |name: &str| {
                bind.as_ref()
                    .is_some_and(|b| b.attachments.iter().any(|a| a.part == name))
            };
            msg.parts
                .iter()
                .filter(|p| match bind.as_ref().and_then(|b| b.parts.as_ref()) {
                    Some(list) => list.contains(&p.name),
                    None => {
                        !header_parts.contains(&(msg.name.clone(), p.name.clone()))
                            && !attached(&p.name)
                    }
                })
                .collect()
        };
        let in_parts = body_parts(input, &in_bind);
        let out_parts = output.map(|m| body_parts(m, &out_bind));
        // A document-style output message with no parts at all (WSDL 1.1 §2.3.1 allows it): the
        // response Body is empty, read as a one-way operation's acknowledgement (a fault is still
        // reported).
        let out_parts = match (style, output) {
            (Style::Document, Some(m))
                if m.parts.is_empty()
                    && out_bind.as_ref().is_none_or(|b| b.attachments.is_empty()) =>
            {
                None
            }
            _ => out_parts,
        };
        // An overloaded operation name (WSDL 1.1 §2.4.5) is told apart by its input's name.
        let mut decl = OperationDecl {
            method,
            wsdl_name: op.name.clone(),
            doc: op.doc.clone(),
            action: bop.soap_action.clone().unwrap_or_default(),
            request: QName::new("", ""),
            empty_request: false,
            response: None,
            bare: false,
            encoded,
            bare_response: false,
            result: None,
            result_min: 0,
            params: Vec::new(),
            headers: Vec::new(),
            ret: None,
            faults: None,
            attachments: Vec::new(),
            response_attachments: Vec::new(),
        };
        match style {
            Style::Document => self.document_op(op, &in_parts, out_parts.as_deref(), &mut decl)?,
            Style::Rpc => self.rpc_op(
                op,
                &in_parts,
                out_parts.as_deref(),
                in_bind.as_ref(),
                out_bind.as_ref(),
                &mut decl,
            )?,
        }
        // Headers: element parts sent as header blocks, each optional.
        let mut pscope = Scope::new();
        for p in &decl.params {
            pscope.unique(p.name.trim_start_matches("r#"));
        }
        // Attachments: parameters after the body's, results after the body's (SwA).
        for a in in_bind.iter().flat_map(|b| b.attachments.iter()) {
            decl.attachments.push(AttachmentDecl {
                name: String::new(),
                part: a.part.clone(),
                content_types: a.content_types.clone(),
            });
        }
        for a in out_bind.iter().flat_map(|b| b.attachments.iter()) {
            decl.response_attachments.push(AttachmentDecl {
                name: a.part.clone(),
                part: a.part.clone(),
                content_types: a.content_types.clone(),
            });
        }
        for (mq, part, loc) in in_bind.iter().flat_map(|b| b.headers.iter()) {
            let m = self.message(mq, loc)?;
            let Some(p) = m.parts.iter().find(|p| &p.name == part) else {
                return Err(undefined(format!("part {part} of message {mq}"), loc));
            };
            let PartKind::Element(eq) = &p.kind else {
                return Err(unsupported(
                    "a soap:header part typed with type= (headers are elements)",
                    &p.loc,
                ));
            };
            let (base, _) = self.element_base(eq, &p.loc)?;
            decl.headers.push(ParamDecl {
                name: names::escape_keyword(&pscope.unique(&names::field_name(&eq.local))),
                xml: eq.clone(),
                ty: TypeExpr {
                    base,
                    card: Card::Optional,
                    boxed: false,
                },
            });
        }
        for a in &mut decl.attachments {
            a.name = names::escape_keyword(&pscope.unique(&names::field_name(&a.part)));
        }
        // Faults: each declared fault's single element part is a variant of the operation's fault type.
        if let Some(&i) = self.fault_types.get(&(pt.name.clone(), op.name.clone())) {
            decl.faults = Some(format!("{FAULT_PLACEHOLDER}{i}"));
        } else if !op.faults.is_empty() {
            let mut variants = Vec::new();
            let mut vscope = Scope::new();
            for (fname, mq) in &op.faults {
                let m = self.message(mq, &op.loc)?;
                let [part] = m.parts.as_slice() else {
                    return Err(unsupported(
                        format!(
                            "fault message {mq} with {} parts (WSDL 1.1 §3.6 allows one)",
                            m.parts.len()
                        ),
                        &m.loc,
                    ));
                };
                let (base, detail) = match &part.kind {
                    PartKind::Element(eq) => (self.element_base(eq, &part.loc)?.0, eq.clone()),
                    // rpc/encoded (SOAP 1.1 §5): the detail entry is an accessor named after the
                    // part, its type given by type=.
                    PartKind::Type(t) if decl.encoded => (
                        self.named_type(t, &part.loc)?,
                        QName::new("", part.name.clone()),
                    ),
                    PartKind::Type(_) => {
                        return Err(unsupported(
                            "a fault part typed with type= (fault details are elements)",
                            &part.loc,
                        ))
                    }
                };
                variants.push((vscope.unique(&names::type_name(fname)), base, detail));
            }
            // Operations that declare the same faults share one set, named once the clients are.
            let i = match self.fault_sets.iter().position(|f| *f == variants) {
                Some(i) => i,
                None => {
                    self.fault_sets.push(variants);
                    self.fault_sets.len() - 1
                }
            };
            self.fault_types
                .insert((pt.name.clone(), op.name.clone()), i);
            decl.faults = Some(format!("{FAULT_PLACEHOLDER}{i}"));
        }
        Ok(decl)
    }

    /// The element of a document-style message: exactly one `element=` part.
    fn doc_part(&self, parts: &[&Part], op: &PortTypeOperation, what: &str) -> R<(QName, Loc)> {
        match parts {
            [p] => match &p.kind {
                PartKind::Element(q) => Ok((q.clone(), p.loc.clone())),
                PartKind::Type(_) => Err(unsupported(
                    format!("a document-style {what} part typed with type= (WS-I BP R2204 requires element=)"),
                    &p.loc,
                )),
            },
            [] => Err(unsupported(format!("a document-style {what} message with no parts"), &op.loc)),
            _ => Err(unsupported(
                format!("a document-style {what} message with {} body parts", parts.len()),
                &op.loc,
            )),
        }
    }

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

    fn document_op(
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
        match (in_children, out_children) {
            (Some(ins), outs) => {
                // Wrapped: the wrapper's children are the parameters, its response's child the result.
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
                        param_docs.push(format!(
                            "- `{}`: {}",
                            pname.trim_start_matches("r#"),
                            d.replace('\n', " ")
                        ));
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
                    let block = format!("Parameters:\n{}", param_docs.join("\n"));
                    append_doc(&mut decl.doc, block);
                }
                match (&resp, outs) {
                    (Some(resp), Some(outs)) => {
                        if let Some((name, ty, occ, nillable, loc, _)) = outs.into_iter().next() {
                            let hint = format!(
                                "{}{}",
                                names::type_name(&resp.local),
                                names::type_name(&name.local)
                            );
                            let base = self.element_type(&name, ty.as_ref(), &hint, &loc)?;
                            if let Some(card) = card(occ, nillable) {
                                if matches!(card, Card::Many | Card::ManyNillable) {
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

    #[allow(clippy::too_many_arguments)]
    fn rpc_op(
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

/// Whether `ns` is the SOAP 1.1 encoding namespace (SOAP 1.1 §5) or SOAP 1.2's (SOAP 1.2 Part 2
/// §4, whose arrays are read the same way: items in order, whatever their names).
/// The method name of each operation of `binding`, in order: the operation's name in snake_case;
/// for a name the portType overloads (WSDL 1.1 §2.4.5), its input's name, else a numbered
/// fallback. Names that stand for themselves are given out first, so that no fallback
/// (`get2` for a second `Get`) takes the name of another operation (`Get2`).
fn method_names(binding: &Binding, pt: &PortType) -> Vec<String> {
    let preferred: Vec<String> = binding
        .operations
        .iter()
        .map(|bop| {
            let overloaded = pt.operations.iter().filter(|o| o.name == bop.name).count() > 1;
            let op = port_type_operation(binding, pt, bop);
            let base = match (op.and_then(|o| o.input_name.as_ref()), overloaded) {
                (Some(n), true) => n.as_str(),
                _ => bop.name.as_str(),
            };
            names::field_name(base)
        })
        .collect();
    // How many operations want each name, compared as the scope compares them (case and `_`
    // ignored): counted once, so that naming stays linear in the number of operations.
    let keys: Vec<String> = preferred
        .iter()
        .map(|s| s.to_lowercase().replace('_', ""))
        .collect();
    let mut wanted: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for k in &keys {
        *wanted.entry(k.as_str()).or_default() += 1;
    }
    let taken_once = |i: usize| wanted.get(keys[i].as_str()) == Some(&1);
    let mut scope = Scope::with_reserved(&[
        // The generated clients' own methods (soapgen-macros keeps the same list).
        "new",
        "from_client",
        "client",
        "as_async",
        "soap11",
        "soap12",
        "with_default_endpoint",
        "with_soap_version",
        "with_soap_headers",
        "soap_version",
        // Shadowing `Clone::clone` and `Debug::fmt` in method-call syntax.
        "clone",
        "clone_from",
        "fmt",
    ]);
    let mut out = vec![String::new(); preferred.len()];
    for pass in [true, false] {
        for (i, p) in preferred.iter().enumerate() {
            if taken_once(i) == pass {
                out[i] = names::escape_keyword(&scope.unique(p));
            }
        }
    }
    out
}

/// The portType operation a binding operation binds (WSDL 1.1 §2.5): the one of that name; of
/// an overloaded name (§2.4.5), the one whose input has the binding input's `name`, else the one
/// at the same position among the operations of that name.
fn port_type_operation<'p>(
    binding: &Binding,
    pt: &'p PortType,
    bop: &BindingOperation,
) -> Option<&'p PortTypeOperation> {
    let same: Vec<&PortTypeOperation> = pt
        .operations
        .iter()
        .filter(|o| o.name == bop.name)
        .collect();
    if same.len() <= 1 {
        return same.first().copied();
    }
    if let Some(n) = &bop.input_name {
        if let Some(op) = same.iter().find(|o| o.input_name.as_ref() == Some(n)) {
            return Some(op);
        }
    }
    let position = binding
        .operations
        .iter()
        .filter(|o| o.name == bop.name)
        .position(|o| std::ptr::eq(o, bop))?;
    same.get(position).copied()
}

fn is_soap_enc_ns(ns: &str) -> bool {
    ns == "http://schemas.xmlsoap.org/soap/encoding/"
        || ns == "http://www.w3.org/2003/05/soap-encoding"
}

/// Whether `ct` is a SOAP-ENC array type: complexContent derived from `soapenc:Array` (SOAP 1.1
/// §5.4.2).
fn is_soap_array(ct: &ComplexType) -> bool {
    matches!(&ct.content, Content::Complex { base, .. }
        if is_soap_enc_ns(&base.ns) && base.local == "Array")
}

/// Adds a paragraph to a doc comment.
fn append_doc(doc: &mut Option<String>, paragraph: String) {
    *doc = Some(match doc.take() {
        Some(d) => format!("{d}\n\n{paragraph}"),
        None => paragraph,
    });
}

/// An element field's default or fixed value (XML Schema Part 1 §3.3.1 {value constraint}): noted in
/// its documentation and, for a simple type (`simple`), read for a present, empty element (§3.3.4
/// item 5.1; a complex type's simple content with a default is only documented).
fn value_constraint(
    field: Option<&mut FieldDecl>,
    simple: bool,
    default: Option<&String>,
    fixed: Option<&String>,
) {
    let value = default
        .map(|d| ("Default", d))
        .or(fixed.map(|f| ("Fixed value", f)));
    let (Some((what, v)), Some(f)) = (value, field) else {
        return;
    };
    if simple {
        f.constraint = Some((v.clone(), fixed.is_some() && default.is_none()));
    }
    let line = format!("{what} when present and empty: `{v}` (an absent element stays absent).");
    append_doc(&mut f.doc, line);
}

/// The field of an `xs:anyAttribute` wildcard (XML Schema Part 1 §3.10), once per type however many
/// wildcards its base, its attribute groups and itself declare (§3.4.2 takes their union).
fn push_any_attribute(c: &mut Collector) {
    if c.fields.iter().any(|f| f.kind == FieldKind::AnyAttribute) {
        return;
    }
    c.push(
        "any_attribute",
        FieldDecl {
            name: String::new(),
            xml: QName::new("", ""),
            kind: FieldKind::AnyAttribute,
            constraint: None,
            min_occurs: 0,
            ty: TypeExpr {
                base: Base::Runtime("types::AnyAttribute"),
                card: Card::Many,
                boxed: false,
            },
            doc: Some(
                "Attributes matched by the wildcard `xs:anyAttribute`, kept by name and value."
                    .into(),
            ),
        },
    );
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
            doc: Some("Mixed content (text and elements), kept as XML.".into()),
        },
    );
}

fn enum_decl(name: &str, st: &SimpleType, values: &[String], origin: String) -> EnumDecl {
    let mut scope = Scope::new();
    let mut seen = BTreeSet::new();
    let values = values
        .iter()
        .filter(|v| seen.insert((*v).clone()))
        .map(|v| (scope.unique(&names::variant_name(v)), v.clone()))
        .collect();
    EnumDecl {
        name: name.to_owned(),
        doc: st.doc.clone(),
        origin,
        xsd_type: None,
        values,
    }
}

/// The namespace most element fields are in (the derive's default); ties go to the smaller URI.
fn majority_namespace<'a>(fields: impl Iterator<Item = (FieldKind, &'a QName)>) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, q) in fields.filter(|(k, _)| *k == FieldKind::Element) {
        *counts.entry(q.ns.as_str()).or_default() += 1;
    }
    counts
        .iter()
        .max_by_key(|(ns, n)| (**n, std::cmp::Reverse(**ns)))
        .map(|(ns, _)| (*ns).to_owned())
        .unwrap_or_default()
}

/// Whether a particle can match no element at all (XML Schema Part 1 §3.8.6 emptiable).
fn emptiable(p: &Particle, s: &SchemaSet, depth: usize) -> bool {
    if p.occurs.min == 0 || depth > 64 {
        return true;
    }
    match &p.term {
        Term::Element(_) | Term::ElementRef(_) | Term::Any { .. } => false,
        Term::Sequence(ps) | Term::All(ps) => ps.iter().all(|q| emptiable(q, s, depth + 1)),
        Term::Choice(ps) => ps.iter().any(|q| emptiable(q, s, depth + 1)),
        Term::GroupRef(g) => s
            .groups
            .get(g)
            .is_some_and(|g| emptiable(&g.particle, s, depth + 1)),
    }
}

/// The first element a particle can start with, to name a choice alternative after.
fn first_element(p: &Particle, s: &SchemaSet, depth: usize) -> Option<QName> {
    if depth > 64 {
        return None;
    }
    match &p.term {
        Term::Element(le) => Some(le.name.clone()),
        Term::ElementRef(r) => Some(r.clone()),
        Term::GroupRef(g) => first_element(&s.groups.get(g)?.particle, s, depth + 1),
        Term::Sequence(ps) | Term::Choice(ps) | Term::All(ps) => {
            ps.iter().find_map(|q| first_element(q, s, depth + 1))
        }
        Term::Any { .. } => None,
    }
}

/// How many element fields a group of particles yields (to spot repeated multi-element groups).
fn count_elements(ps: &[Particle], s: &SchemaSet) -> usize {
    ps.iter()
        .map(|p| match &p.term {
            Term::Element(_) | Term::ElementRef(_) | Term::Any { .. } => 1,
            Term::Sequence(q) | Term::Choice(q) | Term::All(q) => count_elements(q, s),
            Term::GroupRef(g) => s
                .groups
                .get(g)
                .map_or(1, |g| count_elements(std::slice::from_ref(&g.particle), s)),
        })
        .sum()
}

/// Strongly connected components (Tarjan), iteratively; returns the component of each node.
fn tarjan(edges: &[Vec<usize>]) -> Vec<usize> {
    let n = edges.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut comp = vec![usize::MAX; n];
    let mut next = 0;
    let mut ncomp = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some(&mut (v, ref mut ei)) = work.last_mut() {
            if *ei == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if *ei < edges[v].len() {
                let w = edges[v][*ei];
                *ei += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                work.pop();
                if let Some(&(u, _)) = work.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp[w] = ncomp;
                        if w == v {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
    }
    comp
}
