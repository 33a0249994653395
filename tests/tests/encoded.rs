//! rpc/encoded (SOAP 1.1 §5 and §7) against a real peer, through the client generated from
//! `tests/peers/gsoap/encoded/encoded.wsdl`, served by gSOAP (`tests/peers/gsoap/encoded/server.c`),
//! which reads and writes SOAP 1.1 encoding natively:
//!
//! - `echoItem`: a struct part with `xsi:type`, echoed back;
//! - `echoItems`: a SOAP-ENC array of structs (`soapenc:arrayType="e:Item[n]"`), 0, 1 and 3 items;
//! - `echoStrings`: a string array, with gSOAP's `n=<count>` appended;
//! - `getPair`: gSOAP writes the one `Item` that is both `first` and `second` once, as a
//!   multi-reference value (`<first href="#_1"/>`, `<id id="_1">` after the response element),
//!   which the client resolves into two equal values.

use soapgen_tests::peers;

mod encoded {
    soapgen_runtime::include_client!("encoded");
}

use encoded::types::{Item, Pair};
use encoded::EncodedBindingClient;

fn item(name: &str, count: i32) -> Item {
    Item {
        name: name.to_owned(),
        count,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn encoded_struct_arrays_and_multiref_against_gsoap() {
    let peer = peers::gsoap_encoded();
    let client = EncodedBindingClient::new(peer.url("/encoded")).unwrap();

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
}
