//! Testing code that calls a SOAP service without the service (feature `testing`): answer it
//! with a fake of the service in process ([`InProcess`], what a generated client's `fake`
//! runs on) or on a loopback socket (`Loopback`, feature `testing-server`), record real
//! exchanges once ([`Recorder`], a transport around the real one), replay them in tests
//! ([`Replayer`], a transport that answers from the recording), and script the failures a
//! caller must survive ([`Scripted`]: SOAP faults with typed details, HTTP statuses, dropped
//! connections, delays). The whole message path of the client runs as it does against the
//! service (envelopes, MIME, WS-Addressing, the reader).
//!
//! A fake of a service is its client's trait implemented for the operations a test calls; the
//! client runs on it, and the fake's side reads the request and writes the answer as the
//! service would:
//!
//! ```
//! use soapgen_runtime::{soap_client, Error};
//!
//! #[soap_client(namespace = "urn:example:weather", blocking, fake)]
//! pub trait Weather {
//!     async fn forecast(&self, city: String, days: Option<i32>) -> Result<Vec<String>, Error>;
//!     async fn alerts(&self, region: String) -> Result<Vec<String>, Error>;
//! }
//!
//! struct Sunny;
//! impl Weather for Sunny {
//!     async fn forecast(&self, city: String, days: Option<i32>) -> Result<Vec<String>, Error> {
//!         Ok(vec![format!("{city}: sunny"); days.unwrap_or(1) as usize])
//!     }
//! }
//!
//! let weather = WeatherBlockingClient::fake(Sunny)?;
//! assert_eq!(weather.forecast("Lima".into(), Some(2))?, ["Lima: sunny", "Lima: sunny"]);
//! // What the fake leaves out answers with a fault naming it.
//! assert!(weather.alerts("Andes".into()).is_err());
//! # Ok::<(), Error>(())
//! ```
//!
//! A recording is a directory with three files per exchange, numbered in the order the calls
//! were made (after the last number there: nothing is overwritten): `NNNN.request.xml` (the
//! request body as sent, passwords, nonces and signature values redacted as the wire log redacts
//! them; binary MIME parts not kept), `NNNN.response` (the response body, byte for byte) and
//! `NNNN.meta` (the operation, the status, the request's Content-Type and SOAPAction, the
//! response's header fields with `Set-Cookie` redacted, one `name: value` per line). Check them
//! in beside the tests once read: a response body may carry a token the service handed out.
//!
//! A replayed request is matched to a recorded one by its operation (the SOAP version, the
//! SOAPAction or SOAP 1.2's `action`, and the name of the Body's first element) and by a key of
//! the test's choosing
//! ([`Replayer::key`]: by default none), each recorded exchange used once in order and the last
//! one of a kind again when they are used up. A request without a match is a transport error
//! naming the operation, its key and the closest recording.
//!
//! ```no_run
//! # #[cfg(feature = "reqwest")] {
//! use std::sync::Arc;
//! use soapgen_runtime::testing::{Recorder, Replayer};
//! use soapgen_runtime::transport::ReqwestTransport;
//! use soapgen_runtime::Client;
//! // Once, against the real service:
//! let recorder = Recorder::new(Arc::new(ReqwestTransport::new()?), "tests/recordings/weather")?;
//! let client = Client::builder("https://example.org/weather").transport(Arc::new(recorder)).build()?;
//! // … the calls the test makes …
//! // In the tests, without the service:
//! let replayer = Replayer::load("tests/recordings/weather")?;
//! let client = Client::builder("https://example.org/weather").transport(Arc::new(replayer)).build()?;
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use bytes::Bytes;

use crate::error::{TransportError, TransportErrorKind};
use crate::transport::{HttpRequest, HttpResponse, Transport, TransportFuture};

mod fake;
mod faults;
#[cfg(feature = "wss")]
mod secured;
#[cfg(feature = "testing-server")]
mod serve;
pub use fake::{
    in_process_client, Dispatch, DispatchFuture, InProcess, ServiceRequest, IN_PROCESS_ENDPOINT,
    MTOM_THRESHOLD,
};
pub use faults::{not_implemented, IntoFault};
#[cfg(feature = "wss")]
#[cfg_attr(docsrs, doc(cfg(feature = "wss")))]
pub use secured::SecuredService;
#[cfg(feature = "testing-server")]
pub use serve::{Loopback, MAX_REQUEST_BYTES};

