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

    /// Checks freshness against `now` as WSS4J does (WSS 1.1 §10.2 leaves the policy to the
    /// recipient; WSS4J's `timeStampTTL` and `timeStampFutureTTL`):
    ///
    /// - `Created` must not be later than `now + skew` (a clock running ahead);
    /// - `Created` must not be earlier than `now - max_age`, whatever `Expires` says (so a
    ///   Timestamp without `Expires`, or with a far one, is bounded too);
    /// - `Expires`, when present, must not be earlier than `now - skew`.
    ///
    /// # Errors
    ///
    /// [`WssError::TimestampInFuture`], [`WssError::TimestampTooOld`],
    /// [`WssError::TimestampExpired`].
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use soapgen_runtime::wss::{Timestamp, UtcTime};
    /// let s = Duration::from_secs;
    /// let now = UtcTime::from_unix_millis(1_000_000_000);
    /// let ts = Timestamp::new(now, s(60));
    /// assert!(ts.check(now, s(300), Duration::ZERO).is_ok());
    /// assert!(ts.check(now.plus(s(61)), s(300), Duration::ZERO).is_err()); // expired
    /// assert!(ts.check(now.plus(s(61)), s(300), s(5)).is_ok());
    /// let open = Timestamp { created: now, expires: None };
    /// assert!(open.check(now.plus(s(301)), s(300), s(60)).is_err()); // too old
    /// ```
    pub fn check(&self, now: UtcTime, max_age: Duration, skew: Duration) -> Result<(), WssError> {
        if self.created > now.plus(skew) {
            return Err(WssError::TimestampInFuture {
                created: self.created.to_string(),
                now: now.to_string(),
                skew_secs: skew.as_secs(),
            });
        }
        if self.created < now.minus(max_age) {
            return Err(WssError::TimestampTooOld {
                created: self.created.to_string(),
                now: now.to_string(),
                max_age_secs: max_age.as_secs(),
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

    /// The last instant at which [`check`](Self::check) with `max_age` and `skew` accepts this
    /// Timestamp: `Created + max_age`, or `Expires + skew` if that is earlier.
    pub fn accepted_until(&self, max_age: Duration, skew: Duration) -> UtcTime {
        let by_age = self.created.plus(max_age);
        match self.expires {
            Some(e) => by_age.min(e.plus(skew)),
            None => by_age,
        }
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
        let age = s(3600);
        let ts = Timestamp::new(now, s(300));
        assert!(ts.check(now, age, s(0)).is_ok());
        assert!(ts.check(now.plus(s(300)), age, s(0)).is_ok());
        let e = ts.check(now.plus(s(301)), age, s(0)).unwrap_err();
        assert!(matches!(e, WssError::TimestampExpired { .. }), "{e}");
        assert!(ts.check(now.plus(s(301)), age, s(1)).is_ok());
        // Created in the future.
        let e = ts.check(now.minus(s(10)), age, s(5)).unwrap_err();
        assert!(matches!(e, WssError::TimestampInFuture { .. }), "{e}");
        assert!(ts.check(now.minus(s(10)), age, s(10)).is_ok());
        // Created too long ago, whatever Expires says.
        let long = Timestamp::new(now, s(86_400));
        assert!(long.check(now.plus(s(300)), s(300), s(0)).is_ok());
        let e = long.check(now.plus(s(301)), s(300), s(0)).unwrap_err();
        assert!(
            matches!(
                e,
                WssError::TimestampTooOld {
                    max_age_secs: 300,
                    ..
                }
            ),
            "{e}"
        );
        // No Expires: bounded by the age alone.
        let open = Timestamp {
            created: now,
            expires: None,
        };
        assert!(open.check(now.plus(s(300)), s(300), s(0)).is_ok());
        assert!(open.check(now.plus(s(301)), s(300), s(0)).is_err());
        // Accepted until the earlier of Created + age and Expires + skew.
        assert_eq!(open.accepted_until(s(300), s(60)), now.plus(s(300)));
        assert_eq!(ts.accepted_until(s(600), s(60)), now.plus(s(360)));
        assert_eq!(long.accepted_until(s(300), s(60)), now.plus(s(300)));
    }
}
