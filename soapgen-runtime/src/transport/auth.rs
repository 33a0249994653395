//! HTTP authentication schemes that answer a challenge (RFC 9110 §11): Digest (RFC 7616) and, with
//! the `ntlm` feature, NTLM (MS-NLMP, framed as RFC 4559 §4) and Negotiate (RFC 4559 §4: SPNEGO,
//! RFC 4178, with NTLM as the mechanism), independent of any HTTP library.
//!
//! A transport drives one [`Handshake`] per request: it sends the request with
//! [`Handshake::authorization`] (if any) in the `Authorization` header; on a `401` it hands the
//! response's `WWW-Authenticate` values to [`Handshake::unauthorized`], which either gives the next
//! `Authorization` to resend with, or the [`AuthError`] that ends the call; on any other status it
//! hands them to [`Handshake::accepted`], which checks a server's final token (Negotiate's
//! `mechListMIC`, RFC 4559 §4.1) before the response is used. The reqwest transport
//! does this for you ([`ReqwestTransportBuilder::auth`](super::ReqwestTransportBuilder::auth));
//! `soapgen fetch` uses the same code for its GETs.
//!
//! Digest state (the server's nonce and the nonce count, RFC 7616 §3.4) is kept per origin in the
//! [`Authenticator`] between requests, so calls after the first send their credentials at once
//! and take one round trip. NTLM and Negotiate authenticate a *connection*, not a request: their
//! handshake must run on one keep-alive connection, which the transport guarantees (see
//! [`HttpAuth::is_connection_bound`]).

use std::collections::HashMap;
use std::fmt;
use std::sync::Mutex;

/// The credentials and scheme the transport answers `401` challenges with.
///
/// Debug output never shows the password.
#[derive(Clone)]
#[non_exhaustive]
pub enum HttpAuth {
    /// HTTP Digest (RFC 7616): MD5, SHA-256 and SHA-512-256 (and their `-sess` variants, §3.4.2),
    /// `qop=auth` (§3.4.3), the nonce count `nc` incremented per request on one nonce (§3.4), a
    /// challenge marked `stale=true` (§3.3) answered once more with the new nonce. The first
    /// `Digest` challenge of the server's list that names a supported algorithm is used
    /// (§3.7: a server lists its preferred algorithm first). Credentials are only sent after a challenge.
    Digest {
        /// The user name (`username`, §3.4; sent as `username*` in RFC 8187 form when it cannot
        /// be a quoted string).
        user: String,
        /// The password (it never leaves this process: only a hash of it is sent).
        password: String,
    },
    /// NTLM (MS-NLMP, NTLMv2 responses) over HTTP's `NTLM` scheme, as IIS, Exchange and
    /// SharePoint use it: three legs (NEGOTIATE, CHALLENGE, AUTHENTICATE, MS-NLMP §3.1.5) on one
    /// keep-alive connection. Feature `ntlm` (the `sspi` crate).
    #[cfg(feature = "ntlm")]
    Ntlm {
        /// `DOMAIN\user`, `user@domain` (UPN) or a plain user name.
        user: String,
        /// The password.
        password: String,
    },
    /// SPNEGO (RFC 4178) over HTTP's `Negotiate` scheme (RFC 4559 §4), as IIS and Exchange offer
    /// it, with NTLM (MS-NLMP, NTLMv2) as the only mechanism offered: a `NegTokenInit` with
    /// `mechTypes` `[NTLMSSP]` carrying NEGOTIATE, the server's `NegTokenResp` with CHALLENGE, a
    /// `NegTokenResp` with AUTHENTICATE and the `mechListMIC` (RFC 4178 §5: the NTLM signature of
    /// the DER of `mechTypes`, MS-NLMP §3.4.4.2), and the server's `mechListMIC` on the final
    /// `200` checked when sent (RFC 4559 §4.1). No Kerberos ticket cache or KDC is used. Same
    /// connection rule as [`HttpAuth::Ntlm`]. Feature `ntlm` (the `sspi` crate for NTLM,
    /// `picky-krb`'s ASN.1 types for SPNEGO).
    #[cfg(feature = "ntlm")]
    Negotiate {
        /// `DOMAIN\user`, `user@domain` (UPN) or a plain user name.
        user: String,
        /// The password.
        password: String,
    },
    /// Kerberos V5 (RFC 4120, RFC 4121) inside SPNEGO (RFC 4178) over HTTP's `Negotiate`
    /// scheme (RFC 4559 §4): an AP-REQ for the service in a `NegTokenInit` offering Kerberos, the
    /// server's AP-REP in its final token checked (mutual authentication). Credentials from a
    /// credential cache, a keytab or a password ([`KerberosCredentials`](super::KerberosCredentials)).
    /// It authenticates each request, not a connection: after an origin first accepts it, later
    /// requests carry a fresh AP-REQ at once and take one round trip. Feature `kerberos` (the
    /// system's GSS-API library, MIT krb5, by the `libgssapi` crate).
    #[cfg(feature = "kerberos")]
    Kerberos(super::Kerberos),
}

