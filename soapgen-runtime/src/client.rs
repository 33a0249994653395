//! The client that generated code calls: endpoint, transport and per-client settings, and the call path
//! (HTTP binding of SOAP 1.1 §6 and SOAP 1.2 Part 2 §7).

use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use tracing::Instrument;

use crate::envelope::{
    read_envelope_with_headers, BodyContent, BodyReader, EnvelopeWriter, Incoming, SoapVersion,
};
use crate::error::{DecodeError, EncodeError, Error};
use crate::layer::{Layers, MessageLayer, Outbound, Sent};
use crate::mime::{parse_multipart_related, Attachments, Packaging, RequestMessage};
use crate::transport::{HttpRequest, HttpResponse, Transport};
use crate::xml::{Limits, StartTag, XmlReader, XmlWriter};

mod response;
use response::is_blank;

/// What generated code knows about an operation (WSDL 1.1 §2.4 portType operation plus §3.4
/// `soap:operation`): its name, `soapAction`, the binding's SOAP version, and whether it is one-way.
///
/// Built with [`Operation::new`] (and [`one_way`](Operation::one_way)), so that a field added
/// here does not break generated code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Operation {
    /// Operation name, for tracing and errors.
    pub name: &'static str,
    /// The `soapAction` (may be empty).
    pub action: &'static str,
    /// SOAP version of the binding.
    pub version: SoapVersion,
    /// A one-way operation (WSDL 1.1 §2.4.1): no response message is expected.
    pub one_way: bool,
}

impl Operation {
    /// A request-response operation (WSDL 1.1 §2.4.2) `name` with `soapAction` `action` (may be
    /// empty), in the binding's SOAP `version`.
    pub const fn new(name: &'static str, action: &'static str, version: SoapVersion) -> Self {
        Operation {
            name,
            action,
            version,
            one_way: false,
        }
    }

    /// The same operation, one-way (WSDL 1.1 §2.4.1): no response message is expected.
    pub const fn one_way(self) -> Self {
        Operation {
            one_way: true,
            ..self
        }
    }
}

/// Default for the largest response body accepted: 64 MiB.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 64 * 1024 * 1024;

#[derive(Debug)]
struct Inner {
    endpoint: String,
    transport: Arc<dyn Transport>,
    settings: Settings,
}

/// What a client applies to every call, set by its [`ClientBuilder`] and kept by the clients
/// derived from it ([`Client::with_endpoint`], [`Client::with_soap_headers`]).
#[derive(Debug, Clone)]
struct Settings {
    headers: Vec<(String, String)>,
    limits: Limits,
    max_response_bytes: usize,
    mime_base64: bool,
    default_namespaces: bool,
    mtom: Option<usize>,
    soap_headers: crate::header::HeaderSettings,
    /// The configured message layer (WS-Security), applied to every request and response
    /// before WS-Addressing's.
    layer: Option<Arc<dyn MessageLayer>>,
}

impl Settings {
    /// The message layers of every call: the configured one, then WS-Addressing.
    fn layers(&self) -> Layers<'_> {
        Layers::new(self.layer.as_deref())
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            headers: Vec::new(),
            limits: Limits::default(),
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            mime_base64: false,
            default_namespaces: false,
            mtom: None,
            soap_headers: Default::default(),
            layer: None,
        }
    }
}

/// A SOAP client for one endpoint: cheap to clone (an `Arc`), safe to share across tasks; clones share
/// the transport and its connection pool.
///
/// Generated clients wrap one. Build it with [`Client::builder`], or [`Client::new`] for defaults.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "reqwest")] {
/// let client = soapgen_runtime::Client::builder("http://127.0.0.1:8080/soap")
///     .basic_auth("user", "secret")
///     .header("X-Tenant", "acme")
///     .build()?;
/// assert_eq!(client.endpoint(), "http://127.0.0.1:8080/soap");
/// # }
/// # Ok::<(), soapgen_runtime::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

