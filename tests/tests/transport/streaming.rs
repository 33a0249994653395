//! Streamed responses (`ItemStream`): a result of many repeated elements read item by item as the
//! body arrives. A transport of the test's own cuts one body into chunks of every size (so that
//! tokens, characters and items fall across chunk and window boundaries), and real sockets
//! serve bodies through the reqwest and hyper transports: the items are those a buffered call
//! reads, errors are located in the whole body as a buffered call locates them, and the start of
//! the response (status, faults, `mustUnderstand` headers) is checked as a buffered call checks it.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use soapgen_runtime::error::{DecodeErrorKind, TransportErrorKind};
use soapgen_runtime::transport::{
    BodyStream, HttpRequest, HttpResponse, StreamingFuture, StreamingResponse, Transport,
    TransportFuture,
};
use soapgen_runtime::{soap_client, Client, Error, ItemStream, TransportError};
use soapgen_tests::large_objects::{envelope, sample, LargeObject};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

#[soap_client(namespace = "urn:soapgen:bench", soap = "1.1", blocking, fake)]
trait Reports {
    #[soap(
        name = "Echo",
        action = "urn:soapgen:bench/Echo",
        response = "EchoResponse",
        result = "item",
        result_namespace = "urn:soapgen:bench"
    )]
    async fn echo(
        &self,
        #[soap(rename = "item", occurs = "many")] item: Vec<LargeObject>,
    ) -> Result<Vec<LargeObject>, Error>;

    #[soap(
        name = "Echo",
        action = "urn:soapgen:bench/Echo",
        response = "EchoResponse",
        result = "item",
        result_namespace = "urn:soapgen:bench"
    )]
    async fn echo_stream(
        &self,
        #[soap(rename = "item", occurs = "many")] item: Vec<LargeObject>,
    ) -> Result<ItemStream<LargeObject>, Error>;

    /// At least three items (minOccurs 3).
    #[soap(
        name = "Echo",
        action = "urn:soapgen:bench/Echo",
        response = "EchoResponse",
        result = "item",
        result_namespace = "urn:soapgen:bench",
        result_min = 3
    )]
    async fn echo_three(
        &self,
        #[soap(rename = "item", occurs = "many")] item: Vec<LargeObject>,
    ) -> Result<ItemStream<LargeObject>, Error>;
}

/// Answers every request with `body`, handed over in chunks of the sizes of `sizes` (cycled),
/// then `end` (none: the body ends there).
#[derive(Debug, Clone)]
pub(crate) struct Chunked {
    status: u16,
    content_type: String,
    body: Bytes,
    sizes: Vec<usize>,
    end: Option<TransportErrorKind>,
}

impl Chunked {
    pub(crate) fn new(body: impl Into<Bytes>, sizes: &[usize]) -> Self {
        Chunked {
            status: 200,
            content_type: "text/xml; charset=utf-8".to_owned(),
            body: body.into(),
            sizes: sizes.to_vec(),
            end: None,
        }
    }

    fn chunks(&self) -> VecDeque<Result<Bytes, TransportError>> {
        let mut out = VecDeque::new();
        let mut at = 0;
        let mut i = 0;
        while at < self.body.len() {
            let n = self.sizes[i % self.sizes.len()].min(self.body.len() - at);
            out.push_back(Ok(self.body.slice(at..at + n)));
            at += n;
            i += 1;
        }
        if let Some(kind) = self.end {
            out.push_back(Err(TransportError::new(kind, "", "connection reset", None)));
        }
        out
    }
}

/// The chunks, one per poll, with a `Pending` (and a wake-up) between any two.
struct Chunks {
    chunks: VecDeque<Result<Bytes, TransportError>>,
    ready: bool,
}

impl futures_core::Stream for Chunks {
    type Item = Result<Bytes, TransportError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if !self.ready {
            self.ready = true;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        self.ready = false;
        Poll::Ready(self.chunks.pop_front())
    }
}