impl fmt::Debug for HttpAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        #[cfg(feature = "kerberos")]
        if let HttpAuth::Kerberos(k) = self {
            return f.debug_tuple("HttpAuth").field(k).finish();
        }
        let (scheme, user) = self.scheme_and_user();
        f.debug_struct("HttpAuth")
            .field("scheme", &scheme)
            .field("user", &user)
            .field("password", &"<redacted>")
            .finish()
    }
}

impl HttpAuth {
    /// HTTP Digest (RFC 7616) with `user` and `password`.
    pub fn digest(user: impl Into<String>, password: impl Into<String>) -> Self {
        HttpAuth::Digest {
            user: user.into(),
            password: password.into(),
        }
    }

    /// NTLM (MS-NLMP) with `user` (`DOMAIN\user`, `user@domain` or `user`) and `password`.
    #[cfg(feature = "ntlm")]
    pub fn ntlm(user: impl Into<String>, password: impl Into<String>) -> Self {
        HttpAuth::Ntlm {
            user: user.into(),
            password: password.into(),
        }
    }

    /// Negotiate (RFC 4559 §4; SPNEGO, RFC 4178, with NTLM, MS-NLMP) with `user`
    /// (`DOMAIN\user`, `user@domain` or `user`) and `password`. See [`HttpAuth::Negotiate`].
    #[cfg(feature = "ntlm")]
    pub fn negotiate(user: impl Into<String>, password: impl Into<String>) -> Self {
        HttpAuth::Negotiate {
            user: user.into(),
            password: password.into(),
        }
    }

    /// Kerberos in SPNEGO over `Negotiate` (RFC 4559 §4) with `kerberos`'s credentials and
    /// settings. See [`HttpAuth::Kerberos`].
    #[cfg(feature = "kerberos")]
    pub fn kerberos(kerberos: super::Kerberos) -> Self {
        HttpAuth::Kerberos(kerberos)
    }

    /// The scheme's name as HTTP writes it (`Digest`, `NTLM`, `Negotiate`) and the user name
    /// (for Kerberos, the client principal, `""` when it is a credential cache's).
    pub fn scheme_and_user(&self) -> (&'static str, &str) {
        match self {
            HttpAuth::Digest { user, .. } => ("Digest", user),
            #[cfg(feature = "ntlm")]
            HttpAuth::Ntlm { user, .. } => ("NTLM", user),
            #[cfg(feature = "ntlm")]
            HttpAuth::Negotiate { user, .. } => ("Negotiate", user),
            #[cfg(feature = "kerberos")]
            HttpAuth::Kerberos(k) => ("Negotiate", k.principal()),
        }
    }

    /// Whether the scheme binds its token to the TLS server certificate (Kerberos: RFC 5929
    /// `tls-server-end-point`), so that a transport hands it to
    /// [`Handshake::tls_server_certificate`] and asks its TLS layer to keep it.
    pub fn uses_channel_bindings(&self) -> bool {
        #[cfg(feature = "kerberos")]
        if matches!(self, HttpAuth::Kerberos(_)) {
            return true;
        }
        false
    }

