//! Trying a call again: never unless asked (a SOAP call is not idempotent), and then only after
//! the failures a [`Retry`] names, with exponential backoff and jitter, honouring the server's
//! `Retry-After` (RFC 9110 §10.2.3) within a total deadline. Each attempt is a new exchange: the
//! message layers write a fresh Timestamp, Nonce and signature (WS-Security) and MessageID
//! (WS-Addressing).

use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

use crate::error::TransportErrorKind;

/// When a call is tried again, how long to wait, and for how long in all
/// ([`ClientBuilder::retry`](super::ClientBuilder::retry)).
///
/// Tried again: after a connection that could not be made (kind
/// [`Connect`](TransportErrorKind::Connect): the request never reached the server); after an
/// HTTP status of [`statuses`](Self::statuses) (default 502, 503, 504: the server or a gateway
/// said it did not process the request), waiting what its `Retry-After` says when it says so
/// (delta-seconds or an HTTP-date, RFC 9110 §10.2.3);
/// after a [`Timeout`](TransportErrorKind::Timeout) only when [`timeouts`](Self::timeouts) says
/// so (the server may have processed the request). Never after a SOAP fault or any other error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Retry {
    attempts: u32,
    base: Duration,
    max_delay: Duration,
    total: Option<Duration>,
    statuses: Vec<u16>,
    timeouts: bool,
}

impl Retry {
    /// At most `attempts` attempts in all (`1`: none again), waiting 200 ms before the second,
    /// doubling up to 30 s, each wait drawn between half of it and all of it (jitter).
    pub fn new(attempts: u32) -> Self {
        Retry {
            attempts: attempts.max(1),
            base: Duration::from_millis(200),
            max_delay: Duration::from_secs(30),
            total: None,
            statuses: vec![502, 503, 504],
            timeouts: false,
        }
    }

    /// The first wait and the longest one. A `Retry-After` longer than `max` ends the retries.
    pub fn backoff(mut self, base: Duration, max: Duration) -> Self {
        self.base = base;
        self.max_delay = max.max(base);
        self
    }

    /// No attempt starts later than `total` after the first one began (the last attempt may
    /// then run its own [`timeout`](super::ClientBuilder::timeout) beyond it).
    pub fn total(mut self, total: Duration) -> Self {
        self.total = Some(total);
        self
    }

    /// The HTTP statuses that are tried again (default 502, 503, 504).
    pub fn statuses(mut self, statuses: &[u16]) -> Self {
        self.statuses = statuses.to_vec();
        self
    }

    /// Whether a call that timed out is tried again (default `false`: the server may have
    /// processed it).
    pub fn timeouts(mut self, on: bool) -> Self {
        self.timeouts = on;
        self
    }

    /// The wait before the next attempt after attempt `attempt` (from 1) answered `status` with
    /// `retry_after`; `None`: no other attempt.
    pub(crate) fn after_status(
        &self,
        attempt: u32,
        status: u16,
        retry_after: Option<&str>,
    ) -> Option<Duration> {
        if attempt >= self.attempts || !self.statuses.contains(&status) {
            return None;
        }
        // Delta-seconds or an HTTP-date (RFC 9110 §10.2.3); anything else falls back to the
        // backoff.
        match retry_after.and_then(|v| retry_after_wait(v, std::time::SystemTime::now())) {
            Some(wait) if wait > self.max_delay => None,
            Some(wait) => Some(wait),
            None => Some(self.delay(attempt)),
        }
    }

    /// The wait before the next attempt after attempt `attempt` failed with `kind`.
    pub(crate) fn after_error(&self, attempt: u32, kind: TransportErrorKind) -> Option<Duration> {
        let again = match kind {
            TransportErrorKind::Connect => true,
            TransportErrorKind::Timeout => self.timeouts,
            _ => false,
        };
        (again && attempt < self.attempts).then(|| self.delay(attempt))
    }

    /// Whether a wait of `wait` after `elapsed` since the first attempt stays within the total.
    pub(crate) fn within_total(&self, elapsed: Duration, wait: Duration) -> bool {
        self.total.is_none_or(|t| elapsed + wait <= t)
    }

