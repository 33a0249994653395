//! `occurs = "…"` (XML Schema Part 1 §3.9.1 minOccurs/maxOccurs, §3.3.1 nillable) decides the wire
//! form, not the name of the field's type: a type alias of a container, or a type of one's own
//! named `Vec` or `Option`, writes and reads exactly as the spelled-out field does.

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use soapgen_runtime::transport::{HttpRequest, HttpResponse, Transport, TransportFuture};
use soapgen_runtime::types::{Nillable, OptionalNillable};
use soapgen_runtime::xml::{self, Name, StartTag, XmlReader, XmlWriter};
use soapgen_runtime::{soap_client, Client, DecodeError, EncodeError, Error, FromXml, ToXml};

const NS: &str = "urn:test";

type Names = Vec<String>;
type Age = Option<i64>;
type Note = Nillable<String>;
type Nick = OptionalNillable<String>;
type Marks = Vec<Nillable<i32>>;

/// Types of one's own named like the containers the macros recognise by default: each holds one
/// value and writes it as the element itself.
mod own {
    use super::*;

    #[derive(Debug, Clone, PartialEq)]
    pub struct Vec<T>(pub T);

    #[derive(Debug, Clone, PartialEq)]
    pub struct Option<T>(pub T);

    macro_rules! transparent {
        ($t:ident) => {
            impl<T: ToXml> ToXml for $t<T> {
                fn write_xml(&self, w: &mut XmlWriter, name: Name<'_>) -> Result<(), EncodeError> {
                    self.0.write_xml(w, name)
                }
            }
            impl<T: FromXml> FromXml for $t<T> {
                fn read_xml<'i>(
                    r: &mut XmlReader<'i>,
                    start: StartTag<'i>,
                ) -> Result<Self, DecodeError> {
                    T::read_xml(r, start).map($t)
                }
            }
        };
    }
    transparent!(Vec);
    transparent!(Option);
}

/// Every field through an alias (or an own type), with `occurs`.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test")]
struct Aliased {
    #[xml(occurs = "many")]
    names: Names,
    #[xml(occurs = "optional")]
    age: Age,
    #[xml(occurs = "nillable")]
    note: Note,
    #[xml(occurs = "optional_nillable")]
    nick: Nick,
    #[xml(occurs = "many_nillable", min = 1)]
    marks: Marks,
    #[xml(occurs = "one")]
    city: own::Vec<String>,
    #[xml(occurs = "one")]
    zip: own::Option<i32>,
    #[xml(attribute, occurs = "optional")]
    lang: Age,
}

/// The same content spelled out, occurrence read from the types.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test")]
struct Spelled {
    names: Vec<String>,
    age: Option<i64>,
    note: Nillable<String>,
    nick: OptionalNillable<String>,
    #[xml(min = 1)]
    marks: Vec<Nillable<i32>>,
    city: String,
    zip: i32,
    #[xml(attribute)]
    lang: Option<i64>,
}

fn pairs() -> Vec<(Aliased, Spelled)> {
    let full = (
        Aliased {
            names: vec!["a".into(), "b".into()],
            age: Some(7),
            note: Nillable::Nil,
            nick: OptionalNillable::Value("n".into()),
            marks: vec![Nillable::Value(1), Nillable::Nil],
            city: own::Vec("Paris".into()),
            zip: own::Option(75),
            lang: Some(3),
        },
        Spelled {
            names: vec!["a".into(), "b".into()],
            age: Some(7),
            note: Nillable::Nil,
            nick: OptionalNillable::Value("n".into()),
            marks: vec![Nillable::Value(1), Nillable::Nil],
            city: "Paris".into(),
            zip: 75,
            lang: Some(3),
        },
    );
    let sparse = (
        Aliased {
            names: vec![],
            age: None,
            note: Nillable::Value("x".into()),
            nick: OptionalNillable::Nil,
            marks: vec![Nillable::Nil],
            city: own::Vec(String::new()),
            zip: own::Option(0),
            lang: None,
        },
        Spelled {
            names: vec![],
            age: None,
            note: Nillable::Value("x".into()),
            nick: OptionalNillable::Nil,
            marks: vec![Nillable::Nil],
            city: String::new(),
            zip: 0,
            lang: None,
        },
    );
    vec![full, sparse]
}

