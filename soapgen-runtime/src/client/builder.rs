//! The settings of a client, set once: transport, HTTP authentication and TLS, reader limits,
//! how requests are written, SOAP header blocks, and the message layers of every call.

use std::sync::Arc;

use super::{Client, Inner, Settings, DEFAULT_MAX_RESPONSE_BYTES};
use crate::addressing::Addressing;
use crate::error::Error;
use crate::message::MessageLayer;
use crate::transport::Transport;
use crate::xml::Limits;

/// The message layers of every call, in the order they apply: WS-Security (which signs and
/// encrypts the message, so its block goes first in the `Header` and it finishes the message
/// last, WSS 1.1 §5), WS-Addressing, then the layers added with [`ClientBuilder::layer`]. A
/// protocol of the runtime registers here: a field, and the builder method that sets it.
#[derive(Debug, Default)]
struct Layers {
    security: Option<Arc<dyn MessageLayer>>,
    addressing: Addressing,
    added: Vec<Arc<dyn MessageLayer>>,
    /// Why a layer could not be set up (a credential missing): [`ClientBuilder::build`] fails
    /// with it.
    refused: Option<Error>,
    /// A port whose policy demands a TLS client certificate.
    #[cfg(feature = "wss")]
    client_certificate_for: Option<String>,
    /// A port whose policy has a transport binding: every address of a failover set must be
    /// `https://`.
    #[cfg(feature = "wss")]
    https_for: Option<String>,
}

impl Layers {
    fn list(self) -> Vec<Arc<dyn MessageLayer>> {
        let mut all = Vec::with_capacity(2 + self.added.len());
        all.extend(self.security);
        all.push(Arc::new(self.addressing));
        all.extend(self.added);
        all
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            headers: Vec::new(),
            limits: Limits::default(),
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            writer: Default::default(),
            soap_headers: Vec::new(),
            header_error: None,
            understood: Vec::new(),
            layers: Vec::new(),
            deadline: None,
            #[cfg(any(feature = "reqwest", feature = "hyper", feature = "blocking"))]
            retry: None,
            failover: None,
            attachment_store: None,
        }
    }
}

/// Settings for a [`Client`]. Consuming setters, as reqwest's `ClientBuilder`.
#[derive(Debug)]
#[must_use]
pub struct ClientBuilder {
    endpoint: String,
    transport: Option<Arc<dyn Transport>>,
    failover: Option<super::Failover>,
    settings: Settings,
    layers: Layers,
    #[cfg(feature = "reqwest")]
    reqwest: crate::transport::ReqwestTransportBuilder,
    /// The default transport's TLS and authentication options set, by method name: refused with
    /// a custom [`transport`](Self::transport), which would not apply them.
    #[cfg(feature = "reqwest")]
    reqwest_options: Vec<&'static str>,
}

impl ClientBuilder {
    /// Sends every request through `transport` instead of the default reqwest transport. The
    /// default transport's own settings (TLS, HTTP authentication,
    /// [`connect_timeout`](Self::connect_timeout), [`read_timeout`](Self::read_timeout)) do not
    /// apply to it: [`build`](Self::build) fails when one is set. [`timeout`](Self::timeout)
    /// holds around it.
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

    /// Writes the large MIME attachments of responses (MTOM/XOP, SwA; RFC 2387) to files as they
    /// arrive instead of holding them in memory: each part of at least the store's threshold
    /// goes to a new file in its directory (and so does any part longer than a quarter of
    /// `max_response_bytes`), and its bytes in the result are mapped from the
    /// file ([`AttachmentStore`](crate::mime::AttachmentStore),
    /// [`file_of`](crate::mime::file_of)). `max_response_bytes` then bounds what stays in
    /// memory (the envelope, part headers, small parts), the store each file; the
    /// [`timeout`](Self::timeout) covers the exchange up to the response's header fields and
    /// then each wait for the next chunk of the body, as a gigabyte may take minutes.
    pub fn attachment_store(mut self, store: crate::mime::AttachmentStore) -> Self {
        self.settings.attachment_store = Some(Arc::new(store));
        self
    }

