//! `wsu:Timestamp` (WSS 1.1 §10), written and checked.

use std::time::Duration;

use super::{UtcTime, WssError, WSU_NS};
use crate::xml::{Name, XmlWriter};

/// A `wsu:Timestamp` (WSS 1.1 §10): when the message was created and, optionally, when its
/// security semantics expire.
///
/// ```xml
/// <wsu:Timestamp wsu:Id="TS-…">
///   <wsu:Created>2026-11-30T10:00:00.000Z</wsu:Created>
///   <wsu:Expires>2026-11-30T10:05:00.000Z</wsu:Expires>
/// </wsu:Timestamp>
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timestamp {
    /// `wsu:Created` (required, §10.2).
    pub created: UtcTime,
    /// `wsu:Expires` (optional, §10.2).
    pub expires: Option<UtcTime>,
}

impl Timestamp {
    /// A Timestamp created at `now` that expires `ttl` later.
    pub fn new(now: UtcTime, ttl: Duration) -> Timestamp {
        Timestamp {
            created: now,
            expires: Some(now.plus(ttl)),
        }
    }

    /// Checks freshness against `now` with `skew` of tolerance for clock differences (WSS 1.1
    /// §10.2 leaves the policy to the recipient; this one is WSS4J's and WCF's):
    ///
    /// - `Created` must not be later than `now + skew`;
    /// - `Expires`, when present, must not be earlier than `now - skew`.
    ///
    /// # Errors
    ///
    /// [`WssError::TimestampInFuture`], [`WssError::TimestampExpired`].
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use soapgen_runtime::wss::{Timestamp, UtcTime};
    /// let now = UtcTime::from_unix_millis(1_000_000);
    /// let ts = Timestamp::new(now, Duration::from_secs(60));
    /// assert!(ts.check(now, Duration::ZERO).is_ok());
    /// assert!(ts.check(now.plus(Duration::from_secs(61)), Duration::ZERO).is_err());
    /// assert!(ts.check(now.plus(Duration::from_secs(61)), Duration::from_secs(5)).is_ok());
    /// ```
    pub fn check(&self, now: UtcTime, skew: Duration) -> Result<(), WssError> {
        if self.created > now.plus(skew) {
            return Err(WssError::TimestampInFuture {
                created: self.created.to_string(),
                now: now.to_string(),
                skew_secs: skew.as_secs(),
            });
        }
        if let Some(expires) = self.expires {
            if expires < now.minus(skew) {
                return Err(WssError::TimestampExpired {
                    expires: expires.to_string(),
                    now: now.to_string(),
                    skew_secs: skew.as_secs(),
                });
            }
        }
        Ok(())
    }

    /// Writes `<wsu:Timestamp wsu:Id="{id}">` with `Created` and `Expires`.
    pub(crate) fn write(&self, w: &mut XmlWriter, id: &str) -> Result<(), WssError> {
        w.start_element(Name::new(WSU_NS, "Timestamp"))?;
        w.attribute(Name::new(WSU_NS, "Id"), id)?;
        w.simple_element(
            Name::new(WSU_NS, "Created"),
            self.created.to_string().as_str(),
        )?;
        if let Some(e) = self.expires {
            w.simple_element(Name::new(WSU_NS, "Expires"), e.to_string().as_str())?;
        }
        w.end_element()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freshness() {
        let now = UtcTime::from_unix_millis(10_000_000);
        let s = Duration::from_secs;
        let ts = Timestamp::new(now, s(300));
        assert!(ts.check(now, s(0)).is_ok());
        assert!(ts.check(now.plus(s(300)), s(0)).is_ok());
        let e = ts.check(now.plus(s(301)), s(0)).unwrap_err();
        assert!(matches!(e, WssError::TimestampExpired { .. }), "{e}");
        assert!(ts.check(now.plus(s(301)), s(1)).is_ok());
        // Created in the future.
        let e = ts.check(now.minus(s(10)), s(5)).unwrap_err();
        assert!(matches!(e, WssError::TimestampInFuture { .. }), "{e}");
        assert!(ts.check(now.minus(s(10)), s(10)).is_ok());
        // No Expires: only Created is checked.
        let open = Timestamp {
            created: now,
            expires: None,
        };
        assert!(open.check(now.plus(s(1_000_000)), s(0)).is_ok());
    }
}