#[test]
fn an_alias_or_an_own_type_named_vec_writes_what_occurs_says() {
    for (aliased, spelled) in pairs() {
        let xml = xml::to_string(&spelled, Name::new(NS, "r")).unwrap();
        assert_eq!(xml::to_string(&aliased, Name::new(NS, "r")).unwrap(), xml);
        assert_eq!(xml::from_str::<Aliased>(&xml).unwrap(), aliased);
        assert_eq!(xml::from_str::<Spelled>(&xml).unwrap(), spelled);
    }
}

#[test]
fn the_occurrence_is_checked_when_reading() {
    // `city` (occurs = "one", an own type named `Vec`) is a single element: a second one is an
    // error, as is a missing one, and `marks` (min = 1) must occur.
    let ok = xml::to_string(&pairs()[0].1, Name::new(NS, "r")).unwrap();
    let twice = ok.replace(
        "<ns1:city>Paris</ns1:city>",
        "<ns1:city>Paris</ns1:city><ns1:city>Lyon</ns1:city>",
    );
    assert_ne!(twice, ok, "the fixture writes `ns1:city`: {ok}");
    let e = xml::from_str::<Aliased>(&twice).unwrap_err();
    assert!(e.to_string().contains("more than once"), "{e}");
    let missing = ok.replace("<ns1:city>Paris</ns1:city>", "");
    assert!(xml::from_str::<Aliased>(&missing).is_err());
    let no_marks = xml::to_string(
        &Spelled {
            marks: vec![],
            ..pairs()[0].1.clone()
        },
        Name::new(NS, "r"),
    )
    .unwrap();
    assert!(xml::from_str::<Spelled>(&no_marks).is_err());
    assert!(xml::from_str::<Aliased>(&no_marks).is_err());
}

#[soap_client(namespace = "urn:test")]
pub trait Lists {
    async fn spelled(&self, names: Vec<String>, age: Option<i64>) -> Result<Vec<i32>, Error>;
    #[soap(name = "spelled", result_occurs = "many")]
    async fn aliased(
        &self,
        #[soap(occurs = "many")] names: Names,
        #[soap(occurs = "optional")] age: Age,
    ) -> Result<Vec<i32>, Error>;
}

/// Records each request body and answers `spelledResponse` with two results.
#[derive(Debug, Default)]
struct Server {
    bodies: Mutex<Vec<String>>,
}

impl Transport for Server {
    fn send(&self, request: HttpRequest) -> TransportFuture<'_> {
        let body = String::from_utf8(request.body.to_vec()).unwrap();
        self.bodies.lock().unwrap().push(body);
        let envelope = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>\
             <t:spelledResponse xmlns:t=\"urn:test\"><t:spelledResult>1</t:spelledResult>\
             <t:spelledResult>2</t:spelledResult></t:spelledResponse></s:Body></s:Envelope>";
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
async fn client_parameters_through_aliases_send_the_same_request() {
    let server = Arc::new(Server::default());
    let c = Client::builder("http://127.0.0.1:1/lists")
        .transport(server.clone())
        .build()
        .unwrap();
    let client = ListsClient::from_client(c);
    let names = vec!["x".to_owned(), "y".to_owned()];
    let a = client.spelled(names.clone(), Some(4)).await.unwrap();
    let b = client.aliased(names, Some(4)).await.unwrap();
    assert_eq!(a, vec![1, 2]);
    assert_eq!(b, a);
    let bodies = server.bodies.lock().unwrap();
    assert_eq!(bodies.len(), 2);
    assert!(
        bodies[0].contains(">x<") && bodies[0].contains(">y<"),
        "{}",
        bodies[0]
    );
    assert_eq!(bodies[0], bodies[1]);
}
