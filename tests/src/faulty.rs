//! A loopback HTTP server that misbehaves as it is told (tokio, on 127.0.0.1): it stalls,
//! resets, truncates, drips, redirects or refuses, and counts the requests it receives, for the
//! fault tests (`tests/transport`) and the benchmark's fault figures (`bench/harness`). The
//! client of its one operation, `FaultyClient::echo`, is a `#[soap_client]` trait.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use soapgen_runtime::{soap_client, Error};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

#[soap_client(namespace = "urn:soapgen:faults", soap = "1.1")]
pub trait Faulty {
    #[soap(action = "urn:soapgen:faults#echo", result = "text")]
    async fn echo(&self, text: String) -> Result<String, Error>;
}

/// What the server does once it has read a request.
#[derive(Debug, Clone, Copy)]
pub enum Misbehaviour {
    /// Answers the echo: a server that works.
    Answer,
    /// Never answers.
    Stall,
    /// Answers the status line and headers, promises a body, sends part of it, then stalls.
    StallMidBody,
    /// Answers part of a promised body and closes the connection.
    Truncate,
    /// Closes the connection without a byte.
    Close,
    /// `503 Service Unavailable` with `Retry-After: 120`.
    Unavailable,
    /// `503` with `Retry-After: 1` to the first request, the echo to the others.
    UnavailableOnce,
    /// Answers a 400-byte body one byte every 50 ms: never idle, never done in time.
    Drip,
    /// A chunked body cut off inside its first chunk, the connection closed.
    TruncatedChunked,
    /// A 100,000-byte body.
    Huge,
    /// Answers the echo on a kept-alive connection, then closes it 50 ms later: the next call
    /// finds its pooled connection gone.
    AnswerThenClose,
    /// Redirects the first request with this status to the same server (`Location: …/moved`),
    /// answers the echo to the others.
    RedirectOnce(u16),
    /// Resets the connection (`SO_LINGER` 0) as soon as it is accepted, before any request byte.
    ResetOnAccept,
    /// Reads the first 64 bytes of the request, then resets the connection.
    ResetDuringRequest,
    /// Reads the request, sends the header fields and part of the body, then resets.
    ResetDuringResponse,
    /// Answers a TLS ClientHello with a plain HTTP `400`, as an HTTP server on a port a client
    /// took for `https://` would.
    NotTls,
}

impl Misbehaviour {
    /// Whether it acts on the connection before a whole request is read: the server then counts
    /// the connections it accepts as the requests it received.
    fn before_request(self) -> bool {
        matches!(
            self,
            Misbehaviour::ResetOnAccept | Misbehaviour::ResetDuringRequest | Misbehaviour::NotTls
        )
    }
}

/// What `how` does to a connection before reading a whole request (see
/// [`Misbehaviour::before_request`]).
async fn before_request(how: Misbehaviour, mut socket: tokio::net::TcpStream) {
    let mut buf = [0u8; 512];
    match how {
        Misbehaviour::ResetOnAccept => {
            let _ = socket.set_zero_linger();
        }
        Misbehaviour::ResetDuringRequest => {
            let _ = socket.read(&mut buf[..64]).await;
            let _ = socket.set_zero_linger();
        }
        Misbehaviour::NotTls => {
            let _ = socket.read(&mut buf).await;
            let _ = socket
                .write_all(
                    b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                )
                .await;
        }
        _ => {}
    }
}

/// The echo the server answers to `request`: related to its WS-Addressing MessageID, if it has
/// one.
pub fn echo_for(request: &str) -> String {
    let header = request
        .find("MessageID>")
        .map(|at| {
            let id = &request[at + "MessageID>".len()..];
            let id = &id[..id.find('<').unwrap_or(id.len())];
            format!(
                r#"<soap:Header><wsa:RelatesTo xmlns:wsa="http://www.w3.org/2005/08/addressing">{id}</wsa:RelatesTo></soap:Header>"#
            )
        })
        .unwrap_or_default();
    format!(
        r#"<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">{header}<soap:Body><f:echoResponse xmlns:f="urn:soapgen:faults"><f:text>back</f:text></f:echoResponse></soap:Body></soap:Envelope>"#
    )
}

/// A server on 127.0.0.1 that behaves as `how`; its URL, and how many requests it has received
/// (read whole; for the variants that act before, the connections it accepted).
pub async fn server(how: Misbehaviour) -> (String, Arc<AtomicUsize>) {
    let (url, requests, _) = recording_server(how).await;
    (url, requests)
}

/// Each request's text, as the server read it.
pub type Bodies = Arc<std::sync::Mutex<Vec<String>>>;

