//! Kerberos V5 (RFC 4120) for HTTP's `Negotiate` scheme (RFC 4559 §4), feature `kerberos`: the
//! tickets and tokens by the system's GSS-API library (MIT krb5, through the `libgssapi` crate),
//! the SPNEGO framing (RFC 4178) by [`super::spnego`].
//!
//! The client acquires its credentials once per [`Authenticator`](super::auth::Authenticator)
//! (a credential cache as `kinit` left it, a client keytab, or a password: an AS exchange,
//! RFC 4120 §3.1), then per request builds a Kerberos AP-REQ for the service (RFC 4121 §4.1; the
//! service ticket is fetched from the KDC once and kept with the credentials), sends it in a
//! SPNEGO `NegTokenInit` offering Kerberos alone, and checks the AP-REP the server returns with
//! its final `NegTokenResp` on the `200` (mutual authentication, RFC 4559 §4.1).
//!
//! The KDC exchanges (AS for a password or keytab, TGS once per service) run on the calling
//! thread, inside the GSS-API library; krb5.conf (`KRB5_CONFIG`) says where the KDCs are.

use std::ffi::CString;
use std::fmt;
use std::path::PathBuf;

use base64::Engine as _;
use libgssapi::context::{ClientCtx, CtxFlags, SecurityContext};
use libgssapi::credential::{Cred, CredUsage};
use libgssapi::error::Error as GssError;
use libgssapi::name::Name;
use libgssapi::oid::{GSS_MECH_KRB5, GSS_NT_HOSTBASED_SERVICE, GSS_NT_KRB5_PRINCIPAL};

use super::auth::{offered_schemes, AuthError, AuthErrorKind, Challenger};
use super::spnego::{self, find_token, Mech, NegState};

const SCHEME: &str = "Negotiate";

/// Where a Kerberos client's credentials come from (RFC 4120 §3.1: the ticket-granting ticket
/// the service tickets are asked with).
///
/// Debug output never shows a password.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum KerberosCredentials {
    /// The default credential cache (`KRB5CCNAME`, else krb5.conf's `default_ccache_name`), as
    /// `kinit` left it; its principal is the client.
    Default,
    /// A credential cache by name: `FILE:/path`, `DIR:/path`, `KEYRING:…`, `KCM:…`, or a path
    /// (taken as `FILE:`). It is read, and service tickets are stored in it, never renewed: once
    /// the ticket-granting ticket expires, calls fail with
    /// [`AuthErrorKind::CredentialsExpired`] until it is obtained again.
    Ccache(String),
    /// A client keytab (as `ktutil` or `kadmin ktadd` writes it): the ticket-granting ticket of
    /// `principal` is obtained with its key, held in a memory cache, and obtained again when it
    /// expires.
    Keytab {
        /// The client principal, `name@REALM` (or `name`, in the default realm).
        principal: String,
        /// The keytab file.
        keytab: PathBuf,
    },
    /// A password: the ticket-granting ticket of `principal` is obtained by an AS exchange with
    /// it, held in memory, and obtained again when it expires.
    Password {
        /// The client principal, `name@REALM` (or `name`, in the default realm).
        principal: String,
        /// The password (it never leaves this process: only keys derived from it are used).
        password: String,
    },
}

impl fmt::Debug for KerberosCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KerberosCredentials::Default => f.write_str("Default"),
            KerberosCredentials::Ccache(c) => f.debug_tuple("Ccache").field(c).finish(),
            KerberosCredentials::Keytab { principal, keytab } => f
                .debug_struct("Keytab")
                .field("principal", principal)
                .field("keytab", keytab)
                .finish(),
            KerberosCredentials::Password { principal, .. } => f
                .debug_struct("Password")
                .field("principal", principal)
                .field("password", &"<redacted>")
                .finish(),
        }
    }
}