/// Settings for a [`Client`]. Consuming setters, as reqwest's `ClientBuilder`.
#[derive(Debug)]
#[must_use]
pub struct ClientBuilder {
    endpoint: String,
    transport: Option<Arc<dyn Transport>>,
    settings: Settings,
    #[cfg(feature = "reqwest")]
    reqwest: crate::transport::ReqwestTransportBuilder,
    /// The default transport's TLS and authentication options set, by method name: refused with
    /// a custom [`transport`](Self::transport), which would not apply them.
    #[cfg(feature = "reqwest")]
    reqwest_options: Vec<&'static str>,
}

impl ClientBuilder {
    /// Sends every request through `transport` instead of the default reqwest transport (settings of
    /// the default transport, such as [`timeout`](Self::timeout), then do not apply).
    pub fn transport(mut self, transport: Arc<dyn Transport>) -> Self {
        self.transport = Some(transport);
        self
    }

    /// HTTP Basic authentication (RFC 7617) on every request.
    pub fn basic_auth(mut self, user: &str, password: &str) -> Self {
        use base64::Engine;
        let token = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
        self.settings
            .headers
            .retain(|(k, _)| !k.eq_ignore_ascii_case("authorization"));
        self.settings
            .headers
            .push(("Authorization".to_owned(), format!("Basic {token}")));
        self
    }