/// [`server`], also keeping each request it read.
pub async fn recording_server(how: Misbehaviour) -> (String, Arc<AtomicUsize>, Bodies) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}/faults", listener.local_addr().expect("address"));
    let requests = Arc::new(AtomicUsize::new(0));
    let bodies: Bodies = Arc::default();
    let kept = bodies.clone();
    let counted = requests.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let counted = counted.clone();
            let kept = kept.clone();
            if how.before_request() {
                counted.fetch_add(1, Ordering::SeqCst);
                tokio::spawn(before_request(how, socket));
                continue;
            }
            tokio::spawn(async move {
                let Some(read) = read_request(&mut socket).await else {
                    return;
                };
                let n = counted.fetch_add(1, Ordering::SeqCst);
                kept.lock()
                    .expect("bodies")
                    .push(String::from_utf8_lossy(&read).into_owned());
                let stall = || tokio::time::sleep(Duration::from_secs(3600));
                match how {
                    Misbehaviour::Stall => stall().await,
                    Misbehaviour::StallMidBody => {
                        let _ = socket
                            .write_all(
                                b"HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: 500\r\n\r\n<soap:Env",
                            )
                            .await;
                        stall().await;
                    }
                    Misbehaviour::Truncate => {
                        let _ = socket
                            .write_all(
                                b"HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: 500\r\n\r\n<soap:Env",
                            )
                            .await;
                    }
                    Misbehaviour::Close => {}
                    Misbehaviour::Unavailable => {
                        let _ = socket
                            .write_all(
                                b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 120\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nunavailable",
                            )
                            .await;
                    }
                    Misbehaviour::UnavailableOnce if n == 0 => {
                        let _ = socket
                            .write_all(
                                b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: text/plain\r\nContent-Length: 11\r\nConnection: close\r\n\r\nunavailable",
                            )
                            .await;
                    }
                    Misbehaviour::Drip => {
                        let _ = socket
                            .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: 400\r\n\r\n")
                            .await;
                        for _ in 0..400 {
                            if socket.write_all(b" ").await.is_err() {
                                return;
                            }
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                    }
                    Misbehaviour::TruncatedChunked => {
                        let _ = socket
                            .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nTransfer-Encoding: chunked\r\n\r\n100\r\n<soap:Env")
                            .await;
                    }
                    Misbehaviour::Huge => {
                        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: 100000\r\n\r\n";
                        let _ = socket.write_all(head.as_bytes()).await;
                        let _ = socket.write_all(&vec![b' '; 100_000]).await;
                    }
                    Misbehaviour::AnswerThenClose => {
                        answer_echo(&mut socket, &read).await;
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    Misbehaviour::ResetDuringResponse => {
                        let _ = socket
                            .write_all(
                                b"HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: 400\r\n\r\n\
                                  <s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>",
                            )
                            .await;
                        let _ = socket.flush().await;
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        let _ = socket.set_zero_linger();
                    }
                    Misbehaviour::RedirectOnce(status) if n == 0 => {
                        let head = format!(
                            "HTTP/1.1 {status} Moved\r\nLocation: http://{}/moved\r\nContent-Length: 0\r\n\r\n",
                            socket.local_addr().expect("address")
                        );
                        let _ = socket.write_all(head.as_bytes()).await;
                    }
                    Misbehaviour::RedirectOnce(_)
                    | Misbehaviour::UnavailableOnce
                    | Misbehaviour::Answer
                    | Misbehaviour::ResetOnAccept
                    | Misbehaviour::ResetDuringRequest
                    | Misbehaviour::NotTls => {
                        answer_echo(&mut socket, &read).await;
                    }
                }
            });
        }
    });
    (url, requests, bodies)
}

/// Reads one whole request from `socket`: its header fields, then the body its `Content-Length`
/// announces. `None` if the connection ends or fails first.
pub async fn read_request(socket: &mut tokio::net::TcpStream) -> Option<Vec<u8>> {
    let mut read = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = socket.read(&mut buf).await.ok().filter(|&n| n > 0)?;
        read.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&read);
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end]
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                })
                .unwrap_or(0);
            if read.len() >= end + 4 + length {
                return Some(read);
            }
        }
    }
}

/// Answers `request` with the echo ([`echo_for`]), `200 OK` with its length.
async fn answer_echo(socket: &mut tokio::net::TcpStream, request: &[u8]) {
    let body = echo_for(&String::from_utf8_lossy(request));
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let _ = socket.write_all(head.as_bytes()).await;
    let _ = socket.write_all(body.as_bytes()).await;
}