    /// Whether the scheme authenticates the connection rather than each request (NTLM and
    /// Negotiate, RFC 4559 §6): its legs must travel on one keep-alive connection, so a transport
    /// serialises such requests over a single pooled HTTP/1.1 connection.
    pub fn is_connection_bound(&self) -> bool {
        match self {
            HttpAuth::Digest { .. } => false,
            #[cfg(feature = "ntlm")]
            HttpAuth::Ntlm { .. } | HttpAuth::Negotiate { .. } => true,
            #[cfg(feature = "kerberos")]
            HttpAuth::Kerberos(_) => false,
        }
    }
}

/// Why authentication failed: the server refused the credentials, its challenge could not be
/// answered, or (Kerberos) the client's own credentials could not give a ticket. Transports
/// report it as a [`TransportErrorKind::Auth`](crate::error::TransportErrorKind::Auth) error,
/// whose source it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthError {
    /// The scheme that was tried (`Digest`, `NTLM`, `Negotiate`).
    pub scheme: &'static str,
    /// What kind of failure it is, for code that reacts to it.
    pub kind: AuthErrorKind,
    /// What happened, naming the user and realm (never the password).
    pub message: String,
}

impl AuthError {
    /// An error of `kind` for `scheme`, explained by `message`.
    pub fn new(scheme: &'static str, kind: AuthErrorKind, message: impl Into<String>) -> Self {
        AuthError {
            scheme,
            kind,
            message: message.into(),
        }
    }
}

/// The kind of an [`AuthError`]. The Kerberos kinds follow the KDC's and the GSS-API's error codes
/// (RFC 4120 §7.5.9, RFC 2743 §1.2.1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthErrorKind {
    /// The server (or proxy) refused what it was sent: a wrong user name or password (Digest,
    /// NTLM), a Kerberos ticket it cannot accept (for a service principal whose key it does not
    /// hold, or an authenticator it takes for a replay).
    Refused,
    /// The challenge could not be answered: no challenge of the configured scheme, one that
    /// cannot be parsed or uses what is not supported, a mechanism the server rejects, or more
    /// challenges than the scheme needs.
    Challenge,
    /// The KDC refused the client's own credentials: a wrong password or keytab key
    /// (`KDC_ERR_PREAUTH_FAILED`, `KRB_AP_ERR_BAD_INTEGRITY`), a client principal it does not
    /// know (`KDC_ERR_C_PRINCIPAL_UNKNOWN`) or has revoked.
    CredentialsRejected,
    /// There were no credentials to use: no credential cache or one without tickets, no key of
    /// the principal in the keytab, a user name that cannot be parsed.
    CredentialsUnavailable,
    /// The credentials expired: a ticket past its end time (`KRB_AP_ERR_TKT_EXPIRED`,
    /// `GSS_S_CREDENTIALS_EXPIRED`), a password past its expiry (`KDC_ERR_KEY_EXP`). A credential
    /// cache needs a new `kinit`; passwords and keytabs are used again by themselves.
    CredentialsExpired,
    /// The KDC knows no such service principal (`KDC_ERR_S_PRINCIPAL_UNKNOWN`): a wrong SPN, or
    /// a host name that is not the one the service is registered under.
    UnknownService,
    /// The server's proof of its identity did not verify or was missing: the Kerberos AP-REP of
    /// mutual authentication (RFC 4121 §4.1), a SPNEGO `mechListMIC` (RFC 4178 §5).
    MutualAuthentication,
    /// The KDC could not be reached or used: no KDC for the realm, clocks too far apart
    /// (`KRB_AP_ERR_SKEW`), a configuration that cannot be read.
    Kdc,
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HTTP {} authentication: {}", self.scheme, self.message)
    }
}

impl std::error::Error for AuthError {}

/// Who asks for the credentials: the origin server (RFC 9110 §11.6: status `401`,
/// `WWW-Authenticate`, `Authorization`) or a proxy on the way (RFC 9110 §11.7: status `407`,
/// `Proxy-Authenticate`, `Proxy-Authorization`). The schemes are the same for both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Challenger {
    /// The server the request is for.
    Server,
    /// A proxy the request goes through.
    Proxy,
}

