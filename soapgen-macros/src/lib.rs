//! Procedural macros of soapgen, re-exported by `soapgen-runtime` (use them from there).
//!
//! - `#[derive(ToXml)]`, `#[derive(FromXml)]`: XML Schema complexTypes as structs, enumerations as
//!   unit-only enums.
//! - `#[derive(ArbitraryXml)]`: arbitrary values for property tests (with the runtime's `proptest`
//!   feature).
//! - `#[soap_client(...)]`: a typed async (and optionally blocking) SOAP client from a trait.
//!
//! Every misuse is a compile error at the offending span; all errors of one item are reported together.
//!
//! Inside, as serde_derive: a front end (`internals`: the attributes parsed, each input read into
//! a typed model and checked) apart from the generators, one per shape (`derive`: struct,
//! choice, derivations, enumeration; `client`; `arbitrary`), which only write code.
//!
//! # Attribute reference
//!
//! Every key the macros read; soapgen-build writes the same ones (the `soapgen-contract` crate
//! names them for both). Any other key is a compile error naming these.
//!
//! ## Occurrence: `occurs`
//!
//! How often an element occurs in its parent and whether it may be nil (XML Schema Part 1 §3.9.1
//! particle minOccurs/maxOccurs, §3.3.1 nillable), on a field, choice variant or parameter
//! (`occurs = "…"`) or a method's result (`result_occurs = "…"`):
//!
//! | value | minOccurs, maxOccurs, nillable | field type |
//! |---|---|---|
//! | `one` | 1, 1, false | `T` |
//! | `optional` | 0, 1, false | `Option<T>` |
//! | `many` | any (`min = N`), > 1, false | `Vec<T>` |
//! | `nillable` | 1, 1, true | `Nillable<T>` |
//! | `optional_nillable` | 0, 1, true: absent, nil or a value | `OptionalNillable<T>`, or `Option<Nillable<T>>` |
//! | `many_nillable` | any, > 1, true | `Vec<Nillable<T>>` |
//!
//! `T` may be `Box<T>` (a recursive type). An attribute field is `one` (`use="required"`, or with a
//! `default`) or `optional` (`use="optional"`, §3.2.1).
//!
//! With `occurs` the wire form is the attribute's: the type is taken apart by position only, so a
//! type alias (`type Names = Vec<String>` with `occurs = "many"`) or a type of your own whose name
//! is `Vec` or `Option` (with `occurs = "one"`) means what the attribute says, and a type that
//! cannot hold that occurrence is a type error. Without it the occurrence is read from the type as
//! written, by the name of its last path segment (`Option`, `Vec`, `Nillable`, `OptionalNillable`,
//! `Box`): the default for hand-written types. soapgen-build writes `occurs` on every field,
//! variant, parameter and result that is not `one`. Where the macros must name the item type (a
//! `group` or `any` field, a field of a `sequence` struct, a choice variant, a method's result),
//! write the container, not an alias.
//!
//! ## `#[xml(...)]` on a type (`ToXml`, `FromXml`, `ArbitraryXml`)
//!
//! | key | meaning |
//! |---|---|
//! | `namespace = "uri"` | namespace of the child elements (`elementFormDefault="qualified"`); of the declared type with `xsi_type` |
//! | `rename = "Name"` | the type's XSD name (enumeration errors, `xsi_type`) |
//! | `rename_all = "camelCase"` | element names from field names: `camelCase`, `PascalCase`, `snake_case`, `lowercase`, `UPPERCASE`, `kebab-case`, `SCREAMING_SNAKE_CASE` |
//! | `sequence` | element fields read by position (§3.8 sequence): one name may stand in several fields |
//! | `encoded` | on a `sequence` struct: each element field written with its `xsi:type` (SOAP 1.1 §5.1 rule 2), as the parts of an rpc/encoded request are |
//! | `xsi_type` | on an enum of a declared type and its derived types, one variant each, chosen by `xsi:type` (§2.6.1) |
//! | `crate = "path"` | path to `soapgen_runtime` |
//!
//! ## `#[xml(...)]` on a field or choice variant
//!
//! | key | meaning |
//! |---|---|
//! | `rename = "name"` | the element's (or attribute's) local name |
//! | `namespace = "uri"` | its namespace (an attribute is unqualified without it) |
//! | `unqualified` | in no namespace (`form="unqualified"`) |
//! | `attribute` | an attribute, `T` or `Option<T>` of a simple type |
//! | `text` | the simple content (§3.4.2 simpleContent); `Nillable<T>` (or `occurs = "nillable"`): nil content with the attributes kept (§2.6.2) |
//! | `any` | an `xs:any` wildcard (§3.10): `Vec<AnyElement>` or `Option<AnyElement>`, the children no other field takes |
//! | `any_attribute` | an `xs:anyAttribute` wildcard: `Vec<AnyAttribute>`, the attributes no other field names, except namespace declarations and `xsi:*` |
//! | `content` | mixed content kept as `AnyXml` |
//! | `group` | a model group among the children (§3.8): a choice enum or sequence struct, `G`, `Option<G>` or `Vec<G>` |
//! | `default = "v"` | an attribute's value when absent (a `T` field); a simple element's value when present and empty (§3.3.4 item 5.1) |
//! | `fixed = "v"` | as `default`, and an attribute of another value is refused (§3.2.1) |
//! | `min = N` | minOccurs of a repeated element or group field: fewer elements is a `TooFewElements` decode error; a group field counts its occurrences only when each is a fixed run of single elements, else requires one (XML does not mark where a group's occurrences split, XML Schema Part 1 §3.9.4) |
//! | `occurs = "…"` | the occurrence (above) |
//!
//! A choice variant takes `rename`, `namespace`, `unqualified`, `group`, `any` and `occurs`; an
//! enumeration value `rename` only.
//!
//! ## `#[soap_client(...)]` on a trait
//!
//! | key | meaning |
//! |---|---|
//! | `namespace = "uri"` | target namespace of the operation elements (required) |
//! | `soap = "1.1" \| "1.2" \| "1.1, 1.2"` | the SOAP versions of the binding, the default first (default `1.1`) |
//! | `style = "document" \| "rpc"` | `soap:binding style` (WSDL 1.1 §3.3; default `document`) |
//! | `parameters = "wrapped" \| "bare"` | document/literal wrapped or bare (default `wrapped`) |
//! | `element_form = "qualified" \| "unqualified"` | form of the wrapper's children (default qualified for document, unqualified for rpc) |
//! | `endpoint = "url"` | the client's `DEFAULT_ENDPOINT` |
//! | `endpoints = "1.1=url 1.2=url"` | the addresses per SOAP version where the description's ports differ (`DEFAULT_ENDPOINTS`; a version may have several, the first its default): `with_soap_version` follows them |
//! | `client = "Name"` | the client's name (default `{Trait}Client`) |
//! | `addressing = "1.0" \| "2004/08"`, `addressing(version = …, soap = "1.2")` | WS-Addressing on every request (or those of the listed SOAP versions) |
//! | `blocking` | also `{Trait}BlockingClient` |
//! | `fake` | the in-process fake of the service: `{Trait}Client::fake(service)` and `fake_transport(service)` answer requests with an implementation of the trait (the runtime's `testing` feature) |
//! | `default_namespaces` | request Body payloads under default-namespace declarations instead of prefixes (Namespaces in XML 1.0 §6.2), as `ClientBuilder::default_namespaces(true)` |
//! | `crate = "path"` | path to `soapgen_runtime` |
//!
//! ## `#[soap(...)]` on a method
//!
//! | key | meaning |
//! |---|---|
//! | `name = "Op"` | the operation (request) element's local name (default: the method's name) |
//! | `operation = "Op"` | the WSDL operation's name (WSDL 1.1 §2.4), when the request element is named otherwise (a bare operation's): the runtime's `Operation::name`, by which a port's WS-SecurityPolicy (`ClientBuilder::security_policy`) finds the operation (default: `name`) |
//! | `action = "uri"` | the soapAction (WSDL 1.1 §3.4) |
//! | `reply_action = "uri"` | the `wsa:Action` the reply must carry on an addressed client (WS-Addressing Metadata §4.4; default `{namespace}/{Trait}/{op}Response` for a method without `action`) |
//! | `response = "OpResponse"` | the response element's local name |
//! | `result = "OpResult"` | the result element inside the response wrapper |
//! | `namespace = "uri"` | the request element's namespace (default: the client's) |
//! | `result_namespace = "uri"` | the result element's namespace |
//! | `result_min = N` | minOccurs of a repeated (`Vec`) result element |
//! | `result_occurs = "…"` | the result's occurrence (above) |
//! | `response_namespace = "uri"` | the response element's namespace |
//! | `bare` | this operation is document/literal bare |
//! | `bare_response` | parameters wrapped, the result is the whole response element |
//! | `request_struct` | the one parameter holds the request wrapper's children: document style, the wrapper element's struct, written whole; rpc, a `sequence` struct of the parts written inside the operation element; the response read as usual (what generated methods of more than four parameters take) |
//! | `one_way` | no response is read (WSDL 1.1 §2.4.1) |
//! | `empty_request` | the input message has no parts: an empty Body (§2.3.1) |
//! | `response_attachment = "part"` | a MIME part of the response, once per part in order (§5) |
//! | `encoded` | rpc/encoded (SOAP 1.1 §5 and §7) |
//! | `rpc` | this operation is rpc/literal (WSDL 1.1 §3.5): its response wrapper is read whatever its name (SOAP 1.1 §7.1) |
//! | `soap_response`, `soap_response(location = "tmpl", query_separator = ";")` | SOAP 1.2's SOAP-response message exchange pattern (SOAP 1.2 Part 2 §6.3, WSDL 2.0 Part 2 §5.10.3): an HTTP GET with no envelope, the request element's children in its IRI (`{name}` in the `whttp:location` template resolved against the endpoint, the rest as the query, WSDL 2.0 Part 2 §6.8.1.1), answered with an envelope |
//!
//! ## `#[soap(...)]` on a parameter
//!
//! | key | meaning |
//! |---|---|
//! | `header` | sent as a SOAP header block (`Option<T>`: only when `Some`) |
//! | `rename = "name"` | the element's local name |
//! | `namespace = "uri"` | the element's namespace |
//! | `attachment`, `attachment = "part"` | sent as a MIME part (SwA), not in the envelope |
//! | `content_type = "type/subtype"` | the attachment's Content-Type when the value has none |
//! | `occurs = "…"` | the occurrence (above) |
#![deny(missing_docs)]

