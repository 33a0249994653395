//! Procedural macros of soapgen, re-exported by `soapgen-runtime` (use them from there).
//!
//! - `#[derive(ToXml)]`, `#[derive(FromXml)]`: XML Schema complexTypes as structs, enumerations as
//!   unit-only enums.
//! - `#[derive(ArbitraryXml)]`: arbitrary values for property tests (with the runtime's `proptest`
//!   feature).
//! - `#[soap_client(...)]`: a typed async (and optionally blocking) SOAP client from a trait.
//!
//! Every misuse is a compile error at the offending span; all errors of one item are reported together.
#![deny(missing_docs)]

mod arbitrary;
mod client;
mod derive;
mod fields;
mod group;

use proc_macro::TokenStream;

/// Collects errors so that every problem in an item is reported at once.
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    pub(crate) fn push(&mut self, e: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(e),
            None => self.0 = Some(e),
        }
    }

    pub(crate) fn finish(self) -> Option<proc_macro2::TokenStream> {
        self.0.map(|e| e.to_compile_error())
    }
}

/// Derives `ToXml`: writes a struct as an element (fields as child elements in order, `#[xml(attribute)]`
/// fields as attributes, one `#[xml(text)]` field as simple content), or a unit-only enum as an XSD
/// enumeration value.
///
/// Type attributes: `#[xml(namespace = "uri")]` (namespace of the child elements: the schema's
/// `elementFormDefault="qualified"`), `rename_all = "camelCase"` (or `PascalCase`, `snake_case`, …),
/// `rename = "TypeName"`, `crate = "path::to::soapgen_runtime"`.
/// Field attributes: `rename = "name"`, `namespace = "uri"`, `unqualified`, `attribute`, `text`,
/// `any` (an `xs:any` wildcard: `Vec<AnyElement>` or `Option<AnyElement>`, the child elements no
/// other field takes), `any_attribute` (an `xs:anyAttribute` wildcard, XML Schema Part 1 §3.10:
/// `Vec<AnyAttribute>`, the attributes no other field names, except namespace declarations and
/// `xsi:*`), `content` (mixed content kept as `AnyXml`), `default = "value"` (on an element field
/// of a simple type: the value read when the element is present and empty, its declaration's
/// default or fixed value, XML Schema Part 1 §3.3.4 item 5.1; writing is unchanged).
/// Field types decide occurrence: `T` (once), `Option<T>` (minOccurs=0), `Vec<T>` (maxOccurs>1),
/// `Nillable<T>` (nillable), `OptionalNillable<T>` (minOccurs=0 and nillable: absent, nil or a
/// value; `Option<Nillable<T>>` is the same on the wire), `Box<T>` (recursive types).
/// A `text` field may be `Nillable<T>`: nil content with the attributes kept (XML Schema Part 1
/// §2.6.2), written and read as `<price currency="EUR" xsi:nil="true"/>`; a nillable element of
/// such a type that is nil with attributes reads as `Nillable::Value` holding them. A struct with
/// attributes whose content cannot be nil refuses a nil element that carries one of them
/// (`DecodeErrorKind::NilWithAttributes`, with the element path) instead of dropping it.
///
/// Model groups (XML Schema Part 1 §3.8), implementing `xml::ToXmlGroup`/`xml::FromXmlGroup`:
/// - an enum whose variants each hold one value is an `xs:choice`: a variant is an element (named
///   like the variant, or `rename`/`namespace`/`unqualified`; `T`, `Nillable<T>` or `Vec<T>`) or
///   a nested group (`#[xml(group)]`, a sequence struct or another choice enum) or a wildcard
///   (`#[xml(any)]`, `AnyElement`: an element no other alternative takes by name);
/// - `#[xml(sequence)]` on a struct reads its element fields by position, so one element name may
///   appear in several fields (`<a/><b/><a/>`); `any` fields take, at their position, what no
///   field takes by name; without attributes the struct is also a group;
/// - a field `#[xml(group)]` typed `G`, `Option<G>` or `Vec<G>` holds a group among the parent's
///   children, once, optionally or repeated (read in document order).
///
/// Type substitution (XML Schema Part 1 §2.6.1 `xsi:type`, §3.4.6): an enum with
/// `#[xml(xsi_type, namespace = "uri", rename = "Declared")]` holds a value of the declared type or of
/// a type derived from it, one variant per type (`T` or `Box<T>`, the type's name from the variant or
/// `rename`/`namespace`/`unqualified`). The declared type's variant is written without `xsi:type`
/// and read when the element has none (no such variant: the type is abstract and `xsi:type` is
/// required); the others are written with `xsi:type` and read by it, its prefix resolved wherever it
/// is declared. An unknown `xsi:type` is an error naming the known types, or, with lenient decoding,
/// read as the declared type with a warning.
#[proc_macro_derive(ToXml, attributes(xml))]
pub fn derive_to_xml(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    derive::expand(input, derive::Which::ToXml).into()
}