/// The action of `request`: its `SOAPAction` header (SOAP 1.1 §6.1.1, quotes removed), else the
/// `action` parameter of its Content-Type (SOAP 1.2, RFC 3902 §3); empty when it has neither.
fn soap_action(request: &HttpRequest) -> String {
    request
        .header("SOAPAction")
        .map(|a| a.trim().trim_matches('"').to_owned())
        .or_else(|| {
            request.header("Content-Type").and_then(|ct| {
                crate::mime::content_type_parameters(ct)
                    .into_iter()
                    .find(|(k, _)| k == "action")
                    .map(|(_, v)| v)
            })
        })
        .unwrap_or_default()
}

/// The operation of a request: its SOAP version, its action (the `SOAPAction` header, or the
/// `action` parameter of a SOAP 1.2 Content-Type) and the local name of the Body's first element,
/// as `1.1 action element` (the action or the element may be empty).
pub fn operation_of(request: &HttpRequest) -> String {
    if request.method == crate::transport::HttpMethod::Get {
        // The SOAP-response message exchange pattern (SOAP 1.2 Part 2 §6.3): the request is
        // the IRI; its path and query name it, whichever host served it.
        let after_scheme = request.url.find("://").map_or(0, |i| i + 3);
        let path = request.url[after_scheme..]
            .find('/')
            .map_or("/", |i| &request.url[after_scheme + i..]);
        return format!("1.2 GET {path}");
    }
    let action = soap_action(request);
    let soap12 = memchr::memmem::find(
        &request.body[..request.body.len().min(1 << 16)],
        b"http://www.w3.org/2003/05/soap-envelope",
    )
    .is_some();
    let version = if soap12 { "1.2" } else { "1.1" };
    let element = body_element(&request.body);
    [version, action.as_str(), element.as_str()]
        .iter()
        .filter(|p| !p.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The request header fields a recording keeps, for the keys chosen when it is replayed: the
/// ones that name the operation, none that authenticates.
const KEPT_REQUEST_HEADERS: [&str; 2] = ["content-type", "soapaction"];

/// Response header fields whose values a recording does not keep (`***redacted***`): what
/// hands the client a session.
const REDACTED_RESPONSE_HEADERS: [&str; 2] = ["set-cookie", "set-cookie2"];

/// The local name of the first element inside the envelope's Body (a textual scan: the body
/// may be multipart).
fn body_element(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(1 << 20)]);
    let Some(body_at) = find_start_tag(&text, "Body") else {
        return String::new();
    };
    let rest = &text[body_at..];
    let Some(open) = rest.find('>') else {
        return String::new();
    };
    let rest = &rest[open + 1..];
    let Some(lt) = rest.find('<') else {
        return String::new();
    };
    let tag = &rest[lt + 1..];
    if tag.starts_with('/') {
        return String::new();
    }
    let name: String = tag
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '>' && *c != '/')
        .collect();
    name.rsplit(':').next().unwrap_or("").to_owned()
}

/// Where the start tag of the element with local name `local` (any prefix) begins.
fn find_start_tag(text: &str, local: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find('<') {
        let at = from + i;
        let name: String = text[at + 1..]
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '>' && *c != '/')
            .collect();
        if name.rsplit(':').next() == Some(local) && !name.starts_with('/') {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// A transport that sends each request through `inner` and writes the exchange into a
/// directory (see the [module](self) for the files). Failed exchanges (no response) are not
/// written.
pub struct Recorder {
    inner: Arc<dyn Transport>,
    dir: PathBuf,
    next: AtomicUsize,
}

impl fmt::Debug for Recorder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Recorder")
            .field("inner", &self.inner)
            .field("dir", &self.dir)
            .finish()
    }
}

impl Recorder {
    /// Records what goes through `inner` into `dir` (created if missing; numbering continues
    /// after the exchanges already there).
    ///
    /// # Errors
    ///
    /// When the directory cannot be created or read.
    pub fn new(inner: Arc<dyn Transport>, dir: impl Into<PathBuf>) -> std::io::Result<Self> {
        let dir = dir.into();
        std::fs::create_dir_all(&dir)?;
        let last = numbered(&dir)?.last().copied().unwrap_or(0);
        Ok(Recorder {
            inner,
            dir,
            next: AtomicUsize::new(last + 1),
        })
    }