mod arbitrary;
mod client;
mod content;
mod derive;
mod fields;
mod group;
mod internals;
use proc_macro::TokenStream;

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
/// Occurrence is `occurs = "…"`, or else read from the field's type: `T` (once), `Option<T>`
/// (minOccurs=0), `Vec<T>` (maxOccurs>1), `Nillable<T>` (nillable), `OptionalNillable<T>`
/// (minOccurs=0 and nillable: absent, nil or a value; `Option<Nillable<T>>` is the same on the
/// wire), `Box<T>` (recursive types); see [the attribute reference](crate#attribute-reference).
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
/// `fake` (with the runtime's `testing` feature): `{Trait}Client::fake(service)`, a client whose
/// requests `service`, an implementation of the trait, answers in process: the request is read
/// back with the runtime's reader (operation by element and action, parts, header parameters,
/// a missing required header a `Sender` fault), the result written as the service would, an
/// error as a SOAP fault of the request's version (a `FaultError`'s declared detail written);
/// `fake_transport(service)` for a client configured by hand, `fake_service(service)` for a
/// server of it. Every shape a trait declares is read and answered: MTOM requests, `swaRef`
/// values, `attachment` parameters and `response_attachment`s (SwA), rpc/encoded operations,
/// header parameters absent, nil or a value, WS-Addressing.
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

