//! Checks of a response's `wsse:Security` header against the client's inbound policy: the public
//! entry point over [`verify`](super::verify), which does the work.

use super::symmetric::RequestKey;
use super::verify::{process, Processed};
use super::{InboundReport, UtcTime, WssConfig, WssError};
use crate::xml::Limits;

impl WssConfig {
    /// Checks a response envelope (UTF-8) against this configuration's inbound policy at time `now`
    /// and returns what was found; the client runs this on every response with a 2xx status, and
    /// it is public to check captured messages.
    ///
    /// The `wsse:Security` header block meant for this recipient (no SOAP 1.1 `actor`, or SOAP 1.2
    /// `role` absent or `…/ultimateReceiver`; blocks for other actors are ignored, WSS 1.1 §5) is
    /// processed in document order:
    /// - its `wsu:Timestamp` (WSS 1.1 §10: at most one, `Created` required, `Expires` not before
    ///   `Created`) must be fresh: created at most [`max_timestamp_age`](Self::max_timestamp_age)
    ///   ago and at most [`clock_skew`](Self::clock_skew) ahead, not expired
    ///   ([`Timestamp::check`](super::Timestamp::check));
    /// - each `ds:Signature` is verified (XML-DSig §3.2, Exclusive C14N only, the algorithms of
    ///   [`algorithms`](Self::algorithms), at most [`max_signature_references`](Self::max_signature_references)
    ///   References) with the key its KeyInfo names, which the [`TrustStore`](super::TrustStore)
    ///   must trust;
    /// - each `xenc:EncryptedKey` for this client is unwrapped with the
    ///   [`decrypt_with`](Self::decrypt_with) key and the EncryptedData it lists are decrypted
    ///   (the decrypted envelope is what the client then reads); an EncryptedKey without a
    ///   ReferenceList keeps its key for the EncryptedData whose KeyInfo names it (by `#Id` or
    ///   [`#EncryptedKeySHA1`](super::ENCRYPTED_KEY_SHA1)), which a standalone
    ///   `xenc:ReferenceList` later in the header decrypts where it stands (WSS 1.1 §9.4), so a
    ///   signature between the two is verified over the ciphertext it was made over.
    ///
    /// Then the policy: the Body (and the Timestamp, and each
    /// [`require_signed_header`](Self::require_signed_header)) covered by a trusted signature when
    /// [`requires_signature`](Self::requires_signature), found by position (the envelope's Body,
    /// this header's Timestamp), not by Id alone; every Id in the envelope unique; the Body
    /// decrypted when [`requires_encryption`](Self::requires_encryption); a UsernameToken when
    /// [`expect_username_token`](Self::expect_username_token); no signature value or nonce seen
    /// before within its validity (replay).
    ///
    /// # Errors
    ///
    /// [`WssError::Read`] for XML that is not a readable envelope (a DOCTYPE is refused), and one
    /// [`WssError`] variant per policy failure.
    ///
    /// With [`signature_confirmation`](Self::signature_confirmation) on and a signing
    /// configuration the request is needed: use [`check_response_to`](Self::check_response_to)
    /// (here that is a [`WssError::SignatureConfirmationMismatch`] saying so).
    pub fn check_response(&self, envelope: &[u8], now: UtcTime) -> Result<InboundReport, WssError> {
        Ok(self
            .check_response_with_limits(envelope, None, None, now, Limits::default())?
            .report)
    }

    /// As [`check_response`](Self::check_response), for the response to a request whose
    /// `ds:SignatureValue`s were `request_signatures` (raw bytes, as
    /// a client's WS-Security layer keeps them; empty for an unsigned request): with
    /// [`signature_confirmation`](Self::signature_confirmation) on, the response's
    /// `wsse11:SignatureConfirmation`s must confirm exactly these (WSS 1.1 §8.5).
    ///
    /// # Errors
    ///
    /// As [`check_response`](Self::check_response), and
    /// [`WssError::MissingSignatureConfirmation`], [`WssError::SignatureConfirmationMismatch`],
    /// [`WssError::UnsignedSignatureConfirmation`].
    pub fn check_response_to(
        &self,
        envelope: &[u8],
        request_signatures: &[Vec<u8>],
        now: UtcTime,
    ) -> Result<InboundReport, WssError> {
        Ok(self
            .check_response_with_limits(
                envelope,
                Some(request_signatures),
                None,
                now,
                Limits::default(),
            )?
            .report)
    }