/// Kerberos V5 inside SPNEGO over HTTP's `Negotiate` scheme (RFC 4559 §4), as IIS, Exchange,
/// SharePoint, Apache `mod_auth_gssapi` and Java's SPNEGO filters accept it: the client's
/// [credentials](KerberosCredentials), the service principal (by default `HTTP@host` of the
/// URL, RFC 4559 §4, resolved by krb5.conf's rules), and whether the server must prove its
/// identity (mutual authentication, on by default).
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use]
pub struct Kerberos {
    credentials: KerberosCredentials,
    service: Option<String>,
    mutual: bool,
    delegate: bool,
}

impl Kerberos {
    /// Kerberos with `credentials`, the service principal taken from each request's URL, mutual
    /// authentication required, no delegation.
    pub fn new(credentials: KerberosCredentials) -> Self {
        Kerberos {
            credentials,
            service: None,
            mutual: true,
            delegate: false,
        }
    }

    /// The service principal to ask a ticket for, instead of `HTTP@host` of the URL: either
    /// `service@host` (a host-based service name, RFC 2743 §4.1) or a Kerberos principal name
    /// `service/host[@REALM]` (RFC 1964 §2.1.1), as when a service runs under an account whose
    /// SPN differs from its DNS name (behind a load balancer, an alias).
    pub fn service(mut self, spn: impl Into<String>) -> Self {
        self.service = Some(spn.into());
        self
    }

    /// Whether the server must prove its identity with an AP-REP in its final token (RFC 4121
    /// §4.1, RFC 4559 §4.1); on by default. Turn it off only for servers that never send one.
    pub fn mutual(mut self, mutual: bool) -> Self {
        self.mutual = mutual;
        self
    }

    /// Whether the client's ticket-granting ticket is forwarded to the service (RFC 4120
    /// §2.8, `GSS_C_DELEG_FLAG`), for a service that calls others as the user; off by default.
    pub fn delegate(mut self, delegate: bool) -> Self {
        self.delegate = delegate;
        self
    }

    /// The credentials.
    pub fn credentials(&self) -> &KerberosCredentials {
        &self.credentials
    }

    /// The client principal where the credentials name one (keytab, password); `""` for a
    /// credential cache, whose principal is in the cache.
    pub fn principal(&self) -> &str {
        match &self.credentials {
            KerberosCredentials::Keytab { principal, .. }
            | KerberosCredentials::Password { principal, .. } => principal,
            KerberosCredentials::Default | KerberosCredentials::Ccache(_) => "",
        }
    }

    /// The client as messages name it: the principal, or the cache whose principal it is.
    fn describe_client(&self) -> String {
        match &self.credentials {
            KerberosCredentials::Default => "the default credential cache's principal".to_owned(),
            KerberosCredentials::Ccache(c) => format!("the principal of credential cache {c}"),
            _ => self.principal().to_owned(),
        }
    }

    /// Whether the credentials can be acquired again when they expire (keytab, password).
    pub(crate) fn renewable(&self) -> bool {
        matches!(
            self.credentials,
            KerberosCredentials::Keytab { .. } | KerberosCredentials::Password { .. }
        )
    }
}