    /// Writes one exchange under the next free number: the `.meta` file is created first, and
    /// only if no exchange has that number yet (two recorders on one directory, or an exchange
    /// written since, take the next one).
    fn write(&self, request: &HttpRequest, response: &HttpResponse) -> std::io::Result<()> {
        use std::io::Write as _;
        let (stem, mut meta_file) = loop {
            let n = self.next.fetch_add(1, Ordering::SeqCst);
            let stem = self.dir.join(format!("{n:04}"));
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(stem.with_extension("meta"))
            {
                Ok(f) => break (stem, f),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        };
        let redacted = crate::wire::redact(&String::from_utf8_lossy(&request.body)).into_owned();
        std::fs::write(stem.with_extension("request.xml"), redacted)?;
        std::fs::write(stem.with_extension("response"), &response.body)?;
        let one_line = |v: &str| v.replace(['\r', '\n'], " ");
        let mut meta = format!(
            "operation: {}\nstatus: {}\n",
            operation_of(request),
            response.status
        );
        for (k, v) in &request.headers {
            if KEPT_REQUEST_HEADERS
                .iter()
                .any(|h| k.eq_ignore_ascii_case(h))
            {
                meta.push_str(&format!("request-header: {k}: {}\n", one_line(v)));
            }
        }
        for (k, v) in &response.headers {
            let v = if REDACTED_RESPONSE_HEADERS
                .iter()
                .any(|h| k.eq_ignore_ascii_case(h))
            {
                "***redacted***".to_owned()
            } else {
                one_line(v)
            };
            meta.push_str(&format!("header: {k}: {v}\n"));
        }
        meta_file.write_all(meta.as_bytes())
    }
}

impl Transport for Recorder {
    fn send(&self, request: HttpRequest) -> TransportFuture<'_> {
        Box::pin(async move {
            let response = self.inner.send(request.clone()).await?;
            self.write(&request, &response).map_err(|e| {
                TransportError::new(
                    TransportErrorKind::Other,
                    request.url.clone(),
                    format!("cannot write the recording in {}: {e}", self.dir.display()),
                    None,
                )
            })?;
            Ok(response)
        })
    }
}

/// The numbers of the exchanges in `dir`, in order.
fn numbered(dir: &Path) -> std::io::Result<Vec<usize>> {
    let mut ns = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let name = e?.file_name();
        let name = name.to_string_lossy();
        // Exactly the names a Recorder writes (`0001.meta`…): no other file is taken for one.
        let number = name.strip_suffix(".meta").and_then(|stem| {
            let n: usize = stem.parse().ok()?;
            (format!("{n:04}") == stem).then_some(n)
        });
        if let Some(n) = number {
            ns.push(n);
        }
    }
    ns.sort_unstable();
    Ok(ns)
}

/// One recorded exchange.
#[derive(Debug)]
struct Recorded {
    number: usize,
    operation: String,
    key: String,
    response: HttpResponse,
}

/// What a [`Replayer`] keys requests by, beyond their operation.
type KeyFn = dyn Fn(&HttpRequest) -> String + Send + Sync;

/// A transport that answers each request with a recorded response (see the [module](self)):
/// nothing goes over the network.
pub struct Replayer {
    dir: PathBuf,
    recorded: Vec<Recorded>,
    /// The recorded requests, for keys chosen after loading.
    requests: Vec<HttpRequest>,
    key: Box<KeyFn>,
    used: Mutex<Vec<bool>>,
}

impl fmt::Debug for Replayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Replayer")
            .field("dir", &self.dir)
            .field("exchanges", &self.recorded.len())
            .finish()
    }
}

/// A recording that cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("recording {path}: {message}")]
pub struct ReplayError {
    /// The file or directory.
    pub path: PathBuf,
    /// What is wrong with it.
    pub message: String,
}

