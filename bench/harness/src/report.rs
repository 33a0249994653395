//! The results of one run: Markdown (`results.md`), CSV (`results.csv`), SVG plots, and the README's
//! benchmark section.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use crate::plot::{grouped_bars, Group};
use crate::run::{
    Mode, FAKE_SERVER, GSOAP, GSOAP_SERVER, SG_ASYNC, SG_ASYNC_HYPER, SG_BLOCKING,
    SG_BLOCKING_HYPER, SPYNE_SERVER, ZEEP,
};
use crate::stats::{median, percentile};

/// Where and when the run happened.
#[derive(Debug, Default)]
pub struct Machine {
    /// `YYYY-MM-DD HH:MM UTC`.
    pub date: String,
    /// `full`, `quick` or `smoke`.
    pub mode: String,
    /// CPU model name.
    pub cpu: String,
    /// Logical CPUs.
    pub cores: usize,
    /// MemTotal.
    pub mem_gib: f64,
    /// Kernel release.
    pub kernel: String,
    /// `/proc/loadavg` (1, 5, 15 min) at the start.
    pub load_start: String,
    /// ... and at the end.
    pub load_end: String,
    /// Short commit, `+` when the tree has changes.
    pub commit: String,
    /// Versions of the tools and peers.
    pub versions: String,
    /// Wall time of the measuring part, seconds.
    pub elapsed_s: f64,
}

fn sh(cmd: &str, args: &[&str]) -> String {
    Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "n/a".to_owned())
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "n/a".to_owned())
}

impl Machine {
    /// Reads the machine's facts and the tools' versions.
    pub fn probe(root: &Path, python: &Path, mode: Mode) -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu = cpuinfo
            .lines()
            .find_map(|l| l.strip_prefix("model name"))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_owned())
            .unwrap_or_else(|| "n/a".to_owned());
        let mem_kib: f64 = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("MemTotal:"))
                    .and_then(|v| v.split_whitespace().next()?.parse().ok())
            })
            .unwrap_or(0.0);
        let root_s = root.to_string_lossy();
        let mut commit = sh("git", &["-C", &root_s, "rev-parse", "--short", "HEAD"]);
        if !sh("git", &["-C", &root_s, "status", "--porcelain"]).is_empty() {
            commit.push_str(" (+ uncommitted changes)");
        }
        let py = sh(
            &python.to_string_lossy(),
            &[
                "-c",
                "import sys, zeep, spyne, lxml.etree as e; print('python %s, zeep %s, spyne %s, lxml %s' % \
                 (sys.version.split()[0], zeep.__version__, spyne.__version__, \
                 '.'.join(map(str, e.LXML_VERSION))))",
            ],
        );
        Machine {
            date: sh("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
            mode: format!("{mode:?}").to_lowercase(),
            cpu,
            cores: std::thread::available_parallelism().map_or(0, |n| n.get()),
            mem_gib: mem_kib / 1048576.0,
            kernel: std::fs::read_to_string("/proc/sys/kernel/osrelease")
                .map(|s| s.trim().to_owned())
                .unwrap_or_default(),
            load_start: loadavg(),
            load_end: String::new(),
            commit,
            versions: format!(
                "gSOAP {} (wsdl2h + soapcpp2 -c, gcc -O2), {py}, {}",
                sh("pkg-config", &["--modversion", "gsoap"]),
                sh("rustc", &["--version"])
            ),
            elapsed_s: 0.0,
        }
    }

    /// Records the end of the run.
    pub fn finish(&mut self, elapsed_s: f64) {
        self.load_end = loadavg();
        self.elapsed_s = elapsed_s;
    }
}

/// Process start to first response, one client against one server.
#[derive(Debug)]
pub struct FirstCall {
    /// Server label.
    pub server: String,
    /// Client label.
    pub client: String,
    /// One value per run, milliseconds.
    pub ms: Vec<f64>,
}

/// In-process construction of a client.
#[derive(Debug)]
pub struct Construct {
    /// soapgen, gSOAP or zeep.
    pub client: String,
    /// What was timed.
    pub what: String,
    /// For which WSDL.
    pub wsdl: String,
    /// Nanoseconds (median).
    pub ns: f64,
}

/// One row of bench/codegen's construction results (from its CSV, same run).
#[derive(Debug)]
pub struct CodegenRow {
    /// WSDL slug.
    pub wsdl: String,
    /// Its size.
    pub wsdl_bytes: f64,
    /// The generated client type.
    pub client: String,
    /// `from_client` ns.
    pub from_client_ns: f64,
    /// `Client::new` + `from_client`, µs.
    pub new_from_client_us: f64,
    /// zeep `Client(wsdl)` median, ms.
    pub zeep_ms: f64,
    /// dev or release build of the construct program.
    pub profile: String,
}

