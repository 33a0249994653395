//! Checks of a response's `wsse:Security` header against the client's inbound policy.

use std::borrow::Cow;

use super::{Timestamp, UtcTime, WssConfig, WssError, WSSE_NS, WSU_NS};
use crate::envelope::SoapVersion;
use crate::xml::{Limits, Name, StartTag, XmlReader};

/// What the inbound check found in a response's `wsse:Security` header.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct InboundReport {
    /// Whether the response had a `wsse:Security` header for this recipient.
    pub security_header: bool,
    /// Its `wsu:Timestamp`, if any (already checked for freshness).
    pub timestamp: Option<Timestamp>,
}

impl WssConfig {
    /// Checks a response envelope (UTF-8) against this configuration's inbound policy at time `now`:
    /// reads the `wsse:Security` header block meant for this recipient (no SOAP 1.1 `actor`, or
    /// SOAP 1.2 `role` absent or `…/ultimateReceiver`; blocks for other actors are ignored, WSS 1.1
    /// §5), its `wsu:Timestamp` (WSS 1.1 §10: at most one, `Created` required, `Expires` not
    /// before `Created`) and checks it is fresh within [`skew`](Self::skew)
    /// ([`Timestamp::check`]). A required Timestamp that is missing is an error
    /// ([`requires_timestamp`](Self::requires_timestamp)). Reading stops at the `Body`.
    ///
    /// The client runs this on every response with a 2xx status; it is public to check captured
    /// messages.
    ///
    /// # Errors
    ///
    /// [`WssError::Read`] for XML that is not a readable envelope, and the policy errors:
    /// [`WssError::MissingSecurityHeader`], [`WssError::DuplicateSecurityHeader`],
    /// [`WssError::MissingTimestamp`], [`WssError::DuplicateTimestamp`],
    /// [`WssError::MalformedTimestamp`], [`WssError::MalformedTime`],
    /// [`WssError::TimestampExpired`], [`WssError::TimestampInFuture`].
    pub fn check_response(&self, envelope: &[u8], now: UtcTime) -> Result<InboundReport, WssError> {
        self.check_response_with_limits(envelope, now, Limits::default())
    }

    pub(crate) fn check_response_with_limits(
        &self,
        envelope: &[u8],
        now: UtcTime,
        limits: Limits,
    ) -> Result<InboundReport, WssError> {
        let read = |e: crate::error::DecodeError| WssError::Read(e.to_string());
        let mut r = XmlReader::from_bytes(envelope, limits).map_err(read)?;
        let root = r.root().map_err(read)?;
        let version = SoapVersion::from_envelope_namespace(r.namespace_of(&root))
            .filter(|_| root.local_name() == "Envelope")
            .ok_or_else(|| WssError::Read("the response is not a SOAP envelope".to_owned()))?;
        let env_ns = version.envelope_namespace();
        let mut report = InboundReport::default();
        if let Some(first) = r.next_child().map_err(read)? {
            if r.matches(&first, Name::new(env_ns, "Header")) {
                while let Some(entry) = r.next_child().map_err(read)? {
                    if r.matches(&entry, Name::new(WSSE_NS, "Security"))
                        && for_us(&r, &entry, version).map_err(read)?
                    {
                        if report.security_header {
                            return Err(WssError::DuplicateSecurityHeader);
                        }
                        report.security_header = true;
                        read_security(&mut r, &mut report)?;
                    } else {
                        r.skip_element().map_err(read)?;
                    }
                }
            }
        }
        match report.timestamp {
            Some(ts) => ts.check(now, self.skew())?,
            None if self.requires_timestamp() => {
                return Err(if report.security_header {
                    WssError::MissingTimestamp
                } else {
                    WssError::MissingSecurityHeader {
                        required: "a Timestamp",
                    }
                })
            }
            None => {}
        }
        Ok(report)
    }
}