/// Acquires the initiator credentials `k` names.
///
/// # Errors
///
/// An [`AuthError`] of the kind the KDC's or the library's error gives (a wrong password:
/// [`AuthErrorKind::CredentialsRejected`]; no cache or key: `CredentialsUnavailable`; an expired
/// cache: `CredentialsExpired`; no KDC: `Kdc`).
pub(crate) fn acquire(k: &Kerberos) -> Result<Cred, AuthError> {
    let fail = |what: &str, e: GssError| {
        AuthError::new(
            SCHEME,
            classify(&e),
            format!("cannot acquire the Kerberos credentials of {what}: {e}"),
        )
    };
    let unavailable = |m: String| AuthError::new(SCHEME, AuthErrorKind::CredentialsUnavailable, m);
    match &k.credentials {
        KerberosCredentials::Keytab { principal, .. }
        | KerberosCredentials::Password { principal, .. }
            if principal.trim().is_empty() =>
        {
            return Err(unavailable("no client principal given (empty)".to_owned()));
        }
        KerberosCredentials::Password {
            principal,
            password,
        } if password.is_empty() => {
            return Err(unavailable(format!(
                "the password of '{principal}' is empty"
            )));
        }
        KerberosCredentials::Keytab { principal, keytab } if !keytab.is_file() => {
            return Err(unavailable(format!(
                "the keytab of '{principal}', {}, is not a file that can be read",
                keytab.display()
            )));
        }
        _ => {}
    }
    match &k.credentials {
        KerberosCredentials::Default => Cred::acquire(None, None, CredUsage::Initiate, None)
            .map_err(|e| fail("the default credential cache", e)),
        KerberosCredentials::Ccache(cache) => {
            let cache = if cache.contains(':') {
                cache.clone()
            } else {
                format!("FILE:{cache}")
            };
            acquire_from(None, &[("ccache", &cache)])
                .map_err(|e| fail(&format!("credential cache {cache}"), e))
        }
        KerberosCredentials::Keytab { principal, keytab } => {
            let memory = format!("MEMORY:soapgen-{}", unique());
            let path = keytab.display().to_string();
            acquire_from(
                Some(principal),
                &[("client_keytab", &path), ("ccache", &memory)],
            )
            .map_err(|e| {
                let mut err = fail(&format!("'{principal}' from keytab {path}"), e);
                if err.kind == AuthErrorKind::CredentialsUnavailable {
                    // MIT reports a keytab without the principal's key as an empty cache.
                    err.message = format!(
                        "keytab {path} holds no key of '{principal}' that can be used \
                         (`klist -k {path}` lists its principals): {}",
                        err.message
                    );
                }
                err
            })
        }
        KerberosCredentials::Password {
            principal,
            password,
        } => {
            let name = Name::new(principal.as_bytes(), Some(GSS_NT_KRB5_PRINCIPAL))
                .map_err(|e| fail(&format!("'{principal}'"), e))?;
            Cred::acquire_with_password(Some(&name), password, None, CredUsage::Initiate, None)
                .map_err(|e| fail(&format!("'{principal}' with its password"), e))
        }
    }
}

/// A number no other acquisition of this process uses, naming its memory cache.
fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    u64::from(std::process::id()) << 32 | NEXT.fetch_add(1, Ordering::Relaxed)
}

/// `gss_acquire_cred_from` (MIT krb5's credential store extension): initiator credentials of
/// `principal` (or the cache's own) from the store's `key=value` elements (`ccache`,
/// `client_keytab`), which `libgssapi` does not wrap.
fn acquire_from(principal: Option<&str>, store: &[(&str, &str)]) -> Result<Cred, GssError> {
    use libgssapi_sys as sys;
    let bad = |_| GssError {
        major: libgssapi::error::MajorFlags::from_bits_retain(sys::_GSS_S_BAD_NAME),
        minor: 0,
    };
    let strings: Vec<(CString, CString)> = store
        .iter()
        .map(|(k, v)| Ok((CString::new(*k)?, CString::new(*v)?)))
        .collect::<Result<_, std::ffi::NulError>>()
        .map_err(bad)?;
    let mut elements: Vec<sys::gss_key_value_element_desc> = strings
        .iter()
        .map(|(k, v)| sys::gss_key_value_element_desc {
            key: k.as_ptr(),
            value: v.as_ptr(),
        })
        .collect();
    let set = sys::gss_key_value_set_desc {
        count: elements.len() as u32,
        elements: elements.as_mut_ptr(),
    };
    let mut minor: u32 = 0;
    let mut name: sys::gss_name_t = std::ptr::null_mut();
    if let Some(p) = principal {
        let mut buf = sys::gss_buffer_desc {
            length: p.len(),
            value: p.as_ptr() as *mut std::ffi::c_void,
        };
        // SAFETY: `buf` points at `p`, alive for the call, which copies it into `name`;
        // GSS_C_NT_USER_NAME is the library's static OID.
        let major = unsafe {
            sys::gss_import_name(&mut minor, &mut buf, sys::GSS_C_NT_USER_NAME, &mut name)
        };
        if major != sys::GSS_S_COMPLETE {
            return Err(GssError {
                major: libgssapi::error::MajorFlags::from_bits_retain(major),
                minor,
            });
        }
    }
    let mut cred: sys::gss_cred_id_t = std::ptr::null_mut();
    // SAFETY: `name` is null or the name imported above, `set` points at `elements` whose
    // strings `strings` keeps alive for the call; the out-pointers we do not read are null, as
    // RFC 2744 §5.2 allows.
    let major = unsafe {
        sys::gss_acquire_cred_from(
            &mut minor,
            name,
            sys::_GSS_C_INDEFINITE,
            std::ptr::null_mut(),
            sys::GSS_C_INITIATE as sys::gss_cred_usage_t,
            &set,
            &mut cred,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        )
    };
    if !name.is_null() {
        let mut m = 0;
        // SAFETY: `name` was imported above and is released once.
        unsafe { sys::gss_release_name(&mut m, &mut name) };
    }
    if major != sys::GSS_S_COMPLETE {
        return Err(GssError {
            major: libgssapi::error::MajorFlags::from_bits_retain(major),
            minor,
        });
    }
    // SAFETY: `cred` is a credential the library just gave us, owned from here by the `Cred`,
    // which releases it on drop.
    Ok(unsafe { Cred::from_c(cred) })
}