    /// The backoff after attempt `attempt`: `base * 2^(attempt - 1)`, at most `max_delay`,
    /// drawn between its half and itself.
    fn delay(&self, attempt: u32) -> Duration {
        let full = self
            .base
            .saturating_mul(1u32 << (attempt - 1).min(20))
            .min(self.max_delay);
        let half = full / 2;
        let random = std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish();
        // At most u64::MAX ns (584 years): a span wider than that is drawn within it.
        let span = u64::try_from((full - half).as_nanos())
            .unwrap_or(u64::MAX)
            .max(1);
        half.saturating_add(Duration::from_nanos(random % span))
    }
}

/// The wait a `Retry-After` value asks for at `now` (RFC 9110 §10.2.3): delta-seconds, or the
/// time until an HTTP-date (§5.6.7; none when it has passed); `None` for a value that is neither.
fn retry_after_wait(value: &str, now: std::time::SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(s) = value.parse::<u64>() {
        return Some(Duration::from_secs(s));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::{retry_after_wait, Retry};
    use crate::error::TransportErrorKind;
    use std::time::{Duration, SystemTime, UNIX_EPOCH};

    #[test]
    fn retry_after_is_delta_seconds_or_an_http_date() {
        // 1994-11-06T08:49:37Z, RFC 9110 §5.6.7's example, in its three forms.
        let date = UNIX_EPOCH + Duration::from_secs(784_111_777);
        let before = date - Duration::from_secs(30);
        for v in [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
        ] {
            assert_eq!(
                retry_after_wait(v, before),
                Some(Duration::from_secs(30)),
                "{v}"
            );
        }
        // Past: no wait; delta-seconds; neither.
        assert_eq!(
            retry_after_wait("Sun, 06 Nov 1994 08:49:37 GMT", SystemTime::now()),
            Some(Duration::ZERO)
        );
        assert_eq!(
            retry_after_wait(" 7 ", SystemTime::now()),
            Some(Duration::from_secs(7))
        );
        assert_eq!(retry_after_wait("soon", SystemTime::now()), None);
        // A date the retry honours.
        let r = Retry::new(3).backoff(Duration::from_millis(100), Duration::from_secs(60));
        let in_a_while = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(20));
        let d = r.after_status(1, 503, Some(&in_a_while)).unwrap();
        assert!(
            d > Duration::from_secs(15) && d <= Duration::from_secs(20),
            "{d:?}"
        );
    }

    #[test]
    fn what_is_tried_again_and_how_long_it_waits() {
        let r = Retry::new(3).backoff(Duration::from_millis(100), Duration::from_secs(1));
        // Connect: again, backing off; not after the last attempt.
        let d = r.after_error(1, TransportErrorKind::Connect).unwrap();
        assert!(
            d >= Duration::from_millis(50) && d <= Duration::from_millis(100),
            "{d:?}"
        );
        let d = r.after_error(2, TransportErrorKind::Connect).unwrap();
        assert!(
            d >= Duration::from_millis(100) && d <= Duration::from_millis(200),
            "{d:?}"
        );
        assert_eq!(r.after_error(3, TransportErrorKind::Connect), None);
        // A timeout only when asked; any other failure never.
        assert_eq!(r.after_error(1, TransportErrorKind::Timeout), None);
        let t = r.clone().timeouts(true);
        assert!(t.after_error(1, TransportErrorKind::Timeout).is_some());
        assert_eq!(r.after_error(1, TransportErrorKind::Other), None);
        // A 503's Retry-After is honoured, up to the longest wait; other statuses are not retried.
        assert_eq!(
            r.after_status(1, 503, Some("1")),
            Some(Duration::from_secs(1))
        );
        assert_eq!(r.after_status(1, 503, Some("120")), None);
        assert!(r.after_status(1, 502, None).is_some());
        assert_eq!(r.after_status(1, 500, None), None);
        // Absurd backoffs do not overflow.
        let huge = Retry::new(3).backoff(Duration::MAX, Duration::MAX);
        assert!(huge.after_status(1, 503, None).is_some());
        // The total deadline.
        let total = r.total(Duration::from_secs(2));
        assert!(total.within_total(Duration::from_secs(1), Duration::from_millis(900)));
        assert!(!total.within_total(Duration::from_secs(1), Duration::from_millis(1100)));
    }
}