/// What `soapgen_runtime::include_client!("name")` expands to: `include!` of
/// `$OUT_DIR/name.rs` when build.rs generated it, else a compile error naming the clients that
/// were generated there (the WSDL's file stem, or `Builder::out_name`) or saying that no build.rs
/// ran. Not called directly.
#[doc(hidden)]
#[proc_macro]
pub fn __include_client(input: TokenStream) -> TokenStream {
    let name = syn::parse_macro_input!(input as syn::LitStr);
    include_client(&name).into()
}

fn include_client(name: &syn::LitStr) -> proc_macro2::TokenStream {
    let error = |msg: String| syn::Error::new(name.span(), msg).to_compile_error();
    let Ok(out_dir) = std::env::var("OUT_DIR") else {
        return error(
            "include_client! includes a client that build.rs generated into OUT_DIR, and this \
             crate has no build.rs (or it set no OUT_DIR): add one calling \
             soapgen_build::Builder::new().wsdl(…).build()"
                .to_owned(),
        );
    };
    let file = std::path::Path::new(&out_dir).join(format!("{}.rs", name.value()));
    if file.is_file() {
        return quote::quote!(include!(concat!(env!("OUT_DIR"), "/", #name, ".rs"));
        );
    }
    let mut generated: Vec<String> = std::fs::read_dir(&out_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let p = e.path();
            let stem = p.file_stem()?.to_str()?.to_owned();
            // Only what soapgen wrote: its first line says so.
            let head = std::fs::read_to_string(&p).ok()?;
            (p.extension()? == "rs" && head.starts_with("// @generated by soapgen")).then_some(stem)
        })
        .collect();
    generated.sort();
    let known = if generated.is_empty() {
        "build.rs generated no client there yet (soapgen_build::Builder::build in build.rs \
         writes one per WSDL)"
            .to_owned()
    } else {
        format!("the clients generated there: {}", generated.join(", "))
    };
    error(format!(
        "no client {:?} in OUT_DIR: {known}; a client is named after its WSDL's file stem, or \
         Builder::out_name",
        name.value()
    ))
}

#[cfg(test)]
mod include_client_tests {
    use super::include_client;

    #[test]
    fn a_name_build_rs_did_not_generate_lists_the_ones_it_did() {
        let dir = std::env::temp_dir().join(format!("soapgen-include-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("weather.rs"),
            "// @generated by soapgen 0.1.0 from weather.wsdl\n",
        )
        .unwrap();
        std::fs::write(dir.join("other.rs"), "// written by someone else\n").unwrap();
        // (Only this test reads OUT_DIR in this process.)
        std::env::set_var("OUT_DIR", &dir);
        let lit = |s: &str| syn::LitStr::new(s, proc_macro2::Span::call_site());
        let found = include_client(&lit("weather")).to_string();
        assert!(found.starts_with("include !"), "{found}");
        let missing = include_client(&lit("wether")).to_string();
        assert!(
            missing.contains(
                "no client \\\"wether\\\" in OUT_DIR: the clients generated there: weather;"
            ),
            "{missing}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
        let none = include_client(&lit("weather")).to_string();
        assert!(
            none.contains("build.rs generated no client there yet"),
            "{none}"
        );
        std::env::remove_var("OUT_DIR");
        let no_out_dir = include_client(&lit("weather")).to_string();
        assert!(
            no_out_dir.contains("this crate has no build.rs"),
            "{no_out_dir}"
        );
    }
}