/// The [`AuthErrorKind`] of a GSS-API error: by the Kerberos error code in its minor status
/// (RFC 4120 §7.5.9, as MIT's com_err table numbers them) where there is one, else by the major
/// status's routine error (RFC 2743 §1.2.1.1).
fn classify(e: &GssError) -> AuthErrorKind {
    // MIT's krb5 error table starts at -1765328384 (ERROR_TABLE_BASE_krb5).
    const BASE: i32 = -1_765_328_384;
    let krb = (e.minor as i32).wrapping_sub(BASE);
    match krb {
        // KDC_ERR_C_PRINCIPAL_UNKNOWN, KDC_ERR_CLIENT_REVOKED, KDC_ERR_PREAUTH_FAILED,
        // KRB_AP_ERR_BAD_INTEGRITY (the AS-REP did not decrypt: a wrong password or key),
        // KRB5_PREAUTH_FAILED.
        6 | 18 | 24 | 31 | 210 => AuthErrorKind::CredentialsRejected,
        // KDC_ERR_S_PRINCIPAL_UNKNOWN.
        7 => AuthErrorKind::UnknownService,
        // KDC_ERR_KEY_EXP, KRB_AP_ERR_TKT_EXPIRED.
        23 | 32 => AuthErrorKind::CredentialsExpired,
        // KRB_AP_ERR_SKEW, KRB5_CONFIG_CANTOPEN, KRB5_CONFIG_BADFORMAT, KRB5_REALM_UNKNOWN,
        // KRB5_KDC_UNREACH, KRB5_REALM_CANT_RESOLVE, KRB5_CONFIG_NODEFREALM.
        37 | 135 | 136 | 154 | 156 | 220 | 224 => AuthErrorKind::Kdc,
        // KRB5_PARSE_MALFORMED, KRB5_CC_NOTFOUND, KRB5_CC_END, KRB5_NO_TKT_SUPPLIED,
        // KRB5_KT_NOTFOUND, KRB5_KT_END, KRB5_FCC_NOFILE, KRB5_KT_KVNONOTFOUND.
        134 | 141 | 142 | 143 | 181 | 182 | 195 | 230 => AuthErrorKind::CredentialsUnavailable,
        // KRB_AP_ERR_MODIFIED, KRB_AP_ERR_BADKEYVER, KRB_AP_ERR_NOKEY: the acceptor could not
        // read the ticket.
        41 | 44 | 45 => AuthErrorKind::Refused,
        _ => match (e.major.bits() >> 16) & 0xff {
            // GSS_S_BAD_NAME (a principal that cannot be parsed), GSS_S_NO_CRED,
            // GSS_S_DEFECTIVE_CREDENTIAL.
            2 | 7 | 9 => AuthErrorKind::CredentialsUnavailable,
            // GSS_S_CREDENTIALS_EXPIRED, GSS_S_CONTEXT_EXPIRED.
            11 | 12 => AuthErrorKind::CredentialsExpired,
            _ => AuthErrorKind::Challenge,
        },
    }
}