impl Challenger {
    /// The status of a challenge: `401` (server) or `407` (proxy).
    pub fn status(self) -> u16 {
        match self {
            Challenger::Server => 401,
            Challenger::Proxy => 407,
        }
    }

    /// The response field that carries challenges, lowercase: `www-authenticate` or
    /// `proxy-authenticate`.
    pub fn challenge_field(self) -> &'static str {
        match self {
            Challenger::Server => "www-authenticate",
            Challenger::Proxy => "proxy-authenticate",
        }
    }

    /// The request field that carries credentials: `Authorization` or `Proxy-Authorization`.
    pub fn credentials_field(self) -> &'static str {
        match self {
            Challenger::Server => "Authorization",
            Challenger::Proxy => "Proxy-Authorization",
        }
    }

    /// `server` or `proxy`, for messages.
    pub(crate) fn who(self) -> &'static str {
        match self {
            Challenger::Server => "server",
            Challenger::Proxy => "proxy",
        }
    }
}

/// The shared state of one [`HttpAuth`] across requests: for Digest, the last challenge of each
/// origin (`scheme://host:port`, or the proxy's) with its nonce count. Thread-safe; one per
/// transport and [`Challenger`].
pub struct Authenticator {
    auth: HttpAuth,
    challenger: Challenger,
    digest: Mutex<HashMap<String, http_auth::DigestClient>>,
    /// Kerberos: the credentials once acquired, and the origins that accepted a ticket.
    #[cfg(feature = "kerberos")]
    kerberos: KerberosState,
}

#[cfg(feature = "kerberos")]
#[derive(Default)]
struct KerberosState {
    cred: Mutex<Option<libgssapi::credential::Cred>>,
    /// Each origin that accepted a ticket.
    origins: Mutex<HashMap<String, KnownOrigin>>,
}

/// What a Kerberos client knows of an origin that accepted its ticket.
#[cfg(feature = "kerberos")]
#[derive(Default, Clone)]
struct KnownOrigin {
    /// The channel bindings the ticket was sent with (the origin's TLS certificate's).
    bindings: Option<Vec<u8>>,
    /// Whether its AP-REP verified once (mutual authentication).
    verified: bool,
}

impl fmt::Debug for Authenticator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Authenticator")
            .field("auth", &self.auth)
            .field("challenger", &self.challenger)
            .finish_non_exhaustive()
    }
}

/// How many `401` answers one request may get before it fails: Digest needs one (the first
/// challenge) plus one for a stale nonce; NTLM's and Negotiate's handshake two (an empty
/// challenge, then CHALLENGE).
const MAX_CHALLENGES: usize = 3;

impl Authenticator {
    /// State for `auth`, answering a server's `401` challenges.
    pub fn new(auth: HttpAuth) -> Self {
        Authenticator {
            auth,
            challenger: Challenger::Server,
            digest: Mutex::new(HashMap::new()),
            #[cfg(feature = "kerberos")]
            kerberos: KerberosState::default(),
        }
    }

    /// State for `auth`, answering a proxy's `407` challenges (RFC 9110 §11.7); start each
    /// request's handshake with [`start_proxy`](Self::start_proxy).
    pub fn for_proxy(auth: HttpAuth) -> Self {
        Authenticator {
            challenger: Challenger::Proxy,
            ..Self::new(auth)
        }
    }

    /// Whom this state answers.
    pub fn challenger(&self) -> Challenger {
        self.challenger
    }

    /// The configured scheme and credentials.
    pub fn auth(&self) -> &HttpAuth {
        &self.auth
    }