    /// Write `base64Binary` values in 76-column MIME lines, for old servers that require them.
    pub fn mime_base64(mut self, on: bool) -> Self {
        self.settings.writer.mime_base64 = on;
        self
    }

    /// Writes request Body payloads with default-namespace declarations (`<Get xmlns="urn:x">
    /// <q>…</q></Get>`, `xmlns=""` on an unqualified child) instead of prefixes (`<tns:Get>`),
    /// for servers that do not resolve element prefixes; default `false`. The same expanded names
    /// either way (Namespaces in XML 1.0 §6.2); attributes and QName values keep prefixes, the
    /// Envelope, Header and header blocks too. A `#[soap_client(default_namespaces)]` trait, or
    /// a client generated with `default_namespaces`, turns it on for its own calls whatever this
    /// says. See [`XmlWriter::set_default_namespaces`](crate::xml::XmlWriter::set_default_namespaces).
    pub fn default_namespaces(mut self, on: bool) -> Self {
        self.settings.writer.default_namespaces = on;
        self
    }

    /// Sends requests with MTOM (SOAP MTOM §3, XOP 1.0): base64Binary values of at least
    /// `threshold` bytes travel as binary MIME attachments referenced by `xop:Include`, smaller ones
    /// inline; a request with no value that large is sent as plain XML. Off by default.
    /// Multipart/related responses (MTOM or SwA) are read whatever this setting.
    pub fn mtom(mut self, threshold: usize) -> Self {
        self.settings.writer.mtom = Some(threshold);
        self
    }

    /// A SOAP header block on every request (SOAP 1.1 §4.2, SOAP 1.2 Part 1 §5.2), after the
    /// WS-Security and WS-Addressing blocks and before the operation's own header parts. Blocks
    /// are sent in the order added; a block replaces one of the same element name added before.
    /// For one call only, see [`Client::with_soap_headers`].
    pub fn soap_header(mut self, block: crate::header::HeaderBlock) -> Self {
        crate::header::replace_blocks(&mut self.settings.soap_headers, vec![block]);
        self
    }

    /// `value` as the block of the declared header `header` on every request (WSDL 1.1 §3.7
    /// `soap:header`; generated clients carry one `DeclaredHeader` constant per header their
    /// WSDL declares), replacing one of the same element name set before. For one call, or
    /// a session's, see [`Client::with_header`].
    ///
    /// A value that cannot be written fails [`build`](Self::build) with its
    /// [`EncodeError`](crate::EncodeError) (as `Error::Encode`), naming the header.
    pub fn declared_header<T: crate::xml::ToXml>(
        mut self,
        header: crate::header::DeclaredHeader<T>,
        value: &T,
    ) -> Self {
        match crate::header::HeaderBlock::declared(header, value) {
            Ok(block) => {
                crate::header::replace_blocks(&mut self.settings.soap_headers, vec![block])
            }
            Err(e) => {
                self.settings.header_error.get_or_insert(e);
            }
        }
        self
    }

    /// Names a response header block `{namespace}local_name` the caller processes (reading it
    /// from [`Response::headers`](crate::header::Response::headers)), so that a
    /// `mustUnderstand` one does not fail the call with
    /// [`HeaderErrorKind::MustUnderstand`](crate::header::HeaderErrorKind::MustUnderstand)
    /// (SOAP 1.1 §4.2.3, SOAP 1.2 Part 1 §5.2.3).
    pub fn understood_header(mut self, namespace: &str, local_name: &str) -> Self {
        self.settings
            .understood
            .push((namespace.to_owned(), local_name.to_owned()));
        self
    }

    /// A message layer of every call (see [`crate::message`]): a protocol of your own on the
    /// SOAP message, after WS-Security and WS-Addressing and the layers added before it.
    pub fn layer(mut self, layer: impl MessageLayer) -> Self {
        self.layers.added.push(Arc::new(layer));
        self
    }

