//! `soapgen-bench`: side-by-side benchmarks of soapgen's generated client against gSOAP's generated
//! C client and python-zeep, against the same gSOAP and spyne servers on loopback.
//!
//! Run it through `bash bench/run.sh` (it builds the gSOAP programs and this binary first).  The
//! `run` mode orchestrates everything and writes the results; the other modes are the soapgen side
//! of one measurement each, run by `run` as child processes of this same binary.
//!
//! ```text
//! soapgen-bench run --out DIR --gsoap-dir DIR --startup-exe FILE [--raw DIR] [--quick|--smoke] [--codegen-csv FILE] [--readme FILE]
//! soapgen-bench construct N
//! soapgen-bench latency URL 11|12 async|blocking reqwest|hyper echo|ping WARMUP N FILE
//! soapgen-bench throughput URL 11|12 reqwest|hyper CONCURRENCY SECS
//! soapgen-bench serialize ITERS
//! soapgen-bench soak URL 11|12 reqwest|hyper CALLERS SECS | faults RUNS
//! soapgen-bench stream-serve ROWS | stream-read URL streamed|buffered | stream-memory ROWS ITERS
//! soapgen-bench mtom-serve BYTES | mtom-read URL DIR
//! ```

mod client;
mod faults;
mod plot;
mod report;
mod run;
mod soak;
mod stats;
mod stream;

use std::process::ExitCode;

fn num<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.parse()
        .map_err(|_| format!("{what}: not a number: {s:?}"))
}

fn dispatch(args: &[String]) -> Result<(), String> {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    match a.as_slice() {
        ["run", rest @ ..] => run::main(rest),
        ["construct", n] => {
            client::construct(num(n, "N")?);
            Ok(())
        }
        ["latency", url, ver, style, transport, op, warmup, n, file] => {
            let blocking = match *style {
                "async" => false,
                "blocking" => true,
                _ => return Err(format!("unknown client style {style:?} (async|blocking)")),
            };
            let op = match *op {
                "echo" => client::Op::Echo,
                "ping" => client::Op::Ping,
                _ => return Err(format!("unknown operation {op:?} (echo|ping)")),
            };
            client::latency(
                url,
                client::parse_version(ver)?,
                blocking,
                client::Transport::parse(transport)?,
                op,
                num(warmup, "WARMUP")?,
                num(n, "N")?,
                file,
            );
            Ok(())
        }
        ["throughput", url, ver, transport, tasks, secs] => {
            client::throughput(
                url,
                client::parse_version(ver)?,
                client::Transport::parse(transport)?,
                num(tasks, "CONCURRENCY")?,
                num(secs, "SECS")?,
            );
            Ok(())
        }
        ["soak", url, ver, transport, callers, secs] => {
            soak::run(
                url,
                client::parse_version(ver)?,
                client::Transport::parse(transport)?,
                num(callers, "CALLERS")?,
                num(secs, "SECS")?,
            );
            Ok(())
        }
        ["faults", runs] => {
            let faults = faults::run(num(runs, "RUNS")?);
            print!("{}", faults::markdown(&faults, "###"));
            if let Some(goal) = faults::goal(&faults) {
                println!("\n{goal}");
            }
            Ok(())
        }
        ["fake-server"] => {
            client::fake_server();
            Ok(())
        }
        ["stream-serve", rows] => {
            stream::serve(num(rows, "ROWS")?);
            Ok(())
        }
        ["stream-read", url, mode] => {
            let streamed = match *mode {
                "streamed" => true,
                "buffered" => false,
                _ => return Err(format!("unknown mode {mode:?} (streamed|buffered)")),
            };
            stream::read(url, streamed);
            Ok(())
        }
        ["mtom-serve", bytes] => {
            stream::mtom_serve(num(bytes, "BYTES")?);
            Ok(())
        }
        ["mtom-read", url, dir] => {
            stream::mtom_read(url, dir);
            Ok(())
        }
        ["stream-memory", rows, iters] => {
            stream::memory(num(rows, "ROWS")?, num(iters, "ITERS")?);
            Ok(())
        }
        ["serialize", iters] => {
            client::serialize(num(iters, "ITERS")?);
            Ok(())
        }
        _ => Err("usage: see `bash bench/run.sh --help` and bench/harness/src/main.rs".to_owned()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("soapgen-bench: {e}");
            ExitCode::from(2)
        }
    }
}
