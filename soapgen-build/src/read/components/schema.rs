//! Schema components (XML Schema Part 1 §3): type definitions, element and attribute
//! declarations, particles and model groups, and the [`SchemaSet`] of every one read.

use std::collections::BTreeMap;

use super::QName;
use crate::error::Loc;

/// Occurrence bounds of a particle (XML Schema Part 1 §3.9.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Occurs {
    /// minOccurs.
    pub min: u64,
    /// maxOccurs; `None` is `unbounded`.
    pub max: Option<u64>,
}

impl Occurs {
    /// Exactly once.
    pub const ONCE: Occurs = Occurs {
        min: 1,
        max: Some(1),
    };

    /// Multiplies two bounds (a particle inside a repeated group).
    pub fn times(self, outer: Occurs) -> Occurs {
        Occurs {
            min: self.min.saturating_mul(outer.min),
            max: match (self.max, outer.max) {
                (Some(a), Some(b)) => Some(a.saturating_mul(b)),
                _ => None,
            },
        }
    }
}

/// A reference to a type: by name, or an anonymous definition in place.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeRef {
    /// A named type (built-in or defined in a schema), with where it was referenced.
    Named(QName, Loc),
    /// An anonymous type defined inside the element or attribute.
    Anonymous(Box<TypeDef>),
}

/// A simple or complex type definition.
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)] // read once, kept in maps: size does not matter here
pub enum TypeDef {
    /// XML Schema Part 1 §3.14.
    Simple(SimpleType),
    /// XML Schema Part 1 §3.4.
    Complex(ComplexType),
}

impl TypeDef {
    /// Where the definition is.
    pub fn loc(&self) -> &Loc {
        match self {
            TypeDef::Simple(s) => &s.loc,
            TypeDef::Complex(c) => &c.loc,
        }
    }

    /// Its documentation.
    pub fn doc(&self) -> Option<&str> {
        match self {
            TypeDef::Simple(s) => s.doc.as_deref(),
            TypeDef::Complex(c) => c.doc.as_deref(),
        }
    }
}

/// A simple type definition (XML Schema Part 1 §3.14, Part 2 §4.1).
#[derive(Debug, Clone, PartialEq)]
pub struct SimpleType {
    /// The name, for a top-level definition.
    pub name: Option<QName>,
    /// Restriction, list or union.
    pub variety: SimpleVariety,
    /// `xs:annotation/xs:documentation`.
    pub doc: Option<String>,
    /// Where.
    pub loc: Loc,
}

/// The variety of a simple type (XML Schema Part 2 §4.1.1).
#[derive(Debug, Clone, PartialEq)]
pub enum SimpleVariety {
    /// `xs:restriction`: a base type narrowed by facets.
    Restriction {
        /// The base type.
        base: TypeRef,
        /// `xs:enumeration` values, in order.
        enumerations: Vec<String>,
        /// The documentation of the enumeration values that have some (value, text).
        enumeration_docs: Vec<(String, String)>,
        /// Other facets (name, value), kept for documentation.
        facets: Vec<(String, String)>,
    },
    /// `xs:list`: whitespace-separated items.
    List {
        /// The item type.
        item: TypeRef,
    },
    /// `xs:union`.
    Union {
        /// The member types.
        members: Vec<TypeRef>,
    },
}

/// A complex type definition (XML Schema Part 1 §3.4).
#[derive(Debug, Clone, PartialEq)]
pub struct ComplexType {
    /// The name, for a top-level definition.
    pub name: Option<QName>,
    /// `abstract="true"`.
    pub is_abstract: bool,
    /// `mixed="true"`.
    pub mixed: bool,
    /// The content model.
    pub content: Content,
    /// Attribute uses, attribute group references.
    pub attributes: Vec<AttributeItem>,
    /// An `xs:anyAttribute` wildcard is present.
    pub any_attribute: bool,
    /// The documentation of its `xs:anyAttribute` wildcard(s).
    pub any_attribute_doc: Option<String>,
    /// Documentation.
    pub doc: Option<String>,
    /// Where.
    pub loc: Loc,
}

