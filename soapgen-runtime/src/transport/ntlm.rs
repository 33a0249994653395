//! The NTLM and Negotiate legs of a [`Handshake`](super::auth::Handshake) (feature `ntlm`): the
//! NTLM messages by the `sspi` crate (Devolutions' pure-Rust SSPI: NTLMv2 of MS-NLMP), the
//! SPNEGO framing of `Negotiate` by [`super::spnego`].
//!
//! RFC 4559 §4 carries each token base64-encoded after the scheme name. For `NTLM`: the client's
//! `Authorization: NTLM <NEGOTIATE_MESSAGE>`, the server's `401` with
//! `WWW-Authenticate: NTLM <CHALLENGE_MESSAGE>`, the client's
//! `Authorization: NTLM <AUTHENTICATE_MESSAGE>` (MS-NLMP §2.2.1.1–§2.2.1.3). For `Negotiate`, the
//! same three messages inside SPNEGO tokens (RFC 4178 §4.2), the last with a `mechListMIC`
//! (RFC 4178 §5), and the server's final token on the `200` (RFC 4559 §4.1) checked.

use base64::Engine as _;
use sspi::{
    AuthIdentity, BufferType, ClientRequestFlags, CredentialUse, DataRepresentation, Ntlm,
    SecurityBuffer, SecurityBufferRef, SecurityStatus, Sspi, SspiImpl, Username,
};

use sspi::ntlm::NtlmConfig;

use super::auth::{offered_schemes, AuthError, AuthErrorKind, Challenger};
use super::spnego::{self, find_token, Mech, NegState};

/// NTLM signatures are 16 bytes: version 1, checksum, sequence number (MS-NLMP §2.2.2.9.1).
const SIGNATURE_LEN: usize = 16;

/// One connection's security context: the NTLM SSP, its credentials handle and, for
/// `Negotiate`, the SPNEGO state.
pub(crate) struct SspiContext {
    scheme: &'static str,
    challenger: Challenger,
    user: String,
    target: String,
    ntlm: Box<Ntlm>,
    creds: Option<sspi::AuthIdentityBuffers>,
    /// `Some` for `Negotiate`: the DER of the `mechTypes` offered, which both `mechListMIC`s sign.
    spnego: Option<Vec<u8>>,
    /// Tokens sent so far (the first is NEGOTIATE).
    sent: usize,
    finished: bool,
}

impl SspiContext {
    /// A context for `scheme` (`NTLM`, or `Negotiate` when `spnego`) with the user's credentials,
    /// for the server (or proxy, as `challenger` says) at `origin` (its host names the target
    /// `HTTP/host`, RFC 4559 §4).
    pub(crate) fn new(
        scheme: &'static str,
        challenger: Challenger,
        spnego: bool,
        user: &str,
        password: &str,
        origin: &str,
    ) -> Result<Self, AuthError> {
        let err = |message: String| {
            AuthError::new(scheme, AuthErrorKind::CredentialsUnavailable, message)
        };
        let username = Username::parse(user).map_err(|e| {
            err(format!(
                "user name '{user}' is not DOMAIN\\user, user@domain or user: {e}"
            ))
        })?;
        let identity = AuthIdentity {
            username,
            password: password.to_owned().into(),
        };
        let host = super::auth::origin_host(origin);
        let workstation = "SOAPGEN".to_owned();
        let mut ntlm = Box::new(Ntlm::with_config(NtlmConfig::new(workstation)));
        let creds = ntlm
            .acquire_credentials_handle()
            .with_credential_use(CredentialUse::Outbound)
            .with_auth_data(&identity)
            .execute(&mut *ntlm)
            .map_err(|e| err(format!("cannot use the credentials of '{user}': {e}")))?;
        let spnego = if spnego {
            Some(spnego::mech_types_der(Mech::Ntlm).map_err(err)?)
        } else {
            None
        };
        Ok(SspiContext {
            scheme,
            challenger,
            user: user.to_owned(),
            target: format!("HTTP/{host}"),
            ntlm,
            creds: creds.credentials_handle,
            spnego,
            sent: 0,
            finished: false,
        })
    }

    fn refused(&self, why: &str) -> AuthError {
        AuthError::new(
            self.scheme,
            AuthErrorKind::Refused,
            format!(
                "the {} refused user '{}' ({why}: wrong user name, domain or password)",
                self.challenger.who(),
                self.user
            ),
        )
    }