    /// As [`check_response`](Self::check_response), and also returns the envelope as the client
    /// then reads it: with every EncryptedData decrypted in place (the input unchanged when
    /// nothing was encrypted).
    ///
    /// # Errors
    ///
    /// As [`check_response`](Self::check_response).
    pub fn process_response(
        &self,
        envelope: &[u8],
        now: UtcTime,
    ) -> Result<(InboundReport, String), WssError> {
        let p = self.check_response_with_limits(envelope, None, None, now, Limits::default())?;
        let doc = match p.decrypted {
            Some(d) => d,
            None => String::from_utf8_lossy(envelope).into_owned(),
        };
        Ok((p.report, doc))
    }

    /// Checks a request envelope (UTF-8) against this configuration's inbound policy at time
    /// `now`, as a service does (WSS 1.1 §5–§10): the checks of
    /// [`check_response`](Self::check_response), the UsernameToken's password checked against
    /// [`expect_username_token`](Self::expect_username_token) (WSS UsernameToken Profile 1.1
    /// §3.1: text or digest, its Nonce not seen before). Returns what was found and the envelope
    /// as the service then reads it (decrypted in place; the input unchanged when nothing was
    /// encrypted). Signature confirmations are not looked for: a request carries none.
    ///
    /// # Errors
    ///
    /// As [`check_response`](Self::check_response).
    pub fn process_request(
        &self,
        envelope: &[u8],
        now: UtcTime,
    ) -> Result<(InboundReport, String), WssError> {
        if self.requires_signature_confirmation() {
            return self
                .clone()
                .signature_confirmation(false)
                .process_request(envelope, now);
        }
        self.process_response(envelope, now)
    }

