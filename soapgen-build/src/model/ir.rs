//! The resolved model emitted as Rust: named types with their fields, and one client trait per
//! portType with its operations (SOAP bindings of a portType that differ only in SOAP version are one
//! client). Everything is resolved: names are final Rust identifiers, types are concrete, element
//! names are expanded names. Documentation is data ([`Doc`]): the documents' prose as written
//! beside what soapgen says itself, written as Markdown only by emission.

use std::fmt;

use crate::error::{Loc, Warning};
use crate::read::components::{AddressingVersion, QName};

/// Everything generated from one WSDL.
#[derive(Debug, Clone, Default)]
pub struct Module {
    /// The entry document's display name.
    pub source: String,
    /// The WSDL's documentation.
    pub doc: Option<Doc>,
    /// The documentation of the schemas read (`xs:schema/xs:annotation`), with each schema's
    /// target namespace: said of the `types` module.
    pub schema_docs: Vec<(String, String)>,
    /// Types, sorted by name.
    pub types: Vec<TypeDecl>,
    /// The clients: one per portType and set of SOAP bindings that differ only in SOAP version, in
    /// the order of their first port in the WSDL (clients without a port last, by binding name).
    pub clients: Vec<ClientDecl>,
    /// What was not generated and why (HTTP bindings, skipped operations).
    pub notes: Vec<String>,
    /// What was generated but may not work as the WSDL reads (a port address that is not an
    /// absolute HTTP(S) URL; `use="encoded"` under `style="document"` read as literal, WS-I BP 1.0
    /// R2706; a WSDL 2.0 SOAP binding without `wsoap:protocol` read as SOAP over HTTP, WSDL 2.0
    /// Part 2 §5.3), each located: printed as `cargo:warning` by
    /// [`Builder::build`](crate::Builder::build), in the generated file's header and by `inspect`.
    pub warnings: Vec<Warning>,
    /// Some operation is rpc/encoded (SOAP 1.1 §5): the types also get `EncodedType` impls.
    pub encoded: bool,
}

/// The documentation of a generated item, kept as data: prose from the WSDL or a schema as it
/// was written, and what soapgen says of the item, paragraph by paragraph. Emission writes it as
/// Markdown, escaping the prose so that it reads as written (no code blocks, links, emphasis or
/// HTML from a document's text). `Display` shows it as text, the prose unescaped.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Doc {
    /// The paragraphs, in order.
    pub paragraphs: Vec<Paragraph>,
}

/// One paragraph of a [`Doc`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Paragraph {
    /// Prose from the WSDL or a schema (`wsdl:documentation`, `xs:annotation/xs:documentation`)
    /// as read: its lines as written, common indentation removed, blank lines at the ends dropped.
    Prose(String),
    /// What soapgen writes, in Markdown (names and values in code spans).
    Markdown(String),
    /// A list soapgen writes: a heading line in Markdown, then one item per Rust name (written in
    /// a code span) with its prose on one line (the parameters of an unwrapped operation).
    List {
        /// The line above the items, in Markdown.
        heading: String,
        /// (Rust name, prose) per item, in order.
        items: Vec<(String, String)>,
    },
}

impl Doc {
    /// One paragraph of a document's prose.
    pub fn prose(text: impl Into<String>) -> Self {
        Doc {
            paragraphs: vec![Paragraph::Prose(text.into())],
        }
    }

    /// One paragraph soapgen writes, in Markdown.
    pub fn markdown(text: impl Into<String>) -> Self {
        Doc {
            paragraphs: vec![Paragraph::Markdown(text.into())],
        }
    }

    /// Adds a paragraph at the end.
    pub fn push(&mut self, paragraph: Paragraph) {
        self.paragraphs.push(paragraph);
    }
}

