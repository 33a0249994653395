//! rpc/encoded (SOAP 1.1 §5 and §7) against a real peer, through the client generated from
//! `tests/peers/gsoap/encoded/encoded.wsdl`, served by gSOAP (`tests/peers/gsoap/encoded/server.c`),
//! which reads and writes SOAP 1.1 encoding natively:
//!
//! - `echoItem`: a struct part with `xsi:type`, echoed back;
//! - `echoItems`: a SOAP-ENC array of structs (`soapenc:arrayType="e:Item[n]"`), 0, 1 and 3 items;
//! - `echoStrings`: a string array, with gSOAP's `n=<count>` appended;
//! - `getPair`: gSOAP writes the one `Item` that is both `first` and `second` once, as a
//!   multi-reference value (`<first href="#_1"/>`, `<id id="_1">` after the response element),
//!   which the client resolves into two equal values;
//! - `describe`: five parts, taken as one struct (`types::Describe`) and written inside the
//!   operation element, each part with its `xsi:type`, as gSOAP reads them.

use soapgen_tests::peers;

/// The client generated at build time (`tests/build.rs`).
mod generated {
    soapgen_runtime::include_client!("encoded");
}

use generated::types::{Item, Pair};
use generated::EncodedServiceClient;

fn item(name: &str, count: i32) -> Item {
    Item {
        name: name.to_owned(),
        count,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn encoded_struct_arrays_and_multiref_against_gsoap() {
    let peer = peers::gsoap_encoded();
    let client = EncodedServiceClient::new(peer.url("/encoded")).unwrap();

    let one = item("caf\u{e9} <&>", -7);
    assert_eq!(client.echo_item(one.clone()).await.unwrap(), one);

    for n in [0usize, 1, 3] {
        let items: Vec<Item> = (0..n).map(|i| item(&format!("i{i}"), i as i32)).collect();
        let back = client.echo_items(items.clone().into()).await.unwrap();
        assert_eq!(back.into_vec(), items, "{n} items");
    }

    let strings = vec!["a".to_owned(), String::new(), "x y".to_owned()];
    let back = client.echo_strings(strings.clone().into()).await.unwrap();
    let mut expected = strings;
    expected.push("n=3".to_owned());
    assert_eq!(back.into_vec(), expected);

    let pair: Pair = client.get_pair("shared".to_owned(), 42).await.unwrap();
    assert_eq!(pair.first, item("shared", 42));
    assert_eq!(pair.second, pair.first);

    // More than four parts: one struct, its fields the parts in order.
    let described = client
        .describe(generated::types::Describe {
            name: "caf\u{e9} & co".into(),
            count: -3,
            price: 12.5,
            active: true,
            note: String::new(),
        })
        .await
        .unwrap();
    assert_eq!(described, "caf\u{e9} & co|-3|12.50|true|");
}

/// An Axis 1.4-style response (every struct an independent `multiRef`, typed with `xsi:type`, the
/// return accessor named after the operation), from a canned server; and what the request looks like
/// on the wire.
#[tokio::test]
async fn axis_style_multiref_response_and_encoded_request() {
    use soapgen_tests::canned::{http, serve, Behaviour};
    let body = r##"<?xml version="1.0" encoding="utf-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
 <soapenv:Body>
  <ns1:getPairResponse soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xmlns:ns1="urn:soapgen:encoded">
   <getPairReturn href="#id0"/>
  </ns1:getPairResponse>
  <multiRef id="id0" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns2:Pair" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:ns2="urn:soapgen:encoded">
   <first href="#id1"/>
   <second href="#id1"/>
  </multiRef>
  <multiRef id="id1" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns3:Item" xmlns:ns3="urn:soapgen:encoded" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">
   <name xsi:type="xsd:string">axis</name>
   <count xsi:type="xsd:int">5</count>
  </multiRef>
 </soapenv:Body>
</soapenv:Envelope>"##;
    let server = serve(Behaviour::Raw(http(
        200,
        "text/xml; charset=utf-8",
        body.as_bytes(),
    )));
    let client = EncodedServiceClient::new(server.url()).unwrap();
    let pair = client.get_pair("axis".to_owned(), 5).await.unwrap();
    assert_eq!(pair.first, item("axis", 5));
    assert_eq!(pair.second, pair.first);
    let request = server.last_request();
    // With the Envelope's own prefix, not a declaration of its namespace again.
    assert!(
        request.contains(r#"soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/""#)
            && !request.contains(r#"xmlns:ns1="http://schemas.xmlsoap.org/soap/envelope/""#),
        "{request}"
    );
    assert!(
        request.contains(r#"<name xsi:type="xsd:string">axis</name>"#),
        "{request}"
    );
    assert!(
        request.contains(r#"<count xsi:type="xsd:int">5</count>"#),
        "{request}"
    );

    // A reference to no id is an error with the element path.
    let broken = body.replace(r##"<second href="#id1"/>"##, r##"<second href="#id9"/>"##);
    let server = serve(Behaviour::Raw(http(200, "text/xml", broken.as_bytes())));
    let client = EncodedServiceClient::new(server.url()).unwrap();
    let e = client.get_pair("axis".to_owned(), 5).await.unwrap_err();
    let text = e.to_string();
    assert!(text.contains("#id9") && text.contains("second"), "{text}");
}
