//! The soak: many concurrent callers for a while against the gSOAP server, the client's memory,
//! open file descriptors and tokio tasks sampled every second. What must hold (the load is
//! bounded in callers and time): no error, and from the warm-up on (the 10th second of a full
//! run) RSS grows by at most 5 % and the descriptors stay as they are. gSOAP's C client runs the
//! same load in the same run for its calls per second.
//!
//! `soak URL VER reqwest|hyper CALLERS SECS` (the client side) prints one `sample …` line per
//! second, an `error t=… message` line for each of the first three failed calls, and a last line of `key=value` pairs (`calls`, `errors`, `secs`, `rss_from_kib`,
//! `rss_to_kib`, `fds_from`, `fds_to`, `tasks_from`, `tasks_to`).

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use soapgen_runtime::SoapVersion;

use crate::client::{soak_client, Transport};

/// One second of the run.
#[derive(Debug, Clone, Copy)]
struct Sample {
    t: u64,
    calls: u64,
    errors: u64,
    rss_kib: u64,
    fds: u64,
    tasks: u64,
}

/// This process's resident set (VmRSS), KiB.
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// This process's open file descriptors.
fn fds() -> u64 {
    std::fs::read_dir("/proc/self/fd").map_or(0, |d| d.count() as u64)
}

/// The second the figures are compared from: the 10th, or a sixth of a shorter run.
fn warm(secs: u64) -> u64 {
    if secs >= 30 {
        10
    } else {
        (secs / 6).max(1)
    }
}

/// The client side: see the module docs.
pub fn run(url: &str, version: SoapVersion, transport: Transport, callers: usize, secs: u64) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let handle = rt.handle().clone();
    rt.block_on(async move {
        let client = soak_client(url, version, transport);
        let (calls, errors) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
        let start = Instant::now();
        let deadline = start + Duration::from_secs(secs);
        let callers: Vec<_> = (0..callers)
            .map(|_| {
                let (client, calls, errors) = (client.clone(), calls.clone(), errors.clone());
                tokio::spawn(async move {
                    while Instant::now() < deadline {
                        match client.call().await {
                            Ok(()) => {
                                calls.fetch_add(1, Ordering::Relaxed);
                            }
                            // The first few errors are printed, to say what went wrong.
                            Err(e) => {
                                if errors.fetch_add(1, Ordering::Relaxed) < 3 {
                                    println!("error t={} {e}", start.elapsed().as_secs());
                                }
                            }
                        }
                    }
                })
            })
            .collect();
        let mut samples = Vec::new();
        for t in 1..=secs {
            tokio::time::sleep_until((start + Duration::from_secs(t)).into()).await;
            let s = Sample {
                t,
                calls: calls.load(Ordering::Relaxed),
                errors: errors.load(Ordering::Relaxed),
                rss_kib: rss_kib(),
                fds: fds(),
                tasks: handle.metrics().num_alive_tasks() as u64,
            };
            println!(
                "sample t={} calls={} errors={} rss_kib={} fds={} tasks={}",
                s.t, s.calls, s.errors, s.rss_kib, s.fds, s.tasks
            );
            samples.push(s);
        }
        for c in callers {
            c.await.expect("caller task");
        }
        let elapsed = start.elapsed().as_secs_f64();
        let from = samples[(warm(secs) - 1) as usize];
        let to = *samples.last().expect("a sample");
        println!(
            "calls={} errors={} secs={elapsed:.3} rss_from_kib={} rss_to_kib={} fds_from={} \
             fds_to={} tasks_from={} tasks_to={}",
            calls.load(Ordering::Relaxed),
            errors.load(Ordering::Relaxed),
            from.rss_kib,
            to.rss_kib,
            from.fds,
            to.fds,
            from.tasks,
            to.tasks
        );
    });
}

/// A soak's figures, as the run records them.
#[derive(Debug)]
pub struct Soak {
    /// Server label.
    pub server: String,
    /// Client label.
    pub client: String,
    /// Concurrent callers.
    pub callers: usize,
    /// Calls completed.
    pub calls: f64,
    /// Calls that failed.
    pub errors: Option<f64>,
    /// Wall time.
    pub secs: f64,
    /// RSS at the warm-up second and at the end, KiB (soapgen only: sampled in process).
    pub rss_kib: Option<(f64, f64)>,
    /// Open descriptors at the warm-up second and at the end.
    pub fds: Option<(f64, f64)>,
    /// Tokio tasks alive at the warm-up second and at the end.
    pub tasks: Option<(f64, f64)>,
}

impl Soak {
    /// Whether what must hold holds: no error, RSS growth ≤ 5 %, descriptors constant.
    pub fn holds(&self) -> bool {
        let rss = self.rss_kib.is_none_or(|(a, b)| b <= a * 1.05);
        let fds = self.fds.is_none_or(|(a, b)| a == b);
        self.errors.is_none_or(|e| e == 0.0) && rss && fds
    }
}

/// The soak's section of results.md.
pub fn markdown(soak: &[Soak], heading: &str) -> String {
    let mut s = String::new();
    if soak.is_empty() {
        return s;
    }
    // The run's length (gSOAP's threads may take longer to end).
    let secs = soak.iter().map(|x| x.secs).fold(f64::INFINITY, f64::min);
    let _ = writeln!(
        s,
        "{heading} 7. Soak: Echo, {} callers for {secs:.0} s, against the gSOAP server and soapgen's fake\n\n\
         soapgen: that many tasks share one generated async client; its RSS, open file \
         descriptors and tokio tasks are sampled every second in process, from the warm-up \
         second (the 10th of a full run) to the end. Must hold: no error, RSS growth ≤ 5 %, \
         descriptors constant. gSOAP: as many threads, each failed call counted and the run \
         going on (no in-process samples). Each soak calls a server started for it (gSOAP's: \
         a thread per connection, backlog 1024).\n",
        soak[0].callers
    );
    s.push_str(
        "| server | client | callers | calls/s | errors | RSS from → to | fds from → to | tasks from → to | holds |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---|\n",
    );
    let pair = |p: Option<(f64, f64)>, unit: &str| {
        p.map_or("—".to_owned(), |(a, b)| format!("{a:.0} → {b:.0}{unit}"))
    };
    for x in soak {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {:.0} | {} | {} | {} | {} | {} |",
            x.server,
            x.client,
            x.callers,
            x.calls / x.secs,
            x.errors.map_or("—".to_owned(), |e| format!("{e:.0}")),
            pair(x.rss_kib.map(|(a, b)| (a / 1024.0, b / 1024.0)), " MiB"),
            pair(x.fds, ""),
            pair(x.tasks, ""),
            if x.holds() { "yes" } else { "**no**" }
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_must_hold() {
        let mut x = Soak {
            server: "s".to_owned(),
            client: "c".to_owned(),
            callers: 1,
            calls: 10.0,
            errors: Some(0.0),
            secs: 1.0,
            rss_kib: Some((1000.0, 1050.0)),
            fds: Some((7.0, 7.0)),
            tasks: Some((3.0, 3.0)),
        };
        assert!(x.holds());
        x.rss_kib = Some((1000.0, 1051.0));
        assert!(!x.holds());
        x.rss_kib = None;
        x.fds = Some((7.0, 8.0));
        assert!(!x.holds());
        assert_eq!(warm(60), 10);
        assert_eq!(warm(3), 1);
        assert_eq!(warm(15), 2);
    }
}