    /// The next `Authorization` value, given the `401`'s `WWW-Authenticate` values (a proxy's:
    /// the `407`'s `Proxy-Authenticate` values).
    pub(crate) fn step(&mut self, challenges: &[&str]) -> Result<String, AuthError> {
        let scheme = self.scheme;
        let who = self.challenger.who();
        let err = |message: String| AuthError::new(scheme, AuthErrorKind::Challenge, message);
        let Some(token) = find_token(scheme, challenges) else {
            return Err(err(format!(
                "the {who} offers no {scheme} challenge (RFC 4559 §4); it offers: {}",
                offered_schemes(challenges)
            )));
        };
        if self.finished || (self.sent > 0 && token.is_empty()) {
            let status = self.challenger.status();
            return Err(self.refused(&format!("{status} to the AUTHENTICATE message")));
        }
        let input = if token.is_empty() {
            None
        } else {
            Some(
                base64::engine::general_purpose::STANDARD
                    .decode(token)
                    .map_err(|e| err(format!("the {who}'s token is not base64: {e}")))?,
            )
        };
        if input.is_none() && self.sent > 0 {
            return Err(err(format!("the {who} restarted the handshake")));
        }
        let out = match self.spnego.clone() {
            None => self.ntlm_leg(input)?,
            Some(mech_types) => self.spnego_leg(input, &mech_types)?,
        };
        self.sent += 1;
        Ok(format!(
            "{scheme} {}",
            base64::engine::general_purpose::STANDARD.encode(out)
        ))
    }

    /// The next NTLM message for the server's last (`None` before the first leg).
    fn ntlm_leg(&mut self, input: Option<Vec<u8>>) -> Result<Vec<u8>, AuthError> {
        let (out, status) = self.initialize(input).map_err(|e| {
            AuthError::new(
                self.scheme,
                AuthErrorKind::Challenge,
                format!("cannot answer the {}'s token: {e}", self.challenger.who()),
            )
        })?;
        if !matches!(
            status,
            SecurityStatus::ContinueNeeded | SecurityStatus::CompleteAndContinue
        ) {
            self.finished = true;
        }
        Ok(out)
    }

    /// The next SPNEGO token: `NegTokenInit` with NEGOTIATE first; then, for the acceptor's
    /// `NegTokenResp` with CHALLENGE, a `NegTokenResp` with AUTHENTICATE and the `mechListMIC`.
    fn spnego_leg(
        &mut self,
        input: Option<Vec<u8>>,
        mech_types: &[u8],
    ) -> Result<Vec<u8>, AuthError> {
        let scheme = self.scheme;
        let who = self.challenger.who();
        let err = |message: String| AuthError::new(scheme, AuthErrorKind::Challenge, message);
        let Some(input) = input.filter(|_| self.sent > 0) else {
            // First leg (a token on the first 401 would be a NegTokenInit2 hint, MS-SPNG
            // §3.2.5.2, which NTLM has no use for).
            let negotiate = self.ntlm_leg(None)?;
            return spnego::neg_token_init(Mech::Ntlm, negotiate).map_err(err);
        };
        let resp = spnego::read_neg_token_resp(&input).map_err(err)?;
        match resp.neg_state {
            Some(NegState::Reject) => {
                return Err(err(format!(
                    "the {who} rejected the SPNEGO negotiation (negState reject, RFC 4178 \
                     §4.2.2): it does not accept NTLM"
                )))
            }
            Some(NegState::AcceptCompleted) => {
                return Err(err(format!(
                    "the {who} completed SPNEGO before the NTLM AUTHENTICATE message"
                )))
            }
            _ => {}
        }
        if let Some(mech) = resp.supported_mech.as_deref() {
            if mech != Mech::Ntlm.oid() {
                return Err(err(format!(
                    "the {who} chose mechanism {mech}, which was not offered (only NTLMSSP, {})",
                    Mech::Ntlm.oid()
                )));
            }
        }
        let Some(challenge) = resp.response_token else {
            return Err(err(format!(
                "the {who}'s SPNEGO reply carries no NTLM CHALLENGE message"
            )));
        };
        let authenticate = self.ntlm_leg(Some(challenge))?;
        if !self.finished {
            return Err(err(
                "NTLM wants another leg after the CHALLENGE message".to_owned()
            ));
        }
        let mic = self
            .mech_list_mic(mech_types)
            .map_err(|e| err(format!("cannot sign the mechListMIC (RFC 4178 §5): {e}")))?;
        spnego::neg_token_resp(authenticate, Some(mic)).map_err(err)
    }