impl Replayer {
    /// The exchanges recorded in `dir` by a [`Recorder`].
    ///
    /// # Errors
    ///
    /// [`ReplayError`] naming the file that is missing or malformed (a status that is not a
    /// number, a line that is not `name: value`), or the directory with no exchange.
    pub fn load(dir: impl Into<PathBuf>) -> Result<Self, ReplayError> {
        let dir = dir.into();
        let fail = |path: &Path, message: String| ReplayError {
            path: path.to_owned(),
            message,
        };
        let numbers = numbered(&dir).map_err(|e| fail(&dir, e.to_string()))?;
        if numbers.is_empty() {
            return Err(fail(&dir, "no recorded exchange (NNNN.meta)".to_owned()));
        }
        let mut recorded = Vec::with_capacity(numbers.len());
        let mut requests = Vec::with_capacity(numbers.len());
        for n in numbers {
            let stem = dir.join(format!("{n:04}"));
            let read = |ext: &str| {
                let p = stem.with_extension(ext);
                std::fs::read(&p).map_err(|e| fail(&p, e.to_string()))
            };
            let meta_path = stem.with_extension("meta");
            let meta = String::from_utf8(read("meta")?)
                .map_err(|_| fail(&meta_path, "not UTF-8".to_owned()))?;
            let (mut operation, mut status, mut headers) = (String::new(), None, Vec::new());
            let mut request_headers = Vec::new();
            for (i, line) in meta.lines().enumerate().filter(|(_, l)| !l.is_empty()) {
                let bad = |why: &str| fail(&meta_path, format!("line {}: {why}: {line:?}", i + 1));
                let (name, value) = line
                    .split_once(": ")
                    .ok_or_else(|| bad("not `name: value`"))?;
                let field = || {
                    value
                        .split_once(": ")
                        .map(|(k, v)| (k.to_owned(), v.to_owned()))
                        .ok_or_else(|| bad("not `name: field: value`"))
                };
                match name {
                    "operation" => operation = value.to_owned(),
                    "status" if status.is_some() => return Err(bad("a second status")),
                    "status" => {
                        let code = value
                            .parse::<u16>()
                            .ok()
                            .filter(|c| (100..=599).contains(c))
                            .ok_or_else(|| bad("not an HTTP status code (100 to 599)"))?;
                        status = Some(code);
                    }
                    "header" => headers.push(field()?),
                    "request-header" => request_headers.push(field()?),
                    _ => return Err(bad("not operation, status, header or request-header")),
                }
            }
            let status = status.ok_or_else(|| fail(&meta_path, "no status line".to_owned()))?;
            let request_body = read("request.xml")?;
            // A GET (the SOAP-response message exchange pattern) is its path and query.
            let (method, url) = match operation.strip_prefix("1.2 GET ") {
                Some(path) => (crate::transport::HttpMethod::Get, path.to_owned()),
                None => (crate::transport::HttpMethod::Post, String::new()),
            };
            requests.push(HttpRequest {
                method,
                url,
                headers: request_headers,
                body: Bytes::from(request_body),
                max_response_bytes: usize::MAX,
            });
            recorded.push(Recorded {
                number: n,
                operation,
                key: String::new(),
                response: HttpResponse {
                    status,
                    headers,
                    body: Bytes::from(read("response")?),
                },
            });
        }
        let used = Mutex::new(vec![false; recorded.len()]);
        Ok(Replayer {
            dir,
            recorded,
            requests,
            key: Box::new(|_| String::new()),
            used,
        })
    }

    /// Also matches requests by `key`, computed from the live request and from each recorded
    /// one, e.g. the value of an element that tells the calls of one operation apart. A
    /// recorded request has its body as recorded (redacted; a multipart one as text, the bytes
    /// of binary parts not kept), its Content-Type and SOAPAction header fields, no URL.
    #[must_use]
    pub fn key(mut self, key: impl Fn(&HttpRequest) -> String + Send + Sync + 'static) -> Self {
        for (r, req) in self.recorded.iter_mut().zip(&self.requests) {
            r.key = key(req);
        }
        self.key = Box::new(key);
        self
    }

    /// The recorded response for `request`, or why there is none.
    fn answer(&self, request: &HttpRequest) -> Result<HttpResponse, String> {
        let operation = operation_of(request);
        let key = (self.key)(request);
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        let matching: Vec<usize> = (0..self.recorded.len())
            .filter(|&i| self.recorded[i].operation == operation && self.recorded[i].key == key)
            .collect();
        let pick = matching
            .iter()
            .copied()
            .find(|&i| !used[i])
            .or(matching.last().copied());
        if let Some(i) = pick {
            used[i] = true;
            return Ok(self.recorded[i].response.clone());
        }
        let same_operation = self.recorded.iter().find(|r| r.operation == operation);
        let closest = match same_operation {
            Some(r) => format!(
                "the closest is exchange {:04}, of that operation with key {:?}",
                r.number, r.key
            ),
            None => {
                let mut ops: Vec<&str> =
                    self.recorded.iter().map(|r| r.operation.as_str()).collect();
                ops.sort_unstable();
                ops.dedup();
                format!("the operations recorded are {ops:?}")
            }
        };
        Err(format!(
            "no recorded exchange in {} for operation {operation:?} with key {key:?}: {closest}",
            self.dir.display()
        ))
    }
}