impl Transport for Chunked {
    fn send(&self, _request: HttpRequest) -> TransportFuture<'_> {
        let body = self.body.clone();
        let (status, ct) = (self.status, self.content_type.clone());
        Box::pin(async move {
            Ok(HttpResponse {
                status,
                headers: vec![("content-type".to_owned(), ct)],
                body,
            })
        })
    }

    fn send_streaming(&self, _request: HttpRequest) -> StreamingFuture<'_> {
        let body: BodyStream = Box::pin(Chunks {
            chunks: self.chunks(),
            ready: false,
        });
        let (status, ct) = (self.status, self.content_type.clone());
        Box::pin(async move {
            Ok(StreamingResponse {
                status,
                headers: vec![("content-type".to_owned(), ct)],
                body,
            })
        })
    }
}

fn client(transport: Chunked) -> ReportsClient {
    ReportsClient::from_client(
        Client::builder("http://streamed.invalid/echo")
            .transport(Arc::new(transport))
            .build()
            .expect("client"),
    )
}

/// The response of `n` sample objects, with what real services put between and around them: an
/// XML declaration, a header block, namespace declarations on the envelope, line breaks (CRLF),
/// indentation and comments between the items, non-ASCII text.
pub(crate) fn response(n: usize) -> (Vec<LargeObject>, String) {
    let mut objects = sample(n).item;
    for (i, o) in objects.iter_mut().enumerate() {
        if i % 3 == 0 {
            o.name = format!("Objekt Nr. {i} — Größe ✓ 𝄞");
        }
    }
    let echo = soapgen_tests::large_objects::Echo {
        item: objects.clone(),
    };
    let xml = envelope(&echo, "EchoResponse")
        .replace("><tns:item>", ">\r\n    <!-- an item -->\r\n    <tns:item>")
        .replace(
            "<soapenv:Body>",
            "<soapenv:Header><t:Trace xmlns:t=\"urn:trace\">abc</t:Trace></soapenv:Header>\n<soapenv:Body>",
        );
    (
        objects,
        format!("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n{xml}\n"),
    )
}

pub(crate) async fn collect(
    stream: &mut ItemStream<LargeObject>,
) -> (Vec<LargeObject>, Option<Error>) {
    let mut items = Vec::new();
    while let Some(item) = stream.next().await {
        match item {
            Ok(v) => items.push(v),
            Err(e) => {
                assert!(
                    stream.next().await.is_none(),
                    "the stream ends after an error"
                );
                return (items, Some(e));
            }
        }
    }
    (items, None)
}

#[tokio::test]
async fn the_items_are_those_of_a_buffered_call_whatever_the_chunks() {
    let (objects, body) = response(1500);
    assert!(body.contains("envelope") || body.contains("Envelope"));
    assert!(
        body.len() > 600 * 1024,
        "larger than two windows: {}",
        body.len()
    );
    let buffered = client(Chunked::new(body.clone(), &[body.len()]))
        .echo(vec![])
        .await
        .expect("the buffered call");
    assert_eq!(buffered, objects);
    for sizes in [
        &[body.len()][..],
        &[1],
        &[2, 3],
        &[7, 4096, 1],
        &[65_537],
        &[262_143, 5],
    ] {
        let mut stream = client(Chunked::new(body.clone(), sizes))
            .echo_stream(vec![])
            .await
            .expect("the call");
        assert!(
            stream.headers().iter().any(|h| h.local_name == "Trace"),
            "the header block is kept"
        );
        let (items, error) = collect(&mut stream).await;
        assert!(error.is_none(), "chunks {sizes:?}: {error:?}");
        assert_eq!(items.len(), objects.len(), "chunks {sizes:?}");
        assert!(items == objects, "chunks {sizes:?}: the items differ");
        assert_eq!(stream.items_read(), 1500);
    }
}