    /// An extra HTTP header on every request.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.settings.headers.push((name.into(), value.into()));
        self
    }

    /// Reader limits for responses (element depth, attributes, text size, references) and their
    /// [`Leniency`](crate::xml::Leniency); replaces a leniency set before.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.settings.limits = limits;
        self
    }

    /// The schema rules the response reader relaxes (default
    /// [`Leniency::STRICT`](crate::xml::Leniency::STRICT): none); each relaxation that fires logs
    /// a `tracing` warning, target `soapgen::lenient`, with the element path. The same as setting
    /// [`Limits::leniency`] through [`limits`](Self::limits).
    pub fn leniency(mut self, leniency: crate::xml::Leniency) -> Self {
        self.settings.limits.leniency = leniency;
        self
    }

    /// The largest response body accepted, in bytes (default [`DEFAULT_MAX_RESPONSE_BYTES`]).
    pub fn max_response_bytes(mut self, bytes: usize) -> Self {
        self.settings.max_response_bytes = bytes;
        self
    }

    /// Write `base64Binary` values in 76-column MIME lines, for old servers that require them.
    pub fn mime_base64(mut self, on: bool) -> Self {
        self.settings.mime_base64 = on;
        self
    }

    /// Writes request Body payloads with default-namespace declarations (`<Get xmlns="urn:x">
    /// <q>…</q></Get>`, `xmlns=""` on an unqualified child) instead of prefixes (`<tns:Get>`),
    /// for servers that do not resolve element prefixes; default `false`. The same expanded names
    /// either way (Namespaces in XML 1.0 §6.2); attributes and QName values keep prefixes, the
    /// Envelope, Header and header blocks too. A `#[soap_client(default_namespaces)]` trait, or
    /// a client generated with `default_namespaces`, turns it on for its own calls whatever this
    /// says. See [`XmlWriter::set_default_namespaces`].
    pub fn default_namespaces(mut self, on: bool) -> Self {
        self.settings.default_namespaces = on;
        self
    }

    /// Sends requests with MTOM (SOAP MTOM §3, XOP 1.0): base64Binary values of at least
    /// `threshold` bytes travel as binary MIME attachments referenced by `xop:Include`, smaller ones
    /// inline; a request with no value that large is sent as plain XML. Off by default.
    /// Multipart/related responses (MTOM or SwA) are read whatever this setting.
    pub fn mtom(mut self, threshold: usize) -> Self {
        self.settings.mtom = Some(threshold);
        self
    }

    /// A SOAP header block on every request (SOAP 1.1 §4.2, SOAP 1.2 Part 1 §5.2), after the
    /// WS-Security and WS-Addressing blocks and before the operation's own header parts. Blocks
    /// are sent in the order added. For one call only, see [`Client::with_soap_headers`].
    pub fn soap_header(mut self, block: crate::header::HeaderBlock) -> Self {
        self.settings.soap_headers.blocks.push(block);
        self
    }

    /// Names a response header block `{namespace}local_name` the caller processes (reading it
    /// from [`Response::headers`](crate::header::Response::headers)), so that a
    /// `mustUnderstand` one does not fail the call with
    /// [`HeaderErrorKind::MustUnderstand`](crate::header::HeaderErrorKind::MustUnderstand)
    /// (SOAP 1.1 §4.2.3, SOAP 1.2 Part 1 §5.2.3).
    pub fn understood_header(mut self, namespace: &str, local_name: &str) -> Self {
        self.settings
            .soap_headers
            .understood
            .push((namespace.to_owned(), local_name.to_owned()));
        self
    }

    /// Whether calls are addressed with WS-Addressing (see [`crate::addressing`]): by default
    /// as the generated client's description says ([`AddressingMode::FromDescription`]).
    ///
    /// [`AddressingMode::FromDescription`]: crate::addressing::AddressingMode::FromDescription
    pub fn addressing(mut self, mode: crate::addressing::AddressingMode) -> Self {
        self.settings.soap_headers.addressing = mode;
        self
    }

    /// The `wsa:ReplyTo` address of addressed requests (WS-Addressing 1.0 Core §3.2 `[reply
    /// endpoint]`), an absolute IRI, instead of the anonymous one: the service sends the reply
    /// there (for SOAP over HTTP, in a request of its own to that address) and answers the call's
    /// HTTP request with an empty `202 Accepted`. A request-response call then fails with
    /// [`Error::Http`] of status 202 saying where the reply went; one-way calls succeed.
    ///
    /// `build()` fails with [`Error::Encode`] if `address` is not an absolute IRI.
    pub fn reply_to(mut self, address: impl Into<String>) -> Self {
        self.settings.soap_headers.endpoints.reply_to = Some(address.into());
        self
    }

    /// A `wsa:FaultTo` on addressed requests (WS-Addressing 1.0 Core §3.2 `[fault endpoint]`),
    /// an absolute IRI: the service sends faults there and answers the call's HTTP request with
    /// an empty `202 Accepted` (the call fails with [`Error::Http`] of status 202). Replies are
    /// unaffected. Without it no `wsa:FaultTo` is sent and faults go where replies go.
    ///
    /// `build()` fails with [`Error::Encode`] if `address` is not an absolute IRI.
    pub fn fault_to(mut self, address: impl Into<String>) -> Self {
        self.settings.soap_headers.endpoints.fault_to = Some(address.into());
        self
    }

    /// Whether the reply of an addressed call must carry the operation's output action as its
    /// `wsa:Action` (WS-Addressing 1.0 Core §3.2; the output action of Metadata §4.4, explicit
    /// or by the default pattern), else [`HeaderErrorKind::Action`]. On by default, for
    /// operations whose output action the client knows (generated from an addressed WSDL or
    /// trait); `false` accepts any (some services send the input action back).
    ///
    /// [`HeaderErrorKind::Action`]: crate::header::HeaderErrorKind::Action
    pub fn check_reply_action(mut self, on: bool) -> Self {
        self.settings.soap_headers.ignore_reply_action = !on;
        self
    }

    /// The message layer of every call (replacing one set before): what `wss` registers.
    #[cfg_attr(not(feature = "wss"), allow(dead_code))] // called by the layers: WS-Security's
    pub(crate) fn layer(mut self, layer: Arc<dyn MessageLayer>) -> Self {
        self.settings.layer = Some(layer);
        self
    }

    /// Whole-request timeout of the default transport (default 60 s).
    #[cfg(feature = "reqwest")]
    pub fn timeout(mut self, t: std::time::Duration) -> Self {
        self.reqwest = self.reqwest.timeout(Some(t));
        self
    }

    /// Connect timeout of the default transport (default 10 s).
    #[cfg(feature = "reqwest")]
    pub fn connect_timeout(mut self, t: std::time::Duration) -> Self {
        self.reqwest = self.reqwest.connect_timeout(Some(t));
        self
    }

    /// Answers the server's HTTP authentication challenges (`401`) on the default transport with
    /// `auth`: Digest (RFC 7616), or NTLM (MS-NLMP, RFC 4559 §4 framing) and Negotiate (RFC 4559
    /// §4, SPNEGO of RFC 4178 with NTLM), feature `ntlm`. See
    /// [`HttpAuth`](crate::transport::HttpAuth) and docs/http.md. A failed authentication is
    /// [`Error::Transport`] of kind [`Auth`](crate::error::TransportErrorKind::Auth)
    /// ([`Error::is_auth`]).
    #[cfg(feature = "reqwest")]
    pub fn http_auth(self, auth: crate::transport::HttpAuth) -> Self {
        self.transport_option("http_auth", |b| b.auth(auth))
    }

    /// HTTP Digest authentication (RFC 7616: MD5, SHA-256, `qop=auth`, nonce count, a stale
    /// nonce retried once) on the default transport: [`http_auth`](Self::http_auth) with
    /// [`HttpAuth::digest`](crate::transport::HttpAuth::digest).
    #[cfg(feature = "reqwest")]
    pub fn digest_auth(self, user: &str, password: &str) -> Self {
        self.http_auth(crate::transport::HttpAuth::digest(user, password))
    }

    /// NTLM authentication (MS-NLMP over HTTP) on the default transport, `user` as
    /// `DOMAIN\user`, `user@domain` or `user`: [`http_auth`](Self::http_auth) with
    /// [`HttpAuth::ntlm`](crate::transport::HttpAuth::ntlm). Feature `ntlm`.
    #[cfg(feature = "ntlm")]
    pub fn ntlm_auth(self, user: &str, password: &str) -> Self {
        self.http_auth(crate::transport::HttpAuth::ntlm(user, password))
    }

    /// Negotiate authentication (RFC 4559 §4: SPNEGO, RFC 4178, with NTLM of MS-NLMP as the
    /// mechanism, no Kerberos) on the default transport, `user` as `DOMAIN\user`,
    /// `user@domain` or `user`: [`http_auth`](Self::http_auth) with
    /// [`HttpAuth::negotiate`](crate::transport::HttpAuth::negotiate). The `mechListMIC`s of
    /// RFC 4178 §5 are sent and checked. A refused password, a server that rejects NTLM or a
    /// final token that does not verify is [`Error::Transport`] of kind
    /// [`Auth`](crate::error::TransportErrorKind::Auth). Feature `ntlm`.
    #[cfg(feature = "ntlm")]
    pub fn negotiate_auth(self, user: &str, password: &str) -> Self {
        self.http_auth(crate::transport::HttpAuth::negotiate(user, password))
    }

    /// A client certificate for servers that require TLS client authentication (mutual TLS,
    /// RFC 8446 §4.4.2), on the default transport; from PEM or PKCS#12, see
    /// [`ClientIdentity`](crate::transport::ClientIdentity).
    #[cfg(feature = "reqwest")]
    pub fn client_identity(self, identity: crate::transport::ClientIdentity) -> Self {
        self.transport_option("client_identity", |b| b.identity(identity))
    }

    /// Also trusts these CA certificates for server certificates (RFC 5280 §6.1.1), on the
    /// default transport; see [`TrustAnchors`](crate::transport::TrustAnchors).
    #[cfg(feature = "reqwest")]
    pub fn trust_anchors(self, anchors: crate::transport::TrustAnchors) -> Self {
        self.transport_option("trust_anchors", |b| b.trust_anchors(anchors))
    }

    /// Whether the default transport also trusts the built-in Mozilla roots (default `true`);
    /// `false` with [`trust_anchors`](Self::trust_anchors) trusts only those.
    #[cfg(feature = "reqwest")]
    pub fn built_in_roots(self, on: bool) -> Self {
        self.transport_option("built_in_roots", |b| b.built_in_roots(on))
    }

    /// Sets the default transport's TLS or authentication option `name` with `set`, noting it for
    /// [`build`](Self::build), which refuses it beside a custom [`transport`](Self::transport).
    #[cfg(feature = "reqwest")]
    fn transport_option(
        mut self,
        name: &'static str,
        set: impl FnOnce(
            crate::transport::ReqwestTransportBuilder,
        ) -> crate::transport::ReqwestTransportBuilder,
    ) -> Self {
        self.reqwest = set(self.reqwest);
        self.reqwest_options.push(name);
        self
    }

    /// Configures the default reqwest transport (cookies, gzip, proxies, TLS).
    #[cfg(feature = "reqwest")]
    pub fn reqwest(
        mut self,
        f: impl FnOnce(
            crate::transport::ReqwestTransportBuilder,
        ) -> crate::transport::ReqwestTransportBuilder,
    ) -> Self {
        self.reqwest = f(self.reqwest);
        self
    }

    /// Builds the client.
    ///
    /// # Errors
    ///
    /// [`Error::Transport`] if the endpoint is not an absolute URL (with the `reqwest` feature) or the
    /// default transport cannot be built (kind `Tls` for an unusable certificate); without the
    /// `reqwest` feature, if no transport was given. Kind `Request` when TLS or authentication
    /// options of the default transport were set together with a custom
    /// [`transport`](Self::transport) (they would not apply), or [`http_auth`](Self::http_auth)
    /// together with [`basic_auth`](Self::basic_auth).
    pub fn build(self) -> Result<Client, Error> {
        let endpoints = &self.settings.soap_headers.endpoints;
        for (what, a) in [
            ("wsa:ReplyTo address", &endpoints.reply_to),
            ("wsa:FaultTo address", &endpoints.fault_to),
        ] {
            if let Some(a) = a {
                crate::addressing::check_address(what, a)?;
            }
        }
        #[cfg(feature = "reqwest")]
        {
            let refuse = |message: String| {
                Err(Error::Transport(crate::error::TransportError::new(
                    crate::error::TransportErrorKind::Request,
                    self.endpoint.clone(),
                    message,
                    None,
                )))
            };
            if self.transport.is_some() && !self.reqwest_options.is_empty() {
                return refuse(format!(
                    "{} set for the default transport, but a custom transport was given: set \
                     them on that transport",
                    self.reqwest_options.join(", ")
                ));
            }
            if self.reqwest_options.contains(&"http_auth")
                && self
                    .settings
                    .headers
                    .iter()
                    .any(|(k, _)| k.eq_ignore_ascii_case("authorization"))
            {
                return refuse(
                    "an Authorization header (basic_auth or header) and http_auth are both set: \
                     choose one"
                        .to_owned(),
                );
            }
        }
        #[cfg(feature = "reqwest")]
        if let Err(e) = reqwest::Url::parse(&self.endpoint) {
            return Err(Error::Transport(crate::error::TransportError::new(
                crate::error::TransportErrorKind::Request,
                self.endpoint.clone(),
                format!("invalid endpoint URL: {e}"),
                None,
            )));
        }
        let transport = match self.transport {
            Some(t) => t,
            None => default_transport(
                #[cfg(feature = "reqwest")]
                self.reqwest,
            )?,
        };
        Ok(Client {
            inner: Arc::new(Inner {
                endpoint: self.endpoint,
                transport,
                settings: self.settings,
            }),
        })
    }
}