impl Transport for Replayer {
    fn send(&self, request: HttpRequest) -> TransportFuture<'_> {
        let answer = self.answer(&request);
        Box::pin(async move {
            answer.map_err(|message| {
                TransportError::new(
                    TransportErrorKind::Other,
                    request.url.clone(),
                    message,
                    None,
                )
            })
        })
    }
}

/// One scripted answer of a [`Scripted`] transport.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Answer {
    /// A SOAP fault that blames the request, in the request's SOAP version (1.1 `Client` with
    /// HTTP 500, SOAP 1.1 §4.4.1 and §6.2; 1.2 `Sender` with HTTP 400, Part 2 §7.5.2.2), with
    /// `reason` and the `detail` (a declared fault's: [`FaultDetail::encode`](crate::fault::FaultDetail::encode)).
    SenderFault {
        /// The reason text.
        reason: String,
        /// The detail, if any.
        detail: Option<crate::fault::FaultDetail>,
    },
    /// A SOAP fault that blames the service (1.1 `Server`, 1.2 `Receiver`; HTTP 500), with
    /// `reason` and `detail`.
    ReceiverFault {
        /// The reason text.
        reason: String,
        /// The detail, if any.
        detail: Option<crate::fault::FaultDetail>,
    },
    /// This fault as built (its own version and codes), HTTP 500, or 400 for a SOAP 1.2
    /// `Sender` fault.
    Fault(crate::fault::Fault),
    /// An HTTP status and an empty body: `503` for a service that is down, `401`, `429`.
    Status(u16),
    /// The connection fails before any response: the call reports a transport error.
    Dropped,
    /// The answer after waiting this long (a slow service: client timeouts and deadlines).
    After(std::time::Duration, Box<Answer>),
    /// The request goes on to the transport the script wraps ([`Scripted::around`]).
    PassOn,
}

impl Answer {
    /// [`Answer::SenderFault`] without detail.
    pub fn sender_fault(reason: impl Into<String>) -> Answer {
        Answer::SenderFault {
            reason: reason.into(),
            detail: None,
        }
    }

    /// [`Answer::ReceiverFault`] without detail.
    pub fn receiver_fault(reason: impl Into<String>) -> Answer {
        Answer::ReceiverFault {
            reason: reason.into(),
            detail: None,
        }
    }

    /// A sender fault carrying the declared fault detail `detail`, written as the element
    /// `name` (WSDL 1.1 §2.4.5: the `wsdl:fault` message's part): the client decodes it into
    /// the operation's typed faults.
    ///
    /// # Errors
    ///
    /// [`EncodeError`](crate::EncodeError) from `detail`'s writer.
    pub fn declared_fault<T: crate::xml::ToXml + ?Sized>(
        reason: impl Into<String>,
        detail: &T,
        name: crate::xml::Name<'_>,
    ) -> Result<Answer, crate::EncodeError> {
        Ok(Answer::SenderFault {
            reason: reason.into(),
            detail: Some(crate::fault::FaultDetail::encode(detail, name)?),
        })
    }

    /// This answer after waiting `delay`.
    pub fn after(self, delay: std::time::Duration) -> Answer {
        Answer::After(delay, Box::new(self))
    }
}

/// A transport that answers from a script, one [`Answer`] per request in order, for testing a
/// caller's error paths through the client's real message path (the fault read from the
/// envelope and its detail decoded into the operation's typed faults, HTTP errors, transport
/// errors, timeouts). When the script is used up, requests go on to the transport it wraps
/// ([`around`](Self::around): a [`Replayer`], the real service), or fail with a transport error
/// saying so.
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use soapgen_runtime::testing::{Answer, Scripted};
/// let script = Arc::new(
///     Scripted::new()
///         .then(Answer::Status(503))
///         .then(Answer::sender_fault("no such city"))
///         .then(Answer::Dropped),
/// );
/// let client = soapgen_runtime::Client::builder("http://127.0.0.1:9/weather")
///     .transport(script.clone())
///     .build()?;
/// assert_eq!(script.remaining(), 3);
/// # Ok::<(), soapgen_runtime::Error>(())
/// ```
pub struct Scripted {
    inner: Option<Arc<dyn Transport>>,
    answers: Mutex<std::collections::VecDeque<Answer>>,
}