    /// Starts the authentication of one request: `method` (`POST`, `GET`) to `url` (absolute).
    /// With a Digest challenge already known for the URL's origin, the first
    /// [`authorization`](Handshake::authorization) answers it (next nonce count); otherwise the
    /// request goes out without credentials and waits for a challenge.
    pub fn start(&self, method: &str, url: &str) -> Handshake<'_> {
        let (origin, target) = split_url(url);
        self.begin(method, origin, target)
    }

    /// Starts the authentication of one request to the proxy at `proxy_url` (`http://host:port`,
    /// whose host names Negotiate's target `HTTP/host`): `method` with request-target `target`,
    /// the absolute URL of a request the proxy forwards (RFC 9112 §3.2.2) or `host:port` of a
    /// `CONNECT` (§3.2.3), which a Digest response covers.
    pub fn start_proxy(&self, method: &str, proxy_url: &str, target: &str) -> Handshake<'_> {
        let (origin, _) = split_url(proxy_url);
        self.begin(method, origin, target.to_owned())
    }

    fn begin(&self, method: &str, origin: String, target: String) -> Handshake<'_> {
        let mut hs = Handshake {
            auth: self,
            method: method.to_owned(),
            origin,
            target,
            header: None,
            challenges: 0,
            preemptive: false,
            stale_retried: false,
            #[cfg(feature = "ntlm")]
            sspi: None,
            #[cfg(feature = "kerberos")]
            gss: None,
            #[cfg(feature = "kerberos")]
            channel_bindings: None,
        };
        #[cfg(feature = "kerberos")]
        if let HttpAuth::Kerberos(k) = &self.auth {
            let known = lock(&self.kerberos.origins)
                .get(&hs.origin)
                .map(|o| o.bindings.clone());
            // An origin that accepted a ticket gets one at once (RFC 4559 §4: a client may send
            // its token without waiting for a challenge), bound to the certificate it showed
            // then; a failure here waits for the 401.
            if let Some(bindings) = known {
                hs.channel_bindings = bindings;
                if let Ok((mut ctx, header)) =
                    self.kerberos_context(k, &hs.origin, hs.channel_bindings.as_deref())
                {
                    ctx.preemptive = true;
                    hs.gss = Some(ctx);
                    hs.header = Some(header);
                }
            }
        }
        // Irrefutable without the `ntlm` feature.
        #[allow(irrefutable_let_patterns)]
        if let HttpAuth::Digest { user, password } = &self.auth {
            let mut cache = lock(&self.digest);
            if let Some(client) = cache.get_mut(&hs.origin) {
                match respond_digest(client, user, password, &hs.method, &hs.target) {
                    Ok(h) => {
                        hs.header = Some(h);
                        hs.preemptive = true;
                    }
                    Err(_) => {
                        cache.remove(&hs.origin);
                    }
                }
            }
        }
        hs
    }

    /// A Kerberos context for `origin` with the cached credentials (acquired on first use, and
    /// again once when a keytab's or password's have expired).
    #[cfg(feature = "kerberos")]
    fn kerberos_context(
        &self,
        k: &super::Kerberos,
        origin: &str,
        channel_bindings: Option<&[u8]>,
    ) -> Result<(super::kerberos::GssContext, String), AuthError> {
        let cred = |fresh: bool| -> Result<libgssapi::credential::Cred, AuthError> {
            let mut slot = lock(&self.kerberos.cred);
            match slot.as_ref() {
                Some(c) if !fresh => Ok(c.clone()),
                _ => {
                    let c = super::kerberos::acquire(k)?;
                    *slot = Some(c.clone());
                    Ok(c)
                }
            }
        };
        let start =
            |c| super::kerberos::GssContext::start(k, c, self.challenger, origin, channel_bindings);
        match start(cred(false)?) {
            Err(e) if super::kerberos::is_expired(&e) && k.renewable() => start(cred(true)?),
            r => r,
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The host of an origin `scheme://host[:port]`, without brackets for an IPv6 literal: the
/// host Negotiate's service principal names (`HTTP/host`, RFC 4559 §4).
#[cfg(any(feature = "ntlm", feature = "kerberos"))]
pub(crate) fn origin_host(origin: &str) -> &str {
    let authority = origin.split_once("://").map_or(origin, |(_, a)| a);
    let authority = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split_once(']').map_or(rest, |(h, _)| h);
    }
    authority.split_once(':').map_or(authority, |(h, _)| h)
}

/// The authentication of one request (see the [module docs](self)).
pub struct Handshake<'a> {
    auth: &'a Authenticator,
    method: String,
    origin: String,
    target: String,
    header: Option<String>,
    challenges: usize,
    /// The header answers a remembered challenge, not one of this request.
    preemptive: bool,
    stale_retried: bool,
    #[cfg(feature = "ntlm")]
    sspi: Option<super::ntlm::SspiContext>,
    #[cfg(feature = "kerberos")]
    gss: Option<super::kerberos::GssContext>,
    /// RFC 5929 `tls-server-end-point` bindings of the server's certificate, for Kerberos.
    #[cfg(feature = "kerberos")]
    channel_bindings: Option<Vec<u8>>,
}

