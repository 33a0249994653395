//! `soapgen-bench run`: starts the servers, runs every comparison as child processes, writes the
//! results (Markdown, CSV, SVG plots) and, with `--readme`, the README's benchmark section.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use soapgen_tests::peers::{self, Peer};

use crate::report::{
    CodegenRow, Construct, FirstCall, Instr, Latency, Machine, Results, Serial, Throughput,
};

/// How much of everything to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The recorded run (~6-8 minutes of measuring).
    Full,
    /// Everything with few iterations (~1 minute).
    Quick,
    /// A few calls of everything, for CI: proves the harness works, times nothing useful.
    Smoke,
}

/// Iteration counts of one mode.
#[derive(Debug, Clone, Copy)]
struct Counts {
    first_runs: usize,
    construct_n: u64,
    gsoap_construct_n: u64,
    zeep_construct_repeat: usize,
    warmup: usize,
    calls: usize,
    zeep_warmup: usize,
    zeep_calls: usize,
    spyne_warmup: usize,
    spyne_calls: usize,
    ping_calls: usize,
    throughput_secs: f64,
    serialize_iters: usize,
    callgrind: bool,
    /// The soak's concurrent callers and seconds.
    soak: (usize, u64),
    /// Runs of each fault.
    fault_runs: usize,
}

impl Counts {
    fn of(mode: Mode) -> Counts {
        match mode {
            Mode::Full => Counts {
                first_runs: 10,
                construct_n: 1_000_000,
                gsoap_construct_n: 100_000,
                zeep_construct_repeat: 5,
                warmup: 300,
                calls: 3000,
                zeep_warmup: 20,
                zeep_calls: 500,
                spyne_warmup: 10,
                spyne_calls: 200,
                ping_calls: 5000,
                throughput_secs: 5.0,
                serialize_iters: 3000,
                callgrind: true,
                soak: (1000, 60),
                fault_runs: 5,
            },
            Mode::Quick => Counts {
                first_runs: 3,
                construct_n: 100_000,
                gsoap_construct_n: 10_000,
                zeep_construct_repeat: 2,
                warmup: 50,
                calls: 500,
                zeep_warmup: 5,
                zeep_calls: 50,
                spyne_warmup: 3,
                spyne_calls: 30,
                ping_calls: 1000,
                throughput_secs: 1.0,
                serialize_iters: 500,
                callgrind: true,
                soak: (200, 15),
                fault_runs: 2,
            },
            Mode::Smoke => Counts {
                first_runs: 1,
                construct_n: 1000,
                gsoap_construct_n: 100,
                zeep_construct_repeat: 1,
                warmup: 2,
                calls: 10,
                zeep_warmup: 1,
                zeep_calls: 3,
                spyne_warmup: 1,
                spyne_calls: 3,
                ping_calls: 10,
                throughput_secs: 0.2,
                serialize_iters: 10,
                callgrind: false,
                soak: (20, 3),
                fault_runs: 1,
            },
        }
    }
}

/// The largest corpus WSDLs (as bench/codegen/run.sh names them), under `tests/corpus` (or `$SOAPGEN_CORPUS`).
const LARGE_WSDLS: [(&str, &str); 3] = [
    ("ec2", "gowsdl/fixtures/ec2.wsdl"),
    ("vboxweb", "gowsdl/fixtures/vboxweb.wsdl"),
    ("economic", "wasabi/spec/fixtures/economic.wsdl"),
];

/// Client labels, the same in every table and plot.
pub const SG_ASYNC: &str = "soapgen async (reqwest)";
/// The blocking generated client with the default transport.
pub const SG_BLOCKING: &str = "soapgen blocking (reqwest)";
/// The async generated client over the hyper transport (`transport::HyperTransport`).
pub const SG_ASYNC_HYPER: &str = "soapgen async (hyper)";
/// The blocking generated client over the hyper transport (`transport::HyperTransport`).
pub const SG_BLOCKING_HYPER: &str = "soapgen blocking (hyper)";
/// gSOAP's generated C client.
pub const GSOAP: &str = "gSOAP C client";
/// python-zeep.
pub const ZEEP: &str = "zeep";
/// The gSOAP server.
pub const GSOAP_SERVER: &str = "gSOAP server";
/// soapgen's generated fake of the benchmark service on a loopback socket (`fake-server`).
pub const FAKE_SERVER: &str = "soapgen fake server";
/// The spyne server.
pub const SPYNE_SERVER: &str = "spyne server";