#[cfg(feature = "reqwest")]
fn default_transport(
    b: crate::transport::ReqwestTransportBuilder,
) -> Result<Arc<dyn Transport>, Error> {
    Ok(Arc::new(b.build()?))
}

#[cfg(not(feature = "reqwest"))]
fn default_transport() -> Result<Arc<dyn Transport>, Error> {
    Err(Error::Transport(crate::error::TransportError::new(
        crate::error::TransportErrorKind::Request,
        "",
        "no transport: enable the `reqwest` feature or call ClientBuilder::transport",
        None,
    )))
}

impl Client {
    /// Settings for a client of `endpoint`.
    pub fn builder(endpoint: impl Into<String>) -> ClientBuilder {
        ClientBuilder {
            endpoint: endpoint.into(),
            transport: None,
            settings: Settings::default(),
            #[cfg(feature = "reqwest")]
            reqwest: crate::transport::ReqwestTransport::builder(),
            #[cfg(feature = "reqwest")]
            reqwest_options: Vec::new(),
        }
    }

    /// A client of `endpoint` with default settings.
    ///
    /// # Errors
    ///
    /// As [`ClientBuilder::build`].
    pub fn new(endpoint: impl Into<String>) -> Result<Client, Error> {
        Self::builder(endpoint).build()
    }

