//! Streamed results that are an array type: the result element holds the repeated items
//! (`<EchoResult><item/>…</EchoResult>`, the shape of .NET's `ArrayOf…` results), streamed with
//! `items = "item"`. The items are those the buffered call reads inside its array struct,
//! whatever the chunks; a result element that is nil, empty or absent holds none; what follows
//! the result inside the wrapper is an error after the items; a fake service answers in the
//! same shape.

use std::sync::Arc;

use soapgen_runtime::{soap_client, Client, Error, ItemStream};
use soapgen_tests::large_objects::{sample, Echo, LargeObject};

use super::streaming::{collect, response, Chunked};

#[soap_client(namespace = "urn:soapgen:bench", soap = "1.1", fake)]
trait Arrays {
    /// The buffered call: the array struct whole.
    #[soap(
        name = "Echo",
        action = "urn:soapgen:bench/Echo",
        response = "EchoResponse",
        result = "EchoResult",
        result_namespace = "urn:soapgen:bench"
    )]
    async fn echo(
        &self,
        #[soap(rename = "item", occurs = "many")] item: Vec<LargeObject>,
    ) -> Result<Option<Echo>, Error>;

    /// The same operation, its items one by one.
    #[soap(
        name = "Echo",
        action = "urn:soapgen:bench/Echo",
        response = "EchoResponse",
        result = "EchoResult",
        result_namespace = "urn:soapgen:bench",
        items = "item"
    )]
    async fn echo_stream(
        &self,
        #[soap(rename = "item", occurs = "many")] item: Vec<LargeObject>,
    ) -> Result<ItemStream<LargeObject>, Error>;
}

/// A service with the streamed method only.
#[soap_client(namespace = "urn:soapgen:bench", soap = "1.1", fake)]
trait ArrayFeed {
    #[soap(
        name = "Echo",
        action = "urn:soapgen:bench/Echo",
        response = "EchoResponse",
        result = "EchoResult",
        result_namespace = "urn:soapgen:bench",
        items = "item"
    )]
    async fn echo_stream(
        &self,
        #[soap(rename = "item", occurs = "many")] item: Vec<LargeObject>,
    ) -> Result<ItemStream<LargeObject>, Error>;
}

fn client(transport: Chunked) -> ArraysClient {
    ArraysClient::from_client(
        Client::builder("http://streamed.invalid/echo")
            .transport(Arc::new(transport))
            .build()
            .expect("client"),
    )
}

/// `n` objects in an array result: `response(n)`'s items inside `<tns:EchoResult>`.
fn array_response(n: usize) -> (Vec<LargeObject>, String) {
    let (objects, body) = response(n);
    let start = body.find("<tns:EchoResponse").expect("the wrapper");
    let end = start + body[start..].find('>').expect("its start tag") + 1;
    let body = format!(
        "{}<tns:EchoResult>{}",
        &body[..end],
        body[end..].replacen(
            "</tns:EchoResponse>",
            "</tns:EchoResult>\r\n  </tns:EchoResponse>",
            1
        )
    );
    (objects, body)
}

#[tokio::test]
async fn the_items_of_an_array_result_are_those_of_the_buffered_call_whatever_the_chunks() {
    let (objects, body) = array_response(1500);
    let buffered = client(Chunked::new(body.clone(), &[body.len()]))
        .echo(vec![])
        .await
        .expect("the buffered call")
        .expect("a result");
    assert_eq!(buffered.item, objects);
    for sizes in [&[body.len()][..], &[1], &[7, 4096, 1], &[65_537]] {
        let mut stream = client(Chunked::new(body.clone(), sizes))
            .echo_stream(vec![])
            .await
            .expect("the call");
        let (items, error) = collect(&mut stream).await;
        assert!(error.is_none(), "chunks {sizes:?}: {error:?}");
        assert!(items == objects, "chunks {sizes:?}: the items differ");
        assert_eq!(stream.items_read(), 1500, "chunks {sizes:?}");
    }
    // Read as it arrives, not whole (a response read whole is refused over the limit): a limit
    // far below the response bounds one item only.
    let limited = ArraysClient::from_client(
        Client::builder("http://streamed.invalid/echo")
            .transport(Arc::new(Chunked::new(body.clone(), &[4096])))
            .max_response_bytes(16 * 1024)
            .build()
            .expect("client"),
    );
    let mut stream = limited.echo_stream(vec![]).await.expect("the call");
    let (items, error) = collect(&mut stream).await;
    assert!(error.is_none() && items == objects, "{error:?}");
}