impl fmt::Display for Doc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.paragraphs.iter().enumerate() {
            if i > 0 {
                f.write_str("\n\n")?;
            }
            match p {
                Paragraph::Prose(t) | Paragraph::Markdown(t) => f.write_str(t)?,
                Paragraph::List { heading, items } => {
                    f.write_str(heading)?;
                    for (name, prose) in items {
                        write!(f, "\n- {name}: {prose}")?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// A generated type.
#[derive(Debug, Clone)]
pub enum TypeDecl {
    /// A complexType or element with complex content.
    Struct(StructDecl),
    /// A simpleType restricted by enumeration.
    Enum(EnumDecl),
    /// A named simple type that is another type with facets (a type alias).
    Alias(AliasDecl),
    /// The fault details an operation declares.
    Faults(FaultsDecl),
    /// An `xs:choice` that occurs more than once (XML Schema Part 1 §3.8): an enum, one variant per
    /// alternative, held in a `Vec` by its parent.
    Choice(ChoiceDecl),
    /// A named complexType that other types derive from: an enum of it (unless abstract) and each
    /// type derived from it, told apart by `xsi:type` (XML Schema Part 1 §2.6.1, §3.4.6).
    Derivations(DerivationsDecl),
}

impl TypeDecl {
    /// The Rust name.
    pub fn name(&self) -> &str {
        match self {
            TypeDecl::Struct(s) => &s.name,
            TypeDecl::Enum(e) => &e.name,
            TypeDecl::Alias(a) => &a.name,
            TypeDecl::Faults(f) => &f.name,
            TypeDecl::Choice(c) => &c.name,
            TypeDecl::Derivations(d) => &d.name,
        }
    }
}

/// A struct for a complex type.
#[derive(Debug, Clone)]
pub struct StructDecl {
    /// Rust name.
    pub name: String,
    /// Doc comment.
    pub doc: Option<Doc>,
    /// What it was generated from (`complexType {ns}Name`).
    pub origin: String,
    /// The named XSD type it was generated from (its `xsi:type` in SOAP 1.1 §5 encoding); `None` for
    /// anonymous types and elements.
    pub xsd_type: Option<QName>,
    /// The namespace most element fields are in (the derive's default).
    pub namespace: String,
    /// Fields in content-model order.
    pub fields: Vec<FieldDecl>,
    /// Element fields are read by position (`#[xml(sequence)]`): the type is a sequence group held
    /// by another type, or its content model has a group field or names one element twice.
    pub sequence: bool,
    /// Each element field is written with its `xsi:type` (`#[xml(encoded)]`, SOAP 1.1 §5.1 rule
    /// 2): the parts of an rpc/encoded request.
    pub encoded: bool,
    /// The directions the clients use it in: a type only sent gets the writer alone, one only
    /// received the reader alone.
    pub uses: Uses,
}

/// The directions a generated type is used in by the clients' operations: written (reachable
/// from a request's parameters or header blocks) and read (reachable from a result, a response
/// header, a fault detail). A type no operation reaches, and every type of a schema generated
/// without clients, is used both ways.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Uses {
    /// Written: it derives `ToXml`.
    pub write: bool,
    /// Read: it derives `FromXml` (and `ArbitraryXml`).
    pub read: bool,
}

impl Uses {
    /// Written and read.
    pub const BOTH: Uses = Uses {
        write: true,
        read: true,
    };
}

/// An `xs:choice` enum (XML Schema Part 1 §3.8): the alternatives of one occurrence.
#[derive(Debug, Clone)]
pub struct ChoiceDecl {
    /// Rust name.
    pub name: String,
    /// Doc comment.
    pub doc: Option<Doc>,
    /// What it was generated from.
    pub origin: String,
    /// The namespace most element variants are in (the derive's default).
    pub namespace: String,
    /// The alternatives, in schema order.
    pub variants: Vec<VariantDecl>,
    /// The directions the clients use it in.
    pub uses: Uses,
}

/// A declared complexType and the types derived from it (XML Schema Part 1 §3.4.6 Type
/// Derivation OK), as held by an element declared with that type: the value's type is told by
/// `xsi:type` (§2.6.1), a derived type keeping all its fields.
#[derive(Debug, Clone)]
pub struct DerivationsDecl {
    /// Rust name (the declared type's struct name + `Kind`).
    pub name: String,
    /// Doc comment.
    pub doc: Option<Doc>,
    /// The declared type.
    pub base: QName,
    /// The declared type is abstract (§3.4.1 {abstract}): no variant of its own, `xsi:type`
    /// required.
    pub is_abstract: bool,
    /// The types, the declared one first (unless abstract), then the derived ones (abstract ones
    /// left out), breadth first, each level in name order.
    pub variants: Vec<DerivedVariant>,
    /// The directions the clients use it in.
    pub uses: Uses,
}

/// One type of a [`DerivationsDecl`].
#[derive(Debug, Clone)]
pub struct DerivedVariant {
    /// Rust variant name (the type's struct name).
    pub name: String,
    /// The XSD type, written as `xsi:type` (except for the declared type).
    pub xsd_type: QName,
    /// Its struct (`One`, boxed when the types are recursive).
    pub ty: TypeExpr,
}

/// One alternative of a choice.
#[derive(Debug, Clone)]
pub struct VariantDecl {
    /// Rust variant name.
    pub name: String,
    /// The element, or `None` for a group (a generated sequence struct) or wildcard alternative.
    pub xml: Option<QName>,
    /// An `xs:any` alternative (`types::AnyElement`, XML Schema Part 1 §3.10): takes an element no
    /// other alternative takes by name.
    pub any: bool,
    /// The value: `One`, `Nillable`, `Many` or `ManyNillable` for elements, `One` for groups.
    pub ty: TypeExpr,
    /// Doc comment.
    pub doc: Option<Doc>,
}

/// How a field is carried in XML.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// A child element.
    Element,
    /// An attribute.
    Attribute,
    /// The simple content.
    Text,
    /// Elements matched by an `xs:any` wildcard.
    Any,
    /// Attributes matched by an `xs:anyAttribute` wildcard (`Vec<types::AnyAttribute>`, XML Schema
    /// Part 1 §3.10).
    AnyAttribute,
    /// The whole content kept as XML (mixed content).
    Content,
    /// A model group among the children (`#[xml(group)]`): a choice enum or a sequence struct,
    /// once, optional or repeated (XML Schema Part 1 §3.8).
    Group,
}

/// A field of a struct.
#[derive(Debug, Clone)]
pub struct FieldDecl {
    /// Rust identifier (keywords escaped).
    pub name: String,
    /// The element or attribute name.
    pub xml: QName,
    /// Element, attribute, text or wildcard.
    pub kind: FieldKind,
    /// Its type.
    pub ty: TypeExpr,
    /// The minOccurs of a repeated (`Vec`) element or group field (XML Schema Part 1 §3.9.1), at
    /// least 1 when the schema says so; 0 otherwise and for every other field. Emitted as
    /// `#[xml(min = N)]` only when above 0, and reading refuses fewer occurrences.
    pub min_occurs: u64,
    /// Doc comment.
    pub doc: Option<Doc>,
    /// The value constraint (XML Schema Part 1 §3.2.1, §3.3.1): the `default` or `fixed` literal
    /// (`true`: fixed). An attribute's is what it reads as when absent (the field is then `One`);
    /// a simple-typed element's is what it reads as when present and empty (§3.3.4 item 5.1).
    pub constraint: Option<(String, bool)>,
}

/// Occurrence of a field, parameter or result (from the particle's minOccurs/maxOccurs and the
/// declaration's nillable): the vocabulary shared with the macros, which emitted code writes as
/// `occurs = "…"` (`result_occurs` on a method) wherever it is not [`Occurrence::One`].
pub use soapgen_contract::Occurrence;

/// The value type, without occurrence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Base {
    /// A Rust primitive or std type (`String`, `bool`, `i32`).
    Std(&'static str),
    /// A type of the runtime, by its path under the runtime crate (`types::Decimal`).
    Runtime(&'static str),
    /// A generated type.
    Named(String),
    /// `types::List<…>` of an item type.
    List(Box<Base>),
    /// `types::SoapArray<…>`: a SOAP-ENC array of an item type (SOAP 1.1 §5.4.2, rpc/encoded).
    SoapArray(Box<Base>),
}

/// A full field or parameter type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeExpr {
    /// The value type.
    pub base: Base,
    /// Occurrence.
    pub card: Occurrence,
    /// Boxed (a recursive type).
    pub boxed: bool,
}

impl TypeExpr {
    /// Exactly one `base`.
    pub fn one(base: Base) -> Self {
        TypeExpr {
            base,
            card: Occurrence::One,
            boxed: false,
        }
    }
}

/// An enumeration.
#[derive(Debug, Clone)]
pub struct EnumDecl {
    /// Rust name.
    pub name: String,
    /// Doc comment.
    pub doc: Option<Doc>,
    /// What it was generated from.
    pub origin: String,
    /// The named simpleType it was generated from (its `xsi:type` in SOAP 1.1 §5 encoding).
    pub xsd_type: Option<QName>,
    /// (variant, value) in schema order.
    pub values: Vec<(String, String)>,
    /// The documentation of the values that have some (value, text), from their
    /// `xs:enumeration`'s annotation.
    pub value_docs: Vec<(String, Doc)>,
}

/// A type alias.
#[derive(Debug, Clone)]
pub struct AliasDecl {
    /// Rust name.
    pub name: String,
    /// Doc comment (facets included).
    pub doc: Option<Doc>,
    /// What it was generated from.
    pub origin: String,
    /// The aliased type.
    pub target: Base,
}

/// The fault details an operation declares (`fault_details!`).
#[derive(Debug, Clone)]
pub struct FaultsDecl {
    /// Rust name.
    pub name: String,
    /// Doc comment.
    pub doc: Option<Doc>,
    /// The variants.
    pub variants: Vec<FaultVariant>,
}

/// A variant of a fault set: (variant, detail type, detail element, the `xsi:type` that tells the
/// variant apart when several share the element: an rpc/encoded fault part's `type=`, SOAP 1.1
/// §5).
pub type FaultVariant = (String, Base, QName, Option<QName>);

/// A SOAP version: SOAP 1.1 (W3C Note, 2000) or SOAP 1.2 (W3C Recommendation, Part 1 §5), as a
/// binding says (WSDL 1.1 §3 `soap:binding`, WSDL 1.1 SOAP 1.2 binding `soap12:binding`, WSDL 2.0
/// Part 2 §5.2 `wsoap:version`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SoapVersion {
    /// SOAP 1.1.
    Soap11,
    /// SOAP 1.2.
    Soap12,
}

impl SoapVersion {
    /// `1.1` or `1.2`, as `#[soap_client(soap = …)]` takes it.
    pub fn number(self) -> &'static str {
        match self {
            SoapVersion::Soap11 => "1.1",
            SoapVersion::Soap12 => "1.2",
        }
    }
}