    /// The same client (transport, settings) for another endpoint. O(1) apart from copying settings.
    pub fn with_endpoint(&self, endpoint: impl Into<String>) -> Client {
        self.with_settings(endpoint.into(), self.inner.settings.soap_headers.clone())
    }

    /// The same client (transport, settings) with `blocks` added to every request after its own
    /// header blocks (SOAP 1.1 §4.2, SOAP 1.2 Part 1 §5.2): for one call, or a few, with
    /// headers of their own (a session token, a tenant). O(1) apart from copying settings.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "reqwest")] {
    /// use soapgen_runtime::header::HeaderBlock;
    /// use soapgen_runtime::xml::Name;
    /// let client = soapgen_runtime::Client::new("http://127.0.0.1:8080/svc")?;
    /// let once = client.with_soap_headers([HeaderBlock::new("fr-CH", Name::new("urn:ctx", "Locale"))?]);
    /// # }
    /// # Ok::<(), soapgen_runtime::Error>(())
    /// ```
    pub fn with_soap_headers(
        &self,
        blocks: impl IntoIterator<Item = crate::header::HeaderBlock>,
    ) -> Client {
        let mut h = self.inner.settings.soap_headers.clone();
        h.blocks.extend(blocks);
        self.with_settings(self.inner.endpoint.clone(), h)
    }