#[tokio::test]
async fn a_nil_empty_or_absent_array_result_holds_no_items() {
    let envelope = |content: &str| {
        format!(
            r#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><s:Body><EchoResponse xmlns="urn:soapgen:bench">{content}</EchoResponse></s:Body></s:Envelope>"#
        )
    };
    for content in [
        r#"<EchoResult xsi:nil="true"/>"#,
        "<EchoResult/>",
        "<EchoResult>\n</EchoResult>",
        "",
    ] {
        let body = envelope(content);
        for sizes in [&[body.len()][..], &[3]] {
            let mut stream = client(Chunked::new(body.clone(), sizes))
                .echo_stream(vec![])
                .await
                .unwrap_or_else(|e| panic!("{content:?}: {e}"));
            let (items, error) = collect(&mut stream).await;
            assert!(
                items.is_empty() && error.is_none(),
                "{content:?}: {error:?}"
            );
        }
    }
    // The result element twice: an error, as the buffered call's.
    let body = envelope("<EchoResult/><EchoResult/>");
    let streamed = client(Chunked::new(body.clone(), &[5]))
        .echo_stream(vec![])
        .await;
    assert!(matches!(streamed, Err(Error::Decode(_))), "{streamed:?}");
    let buffered = client(Chunked::new(body, &[5])).echo(vec![]).await;
    assert!(matches!(buffered, Err(Error::Decode(_))), "{buffered:?}");
}

#[tokio::test]
async fn what_follows_the_array_result_in_the_wrapper_is_an_error_after_the_items() {
    let (_, body) = array_response(4);
    let bad = body.replacen("</tns:EchoResult>", "</tns:EchoResult><tns:other/>", 1);
    let mut stream = client(Chunked::new(bad, &[10]))
        .echo_stream(vec![])
        .await
        .expect("the call");
    let (items, error) = collect(&mut stream).await;
    assert_eq!(items.len(), 4);
    match error {
        Some(Error::Decode(e)) => assert!(e.to_string().contains("other"), "{e}"),
        other => panic!("{other:?}"),
    }
    // The result element again after its items: the buffered call's error, after the items.
    let (_, body) = array_response(4);
    let twice = body.replacen("</tns:EchoResult>", "</tns:EchoResult><tns:EchoResult/>", 1);
    let buffered = client(Chunked::new(twice.clone(), &[twice.len()]))
        .echo(vec![])
        .await;
    let Err(Error::Decode(expected)) = buffered else {
        panic!("{buffered:?}")
    };
    let mut stream = client(Chunked::new(twice, &[10]))
        .echo_stream(vec![])
        .await
        .expect("the call");
    let (items, error) = collect(&mut stream).await;
    assert_eq!(items.len(), 4);
    match error {
        Some(Error::Decode(e)) => assert_eq!(e.kind, expected.kind, "{e} / {expected}"),
        other => panic!("{other:?}"),
    }
    // An item out of place inside the array is located under the result element.
    let (_, body) = array_response(4);
    let bad = body.replacen("<tns:item>", "<tns:row/><tns:item>", 1);
    let mut stream = client(Chunked::new(bad, &[10]))
        .echo_stream(vec![])
        .await
        .expect("the call");
    let (items, error) = collect(&mut stream).await;
    assert!(items.is_empty());
    match error {
        Some(Error::Decode(e)) => assert!(
            e.location.path.ends_with("EchoResponse/EchoResult/row"),
            "{}",
            e.location.path
        ),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_fake_service_answers_an_array_result_in_its_shape() {
    struct Plain;
    impl Arrays for Plain {
        async fn echo(&self, item: Vec<LargeObject>) -> Result<Option<Echo>, Error> {
            Ok(Some(Echo { item }))
        }
    }
    struct Streamed;
    impl ArrayFeed for Streamed {
        async fn echo_stream(
            &self,
            item: Vec<LargeObject>,
        ) -> Result<ItemStream<LargeObject>, Error> {
            Ok(ItemStream::from_items(item))
        }
    }
    let objects = sample(20).item;
    let mut stream = ArraysClient::fake(Plain)
        .echo_stream(objects.clone())
        .await
        .expect("the call");
    assert_eq!(collect(&mut stream).await.0, objects);
    let client = ArrayFeedClient::fake(Streamed);
    let mut stream = client.echo_stream(objects.clone()).await.expect("the call");
    assert_eq!(collect(&mut stream).await.0, objects);
}
