//! The types of `tests/wsdl/large_objects.wsdl`,
//! written by hand with the derives, and a deterministic 100-object Echo message, for the
//! `roundtrip_100` benchmark and the interop tests.

use soapgen_runtime::types::{DateTime, Decimal};
use soapgen_runtime::{FromXml, ToXml};

/// Target namespace of the benchmark service.
pub const NS: &str = "urn:soapgen:bench";

/// `tns:Address`.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:soapgen:bench", rename_all = "camelCase")]
pub struct Address {
    /// `street`.
    pub street: String,
    /// `city`.
    pub city: String,
    /// `postalCode`.
    pub postal_code: String,
    /// `country`.
    pub country: String,
}

/// `tns:LargeObject`.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:soapgen:bench")]
pub struct LargeObject {
    /// `id` (xs:long).
    pub id: i64,
    /// `name`.
    pub name: String,
    /// `description`.
    pub description: String,
    /// `price` (xs:decimal).
    pub price: Decimal,
    /// `quantity` (xs:int).
    pub quantity: i32,
    /// `ratio` (xs:double).
    pub ratio: f64,
    /// `active`.
    pub active: bool,
    /// `created` (xs:dateTime).
    pub created: DateTime,
    /// `address`.
    pub address: Address,
    /// `tags` (0..unbounded).
    pub tags: Vec<String>,
}

/// The `Echo` and `EchoResponse` elements' type: a sequence of `item`.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:soapgen:bench")]
pub struct Echo {
    /// `item` (0..unbounded).
    pub item: Vec<LargeObject>,
}

/// `n` deterministic objects of the size the benchmark comparisons use (~470 bytes of XML each).
pub fn sample(n: usize) -> Echo {
    let item = (0..n)
        .map(|i| LargeObject {
            id: 1_000_000 + i as i64,
            name: format!("Object number {i} & friends"),
            description: format!(
                "A large object used to measure SOAP serialization; entry {i} of the echo message, \
                 with enough text to look like a real record <description> from a line-of-business system."
            ),
            price: Decimal::new((1999 + i as i64).into(), 2),
            quantity: i as i32 * 3,
            ratio: 0.25 + i as f64 / 7.0,
            active: i % 2 == 0,
            created: "2026-11-30T12:34:56.789+01:00".parse().expect("valid dateTime"),
            address: Address {
                street: format!("{i} Long Street"),
                city: "Springfield".to_owned(),
                postal_code: format!("{:05}", 10000 + i),
                country: "NL".to_owned(),
            },
            tags: vec!["alpha".to_owned(), "beta".to_owned(), format!("tag-{i}")],
        })
        .collect();
    Echo { item }
}

/// `echo` as a whole SOAP 1.1 envelope whose Body holds it as the element `{NS}element` (`Echo`
/// for the request, `EchoResponse` for the response), written by the runtime's writer.
///
/// # Panics
///
/// If the runtime cannot write it (it always can: the values are plain text and numbers).
pub fn envelope(echo: &Echo, element: &str) -> String {
    let mut env = soapgen_runtime::envelope::EnvelopeWriter::new(
        soapgen_runtime::SoapVersion::Soap11,
        &[("tns", NS)],
    )
    .expect("an envelope writer");
    env.body(|w| echo.write_xml(w, soapgen_runtime::xml::Name::new(NS, element)))
        .expect("the Echo body");
    env.finish().expect("the envelope")
}

/// The `Echo` in the Body of `xml` (whatever its element's name), read by the runtime's
/// response reader.
///
/// # Panics
///
/// If `xml` is not such an envelope.
pub fn read_envelope(xml: &str) -> Echo {
    use soapgen_runtime::envelope::{read_response, BodyContent};
    match read_response(
        xml.as_bytes(),
        soapgen_runtime::xml::Limits::default(),
        Some(200),
        Echo::read_xml,
    ) {
        Ok(BodyContent::Payload(e)) => e,
        other => panic!("not an Echo envelope: {other:?}"),
    }
}