/// Splits one CSV line (double-quoted fields with `""` escapes).
fn csv_fields(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

impl CodegenRow {
    /// Reads bench/codegen/run.sh's `codegen.csv`.
    pub fn read_all(path: &Path) -> Result<Vec<CodegenRow>, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut lines = text.lines();
        let header = csv_fields(lines.next().ok_or("empty codegen CSV")?);
        let col = |name: &str| {
            header
                .iter()
                .position(|h| h == name)
                .ok_or_else(|| format!("codegen CSV has no column {name}"))
        };
        let (w, b, c, f, n, z, p) = (
            col("wsdl")?,
            col("wsdl_bytes")?,
            col("client")?,
            col("from_client_ns")?,
            col("new_plus_from_client_median_us")?,
            col("zeep_median_ms")?,
            col("construct_profile")?,
        );
        let num = |v: &str| v.parse::<f64>().unwrap_or(f64::NAN);
        Ok(lines
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let v = csv_fields(l);
                let get = |i: usize| v.get(i).cloned().unwrap_or_default();
                CodegenRow {
                    wsdl: get(w),
                    wsdl_bytes: num(&get(b)),
                    client: get(c),
                    from_client_ns: num(&get(f)),
                    new_from_client_us: num(&get(n)),
                    zeep_ms: num(&get(z)),
                    profile: get(p),
                }
            })
            .collect())
    }
}

/// Per-call times of one client against one server.
#[derive(Debug)]
pub struct Latency {
    /// Server label.
    pub server: String,
    /// `1.1` or `1.2`.
    pub version: String,
    /// Client label.
    pub client: String,
    /// `Echo` or `Ping`.
    pub op: String,
    /// Nanoseconds per call, sorted.
    pub sorted_ns: Vec<f64>,
    /// Peak RSS of the client process.
    pub rss_kib: Option<u64>,
}

impl Latency {
    fn p(&self, p: f64) -> f64 {
        percentile(&self.sorted_ns, p) / 1e6
    }

    fn mean_ms(&self) -> f64 {
        self.sorted_ns.iter().sum::<f64>() / self.sorted_ns.len().max(1) as f64 / 1e6
    }
}

/// Calls per second with some concurrent callers.
#[derive(Debug)]
pub struct Throughput {
    /// Client label.
    pub client: String,
    /// Concurrent callers.
    pub concurrency: usize,
    /// Calls completed.
    pub calls: f64,
    /// Wall time.
    pub secs: f64,
    /// Peak RSS of the client process.
    pub rss_kib: Option<u64>,
}

/// In-memory write + read of the Echo envelope.
#[derive(Debug)]
pub struct Serial {
    /// soapgen or gSOAP.
    pub client: String,
    /// Envelope size.
    pub bytes: f64,
    /// Medians, ns.
    pub write_ns: f64,
    /// Read, including freeing what was read.
    pub read_ns: f64,
    /// Write + read.
    pub roundtrip_ns: f64,
    /// Instructions per write + read (callgrind).
    pub instr: Option<f64>,
}

/// Instructions per call of one process (callgrind).
#[derive(Debug)]
pub struct Instr {
    /// Client (or server) label.
    pub who: String,
    /// `Echo` or `Ping`.
    pub op: String,
    /// Instructions per call.
    pub per_call: f64,
}

impl Instr {
    /// A row.
    pub fn new(who: &str, op: &str, per_call: f64) -> Instr {
        Instr {
            who: who.to_owned(),
            op: op.to_owned(),
            per_call,
        }
    }
}

/// Everything one run measured.
#[derive(Debug, Default)]
pub struct Results {
    /// Machine and versions.
    pub machine: Machine,
    /// Process start to first response.
    pub first: Vec<FirstCall>,
    /// In-process construction (large_objects.wsdl).
    pub construct: Vec<Construct>,
    /// bench/codegen's construction rows (larger WSDLs), when it ran.
    pub codegen: Vec<CodegenRow>,
    /// Per-call latency.
    pub latency: Vec<Latency>,
    /// Throughput.
    pub throughput: Vec<Throughput>,
    /// Server throughput: gSOAP's C client against each server (`client` holds the server).
    pub servers: Vec<Throughput>,
    /// Serialization.
    pub serial: Vec<Serial>,
    /// Instructions per call (callgrind).
    pub instr: Vec<Instr>,
    /// The soak (bench/harness/src/soak.rs).
    pub soak: Vec<crate::soak::Soak>,
    /// The faults (bench/harness/src/faults.rs).
    pub faults: Vec<crate::faults::Fault>,
    /// Anything left out and why.
    pub notes: Vec<String>,
}

fn ms(v: f64) -> String {
    if !v.is_finite() {
        "n/a".to_owned()
    } else if v >= 100.0 {
        format!("{v:.0} ms")
    } else if v >= 10.0 {
        format!("{v:.1} ms")
    } else {
        format!("{v:.2} ms")
    }
}

fn dur_ns(ns: f64) -> String {
    if !ns.is_finite() {
        "n/a".to_owned()
    } else if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.1} µs", ns / 1e3)
    } else {
        ms(ns / 1e6)
    }
}