    fn with_settings(
        &self,
        endpoint: String,
        soap_headers: crate::header::HeaderSettings,
    ) -> Client {
        let settings = Settings {
            soap_headers,
            ..self.inner.settings.clone()
        };
        Client {
            inner: Arc::new(Inner {
                endpoint,
                transport: self.inner.transport.clone(),
                settings,
            }),
        }
    }

    /// The endpoint URL.
    pub fn endpoint(&self) -> &str {
        &self.inner.endpoint
    }

    /// Starts a request envelope for `op`, with `namespaces` declared on the `Envelope`.
    ///
    /// # Errors
    ///
    /// Never in practice; see [`EnvelopeWriter`].
    pub fn envelope(
        &self,
        op: &Operation,
        namespaces: &[(&str, &str)],
    ) -> Result<EnvelopeWriter, EncodeError> {
        self.envelope_for(op, namespaces, &[])
    }

    /// [`envelope`](Self::envelope) for an operation whose description asks for WS-Addressing:
    /// `addressing` lists the SOAP versions whose bindings are addressed and how (empty: none;
    /// generated clients pass their `ADDRESSING`). The `Header` gets the WS-Security block (if
    /// configured), the WS-Addressing headers if the client's
    /// [`addressing`](ClientBuilder::addressing) mode resolves to a version (`wsa:Action` is the
    /// operation's action, `wsa:To` the endpoint), then the client's header blocks.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if the call is addressed and `op` has no action.
    pub fn envelope_for(
        &self,
        op: &Operation,
        namespaces: &[(&str, &str)],
        addressing: &[(SoapVersion, crate::addressing::AddressingVersion)],
    ) -> Result<EnvelopeWriter, EncodeError> {
        let mut w = XmlWriter::with_capacity(1024);
        w.set_mime_base64(self.inner.settings.mime_base64);
        w.set_mtom(self.inner.settings.mtom);
        let h = &self.inner.settings.soap_headers;
        let call = Outbound {
            op,
            endpoint: &self.inner.endpoint,
            described: addressing
                .iter()
                .find(|(s, _)| *s == op.version)
                .map(|(_, a)| *a),
            headers: h,
        };
        let layers = self.inner.settings.layers();
        // The layers' namespaces (`wsa` when addressed) declared once, on the Envelope, with
        // the operation's.
        let mut all = Vec::new();
        for (p, n) in layers.iter().filter_map(|l| l.namespace(&call)) {
            if !namespaces.iter().any(|(q, _)| *q == p) {
                if all.is_empty() {
                    all.extend_from_slice(namespaces);
                }
                all.push((p, n));
            }
        }
        let declared = if all.is_empty() { namespaces } else { &all };
        let mut env = EnvelopeWriter::with_writer(w, op.version, declared)?;
        env.set_default_namespaces(self.inner.settings.default_namespaces);
        for l in layers.iter() {
            l.outbound(&call, &mut env)?;
        }
        if !h.blocks.is_empty() {
            let version = env.version();
            let w = env.header_writer()?;
            for b in &h.blocks {
                b.write(w, version)?;
            }
        }
        Ok(env)
    }