impl fmt::Debug for Handshake<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Handshake")
            .field("method", &self.method)
            .field("origin", &self.origin)
            .field("target", &self.target)
            .field("challenges", &self.challenges)
            .finish_non_exhaustive()
    }
}

impl Handshake<'_> {
    /// The `Authorization` (or, for a proxy, `Proxy-Authorization`) value for the next send of
    /// the request, if any.
    pub fn authorization(&self) -> Option<&str> {
        self.header.as_deref()
    }

    /// The TLS server certificate (DER) of the connection the request went over, for a
    /// transport that has it (call it before [`unauthorized`](Self::unauthorized)): Kerberos
    /// binds its AP-REQ to it (RFC 5929 §4 `tls-server-end-point`, RFC 4121 §4.1.1.2), as
    /// servers with Windows' Extended Protection require. Other schemes ignore it.
    pub fn tls_server_certificate(&mut self, der: &[u8]) {
        #[cfg(feature = "kerberos")]
        if matches!(self.auth.auth, HttpAuth::Kerberos(_)) {
            self.channel_bindings = super::kerberos::tls_server_end_point(der);
        }
        let _ = der;
    }

    /// The request got a `401` whose `WWW-Authenticate` field values are `challenges` (one entry
    /// per header line; each may list several challenges, RFC 9110 §11.6.1); for a proxy, a
    /// `407` and its `Proxy-Authenticate` values (§11.7.1). Prepares the next
    /// [`authorization`](Self::authorization): send the request again with it.
    ///
    /// # Errors
    ///
    /// [`AuthError`] when the server refused the credentials (a fresh challenge right after an
    /// answer to one: wrong user name or password), offers no challenge of the configured
    /// scheme, sends one that cannot be parsed or answered (an unknown Digest algorithm, no
    /// `qop=auth`), or challenges more often than the scheme needs.
    pub fn unauthorized(&mut self, challenges: &[&str]) -> Result<(), AuthError> {
        self.challenges += 1;
        let (scheme, user) = self.auth.auth.scheme_and_user();
        let challenger = self.auth.challenger;
        if self.challenges > MAX_CHALLENGES {
            return Err(AuthError::new(
                scheme,
                AuthErrorKind::Challenge,
                format!(
                    "the {} answered {} {} times to user '{user}'; giving up",
                    challenger.who(),
                    challenger.status(),
                    self.challenges
                ),
            ));
        }
        match &self.auth.auth {
            HttpAuth::Digest { user, password } => self.digest(challenges, user, password),
            #[cfg(feature = "ntlm")]
            HttpAuth::Ntlm { user, password } | HttpAuth::Negotiate { user, password } => {
                let spnego = matches!(self.auth.auth, HttpAuth::Negotiate { .. });
                let ctx = match self.sspi.as_mut() {
                    Some(c) => c,
                    None => self.sspi.insert(super::ntlm::SspiContext::new(
                        scheme,
                        challenger,
                        spnego,
                        user,
                        password,
                        &self.origin,
                    )?),
                };
                self.header = Some(ctx.step(challenges)?);
                Ok(())
            }
            #[cfg(feature = "kerberos")]
            HttpAuth::Kerberos(k) => self.kerberos(k, challenges),
        }
    }

    /// Kerberos: the first challenge starts the context (its AP-REQ); a later one is its next
    /// leg, or the refusal of the ticket. A refused ticket sent before any challenge (a
    /// remembered origin) is sent again once in answer to the challenge.
    #[cfg(feature = "kerberos")]
    fn kerberos(&mut self, k: &super::Kerberos, challenges: &[&str]) -> Result<(), AuthError> {
        let Some(token) = super::spnego::find_token("Negotiate", challenges) else {
            return Err(AuthError::new(
                "Negotiate",
                AuthErrorKind::Challenge,
                format!(
                    "the {} offers no Negotiate challenge (RFC 4559 §4); it offers: {}",
                    self.auth.challenger.who(),
                    offered_schemes(challenges)
                ),
            ));
        };
        let restart = match &self.gss {
            None => true,
            Some(ctx) => ctx.preemptive && token.is_empty(),
        };
        if restart {
            let (ctx, header) =
                self.auth
                    .kerberos_context(k, &self.origin, self.channel_bindings.as_deref())?;
            self.gss = Some(ctx);
            self.header = Some(header);
            return Ok(());
        }
        if let Some(ctx) = self.gss.as_mut() {
            self.header = Some(ctx.step(challenges)?);
        }
        Ok(())
    }

    /// The request got a response other than `401` (a proxy's: other than `407`), whose
    /// `WWW-Authenticate` (`Proxy-Authenticate`) field values are `challenges`; call it before
    /// using the response. After a Negotiate handshake, a final
    /// SPNEGO token there (RFC 4559 §4.1) is checked: its `negState` must be accept-completed and
    /// its `mechListMIC` the server's NTLM signature of the offered `mechTypes` (RFC 4178 §5).
    /// After a Kerberos AP-REQ, the final token must carry the AP-REP that proves the server
    /// (unless [`Kerberos::mutual`](super::Kerberos::mutual) is off). Without a final token,
    /// and for the other schemes, it does nothing.
    ///
    /// # Errors
    ///
    /// [`AuthError`] when the final token is not base64 or not a SPNEGO `NegTokenResp`, does not
    /// complete the negotiation, or its `mechListMIC` does not verify.
    pub fn accepted(&mut self, challenges: &[&str]) -> Result<(), AuthError> {
        #[cfg(feature = "ntlm")]
        if let Some(ctx) = self.sspi.as_mut() {
            return ctx.accepted(challenges);
        }
        #[cfg(feature = "kerberos")]
        if let Some(ctx) = self.gss.as_mut() {
            let verified = lock(&self.auth.kerberos.origins)
                .get(&self.origin)
                .is_some_and(|o| o.verified);
            let proved = ctx.accepted(challenges, verified)?;
            let mut origins = lock(&self.auth.kerberos.origins);
            let known = origins.entry(self.origin.clone()).or_default();
            known.bindings = self.channel_bindings.clone();
            known.verified |= proved;
            return Ok(());
        }
        let _ = challenges;
        Ok(())
    }

    fn digest(&mut self, challenges: &[&str], user: &str, password: &str) -> Result<(), AuthError> {
        let err = |message: String| AuthError::new("Digest", AuthErrorKind::Challenge, message);
        let who = self.auth.challenger.who();
        let mut client = None;
        let mut problems = Vec::new();
        for value in challenges {
            let parsed = match http_auth::parse_challenges(value) {
                Ok(p) => p,
                Err(e) => {
                    problems.push(format!(
                        "unreadable {} {value:?}: {e}",
                        self.auth.challenger.challenge_field()
                    ));
                    continue;
                }
            };
            for c in parsed
                .iter()
                .filter(|c| c.scheme.eq_ignore_ascii_case("Digest"))
            {
                match http_auth::DigestClient::try_from(c) {
                    Ok(d) => {
                        client = Some(d);
                        break;
                    }
                    Err(e) => problems.push(format!("Digest challenge not usable: {e}")),
                }
            }
            if client.is_some() {
                break;
            }
        }
        let Some(mut client) = client else {
            let offered = offered_schemes(challenges);
            return Err(err(if problems.is_empty() {
                format!(
                    "the {who} offers no Digest challenge (RFC 7616 §3.3); it offers: {offered}"
                )
            } else {
                problems.join("; ")
            }));
        };
        let realm = client.realm().to_owned();
        if self.header.is_some() {
            // A challenge in answer to our credentials.
            if client.stale() && !self.stale_retried {
                // §3.3: the nonce expired, the credentials were right: once more, new nonce.
                self.stale_retried = true;
            } else if self.preemptive {
                // A remembered nonce the server no longer knows (not every server says stale).
                self.preemptive = false;
            } else {
                self.forget();
                return Err(AuthError::new(
                    "Digest",
                    AuthErrorKind::Refused,
                    format!(
                        "the {who} refused user '{user}' in realm '{realm}' ({} to the answer of \
                     its own challenge: wrong user name or password)",
                        self.auth.challenger.status()
                    ),
                ));
            }
        }
        let header = respond_digest(&mut client, user, password, &self.method, &self.target)
            .map_err(|e| {
                err(format!(
                    "cannot answer the challenge of realm {realm:?}: {e}"
                ))
            })?;
        self.header = Some(header);
        let mut cache = lock(&self.auth.digest);
        cache.insert(self.origin.clone(), client);
        Ok(())
    }

    fn forget(&self) {
        let mut cache = lock(&self.auth.digest);
        cache.remove(&self.origin);
    }
}