fn ratio(v: f64) -> String {
    if !v.is_finite() {
        "n/a".to_owned()
    } else if v >= 100.0 {
        let s = format!("{v:.0}");
        // 1234567 -> 1,234,567
        let mut out = String::new();
        for (i, ch) in s.chars().enumerate() {
            if i > 0 && (s.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(ch);
        }
        format!("{out}×")
    } else {
        format!("{v:.2}×")
    }
}

fn instr_fmt(v: f64) -> String {
    if v >= 1e6 {
        format!("{:.2} M", v / 1e6)
    } else {
        format!("{:.0} k", v / 1e3)
    }
}

fn mib(kib: Option<u64>) -> String {
    kib.map_or("n/a".to_owned(), |k| {
        format!("{:.1} MiB", k as f64 / 1024.0)
    })
}

fn tick(ok: bool) -> &'static str {
    if ok {
        "✓"
    } else {
        "✗ missed"
    }
}

impl Results {
    fn lat(&self, server: &str, version: &str, client: &str, op: &str) -> Option<&Latency> {
        self.latency.iter().find(|l| {
            l.server == server && l.version == version && l.client == client && l.op == op
        })
    }

    fn construct_ns(&self, client: &str, what_prefix: &str) -> f64 {
        self.construct
            .iter()
            .find(|c| c.client == client && c.what.starts_with(what_prefix))
            .map_or(f64::NAN, |c| c.ns)
    }

    fn serial(&self, client: &str) -> Option<&Serial> {
        self.serial.iter().find(|s| s.client == client)
    }

    /// Calls per second `server` answered with `concurrency` callers (section 3b).
    fn server_rate(&self, server: &str, concurrency: usize) -> Option<f64> {
        self.servers
            .iter()
            .find(|t| t.client == server && t.concurrency == concurrency)
            .map(|t| t.calls / t.secs)
    }

    /// The benchmark goals with this run's ratios.
    fn goals(&self) -> String {
        let mut t = String::from("| goal | measured (this run) | ratio | |\n|---|---|---:|:-:|\n");
        let zeep = self.construct_ns("zeep", "zeep");
        let sg_new = self.construct_ns("soapgen", "Client::new");
        let sg_from = self.construct_ns("soapgen", "from_client");
        let r = zeep / sg_new;
        let _ = writeln!(
            t,
            "| client construction ≥ 1000× faster than zeep `Client(wsdl)` (large_objects.wsdl) | zeep {} vs soapgen `Client::new` + `from_client` {} (`from_client` alone {}) | {} ({} for `from_client`) | {} |",
            dur_ns(zeep), dur_ns(sg_new), dur_ns(sg_from), ratio(r), ratio(zeep / sg_from), tick(r >= 1000.0)
        );
        if !self.codegen.is_empty() {
            let worst = self
                .codegen
                .iter()
                .map(|c| (c.zeep_ms * 1e3 / c.new_from_client_us, c))
                .min_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((r, c)) = worst {
                let _ = writeln!(
                    t,
                    "| … on every WSDL, not growing with its size ({} WSDLs up to {:.1} MiB, bench/codegen) | soapgen `Client::new` + `from_client` {:.1}–{:.1} µs; zeep {:.1}–{:.0} ms | lowest {} ({}) | {} |",
                    self.codegen.len(),
                    self.codegen.iter().map(|c| c.wsdl_bytes).fold(0.0, f64::max) / 1048576.0,
                    self.codegen.iter().map(|c| c.new_from_client_us).fold(f64::INFINITY, f64::min),
                    self.codegen.iter().map(|c| c.new_from_client_us).fold(0.0, f64::max),
                    self.codegen.iter().map(|c| c.zeep_ms).fold(f64::INFINITY, f64::min),
                    self.codegen.iter().map(|c| c.zeep_ms).fold(0.0, f64::max),
                    ratio(r),
                    c.wsdl,
                    tick(r >= 1000.0)
                );
            }
        }
        for version in ["1.1", "1.2"] {
            let g = self.lat(GSOAP_SERVER, version, GSOAP, "Echo");
            let z = self.lat(GSOAP_SERVER, version, ZEEP, "Echo");
            for client in [SG_ASYNC, SG_BLOCKING] {
                if let (Some(s), Some(g), Some(z)) =
                    (self.lat(GSOAP_SERVER, version, client, "Echo"), g, z)
                {
                    let r = s.p(50.0) / g.p(50.0);
                    let rz = z.p(50.0) / s.p(50.0);
                    let _ = writeln!(
                        t,
                        "| p50 of Echo(100 objects) ≤ 1.0× gSOAP's C client (gSOAP server, SOAP {version}) | {client} {} vs gSOAP {} | {} | {} |",
                        ms(s.p(50.0)), ms(g.p(50.0)), ratio(r), tick(r <= 1.0)
                    );
                    let _ = writeln!(
                        t,
                        "| … and ≥ 20× better than zeep | zeep {} vs {client} {} | {} | {} |",
                        ms(z.p(50.0)),
                        ms(s.p(50.0)),
                        ratio(rz),
                        tick(rz >= 20.0)
                    );
                }
            }
        }
        for conc in [8usize, 64] {
            if let (Some(f), Some(g)) = (
                self.server_rate(FAKE_SERVER, conc),
                self.server_rate(GSOAP_SERVER, conc),
            ) {
                let r = f / g;
                let _ = writeln!(
                    t,
                    "| the loopback fake serves ≥ gSOAP's generated server's Echo throughput ({conc} callers) | fake {f:.0}/s vs gSOAP {g:.0}/s | {} | {} |",
                    ratio(r),
                    tick(r >= 1.0)
                );
            }
        }
        if let (Some(s), Some(g)) = (self.serial("soapgen"), self.serial("gSOAP")) {
            let r = g.roundtrip_ns / s.roundtrip_ns;
            let _ = writeln!(
                t,
                "| serialization (write + read of the Echo envelope in memory) ≥ 3× gSOAP's | soapgen {} vs gSOAP {} per message | {} | {} |",
                dur_ns(s.roundtrip_ns), dur_ns(g.roundtrip_ns), ratio(r), tick(r >= 3.0)
            );
        }
        for (op, style, r, h) in self.transport_pairs() {
            let over = r / h - 1.0;
            let _ = writeln!(
                t,
                "| reqwest transport adds ≤ 20% per call over the hyper one ({op}, {style}, p50) | reqwest {} vs hyper {} | {:+.1}% | {} |",
                ms(r), ms(h), over * 100.0, tick(over <= 0.20)
            );
        }
        for x in self.soak.iter().filter(|x| x.rss_kib.is_some()) {
            if let (Some((a, b)), Some((fa, fb))) = (x.rss_kib, x.fds) {
                let _ = writeln!(
                    t,
                    "| soak, {} callers: no error, RSS growth ≤ 5 %, descriptors constant (part 7) | {} against the {}: {} errors, RSS {:.0} → {:.0} MiB, fds {fa:.0} → {fb:.0} | {:+.1} % | {} |",
                    x.callers,
                    x.client,
                    x.server,
                    x.errors.unwrap_or(f64::NAN),
                    a / 1024.0,
                    b / 1024.0,
                    100.0 * (b - a) / a,
                    tick(x.holds())
                );
            }
        }
        if let Some(row) = crate::faults::goal(&self.faults) {
            t.push_str(&row);
            t.push('\n');
        }
        t.push_str(
            "| compile time of the generated crate ≤ 0.25× g++ on gSOAP's output (e-conomic) | see `bash bench/codegen/run.sh` | | |\n",
        );
        t
    }