impl fmt::Display for SoapVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SOAP {}", self.number())
    }
}

/// A `wsdl:port` (WSDL 1.1 §2.7) or WSDL 2.0 `endpoint` (Part 1 §2.16) of a client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortDecl {
    /// The service's name.
    pub service: String,
    /// The port's name.
    pub port: String,
    /// Its binding.
    pub binding: QName,
    /// Its binding's SOAP version.
    pub version: SoapVersion,
    /// `soap:address location` (WSDL 1.1 §3.8) or the endpoint's `address`, as written.
    pub address: Option<String>,
    /// Why the address cannot be a client's endpoint (relative, not HTTP or HTTPS), if so; then
    /// [`Module::warnings`] says so too.
    pub address_problem: Option<String>,
    /// What its WS-SecurityPolicy demands of each operation's messages; `None` when it
    /// demands nothing.
    pub security: Option<crate::model::security::types::PortSecurity>,
    /// Whether this port's binding or the port itself says it is addressed (WS-Addressing
    /// Metadata §3.1); a client addresses its calls when any port of a SOAP version is, so
    /// an unaddressed port of an addressed client must turn addressing off.
    pub addressed: bool,
    /// Where the port is.
    pub loc: Loc,
}

impl PortDecl {
    /// The address, if it is an absolute HTTP(S) URL a client can send to.
    pub fn usable_address(&self) -> Option<&str> {
        self.address
            .as_deref()
            .filter(|_| self.address_problem.is_none())
    }
}

