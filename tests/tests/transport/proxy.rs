//! Calls through an HTTP proxy (`ClientBuilder::proxy`): a loopback proxy of the test's own that
//! records each request line and `Proxy-Authorization`, answers plain-HTTP calls itself (as the
//! origin would through it), refuses unauthenticated ones with `407`, and refuses tunnels.

use std::sync::{Arc, Mutex};

use base64::Engine;
use soapgen_runtime::transport::{HttpAuth, Proxy};
use soapgen_runtime::{soap_client, Client, Error};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

#[soap_client(namespace = "urn:soapgen:faults", soap = "1.1")]
pub trait Proxied {
    #[soap(action = "urn:soapgen:faults#echo", result = "text")]
    async fn echo(&self, text: String) -> Result<String, Error>;
}

const ECHO: &str = r#"<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><f:echoResponse xmlns:f="urn:soapgen:faults"><f:text>via the proxy</f:text></f:echoResponse></soap:Body></soap:Envelope>"#;

/// What the proxy saw of each request: its request line, and its `Proxy-Authorization`.
type Seen = Arc<Mutex<Vec<(String, Option<String>)>>>;

/// A proxy on 127.0.0.1 that wants `credentials` (user, password); its URL and what it saw.
async fn proxy(credentials: (&'static str, &'static str)) -> (String, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("address"));
    let seen: Seen = Arc::default();
    let recorded = seen.clone();
    let wanted = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD
            .encode(format!("{}:{}", credentials.0, credentials.1))
    );
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let recorded = recorded.clone();
            let wanted = wanted.clone();
            tokio::spawn(async move {
                let mut read = Vec::new();
                let mut buf = [0u8; 4096];
                // The head, then the body its Content-Length announces.
                let head_end = loop {
                    let Ok(n) = socket.read(&mut buf).await else {
                        return;
                    };
                    if n == 0 {
                        return;
                    }
                    read.extend_from_slice(&buf[..n]);
                    if let Some(end) = String::from_utf8_lossy(&read).find("\r\n\r\n") {
                        break end;
                    }
                };
                let head = String::from_utf8_lossy(&read[..head_end]).into_owned();
                let field = |name: &str| {
                    head.lines().find_map(|l| {
                        let (k, v) = l.split_once(':')?;
                        k.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
                    })
                };
                let length: usize = field("content-length")
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(0);
                while read.len() < head_end + 4 + length {
                    match socket.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => read.extend_from_slice(&buf[..n]),
                    }
                }
                let line = head.lines().next().unwrap_or_default().to_owned();
                let auth = field("proxy-authorization");
                recorded
                    .lock()
                    .expect("seen")
                    .push((line.clone(), auth.clone()));
                let answer = if line.starts_with("CONNECT ") {
                    "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n".to_owned()
                } else if auth.as_deref() != Some(wanted.as_str()) {
                    "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"p\"\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nwho?\r\n".to_owned()
                } else {
                    format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: {}\r\n\r\n{ECHO}",
                        ECHO.len()
                    )
                };
                let _ = socket.write_all(answer.as_bytes()).await;
            });
        }
    });
    (url, seen)
}

#[tokio::test]
async fn a_call_through_an_authenticating_proxy() {
    let (proxy_url, seen) = proxy(("pat", "s3cret")).await;
    // The origin does not exist: only the proxy can answer.
    let origin = "http://origin.invalid:8080/service";
    let client = Client::builder(origin)
        .proxy(Proxy::new(&proxy_url).basic_auth("pat", "s3cret"))
        .build()
        .expect("client");
    let answer = ProxiedClient::from_client(client).echo("x".into()).await;
    assert_eq!(answer.expect("through the proxy"), "via the proxy");
    let (line, auth) = seen.lock().expect("seen")[0].clone();
    assert_eq!(line, format!("POST {origin} HTTP/1.1"), "absolute-form");
    assert!(auth.is_some_and(|a| a.starts_with("Basic ")));
    // Without credentials the proxy's 407 is the answer, as an HTTP error.
    let client = Client::builder(origin)
        .proxy(Proxy::new(&proxy_url))
        .build()
        .expect("client");
    let e = ProxiedClient::from_client(client)
        .echo("x".into())
        .await
        .unwrap_err();
    assert_eq!(e.status(), Some(407), "{e}");
    let message = e.to_string();
    assert!(
        message.contains("the proxy asks for authentication and offers Basic"),
        "{message}"
    );
    assert!(message.contains("Proxy::auth"), "{message}");
}

#[tokio::test]
async fn an_https_endpoint_goes_through_a_connect_tunnel() {
    let (proxy_url, seen) = proxy(("pat", "s3cret")).await;
    let client = Client::builder("https://origin.invalid:8443/service")
        .proxy(Proxy::new(&proxy_url).basic_auth("pat", "s3cret"))
        .build()
        .expect("client");
    // The proxy refuses the tunnel: a connection failure, after one CONNECT with credentials.
    assert!(ProxiedClient::from_client(client)
        .echo("x".into())
        .await
        .is_err());
    let seen = seen.lock().expect("seen").clone();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].0, "CONNECT origin.invalid:8443 HTTP/1.1");
    assert!(seen[0]
        .1
        .as_deref()
        .is_some_and(|a| a.starts_with("Basic ")));
}

#[test]
fn a_bad_proxy_url_and_a_proxy_with_a_custom_transport_fail_at_build() {
    let e = Client::builder("http://origin.invalid/")
        .proxy(Proxy::new("not a url"))
        .build()
        .unwrap_err();
    assert!(e.to_string().contains("invalid proxy URL"), "{e}");
    // Another scheme would be passed by, the call going direct: refused.
    let e = Client::builder("http://origin.invalid/")
        .proxy(Proxy::new("ftp://127.0.0.1:21"))
        .build()
        .unwrap_err();
    assert!(e.to_string().contains("an HTTP proxy"), "{e}");
    // A handshake scheme's tunnels are opened over http:// to the proxy.
    let e = Client::builder("http://origin.invalid/")
        .proxy(Proxy::new("https://127.0.0.1:3128").auth(HttpAuth::digest("pat", "pw")))
        .build()
        .unwrap_err();
    assert!(e.to_string().contains("is reached over http://"), "{e}");
    // Credentials in the URL beside a handshake scheme would also go out as Basic: refused,
    // without repeating them.
    let e = Client::builder("http://origin.invalid/")
        .proxy(Proxy::new("http://pat:s3cret@127.0.0.1:3128").auth(HttpAuth::digest("pat", "pw")))
        .build()
        .unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("user information in the URL") && !text.contains("s3cret"),
        "{text}"
    );
    let custom = soapgen_runtime::transport::ReqwestTransport::new().expect("transport");
    let e = Client::builder("http://origin.invalid/")
        .transport(Arc::new(custom))
        .proxy(Proxy::new("http://127.0.0.1:3128"))
        .build()
        .unwrap_err();
    assert!(e.to_string().contains("proxy"), "{e}");
}

#[tokio::test]
async fn a_proxy_that_is_down_is_named_in_the_error() {
    // Nothing listens on the discard port.
    let client = Client::builder("http://origin.invalid:8080/service")
        .proxy(Proxy::new("http://127.0.0.1:9"))
        .build()
        .expect("client");
    let e = ProxiedClient::from_client(client)
        .echo("x".into())
        .await
        .unwrap_err();
    let Error::Transport(t) = &e else {
        panic!("{e:?}")
    };
    assert!(t.was_not_sent(), "{e:?}");
    assert!(
        e.to_string()
            .contains("through the proxy at http://127.0.0.1:9"),
        "{e}"
    );
}
