//! Signed requests as a soapgen client writes them, checked by `xmlsec1 --verify` (xmlsec1
//! 1.2.37, Debian's `xmlsec1`), for the WS-Security tests that need only the message, not a
//! server.

use std::process::{Command, Stdio};

use soapgen_runtime::wss::WssConfig;
use soapgen_runtime::xml::Name;
use soapgen_runtime::{Client, Operation, SoapVersion};

use crate::pki::test_pki;

const WSU: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";

/// The request envelope a client configured with `wss` writes for an `Echo` of `text`
/// (namespace `urn:soapgen:wss`), without sending it.
pub fn request(wss: WssConfig, version: SoapVersion, text: &str) -> String {
    let client = Client::builder("http://127.0.0.1:9/")
        .wss(wss)
        .build()
        .expect("client");
    let op = Operation {
        name: "Echo",
        action: "urn:soapgen:wss#Echo",
        version,
        one_way: false,
    };
    let mut env = client
        .envelope(&op, &[("tns", "urn:soapgen:wss")])
        .expect("envelope");
    env.body(|w| {
        w.start_element(Name::new("urn:soapgen:wss", "Echo"))?;
        w.simple_element(Name::new("urn:soapgen:wss", "text"), text)?;
        w.end_element()
    })
    .expect("body");
    env.finish().expect("finish")
}

/// Runs `xmlsec1 --verify` on `xml` with `key_args` (e.g. `["--pubkey-cert-pem", "c.pem"]`),
/// the Body and Timestamp located by their `wsu:Id`; `Ok(output)` when it verified, `Err(output)`
/// otherwise. Panics with the package to install when xmlsec1 is missing.
pub fn verify(xml: &str, version: SoapVersion, key_args: &[&str]) -> Result<String, String> {
    let dir = test_pki().dir();
    let file = dir.join(format!(
        "msg-{}-{}.xml",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    ));
    std::fs::write(&file, xml).expect("write the message");
    let out = Command::new("xmlsec1")
        .arg("--verify")
        .args(key_args)
        .args(["--id-attr:Id", &format!("{WSU}:Timestamp")])
        .args([
            "--id-attr:Id",
            &format!("{}:Body", version.envelope_namespace()),
        ])
        .arg(&file)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run xmlsec1 ({e}): apt-get install -y xmlsec1"));
    let _ = std::fs::remove_file(&file);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.success() && text.contains("OK") {
        Ok(text)
    } else {
        Err(text)
    }
}