/// A client: a `#[soap_client]` trait for one portType's SOAP bindings that differ only in SOAP
/// version (WSDL 1.1 §2.5, §3).
#[derive(Debug, Clone)]
pub struct ClientDecl {
    /// Trait name (the clients are `{name}Client` and `{name}BlockingClient`), chosen as
    /// [`build`](crate::model::build) documents.
    pub name: String,
    /// Doc comment from the WSDL (service and portType documentation).
    pub doc: Option<Doc>,
    /// What soapgen says of it (bindings, versions, portType), always emitted.
    pub summary: String,
    /// The portType (WSDL 2.0: interface) it implements.
    pub port_type: QName,
    /// The bindings it was generated from, with their versions: the binding of the first port
    /// first (then bindings without ports, by name).
    pub bindings: Vec<(QName, SoapVersion)>,
    /// The SOAP versions it speaks, each once, the default first: that of the first port in the
    /// WSDL using one of its bindings.
    pub versions: Vec<SoapVersion>,
    /// Default namespace of the operations' elements.
    pub namespace: String,
    /// The default endpoint: the address of the first port, when it is an absolute HTTP(S) URL.
    pub endpoint: Option<String>,
    /// The ports using its bindings, in WSDL order.
    pub ports: Vec<PortDecl>,
    /// Operations.
    pub operations: Vec<OperationDecl>,
    /// The WS-Addressing its calls are addressed in, per SOAP version whose binding or port
    /// says so (none: not addressed), in [`versions`](Self::versions) order.
    pub addressing: Vec<(SoapVersion, AddressingVersion)>,
    /// The documentation of the header elements its operations declare (`soap:header`, WSDL
    /// 1.1 §3.7), by element: what their `DeclaredHeader` constants say first.
    pub header_docs: Vec<(QName, String)>,
}