    /// Sends `envelope` for `op` and decodes the response body's single child with `decode`.
    ///
    /// A response whose body holds a SOAP fault is [`Error::Fault`], whatever its HTTP status (SOAP
    /// 1.1 §6.2 uses 500, SOAP 1.2 Part 2 §7.5.2.2 uses 400 or 500); a response that is not a SOAP
    /// envelope (an HTML error page, an empty body) is [`Error::Http`] with status and an excerpt.
    ///
    /// # Errors
    ///
    /// Every variant of [`Error`]; see there.
    pub async fn call<T>(
        &self,
        op: &Operation,
        envelope: impl Into<RequestMessage>,
        decode: impl for<'i> FnOnce(&mut XmlReader<'i>, StartTag<'i>) -> Result<T, DecodeError>,
    ) -> Result<T, Error> {
        self.call_with_attachments(op, envelope, decode)
            .await
            .map(|(v, _)| v)
    }

    /// As [`call`](Self::call), also returning the response's attachments: the parts of a
    /// `multipart/related` response other than its root (none for a plain SOAP response), for the
    /// message parts a WSDL 1.1 §5 MIME binding binds to `mime:content` (find them with
    /// [`Attachments::find_part`]). The parts are slices of the response body: nothing is copied.
    ///
    /// # Errors
    ///
    /// As [`call`](Self::call).
    pub async fn call_with_attachments<T>(
        &self,
        op: &Operation,
        envelope: impl Into<RequestMessage>,
        decode: impl for<'i> FnOnce(&mut XmlReader<'i>, StartTag<'i>) -> Result<T, DecodeError>,
    ) -> Result<(T, Attachments), Error> {
        let message: RequestMessage = envelope.into();
        let addressed = message.addressed.clone();
        let signatures = message.signature_values.clone();
        let resp = self.exchange(op, message).await?;
        let sent = Sent {
            addressed: addressed.as_ref(),
            signature_values: &signatures,
        };
        let (content, attachments) = self.decode_envelope(op, &resp, sent, decode)?;
        match content {
            BodyContent::Payload(v) => Ok((v, attachments)),
            BodyContent::Empty => Err(Error::Decode(Box::new(DecodeError::new(
                crate::error::DecodeErrorKind::MissingElement(format!(
                    "response element of {}",
                    op.name
                )),
                crate::error::Location {
                    path: "Body".to_owned(),
                    ..Default::default()
                },
            )))),
        }
    }