/// Whether a failure means the cached credentials should be acquired again.
pub(crate) fn is_expired(e: &AuthError) -> bool {
    e.kind == AuthErrorKind::CredentialsExpired
}

/// One request's Kerberos security context (RFC 2743 §1.1.3).
pub(crate) struct GssContext {
    challenger: Challenger,
    ctx: ClientCtx,
    service: String,
    principal: String,
    mutual: bool,
    mech_types: Vec<u8>,
    /// The token went out before any challenge of this request (a remembered origin).
    pub(crate) preemptive: bool,
}

impl GssContext {
    /// Starts a context for the server (or proxy) at `origin` (`scheme://host:port`) with `cred`
    /// and returns it with the `Authorization` value carrying its AP-REQ; `channel_bindings`
    /// (RFC 2743 §1.1.6) go in its authenticator's checksum (RFC 4121 §4.1.1.2).
    ///
    /// # Errors
    ///
    /// An [`AuthError`] when the service name cannot be parsed, or the KDC refuses the service
    /// ticket ([`AuthErrorKind::UnknownService`] for a principal it does not know,
    /// `CredentialsExpired` for an expired ticket-granting ticket).
    pub(crate) fn start(
        k: &Kerberos,
        cred: Cred,
        challenger: Challenger,
        origin: &str,
        channel_bindings: Option<&[u8]>,
    ) -> Result<(Self, String), AuthError> {
        let (service, name) = service_name(k, origin)?;
        let mut flags = CtxFlags::empty();
        if k.mutual {
            flags |= CtxFlags::GSS_C_MUTUAL_FLAG;
        }
        if k.delegate {
            flags |= CtxFlags::GSS_C_DELEG_FLAG;
        }
        let principal = cred
            .name()
            .ok()
            .map(|n| n.to_string())
            .unwrap_or_else(|| k.describe_client());
        let mut ctx = ClientCtx::new(Some(cred), name, flags, Some(GSS_MECH_KRB5));
        let ap_req = ctx.step(None, channel_bindings).map_err(|e| {
            let kind = classify(&e);
            let hint = match (kind, k.service.is_some()) {
                (AuthErrorKind::UnknownService, false) => {
                    " (the service principal is HTTP@ the URL's host: call the service by the \
                     host name it is registered under, or set Kerberos::service)"
                }
                (AuthErrorKind::CredentialsExpired, _) if !k.renewable() => {
                    " (obtain a new ticket-granting ticket with kinit)"
                }
                _ => "",
            };
            AuthError::new(
                SCHEME,
                kind,
                format!("no Kerberos ticket for service {service} as '{principal}': {e}{hint}"),
            )
        })?;
        let ap_req = ap_req.map(|b| b.to_vec()).unwrap_or_default();
        let err = |m: String| AuthError::new(SCHEME, AuthErrorKind::Challenge, m);
        let mech_types = spnego::mech_types_der(Mech::Kerberos).map_err(err)?;
        let init = spnego::neg_token_init(Mech::Kerberos, ap_req).map_err(err)?;
        let header = format!(
            "{SCHEME} {}",
            base64::engine::general_purpose::STANDARD.encode(init)
        );
        Ok((
            GssContext {
                challenger,
                ctx,
                service,
                principal,
                mutual: k.mutual,
                mech_types,
                preemptive: false,
            },
            header,
        ))
    }

