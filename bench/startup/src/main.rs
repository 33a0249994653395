//! `soapgen-bench-startup URL 11|12`: builds the generated blocking client of
//! `large_objects.wsdl` with the default transport, makes one `Ping` call and prints `ok`.
//! `bench/run.sh` (part 1) times process start to that line, beside gSOAP's C client and zeep.
//!
//! Exit status 2 on bad arguments, 1 when the call fails (the error on stderr).

use std::process::ExitCode;

use soapgen_runtime::SoapVersion;

/// The client generated at build time from `large_objects.wsdl` (see build.rs).
#[allow(missing_docs, clippy::all)]
mod lo {
    soapgen_runtime::include_client!("large_objects");
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (url, version) = match args.as_slice() {
        [url, v] if v == "11" => (url, SoapVersion::Soap11),
        [url, v] if v == "12" => (url, SoapVersion::Soap12),
        _ => {
            eprintln!("usage: soapgen-bench-startup URL 11|12");
            return ExitCode::from(2);
        }
    };
    let client = match lo::LargeObjectsServiceBlockingClient::new(url) {
        Ok(c) => c.with_soap_version(version),
        Err(e) => {
            eprintln!("soapgen-bench-startup: {e}");
            return ExitCode::FAILURE;
        }
    };
    match client.ping("first".to_owned()) {
        Ok(v) if v == "first" => {
            println!("ok");
            ExitCode::SUCCESS
        }
        Ok(v) => {
            eprintln!("soapgen-bench-startup: Ping answered {v:?}, not \"first\"");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("soapgen-bench-startup: {e}");
            ExitCode::FAILURE
        }
    }
}
