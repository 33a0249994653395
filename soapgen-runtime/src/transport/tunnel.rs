//! The `CONNECT` tunnels of a proxy whose authentication is a handshake (NTLM, Negotiate, Digest:
//! [`Proxy::auth`](super::Proxy::auth)), for `https://` endpoints of the reqwest transport.
//!
//! reqwest opens a tunnel (RFC 9110 §9.3.6) with one `CONNECT` and a fixed
//! `Proxy-Authorization`, which suffices for Basic. A connection-bound scheme needs a `407`, an
//! answer, another `407` and a last answer on the same connection (RFC 4559 §4 and §6) before
//! the proxy's `200`. So the transport points reqwest at a forwarder of its own on loopback: for
//! each tunnel reqwest asks it for, the forwarder connects to the real proxy, runs the handshake
//! there with the transport's [`Authenticator`] and, once the proxy answers `200`, says `200` to
//! reqwest and copies bytes both ways. TLS runs end to end inside the tunnel, reqwest's as for any
//! proxy: the forwarder sees only ciphertext. (Local NTLM proxies such as cntlm work this way.)
//!
//! The forwarder listens on `127.0.0.1` only, and answers only requests that carry its own random
//! 256-bit secret as Basic credentials (which the transport gives reqwest): another local user
//! cannot borrow the tunnel's identity. It runs on a thread of its own with a single-threaded
//! tokio runtime, so the transport works under any runtime or none, and ends when the transport
//! is dropped (tunnels open then end with their connections).

use std::future::Future as _;
use std::io;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use super::auth::{AuthError, Authenticator, HttpAuth};

/// The largest response or request head the forwarder reads (fields included).
const MAX_HEAD: usize = 64 * 1024;
/// The largest `407` body it reads past (error pages).
const MAX_DISCARD: u64 = 1024 * 1024;
/// How long one tunnel's set-up may take, the proxy's answers included, when the transport sets
/// no connect timeout.
const DEFAULT_SETUP_LIMIT: Duration = Duration::from_secs(60);

/// Why the last tunnel failed, for the transport's error.
#[derive(Debug, Clone)]
pub(crate) struct TunnelFailure {
    /// The authentication failed (the proxy refused the credentials, or its challenge could not
    /// be answered), rather than the connection or the proxy.
    pub(crate) auth: bool,
    pub(crate) message: String,
}

/// A running forwarder (see the [module docs](self)); dropping it stops it.
pub(crate) struct Tunnel {
    /// `http://127.0.0.1:<port>`, the proxy URL reqwest is given.
    pub(crate) url: String,
    /// The Basic user and password reqwest must send.
    pub(crate) user: &'static str,
    pub(crate) secret: String,
    failure: Arc<Mutex<Option<TunnelFailure>>>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl std::fmt::Debug for Tunnel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tunnel").field("url", &self.url).finish()
    }
}

/// What each tunnel's set-up needs.
struct Upstream {
    /// The real proxy: `http://host:port` and `host:port`.
    proxy_url: String,
    proxy_addr: String,
    authenticator: Authenticator,
    /// `Basic base64(user:secret)`, what reqwest must send.
    expected: String,
    connect_timeout: Option<Duration>,
    setup_limit: Duration,
    user_agent: String,
    failure: Arc<Mutex<Option<TunnelFailure>>>,
}