    /// The server answered the AP-REQ with another `401` (`407`), whose challenge values are
    /// `challenges`: with a token, the next leg; without one, the ticket was refused.
    ///
    /// # Errors
    ///
    /// [`AuthErrorKind::Refused`] when the server refused the ticket (a bare `Negotiate`, a
    /// SPNEGO `reject`, a KRB-ERROR such as `KRB_AP_ERR_MODIFIED`: the server does not hold the
    /// service principal's key), or the kind of the Kerberos error its token carries.
    pub(crate) fn step(&mut self, challenges: &[&str]) -> Result<String, AuthError> {
        let who = self.challenger.who();
        let refused = |why: String| {
            AuthError::new(
                SCHEME,
                AuthErrorKind::Refused,
                format!(
                    "the {who} refused the Kerberos ticket of '{}' for service {} ({why}: it \
                     may not hold that service principal's key, or not accept the client)",
                    self.principal, self.service
                ),
            )
        };
        let Some(token) = find_token(SCHEME, challenges) else {
            return Err(AuthError::new(
                SCHEME,
                AuthErrorKind::Challenge,
                format!(
                    "the {who} no longer offers Negotiate (RFC 4559 §4); it offers: {}",
                    offered_schemes(challenges)
                ),
            ));
        };
        if token.is_empty() {
            return Err(refused(format!(
                "{} to the AP-REQ",
                self.challenger.status()
            )));
        }
        let resp = self.read_token(token)?;
        if resp.neg_state == Some(NegState::Reject) {
            return Err(refused("SPNEGO negState reject".to_owned()));
        }
        let Some(inner) = resp.response_token else {
            return Err(refused(
                "a SPNEGO reply without a Kerberos token".to_owned(),
            ));
        };
        let out = self.ctx.step(Some(&inner), None).map_err(|e| {
            let kind = match classify(&e) {
                AuthErrorKind::Challenge => AuthErrorKind::Refused,
                k => k,
            };
            AuthError::new(
                SCHEME,
                kind,
                format!(
                    "the {who} answered the Kerberos ticket of '{}' for service {} with an \
                     error: {e}",
                    self.principal, self.service
                ),
            )
        })?;
        match out {
            Some(next) => {
                let resp = spnego::neg_token_resp(next.to_vec(), None)
                    .map_err(|e| AuthError::new(SCHEME, AuthErrorKind::Challenge, e))?;
                Ok(format!(
                    "{SCHEME} {}",
                    base64::engine::general_purpose::STANDARD.encode(resp)
                ))
            }
            None => Err(refused(format!(
                "{} after the context completed",
                self.challenger.status()
            ))),
        }
    }