    /// The client's WS-Addressing (see [`crate::addressing`]): an [`Addressing`] or an
    /// [`AddressingMode`](crate::addressing::AddressingMode); by default calls are addressed as
    /// the generated client's description says, replies come on the HTTP response, and the
    /// reply's action is checked.
    pub fn addressing(mut self, addressing: impl Into<Addressing>) -> Self {
        self.layers.addressing = addressing.into();
        self
    }

    /// WS-Security for every call (feature `wss`): each request gets a `wsse:Security` header
    /// made from `cfg` (UsernameToken, Timestamp, signature, encryption; WSS 1.1 §5), first in
    /// the `Header`, and each response must meet its inbound policy, else
    /// [`Error::Security`]. See [`crate::wss`]. Replaces a
    /// [`security_policy`](Self::security_policy) given before, with what its credentials
    /// lacked (the HTTP authentication it set stays).
    #[cfg(feature = "wss")]
    pub fn wss(mut self, cfg: crate::wss::WssConfig) -> Self {
        self.layers.security = Some(Arc::new(cfg));
        self.layers.refused = None;
        self.layers.client_certificate_for = None;
        self.layers.https_for = None;
        self
    }

    /// WS-Security as a port's WS-SecurityPolicy demands (feature `wss`): `port` is the policy a
    /// generated client describes (`…Client::PORT_POLICIES`), `credentials` what the user
    /// supplies. Each operation's request is secured as its policy says and its response checked
    /// against it ([`crate::policy`]); HTTP authentication the policy's `sp:HttpsToken` demands
    /// is set from the credentials' username. Replaces [`wss`](Self::wss).
    ///
    /// A credential the policy needs and `credentials` lack, a transport binding at an `http://`
    /// endpoint, or a TLS client certificate the policy demands and
    /// [`client_identity`](Self::client_identity) did not give fails [`build`](Self::build) with
    /// [`Error::Security`] naming it.
    #[cfg(feature = "wss")]
    pub fn security_policy(
        mut self,
        port: &'static crate::policy::PortPolicy,
        credentials: crate::policy::Credentials,
    ) -> Self {
        match crate::policy::PolicyLayer::new(port, &credentials, &self.endpoint) {
            Ok(layer) => {
                if port.unaddressed {
                    let off = crate::addressing::AddressingMode::Off;
                    self.layers.addressing = std::mem::take(&mut self.layers.addressing).mode(off);
                }
                if layer.client_certificate() {
                    self.layers.client_certificate_for = Some(port.port.to_owned());
                }
                self.layers.https_for = layer.https_required().then(|| port.port.to_owned());
                let http = layer.http_authentication(&credentials);
                self.layers.security = Some(Arc::new(layer));
                match http {
                    Ok(Some((crate::policy::HttpAuthentication::Basic, user, password))) => {
                        self = self.basic_auth(&user, &password);
                    }
                    #[cfg(feature = "reqwest")]
                    Ok(Some((crate::policy::HttpAuthentication::Digest, user, password))) => {
                        self = self.digest_auth(&user, &password);
                    }
                    Ok(_) => {}
                    Err(e) => self.layers.refused = Some(Error::Security(Box::new(e))),
                }
            }
            Err(e) => self.layers.refused = Some(Error::Security(Box::new(e))),
        }
        self
    }

    /// The whole-exchange timeout of every call: from handing the request to the transport to
    /// the response's last byte (connecting, sending, waiting, reading), on every transport: the
    /// default one (also its own request timeout; default 60 s there), the hyper one, a custom
    /// [`transport`](Self::transport). When it expires the exchange is abandoned (its
    /// connection dropped) and the call fails with [`Error::Transport`] of kind
    /// [`Timeout`](crate::error::TransportErrorKind::Timeout). Nothing is retried.
    /// `Duration::ZERO` means no timeout at all (as JAX-WS's 0).
    #[cfg(any(feature = "reqwest", feature = "hyper", feature = "blocking"))]
    pub fn timeout(mut self, t: std::time::Duration) -> Self {
        let t = (!t.is_zero()).then_some(t);
        self.settings.deadline = t;
        #[cfg(feature = "reqwest")]
        {
            self.reqwest = self.reqwest.timeout(t);
        }
        self
    }