/// Whether a Security block is addressed to the ultimate receiver (WSS 1.1 §5, SOAP 1.1 §4.2.2
/// `actor`, SOAP 1.2 Part 1 §5.2.2 `role`).
fn for_us(
    r: &XmlReader<'_>,
    tag: &StartTag<'_>,
    version: SoapVersion,
) -> Result<bool, crate::error::DecodeError> {
    Ok(match version {
        SoapVersion::Soap11 => {
            let actor = r.attribute(tag, Name::new(version.envelope_namespace(), "actor"))?;
            actor.is_none_or(|a| a.trim().is_empty())
        }
        SoapVersion::Soap12 => {
            let role = r.attribute(tag, Name::new(version.envelope_namespace(), "role"))?;
            role.is_none_or(|a| {
                let a = a.trim();
                a.is_empty() || a == "http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver"
            })
        }
    })
}

fn read_security(r: &mut XmlReader<'_>, report: &mut InboundReport) -> Result<(), WssError> {
    let read = |e: crate::error::DecodeError| WssError::Read(e.to_string());
    while let Some(child) = r.next_child().map_err(read)? {
        if r.matches(&child, Name::new(WSU_NS, "Timestamp")) {
            if report.timestamp.is_some() {
                return Err(WssError::DuplicateTimestamp);
            }
            report.timestamp = Some(read_timestamp(r)?);
        } else {
            r.skip_element().map_err(read)?;
        }
    }
    Ok(())
}

fn read_timestamp(r: &mut XmlReader<'_>) -> Result<Timestamp, WssError> {
    let read = |e: crate::error::DecodeError| WssError::Read(e.to_string());
    let bad = |s: &str| WssError::MalformedTimestamp(s.to_owned());
    let mut created = None;
    let mut expires = None;
    while let Some(child) = r.next_child().map_err(read)? {
        if r.matches(&child, Name::new(WSU_NS, "Created")) {
            if created.is_some() || expires.is_some() {
                return Err(bad("Created must come once, first"));
            }
            let text: Cow<'_, str> = r.read_text().map_err(read)?;
            created = Some(text.parse::<UtcTime>()?);
        } else if r.matches(&child, Name::new(WSU_NS, "Expires")) {
            if expires.is_some() {
                return Err(bad("more than one Expires"));
            }
            let text: Cow<'_, str> = r.read_text().map_err(read)?;
            expires = Some(text.parse::<UtcTime>()?);
        } else if r.namespace_of(&child) == WSU_NS.as_bytes() {
            return Err(bad(&format!("unknown element wsu:{}", child.local_name())));
        } else {
            // Extensibility elements of other namespaces (the schema's xsd:any ##other).
            r.skip_element().map_err(read)?;
        }
    }
    let Some(created) = created else {
        return Err(bad("no Created"));
    };
    if let Some(e) = expires {
        if e < created {
            return Err(bad("Expires is before Created"));
        }
    }
    Ok(Timestamp { created, expires })
}

/// Called by the client on a successful response (UTF-8 root part).
pub(crate) fn check_response(
    cfg: &WssConfig,
    envelope: &[u8],
    limits: Limits,
) -> Result<InboundReport, WssError> {
    cfg.check_response_with_limits(envelope, UtcTime::now(), limits)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

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
        // Expired 100 s ago.
        let h = ts("2026-11-18T11:00:00Z", "2026-11-18T11:05:00Z");
        let strict = requiring().clock_skew(Duration::from_secs(60));
        assert!(matches!(
            check(&strict, &h),
            Err(WssError::TimestampExpired { skew_secs: 60, .. })
        ));
        assert!(check(&requiring(), &h).is_ok(), "default skew is 300 s");
        // Created 200 s ahead.
        let h = ts("2026-11-18T11:10:00Z", "2026-11-18T11:15:00Z");
        assert!(matches!(
            check(&strict, &h),
            Err(WssError::TimestampInFuture { .. })
        ));
        assert!(check(&requiring(), &h).is_ok());
        assert!(matches!(
            check(&requiring().clock_skew(Duration::ZERO), &h),
            Err(WssError::TimestampInFuture { .. })
        ));
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