impl Tunnel {
    /// Starts a forwarder to the proxy at `proxy_url` (`http://host[:port]`, port 80 by default)
    /// that authenticates with `auth`.
    ///
    /// # Errors
    ///
    /// The loopback listener, the random secret, the thread or its runtime could not be made;
    /// `proxy_url` is not `http://host[:port]`.
    pub(crate) fn start(
        proxy_url: &str,
        auth: HttpAuth,
        connect_timeout: Option<Duration>,
        user_agent: &str,
    ) -> Result<Tunnel, String> {
        let proxy_addr = authority_of(proxy_url)?;
        let mut raw = [0u8; 32];
        getrandom::getrandom(&mut raw).map_err(|e| format!("no random secret: {e}"))?;
        let secret: String = raw.iter().map(|b| format!("{b:02x}")).collect();
        let user = "soapgen";
        let expected = format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode(format!("{user}:{secret}"))
        );
        let listener = std::net::TcpListener::bind("127.0.0.1:0")
            .map_err(|e| format!("cannot listen on 127.0.0.1: {e}"))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| format!("cannot listen on 127.0.0.1: {e}"))?;
        let url = format!(
            "http://{}",
            listener
                .local_addr()
                .map_err(|e| format!("cannot listen on 127.0.0.1: {e}"))?
        );
        let failure = Arc::new(Mutex::new(None));
        let upstream = Arc::new(Upstream {
            proxy_url: proxy_url.to_owned(),
            proxy_addr,
            authenticator: Authenticator::for_proxy(auth),
            expected,
            connect_timeout,
            setup_limit: connect_timeout.map_or(DEFAULT_SETUP_LIMIT, |t| t * 4),
            user_agent: user_agent.to_owned(),
            failure: failure.clone(),
        });
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the tunnel's runtime: {e}"))?;
        std::thread::Builder::new()
            .name("soapgen-proxy-tunnel".to_owned())
            .spawn(move || runtime.block_on(serve(listener, upstream, stopped)))
            .map_err(|e| format!("cannot start the tunnel's thread: {e}"))?;
        Ok(Tunnel {
            url,
            user,
            secret,
            failure,
            _stop: stop,
        })
    }

    /// Why the last tunnel failed, if one did since the last call (taken).
    pub(crate) fn take_failure(&self) -> Option<TunnelFailure> {
        self.failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
    }
}

/// `host:port` of `http://host[:port][/]`.
fn authority_of(proxy_url: &str) -> Result<String, String> {
    let lower = proxy_url.to_ascii_lowercase();
    let Some(rest) = lower.strip_prefix("http://") else {
        return Err(format!(
            "proxy URL {proxy_url:?}: a proxy with a handshake scheme (NTLM, Negotiate, Digest) \
             is reached over http://"
        ));
    };
    let host_port = authority(rest).rsplit('@').next().unwrap_or_default();
    if host_port.is_empty() {
        return Err(format!("proxy URL {proxy_url:?} names no host"));
    }
    // A port follows the last ':' unless that ':' is inside an IPv6 literal.
    let has_port = host_port
        .rsplit_once(':')
        .is_some_and(|(h, p)| !p.contains(']') && (!h.contains('[') || h.ends_with(']')));
    Ok(if has_port {
        host_port.to_owned()
    } else {
        format!("{host_port}:80")
    })
}

/// The authority (`user:pw@host:port`) of a URL (RFC 3986 §3.2): what follows `scheme://`, up
/// to the path, query or fragment.
pub(super) fn authority(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    rest.split(['/', '?', '#']).next().unwrap_or_default()
}

/// `url` without the user information of its authority (RFC 3986 §3.2.1), for messages.
pub(super) fn without_userinfo(url: &str) -> String {
    match authority(url).rsplit_once('@') {
        Some((userinfo, _)) => url.replacen(&format!("{userinfo}@"), "", 1),
        None => url.to_owned(),
    }
}