/// Whether a derivation extends or restricts its base.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Derivation {
    /// `xs:extension`.
    Extension,
    /// `xs:restriction`.
    Restriction,
}

/// The content of a complex type (XML Schema Part 1 §3.4.2 {content type}).
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    /// No particle: empty content (attributes only).
    Empty,
    /// A particle given directly in the complex type.
    Particle(Particle),
    /// `xs:simpleContent`: character data of a simple base type, plus attributes.
    Simple {
        /// Extension or restriction.
        derivation: Derivation,
        /// The base type (simple, or complex with simple content).
        base: QName,
        /// Where the base is referenced.
        loc: Loc,
    },
    /// `xs:complexContent`: a base complex type extended or restricted by a particle.
    Complex {
        /// Extension or restriction.
        derivation: Derivation,
        /// The base type.
        base: QName,
        /// The particle the derivation adds (extension) or keeps (restriction).
        particle: Option<Particle>,
        /// Where the base is referenced.
        loc: Loc,
    },
}

/// A particle: a term with occurrence bounds (XML Schema Part 1 §3.9).
#[derive(Debug, Clone, PartialEq)]
pub struct Particle {
    /// minOccurs / maxOccurs.
    pub occurs: Occurs,
    /// What it holds.
    pub term: Term,
    /// The particle's own `xs:annotation/xs:documentation` (XML Schema Part 1 §3.13): of an
    /// element reference, a group reference, a wildcard or a model group. A local element's is
    /// its declaration's ([`LocalElement::doc`]).
    pub doc: Option<String>,
    /// Where.
    pub loc: Loc,
}

/// The term of a particle.
#[derive(Debug, Clone, PartialEq)]
pub enum Term {
    /// A local element declaration.
    Element(LocalElement),
    /// `xs:element ref="…"`.
    ElementRef(QName),
    /// `xs:group ref="…"`.
    GroupRef(QName),
    /// `xs:sequence`.
    Sequence(Vec<Particle>),
    /// `xs:choice`.
    Choice(Vec<Particle>),
    /// `xs:all`.
    All(Vec<Particle>),
    /// `xs:any` (an element wildcard, §3.10).
    Any {
        /// The `namespace` constraint as written.
        namespace: String,
    },
}

/// A local element declaration (XML Schema Part 1 §3.3), its name already qualified per `form` /
/// `elementFormDefault`.
#[derive(Debug, Clone, PartialEq)]
pub struct LocalElement {
    /// The element's expanded name.
    pub name: QName,
    /// Its type; `None` for `anyType` (no type, no content given).
    pub ty: Option<TypeRef>,
    /// `nillable="true"`.
    pub nillable: bool,
    /// `default="…"`.
    pub default: Option<String>,
    /// `fixed="…"`.
    pub fixed: Option<String>,
    /// Documentation.
    pub doc: Option<String>,
    /// Where.
    pub loc: Loc,
}

/// A top-level element declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct ElementDecl {
    /// Name in the schema's target namespace.
    pub name: QName,
    /// Its type; `None` for `anyType`.
    pub ty: Option<TypeRef>,
    /// `nillable="true"`.
    pub nillable: bool,
    /// `abstract="true"`.
    pub is_abstract: bool,
    /// `substitutionGroup="…"`.
    pub substitution_group: Option<QName>,
    /// `default="…"`.
    pub default: Option<String>,
    /// `fixed="…"`.
    pub fixed: Option<String>,
    /// Documentation.
    pub doc: Option<String>,
    /// Where.
    pub loc: Loc,
}

/// `use` of an attribute (XML Schema Part 1 §3.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttributeUse {
    /// `use="required"`.
    Required,
    /// `use="optional"` (the default).
    Optional,
    /// `use="prohibited"`.
    Prohibited,
}

