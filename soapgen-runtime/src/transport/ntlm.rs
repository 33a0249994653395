//! The NTLM legs of a [`Handshake`](super::auth::Handshake) (feature `ntlm`), by the
//! `sspi` crate (Devolutions' pure-Rust SSPI: NTLMv2 of MS-NLMP, SPNEGO of RFC 4178).
//!
//! RFC 4559 §4 carries each token base64-encoded after the scheme name: the client's
//! `Authorization: NTLM <NEGOTIATE_MESSAGE>`, the server's `401` with
//! `WWW-Authenticate: NTLM <CHALLENGE_MESSAGE>`, the client's
//! `Authorization: NTLM <AUTHENTICATE_MESSAGE>` (MS-NLMP §2.2.1.1–§2.2.1.3).

use base64::Engine as _;
use sspi::{
    AuthIdentity, BufferType, ClientRequestFlags, CredentialUse, DataRepresentation, Ntlm,
    SecurityBuffer, SecurityStatus, Sspi, SspiImpl, Username,
};

use sspi::ntlm::NtlmConfig;

use super::auth::{offered_schemes, AuthError};

/// One connection's security context: the SSP and its credentials handle.
pub(crate) struct SspiContext {
    scheme: &'static str,
    user: String,
    target: String,
    provider: Provider,
    /// Tokens sent so far (the first is NEGOTIATE).
    sent: usize,
    finished: bool,
}

enum Provider {
    Ntlm(Box<Ntlm>, Option<sspi::AuthIdentityBuffers>),
}

impl SspiContext {
    /// A context for `scheme` (`NTLM`) with the user's credentials, for the server
    /// at `origin` (its host names the target `HTTP/host`, RFC 4559 §4).
    pub(crate) fn new(
        scheme: &'static str,
        user: &str,
        password: &str,
        origin: &str,
    ) -> Result<Self, AuthError> {
        let err = |message: String| AuthError { scheme, message };
        let username = Username::parse(user).map_err(|e| {
            err(format!(
                "user name {user:?} is not DOMAIN\\user, user@domain or user: {e}"
            ))
        })?;
        let identity = AuthIdentity {
            username,
            password: password.to_owned().into(),
        };
        let host = origin
            .split("://")
            .nth(1)
            .unwrap_or(origin)
            .rsplit_once(':')
            .map_or_else(|| origin.split("://").nth(1).unwrap_or(origin), |(h, _)| h)
            .trim_matches(['[', ']']);
        let workstation = "SOAPGEN".to_owned();
        let mut ntlm = Box::new(Ntlm::with_config(NtlmConfig::new(workstation)));
        let creds = ntlm
            .acquire_credentials_handle()
            .with_credential_use(CredentialUse::Outbound)
            .with_auth_data(&identity)
            .execute(&mut *ntlm)
            .map_err(|e| err(format!("cannot use the credentials of {user:?}: {e}")))?;
        let provider = Provider::Ntlm(ntlm, creds.credentials_handle);
        Ok(SspiContext {
            scheme,
            user: user.to_owned(),
            target: format!("HTTP/{host}"),
            provider,
            sent: 0,
            finished: false,
        })
    }

    /// The next `Authorization` value, given the `401`'s `WWW-Authenticate` values.
    pub(crate) fn step(&mut self, challenges: &[&str]) -> Result<String, AuthError> {
        let scheme = self.scheme;
        let err = |message: String| AuthError { scheme, message };
        // The value of our scheme: `NTLM` alone or `NTLM <token>` (one challenge per line: the
        // token68 form cannot share a line, RFC 9110 §11.6.1).
        let mine = challenges.iter().find_map(|v| {
            let v = v.trim();
            let (name, rest) = v.split_once(' ').unwrap_or((v, ""));
            name.eq_ignore_ascii_case(scheme).then(|| rest.trim())
        });
        let Some(token) = mine else {
            return Err(err(format!(
                "the server offers no {scheme} challenge (RFC 4559 §4); it offers: {}",
                offered_schemes(challenges)
            )));
        };
        if self.finished || (self.sent > 0 && token.is_empty()) {
            return Err(err(format!(
                "the server refused user {:?} (401 to the AUTHENTICATE message: wrong user \
                 name, domain or password)",
                self.user
            )));
        }
        let input = if token.is_empty() {
            None
        } else {
            Some(
                base64::engine::general_purpose::STANDARD
                    .decode(token)
                    .map_err(|e| err(format!("the server's token is not base64: {e}")))?,
            )
        };
        if input.is_none() && self.sent > 0 {
            return Err(err("the server restarted the handshake".to_owned()));
        }
        let (out, status) = self
            .initialize(input)
            .map_err(|e| err(format!("cannot answer the server's token: {e}")))?;
        if !matches!(
            status,
            SecurityStatus::ContinueNeeded | SecurityStatus::CompleteAndContinue
        ) {
            self.finished = true;
        }
        self.sent += 1;
        Ok(format!(
            "{scheme} {}",
            base64::engine::general_purpose::STANDARD.encode(out)
        ))
    }

    fn initialize(&mut self, input: Option<Vec<u8>>) -> sspi::Result<(Vec<u8>, SecurityStatus)> {
        let mut output = vec![SecurityBuffer::new(Vec::new(), BufferType::Token)];
        let mut input = input.map(|t| vec![SecurityBuffer::new(t, BufferType::Token)]);
        let flags = ClientRequestFlags::ALLOCATE_MEMORY;
        let status = match &mut self.provider {
            Provider::Ntlm(ntlm, creds) => {
                let mut b = ntlm
                    .initialize_security_context()
                    .with_credentials_handle(creds)
                    .with_context_requirements(flags)
                    .with_target_data_representation(DataRepresentation::Native)
                    .with_target_name(&self.target)
                    .with_output(&mut output);
                if let Some(i) = input.as_mut() {
                    b = b.with_input(i);
                }
                let r = ntlm
                    .initialize_security_context_impl(&mut b)?
                    .resolve_to_result()?;
                if matches!(
                    r.status,
                    SecurityStatus::CompleteAndContinue | SecurityStatus::CompleteNeeded
                ) {
                    ntlm.complete_auth_token(&mut output)?;
                }
                r.status
            }
        };
        let token = output.pop().map(|b| b.buffer).unwrap_or_default();
        Ok((token, status))
    }
}
