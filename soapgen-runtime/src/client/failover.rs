//! Several addresses of one service tried in turn ([`Failover`]): the ports of a WSDL that bind
//! the same binding at different addresses (WSDL 1.1 §2.6–§2.7), or a service's primary and
//! standby, with the ones that failed skipped for a while.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// In what order a call tries the addresses of a [`Failover`] set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum FailoverOrder {
    /// The first healthy address, then the next ones in the order given: a primary and its
    /// standbys.
    #[default]
    Ordered,
    /// Each call starts at the address after the previous call's start, then goes on in order:
    /// the load spread over equal servers.
    RoundRobin,
}

/// The addresses of one service, tried in turn: a call whose connection to one cannot be made
/// (refused, unreachable, DNS, a TLS handshake that failed: the request never reached a server)
/// goes on to the next at once; with a [`Retry`](super::Retry) policy, each further attempt it
/// allows goes to the next address too. An address that failed is skipped by later calls for
/// [`unhealthy_for`](Self::unhealthy_for) (default 30 s) unless every address is: then all are
/// tried, the one that failed longest ago first.
///
/// A call that reached a server and failed there (a timeout after the request was sent, a `5xx`,
/// a SOAP fault) is not sent to another address unless the retry policy says so: a SOAP call is
/// not idempotent.
///
/// Given to [`ClientBuilder::failover`](super::ClientBuilder::failover). WS-Addressing's `To`, the
/// security layers and errors see the address each attempt went to.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "reqwest")] {
/// use soapgen_runtime::{Client, Failover};
/// let client = Client::builder("https://primary.example.com/soap")
///     .failover(Failover::ordered([
///         "https://primary.example.com/soap",
///         "https://standby.example.com/soap",
///     ]))
///     .build()?;
/// assert_eq!(client.endpoint(), "https://primary.example.com/soap");
/// # }
/// # Ok::<(), soapgen_runtime::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct Failover {
    pub(crate) urls: Vec<String>,
    pub(crate) order: FailoverOrder,
    pub(crate) unhealthy_for: Duration,
}

impl Failover {
    /// The addresses `urls`, tried in [`FailoverOrder::Ordered`] order.
    pub fn ordered<I, S>(urls: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Failover {
            urls: urls.into_iter().map(Into::into).collect(),
            order: FailoverOrder::Ordered,
            unhealthy_for: Duration::from_secs(30),
        }
    }

    /// The addresses `urls`, tried in [`FailoverOrder::RoundRobin`] order.
    pub fn round_robin<I, S>(urls: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Failover {
            order: FailoverOrder::RoundRobin,
            ..Self::ordered(urls)
        }
    }

    /// How long an address whose connection failed is skipped (default 30 s; zero: never).
    pub fn unhealthy_for(mut self, d: Duration) -> Self {
        self.unhealthy_for = d;
        self
    }

    /// The addresses, in the order given.
    pub fn urls(&self) -> &[String] {
        &self.urls
    }

    /// The order.
    pub fn order(&self) -> FailoverOrder {
        self.order
    }
}

/// A [`Failover`] set in use: which address each call starts at, and until when each failed one
/// is skipped. Shared by the clones of a client.
#[derive(Debug)]
pub(crate) struct Endpoints {
    set: Failover,
    next: AtomicUsize,
    /// Per address: skipped until then.
    unhealthy: Mutex<Vec<Option<Instant>>>,
}

impl Endpoints {
    pub(crate) fn new(set: Failover) -> Self {
        let n = set.urls.len();
        Endpoints {
            set,
            next: AtomicUsize::new(0),
            unhealthy: Mutex::new(vec![None; n]),
        }
    }

    /// The addresses one call tries, in order (indices into the set): the healthy ones from its
    /// start, then those still skipped, the one that failed longest ago first.
    pub(crate) fn plan(&self, now: Instant) -> Vec<usize> {
        let n = self.set.urls.len();
        let start = match self.set.order {
            FailoverOrder::Ordered => 0,
            FailoverOrder::RoundRobin => self.next.fetch_add(1, Ordering::Relaxed) % n.max(1),
        };
        let unhealthy = self.unhealthy.lock().unwrap_or_else(|e| e.into_inner());
        let mut healthy = Vec::with_capacity(n);
        let mut skipped = Vec::new();
        for i in (0..n).map(|k| (start + k) % n) {
            match unhealthy[i] {
                Some(until) if until > now => skipped.push((until, i)),
                _ => healthy.push(i),
            }
        }
        skipped.sort();
        healthy.extend(skipped.into_iter().map(|(_, i)| i));
        healthy
    }

    /// The address at `i`.
    pub(crate) fn url(&self, i: usize) -> &str {
        &self.set.urls[i]
    }

    /// Records that the address at `i` failed at `now`.
    pub(crate) fn failed(&self, i: usize, now: Instant) {
        if self.set.unhealthy_for.is_zero() {
            return;
        }
        let mut unhealthy = self.unhealthy.lock().unwrap_or_else(|e| e.into_inner());
        unhealthy[i] = Some(now + self.set.unhealthy_for);
    }

    /// Records that the address at `i` answered.
    pub(crate) fn answered(&self, i: usize) {
        let mut unhealthy = self.unhealthy.lock().unwrap_or_else(|e| e.into_inner());
        unhealthy[i] = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_sets_start_first_and_skip_what_failed_until_it_is_due() {
        let e = Endpoints::new(Failover::ordered(["a", "b", "c"]));
        let t = Instant::now();
        assert_eq!(e.plan(t), [0, 1, 2]);
        e.failed(0, t);
        assert_eq!(e.plan(t), [1, 2, 0]);
        e.failed(1, t + Duration::from_secs(1));
        assert_eq!(e.plan(t + Duration::from_secs(2)), [2, 0, 1]);
        // Due again after 30 s.
        assert_eq!(e.plan(t + Duration::from_millis(30_500)), [0, 2, 1]);
        e.answered(1);
        assert_eq!(e.plan(t + Duration::from_secs(2)), [1, 2, 0]);
    }

    #[test]
    fn round_robin_sets_start_one_further_each_call() {
        let e = Endpoints::new(Failover::round_robin(["a", "b", "c"]));
        let t = Instant::now();
        assert_eq!(e.plan(t), [0, 1, 2]);
        assert_eq!(e.plan(t), [1, 2, 0]);
        assert_eq!(e.plan(t), [2, 0, 1]);
        assert_eq!(e.plan(t), [0, 1, 2]);
        let never = Endpoints::new(Failover::round_robin(["a", "b"]).unhealthy_for(Duration::ZERO));
        never.failed(0, t);
        assert_eq!(never.plan(t), [0, 1]);
    }
}