    /// (op, style, reqwest p50 ms, hyper p50 ms) against the gSOAP server, SOAP 1.1.
    fn transport_pairs(&self) -> Vec<(&'static str, &'static str, f64, f64)> {
        let mut v = Vec::new();
        for op in ["Echo", "Ping"] {
            for (style, r, h) in [
                ("async", SG_ASYNC, SG_ASYNC_HYPER),
                ("blocking", SG_BLOCKING, SG_BLOCKING_HYPER),
            ] {
                if let (Some(r), Some(h)) = (
                    self.lat(GSOAP_SERVER, "1.1", r, op),
                    self.lat(GSOAP_SERVER, "1.1", h, op),
                ) {
                    v.push((op, style, r.p(50.0), h.p(50.0)));
                }
            }
        }
        v
    }

    /// The Markdown report; images are referenced as `<img_prefix><name>.svg`.
    pub fn markdown(&self, img_prefix: &str, heading: &str) -> String {
        let m = &self.machine;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{heading} Machine and run\n\n{} · {} logical CPUs · {:.1} GiB · Linux {} · load average (1/5/15 min) {} at the start, {} at the end (a shared machine: other builds may run meanwhile) · mode `{}`, {:.1} min of measuring · commit {}\n\n{}\n",
            m.cpu, m.cores, m.mem_gib, m.kernel, m.load_start, m.load_end, m.mode, m.elapsed_s / 60.0, m.commit, m.versions
        );
        let _ = writeln!(
            s,
            "{heading} Goals, ratios from this run\n\n{}",
            self.goals()
        );