    /// The server accepted the request; `challenges` are the `WWW-Authenticate`
    /// (`Proxy-Authenticate`) values of its response. Its final SPNEGO token must complete the
    /// context: the AP-REP verified (RFC 4121 §4.1), a `mechListMIC`, when sent, verified over
    /// the offered `mechTypes` (RFC 4178 §5).
    ///
    /// # Errors
    ///
    /// Returns whether the server proved itself (an AP-REP verified).
    ///
    /// [`AuthErrorKind::MutualAuthentication`] when the token is missing (mutual
    /// authentication on, the ticket answered a challenge, and the origin never proved itself:
    /// `origin_verified`), unreadable, not accept-completed, or does not verify.
    pub(crate) fn accepted(
        &mut self,
        challenges: &[&str],
        origin_verified: bool,
    ) -> Result<bool, AuthError> {
        let who = self.challenger.who();
        let service = &self.service;
        let fail = |m: String| {
            AuthError::new(
                SCHEME,
                AuthErrorKind::MutualAuthentication,
                format!("the {who}'s proof of being service {service} failed: {m}"),
            )
        };
        let Some(token) = find_token(SCHEME, challenges).filter(|t| !t.is_empty()) else {
            // A server that authenticates connections answers a ticket that arrives on one it
            // has already authenticated (sent before any challenge, or by a concurrent call
            // whose 401 came on another) without using it: nothing is proved either way, as with
            // a server that asks for no authentication. The origin must have proved itself once.
            if self.mutual && !self.ctx.is_complete() && !self.preemptive && !origin_verified {
                return Err(fail(
                    "its response carries no final Negotiate token with the AP-REP (RFC 4559 \
                     §4.1); a server that never sends one needs Kerberos::mutual(false)"
                        .to_owned(),
                ));
            }
            return Ok(false);
        };
        let resp = self.read_token(token).map_err(|e| fail(e.message))?;
        if !matches!(resp.neg_state, None | Some(NegState::AcceptCompleted)) {
            return Err(fail(format!(
                "its final token says {:?}, not accept-completed (RFC 4178 §4.2.2)",
                resp.neg_state
            )));
        }
        if let Some(mech) = resp.supported_mech.as_deref() {
            if mech != Mech::Kerberos.oid() {
                return Err(fail(format!(
                    "it chose mechanism {mech}, which was not offered (only Kerberos, {})",
                    Mech::Kerberos.oid()
                )));
            }
        }
        if let Some(ap_rep) = resp.response_token.as_deref() {
            if !self.ctx.is_complete() {
                let more = self
                    .ctx
                    .step(Some(ap_rep), None)
                    .map_err(|e| fail(format!("its AP-REP does not verify: {e}")))?;
                if more.is_some() {
                    return Err(fail("the context wants another leg".to_owned()));
                }
            }
        }
        if self.mutual && !self.ctx.is_complete() {
            return Err(fail("its final token carries no AP-REP".to_owned()));
        }
        if let Some(mic) = resp.mech_list_mic.as_deref() {
            self.ctx.verify_mic(&self.mech_types, mic).map_err(|e| {
                fail(format!(
                    "its mechListMIC does not verify (RFC 4178 §5): {e}"
                ))
            })?;
        }
        Ok(self.mutual && self.ctx.is_complete())
    }

    fn read_token(&self, token: &str) -> Result<spnego::NegTokenResp, AuthError> {
        let who = self.challenger.who();
        let der = base64::engine::general_purpose::STANDARD
            .decode(token)
            .map_err(|e| {
                AuthError::new(
                    SCHEME,
                    AuthErrorKind::Challenge,
                    format!("the {who}'s Negotiate token is not base64: {e}"),
                )
            })?;
        spnego::read_neg_token_resp(&der).map_err(|e| {
            AuthError::new(
                SCHEME,
                AuthErrorKind::Challenge,
                format!("the {who}'s Negotiate token: {e}"),
            )
        })
    }
}

/// The `tls-server-end-point` channel bindings of a TLS server certificate (RFC 5929 §4.1:
/// the prefix and the hash of its DER by its signature's hash function, SHA-256 for MD5 and
/// SHA-1), as Windows' Extended Protection and MIT's acceptors check them; `None` for a
/// certificate that cannot be parsed.
pub(crate) fn tls_server_end_point(cert_der: &[u8]) -> Option<Vec<u8>> {
    use sha2::Digest as _;
    let (_, cert) = x509_parser::parse_x509_certificate(cert_der).ok()?;
    let oid = cert.signature_algorithm.algorithm.to_id_string();
    let hash: Vec<u8> = match oid.as_str() {
        // sha384WithRSAEncryption, ecdsa-with-SHA384.
        "1.2.840.113549.1.1.12" | "1.2.840.10045.4.3.3" => sha2::Sha384::digest(cert_der).to_vec(),
        // sha512WithRSAEncryption, ecdsa-with-SHA512.
        "1.2.840.113549.1.1.13" | "1.2.840.10045.4.3.4" => sha2::Sha512::digest(cert_der).to_vec(),
        // MD5, SHA-1 and SHA-256 signatures, and those that name no single hash (RSASSA-PSS
        // with its hash in parameters, EdDSA): SHA-256, as Windows does.
        _ => sha2::Sha256::digest(cert_der).to_vec(),
    };
    let mut out = b"tls-server-end-point:".to_vec();
    out.extend_from_slice(&hash);
    Some(out)
}