#[tokio::test]
async fn an_item_that_is_wrong_is_located_in_the_whole_body_as_a_buffered_call_locates_it() {
    let (_, body) = response(1200);
    // The quantity of item 1000, well past the first windows.
    let at = body
        .match_indices("<tns:quantity>")
        .nth(1000)
        .expect("item")
        .0;
    let end = at + body[at..].find("</tns:quantity>").expect("end");
    let body = format!("{}<tns:quantity>many{}", &body[..at], &body[end..]);
    let Err(Error::Decode(expected)) = client(Chunked::new(body.clone(), &[body.len()]))
        .echo(vec![])
        .await
    else {
        panic!("the buffered call fails");
    };
    for sizes in [&[body.len()][..], &[1000], &[3, 8191]] {
        let mut stream = client(Chunked::new(body.clone(), sizes))
            .echo_stream(vec![])
            .await
            .expect("the call");
        let (items, error) = collect(&mut stream).await;
        assert_eq!(
            items.len(),
            1000,
            "the items before the wrong one are handed out"
        );
        let Some(Error::Decode(e)) = error else {
            panic!("chunks {sizes:?}: {error:?}");
        };
        assert_eq!(e.kind, expected.kind);
        assert_eq!(e.location, expected.location, "chunks {sizes:?}");
        assert_eq!(e.location.path, "Body/EchoResponse/item/quantity");
    }
}

#[tokio::test]
async fn a_body_cut_short_ends_the_stream_with_an_error_after_the_whole_items() {
    let (_, body) = response(900);
    let cut = body.match_indices("<tns:item>").nth(700).expect("item").0 + 100;
    for end in [None, Some(TransportErrorKind::Other)] {
        let mut t = Chunked::new(body[..cut].to_owned(), &[4000]);
        t.end = end;
        let mut stream = client(t).echo_stream(vec![]).await.expect("the call");
        let (items, error) = collect(&mut stream).await;
        assert_eq!(items.len(), 700);
        match (end, error) {
            (None, Some(Error::Decode(e))) => {
                assert_eq!(e.kind, DecodeErrorKind::Truncated, "{e}");
                assert!(e.location.offset >= cut as u64 - 110, "{e}");
            }
            (Some(_), Some(Error::Transport(e))) => {
                assert_eq!(e.kind, TransportErrorKind::Other);
                let at = format!("cut off after {cut} bytes");
                assert!(e.message.contains(&at), "{e}");
            }
            (_, other) => panic!("{other:?}"),
        }
    }
}

