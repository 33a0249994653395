//! Broken and hostile responses, over real HTTP on loopback (`soapgen_tests::canned`) or read
//! directly: each is a clear, typed error within bounded time and memory, never a panic and never
//! a partial value. One small service (`GetQuote`, SOAP 1.1 and 1.2) answers them all.
//!
//! - [`http`]: what HTTP brings: status codes, HTML error pages, empty bodies, faults with 200 and
//!   500, refused connections and endpoints, basic auth, headers, cookies, gzip;
//! - [`xml`]: documents that are not XML or not what was asked for: malformed, the wrong element,
//!   an invalid value, DOCTYPEs and entity bombs;
//! - [`encodings`]: byte order marks, ISO-8859-1, UTF-16, invalid UTF-8;
//! - [`truncation`]: truncated responses, every truncation of real captured ones (plain, MTOM);
//! - [`limits`]: the response size, depth, attribute and text limits at and past their values;
//! - [`timeouts`]: a stalled server, headers then nothing, a body trickled byte by byte.

mod encodings;
mod http;
mod limits;
mod timeouts;
mod truncation;
mod xml;

use soapgen_runtime::envelope::read_response;
use soapgen_runtime::error::DecodeErrorKind;
use soapgen_runtime::types::Decimal;
use soapgen_runtime::xml::Limits;
use soapgen_runtime::{soap_client, Error, FromXml, ToXml};
use soapgen_tests::canned::{serve, Behaviour};

/// The result of `GetQuote`: `price` and `note` optional, so that one type reads every test's
/// response.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:q")]
pub struct Quote {
    pub symbol: String,
    pub price: Option<Decimal>,
    pub note: Option<String>,
}

#[soap_client(namespace = "urn:q", soap = "1.1")]
pub trait Quotes {
    #[soap(action = "urn:q#GetQuote", result = "Quote")]
    async fn get_quote(&self, symbol: String) -> Result<Quote, Error>;
}

#[soap_client(namespace = "urn:q", soap = "1.2", client = "Quotes12Client")]
pub trait Quotes12 {
    #[soap(action = "urn:q#GetQuote", result = "Quote")]
    async fn get_quote(&self, symbol: String) -> Result<Quote, Error>;
}

const ENV11: &str = "http://schemas.xmlsoap.org/soap/envelope/";

/// A SOAP 1.1 envelope (with an XML declaration, `q` bound to `urn:q`) around `body`.
fn envelope(body: &str) -> String {
    envelope_with("<?xml version=\"1.0\"?>", body)
}

/// [`envelope`] with the XML declaration `decl` (or none, if empty).
fn envelope_with(decl: &str, body: &str) -> String {
    format!(
        r#"{decl}<s:Envelope xmlns:s="{ENV11}" xmlns:q="urn:q"><s:Body>{body}</s:Body></s:Envelope>"#
    )
}

/// A `GetQuote` response of symbol `Ä` and `note`, with the XML declaration `decl`.
fn note_envelope(decl: &str, note: &str) -> String {
    envelope_with(
        decl,
        &format!(
            "<q:get_quoteResponse><q:Quote><q:symbol>Ä</q:symbol><q:note>{note}</q:note></q:Quote>\
             </q:get_quoteResponse>"
        ),
    )
}

/// The Body of a good `GetQuote` response.
const GOOD: &str = "<q:get_quoteResponse><q:Quote><q:symbol>ACME</q:symbol><q:price>12.50</q:price></q:Quote></q:get_quoteResponse>";

/// `GetQuote` of a loopback server that answers `resp` (a whole HTTP response).
async fn call(resp: Vec<u8>) -> Result<Quote, Error> {
    let server = serve(Behaviour::Raw(resp));
    QuotesClient::new(server.url())?
        .get_quote("ACME".into())
        .await
}

/// A SOAP 1.1 envelope around `body`, no declaration, no other namespace.
fn wrap(body: &str) -> String {
    format!("<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>{body}</s:Body></s:Envelope>")
}

/// Reads `doc` as a response with `limits`, skipping the payload.
fn limited(limits: Limits) -> impl Fn(&str) -> Result<(), Error> {
    move |doc: &str| {
        read_response(doc.as_bytes(), limits, Some(200), |r, _| r.skip_element()).map(|_| ())
    }
}

/// The decoding error's kind (a panic for other errors).
fn kind(e: Error) -> DecodeErrorKind {
    match e {
        Error::Xml(d) | Error::Decode(d) => d.kind,
        other => panic!("{other}"),
    }
}