    /// The initiator's `mechListMIC` (RFC 4178 §5): the NTLM signature of `mech_types`
    /// (MS-NLMP §3.4.4.2 with extended session security; sequence number 0, the first message
    /// signed in the session, MS-SPNG §3.1.5.1).
    fn mech_list_mic(&mut self, mech_types: &[u8]) -> sspi::Result<Vec<u8>> {
        let mut data = mech_types.to_vec();
        let mut signature = vec![0; SIGNATURE_LEN];
        let mut message = [
            SecurityBufferRef::data_buf(&mut data),
            SecurityBufferRef::token_buf(&mut signature),
        ];
        self.ntlm.make_signature(0, &mut message, 0)?;
        Ok(signature)
    }

    /// The server accepted the request; `challenges` are the `WWW-Authenticate` values of its
    /// response. For `Negotiate` after a handshake, a final SPNEGO token there (RFC 4559 §4.1)
    /// must be accept-completed and its `mechListMIC` must be the server's NTLM signature of the
    /// offered `mechTypes` (RFC 4178 §5); without one the response is taken as it is.
    pub(crate) fn accepted(&mut self, challenges: &[&str]) -> Result<(), AuthError> {
        let scheme = self.scheme;
        let who = self.challenger.who();
        let err =
            |message: String| AuthError::new(scheme, AuthErrorKind::MutualAuthentication, message);
        let Some(mech_types) = self.spnego.clone() else {
            return Ok(());
        };
        if !self.finished {
            return Ok(());
        }
        let Some(token) = find_token(scheme, challenges).filter(|t| !t.is_empty()) else {
            return Ok(());
        };
        let der = base64::engine::general_purpose::STANDARD
            .decode(token)
            .map_err(|e| err(format!("the {who}'s final token is not base64: {e}")))?;
        let resp = spnego::read_neg_token_resp(&der)
            .map_err(|e| err(format!("the {who}'s final token: {e}")))?;
        if !matches!(resp.neg_state, None | Some(NegState::AcceptCompleted)) {
            return Err(err(format!(
                "the {who}'s final token says {:?}, not accept-completed (RFC 4178 §4.2.2)",
                resp.neg_state
            )));
        }
        if let Some(mut mic) = resp.mech_list_mic {
            let mut data = mech_types;
            let mut message = [
                SecurityBufferRef::data_buf(&mut data),
                SecurityBufferRef::token_buf(&mut mic),
            ];
            self.ntlm.verify_signature(&mut message, 0).map_err(|e| {
                err(format!(
                    "the {who}'s mechListMIC does not verify (RFC 4178 §5: the mechanism list \
                     may have been altered, or the {who} does not know the session key): {e}"
                ))
            })?;
        }
        Ok(())
    }

    fn initialize(&mut self, input: Option<Vec<u8>>) -> sspi::Result<(Vec<u8>, SecurityStatus)> {
        let mut output = vec![SecurityBuffer::new(Vec::new(), BufferType::Token)];
        let mut input = input.map(|t| vec![SecurityBuffer::new(t, BufferType::Token)]);
        // Under SPNEGO, NTLMSSP_NEGOTIATE_SIGN is asked for: the mechListMIC is an NTLM
        // signature, and without SIGN negotiated an acceptor (SSPI, pyspnego) expects the
        // constant ALWAYS_SIGN placeholder 01 00 .. 00 instead of the HMAC sspi computes.
        let flags = if self.spnego.is_some() {
            ClientRequestFlags::ALLOCATE_MEMORY | ClientRequestFlags::INTEGRITY
        } else {
            ClientRequestFlags::ALLOCATE_MEMORY
        };
        let ntlm = &mut self.ntlm;
        let mut b = ntlm
            .initialize_security_context()
            .with_credentials_handle(&mut self.creds)
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
        let token = output.pop().map(|b| b.buffer).unwrap_or_default();
        Ok((token, r.status))
    }
}