fn respond_digest(
    client: &mut http_auth::DigestClient,
    user: &str,
    password: &str,
    method: &str,
    target: &str,
) -> Result<String, String> {
    client.respond(&http_auth::PasswordParams {
        username: user,
        password,
        uri: target,
        method,
        body: None,
    })
}

/// The schemes named in `challenges`, for an error message.
pub(crate) fn offered_schemes(challenges: &[&str]) -> String {
    let mut names: Vec<String> = Vec::new();
    for v in challenges {
        match http_auth::parse_challenges(v) {
            Ok(p) => names.extend(p.iter().map(|c| c.scheme.to_owned())),
            Err(_) => names.push(format!("{v:?}")),
        }
    }
    if names.is_empty() {
        "nothing (no challenge field)".to_owned()
    } else {
        names.join(", ")
    }
}

/// `(origin, request-target)` of an absolute URL: `http://h:1/a?b` gives `("http://h:1", "/a?b")`
/// (RFC 9112 §3.2.1 origin-form, the `uri` a Digest response covers, RFC 7616 §3.4).
fn split_url(url: &str) -> (String, String) {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let rest = &url[after_scheme..];
    let path_start = rest.find(['/', '?']).unwrap_or(rest.len());
    let origin = url[..after_scheme + path_start].to_ascii_lowercase();
    let mut target = rest[path_start..].to_owned();
    if let Some(i) = target.find('#') {
        target.truncate(i);
    }
    if !target.starts_with('/') {
        target.insert(0, '/');
    }
    (origin, target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_url_gives_origin_and_target() {
        assert_eq!(
            split_url("http://H:8080/soap/x?wsdl#f"),
            ("http://h:8080".to_owned(), "/soap/x?wsdl".to_owned())
        );
        assert_eq!(
            split_url("https://h"),
            ("https://h".to_owned(), "/".to_owned())
        );
        assert_eq!(
            split_url("http://h?q=1"),
            ("http://h".to_owned(), "/?q=1".to_owned())
        );
    }

    #[cfg(any(feature = "ntlm", feature = "kerberos"))]
    #[test]
    fn origin_host_takes_the_host() {
        assert_eq!(origin_host("http://h.example:8080"), "h.example");
        assert_eq!(origin_host("https://h.example"), "h.example");
        assert_eq!(origin_host("http://[::1]:80"), "::1");
        assert_eq!(origin_host("http://[::1]"), "::1");
        assert_eq!(origin_host("http://u@h:1"), "h");
    }

    #[test]
    fn debug_hides_the_password() {
        let a = HttpAuth::digest("alice", "s3cret");
        let d = format!("{a:?}");
        assert!(d.contains("alice") && !d.contains("s3cret"), "{d}");
    }
}