impl fmt::Debug for Scripted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scripted")
            .field("remaining", &self.remaining())
            .field("around", &self.inner.is_some())
            .finish()
    }
}

impl Default for Scripted {
    fn default() -> Self {
        Self::new()
    }
}

impl Scripted {
    /// An empty script around nothing: add answers with [`then`](Self::then).
    pub fn new() -> Scripted {
        Scripted {
            inner: None,
            answers: Mutex::new(std::collections::VecDeque::new()),
        }
    }

    /// An empty script around `inner`, which answers [`Answer::PassOn`] and every request after
    /// the script is used up.
    pub fn around(inner: Arc<dyn Transport>) -> Scripted {
        Scripted {
            inner: Some(inner),
            ..Scripted::new()
        }
    }

    /// The script with `answer` added last.
    #[must_use]
    pub fn then(self, answer: Answer) -> Scripted {
        self.push(answer);
        self
    }

    /// Adds `answer` last, while the client runs (the script is shared with it).
    pub fn push(&self, answer: Answer) {
        self.answers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push_back(answer);
    }

    /// How many answers are left.
    pub fn remaining(&self) -> usize {
        self.answers.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// The SOAP version of `request`: 1.2 when its Content-Type is SOAP 1.2's, else 1.1.
fn version_of(request: &HttpRequest) -> crate::SoapVersion {
    let soap12 = request
        .header("Content-Type")
        .is_some_and(|v| v.contains("application/soap+xml"));
    if soap12 {
        crate::SoapVersion::Soap12
    } else {
        crate::SoapVersion::Soap11
    }
}

impl Scripted {
    fn answer(&self, answer: Answer, request: HttpRequest) -> TransportFuture<'_> {
        use crate::fault::Fault;
        let version = version_of(&request);
        let url = request.url.clone();
        let fault = |mut f: Fault, detail: Option<crate::fault::FaultDetail>| {
            f.detail = detail;
            Ok(fake::fault_response(&f))
        };
        match answer {
            Answer::SenderFault { reason, detail } => {
                let r = fault(Fault::sender(version, reason), detail);
                Box::pin(async move { r })
            }
            Answer::ReceiverFault { reason, detail } => {
                let r = fault(Fault::receiver(version, reason), detail);
                Box::pin(async move { r })
            }
            Answer::Fault(f) => {
                let r = Ok(fake::fault_response(&f));
                Box::pin(async move { r })
            }
            Answer::Status(status) => Box::pin(async move {
                Ok(HttpResponse {
                    status,
                    headers: Vec::new(),
                    body: Bytes::new(),
                })
            }),
            Answer::Dropped => Box::pin(async move {
                Err(TransportError::new(
                    TransportErrorKind::Connect,
                    url,
                    "the scripted service dropped the connection".to_owned(),
                    None,
                ))
            }),
            Answer::After(delay, then) => Box::pin(async move {
                tokio::time::sleep(delay).await;
                self.answer(*then, request).await
            }),
            Answer::PassOn => match &self.inner {
                Some(inner) => inner.send(request),
                None => Box::pin(async move {
                    Err(TransportError::new(
                        TransportErrorKind::Other,
                        url,
                        "the script passes this request on, but wraps no transport \
                         (Scripted::around)"
                            .to_owned(),
                        None,
                    ))
                }),
            },
        }
    }
}

impl Transport for Scripted {
    fn send(&self, request: HttpRequest) -> TransportFuture<'_> {
        let next = self
            .answers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop_front();
        match next {
            Some(answer) => self.answer(answer, request),
            None if self.inner.is_some() => self.answer(Answer::PassOn, request),
            None => Box::pin(async move {
                Err(TransportError::new(
                    TransportErrorKind::Other,
                    request.url.clone(),
                    format!(
                        "the script is used up: no answer for a request of {}",
                        operation_of(&request)
                    ),
                    None,
                ))
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(action: &str, body: &str) -> HttpRequest {
        HttpRequest {
            method: Default::default(),
            url: "http://x/".to_owned(),
            headers: vec![("SOAPAction".to_owned(), format!("\"{action}\""))],
            body: Bytes::from(body.to_owned()),
            max_response_bytes: 1 << 20,
        }
    }

    #[test]
    fn the_operation_is_the_action_and_the_first_element_of_the_body() {
        let r = request(
            "urn:a#get",
            r#"<s:Envelope xmlns:s="x"><s:Header><h/></s:Header><s:Body><m:Get xmlns:m="y"><a/></m:Get></s:Body></s:Envelope>"#,
        );
        assert_eq!(operation_of(&r), "1.1 urn:a#get Get");
        let empty = request("", "<Envelope><Body/></Envelope>");
        assert_eq!(operation_of(&empty), "1.1");
        let v12 = request(
            "",
            r#"<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body><Get/></e:Body></e:Envelope>"#,
        );
        assert_eq!(operation_of(&v12), "1.2 Get");
    }

    /// A service that answers every request with `200` and a cookie.
    #[derive(Debug)]
    struct Answers;

    impl Transport for Answers {
        fn send(&self, _: HttpRequest) -> TransportFuture<'_> {
            Box::pin(async {
                Ok(HttpResponse {
                    status: 200,
                    headers: vec![
                        ("content-type".to_owned(), "text/xml".to_owned()),
                        ("set-cookie".to_owned(), "session=SECRET".to_owned()),
                    ],
                    body: Bytes::from_static(b"<answer/>"),
                })
            })
        }
    }

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        // The futures here never wait: poll once with a no-op waker.
        let mut f = std::pin::pin!(f);
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match f.as_mut().poll(&mut cx) {
            std::task::Poll::Ready(v) => v,
            std::task::Poll::Pending => panic!("a recorder's send waited"),
        }
    }

    /// A script around a transport passes on what it is told to and everything after its end;
    /// without one, both are transport errors that say why.
    #[test]
    fn a_script_passes_on_to_the_transport_it_wraps() {
        let get = || request("urn:a#get", "<Envelope><Body><Get/></Body></Envelope>");
        let script = Scripted::around(Arc::new(Answers))
            .then(Answer::Status(429))
            .then(Answer::PassOn);
        assert_eq!(block_on(script.send(get())).unwrap().status, 429);
        assert_eq!(
            &block_on(script.send(get())).unwrap().body[..],
            b"<answer/>"
        );
        assert_eq!(
            &block_on(script.send(get())).unwrap().body[..],
            b"<answer/>"
        );
        let alone = Scripted::new().then(Answer::PassOn);
        let e = block_on(alone.send(get())).unwrap_err();
        assert!(e.to_string().contains("wraps no transport"), "{e}");
        let e = block_on(alone.send(get())).unwrap_err();
        assert!(
            e.to_string()
                .contains("used up: no answer for a request of 1.1 urn:a#get Get"),
            "{e}"
        );
    }

    #[test]
    fn recordings_never_overwrite_one_another_and_keep_no_cookie() {
        let dir = std::env::temp_dir().join(format!("soapgen-recorder-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let rec = || Recorder::new(Arc::new(Answers), &dir).unwrap();
        let (a, b) = (rec(), rec());
        for r in [&a, &b, &a] {
            block_on(r.send(request(
                "urn:a#get",
                "<Envelope><Body><Get/></Body></Envelope>",
            )))
            .unwrap();
        }
        assert_eq!(numbered(&dir).unwrap(), [1, 2, 3]);
        // A gap left by hand: the next exchange goes after the last, not into it.
        std::fs::remove_file(dir.join("0002.meta")).unwrap();
        block_on(rec().send(request("urn:a#get", "<Envelope/>"))).unwrap();
        assert_eq!(numbered(&dir).unwrap(), [1, 3, 4]);
        let meta = std::fs::read_to_string(dir.join("0001.meta")).unwrap();
        assert!(
            meta.contains("header: set-cookie: ***redacted***"),
            "{meta}"
        );
        assert!(
            meta.contains("request-header: SOAPAction: \"urn:a#get\""),
            "{meta}"
        );
        // Names a recorder does not write are not exchanges.
        std::fs::write(dir.join("1.meta"), "status: 200\n").unwrap();
        assert_eq!(numbered(&dir).unwrap(), [1, 3, 4]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