impl ClientDecl {
    /// The default SOAP version (the first of [`versions`](Self::versions)).
    pub fn default_version(&self) -> SoapVersion {
        self.versions
            .first()
            .copied()
            .unwrap_or(SoapVersion::Soap11)
    }

    /// The address of the first port of SOAP `version` that has a usable one (WSDL 1.1 §2.7).
    pub fn endpoint_for(&self, version: SoapVersion) -> Option<&str> {
        self.ports
            .iter()
            .filter(|p| p.version == version)
            .find_map(|p| p.usable_address())
    }
}

/// The most body parameters a generated method takes positionally: a document/literal wrapped
/// operation with more takes its request wrapper's struct instead (`request_struct`), so a call
/// names what it sets and leaves the optional rest to `Default` or `new`.
pub const MAX_POSITIONAL_PARAMETERS: usize = 4;

/// One operation.
#[derive(Debug, Clone, PartialEq)]
pub struct OperationDecl {
    /// Method name.
    pub method: String,
    /// WSDL operation name.
    pub wsdl_name: String,
    /// Doc comment.
    pub doc: Option<Doc>,
    /// soapAction.
    pub action: String,
    /// The `wsa:Action` the reply of an addressed call must carry (WS-Addressing 1.0 Metadata
    /// §4.4: the output's `wsam:Action`, else the default pattern): set for the request-response
    /// operations of addressed clients, emitted as `reply_action = …`.
    pub reply_action: Option<String>,
    /// Body element (wrapper or bare element). With [`empty_request`](Self::empty_request) no
    /// element is sent: this is then `{response namespace}operation name`, naming the operation only.
    pub request: QName,
    /// The input message has no body parts (WSDL 1.1 §2.3.1 allows a message with no parts; WSDL 2.0
    /// `element="#none"`): the request's SOAP Body is empty (`<soap:Body/>`) and the method takes no
    /// body parameters (headers and attachments still apply).
    pub empty_request: bool,
    /// Response element (wrapper or bare element); `None` for one-way.
    pub response: Option<QName>,
    /// Bound to SOAP 1.2's SOAP-response message exchange pattern (WSDL 2.0 Part 2 §5.10.3): an
    /// HTTP GET whose IRI this makes of the request element's children (emitted as
    /// `soap_response(…)`); `None`: a POSTed envelope.
    pub soap_response: Option<crate::read::components::HttpLocation>,
    /// Parameters are the request element's content (wrapped/rpc) or the element itself (bare).
    pub bare: bool,
    /// A wrapped request of more than [`MAX_POSITIONAL_PARAMETERS`] parameters: the method takes
    /// the wrapper element's struct (`..Default::default()`, `new(required)`) as its one
    /// parameter, written whole; the result is still unwrapped.
    pub request_struct: bool,
    /// rpc/encoded (`soap:body use="encoded"`, SOAP 1.1 §5 and §7): `encodingStyle` on the request
    /// element, `xsi:type` on each part.
    pub encoded: bool,
    /// rpc style (WSDL 1.1 §3.5): the response wrapper is read whatever its name (SOAP 1.1 §7.1).
    pub rpc: bool,
    /// Parameters are unwrapped but the result is the whole response element (a response wrapper
    /// with several children).
    pub bare_response: bool,
    /// The result element inside the response wrapper (wrapped/rpc with one result).
    pub result: Option<QName>,
    /// The minOccurs of a repeated (`Vec`) result element (XML Schema Part 1 §3.9.1), 0 otherwise;
    /// emitted as `result_min = N` only when above 0.
    pub result_min: u64,
    /// Body parameters.
    pub params: Vec<ParamDecl>,
    /// Header parameters.
    pub headers: Vec<ParamDecl>,
    /// Header blocks the response may carry (WSDL 1.1 §3.7 `soap:header` in the binding
    /// operation's `output`; WSDL 2.0 Part 2 §5.8 `wsoap:header`), each element once: emitted as
    /// `DeclaredHeader` constants of the client, read with `Response::header`. `name` is the
    /// element's local name in snake case.
    pub response_headers: Vec<ParamDecl>,
    /// The return type; `None` is `()`.
    pub ret: Option<TypeExpr>,
    /// The declared faults' type, if any.
    pub faults: Option<String>,
    /// Request message parts sent as MIME attachments (WSDL 1.1 §5 `mime:multipartRelated`, SOAP
    /// with Attachments), in the order of their `mime:part`s: parameters after the body's.
    pub attachments: Vec<AttachmentDecl>,
    /// Response message parts received as MIME attachments, in `mime:part` order: the result is
    /// then a tuple of the body's result (`ret`, or `()`) and one attachment each.
    pub response_attachments: Vec<AttachmentDecl>,
    /// Also a `{method}_stream` method returning the repeated result element as an
    /// `ItemStream` (asked for by name: `Builder::stream_operations`).
    pub stream: bool,
    /// For a streamed result that is an array type (a result element holding the repeated
    /// ones, .NET's `ArrayOf…`): the repeated element inside it, streamed instead.
    pub stream_items: Option<StreamItems>,
}

