//! `soapgen cert extract`: the X.509 certificates a captured SOAP message carries, written out as
//! DER files and described — for finding out which certificate a peer signs with, what to trust,
//! and how a KeyIdentifier or X509IssuerSerial will name it.
//!
//! Tokens read: every `BinarySecurityToken` of the WSS 1.0 `wsse` namespace whose `ValueType` is
//! X.509 v3 (X.509 Token Profile 1.1 §3.1; any prefix), and every `ds:X509Certificate`
//! (XML-DSig §4.4.4), e.g. inside `ds:KeyInfo/ds:X509Data` or a SecurityTokenReference.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use clap::{Args, Subcommand};
use soapgen_build::{Error, ErrorKind, Errors};
use soapgen_runtime::wss::{Certificate, UtcTime, DS_NS, WSSE_NS, WSU_NS};

/// `soapgen cert` subcommands.
#[derive(Debug, Subcommand)]
pub enum CertCommand {
    /// Write the X.509 certificates a captured SOAP message carries as DER files, and describe
    /// them.
    ///
    /// Reads every wsse:BinarySecurityToken with an X509v3 ValueType and every ds:X509Certificate
    /// (any namespace prefix) and writes each as <wsu:Id or index>.cer. Prints subject, issuer,
    /// serial (decimal and hex), SubjectKeyIdentifier (hex), SHA-1 thumbprint (base64, as a
    /// ThumbprintSHA1 KeyIdentifier carries it), validity (RFC 3339) and key type and size. A
    /// malformed certificate is reported with the reason and the exit status is 1; the other
    /// tokens are still written and printed.
    Extract(CertExtractArgs),
}

/// `soapgen cert extract`.
#[derive(Debug, Args)]
pub struct CertExtractArgs {
    /// The captured message: a SOAP envelope as it went over the wire (from a proxy or a packet
    /// capture; soapgen's own wire log redacts the tokens).
    pub message: PathBuf,
    /// The directory to write the .cer files to (created if missing; files of the same names
    /// are overwritten).
    #[arg(short, long, value_name = "DIR", default_value = ".")]
    pub out: PathBuf,
}

/// Runs `soapgen cert extract`: what [`extract`] reports, or an error that carries the report
/// when a certificate could not be read.
///
/// # Errors
///
/// The message cannot be read or parsed, a file cannot be written, or some token is not a usable
/// certificate.
pub fn run(args: &CertExtractArgs) -> Result<String, Errors> {
    let x = extract_files(args)?;
    if x.failed > 0 {
        return Err(Error::new(
            ErrorKind::Invalid(format!(
                "{x_report}{n} of the certificates in {} could not be read",
                args.message.display(),
                x_report = x.report,
                n = x.failed
            )),
            None,
        )
        .into());
    }
    Ok(x.report)
}

/// [`extract`] with the command's arguments, its error as the tool's.
///
/// # Errors
///
/// The message cannot be read or parsed, or a file cannot be written.
pub fn extract_files(args: &CertExtractArgs) -> Result<Extracted, Errors> {
    extract(&args.message, &args.out).map_err(|e| Error::new(ErrorKind::Invalid(e), None).into())
}

/// What `extract` did: the text to print, and whether every token was a usable certificate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    /// One paragraph per token, in document order (errors included, marked `error:`).
    pub report: String,
    /// The `.cer` files written, in document order.
    pub files: Vec<PathBuf>,
    /// How many tokens could not be read as certificates (bad base64, or refused by
    /// [`Certificate::from_der`]: not X.509, a malformed extension such as an empty
    /// SubjectKeyIdentifier).
    pub failed: usize,
}

/// One token found in the message.
struct Token {
    /// How the report names it: element name, Id, line.
    label: String,
    /// The file stem: the `wsu:Id` (made file-name safe), else the token's 1-based index.
    stem: String,
    /// The base64 content.
    text: String,
}

