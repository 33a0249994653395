//! The opt-in relaxations of `Leniency`, each both ways: off (the default) the response is a typed
//! error naming the element path and the switch; on, the value is read and a `tracing` warning
//! (target `soapgen::lenient`) names the element path. Through the derives and through a client
//! whose `ClientBuilder::leniency` is set.

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use soapgen_runtime::envelope::{read_response, BodyContent};
use soapgen_runtime::error::DecodeErrorKind;
use soapgen_runtime::transport::{HttpRequest, HttpResponse, Transport, TransportFuture};
use soapgen_runtime::xml::{Leniency, Limits};
use soapgen_runtime::{soap_client, Client, DecodeError, Error, FromXml, ToXml};

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test")]
struct Item {
    name: String,
    /// `minOccurs="0"`, not nillable.
    note: Option<String>,
    /// `minOccurs="0"`, not nillable, with a default for empty content.
    #[xml(default = "7")]
    count: Option<i32>,
}

/// A `tracing` writer that keeps what was written.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs `f` with a subscriber that captures every event at `warn` and above; returns its result
/// and the log.
fn with_log<T>(f: impl FnOnce() -> T) -> (T, String) {
    let out = Captured::default();
    let writer = out.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_max_level(tracing::Level::WARN)
        .with_ansi(false)
        .finish();
    let v = tracing::subscriber::with_default(subscriber, f);
    let log = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    (v, log)
}

fn envelope(body: &str) -> String {
    format!(
        r#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><s:Body>{body}</s:Body></s:Envelope>"#
    )
}

fn read_item(doc: &str, leniency: Leniency) -> Result<Item, DecodeError> {
    let read = read_response(
        doc.as_bytes(),
        Limits::default().with_leniency(leniency),
        None,
        Item::read_xml,
    );
    match read {
        Ok(BodyContent::Payload(v)) => Ok(v),
        Ok(BodyContent::Empty) => panic!("empty body"),
        Err(Error::Decode(e)) => Err(*e),
        Err(other) => panic!("not a decode error: {other}"),
    }
}

#[test]
fn nil_on_a_non_nillable_optional_element_is_an_error_or_read_as_absent() {
    let doc = envelope(
        r#"<t:Item xmlns:t="urn:test"><t:name>a</t:name><t:note xsi:nil="true"/><t:count xsi:nil="1"></t:count></t:Item>"#,
    );
    let (strict, log) = with_log(|| read_item(&doc, Leniency::STRICT));
    let e = strict.unwrap_err();
    assert_eq!(e.kind, DecodeErrorKind::UnexpectedNil, "{e}");
    assert_eq!(e.location.path, "Body/Item/note", "{e}");
    let text = e.to_string();
    assert!(text.contains("Leniency::nil_on_non_nillable"), "{text}");
    assert!(log.is_empty(), "{log}");

    let lenient = Leniency::STRICT.with_nil_on_non_nillable(true);
    let (v, log) = with_log(|| read_item(&doc, lenient));
    assert_eq!(
        v.unwrap(),
        Item {
            name: "a".into(),
            note: None,
            count: None,
        }
    );
    assert!(
        log.contains("WARN") && log.contains("soapgen::lenient"),
        "{log}"
    );
    assert!(log.contains("nil_on_non_nillable"), "{log}");
    assert!(log.contains("path=Body/Item/note"), "{log}");
    assert!(log.contains("path=Body/Item/count"), "{log}");
    assert_eq!(log.matches("WARN").count(), 2, "{log}");
}