/// Derives `FromXml`: the reading side of [`ToXml`](derive@ToXml), with the same attributes. Unknown
/// child elements, missing required elements and repeated single elements are errors with the
/// element path.
#[proc_macro_derive(FromXml, attributes(xml))]
pub fn derive_from_xml(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    derive::expand(input, derive::Which::FromXml).into()
}

/// Derives `soapgen_runtime::arbitrary::ArbitraryXml`: arbitrary values for property tests that
/// round-trip through the runtime's writer and reader. The impl exists only when the runtime's
/// `proptest` feature is on (otherwise the derive expands to nothing), so soapgen-build emits it on
/// every generated type at no cost to users who do not test with it.
///
/// A struct with named fields gets every field arbitrary (one nesting level deeper, so recursive
/// types end); an enum of one-value variants (an `xs:choice`, or any enum of newtype variants) one
/// variant holding a value that writes at least one element; a unit-only enum (an XSD enumeration)
/// one of its values. Takes the `#[xml(...)]` attributes of [`ToXml`](derive@ToXml) (`crate`, and
/// `attribute`/`text`/`content` to know which fields cannot make a model group non-empty).
#[proc_macro_derive(ArbitraryXml, attributes(xml))]
pub fn derive_arbitrary_xml(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    arbitrary::expand(input).into()
}

/// Turns a trait into a typed SOAP client (`{Trait}Client`, plus `{Trait}BlockingClient` with
/// `blocking`).
///
/// Arguments: `namespace = "uri"` (required; target namespace of the operation elements),
/// `soap = "1.1" | "1.2"` (default 1.1), `style = "document" | "rpc"` (default document),
/// `parameters = "wrapped" | "bare"` (default wrapped), `element_form = "qualified" | "unqualified"`
/// (of the wrapper's children; default qualified for document, unqualified for rpc),
/// `endpoint = "url"`, `client = "Name"`, `blocking`, `crate = "path"`, and
/// `addressing = "1.0" | "2004/08"` (WS-Addressing on every request, W3C 2006 or the 2004/08
/// submission; `addressing(version = "1.0", soap = "1.2")` for some SOAP versions only): the
/// client's `ADDRESSING`, and a method without `action` gets the default action pattern of
/// WS-Addressing Metadata §4.4.4 (`{namespace}/{Trait}/{op}Request`, `:` for a URN namespace)
/// and its reply must carry `{namespace}/{Trait}/{op}Response` as its `wsa:Action`
/// (`#[soap(reply_action = "…")]` names another; a method with an explicit `action` and no
/// `reply_action` has its reply's action not checked).
/// `default_namespaces`: request Body payloads name their elements under default-namespace
/// declarations (`<Get xmlns="urn:x">`, `xmlns=""` on an unqualified child; Namespaces in XML 1.0
/// §6.2) instead of prefixes, for servers that do not resolve element prefixes; the same as
/// `ClientBuilder::default_namespaces(true)` for this client's calls.
///
/// Methods: `async fn op(&self, params…) -> Result<T, soapgen_runtime::Error>`, with optional
/// `#[soap(name = "Op", action = "urn:Op", response = "OpResponse", result = "OpResult", one_way)]`.
/// `#[soap(empty_request)]` on a method: its input message has no parts (WSDL 1.1 §2.3.1), so it
/// takes no body parameters and sends an empty Body (`<soap:Body/>`); headers and attachments still
/// apply, and the response is read as usual (with `one_way`, not at all).
/// Parameters: `#[soap(header)]` sends the parameter as a SOAP header block; `#[soap(rename = "x")]`,
/// `#[soap(namespace = "uri")]` set its element name.
///
/// SOAP with Attachments (WSDL 1.1 §5 MIME binding, WS-I Attachments Profile 1.0):
/// `#[soap(attachment = "part", content_type = "image/jpeg")]` on a parameter sends it as a MIME part
/// of a `multipart/related` request, not in the envelope (its type converts into
/// `soapgen_runtime::mime::Attachment`; `part` defaults to the parameter's name, `content_type` to
/// `application/octet-stream` and applies when the value has none). `#[soap(response_attachment =
/// "part")]` on a method, once per part in order, reads the response's MIME parts: the method then
/// returns `(body result, attachment, …)`, each attachment a type that converts from
/// `mime::Attachment`.
#[proc_macro_attribute]
pub fn soap_client(args: TokenStream, item: TokenStream) -> TokenStream {
    let item = syn::parse_macro_input!(item as syn::ItemTrait);
    client::expand(args.into(), item).into()
}