    /// Tries a call again as `retry` says (default: never, a SOAP call not being idempotent):
    /// after a connection that could not be made, a `502`/`503`/`504` (its `Retry-After`
    /// honoured), and, if asked, a timeout; each attempt a new exchange, with a fresh Timestamp,
    /// Nonce and MessageID from the message layers. See [`Retry`](super::Retry).
    #[cfg(any(feature = "reqwest", feature = "hyper", feature = "blocking"))]
    pub fn retry(mut self, retry: super::Retry) -> Self {
        self.settings.retry = Some(retry);
        self
    }

    /// Sends each call to the addresses of `set` as it says ([`Failover`](super::Failover):
    /// ordered or round-robin, the next one after a connection that could not be made, skipping
    /// for a while the ones that failed) instead of the builder's endpoint alone; the client's
    /// [`endpoint`](super::Client::endpoint) is then the set's first address. An empty set fails
    /// [`build`](Self::build) ([`TransportErrorKind::Request`](crate::error::TransportErrorKind)).
    pub fn failover(mut self, set: super::Failover) -> Self {
        self.failover = Some(set);
        self
    }

    /// Connect timeout of the default transport (default 10 s): a TCP and TLS connection not
    /// made in time fails the call with kind [`Timeout`](crate::error::TransportErrorKind::Timeout)
    /// or [`Connect`](crate::error::TransportErrorKind::Connect). With a custom
    /// [`transport`](Self::transport), which would not apply it, [`build`](Self::build) fails.
    /// `Duration::ZERO` means none.
    #[cfg(feature = "reqwest")]
    pub fn connect_timeout(self, t: std::time::Duration) -> Self {
        let t = (!t.is_zero()).then_some(t);
        self.transport_option("connect_timeout", |b| b.connect_timeout(t))
    }

    /// Sends every request of the default transport through `proxy` (HTTP, `CONNECT` for
    /// `https://` endpoints, Basic proxy authentication), instead of the proxies of
    /// `HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY` it uses by default. With a custom
    /// [`transport`](Self::transport) [`build`](Self::build) fails. An invalid proxy URL fails
    /// `build` with kind [`Request`](crate::error::TransportErrorKind::Request); a proxy that
    /// refuses the request answers it: a `407` without credentials is [`Error::Http`] for an
    /// `http://` endpoint, a transport error of kind
    /// [`Connect`](crate::error::TransportErrorKind::Connect) for an `https://` one (its
    /// tunnel refused). A proxy URL that is not `http://` or `https://` fails `build`.
    #[cfg(feature = "reqwest")]
    pub fn proxy(self, proxy: crate::transport::Proxy) -> Self {
        self.transport_option("proxy", |b| b.proxy(proxy))
    }

