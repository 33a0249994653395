//! `OptionalNillable<T>` (an element with `minOccurs="0" nillable="true"`, XML Schema Part 1 §3.9.1,
//! §2.6.2) is on the wire exactly what `Option<Nillable<T>>` is: absent writes nothing, nil an
//! empty element with `xsi:nil="true"`, a value the element. Each type below has a twin spelled
//! the other way; both write the same bytes and read each other's XML back into the same state,
//! in name-matched and positional (`sequence`) structs, as a `#[soap_client]` parameter and result.

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use soapgen_runtime::transport::{HttpRequest, HttpResponse, Transport, TransportFuture};
use soapgen_runtime::types::Nillable;
use soapgen_runtime::xml::{self, Name};
use soapgen_runtime::{soap_client, Client, Error, FromXml, OptionalNillable, ToXml};

const NS: &str = "urn:test";

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test")]
struct Inner {
    v: String,
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test")]
struct Old {
    name: Option<Nillable<String>>,
    #[xml(default = "7")]
    count: Option<Nillable<i32>>,
    inner: Option<Nillable<Box<Inner>>>,
    #[xml(unqualified)]
    last: Option<Nillable<String>>,
}

#[derive(Debug, Clone, PartialEq, Default, ToXml, FromXml)]
#[xml(namespace = "urn:test")]
struct New {
    name: OptionalNillable<String>,
    #[xml(default = "7")]
    count: OptionalNillable<i32>,
    inner: OptionalNillable<Box<Inner>>,
    #[xml(unqualified)]
    last: soapgen_runtime::types::OptionalNillable<String>,
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test", sequence)]
struct OldSeq {
    a: Option<Nillable<String>>,
    b: String,
    c: Option<Nillable<Box<Inner>>>,
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test", sequence)]
struct NewSeq {
    a: OptionalNillable<String>,
    b: String,
    c: OptionalNillable<Box<Inner>>,
}

/// The three states of a `T`, in both spellings.
fn states<T: Clone>(value: T) -> Vec<(Option<Nillable<T>>, OptionalNillable<T>)> {
    vec![
        (None, OptionalNillable::Absent),
        (Some(Nillable::Nil), OptionalNillable::Nil),
        (
            Some(Nillable::Value(value.clone())),
            OptionalNillable::Value(value),
        ),
    ]
}

#[test]
fn writes_and_reads_like_option_of_nillable() {
    let inner = Box::new(Inner { v: "i".into() });
    for (on, nn) in states("n".to_owned()) {
        for (oc, nc) in states(3) {
            for (oi, ni) in states(inner.clone()) {
                let old = Old {
                    name: on.clone(),
                    count: oc.clone(),
                    inner: oi.clone(),
                    last: on.clone(),
                };
                let new = New {
                    name: nn.clone(),
                    count: nc,
                    inner: ni.clone(),
                    last: nn.clone(),
                };
                let xml = xml::to_string(&new, Name::new(NS, "r")).unwrap();
                assert_eq!(
                    xml,
                    xml::to_string(&old, Name::new(NS, "r")).unwrap(),
                    "the same bytes on the wire"
                );
                assert_eq!(xml::from_str::<New>(&xml).unwrap(), new);
                assert_eq!(xml::from_str::<Old>(&xml).unwrap(), old);
            }
        }
    }
}

#[test]
fn the_wire_shape_of_each_state() {
    assert_eq!(
        xml::to_string(&New::default(), Name::new(NS, "r")).unwrap(),
        r#"<ns1:r xmlns:ns1="urn:test"/>"#
    );
    let nil = New {
        name: OptionalNillable::Nil,
        ..New::default()
    };
    assert_eq!(
        xml::to_string(&nil, Name::new(NS, "r")).unwrap(),
        r#"<ns1:r xmlns:ns1="urn:test"><ns1:name xmlns:ns2="http://www.w3.org/2001/XMLSchema-instance" ns2:nil="true"/></ns1:r>"#
    );
    let value = New {
        name: "x".into(),
        last: "y".into(),
        ..New::default()
    };
    assert_eq!(
        xml::to_string(&value, Name::new(NS, "r")).unwrap(),
        r#"<ns1:r xmlns:ns1="urn:test"><ns1:name>x</ns1:name><last>y</last></ns1:r>"#
    );
}

#[test]
fn empty_content_reads_as_the_default_and_nil_stays_nil() {
    let xml =
        r#"<r xmlns="urn:test" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><count/></r>"#;
    assert_eq!(
        xml::from_str::<New>(xml).unwrap().count,
        OptionalNillable::Value(7)
    );
    let xml = r#"<r xmlns="urn:test" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><count xsi:nil="true"/></r>"#;
    assert_eq!(
        xml::from_str::<New>(xml).unwrap().count,
        OptionalNillable::Nil
    );
}

#[test]
fn a_second_occurrence_is_an_error() {
    let xml = r#"<r xmlns="urn:test"><name>a</name><name>b</name></r>"#;
    let e = xml::from_str::<New>(xml).unwrap_err();
    assert!(e.to_string().contains("more than once"), "{e}");
    let e = xml::from_str::<Old>(xml).unwrap_err();
    assert!(e.to_string().contains("more than once"), "{e}");
}

#[test]
fn positional_structs_agree() {
    let inner = Box::new(Inner { v: "i".into() });
    for (oa, na) in states("a".to_owned()) {
        for (oc, nc) in states(inner.clone()) {
            let old = OldSeq {
                a: oa.clone(),
                b: "b".into(),
                c: oc,
            };
            let new = NewSeq {
                a: na.clone(),
                b: "b".into(),
                c: nc,
            };
            let xml = xml::to_string(&new, Name::new(NS, "r")).unwrap();
            assert_eq!(xml, xml::to_string(&old, Name::new(NS, "r")).unwrap());
            assert_eq!(xml::from_str::<NewSeq>(&xml).unwrap(), new);
            assert_eq!(xml::from_str::<OldSeq>(&xml).unwrap(), old);
        }
    }
    let dup = r#"<r xmlns="urn:test"><a>1</a><a>2</a><b>b</b></r>"#;
    assert!(xml::from_str::<NewSeq>(dup).is_err());
}

#[soap_client(namespace = "urn:test")]
pub trait Echo {
    async fn new_style(&self, id: OptionalNillable<String>)
        -> Result<OptionalNillable<i32>, Error>;
    async fn old_style(&self, id: Option<Nillable<String>>)
        -> Result<Option<Nillable<i32>>, Error>;
}

/// Answers with the result element the request's `id` says: `absent`, `nil` or a number.
#[derive(Debug, Default)]
struct Server {
    bodies: Mutex<Vec<String>>,
}

impl Transport for Server {
    fn send(&self, request: HttpRequest) -> TransportFuture<'_> {
        let body = String::from_utf8(request.body.to_vec()).unwrap();
        let op = if body.contains("new_style") {
            "new_style"
        } else {
            "old_style"
        };
        let result = if body.contains("nil=\"true\"") {
            format!("<t:{op}Result xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\" i:nil=\"true\"/>")
        } else if body.contains(">42<") {
            format!("<t:{op}Result>42</t:{op}Result>")
        } else {
            String::new()
        };
        self.bodies.lock().unwrap().push(body);
        let envelope = format!(
            "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>\
             <t:{op}Response xmlns:t=\"urn:test\">{result}</t:{op}Response></s:Body></s:Envelope>"
        );
        Box::pin(async move {
            Ok(HttpResponse {
                status: 200,
                headers: vec![("content-type".into(), "text/xml; charset=utf-8".into())],
                body: Bytes::from(envelope),
            })
        })
    }
}

#[tokio::test]
async fn client_parameters_and_results() {
    let server = Arc::new(Server::default());
    let c = Client::builder("http://127.0.0.1:1/echo")
        .transport(server.clone())
        .build()
        .unwrap();
    let client = EchoClient::from_client(c);
    for (old, new) in states("42".to_owned()) {
        let a = client.new_style(new.clone()).await.unwrap();
        let b = client.old_style(old.clone()).await.unwrap();
        assert_eq!(a, new.map(|_| 42));
        assert_eq!(b, old.map(|n| n.map(|_| 42)));
        let bodies = server.bodies.lock().unwrap();
        let (x, y) = (&bodies[bodies.len() - 2], &bodies[bodies.len() - 1]);
        assert_eq!(x.replace("new_style", "old_style"), *y, "the same request");
    }
    assert_eq!(
        client.new_style("42".into()).await.unwrap(),
        OptionalNillable::Value(42)
    );
}
