//! zeep (Python): the requests its WS-Security plugins write, and how it writes and reads nil
//! elements with attributes.

use std::io::Write;
use std::process::{Command, Stdio};

use super::process::peers_dir;
use super::spyne::{python, PYTHON_INSTALL_HINT};

const ZEEP_WSS_INSTALL_HINT: &str =
    "apt-get install -y python3-zeep python3-xmlsec (see .ci/install-peers.sh)";

/// Runs `tests/peers/zeep_wss.py` with `args` (`--key PEM --cert PEM --user NAME --password PW
/// [--text T] [--soap12] [--no-sign] [--no-token]`) under Debian's python3 and returns the bytes
/// zeep 4.2 would POST for `Echo(text)` with `wsse=[UsernameToken(user, password,
/// use_digest=True), BinarySignature(key, cert)]`.
///
/// # Panics
///
/// If python3, zeep or python3-xmlsec is missing (with the packages to install) or the script
/// fails.
pub fn zeep_wss_request(args: &[&str]) -> Vec<u8> {
    run_script("zeep_wss.py", args, ZEEP_WSS_INSTALL_HINT)
}

/// Runs the peer script `script` with `args` under Debian's python3 and returns its stdout.
///
/// # Panics
///
/// If python3 cannot be run or the script fails (naming `install`, what it needs).
fn run_script(script: &str, args: &[&str], install: &str) -> Vec<u8> {
    let python = python();
    let script = peers_dir().join(script);
    let out = Command::new(&python)
        .arg(&script)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {} ({e}): {PYTHON_INSTALL_HINT}; {install}",
                python.display()
            )
        });
    assert!(
        out.status.success(),
        "{} {} {args:?} failed ({}):\n{}\ninstall: {install}",
        python.display(),
        script.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Runs `tests/peers/zeep_nil.py MODE` under Debian's python3 with `input` on stdin and returns
/// its output: zeep 4.2 writing (`render`: an EchoNilsResponse envelope of `tests/wsdl/kinds.wsdl`
/// whose `reqPrice` and `optPrice` are nil with a `currency` attribute, XML Schema Part 1 §2.6.2)
/// or reading (`parse`: an EchoNils request, one line per Price element with its currency, nil
/// flag and value) nil elements that carry attributes.
///
/// # Panics
///
/// If python3 or zeep is missing (with the packages to install) or the script fails.
pub fn zeep_nil(mode: &str, input: &[u8]) -> String {
    let python = python();
    let script = peers_dir().join("zeep_nil.py");
    let mut child = Command::new(&python)
        .arg(&script)
        .arg(mode)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {} ({e}): {PYTHON_INSTALL_HINT}; apt-get install -y python3-zeep",
                python.display()
            )
        });
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input).expect("write to zeep_nil.py");
    }
    let out = child.wait_with_output().expect("run zeep_nil.py");
    assert!(
        out.status.success(),
        "{} {} {mode} failed ({}):\n{}\ninstall: apt-get install -y python3-zeep",
        python.display(),
        script.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("zeep_nil.py prints UTF-8")
}

/// Runs `tests/peers/zeep_call.py` under Debian's python3: zeep 4.2 reads the WSDL at `wsdl`
/// (a URL), binds `service`/`port` and calls `operation` with the keyword arguments of the JSON
/// object `args`. Returns the script's JSON line: `{"result": …}` or `{"fault": {"code", "message",
/// "subcodes", "detail"}}`.
///
/// # Panics
///
/// If python3 or zeep is missing (with the packages to install) or the script fails otherwise
/// than by a SOAP fault.
pub fn zeep_call(wsdl: &str, service: &str, port: &str, operation: &str, args: &str) -> String {
    zeep_call_with(wsdl, service, port, operation, args, &[])
}

/// [`zeep_call`] with the script's options `options`: `--user NAME --password PW` (zeep's
/// `UsernameToken`, a PasswordDigest), `--key KEY.pem --cert CERT.pem` (zeep's
/// `BinarySignature`, which also checks the response's signature with CERT; a response that
/// fails the check gives `{"error": …}`), `--local=URL=PATH` (a document zeep would fetch from
/// URL, such as an imported schema, read from PATH: no web here).
///
/// # Panics
///
/// As [`zeep_call`]; for signatures, also if python3-xmlsec is missing.
pub fn zeep_call_with(
    wsdl: &str,
    service: &str,
    port: &str,
    operation: &str,
    args: &str,
    options: &[&str],
) -> String {
    let mut argv = vec![wsdl, service, port, operation, args];
    argv.extend_from_slice(options);
    let out = run_script("zeep_call.py", &argv, ZEEP_WSS_INSTALL_HINT);
    String::from_utf8_lossy(&out).trim().to_owned()
}