    /// Read timeout of the default transport (default none): within the body, no byte for `t`
    /// (an idle timer); before the body, the status line and headers not complete within `t`.
    /// Either fails the call with kind
    /// [`Timeout`](crate::error::TransportErrorKind::Timeout), however long the whole exchange
    /// may take. With a custom [`transport`](Self::transport) [`build`](Self::build) fails.
    /// `Duration::ZERO` means none.
    #[cfg(feature = "reqwest")]
    pub fn read_timeout(self, t: std::time::Duration) -> Self {
        let t = (!t.is_zero()).then_some(t);
        self.transport_option("read_timeout", |b| b.read_timeout(t))
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

    /// Kerberos authentication (RFC 4559 §4: Kerberos V5 inside SPNEGO) on the default
    /// transport, with credentials from a credential cache, a keytab or a password and the
    /// service principal `HTTP@host` of the endpoint unless set: [`http_auth`](Self::http_auth)
    /// with [`HttpAuth::kerberos`](crate::transport::HttpAuth::kerberos). The server's AP-REP
    /// is checked (mutual authentication). A failure is [`Error::Transport`] of kind
    /// [`Auth`](crate::error::TransportErrorKind::Auth) whose
    /// [`auth_error`](crate::Error::auth_error) says which (a wrong password, an expired
    /// ticket, an unknown service principal…). Feature `kerberos`.
    #[cfg(feature = "kerberos")]
    pub fn kerberos_auth(self, kerberos: crate::transport::Kerberos) -> Self {
        self.http_auth(crate::transport::HttpAuth::kerberos(kerberos))
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
    pub fn build(mut self) -> Result<Client, Error> {
        self.layers.addressing.check()?;
        if let Some(e) = self.layers.refused.take() {
            return Err(e);
        }
        if let Some(e) = self.settings.header_error.take() {
            return Err(Error::Encode(e));
        }
        #[cfg(all(feature = "reqwest", feature = "wss"))]
        if let Some(port) = &self.layers.client_certificate_for {
            if self.transport.is_none() && !self.reqwest_options.contains(&"client_identity") {
                return Err(Error::Security(Box::new(
                    crate::wss::WssError::MissingCredential {
                        port: port.clone(),
                        assertion: "sp:RequireClientCertificate",
                        credential: "a TLS client certificate (ClientBuilder::client_identity)",
                        also: Vec::new(),
                    },
                )));
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
        // The addresses calls go to: the failover set's when there is one.
        let addresses: Vec<&String> = match &self.failover {
            Some(set) if set.urls.is_empty() => {
                return Err(Error::Transport(crate::error::TransportError::new(
                    crate::error::TransportErrorKind::Request,
                    self.endpoint.clone(),
                    "a failover set without an address (ClientBuilder::failover)".to_owned(),
                    None,
                )));
            }
            Some(set) => set.urls.iter().collect(),
            None => vec![&self.endpoint],
        };
        for url in &addresses {
            #[cfg(feature = "reqwest")]
            let parsed = reqwest::Url::parse(url)
                .map_err(|e| e.to_string())
                .and_then(|u| match u.scheme() {
                    "http" | "https" => Ok(()),
                    other => Err(format!("the scheme {other}: is not http or https")),
                });
            #[cfg(not(feature = "reqwest"))]
            let parsed = Ok::<(), String>(());
            if let Err(e) = parsed {
                return Err(Error::Transport(crate::error::TransportError::new(
                    crate::error::TransportErrorKind::Request,
                    url.to_string(),
                    format!("invalid endpoint URL: {e}"),
                    None,
                )));
            }
            #[cfg(feature = "wss")]
            if let Some(port) = &self.layers.https_for {
                if !url
                    .get(..8)
                    .is_some_and(|s| s.eq_ignore_ascii_case("https://"))
                {
                    return Err(Error::Security(Box::new(
                        crate::wss::WssError::HttpsRequired {
                            port: port.clone(),
                            endpoint: url.to_string(),
                        },
                    )));
                }
            }
        }
        let transport = match self.transport {
            Some(t) => t,
            None => default_transport(
                #[cfg(feature = "reqwest")]
                self.reqwest,
            )?,
        };
        let mut settings = self.settings;
        settings.layers = self.layers.list();
        let mut endpoint = self.endpoint;
        if let Some(set) = self.failover {
            endpoint = set.urls[0].clone(); // not empty: checked above
            settings.failover = Some(Arc::new(super::failover::Endpoints::new(set)));
        }
        Ok(Client {
            inner: Arc::new(Inner {
                endpoint,
                transport,
                settings,
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

impl ClientBuilder {
    pub(super) fn new(endpoint: String) -> Self {
        ClientBuilder {
            endpoint,
            transport: None,
            failover: None,
            settings: Settings::default(),
            layers: Layers::default(),
            #[cfg(feature = "reqwest")]
            reqwest: crate::transport::ReqwestTransport::builder(),
            #[cfg(feature = "reqwest")]
            reqwest_options: Vec::new(),
        }
    }
}