    /// `sent`: the request's SignatureValues, when known (see
    /// [`check_response_to`](Self::check_response_to)); `key`: the request key of a
    /// SymmetricBinding, the only key a symmetric signature or encryption of the response may use.
    pub(crate) fn check_response_with_limits(
        &self,
        envelope: &[u8],
        sent: Option<&[Vec<u8>]>,
        key: Option<&RequestKey>,
        now: UtcTime,
        limits: Limits,
    ) -> Result<Processed, WssError> {
        let text = crate::xml::read::utf8(envelope).map_err(|e| {
            WssError::Read(format!(
                "invalid UTF-8 at byte {} (transcode with xml::to_utf8 first)",
                e.valid_up_to()
            ))
        })?;
        process(self, text, sent, key, now, limits)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::wss::{WSSE_NS, WSU_NS};

    const NOW: UtcTime = UtcTime::from_unix_millis(1_795_000_000_000); // 2026-11-18T11:06:40Z

    fn envelope(header: &str) -> String {
        format!(
            r#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:wsse="{WSSE_NS}" xmlns:wsu="{WSU_NS}"><s:Header>{header}</s:Header><s:Body><x/></s:Body></s:Envelope>"#
        )
    }

    fn ts(created: &str, expires: &str) -> String {
        format!(
            "<wsse:Security><wsu:Timestamp wsu:Id=\"TS-1\"><wsu:Created>{created}</wsu:Created><wsu:Expires>{expires}</wsu:Expires></wsu:Timestamp></wsse:Security>"
        )
    }

    fn check(cfg: &WssConfig, header: &str) -> Result<InboundReport, WssError> {
        cfg.check_response(envelope(header).as_bytes(), NOW)
    }

    fn requiring() -> WssConfig {
        WssConfig::new().timestamp(Duration::from_secs(300))
    }

    #[test]
    fn fresh_timestamp_passes() {
        let r = check(
            &requiring(),
            &ts("2026-11-18T11:06:00Z", "2026-11-18T11:11:00Z"),
        )
        .unwrap();
        assert!(r.security_header);
        assert_eq!(
            r.timestamp.unwrap().created,
            "2026-11-18T11:06:00Z".parse().unwrap()
        );
    }

    #[test]
    fn skew_is_configurable() {
        // Expired 50 s ago.
        let h = ts("2026-11-18T11:03:20Z", "2026-11-18T11:05:50Z");
        let strict = requiring().clock_skew(Duration::from_secs(30));
        assert!(matches!(
            check(&strict, &h),
            Err(WssError::TimestampExpired { skew_secs: 30, .. })
        ));
        assert!(check(&requiring(), &h).is_ok(), "default skew is 60 s");
        // Created 30 s ahead.
        let h = ts("2026-11-18T11:07:10Z", "2026-11-18T11:12:10Z");
        assert!(matches!(
            check(&requiring().clock_skew(Duration::from_secs(10)), &h),
            Err(WssError::TimestampInFuture { .. })
        ));
        assert!(check(&requiring(), &h).is_ok());
        assert!(matches!(
            check(&requiring().clock_skew(Duration::ZERO), &h),
            Err(WssError::TimestampInFuture { .. })
        ));
        // Created 90 s ahead: beyond the default 60 s (WSS4J's timeStampFutureTTL).
        let h = ts("2026-11-18T11:08:10Z", "2026-11-18T11:13:10Z");
        assert!(matches!(
            check(&requiring(), &h),
            Err(WssError::TimestampInFuture { skew_secs: 60, .. })
        ));
    }

    #[test]
    fn age_is_bounded_whatever_expires_says() {
        // Created 400 s ago, expiring in an hour: older than the default 300 s (WSS4J's
        // timeStampTTL).
        let h = ts("2026-11-18T11:00:00Z", "2026-11-18T12:00:00Z");
        assert!(matches!(
            check(&requiring(), &h),
            Err(WssError::TimestampTooOld {
                max_age_secs: 300,
                ..
            })
        ));
        let older = requiring().max_timestamp_age(Duration::from_secs(600));
        assert!(check(&older, &h).is_ok());
        // No Expires: the age alone bounds it.
        let open = "<wsse:Security><wsu:Timestamp><wsu:Created>2026-11-18T11:01:00Z</wsu:Created></wsu:Timestamp></wsse:Security>";
        assert!(matches!(
            check(&requiring(), open),
            Err(WssError::TimestampTooOld { .. })
        ));
        assert!(check(&older, open).is_ok());
    }

    /// A Security header with a Timestamp created at NOW (with `expires`, if any) and a
    /// PasswordText UsernameToken with a Nonce and Created NOW.
    fn with_nonce(expires: Option<&str>) -> String {
        let expires = expires
            .map(|e| format!("<wsu:Expires>{e}</wsu:Expires>"))
            .unwrap_or_default();
        format!(
            "<wsse:Security><wsu:Timestamp><wsu:Created>{NOW}</wsu:Created>{expires}</wsu:Timestamp><wsse:UsernameToken><wsse:Username>u</wsse:Username><wsse:Password>pw</wsse:Password><wsse:Nonce>AAECAwQFBgcICQoLDA0ODw==</wsse:Nonce><wsu:Created>{NOW}</wsu:Created></wsse:UsernameToken></wsse:Security>"
        )
    }

    /// Refused for its age: the UsernameToken's Created (checked first) or the Timestamp's.
    fn too_old(r: Result<InboundReport, WssError>) -> bool {
        match r {
            Err(WssError::UsernameToken(m)) => m.contains("maximum age"),
            Err(WssError::TimestampTooOld { .. }) => true,
            _ => false,
        }
    }

    #[test]
    fn replays_are_remembered_while_the_message_could_be_accepted() {
        let min = |m: u64| NOW.plus(Duration::from_secs(60 * m));
        let doc = |h: &str| envelope(h);
        // No Expires, a maximum age of an hour: a replay 20 minutes later (past the old fixed
        // 300 s + skew window) is still refused as a replay.
        let cfg = requiring()
            .expect_username_token("u", "pw")
            .max_timestamp_age(Duration::from_secs(3600));
        let h = with_nonce(None);
        assert!(cfg.check_response(doc(&h).as_bytes(), NOW).is_ok());
        assert_eq!(
            cfg.check_response(doc(&h).as_bytes(), min(20)).unwrap_err(),
            WssError::Replay("UsernameToken Nonce")
        );
        assert_eq!(
            cfg.check_response(doc(&h).as_bytes(), min(59)).unwrap_err(),
            WssError::Replay("UsernameToken Nonce")
        );
        // After the hour the message is refused for its age.
        assert!(too_old(cfg.check_response(doc(&h).as_bytes(), min(61))));
        // With the defaults, a replay 11 minutes later is too old, not accepted.
        let cfg = requiring().expect_username_token("u", "pw");
        assert!(cfg.check_response(doc(&h).as_bytes(), NOW).is_ok());
        assert_eq!(
            cfg.check_response(doc(&h).as_bytes(), min(4)).unwrap_err(),
            WssError::Replay("UsernameToken Nonce")
        );
        assert!(too_old(cfg.check_response(doc(&h).as_bytes(), min(11))));
        // An Expires far ahead does not extend the age limit.
        let far = with_nonce(Some("2026-11-19T11:06:40Z"));
        let cfg = requiring().expect_username_token("u", "pw");
        assert!(cfg.check_response(doc(&far).as_bytes(), NOW).is_ok());
        assert!(too_old(cfg.check_response(doc(&far).as_bytes(), min(6))));
    }

    #[test]
    fn username_token_created_is_checked_as_wss4j_does() {
        let cfg = WssConfig::new().expect_username_token("u", "pw");
        let ut = |created: &str| {
            format!("<wsse:Security><wsse:UsernameToken><wsse:Username>u</wsse:Username><wsse:Password>pw</wsse:Password><wsu:Created>{created}</wsu:Created></wsse:UsernameToken></wsse:Security>")
        };
        assert!(check(&cfg, &ut("2026-11-18T11:02:00Z")).is_ok());
        // 400 s old (utTTL 300 s), 90 s ahead (utFutureTTL 60 s).
        let e = check(&cfg, &ut("2026-11-18T11:00:00Z")).unwrap_err();
        assert!(
            matches!(&e, WssError::UsernameToken(m) if m.contains("maximum age of 300 s")),
            "{e}"
        );
        let e = check(&cfg, &ut("2026-11-18T11:08:10Z")).unwrap_err();
        assert!(
            matches!(&e, WssError::UsernameToken(m) if m.contains("in the future")),
            "{e}"
        );
        let lenient = cfg
            .clone()
            .max_timestamp_age(Duration::from_secs(600))
            .clock_skew(Duration::from_secs(120));
        assert!(check(&lenient, &ut("2026-11-18T11:00:00Z")).is_ok());
        assert!(check(&lenient, &ut("2026-11-18T11:08:10Z")).is_ok());
    }

    #[test]
    fn missing_and_duplicate() {
        assert!(matches!(
            check(&requiring(), ""),
            Err(WssError::MissingSecurityHeader { .. })
        ));
        assert!(matches!(
            check(&requiring(), "<wsse:Security/>"),
            Err(WssError::MissingTimestamp)
        ));
        assert!(check(&WssConfig::new(), "").is_ok());
        assert!(check(&requiring().require_timestamp(false), "").is_ok());
        let one = ts("2026-11-18T11:06:00Z", "2026-11-18T11:11:00Z");
        assert!(matches!(
            check(&requiring(), &format!("{one}{one}")),
            Err(WssError::DuplicateSecurityHeader)
        ));
        let inner =
            "<wsu:Timestamp><wsu:Created>2026-11-18T11:06:00Z</wsu:Created></wsu:Timestamp>";
        assert!(matches!(
            check(
                &requiring(),
                &format!("<wsse:Security>{inner}{inner}</wsse:Security>")
            ),
            Err(WssError::DuplicateTimestamp)
        ));
    }

    #[test]
    fn other_actors_are_not_ours() {
        // A Security block for another actor does not count, and a stale Timestamp in it is not
        // checked (it is not addressed to us).
        let stale = "<wsse:Security s:actor=\"urn:elsewhere\"><wsu:Timestamp><wsu:Created>2000-01-01T00:00:00Z</wsu:Created><wsu:Expires>2000-01-01T00:05:00Z</wsu:Expires></wsu:Timestamp></wsse:Security>";
        assert!(matches!(
            check(&requiring(), stale),
            Err(WssError::MissingSecurityHeader { .. })
        ));
        let fresh = ts("2026-11-18T11:06:00Z", "2026-11-18T11:11:00Z");
        assert!(check(&requiring(), &format!("{stale}{fresh}")).is_ok());
    }

    #[test]
    fn soap12_role() {
        let doc = |role: &str| {
            format!(
                r#"<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Header><wsse:Security xmlns:wsse="{WSSE_NS}" xmlns:wsu="{WSU_NS}" {role}><wsu:Timestamp><wsu:Created>2026-11-18T11:06:00Z</wsu:Created></wsu:Timestamp></wsse:Security></e:Header><e:Body/></e:Envelope>"#
            )
        };
        let cfg = requiring();
        assert!(cfg.check_response(doc("").as_bytes(), NOW).is_ok());
        assert!(cfg
            .check_response(
                doc("e:role=\"http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver\"")
                    .as_bytes(),
                NOW
            )
            .is_ok());
        assert!(matches!(
            cfg.check_response(doc("e:role=\"urn:other\"").as_bytes(), NOW),
            Err(WssError::MissingSecurityHeader { .. })
        ));
    }

    #[test]
    fn malformed_timestamps() {
        let cfg = requiring();
        let sec = |inner: &str| {
            format!("<wsse:Security><wsu:Timestamp>{inner}</wsu:Timestamp></wsse:Security>")
        };
        for (inner, want) in [
            ("", "no Created"),
            (
                "<wsu:Expires>2026-11-18T11:11:00Z</wsu:Expires>",
                "no Created",
            ),
            (
                "<wsu:Created>2026-11-18T11:06:00Z</wsu:Created><wsu:Expires>2026-11-18T11:00:00Z</wsu:Expires>",
                "Expires is before Created",
            ),
            (
                "<wsu:Created>2026-11-18T11:06:00Z</wsu:Created><wsu:Created>2026-11-18T11:06:00Z</wsu:Created>",
                "Created must come once",
            ),
            (
                "<wsu:Created>2026-11-18T11:06:00Z</wsu:Created><wsu:Expires>2026-11-18T11:11:00Z</wsu:Expires><wsu:Expires>2026-11-18T11:11:00Z</wsu:Expires>",
                "more than one Expires",
            ),
            (
                "<wsu:Created>2026-11-18T11:06:00Z</wsu:Created><wsu:Bogus/>",
                "unknown element wsu:Bogus",
            ),
            ("<wsu:Created>2026-11-18T11:06:00</wsu:Created>", "no time zone"),
            ("<wsu:Created>soon</wsu:Created>", "malformed time"),
        ] {
            let e = check(&cfg, &sec(inner)).unwrap_err();
            assert!(e.to_string().contains(want), "{inner}: {e}");
        }
        // Extension elements of other namespaces are allowed (the schema's xsd:any ##other).
        assert!(check(
            &cfg,
            &sec("<wsu:Created>2026-11-18T11:06:00Z</wsu:Created><x:ext xmlns:x=\"urn:x\"/>")
        )
        .is_ok());
    }

    #[test]
    fn not_an_envelope() {
        let e = requiring().check_response(b"<html/>", NOW).unwrap_err();
        assert!(matches!(e, WssError::Read(_)), "{e}");
        let e = requiring()
            .check_response(b"<!DOCTYPE x [<!ENTITY a 'b'>]><x/>", NOW)
            .unwrap_err();
        assert!(matches!(e, WssError::Read(_)), "{e}");
    }
}
