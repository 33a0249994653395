//! Part 8, faults: each fault a production server or network brings, from a loopback server
//! that misbehaves as told (`soapgen_tests::faulty`), met by soapgen's async client on its
//! default (reqwest) transport with retries off. Per fault, several runs, each with a new server
//! and client: the error the call ends in, the time it took against the timeout that bounds it,
//! and the requests the server received. What must hold: the documented outcome, every run
//! within its bound + 10 %, and exactly the requests the calls made (nothing sent twice).

use std::fmt::Write as _;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use soapgen_runtime::error::TransportErrorKind;
use soapgen_runtime::{Client, ClientBuilder, Error};
use soapgen_tests::faulty::{server, FaultyClient, Misbehaviour};

/// The timeout that bounds a call that gets no complete answer.
const CALL: Duration = Duration::from_secs(1);
/// The read-idle timeout of the faults that stop sending.
const IDLE: Duration = Duration::from_millis(500);
/// The largest response accepted in the oversized-response fault.
const LIMIT: usize = 10_000;

/// What a fault's calls must end in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expected {
    /// A transport error of this kind.
    Kind(TransportErrorKind),
    /// A transport error that is not a timeout: the fault is seen at once.
    NotTimeout,
    /// `Error::Http` with this status.
    Status(u16),
    /// The calls succeed.
    Ok,
}

impl Expected {
    fn describe(self) -> String {
        match self {
            Expected::Kind(k) => format!("`{k:?}`"),
            Expected::NotTimeout => "a transport error at once".to_owned(),
            Expected::Status(s) => format!("HTTP {s}"),
            Expected::Ok => "success".to_owned(),
        }
    }

    fn holds(self, outcome: &Outcome) -> bool {
        match (self, outcome) {
            (Expected::Kind(k), Outcome::Transport(o)) => k == *o,
            (Expected::NotTimeout, Outcome::Transport(o)) => *o != TransportErrorKind::Timeout,
            (Expected::Status(s), Outcome::Http(o)) => s == *o,
            (Expected::Ok, Outcome::Ok) => true,
            _ => false,
        }
    }
}

/// What a call ended in.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    Ok,
    Transport(TransportErrorKind),
    Http(u16),
    Other(String),
}

impl Outcome {
    fn of(r: Result<String, Error>) -> Self {
        match r {
            Ok(_) => Outcome::Ok,
            Err(Error::Transport(t)) => Outcome::Transport(t.kind),
            Err(Error::Http { status, .. }) => Outcome::Http(status),
            Err(e) => Outcome::Other(e.to_string()),
        }
    }

    fn describe(&self) -> String {
        match self {
            Outcome::Ok => "success".to_owned(),
            Outcome::Transport(k) => format!("`{k:?}`"),
            Outcome::Http(s) => format!("HTTP {s}"),
            Outcome::Other(e) => e.clone(),
        }
    }
}

/// One fault, as the run met it.
#[derive(Debug)]
pub struct Fault {
    what: &'static str,
    setting: &'static str,
    expected: Expected,
    /// The bound each run's time is held to, before the 10 %.
    bound: Duration,
    /// Per run: outcome, time of the call, requests the server received, requests the calls made.
    runs: Vec<(Outcome, Duration, usize, usize)>,
}

impl Fault {
    /// Whether every run ended as documented, within its bound + 10 %, after as many requests at
    /// the server as the calls made.
    pub fn holds(&self) -> bool {
        !self.runs.is_empty()
            && self.runs.iter().all(|(o, t, got, made)| {
                self.expected.holds(o)
                    && t.as_secs_f64() <= self.bound.as_secs_f64() * 1.1
                    && got == made
            })
    }

    fn worst(&self) -> Duration {
        self.runs.iter().map(|r| r.1).max().unwrap_or_default()
    }
}

/// A fault to meet: its server, the client's settings, what the calls must end in and the bound.
struct Case {
    what: &'static str,
    how: Option<Misbehaviour>,
    setting: &'static str,
    settings: fn(ClientBuilder) -> ClientBuilder,
    expected: Expected,
    bound: Duration,
}

fn call_timeout(b: ClientBuilder) -> ClientBuilder {
    b.timeout(CALL)
}