struct Env {
    root: PathBuf,
    out: PathBuf,
    raw: PathBuf,
    gsoap_client: PathBuf,
    gsoap_server: PathBuf,
    python: PathBuf,
    wsdl: PathBuf,
    exe: PathBuf,
    /// `soapgen-bench-startup` (bench/startup): the start-up comparison's soapgen client.
    startup_exe: PathBuf,
    time_bin: Option<PathBuf>,
    valgrind: bool,
    counts: Counts,
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

fn say(msg: impl AsRef<str>) {
    eprintln!("[soapgen-bench] {}", msg.as_ref());
}

/// Parses `key=value` pairs from a child's output.
fn kv(out: &str) -> HashMap<String, String> {
    out.split_whitespace()
        .filter_map(|w| w.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

fn get(map: &HashMap<String, String>, key: &str, what: &str) -> Result<f64, String> {
    map.get(key)
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| format!("{what}: no {key}= in its output"))
}

impl Env {
    fn soapgen(&self) -> Command {
        Command::new(&self.exe)
    }

    fn gsoap(&self) -> Command {
        Command::new(&self.gsoap_client)
    }

    fn zeep(&self) -> Command {
        let mut c = Command::new(&self.python);
        c.arg(self.root.join("bench/zeep_client.py"));
        c
    }

    /// Runs `cmd` to completion (under `/usr/bin/time -f %M` when `rss` and available); returns its
    /// stdout and peak RSS in KiB.
    fn run(&self, what: &str, cmd: Command, rss: bool) -> Result<(String, Option<u64>), String> {
        let rss_file = self.raw.join("rss.txt");
        let mut cmd = match (&self.time_bin, rss) {
            (Some(time), true) => {
                let mut c = Command::new(time);
                c.args(["-f", "%M", "-o"]).arg(&rss_file);
                c.arg(cmd.get_program()).args(cmd.get_args());
                c
            }
            _ => cmd,
        };
        let out = cmd
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("{what}: cannot start: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "{what} failed ({}):\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let peak = if rss && self.time_bin.is_some() {
            std::fs::read_to_string(&rss_file)
                .ok()
                .and_then(|s| s.lines().last().and_then(|l| l.trim().parse().ok()))
        } else {
            None
        };
        Ok((String::from_utf8_lossy(&out.stdout).into_owned(), peak))
    }

    /// Process start to the first response: spawn `cmd`, wait for its `ok` line.
    fn first_call(&self, what: &str, mut cmd: Command) -> Result<f64, String> {
        let t0 = Instant::now();
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{what}: cannot start: {e}"))?;
        let mut line = String::new();
        let stdout = child.stdout.take().expect("piped");
        BufReader::new(stdout)
            .read_line(&mut line)
            .map_err(|e| format!("{what}: {e}"))?;
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        if line.trim() != "ok" || !out.status.success() {
            return Err(format!(
                "{what}: no `ok` ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(ms)
    }

    /// One latency run; the child writes one line of ns per call into a file.
    fn latency(
        &self,
        server: &str,
        version: &str,
        client: &str,
        op: &str,
        mut cmd: Command,
        file: &Path,
    ) -> Result<Latency, String> {
        let what = format!("latency {client} -> {server} SOAP {version} {op}");
        say(&what);
        cmd.arg(file);
        let (_, rss) = self.run(&what, cmd, true)?;
        let text = std::fs::read_to_string(file).map_err(|e| format!("{what}: {e}"))?;
        let mut ns: Vec<f64> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
        ns.sort_by(|a, b| a.total_cmp(b));
        Ok(Latency {
            server: server.to_owned(),
            version: version.to_owned(),
            client: client.to_owned(),
            op: op.to_owned(),
            sorted_ns: ns,
            rss_kib: rss,
        })
    }

    fn throughput(
        &self,
        client: &str,
        concurrency: usize,
        cmd: Command,
    ) -> Result<Throughput, String> {
        let what = format!("throughput {client} x{concurrency}");
        say(&what);
        let (out, rss) = self.run(&what, cmd, true)?;
        let m = kv(&out);
        Ok(Throughput {
            client: client.to_owned(),
            concurrency,
            calls: get(&m, "calls", &what)?,
            secs: get(&m, "secs", &what)?,
            rss_kib: rss,
        })
    }

    /// Instructions per write+read from two callgrind runs of `cmd ITERS` (the difference removes
    /// start-up and set-up).
    fn callgrind(&self, what: &str, cmd: impl Fn() -> Command) -> Result<f64, String> {
        let (a, b) = (10usize, 60usize);
        let mut ir = Vec::new();
        for iters in [a, b] {
            let file = self
                .raw
                .join(format!("callgrind.{}.{iters}", what.replace(' ', "_")));
            let base = cmd();
            let mut c = Command::new("valgrind");
            c.arg("--tool=callgrind")
                .arg(format!("--callgrind-out-file={}", file.display()))
                .arg(base.get_program())
                .args(base.get_args())
                .arg(iters.to_string());
            self.run(&format!("callgrind {what}"), c, false)?;
            let text = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
            let _ = std::fs::remove_file(&file);
            let total = text
                .lines()
                .find_map(|l| {
                    l.strip_prefix("summary:")
                        .or_else(|| l.strip_prefix("totals:"))
                })
                .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
                .ok_or_else(|| format!("callgrind {what}: no summary in {}", file.display()))?;
            ir.push(total);
        }
        // Each run does ITERS + ITERS/10 (warm-up) write+read round trips.
        Ok((ir[1] - ir[0]) / ((b + b / 10) - (a + a / 10)) as f64)
    }
}

impl Env {
    /// Callgrind's instruction total of one run of `cmd`.
    fn ir(&self, what: &str, cmd: Command) -> Result<f64, String> {
        let file = self.raw.join("callgrind.out");
        let mut c = Command::new("valgrind");
        c.arg("--tool=callgrind")
            .arg(format!("--callgrind-out-file={}", file.display()))
            .arg(cmd.get_program())
            .args(cmd.get_args());
        self.run(&format!("callgrind {what}"), c, false)?;
        read_ir(&file, what)
    }

    /// Instructions per call: the difference of a run with `b` and one with `a` calls, divided
    /// by `b - a` (start-up and set-up cancel out).
    fn ir_per_call(
        &self,
        what: &str,
        a: usize,
        b: usize,
        cmd: impl Fn(usize) -> Command,
    ) -> Result<f64, String> {
        let ia = self.ir(what, cmd(a))?;
        let ib = self.ir(what, cmd(b))?;
        Ok((ib - ia) / (b - a) as f64)
    }
}

fn read_ir(file: &Path, what: &str) -> Result<f64, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("callgrind {what}: {e}"))?;
    let _ = std::fs::remove_file(file);
    text.lines()
        .find_map(|l| {
            l.strip_prefix("summary:")
                .or_else(|| l.strip_prefix("totals:"))
        })
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .ok_or_else(|| format!("callgrind {what}: no summary line"))
}

fn arg_value<'a>(args: &[&'a str], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| *a == name)
        .and_then(|i| args.get(i + 1).copied())
}

/// `run --out DIR --gsoap-dir DIR [--raw DIR] [--quick|--smoke] [--codegen-csv FILE] [--readme FILE]`.
pub fn main(args: &[&str]) -> Result<(), String> {
    let mode = if args.contains(&"--smoke") {
        Mode::Smoke
    } else if args.contains(&"--quick") {
        Mode::Quick
    } else {
        Mode::Full
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .map_err(|e| e.to_string())?;
    let out = PathBuf::from(arg_value(args, "--out").ok_or("--out DIR is required")?);
    let gsoap_dir = PathBuf::from(arg_value(args, "--gsoap-dir").ok_or("--gsoap-dir is required")?);
    let raw = arg_value(args, "--raw").map_or_else(|| out.join("raw"), PathBuf::from);
    std::fs::create_dir_all(&raw).map_err(|e| format!("{}: {e}", raw.display()))?;
    let out = out.canonicalize().map_err(|e| e.to_string())?;
    let raw = raw.canonicalize().map_err(|e| e.to_string())?;
    let python = std::env::var_os("SOAPGEN_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/python3"));
    let counts = Counts::of(mode);
    let env = Env {
        wsdl: root.join("tests/wsdl/large_objects.wsdl"),
        gsoap_client: gsoap_dir.join("lo-client"),
        gsoap_server: gsoap_dir.join("lo-server"),
        exe: std::env::current_exe().map_err(|e| e.to_string())?,
        startup_exe: PathBuf::from(
            arg_value(args, "--startup-exe").ok_or("--startup-exe FILE is required")?,
        ),
        time_bin: Some(PathBuf::from("/usr/bin/time")).filter(|p| p.is_file()),
        valgrind: counts.callgrind && which("valgrind").is_some(),
        python,
        root,
        out,
        raw,
        counts,
    };
    let started = Instant::now();
    let mut res = Results {
        machine: Machine::probe(&env.root, &env.python, mode),
        ..Results::default()
    };
    if env.time_bin.is_none() {
        res.notes
            .push("/usr/bin/time missing: no peak memory figures".to_owned());
    }
    if counts.callgrind && !env.valgrind {
        res.notes
            .push("valgrind missing: no instruction counts".to_owned());
    }

    say(format!("servers: {} and spyne", env.gsoap_server.display()));
    let mut cmd = Command::new(&env.gsoap_server);
    cmd.args(["--port", "0", "--exit-with-parent"]);
    let gsoap = peers::start_command("bench-gsoap", cmd, "bash bench/run.sh builds it");
    let mut cmd = Command::new(&env.python);
    cmd.arg(env.root.join("bench/peers/spyne_large_objects.py"))
        .args(["--port", "0", "--exit-with-parent"]);
    let spyne = peers::start_command(
        "bench-spyne",
        cmd,
        "apt-get install -y python3-spyne (see .ci/install-peers.sh)",
    );

    startup(&env, &gsoap, &spyne, &mut res)?;
    construction(&env, &mut res, arg_value(args, "--codegen-csv"))?;
    latency(&env, &gsoap, &spyne, &mut res)?;
    throughput(&env, &gsoap, &mut res)?;
    servers(&env, &gsoap, &mut res)?;
    serialization(&env, &mut res)?;
    instructions(&env, &gsoap, &mut res)?;
    soak(&env, &mut res)?;
    say("faults");
    res.faults = crate::faults::run(env.counts.fault_runs);
    drop(spyne);
    drop(gsoap);

    res.machine.finish(started.elapsed().as_secs_f64());
    crate::report::write(&res, &env.out, &env.raw)?;
    if let Some(readme) = arg_value(args, "--readme") {
        crate::report::update_readme(&res, Path::new(readme), &env.out, &env.root)?;
    }
    say(format!(
        "done in {:.0} s: {}",
        started.elapsed().as_secs_f64(),
        env.out.join("results.md").display()
    ));
    Ok(())
}

fn startup(env: &Env, gsoap: &Peer, spyne: &Peer, res: &mut Results) -> Result<(), String> {
    say("start-up: process start to first response (Ping, SOAP 1.1)");
    let wsdl = env.wsdl.to_string_lossy().into_owned();
    for (server, url) in [
        (GSOAP_SERVER, gsoap.url("/bench")),
        (SPYNE_SERVER, spyne.url("/soap11")),
    ] {
        let mut rows: Vec<FirstCall> = [SG_BLOCKING, GSOAP, ZEEP]
            .iter()
            .map(|c| FirstCall {
                server: server.to_owned(),
                client: (*c).to_owned(),
                ms: Vec::new(),
            })
            .collect();
        // Round-robin, so that a burst of load hits every client alike.
        for _ in 0..env.counts.first_runs {
            for row in rows.iter_mut() {
                let mut cmd = match row.client.as_str() {
                    SG_BLOCKING => Command::new(&env.startup_exe),
                    GSOAP => {
                        let mut c = env.gsoap();
                        c.arg("first");
                        c
                    }
                    _ => {
                        let mut c = env.zeep();
                        c.arg("first");
                        c
                    }
                };
                cmd.arg(&url).arg("11");
                if row.client == ZEEP {
                    cmd.arg(&wsdl);
                }
                row.ms
                    .push(env.first_call(&format!("first call {}", row.client), cmd)?);
            }
        }
        res.first.extend(rows);
    }
    Ok(())
}

fn construction(env: &Env, res: &mut Results, codegen_csv: Option<&str>) -> Result<(), String> {
    say("in-process client construction");
    let c = env.counts;
    let (out, _) = env.run(
        "soapgen construct",
        {
            let mut cmd = env.soapgen();
            cmd.arg("construct").arg(c.construct_n.to_string());
            cmd
        },
        false,
    )?;
    let m = kv(&out);
    let wsdl = "large_objects";
    for (what, key) in [
        (
            "from_client (generated client over an existing Client)",
            "from_client_ns",
        ),
        ("Client::new + from_client (reqwest transport)", "new_ns"),
        (
            "Client::builder + hyper transport + from_client",
            "hyper_new_ns",
        ),
    ] {
        res.construct.push(Construct {
            client: "soapgen".to_owned(),
            what: what.to_owned(),
            wsdl: wsdl.to_owned(),
            ns: get(&m, key, "soapgen construct")?,
        });
    }
    let (out, _) = env.run(
        "gSOAP construct",
        {
            let mut cmd = env.gsoap();
            cmd.arg("construct").arg(c.gsoap_construct_n.to_string());
            cmd
        },
        false,
    )?;
    res.construct.push(Construct {
        client: "gSOAP".to_owned(),
        what: "soap_new1 + soap_free (no WSDL at run time)".to_owned(),
        wsdl: wsdl.to_owned(),
        ns: get(&kv(&out), "construct_ns", "gSOAP construct")?,
    });
    let mut cmd = Command::new(&env.python);
    cmd.arg(env.root.join("bench/zeep_client_construction.py"))
        .arg("--repeat")
        .arg(c.zeep_construct_repeat.to_string())
        .arg(&env.wsdl);
    let (out, _) = env.run("zeep construct", cmd, false)?;
    let line = out
        .lines()
        .find(|l| l.contains("large_objects.wsdl"))
        .ok_or("zeep construct: no result line")?;
    let median_ms: f64 = line
        .split(',')
        .nth(3)
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| format!("zeep construct: bad line {line:?}"))?;
    res.construct.push(Construct {
        client: "zeep".to_owned(),
        what: "zeep.Client(wsdl) (fresh process, median)".to_owned(),
        wsdl: wsdl.to_owned(),
        ns: median_ms * 1e6,
    });
    // The larger corpus WSDLs (no server implements them): zeep's Client(wsdl) in this run;
    // soapgen's side needs each generated crate compiled (bench/codegen, `--with-codegen`).
    let corpus = std::env::var_os("SOAPGEN_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| env.root.join("tests/corpus"));
    let large: Vec<(&str, PathBuf)> = LARGE_WSDLS
        .iter()
        .map(|(slug, rel)| (*slug, corpus.join(rel)))
        .filter(|(_, p)| p.is_file())
        .collect();
    if large.len() < LARGE_WSDLS.len() {
        res.notes.push(format!(
            "{} of the larger corpus WSDLs not found under {} (SOAPGEN_CORPUS)",
            LARGE_WSDLS.len() - large.len(),
            corpus.display()
        ));
    }
    if !large.is_empty() {
        say("zeep Client(wsdl) on the larger corpus WSDLs");
        let mut cmd = Command::new(&env.python);
        cmd.arg(env.root.join("bench/zeep_client_construction.py"))
            .arg("--repeat")
            .arg(c.zeep_construct_repeat.to_string())
            .args(large.iter().map(|(_, p)| p));
        let (out, _) = env.run("zeep construct (corpus)", cmd, false)?;
        for (slug, path) in &large {
            let p = path.to_string_lossy();
            let ms = out
                .lines()
                .find(|l| l.starts_with(p.as_ref()))
                .and_then(|l| l.split(',').nth(3)?.parse::<f64>().ok());
            match ms {
                Some(ms) => res.construct.push(Construct {
                    client: "zeep".to_owned(),
                    what: format!(
                        "zeep.Client(wsdl) (fresh process, median; {:.1} MiB)",
                        std::fs::metadata(path).map_or(0.0, |m| m.len() as f64 / 1048576.0)
                    ),
                    wsdl: (*slug).to_owned(),
                    ns: ms * 1e6,
                }),
                None => res
                    .notes
                    .push(format!("zeep could not construct a client of {slug}")),
            }
        }
    }
    if let Some(path) = codegen_csv {
        match CodegenRow::read_all(Path::new(path)) {
            Ok(rows) => res.codegen = rows,
            Err(e) => res.notes.push(format!("codegen results not read: {e}")),
        }
    }
    Ok(())
}

fn latency(env: &Env, gsoap: &Peer, spyne: &Peer, res: &mut Results) -> Result<(), String> {
    let c = env.counts;
    let wsdl = env.wsdl.to_string_lossy().into_owned();
    let mut k = 0;
    let mut file = || {
        k += 1;
        env.raw.join(format!("latency-{k:02}.txt"))
    };
    for (server, warm, calls, zwarm, zcalls) in [
        (GSOAP_SERVER, c.warmup, c.calls, c.zeep_warmup, c.zeep_calls),
        (
            SPYNE_SERVER,
            c.spyne_warmup,
            c.spyne_calls,
            c.spyne_warmup,
            c.spyne_calls,
        ),
    ] {
        for ver in ["11", "12"] {
            let url = if server == GSOAP_SERVER {
                gsoap.url("/bench")
            } else {
                spyne.url(&format!("/soap{ver}"))
            };
            let version = if ver == "11" { "1.1" } else { "1.2" };
            let mut soapgen = vec![
                (SG_ASYNC, "async", "reqwest"),
                (SG_BLOCKING, "blocking", "reqwest"),
            ];
            if server == GSOAP_SERVER {
                soapgen.push((SG_ASYNC_HYPER, "async", "hyper"));
                soapgen.push((SG_BLOCKING_HYPER, "blocking", "hyper"));
            }
            for (label, style, transport) in soapgen {
                let mut cmd = env.soapgen();
                cmd.args(["latency", &url, ver, style, transport, "echo"])
                    .arg(warm.to_string())
                    .arg(calls.to_string());
                let f = file();
                res.latency
                    .push(env.latency(server, version, label, "Echo", cmd, &f)?);
            }
            let mut cmd = env.gsoap();
            cmd.args(["latency", &url, ver])
                .arg(warm.to_string())
                .arg(calls.to_string());
            let f = file();
            res.latency
                .push(env.latency(server, version, GSOAP, "Echo", cmd, &f)?);
            let mut cmd = env.zeep();
            cmd.args(["latency", &url, ver, &wsdl])
                .arg(zwarm.to_string())
                .arg(zcalls.to_string());
            let f = file();
            res.latency
                .push(env.latency(server, version, ZEEP, "Echo", cmd, &f)?);
        }
    }
    // Transport overhead alone: Ping (no payload) through both transports.
    let url = gsoap.url("/bench");
    for (label, style, transport) in [
        (SG_ASYNC, "async", "reqwest"),
        (SG_ASYNC_HYPER, "async", "hyper"),
        (SG_BLOCKING, "blocking", "reqwest"),
        (SG_BLOCKING_HYPER, "blocking", "hyper"),
    ] {
        let mut cmd = env.soapgen();
        cmd.args(["latency", &url, "11", style, transport, "ping"])
            .arg(c.warmup.to_string())
            .arg(c.ping_calls.to_string());
        let f = file();
        res.latency
            .push(env.latency(GSOAP_SERVER, "1.1", label, "Ping", cmd, &f)?);
    }
    Ok(())
}

fn throughput(env: &Env, gsoap: &Peer, res: &mut Results) -> Result<(), String> {
    let url = gsoap.url("/bench");
    let secs = env.counts.throughput_secs.to_string();
    for conc in [1usize, 8, 64] {
        let n = conc.to_string();
        for (label, transport) in [(SG_ASYNC, "reqwest"), (SG_ASYNC_HYPER, "hyper")] {
            let mut cmd = env.soapgen();
            cmd.args(["throughput", &url, "11", transport, &n, &secs]);
            res.throughput.push(env.throughput(label, conc, cmd)?);
        }
        let mut cmd = env.gsoap();
        cmd.args(["throughput", &url, "11", &n, &secs]);
        res.throughput.push(env.throughput(GSOAP, conc, cmd)?);
        let mut cmd = env.zeep();
        cmd.args(["throughput", &url, "11"])
            .arg(&env.wsdl)
            .args([&n, &secs]);
        res.throughput.push(env.throughput(ZEEP, conc, cmd)?);
    }
    Ok(())
}

/// The servers: gSOAP's C client (the leanest client here, so that the server is what is
/// measured) against gSOAP's generated server and against soapgen's generated fake of the same
/// service on a loopback socket (`testing::Loopback`), with 8 and 64 callers.
fn servers(env: &Env, gsoap: &Peer, res: &mut Results) -> Result<(), String> {
    let mut cmd = env.soapgen();
    cmd.arg("fake-server");
    let fake = peers::start_command("bench-fake-server", cmd, "bash bench/run.sh builds it");
    let secs = env.counts.throughput_secs.to_string();
    for conc in [8usize, 64] {
        let n = conc.to_string();
        for (server, url) in [
            (GSOAP_SERVER, gsoap.url("/bench")),
            (FAKE_SERVER, fake.url("/bench")),
        ] {
            let mut cmd = env.gsoap();
            cmd.args(["throughput", &url, "11", &n, &secs]);
            res.servers.push(env.throughput(server, conc, cmd)?);
        }
    }
    Ok(())
}

/// The soak (bench/harness/src/soak.rs): against the gSOAP server, soapgen's async client on
/// each transport, then gSOAP's client (its failed calls counted, not ending its run); against
/// soapgen's generated fake on a loopback socket, soapgen's async client. As many callers for as
/// long each, each against a server of its own, started for it: none inherits the threads and
/// connections another soak left in a server.
fn soak(env: &Env, res: &mut Results) -> Result<(), String> {
    let (callers, secs) = env.counts.soak;
    let (n, t) = (callers.to_string(), secs.to_string());
    for (server, label, transport, raw) in [
        (GSOAP_SERVER, SG_ASYNC, "reqwest", "soak-soapgen.txt"),
        (
            GSOAP_SERVER,
            SG_ASYNC_HYPER,
            "hyper",
            "soak-soapgen-hyper.txt",
        ),
        (GSOAP_SERVER, GSOAP, "", "soak-gsoap.txt"),
        (FAKE_SERVER, SG_ASYNC, "reqwest", "soak-soapgen-fake.txt"),
    ] {
        let peer = if server == GSOAP_SERVER {
            let mut cmd = Command::new(&env.gsoap_server);
            cmd.args(["--port", "0", "--exit-with-parent"]);
            peers::start_command("bench-gsoap", cmd, "bash bench/run.sh builds it")
        } else {
            let mut cmd = env.soapgen();
            cmd.arg("fake-server");
            peers::start_command("bench-fake-server", cmd, "bash bench/run.sh builds it")
        };
        let url = peer.url("/bench");
        let what = format!("soak {label} x{callers} for {secs} s against the {server}");
        say(&what);
        let cmd = if label == GSOAP {
            let mut cmd = env.gsoap();
            cmd.args(["soak", &url, "11", &n, &t]);
            cmd
        } else {
            let mut cmd = env.soapgen();
            cmd.args(["soak", &url, "11", transport, &n, &t]);
            cmd
        };
        let out = match env.run(&what, cmd, false) {
            Ok((out, _)) => out,
            // gSOAP's client ending early is a note on its row, not the end of the run.
            Err(e) if label == GSOAP => {
                let first = e.lines().take(3).collect::<Vec<_>>().join(" ");
                res.notes.push(format!("{what}: {first}"));
                continue;
            }
            Err(e) => return Err(e),
        };
        std::fs::write(env.raw.join(raw), &out).map_err(|e| e.to_string())?;
        for l in out.lines().filter_map(|l| l.strip_prefix("error ")) {
            res.notes.push(format!("{what}: a failed call, {l}"));
        }
        let m = kv(&out);
        // RSS, descriptors and tasks are sampled in soapgen's process only.
        let pair = |a: &str, b: &str| match (m.get(a), m.get(b)) {
            (Some(_), Some(_)) => Ok::<_, String>(Some((get(&m, a, &what)?, get(&m, b, &what)?))),
            _ => Ok(None),
        };
        res.soak.push(crate::soak::Soak {
            server: server.to_owned(),
            client: label.to_owned(),
            callers,
            calls: get(&m, "calls", &what)?,
            errors: Some(get(&m, "errors", &what)?),
            secs: get(&m, "secs", &what)?,
            rss_kib: pair("rss_from_kib", "rss_to_kib")?,
            fds: pair("fds_from", "fds_to")?,
            tasks: pair("tasks_from", "tasks_to")?,
        });
        drop(peer);
    }
    Ok(())
}

fn serialization(env: &Env, res: &mut Results) -> Result<(), String> {
    say("serialization in memory");
    let iters = env.counts.serialize_iters.to_string();
    for (label, mk) in [
        (
            "soapgen",
            Box::new(|| {
                let mut c = env.soapgen();
                c.arg("serialize");
                c
            }) as Box<dyn Fn() -> Command>,
        ),
        (
            "gSOAP",
            Box::new(|| {
                let mut c = env.gsoap();
                c.arg("serialize");
                c
            }),
        ),
    ] {
        let mut cmd = mk();
        cmd.arg(&iters);
        let (out, _) = env.run(&format!("{label} serialize"), cmd, false)?;
        let m = kv(&out);
        let what = format!("{label} serialize");
        let instr = if env.valgrind {
            say(format!("callgrind {label}"));
            Some(env.callgrind(label, &mk)?)
        } else {
            None
        };
        res.serial.push(Serial {
            client: label.to_owned(),
            bytes: get(&m, "bytes", &what)?,
            write_ns: get(&m, "write_ns", &what)?,
            read_ns: get(&m, "read_ns", &what)?,
            roundtrip_ns: get(&m, "roundtrip_ns", &what)?,
            instr,
        });
    }
    Ok(())
}

/// Instructions per call (callgrind) of each client, and of the gSOAP server, for Echo against
/// the gSOAP server (SOAP 1.1), plus Ping through both transports: the figures that do not move
/// with the machine's load.
fn instructions(env: &Env, gsoap: &Peer, res: &mut Results) -> Result<(), String> {
    if !env.valgrind {
        return Ok(());
    }
    say("instructions per call (callgrind)");
    let url = gsoap.url("/bench");
    let wsdl = env.wsdl.to_string_lossy().into_owned();
    let x = env.raw.join("callgrind-samples.txt");
    let soapgen = |transport: &'static str, op: &'static str| {
        let (url, x) = (url.clone(), x.clone());
        move |n: usize| {
            let mut c = env.soapgen();
            c.args(["latency", &url, "11", "blocking", transport, op, "0"])
                .arg(n.to_string())
                .arg(&x);
            c
        }
    };
    for (client, op, transport, lop) in [
        (SG_BLOCKING, "Echo", "reqwest", "echo"),
        (SG_BLOCKING_HYPER, "Echo", "hyper", "echo"),
        (SG_BLOCKING, "Ping", "reqwest", "ping"),
        (SG_BLOCKING_HYPER, "Ping", "hyper", "ping"),
    ] {
        let ir = env.ir_per_call(client, 5, 25, soapgen(transport, lop))?;
        res.instr.push(Instr::new(client, op, ir));
    }
    let ir = env.ir_per_call(GSOAP, 5, 25, |n| {
        let mut c = env.gsoap();
        c.args(["latency", &url, "11", "0"])
            .arg(n.to_string())
            .arg(&x);
        c
    })?;
    res.instr.push(Instr::new(GSOAP, "Echo", ir));
    let ir = env.ir_per_call(ZEEP, 2, 6, |n| {
        let mut c = env.zeep();
        c.args(["latency", &url, "11", &wsdl, "0"])
            .arg(n.to_string())
            .arg(&x);
        c
    })?;
    res.instr.push(Instr::new(ZEEP, "Echo", ir));

    // The server's share: a gSOAP server under callgrind serving 5, then 25 Echo calls (from the
    // gSOAP client), stopped with SIGTERM so that callgrind writes its totals.
    let mut server_ir = Vec::new();
    for n in [5usize, 25] {
        let file = env.raw.join(format!("callgrind.server.{n}"));
        let mut cmd = Command::new("valgrind");
        cmd.arg("--tool=callgrind")
            .arg(format!("--callgrind-out-file={}", file.display()))
            .arg(&env.gsoap_server)
            .args(["--port", "0", "--exit-with-parent"]);
        let server = peers::start_command("bench-gsoap-callgrind", cmd, "valgrind");
        let mut c = env.gsoap();
        c.args(["latency", &server.url("/bench"), "11", "0"])
            .arg(n.to_string())
            .arg(&x);
        env.run("gSOAP client for the server's count", c, false)?;
        let pid = server.pid().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        for _ in 0..200 {
            if !Path::new(&format!("/proc/{pid}")).exists() || is_zombie(&pid) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        drop(server);
        server_ir.push(read_ir(&file, "gSOAP server")?);
    }
    res.instr.push(Instr::new(
        GSOAP_SERVER,
        "Echo",
        (server_ir[1] - server_ir[0]) / 20.0,
    ));
    Ok(())
}

/// Whether /proc says the process has exited (and waits to be reaped).
fn is_zombie(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| {
            s.rsplit(')')
                .next()
                .is_some_and(|r| r.trim_start().starts_with('Z'))
        })
        .unwrap_or(true)
}