        // 1. Start-up
        let _ = writeln!(s, "{heading} 1. Start-up\n\nProcess start to first response: a new process builds its client and makes one `Ping` call (SOAP 1.1), median of {} runs (min–max). soapgen: the generated blocking client with the default reqwest transport, in a binary of its own (`bench/startup`: soapgen-runtime's default features, what an app links); gSOAP: its generated C client; zeep: `zeep.Client(large_objects.wsdl)` from the local file, then the call (python start and imports included).\n", self.first.first().map_or(0, |f| f.ms.len()));
        s.push_str("| server | client | median | min – max |\n|---|---|---:|---:|\n");
        for f in &self.first {
            let lo = f.ms.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = f.ms.iter().copied().fold(0.0, f64::max);
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} – {} |",
                f.server,
                f.client,
                ms(median(&f.ms)),
                ms(lo),
                ms(hi)
            );
        }
        let _ = writeln!(s, "\n![start-up]({img_prefix}startup.svg)\n\nIn-process construction:\n\n| WSDL | client | what is timed | time |\n|---|---|---|---:|");
        for c in &self.construct {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} |",
                c.wsdl,
                c.client,
                c.what,
                dur_ns(c.ns)
            );
        }
        if self.codegen.is_empty() && self.construct.iter().any(|c| c.wsdl != "large_objects") {
            s.push_str("\nsoapgen's construction of the larger WSDLs' clients needs each generated crate compiled (minutes for e-conomic): `bash bench/run.sh --with-codegen` adds it through `bench/codegen/run.sh --no-release`. The generated client is the same one-field wrapper of `soapgen_runtime::Client` for every WSDL, so its construction does not depend on the WSDL (the last such run: `bench/codegen/results/`).\n");
        }
        if !self.codegen.is_empty() {
            s.push_str("\nLarger WSDLs, construction only (no server implements them), from `bench/codegen/run.sh --no-release` in the same run (`construct` program of each generated crate; zeep in a fresh process per run, local files):\n\n| WSDL | size | generated client | `from_client` | `Client::new` + `from_client` | zeep `Client(wsdl)` | zeep / soapgen | |\n|---|---:|---|---:|---:|---:|---:|:-:|\n");
            for c in &self.codegen {
                let r = c.zeep_ms * 1e3 / c.new_from_client_us;
                let _ = writeln!(
                    s,
                    "| {} | {:.1} KiB | `{}` | {} | {} | {} | {} | {} |",
                    c.wsdl,
                    c.wsdl_bytes / 1024.0,
                    c.client,
                    dur_ns(c.from_client_ns),
                    dur_ns(c.new_from_client_us * 1e3),
                    ms(c.zeep_ms),
                    ratio(r),
                    tick(r >= 1000.0)
                );
            }
            if self.codegen.iter().any(|c| c.profile != "release") {
                s.push_str("\n(the construct programs were built in the dev profile: soapgen's figures are upper bounds)\n");
            }
        }

        // 2. Latency
        let _ = writeln!(s, "\n{heading} 2. Latency: Echo with 100 objects each way\n\nOne client, one call at a time, after warm-up; the request's objects are cloned before the clock starts (soapgen's generated methods take them by value). soapgen async: tokio multi-thread runtime; blocking: the generated `…BlockingClient`. The gSOAP server keeps connections alive; spyne (wsgiref, HTTP/1.0) closes each one, so every call there connects anew. Peak RSS: the client process (`/usr/bin/time`).\n");
        s.push_str("| server | SOAP | client | calls | p50 | p90 | p99 | mean | peak RSS | p50 / gSOAP client | zeep p50 / p50 |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for l in self.latency.iter().filter(|l| l.op == "Echo") {
            let g = self
                .lat(&l.server, &l.version, GSOAP, "Echo")
                .map_or(f64::NAN, |g| g.p(50.0));
            let z = self
                .lat(&l.server, &l.version, ZEEP, "Echo")
                .map_or(f64::NAN, |z| z.p(50.0));
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                l.server,
                l.version,
                l.client,
                l.sorted_ns.len(),
                ms(l.p(50.0)),
                ms(l.p(90.0)),
                ms(l.p(99.0)),
                ms(l.mean_ms()),
                mib(l.rss_kib),
                ratio(l.p(50.0) / g),
                ratio(z / l.p(50.0))
            );
        }
        let _ = writeln!(s, "\n![latency against the gSOAP server]({img_prefix}latency-gsoap.svg)\n\n![latency against the spyne server]({img_prefix}latency-spyne.svg)\n");

        // 3. Throughput
        let _ = writeln!(s, "{heading} 3. Throughput: Echo calls per second against the gSOAP server (SOAP 1.1)\n\nsoapgen: N tasks share one generated client (one connection pool) on tokio's multi-thread runtime (2 workers); gSOAP: N threads with a context each (a gSOAP context is not thread-safe); zeep: N threads share one client (one requests session, N pooled connections). Client, server and load generator share the 2 cores, so these are the cost per call of the whole loop, client and server.\n");
        s.push_str(
            "| client | callers | calls/s | calls | peak RSS |\n|---|---:|---:|---:|---:|\n",
        );
        for t in &self.throughput {
            let _ = writeln!(
                s,
                "| {} | {} | {:.0} | {:.0} | {} |",
                t.client,
                t.concurrency,
                t.calls / t.secs,
                t.calls,
                mib(t.rss_kib)
            );
        }
        let _ = writeln!(s, "\n![throughput]({img_prefix}throughput.svg)\n");

        // 3b. Servers
        let _ = writeln!(s, "{heading} 3b. Servers: Echo calls per second served, gSOAP's C client calling (SOAP 1.1)\n\nThe same client (gSOAP's, N threads, the leanest client here) against gSOAP's generated server (gcc -O2, a thread per connection) and against soapgen's generated fake of the same WSDL on a loopback socket (`testing::Loopback`: hyper HTTP/1.1 on tokio's multi-thread runtime, 2 workers; the fake reads each request and writes the response through the runtime). Client and server share the 2 cores.\n");
        s.push_str("| server | callers | calls/s | calls | gSOAP server / this |\n|---|---:|---:|---:|---:|\n");
        for t in &self.servers {
            let g = self
                .server_rate(GSOAP_SERVER, t.concurrency)
                .unwrap_or(f64::NAN);
            let _ = writeln!(
                s,
                "| {} | {} | {:.0} | {:.0} | {} |",
                t.client,
                t.concurrency,
                t.calls / t.secs,
                t.calls,
                ratio(g / (t.calls / t.secs))
            );
        }
        s.push('\n');

        // 4. Serialization
        let _ = writeln!(s, "{heading} 4. Serialization alone: the Echo envelope (100 objects, SOAP 1.1) written and read back in memory\n\nsoapgen: `EnvelopeWriter` + the derives, `read_response` (as `tests/benches/roundtrip_100.rs`); gSOAP: its generated serializers on `soap->os`/`soap->is` (a string in memory), as `soap_call_…` does on a socket minus HTTP (including its default counting pass: gSOAP serializes twice when it must know the length). Read times include freeing what was read. Medians; MB/s = message bytes / time. Instructions: callgrind, per write+read (difference of two runs, so start-up is excluded); stable on a noisy machine.\n");
        s.push_str("| implementation | message | write | read | write + read | write+read MB/s | instructions per write+read | gSOAP time / this |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
        let g = self.serial("gSOAP").map_or(f64::NAN, |g| g.roundtrip_ns);
        for x in &self.serial {
            let _ = writeln!(
                s,
                "| {} | {:.0} B | {} ({:.0} MB/s) | {} ({:.0} MB/s) | {} | {:.0} | {} | {} |",
                x.client,
                x.bytes,
                dur_ns(x.write_ns),
                x.bytes / x.write_ns * 1e3,
                dur_ns(x.read_ns),
                x.bytes / x.read_ns * 1e3,
                dur_ns(x.roundtrip_ns),
                x.bytes / x.roundtrip_ns * 1e3,
                x.instr
                    .map_or("n/a".to_owned(), |i| format!("{:.2} M", i / 1e6)),
                ratio(g / x.roundtrip_ns)
            );
        }
        let _ = writeln!(s, "\n![serialization]({img_prefix}serialization.svg)\n");

        // 5. Transport
        let _ = writeln!(s, "{heading} 5. Transport overhead: soapgen's reqwest transport vs its hyper transport\n\nThe same generated client and calls against the gSOAP server (SOAP 1.1); the hyper transport (`transport::HyperTransport`, feature `hyper`) is hyper-util's pooled HTTP/1.1 client with timeouts and nothing else. Ping carries no payload, so it shows the per-call cost of the transport itself.\n");
        s.push_str("| call | client | reqwest p50 | hyper p50 | reqwest p99 | hyper p99 | reqwest adds |\n|---|---|---:|---:|---:|---:|---:|\n");
        for op in ["Echo", "Ping"] {
            for (style, r, h) in [
                ("async", SG_ASYNC, SG_ASYNC_HYPER),
                ("blocking", SG_BLOCKING, SG_BLOCKING_HYPER),
            ] {
                if let (Some(r), Some(h)) = (
                    self.lat(GSOAP_SERVER, "1.1", r, op),
                    self.lat(GSOAP_SERVER, "1.1", h, op),
                ) {
                    let _ = writeln!(
                        s,
                        "| {op} | {style} | {} | {} | {} | {} | {:+.1}% |",
                        ms(r.p(50.0)),
                        ms(h.p(50.0)),
                        ms(r.p(99.0)),
                        ms(h.p(99.0)),
                        (r.p(50.0) / h.p(50.0) - 1.0) * 100.0
                    );
                }
            }
        }
        if !self.instr.is_empty() {
            let _ = writeln!(s, "\n{heading} 6. Instructions per call (callgrind)\n\nWhat each process executes per call against the gSOAP server (SOAP 1.1), from two callgrind runs of 5 and 25 calls (zeep: 2 and 6) whose difference cancels start-up; user space only (the kernel's loopback work is not counted). Unlike wall times these do not move with the machine's load. The server's row is the gSOAP server serving the gSOAP client: the share every client's latency carries.\n");
            s.push_str("| process | call | instructions per call | / soapgen (reqwest) |\n|---|---|---:|---:|\n");
            for i in &self.instr {
                let base = self
                    .instr
                    .iter()
                    .find(|b| b.who == SG_BLOCKING && b.op == i.op)
                    .map_or(f64::NAN, |b| b.per_call);
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} |",
                    i.who,
                    i.op,
                    instr_fmt(i.per_call),
                    ratio(i.per_call / base)
                );
            }
        }
        s.push_str(&crate::soak::markdown(&self.soak, heading));
        s.push_str(&crate::faults::markdown(&self.faults, heading));
        if !self.notes.is_empty() {
            let _ = writeln!(s, "\nNotes:\n");
            for n in &self.notes {
                let _ = writeln!(s, "- {n}");
            }
        }
        s
    }

    /// One row per figure: section, server, soap, client, case, metric, value, unit.
    pub fn csv(&self) -> String {
        let mut s = String::from("section,server,soap,client,case,metric,value,unit\n");
        let mut row = |sec: &str,
                       server: &str,
                       soap: &str,
                       client: &str,
                       case: &str,
                       metric: &str,
                       v: f64,
                       unit: &str| {
            let q = |x: &str| {
                if x.contains(',') || x.contains('"') {
                    format!("\"{}\"", x.replace('"', "\"\""))
                } else {
                    x.to_owned()
                }
            };
            let _ = writeln!(
                s,
                "{},{},{},{},{},{},{},{}",
                sec,
                q(server),
                soap,
                q(client),
                q(case),
                metric,
                v,
                unit
            );
        };
        for f in &self.first {
            row(
                "startup",
                &f.server,
                "1.1",
                &f.client,
                "first response",
                "median",
                median(&f.ms),
                "ms",
            );
        }
        for c in &self.construct {
            row(
                "construct",
                "",
                "",
                &c.client,
                &c.what,
                "median",
                c.ns,
                "ns",
            );
        }
        for c in &self.codegen {
            row(
                "construct",
                "",
                "",
                "soapgen",
                &format!("{} new+from_client", c.wsdl),
                "median",
                c.new_from_client_us * 1e3,
                "ns",
            );
            row(
                "construct",
                "",
                "",
                "zeep",
                &format!("{} Client(wsdl)", c.wsdl),
                "median",
                c.zeep_ms * 1e6,
                "ns",
            );
        }
        for l in &self.latency {
            for (m, p) in [("p50", 50.0), ("p90", 90.0), ("p99", 99.0)] {
                row(
                    "latency",
                    &l.server,
                    &l.version,
                    &l.client,
                    &l.op,
                    m,
                    l.p(p),
                    "ms",
                );
            }
            row(
                "latency",
                &l.server,
                &l.version,
                &l.client,
                &l.op,
                "mean",
                l.mean_ms(),
                "ms",
            );
            row(
                "latency",
                &l.server,
                &l.version,
                &l.client,
                &l.op,
                "calls",
                l.sorted_ns.len() as f64,
                "calls",
            );
            if let Some(k) = l.rss_kib {
                row(
                    "latency", &l.server, &l.version, &l.client, &l.op, "peak_rss", k as f64, "KiB",
                );
            }
        }
        for t in &self.throughput {
            let case = format!("{} callers", t.concurrency);
            row(
                "throughput",
                GSOAP_SERVER,
                "1.1",
                &t.client,
                &case,
                "calls_per_s",
                t.calls / t.secs,
                "1/s",
            );
            if let Some(k) = t.rss_kib {
                row(
                    "throughput",
                    GSOAP_SERVER,
                    "1.1",
                    &t.client,
                    &case,
                    "peak_rss",
                    k as f64,
                    "KiB",
                );
            }
        }
        for i in &self.instr {
            let server = if i.who == GSOAP_SERVER {
                ""
            } else {
                GSOAP_SERVER
            };
            row(
                "instructions",
                server,
                "1.1",
                &i.who,
                &i.op,
                "per_call",
                i.per_call,
                "Ir",
            );
        }
        for x in &self.serial {
            row(
                "serialization",
                "",
                "1.1",
                &x.client,
                "Echo envelope",
                "bytes",
                x.bytes,
                "B",
            );
            row(
                "serialization",
                "",
                "1.1",
                &x.client,
                "Echo envelope",
                "write",
                x.write_ns,
                "ns",
            );
            row(
                "serialization",
                "",
                "1.1",
                &x.client,
                "Echo envelope",
                "read",
                x.read_ns,
                "ns",
            );
            row(
                "serialization",
                "",
                "1.1",
                &x.client,
                "Echo envelope",
                "write+read",
                x.roundtrip_ns,
                "ns",
            );
            if let Some(i) = x.instr {
                row(
                    "serialization",
                    "",
                    "1.1",
                    &x.client,
                    "Echo envelope",
                    "instructions",
                    i,
                    "Ir",
                );
            }
        }
        for x in &self.soak {
            let case = format!("soak {} callers", x.callers);
            let figures = [
                Some(("calls_per_s", x.calls / x.secs, "1/s")),
                x.errors.map(|e| ("errors", e, "calls")),
                x.rss_kib
                    .map(|(a, b)| ("rss_growth", 100.0 * (b - a) / a, "%")),
                x.fds.map(|(a, b)| ("fds_change", b - a, "fds")),
            ];
            for (metric, value, unit) in figures.into_iter().flatten() {
                row(
                    "soak", &x.server, "1.1", &x.client, &case, metric, value, unit,
                );
            }
        }
        s
    }

    fn plots(&self, dir: &Path) -> Result<(), String> {
        let first: Vec<Group> = [SG_BLOCKING, GSOAP, ZEEP]
            .iter()
            .map(|c| Group {
                label: (*c).to_owned(),
                values: [GSOAP_SERVER, SPYNE_SERVER]
                    .iter()
                    .map(|srv| {
                        self.first
                            .iter()
                            .find(|f| f.client == *c && f.server == *srv)
                            .map_or(f64::NAN, |f| median(&f.ms))
                    })
                    .collect(),
            })
            .collect();
        grouped_bars(
            &dir.join("startup.svg"),
            "Process start to first response (median, ms, log scale)",
            "ms",
            &[GSOAP_SERVER, SPYNE_SERVER],
            &first,
            true,
        )?;
        for (server, file) in [
            (GSOAP_SERVER, "latency-gsoap.svg"),
            (SPYNE_SERVER, "latency-spyne.svg"),
        ] {
            let groups: Vec<Group> = self
                .latency
                .iter()
                .filter(|l| l.server == server && l.version == "1.1" && l.op == "Echo")
                .map(|l| Group {
                    label: l.client.clone(),
                    values: vec![l.p(50.0), l.p(90.0), l.p(99.0)],
                })
                .collect();
            grouped_bars(
                &dir.join(file),
                &format!(
                    "Echo(100 objects) latency against the {server}, SOAP 1.1 (ms, log scale)"
                ),
                "ms",
                &["p50", "p90", "p99"],
                &groups,
                true,
            )?;
        }
        let mut clients: Vec<&str> = Vec::new();
        for t in &self.throughput {
            if !clients.contains(&t.client.as_str()) {
                clients.push(&t.client);
            }
        }
        let groups: Vec<Group> = clients
            .iter()
            .map(|c| Group {
                label: (*c).to_owned(),
                values: [1, 8, 64]
                    .iter()
                    .map(|n| {
                        self.throughput
                            .iter()
                            .find(|t| t.client == *c && t.concurrency == *n)
                            .map_or(f64::NAN, |t| t.calls / t.secs)
                    })
                    .collect(),
            })
            .collect();
        grouped_bars(
            &dir.join("throughput.svg"),
            "Echo(100 objects) calls per second against the gSOAP server",
            "calls/s",
            &["1 caller", "8 callers", "64 callers"],
            &groups,
            false,
        )?;
        let groups: Vec<Group> = self
            .serial
            .iter()
            .map(|x| Group {
                label: x.client.clone(),
                values: vec![x.write_ns / 1e3, x.read_ns / 1e3, x.roundtrip_ns / 1e3],
            })
            .collect();
        grouped_bars(
            &dir.join("serialization.svg"),
            "Echo envelope (100 objects) in memory, µs per message (median)",
            "µs",
            &["write", "read", "write + read"],
            &groups,
            false,
        )
    }
}