#[tokio::test]
async fn a_fault_is_the_calls_error_with_a_2xx_or_an_error_status() {
    let fault = r#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode>s:Server</faultcode><faultstring>report failed</faultstring></s:Fault></s:Body></s:Envelope>"#;
    for status in [200, 500] {
        let mut t = Chunked::new(fault, &[5]);
        t.status = status;
        match client(t).echo_stream(vec![]).await {
            Err(Error::Fault(f)) => assert_eq!(f.reason, "report failed"),
            other => panic!("{status}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_must_understand_header_no_one_processes_fails_the_call() {
    let (_, body) = response(10);
    let body = body.replace(
        "<t:Trace xmlns:t=\"urn:trace\">",
        "<t:Trace xmlns:t=\"urn:trace\" soapenv:mustUnderstand=\"1\">",
    );
    match client(Chunked::new(body, &[3])).echo_stream(vec![]).await {
        Err(Error::Header(h)) => assert!(h.to_string().contains("Trace"), "{h}"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn bytes_that_are_not_utf8_end_the_stream_after_the_items_before_them() {
    let (_, body) = response(600);
    let at = body.match_indices("<tns:item>").nth(500).expect("item").0 + 30;
    let mut bytes = body.into_bytes();
    bytes.insert(at, 0xFF);
    let mut stream = client(Chunked::new(bytes, &[777]))
        .echo_stream(vec![])
        .await
        .expect("the call");
    let (items, error) = collect(&mut stream).await;
    assert_eq!(items.len(), 500);
    match error {
        Some(Error::Decode(e)) => {
            assert_eq!(e.kind, DecodeErrorKind::InvalidUtf8);
            assert_eq!(e.location.offset, at as u64, "{e}");
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn max_response_bytes_bounds_an_item_not_the_response() {
    let (objects, body) = response(400);
    let make = |body: String| {
        ReportsClient::from_client(
            Client::builder("http://streamed.invalid/echo")
                .transport(Arc::new(Chunked::new(body, &[1024])))
                .max_response_bytes(16 * 1024)
                .build()
                .expect("client"),
        )
    };
    // 200 KB of items under a 16 KiB limit.
    let mut stream = make(body.clone())
        .echo_stream(vec![])
        .await
        .expect("the call");
    let (items, error) = collect(&mut stream).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(items, objects);
    // One item of 40 KB.
    let at = body
        .match_indices("<tns:description>")
        .nth(300)
        .expect("item")
        .0
        + 17;
    let long = format!("{}{}{}", &body[..at], "x".repeat(40_000), &body[at..]);
    let mut stream = make(long).echo_stream(vec![]).await.expect("the call");
    let (items, error) = collect(&mut stream).await;
    assert_eq!(items.len(), 300);
    match error {
        Some(Error::Transport(e)) => {
            assert_eq!(e.kind, TransportErrorKind::TooLarge);
            assert!(e.to_string().contains("max_response_bytes"), "{e}");
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn min_occurs_is_checked_at_the_end_and_an_empty_wrapper_has_no_items() {
    let (_, body) = response(2);
    let mut stream = client(Chunked::new(body, &[64]))
        .echo_three(vec![])
        .await
        .expect("the call");
    let (items, error) = collect(&mut stream).await;
    assert_eq!(items.len(), 2);
    match error {
        Some(Error::Decode(e)) => assert!(
            matches!(
                e.kind,
                DecodeErrorKind::TooFewElements {
                    min: 3,
                    found: 2,
                    ..
                }
            ),
            "{e}"
        ),
        other => panic!("{other:?}"),
    }
    let empty = r#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><EchoResponse xmlns="urn:soapgen:bench"/></s:Body></s:Envelope>"#;
    let mut stream = client(Chunked::new(empty, &[3]))
        .echo_stream(vec![])
        .await
        .expect("the call");
    assert!(collect(&mut stream).await.0.is_empty());
}

#[tokio::test]
async fn what_follows_the_items_must_close_the_envelope() {
    let (_, body) = response(5);
    for (tail, what) in [
        ("<tns:other/>", "an element after the items"),
        ("</soapenv:Envelope><more/>", "content after the envelope"),
    ] {
        let bad = body.replacen(
            "</tns:EchoResponse>",
            &format!("{tail}</tns:EchoResponse>"),
            1,
        );
        let bad = if what.starts_with("content") {
            body.replace("</soapenv:Envelope>", tail)
        } else {
            bad
        };
        let mut stream = client(Chunked::new(bad, &[10]))
            .echo_stream(vec![])
            .await
            .expect("the call");
        let (items, error) = collect(&mut stream).await;
        assert_eq!(items.len(), 5, "{what}");
        assert!(matches!(error, Some(Error::Decode(_))), "{what}: {error:?}");
    }
}

/// A service that has only a streamed method for its operation.
#[soap_client(namespace = "urn:soapgen:bench", soap = "1.1", blocking, fake)]
trait Feed {
    #[soap(
        name = "Echo",
        action = "urn:soapgen:bench/Echo",
        response = "EchoResponse",
        result = "item",
        result_namespace = "urn:soapgen:bench"
    )]
    async fn echo_stream(
        &self,
        #[soap(rename = "item", occurs = "many")] item: Vec<LargeObject>,
    ) -> Result<ItemStream<LargeObject>, Error>;
}

#[tokio::test]
async fn a_fake_service_answers_streamed_calls_and_a_blocking_client_iterates_them() {
    // The plain method answers the operation; the streamed one reads the answer item by item.
    struct Plain;
    impl Reports for Plain {
        async fn echo(&self, item: Vec<LargeObject>) -> Result<Vec<LargeObject>, Error> {
            Ok(item)
        }
    }
    // Only a streamed method: the items it gives are the answer.
    struct Streamed;
    impl Feed for Streamed {
        async fn echo_stream(
            &self,
            item: Vec<LargeObject>,
        ) -> Result<ItemStream<LargeObject>, Error> {
            Ok(ItemStream::from_items(item))
        }
    }
    let objects = sample(50).item;
    let mut stream = ReportsClient::fake(Plain)
        .echo_stream(objects.clone())
        .await
        .expect("the call");
    assert_eq!(collect(&mut stream).await.0, objects);
    let mut stream = FeedClient::fake(Streamed)
        .echo_stream(objects.clone())
        .await
        .expect("the call");
    assert_eq!(collect(&mut stream).await.0, objects);
    // A blocking client waits on a thread of its own (not where a tokio runtime is current).
    let sent = objects.clone();
    let items = std::thread::spawn(move || {
        FeedBlockingClient::fake(Streamed)
            .expect("blocking fake")
            .echo_stream(sent)
            .expect("the call")
            .collect::<Result<Vec<_>, _>>()
            .expect("the items")
    })
    .join()
    .expect("the thread");
    assert_eq!(items, objects);
}

/// A loopback HTTP/1.1 server answering every request with `head` then the body `parts`
/// written one after the other, each after `pause`.
async fn server(head: String, parts: Vec<Bytes>, pause: Duration) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let (head, parts) = (head.clone(), parts.clone());
            tokio::spawn(async move {
                // The request: its header fields and a body of Content-Length bytes.
                if soapgen_tests::faulty::read_request(&mut socket)
                    .await
                    .is_none()
                {
                    return;
                }
                if socket.write_all(head.as_bytes()).await.is_err() {
                    return;
                }
                for p in parts {
                    tokio::time::sleep(pause).await;
                    if socket.write_all(&p).await.is_err() {
                        return;
                    }
                }
                // The connection stays open until the client closes it.
                let _ = socket.read(&mut [0u8; 1024]).await;
            });
        }
    });
    format!("http://{address}/report")
}

/// `body` in HTTP/1.1 chunked transfer coding (RFC 9112 §7.1), one chunk per `size` bytes.
fn chunked(body: &[u8], size: usize) -> Vec<Bytes> {
    let mut out: Vec<Bytes> = body
        .chunks(size)
        .map(|c| {
            let mut v = format!("{:x}\r\n", c.len()).into_bytes();
            v.extend_from_slice(c);
            v.extend_from_slice(b"\r\n");
            Bytes::from(v)
        })
        .collect();
    out.push(Bytes::from_static(b"0\r\n\r\n"));
    out
}

const CHUNKED_HEAD: &str =
    "HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n";

#[tokio::test]
async fn over_sockets_both_transports_stream_a_response_larger_than_the_clients_limit() {
    let (objects, body) = response(4000);
    let url = server(
        CHUNKED_HEAD.to_owned(),
        chunked(body.as_bytes(), 16 * 1024 + 3),
        Duration::ZERO,
    )
    .await;
    let reqwest = Client::builder(&url)
        .max_response_bytes(256 * 1024)
        .build()
        .expect("client");
    let hyper = Client::builder(&url)
        .transport(Arc::new(soapgen_runtime::transport::HyperTransport::new()))
        .max_response_bytes(256 * 1024)
        .build()
        .expect("client");
    for c in [reqwest, hyper] {
        let client = ReportsClient::from_client(c);
        // The buffered call is refused: the body is over the limit.
        match client.echo(vec![]).await {
            Err(Error::Transport(e)) => assert_eq!(e.kind, TransportErrorKind::TooLarge),
            other => panic!("{other:?}"),
        }
        let mut stream = client.echo_stream(vec![]).await.expect("the call");
        let (items, error) = collect(&mut stream).await;
        assert!(error.is_none(), "{error:?}");
        assert!(items == objects);
    }
}

#[tokio::test]
async fn a_body_that_stops_coming_times_out_between_chunks_on_every_transport() {
    let (_, body) = response(300);
    let mut parts = chunked(body.as_bytes(), 8 * 1024);
    // The last chunks never come: the server waits, the connection open.
    parts.truncate(parts.len() / 2);
    let url = server(CHUNKED_HEAD.to_owned(), parts, Duration::ZERO).await;
    let transports: Vec<Option<Arc<dyn Transport>>> = vec![
        None,
        Some(Arc::new(soapgen_runtime::transport::HyperTransport::new())),
    ];
    for t in transports {
        let mut b = Client::builder(&url).timeout(Duration::from_secs(1));
        if let Some(t) = t {
            b = b.transport(t);
        }
        let client = ReportsClient::from_client(b.build().expect("client"));
        let started = Instant::now();
        let mut stream = client.echo_stream(vec![]).await.expect("the call");
        let (items, error) = collect(&mut stream).await;
        assert!(!items.is_empty() && items.len() < 300);
        match error {
            Some(Error::Transport(e)) => assert_eq!(e.kind, TransportErrorKind::Timeout, "{e}"),
            other => panic!("{other:?}"),
        }
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}

/// A document with its content sent as an MTOM attachment (XOP 1.0 §3).
#[derive(Debug, Clone, PartialEq, soapgen_runtime::ToXml, soapgen_runtime::FromXml)]
#[xml(namespace = "urn:files")]
struct Document {
    name: String,
    content: soapgen_runtime::types::Base64Binary,
}

#[soap_client(namespace = "urn:files", soap = "1.1")]
trait Files {
    #[soap(
        name = "Fetch",
        action = "urn:files/Fetch",
        response = "FetchResponse",
        result = "document"
    )]
    async fn fetch(&self, name: String) -> Result<Document, Error>;
}

const MTOM_TYPE: &str = "multipart/related; boundary=\"MIME_b\"; type=\"application/xop+xml\"; start=\"<root@x>\"; start-info=\"text/xml\"";

/// An MTOM response whose document's content is `data`, in a binary part.
fn mtom_response(data: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    body.extend_from_slice(
        b"--MIME_b\r\nContent-Type: application/xop+xml; charset=UTF-8; type=\"text/xml\"\r\n\
          Content-ID: <root@x>\r\n\r\n\
          <s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>\
          <f:FetchResponse xmlns:f=\"urn:files\"><f:document><f:name>report.pdf</f:name>\
          <f:content><xop:Include xmlns:xop=\"http://www.w3.org/2004/08/xop/include\" \
          href=\"cid:data@x\"/></f:content></f:document></f:FetchResponse></s:Body></s:Envelope>\
          \r\n--MIME_b\r\nContent-Type: application/pdf\r\nContent-Transfer-Encoding: binary\r\n\
          Content-ID: <data@x>\r\n\r\n",
    );
    body.extend_from_slice(data);
    body.extend_from_slice(b"\r\n--MIME_b--\r\n");
    body
}

/// Bytes of every value, with what looks like a delimiter but is not one (`--MIME_b` not at a
/// line start, or followed by other characters).
fn binary(len: usize) -> Vec<u8> {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut out: Vec<u8> = (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    for (i, fake) in [
        &b"--MIME_b"[..],
        b"\r\n--MIME_bX",
        b"\n--MIME_b-",
        b"\r\n\r\n--MIME_",
    ]
    .iter()
    .enumerate()
    {
        let at = len / 5 * (i + 1);
        out[at..at + fake.len()].copy_from_slice(fake);
    }
    out
}

fn store_client(
    body: Vec<u8>,
    sizes: &[usize],
    dir: &std::path::Path,
    threshold: usize,
) -> FilesClient {
    let mut t = Chunked::new(body, sizes);
    t.content_type = MTOM_TYPE.to_owned();
    FilesClient::from_client(
        Client::builder("http://files.invalid/fetch")
            .transport(Arc::new(t))
            .max_response_bytes(64 * 1024)
            .attachment_store(soapgen_runtime::mime::AttachmentStore::dir(dir).threshold(threshold))
            .build()
            .expect("client"),
    )
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("soapgen-store-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

#[tokio::test]
async fn an_attachment_store_writes_large_parts_to_files_whatever_the_chunks() {
    let data = binary(3 * 1024 * 1024 + 17);
    let body = mtom_response(&data);
    let dir = scratch("chunks");
    for sizes in [&[body.len()][..], &[1 << 16], &[7, 4093, 65_537], &[1]] {
        let doc = store_client(body.clone(), sizes, &dir, 1 << 20)
            .fetch("report.pdf".into())
            .await
            .unwrap_or_else(|e| panic!("chunks {sizes:?}: {e}"));
        assert_eq!(doc.name, "report.pdf");
        assert!(
            doc.content[..] == data[..],
            "chunks {sizes:?}: the bytes differ: {} against {}, first difference at {:?}",
            doc.content.len(),
            data.len(),
            doc.content.iter().zip(&data).position(|(a, b)| a != b)
        );
        let file = soapgen_runtime::mime::file_of(&doc.content).expect("mapped from a file");
        assert_eq!(file.parent(), Some(dir.as_path()));
        assert_eq!(std::fs::read(&file).expect("the file"), data);
        assert!(soapgen_runtime::mime::file_of(doc.name.as_bytes()).is_none());
        drop(doc);
        std::fs::remove_file(&file).expect("the application removes it");
    }
    // Under the threshold the part stays in memory, as without a store.
    let small = binary(10_000);
    let doc = store_client(mtom_response(&small), &[999], &dir, 1 << 20)
        .fetch("small".into())
        .await
        .expect("the call");
    assert!(doc.content[..] == small[..]);
    assert!(soapgen_runtime::mime::file_of(&doc.content).is_none());
    assert_eq!(
        std::fs::read_dir(&dir).expect("dir").count(),
        0,
        "no file left"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_store_bounds_each_file_and_a_part_cut_short_leaves_no_file() {
    let dir = scratch("limits");
    let data = binary(2 * 1024 * 1024);
    let mut body = mtom_response(&data);
    // Cut inside the attachment: the message has no close delimiter.
    body.truncate(body.len() - 1000);
    match store_client(body, &[8192], &dir, 4096)
        .fetch("x".into())
        .await
    {
        Err(Error::Mime(e)) => assert!(e.to_string().contains("truncated"), "{e}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        std::fs::read_dir(&dir).expect("dir").count(),
        0,
        "the cut part's file is removed"
    );
    let mut t = Chunked::new(mtom_response(&data), &[8192]);
    t.content_type = MTOM_TYPE.to_owned();
    let client = FilesClient::from_client(
        Client::builder("http://files.invalid/fetch")
            .transport(Arc::new(t))
            .attachment_store(
                soapgen_runtime::mime::AttachmentStore::dir(&dir)
                    .threshold(4096)
                    .max_bytes(1 << 20),
            )
            .build()
            .expect("client"),
    );
    match client.fetch("x".into()).await {
        Err(Error::Transport(e)) => {
            assert_eq!(e.kind, TransportErrorKind::TooLarge);
            assert!(e.to_string().contains("AttachmentStore::max_bytes"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        std::fs::read_dir(&dir).expect("dir").count(),
        0,
        "the refused part's file is removed"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