fn idle_timeout(b: ClientBuilder) -> ClientBuilder {
    b.timeout(Duration::from_secs(30)).read_timeout(IDLE)
}

fn both_timeouts(b: ClientBuilder) -> ClientBuilder {
    b.timeout(CALL).read_timeout(IDLE)
}

fn limited(b: ClientBuilder) -> ClientBuilder {
    b.timeout(CALL).max_response_bytes(LIMIT)
}

fn cases() -> Vec<Case> {
    use Misbehaviour as M;
    use TransportErrorKind as K;
    let case = |what, how, setting, settings, expected, bound| Case {
        what,
        how,
        setting,
        settings,
        expected,
        bound,
    };
    let at_once = Expected::NotTimeout;
    vec![
        case(
            "connection refused",
            None,
            "`timeout(1 s)`",
            call_timeout,
            Expected::Kind(K::Connect),
            CALL,
        ),
        case(
            "reset as the connection is accepted",
            Some(M::ResetOnAccept),
            "`timeout(1 s)`",
            call_timeout,
            at_once,
            CALL,
        ),
        case(
            "reset while the request is read",
            Some(M::ResetDuringRequest),
            "`timeout(1 s)`",
            call_timeout,
            at_once,
            CALL,
        ),
        case(
            "reset during the response",
            Some(M::ResetDuringResponse),
            "`timeout(1 s)`",
            call_timeout,
            at_once,
            CALL,
        ),
        case(
            "closed without a byte",
            Some(M::Close),
            "`timeout(1 s)`",
            call_timeout,
            at_once,
            CALL,
        ),
        case(
            "stall before the header fields",
            Some(M::Stall),
            "`timeout(1 s)`",
            call_timeout,
            Expected::Kind(K::Timeout),
            CALL,
        ),
        case(
            "stall in the body",
            Some(M::StallMidBody),
            "`read_timeout(500 ms)`",
            idle_timeout,
            Expected::Kind(K::Timeout),
            IDLE,
        ),
        case(
            "slow drip (1 byte per 50 ms)",
            Some(M::Drip),
            "`timeout(1 s)`, `read_timeout(500 ms)`",
            both_timeouts,
            Expected::Kind(K::Timeout),
            CALL,
        ),
        case(
            "body shorter than its Content-Length",
            Some(M::Truncate),
            "`timeout(1 s)`",
            call_timeout,
            at_once,
            CALL,
        ),
        case(
            "chunked body cut off",
            Some(M::TruncatedChunked),
            "`timeout(1 s)`",
            call_timeout,
            at_once,
            CALL,
        ),
        case(
            "response over the size limit",
            Some(M::Huge),
            "`max_response_bytes(10000)`",
            limited,
            Expected::Kind(K::TooLarge),
            CALL,
        ),
        case(
            "503 with Retry-After",
            Some(M::Unavailable),
            "`timeout(1 s)`",
            call_timeout,
            Expected::Status(503),
            CALL,
        ),
        case(
            "TLS handshake with a plain HTTP server",
            Some(M::NotTls),
            "`timeout(1 s)`",
            call_timeout,
            at_once,
            CALL,
        ),
        case(
            "pooled connection closed by the server between two calls",
            Some(M::AnswerThenClose),
            "`timeout(1 s)`",
            call_timeout,
            Expected::Ok,
            CALL,
        ),
    ]
}

/// Meets each fault `runs` times.
pub fn run(runs: usize) -> Vec<Fault> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let mut out = Vec::new();
        for c in cases() {
            let mut fault = Fault {
                what: c.what,
                setting: c.setting,
                expected: c.expected,
                bound: c.bound,
                runs: Vec::new(),
            };
            for _ in 0..runs {
                fault.runs.push(once(&c).await);
            }
            out.push(fault);
        }
        out
    })
}