#[test]
fn nil_on_a_required_element_stays_an_error_when_lenient() {
    let doc = envelope(r#"<t:Item xmlns:t="urn:test"><t:name xsi:nil="true"/></t:Item>"#);
    let lenient = Leniency::STRICT
        .with_nil_on_non_nillable(true)
        .with_unknown_elements(true);
    let (r, log) = with_log(|| read_item(&doc, lenient));
    let e = r.unwrap_err();
    assert_eq!(e.kind, DecodeErrorKind::UnexpectedNil, "{e}");
    assert_eq!(e.location.path, "Body/Item/name");
    assert!(log.is_empty(), "{log}");
}

#[test]
fn unknown_elements_are_an_error_naming_the_switch_or_skipped() {
    let doc = envelope(
        r#"<t:Item xmlns:t="urn:test"><t:name>a</t:name><t:added>x<t:deep/></t:added><t:note>n</t:note></t:Item>"#,
    );
    let (strict, log) = with_log(|| read_item(&doc, Leniency::STRICT));
    let e = strict.unwrap_err();
    assert!(
        matches!(&e.kind, DecodeErrorKind::UnexpectedElement(n) if n.starts_with("{urn:test}added")),
        "{e:?}"
    );
    assert_eq!(e.location.path, "Body/Item/added");
    assert!(e.to_string().contains("Leniency::unknown_elements"), "{e}");
    assert!(log.is_empty(), "{log}");

    // The nil switch alone does not skip unknown elements.
    let only_nil = Leniency::STRICT.with_nil_on_non_nillable(true);
    assert!(read_item(&doc, only_nil).is_err());

    let (v, log) = with_log(|| read_item(&doc, Leniency::STRICT.with_unknown_elements(true)));
    assert_eq!(
        v.unwrap(),
        Item {
            name: "a".into(),
            note: Some("n".into()),
            count: None,
        }
    );
    assert!(
        log.contains("WARN") && log.contains("soapgen::lenient"),
        "{log}"
    );
    assert!(log.contains("path=Body/Item/added"), "{log}");
    assert!(log.contains("Leniency::unknown_elements"), "{log}");
}

#[test]
fn the_old_limits_setter_sets_the_unknown_elements_switch() {
    let limits = Limits::default().with_lenient_unknown_elements(true);
    assert_eq!(
        limits.leniency,
        Leniency::STRICT.with_unknown_elements(true)
    );
    assert_eq!(Limits::default().leniency, Leniency::default());
    assert_eq!(Leniency::default(), Leniency::STRICT);
}

#[soap_client(namespace = "urn:test")]
pub trait Lookup {
    async fn find(&self, key: String) -> Result<Option<String>, Error>;
}

/// Answers every call with a `findResult` that is nil although it is not nillable, then an
/// unknown element.
#[derive(Debug)]
struct NilServer;

impl Transport for NilServer {
    fn send(&self, _request: HttpRequest) -> TransportFuture<'_> {
        let body = envelope(
            r#"<t:findResponse xmlns:t="urn:test"><t:findResult xsi:nil="true"/><t:extra/></t:findResponse>"#,
        );
        Box::pin(async move {
            Ok(HttpResponse {
                status: 200,
                headers: vec![("content-type".into(), "text/xml; charset=utf-8".into())],
                body: Bytes::from(body),
            })
        })
    }
}

fn lookup(leniency: Option<Leniency>) -> LookupClient {
    let mut b = Client::builder("http://127.0.0.1:1/lookup").transport(Arc::new(NilServer));
    if let Some(l) = leniency {
        b = b.leniency(l);
    }
    LookupClient::from_client(b.build().unwrap())
}

#[test]
fn client_builder_leniency_applies_to_responses() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let strict = rt.block_on(lookup(None).find("k".into())).unwrap_err();
    match &strict {
        Error::Decode(e) => {
            assert_eq!(e.kind, DecodeErrorKind::UnexpectedNil, "{e}");
            assert_eq!(e.location.path, "Body/findResponse/findResult");
        }
        other => panic!("{other}"),
    }
    // Nil allowed, the unknown element not.
    let half = rt
        .block_on(lookup(Some(Leniency::STRICT.with_nil_on_non_nillable(true))).find("k".into()))
        .unwrap_err();
    assert!(
        half.to_string().contains("Leniency::unknown_elements"),
        "{half}"
    );
    let both = lookup(Some(
        Leniency::STRICT
            .with_nil_on_non_nillable(true)
            .with_unknown_elements(true),
    ));
    let (v, log) = with_log(|| rt.block_on(both.find("k".into())));
    assert_eq!(v.unwrap(), None);
    assert!(log.contains("path=Body/findResponse/findResult"), "{log}");
    assert!(log.contains("path=Body/findResponse/extra"), "{log}");
}