/// An item of a complex type's attribute list.
#[derive(Debug, Clone, PartialEq)]
pub enum AttributeItem {
    /// A local attribute declaration or a reference to a global one.
    Attribute(AttributeDecl),
    /// `xs:attributeGroup ref="…"`.
    GroupRef(QName, Loc),
}

/// An attribute declaration with its use (XML Schema Part 1 §3.2, §3.5).
#[derive(Debug, Clone, PartialEq)]
pub struct AttributeDecl {
    /// The attribute's expanded name (qualified per `form`/`attributeFormDefault` or the global
    /// declaration's namespace).
    pub name: QName,
    /// A reference to a global attribute (its type is looked up there).
    pub is_ref: bool,
    /// Its type; `None` for `anySimpleType` (or from the referenced declaration).
    pub ty: Option<TypeRef>,
    /// Required, optional or prohibited.
    pub use_: AttributeUse,
    /// `default="…"`.
    pub default: Option<String>,
    /// `fixed="…"`.
    pub fixed: Option<String>,
    /// `wsdl:arrayType="ns:T[]"` (WSDL 1.1 §2.2 on `soapenc:arrayType` in a SOAP-ENC array
    /// restriction): the item type, with the brackets removed. `None` when absent or not a single
    /// dimension.
    pub array_type: Option<QName>,
    /// Documentation.
    pub doc: Option<String>,
    /// Where.
    pub loc: Loc,
}

/// `xs:group name="…"`: a named model group.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupDef {
    /// Name.
    pub name: QName,
    /// The group's particle (a sequence, choice or all).
    pub particle: Particle,
}

/// `xs:attributeGroup name="…"`.
#[derive(Debug, Clone, PartialEq)]
pub struct AttributeGroupDef {
    /// Name.
    pub name: QName,
    /// Its attributes and nested group references.
    pub attributes: Vec<AttributeItem>,
    /// An `xs:anyAttribute` is present.
    pub any_attribute: bool,
    /// The documentation of its `xs:anyAttribute`.
    pub any_attribute_doc: Option<String>,
    /// Where.
    pub loc: Loc,
}

/// Every schema component read, keyed by name: the symbol spaces of XML Schema Part 1 §2.5.
#[derive(Debug, Default, Clone)]
pub struct SchemaSet {
    /// Top-level element declarations.
    pub elements: BTreeMap<QName, ElementDecl>,
    /// Named type definitions.
    pub types: BTreeMap<QName, TypeDef>,
    /// Named model groups.
    pub groups: BTreeMap<QName, GroupDef>,
    /// Named attribute groups.
    pub attribute_groups: BTreeMap<QName, AttributeGroupDef>,
    /// Top-level attribute declarations.
    pub attributes: BTreeMap<QName, AttributeDecl>,
    /// The components an `xs:redefine` replaced (XML Schema Part 1 §4.2.2), by symbol space
    /// (`"type"`, `"group"`, `"attribute group"`) and name: the redefinition holds the name, the
    /// original is kept under [`redefined_name`] as the redefinition's base or self-reference.
    pub redefinitions: std::collections::BTreeSet<(&'static str, QName)>,
    /// Each top-level component's symbol space and name, with a hash of its text and the document
    /// it is in: the same definition copied into another document is read once.
    pub(crate) fingerprints: BTreeMap<(&'static str, QName), (u64, std::sync::Arc<str>)>,
    /// The documentation of each `xs:schema` element (its own `xs:annotation`, XML Schema Part 1
    /// §3.15), with the schema's target namespace, each once, in the order read.
    pub docs: Vec<(String, String)>,
}

/// The name the original of a component replaced by `xs:redefine` is kept under (XML Schema Part
/// 1 §4.2.2: the redefinition's base type, or its reference to its own group, is the original).
pub fn redefined_name(q: &QName) -> QName {
    QName::new(q.ns.clone(), format!("{}-redefined", q.local))
}