/// One run of `c`: the outcome and time of its (last) call, the requests the server received and
/// those the calls made.
async fn once(c: &Case) -> (Outcome, Duration, usize, usize) {
    let (url, requests) = match c.how {
        Some(how) => server(how).await,
        None => {
            // A port nothing listens on: bound, then let go.
            let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
            let url = format!("http://{}/faults", l.local_addr().expect("address"));
            (url, Default::default())
        }
    };
    let url = match c.how {
        Some(Misbehaviour::NotTls) => url.replacen("http://", "https://", 1),
        _ => url,
    };
    let client = (c.settings)(Client::builder(&url)).build().expect("client");
    let client = FaultyClient::from_client(client);
    let mut made = usize::from(c.how.is_some());
    if matches!(c.how, Some(Misbehaviour::AnswerThenClose)) {
        // The first call leaves its connection in the pool; the server closes it meanwhile.
        let _ = client.echo("x".into()).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        made += 1;
    }
    let started = Instant::now();
    let outcome = Outcome::of(client.echo("x".into()).await);
    let took = started.elapsed();
    (outcome, took, requests.load(Ordering::SeqCst), made)
}

/// The faults' section of results.md.
pub fn markdown(faults: &[Fault], heading: &str) -> String {
    let mut s = String::new();
    if faults.is_empty() {
        return s;
    }
    let runs = faults[0].runs.len();
    let _ = writeln!(
        s,
        "{heading} 8. Faults: each met {runs}× by the async client (reqwest transport, retries off)\n\n\
         A loopback server that misbehaves as told (`tests/src/faulty.rs`), a new one and a new \
         client per run. Time: of the call, the longest run. Must hold: the outcome documented in \
         every run, within the bound + 10 %, and the server received exactly the requests the \
         calls made (one per call: nothing is sent twice).\n"
    );
    s.push_str(
        "| fault | client setting | expected | outcome | longest | bound | requests (server / calls) | holds |\n\
         |---|---|---|---|---:|---:|---:|---|\n",
    );
    for f in faults {
        let mut distinct: Vec<String> = f.runs.iter().map(|r| r.0.describe()).collect();
        distinct.sort();
        distinct.dedup();
        let (got, made): (usize, usize) = f
            .runs
            .iter()
            .map(|r| (r.2, r.3))
            .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {:.0} ms | {:.0} ms | {got} / {made} | {} |",
            f.what,
            f.setting,
            f.expected.describe(),
            distinct.join(", "),
            f.worst().as_secs_f64() * 1e3,
            f.bound.as_secs_f64() * 1e3,
            if f.holds() { "yes" } else { "**no**" }
        );
    }
    s
}

/// The goal row of the faults.
pub fn goal(faults: &[Fault]) -> Option<String> {
    if faults.is_empty() {
        return None;
    }
    let held = faults.iter().filter(|f| f.holds()).count();
    let worst = faults
        .iter()
        .map(|f| f.worst().as_secs_f64() / f.bound.as_secs_f64())
        .fold(0.0, f64::max);
    Some(format!(
        "| every fault: the documented outcome within its timeout + 10 %, one request per call (part 8) | {held} of {} faults held; longest run at {:.0} % of its bound | {:.2}× | {} |",
        faults.len(),
        worst * 100.0,
        worst,
        if held == faults.len() { "✓" } else { "✗ missed" }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_must_hold() {
        let run = |o, ms, got, made| (o, Duration::from_millis(ms), got, made);
        let mut f = Fault {
            what: "stall",
            setting: "",
            expected: Expected::Kind(TransportErrorKind::Timeout),
            bound: Duration::from_millis(1000),
            runs: vec![run(
                Outcome::Transport(TransportErrorKind::Timeout),
                1099,
                1,
                1,
            )],
        };
        assert!(f.holds());
        f.runs.push(run(
            Outcome::Transport(TransportErrorKind::Timeout),
            1101,
            1,
            1,
        ));
        assert!(!f.holds(), "over the bound + 10 %");
        f.runs.pop();
        f.runs.push(run(
            Outcome::Transport(TransportErrorKind::Timeout),
            10,
            2,
            1,
        ));
        assert!(!f.holds(), "a request sent twice");
        f.runs.pop();
        f.runs
            .push(run(Outcome::Transport(TransportErrorKind::Other), 10, 1, 1));
        assert!(!f.holds(), "another outcome");
        f.runs.clear();
        assert!(!f.holds(), "no run");
        assert!(Expected::NotTimeout.holds(&Outcome::Transport(TransportErrorKind::Connect)));
        assert!(!Expected::NotTimeout.holds(&Outcome::Transport(TransportErrorKind::Timeout)));
        assert!(!Expected::NotTimeout.holds(&Outcome::Ok));
    }
}