/// The repeated element a streamed array result holds (XML Schema Part 1 §3.9.1: the one
/// particle of the result's complexType, maxOccurs above 1).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamItems {
    /// The items' element.
    pub xml: QName,
    /// Its type, `Many` or `ManyNillable`.
    pub ty: TypeExpr,
    /// Its minOccurs.
    pub min: u64,
}

/// A message part bound to a MIME attachment (WSDL 1.1 §5.3 `mime:part` with `mime:content`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttachmentDecl {
    /// Rust identifier of the parameter (unused for response parts).
    pub name: String,
    /// The WSDL message part's name.
    pub part: String,
    /// The declared `mime:content` types, in order (alternatives; may hold wildcards).
    pub content_types: Vec<String>,
}

impl AttachmentDecl {
    /// The Content-Type to send when the value has none: the first declared type, or
    /// `application/octet-stream` when none is declared or it is a wildcard.
    pub fn default_content_type(&self) -> &str {
        match self.content_types.first() {
            Some(t) if !t.is_empty() && !t.contains('*') => t,
            _ => "application/octet-stream",
        }
    }
}

/// A parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamDecl {
    /// Rust identifier.
    pub name: String,
    /// Its element.
    pub xml: QName,
    /// Its type.
    pub ty: TypeExpr,
}