/// Accepts reqwest's connections until `stopped` fires (the transport was dropped).
async fn serve(
    listener: std::net::TcpListener,
    upstream: Arc<Upstream>,
    mut stopped: tokio::sync::oneshot::Receiver<()>,
) {
    let Ok(listener) = TcpListener::from_std(listener) else {
        return;
    };
    loop {
        let accepted = std::future::poll_fn(|cx| {
            if std::pin::Pin::new(&mut stopped).poll(cx).is_ready() {
                return std::task::Poll::Ready(None);
            }
            listener.poll_accept(cx).map(Some)
        })
        .await;
        match accepted {
            None => return,
            Some(Ok((socket, _))) => {
                let upstream = upstream.clone();
                tokio::spawn(async move {
                    let limit = upstream.setup_limit;
                    let setup = tokio::time::timeout(limit, open(socket, &upstream)).await;
                    let (mut client, mut proxy, early) = match setup {
                        Ok(Some(open)) => open,
                        Ok(None) => return,
                        Err(_) => {
                            upstream.fail(
                                false,
                                format!("the proxy did not open the tunnel within {limit:?}"),
                            );
                            return;
                        }
                    };
                    if !early.is_empty() && proxy.write_all(&early).await.is_err() {
                        return;
                    }
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut proxy).await;
                });
            }
            // Out of descriptors and the like: wait a moment rather than spin.
            Some(Err(_)) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

/// Reads reqwest's `CONNECT`, opens the tunnel through the proxy with the handshake, and says
/// `200` to reqwest: the two connections and the bytes reqwest sent after its head, or `None`
/// when the tunnel was not opened (reqwest got an error status and the reason is recorded).
async fn open(mut client: TcpStream, up: &Upstream) -> Option<(TcpStream, TcpStream, Vec<u8>)> {
    let (head, early) = read_head(&mut client).await.ok()?;
    let request = Head::parse(&head)?;
    let authorized = request
        .field("proxy-authorization")
        .is_some_and(|v| constant_time_eq(v.as_bytes(), up.expected.as_bytes()));
    if !authorized {
        // Not the transport's reqwest: say nothing of the real proxy.
        let _ = client
            .write_all(b"HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"soapgen\"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            .await;
        return None;
    }
    let (method, target) = request.request_line()?;
    if !method.eq_ignore_ascii_case("CONNECT") {
        let _ = client
            .write_all(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            .await;
        return None;
    }
    match up.handshake(target).await {
        Ok(proxy) => {
            client
                .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
                .await
                .ok()?;
            Some((client, proxy, early))
        }
        Err((status, auth, message)) => {
            up.fail(auth, message);
            let answer = format!(
                "HTTP/1.1 {status} Tunnel Not Opened\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
            let _ = client.write_all(answer.as_bytes()).await;
            None
        }
    }
}

impl Upstream {
    /// Records why a tunnel was not opened (`auth`: the handshake failed), for the transport's
    /// error.
    fn fail(&self, auth: bool, message: String) {
        tracing::debug!(proxy = %self.proxy_url, %message, "tunnel not opened");
        *self.failure.lock().unwrap_or_else(|p| p.into_inner()) =
            Some(TunnelFailure { auth, message });
    }

    /// `CONNECT target` at the proxy, answering its `407` challenges, up to its `200`.
    /// Errors: the status to give reqwest, whether authentication failed, and why.
    async fn handshake(&self, target: &str) -> Result<TcpStream, (u16, bool, String)> {
        let mut handshake = self
            .authenticator
            .start_proxy("CONNECT", &self.proxy_url, target);
        let auth_failed = |e: AuthError| (407u16, true, format!("{e}"));
        let mut proxy = self.connect().await?;
        loop {
            let mut request = format!(
                "CONNECT {target} HTTP/1.1\r\nHost: {target}\r\nUser-Agent: {}\r\nProxy-Connection: Keep-Alive\r\n",
                self.user_agent
            );
            if let Some(a) = handshake.authorization() {
                request.push_str("Proxy-Authorization: ");
                request.push_str(a);
                request.push_str("\r\n");
            }
            request.push_str("\r\n");
            let io = |e: io::Error| {
                (
                    502u16,
                    false,
                    format!(
                        "the proxy at {} closed the tunnel's set-up: {e}",
                        self.proxy_addr
                    ),
                )
            };
            proxy.write_all(request.as_bytes()).await.map_err(io)?;
            let (head, rest) = read_head(&mut proxy).await.map_err(io)?;
            let response = Head::parse(&head).ok_or_else(|| {
                (
                    502u16,
                    false,
                    format!(
                        "the proxy at {} answered CONNECT with no HTTP status line",
                        self.proxy_addr
                    ),
                )
            })?;
            let status = response.status().unwrap_or(0);
            let challenges: Vec<&str> = response.fields("proxy-authenticate").collect();
            if (200..300).contains(&status) {
                handshake.accepted(&challenges).map_err(auth_failed)?;
                if !rest.is_empty() {
                    // A proxy does not speak first inside a tunnel; bytes here are not ours.
                    return Err((
                        502,
                        false,
                        "the proxy sent bytes after its 200 to CONNECT".to_owned(),
                    ));
                }
                return Ok(proxy);
            }
            if status != 407 {
                let line = response.first_line().to_owned();
                return Err((
                    status.clamp(400, 599),
                    false,
                    format!(
                        "the proxy at {} refused the tunnel to {target}: {line}",
                        self.proxy_addr
                    ),
                ));
            }
            handshake.unauthorized(&challenges).map_err(auth_failed)?;
            // The 407's body, then the next leg on the same connection if the proxy keeps it.
            let keep = !response
                .field("connection")
                .or_else(|| response.field("proxy-connection"))
                .is_some_and(|v| v.to_ascii_lowercase().contains("close"));
            let length = response
                .field("content-length")
                .and_then(|v| v.trim().parse::<u64>().ok());
            match length {
                Some(n) if keep && n <= MAX_DISCARD => {
                    let already = rest.len() as u64;
                    if already > n {
                        return Err((
                            502,
                            false,
                            "the proxy sent more than its 407's body".to_owned(),
                        ));
                    }
                    let mut body = (&mut proxy).take(n - already);
                    tokio::io::copy(&mut body, &mut tokio::io::sink())
                        .await
                        .map_err(io)?;
                }
                _ if self.authenticator.auth().is_connection_bound() => {
                    return Err((
                        502,
                        true,
                        format!(
                            "the proxy at {} closes the connection after its 407 (or sends no \
                             Content-Length), but {} authenticates a connection (RFC 4559 §6)",
                            self.proxy_addr,
                            self.authenticator.auth().scheme_and_user().0
                        ),
                    ));
                }
                _ => proxy = self.connect().await?,
            }
        }
    }

    async fn connect(&self) -> Result<TcpStream, (u16, bool, String)> {
        let addr = self.proxy_addr.as_str();
        let connect = TcpStream::connect(addr);
        let result = match self.connect_timeout {
            Some(t) => match tokio::time::timeout(t, connect).await {
                Ok(r) => r,
                Err(_) => {
                    return Err((
                        504,
                        false,
                        format!("no connection to the proxy at {addr} within {t:?}"),
                    ))
                }
            },
            None => connect.await,
        };
        let stream = result.map_err(|e| {
            (
                502,
                false,
                format!("cannot connect to the proxy at {addr}: {e}"),
            )
        })?;
        let _ = stream.set_nodelay(true);
        Ok(stream)
    }
}

/// Reads up to the end of a message head (`\r\n\r\n`): the head, and the bytes read after it.
async fn read_head(stream: &mut TcpStream) -> io::Result<(String, Vec<u8>)> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    loop {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the connection closed before the end of the message head",
            ));
        }
        let from = buf.len().saturating_sub(3);
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = memchr::memmem::find(&buf[from..], b"\r\n\r\n") {
            let end = from + i + 4;
            let rest = buf.split_off(end);
            return Ok((String::from_utf8_lossy(&buf).into_owned(), rest));
        }
        if buf.len() > MAX_HEAD {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("a message head over {MAX_HEAD} bytes"),
            ));
        }
    }
}