/// The service's display form and GSS name: `k`'s own, else `HTTP@host` of `origin`.
fn service_name(k: &Kerberos, origin: &str) -> Result<(String, Name), AuthError> {
    let (text, kind) = match k.service.as_deref() {
        Some(s) if s.contains('/') => (s.to_owned(), GSS_NT_KRB5_PRINCIPAL),
        Some(s) => (s.to_owned(), GSS_NT_HOSTBASED_SERVICE),
        None => (
            format!("HTTP@{}", super::auth::origin_host(origin)),
            GSS_NT_HOSTBASED_SERVICE,
        ),
    };
    let name = Name::new(text.as_bytes(), Some(kind)).map_err(|e| {
        AuthError::new(
            SCHEME,
            AuthErrorKind::UnknownService,
            format!("service name '{text}' cannot be used: {e}"),
        )
    })?;
    Ok((text, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_classified_by_their_kerberos_code() {
        let e = |minor: i32, routine: u32| GssError {
            major: libgssapi::error::MajorFlags::from_bits_retain(routine << 16),
            minor: minor as u32,
        };
        // KRB5KRB_AP_ERR_BAD_INTEGRITY: a wrong password.
        assert_eq!(
            classify(&e(-1_765_328_353, 13)),
            AuthErrorKind::CredentialsRejected
        );
        // KRB5KDC_ERR_S_PRINCIPAL_UNKNOWN.
        assert_eq!(
            classify(&e(-1_765_328_377, 13)),
            AuthErrorKind::UnknownService
        );
        // KRB5KRB_AP_ERR_TKT_EXPIRED.
        assert_eq!(
            classify(&e(-1_765_328_352, 13)),
            AuthErrorKind::CredentialsExpired
        );
        // KRB5_FCC_NOFILE.
        assert_eq!(
            classify(&e(-1_765_328_189, 7)),
            AuthErrorKind::CredentialsUnavailable
        );
        // KRB5_KDC_UNREACH.
        assert_eq!(classify(&e(-1_765_328_228, 13)), AuthErrorKind::Kdc);
        // No Kerberos code: the routine error, GSS_S_CREDENTIALS_EXPIRED.
        assert_eq!(classify(&e(0, 11)), AuthErrorKind::CredentialsExpired);
        assert_eq!(classify(&e(0, 13)), AuthErrorKind::Challenge);
    }

    /// Known answers from `openssl dgst` over test certificates `openssl req -x509` made with
    /// each signature hash (RFC 5929 §4.1: SHA-1 becomes SHA-256).
    #[test]
    fn tls_server_end_point_hashes_by_the_signature_algorithm() {
        let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
        let prefix = b"tls-server-end-point:".len();
        for (der, expected) in [
            (
                &include_bytes!("testdata/cb-rsa-sha256.der")[..],
                "97612894368dc99c21f1f1bdad4ce5d238f5a29f37b94e20de71dc7f37ee5658",
            ),
            (
                &include_bytes!("testdata/cb-rsa-sha1.der")[..],
                "d556c65ffefc8c0c7525dcd41aad44d41f4ebd17a7f407aad24782b9300a9f10",
            ),
            (
                &include_bytes!("testdata/cb-ecdsa-sha384.der")[..],
                "aaed68609b9d3c1e3298fb66bd45614586079d109f52085d0b68d93d45c4da5a\
                 ba7bb204823f377fc74e5b6621bf1516",
            ),
        ] {
            let cb = tls_server_end_point(der).unwrap();
            assert!(cb.starts_with(b"tls-server-end-point:"));
            assert_eq!(hex(&cb[prefix..]), expected);
        }
        assert_eq!(tls_server_end_point(b"not a certificate"), None);
    }

    #[test]
    fn debug_hides_the_password() {
        let k = KerberosCredentials::Password {
            principal: "alice@EXAMPLE.COM".into(),
            password: "s3cret".into(),
        };
        let d = format!("{k:?}");
        assert!(d.contains("alice") && !d.contains("s3cret"), "{d}");
    }
}