/// Writes results.md, results.csv and the plots into `dir`.
pub fn write(res: &Results, dir: &Path, raw: &Path) -> Result<(), String> {
    let md = format!(
        "# soapgen side-by-side benchmarks, {}\n\nProduced by `bash bench/run.sh` (bench/README.md). Raw per-call samples (ns, one line per call) were in `{}`.\n\n{}",
        res.machine.date,
        raw.display(),
        res.markdown("", "##")
    );
    let w = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text).map_err(|e| format!("{name}: {e}"))
    };
    w("results.md", &md)?;
    w("results.csv", &res.csv())?;
    res.plots(dir)
}

const BEGIN: &str = "<!-- bench/run.sh: begin (generated, do not edit) -->";
const END: &str = "<!-- bench/run.sh: end -->";

/// Replaces the text between the markers in the benchmark document (docs/benchmarks.md) with this
/// run's tables and plots.
pub fn update_readme(res: &Results, readme: &Path, dir: &Path, root: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(readme).map_err(|e| format!("{}: {e}", readme.display()))?;
    let (Some(b), Some(e)) = (text.find(BEGIN), text.find(END)) else {
        return Err(format!(
            "{}: markers `{BEGIN}` / `{END}` not found",
            readme.display()
        ));
    };
    let rel = dir
        .canonicalize()
        .ok()
        .and_then(|d| {
            d.strip_prefix(root)
                .ok()
                .map(|p| p.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| dir.to_string_lossy().into_owned());
    // Image links are relative to the document, which may sit below the root (docs/).
    let up: String = readme
        .canonicalize()
        .ok()
        .and_then(|f| {
            let parent = f.parent()?.to_path_buf();
            let root = root.canonicalize().ok()?;
            Some(parent.strip_prefix(&root).ok()?.components().count())
        })
        .map_or_else(String::new, |n| "../".repeat(n));
    let body = format!(
        "{BEGIN}\n\nLatest recorded run: {} (`{rel}/results.md`, CSV `{rel}/results.csv`).\n\n{}\n",
        res.machine.date,
        res.markdown(&format!("{up}{rel}/"), "###")
    );
    let new = format!("{}{}{}", &text[..b], body, &text[e..]);
    std::fs::write(readme, new).map_err(|e| format!("{}: {e}", readme.display()))
}