/// A message head: its first line and fields (RFC 9112 §2.1).
struct Head<'a> {
    lines: Vec<&'a str>,
}

impl<'a> Head<'a> {
    fn parse(head: &'a str) -> Option<Self> {
        let lines: Vec<&str> = head.split("\r\n").filter(|l| !l.is_empty()).collect();
        (!lines.is_empty()).then_some(Head { lines })
    }

    fn first_line(&self) -> &'a str {
        self.lines[0]
    }

    /// `(method, request-target)` of a request line.
    fn request_line(&self) -> Option<(&'a str, &'a str)> {
        let mut parts = self.lines[0].split(' ');
        Some((parts.next()?, parts.next()?))
    }

    /// The status code of a status line.
    fn status(&self) -> Option<u16> {
        let mut parts = self.lines[0].split(' ');
        parts.next().filter(|v| v.starts_with("HTTP/"))?;
        parts.next()?.parse().ok()
    }

    /// The values of field `name` (lowercase), one per field line.
    fn fields(&self, name: &'a str) -> impl Iterator<Item = &'a str> + '_ {
        self.lines[1..].iter().filter_map(move |l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }

    fn field(&self, name: &'a str) -> Option<&'a str> {
        self.fields(name).next()
    }
}

/// Equality whose time does not depend on where the inputs differ.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_proxy_authority_gets_port_80_by_default() {
        assert_eq!(authority_of("http://proxy.corp").unwrap(), "proxy.corp:80");
        assert_eq!(authority_of("HTTP://Proxy:3128/").unwrap(), "proxy:3128");
        assert_eq!(authority_of("http://[::1]:3128").unwrap(), "[::1]:3128");
        assert_eq!(authority_of("http://[::1]").unwrap(), "[::1]:80");
        assert!(authority_of("https://proxy:443").is_err());
        assert!(authority_of("http://").is_err());
    }

    #[test]
    fn heads_are_read_by_field() {
        let h = Head::parse("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: NTLM\r\nproxy-authenticate: Negotiate abc\r\nContent-Length: 5\r\n\r\n").unwrap();
        assert_eq!(h.status(), Some(407));
        assert_eq!(
            h.fields("proxy-authenticate").collect::<Vec<_>>(),
            ["NTLM", "Negotiate abc"]
        );
        assert_eq!(h.field("content-length"), Some("5"));
        let r = Head::parse("CONNECT host:443 HTTP/1.1\r\nHost: host:443\r\n\r\n").unwrap();
        assert_eq!(r.request_line(), Some(("CONNECT", "host:443")));
        assert_eq!(r.status(), None);
    }

    /// What the forwarder answers `request` with.
    async fn answer(tunnel: &Tunnel, request: &str) -> String {
        let mut s = TcpStream::connect(&tunnel.url["http://".len()..])
            .await
            .expect("the forwarder listens");
        s.write_all(request.as_bytes()).await.expect("write");
        let mut out = String::new();
        s.read_to_string(&mut out).await.expect("read");
        out
    }

    #[tokio::test]
    async fn only_the_transport_may_use_the_forwarder_and_it_stops_with_it() {
        // A proxy address where nothing listens (the discard port).
        let tunnel = Tunnel::start(
            "http://127.0.0.1:9",
            HttpAuth::digest("u", "p"),
            Some(Duration::from_secs(2)),
            "test",
        )
        .expect("forwarder");
        let connect = "CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n";
        // Without the secret, or with another one: 407, and the real proxy is never tried.
        let out = answer(&tunnel, &format!("{connect}\r\n")).await;
        assert!(out.starts_with("HTTP/1.1 407 "), "{out}");
        let wrong = base64::engine::general_purpose::STANDARD.encode("soapgen:guess");
        let out = answer(
            &tunnel,
            &format!("{connect}Proxy-Authorization: Basic {wrong}\r\n\r\n"),
        )
        .await;
        assert!(out.starts_with("HTTP/1.1 407 "), "{out}");
        assert!(tunnel.take_failure().is_none());
        // With it: the real proxy is tried, and why it failed is kept for the transport.
        let right = base64::engine::general_purpose::STANDARD
            .encode(format!("{}:{}", tunnel.user, tunnel.secret));
        let out = answer(
            &tunnel,
            &format!("{connect}Proxy-Authorization: Basic {right}\r\n\r\n"),
        )
        .await;
        assert!(out.starts_with("HTTP/1.1 502 "), "{out}");
        let failure = tunnel.take_failure().expect("a recorded failure");
        assert!(
            !failure.auth
                && failure
                    .message
                    .contains("cannot connect to the proxy at 127.0.0.1:9"),
            "{failure:?}"
        );
        // Dropped with its transport, the forwarder stops listening.
        let addr = tunnel.url["http://".len()..].to_owned();
        drop(tunnel);
        let mut refused = false;
        for _ in 0..100 {
            if TcpStream::connect(&addr).await.is_err() {
                refused = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(refused, "the forwarder still listens on {addr}");
    }
}