    /// Sends `envelope` for a one-way operation (WSDL 1.1 §2.4.1): success is any 2xx with an empty
    /// body or an envelope with an empty `Body`; a fault is still reported.
    ///
    /// # Errors
    ///
    /// As [`call`](Self::call).
    pub async fn call_one_way(
        &self,
        op: &Operation,
        envelope: impl Into<RequestMessage>,
    ) -> Result<(), Error> {
        let message: RequestMessage = envelope.into();
        let addressed = message.addressed.clone();
        let signatures = message.signature_values.clone();
        let resp = self.exchange(op, message).await?;
        if (200..300).contains(&resp.status) && is_blank(&resp.body) {
            return Ok(());
        }
        let sent = Sent {
            addressed: addressed.as_ref(),
            signature_values: &signatures,
        };
        match self
            .decode_envelope(op, &resp, sent, |r, tag| Err(r.unexpected(&tag)))?
            .0
        {
            BodyContent::Empty => Ok(()),
            BodyContent::Payload(()) => Ok(()),
        }
    }

    /// Sends `message` for `op` and reads the whole HTTP response: the one non-generic exchange of
    /// every call.
    pub(crate) async fn exchange(
        &self,
        op: &Operation,
        message: impl Into<RequestMessage>,
    ) -> Result<HttpResponse, Error> {
        let inner = &*self.inner;
        let message: RequestMessage = message.into();
        let (mut content_type, soap_action) = op.version.http_headers(op.action);
        let mut headers = Vec::with_capacity(3 + inner.settings.headers.len());
        headers.push(("Content-Type".to_owned(), String::new()));
        if let Some(a) = soap_action {
            headers.push(("SOAPAction".to_owned(), a));
        }
        headers.push((
            "Accept".to_owned(),
            match op.version {
                SoapVersion::Soap11 => "text/xml, multipart/related",
                SoapVersion::Soap12 => "application/soap+xml, multipart/related",
            }
            .to_owned(),
        ));
        headers.extend(inner.settings.headers.iter().cloned());
        let span = tracing::debug_span!(
            "soap_call",
            operation = op.name,
            endpoint = %inner.endpoint,
            version = %op.version,
            status = tracing::field::Empty,
        );
        tracing::trace!(target: crate::wire::TARGET, parent: &span, request = %crate::wire::envelope(message.envelope.as_bytes()), attachments = message.attachments.len(), "request envelope");
        let body = if message.attachments.is_empty() {
            Bytes::from(message.envelope)
        } else {
            // The root part's type: the envelope's own media type (SOAP MTOM §3 / XOP §4.1, SwA §3).
            let (ct, body) = match message.packaging {
                Packaging::Mtom => crate::mime::write_mtom(&message, &content_type),
                Packaging::SwA => crate::mime::write_swa(&message, &content_type),
            };
            content_type = ct;
            body
        };
        headers[0].1 = content_type;
        let started = Instant::now();
        let request = HttpRequest {
            url: inner.endpoint.clone(),
            headers,
            body,
            max_response_bytes: inner.settings.max_response_bytes,
        };
        let resp = inner
            .transport
            .send(request)
            .instrument(span.clone())
            .await?;
        span.record("status", resp.status);
        tracing::debug!(
            parent: &span,
            status = resp.status,
            bytes = resp.body.len(),
            elapsed_us = started.elapsed().as_micros() as u64,
            "response received"
        );
        tracing::trace!(target: crate::wire::TARGET, parent: &span, response = %crate::wire::envelope(&resp.body), "response envelope");
        Ok(resp)
    }
}