/// Reads `message` (a SOAP envelope, or any XML) and, for each certificate token, writes
/// `<wsu:Id or index>.cer` (DER) into `out` and describes it: subject and issuer (RFC 4514),
/// serial (decimal and hex), SubjectKeyIdentifier (hex), SHA-1 thumbprint (base64, as a
/// `ThumbprintSHA1` KeyIdentifier carries it), validity (RFC 3339, UTC), key algorithm and size.
/// A token that is not a usable certificate is reported with the reason (naming the extension,
/// for a malformed one) and counted in [`Extracted::failed`]; the DER is still written when the
/// base64 decodes, for inspection with other tools.
///
/// # Errors
///
/// The message is not well-formed XML (or has a DOCTYPE), it holds no certificate token, or
/// `out` cannot be created or written — as a message naming the file.
pub fn extract(message: &Path, out: &Path) -> Result<Extracted, String> {
    let text = std::fs::read_to_string(message)
        .map_err(|e| format!("cannot read {}: {e}", message.display()))?;
    let doc = roxmltree::Document::parse(&text)
        .map_err(|e| format!("{} is not well-formed XML: {e}", message.display()))?;
    let tokens = find_tokens(&doc);
    if tokens.is_empty() {
        return Err(format!(
            "{}: no X.509 certificate in it (no wsse:BinarySecurityToken with ValueType …#X509v3, no ds:X509Certificate)",
            message.display()
        ));
    }
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let mut report = String::new();
    let mut files = Vec::new();
    let mut failed = 0;
    let mut used = std::collections::BTreeSet::new();
    for (i, token) in tokens.iter().enumerate() {
        if i > 0 {
            report.push('\n');
        }
        let _ = writeln!(report, "{}", token.label);
        let der = match soapgen_runtime::base64::decode(token.text.as_bytes()) {
            Ok(der) => der,
            Err(e) => {
                failed += 1;
                let _ = writeln!(report, "  error: its content is not base64: {e}");
                continue;
            }
        };
        let mut stem = token.stem.clone();
        if !used.insert(stem.clone()) {
            stem = format!("{stem}-{}", i + 1);
            used.insert(stem.clone());
        }
        let path = out.join(format!("{stem}.cer"));
        std::fs::write(&path, &der).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let _ = writeln!(report, "  file:        {}", path.display());
        files.push(path);
        match Certificate::from_der(&der, &token.stem) {
            Ok(cert) => describe(&cert, &mut report),
            Err(e) => {
                failed += 1;
                let _ = writeln!(report, "  error: {e}");
            }
        }
    }
    Ok(Extracted {
        report,
        files,
        failed,
    })
}

fn describe(cert: &Certificate, out: &mut String) {
    let _ = writeln!(out, "  subject:     {}", cert.subject_rfc4514());
    let _ = writeln!(out, "  issuer:      {}", cert.issuer_rfc4514());
    let _ = writeln!(
        out,
        "  serial:      {} (0x{})",
        cert.serial_decimal(),
        cert.serial().replace(':', "")
    );
    let _ = writeln!(
        out,
        "  SKI:         {}",
        cert.subject_key_identifier()
            .map(hex)
            .unwrap_or_else(|| "(none: no SubjectKeyIdentifier extension)".to_owned())
    );
    let _ = writeln!(
        out,
        "  SHA-1:       {} (ThumbprintSHA1)",
        base64::engine::general_purpose::STANDARD.encode(cert.sha1_thumbprint())
    );
    let (not_before, not_after) = cert.validity();
    let _ = writeln!(
        out,
        "  validity:    {} to {}",
        rfc3339(not_before),
        rfc3339(not_after)
    );
    let _ = writeln!(
        out,
        "  key:         {}{}",
        cert.public_key_algorithm(),
        cert.public_key_bits()
            .map(|b| format!(" {b} bits"))
            .unwrap_or_default()
    );
}

/// Seconds since the epoch as RFC 3339 in UTC, without a fraction (`2026-11-30T10:00:00Z`).
fn rfc3339(secs: i64) -> String {
    let t = UtcTime::from_unix_millis(secs.saturating_mul(1000)).to_string();
    match t.strip_suffix(".000Z") {
        Some(whole) => format!("{whole}Z"),
        None => t,
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

fn find_tokens(doc: &roxmltree::Document<'_>) -> Vec<Token> {
    let mut tokens = Vec::new();
    for node in doc.descendants().filter(|n| n.is_element()) {
        let name = node.tag_name();
        let kind = match (name.namespace(), name.name()) {
            (Some(WSSE_NS), "BinarySecurityToken") => {
                let x509 = node
                    .attribute("ValueType")
                    .is_some_and(|v| v.ends_with("#X509v3") || v.ends_with(":X509v3"));
                if !x509 {
                    continue;
                }
                "wsse:BinarySecurityToken"
            }
            (Some(DS_NS), "X509Certificate") => "ds:X509Certificate",
            _ => continue,
        };
        let index = tokens.len() + 1;
        let id = node.attribute((WSU_NS, "Id")).or(node.attribute("Id"));
        let line = doc.text_pos_at(node.range().start).row;
        let label = match id {
            Some(id) => format!("token {index}: {kind} Id={id:?} (line {line})"),
            None => format!("token {index}: {kind} (line {line})"),
        };
        let stem = id
            .map(|id| {
                id.chars()
                    .map(|c| {
                        if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                            c
                        } else {
                            '_'
                        }
                    })
                    .collect::<String>()
            })
            .filter(|s| !s.is_empty() && !s.starts_with('.'))
            .unwrap_or_else(|| index.to_string());
        let text: String = node
            .children()
            .filter(|c| c.is_text())
            .filter_map(|c| c.text())
            .collect();
        tokens.push(Token { label, stem, text });
    }
    tokens
}
