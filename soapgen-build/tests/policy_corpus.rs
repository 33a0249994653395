//! Every WS-SecurityPolicy alternative of Apache CXF's `systests/ws-security` WSDLs (the policy
//! corpus, `../shared/corpus/cxf-policy` beside the repository) read and judged: understood, or
//! refused with its reason. The result is the table in `docs/ws-security-policy-corpus.md`,
//! which this test compares with what soapgen reads now (`SOAPGEN_BLESS=1` rewrites it). No
//! port may have a security assertion that is neither understood, nor refused, nor reported.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use soapgen_build::model::security::{describe, MessageSecurity};
use soapgen_build::Builder;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn corpus() -> PathBuf {
    let dir = root().join("../shared/corpus/cxf-policy");
    assert!(
        dir.join("SOURCES.tsv").is_file(),
        "the policy corpus is not at {} (it comes with ../shared beside the repository)",
        dir.display()
    );
    dir.canonicalize().unwrap()
}

/// The corpus's WSDLs, relative to its `src/test/resources`, sorted.
fn wsdls(resources: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![resources.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "wsdl") {
                out.push(p.strip_prefix(resources).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// A table cell: `|` escaped, one line.
fn cell(s: &str) -> String {
    let resources = corpus().join("src/test/resources/");
    s.replace(&resources.display().to_string(), "")
        .replace('|', "\\|")
        .replace('\n', " ")
}

/// One message's alternatives as table rows.
fn rows(out: &mut String, prefix: &str, m: &MessageSecurity, counts: &mut [usize; 2]) {
    for (i, a) in m.alternatives.iter().enumerate() {
        if a.policy.is_empty() && a.refused.is_empty() && a.ignored.is_empty() {
            continue;
        }
        let verdict = if a.refused.is_empty() {
            counts[0] += 1;
            let mut v = format!("understood: {}", describe::message(&a.policy));
            for r in &a.ignored {
                let _ = write!(
                    v,
                    " (left out, optional or ignorable: {})",
                    r.assertion.local
                );
            }
            v
        } else {
            counts[1] += 1;
            let reasons: Vec<String> = a
                .refused
                .iter()
                .map(|r| format!("{} ({})", r.assertion.local, r.reason))
                .collect();
            format!("refused: {}", reasons.join("; "))
        };
        let _ = writeln!(out, "{prefix} {} | {} |", i + 1, cell(&verdict));
    }
}

#[test]
fn every_alternative_of_the_cxf_policy_corpus_is_understood_or_refused_with_its_reason() {
    let corpus = corpus();
    let resources = corpus.join("src/test/resources");
    let logical = resources.join("DoubleItLogical.wsdl");
    let mut table = String::new();
    let mut counts = [0usize; 2];
    let mut files = 0;
    for rel in wsdls(&resources) {
        files += 1;
        let name = rel.display().to_string();
        let g = Builder::new()
            .wsdl(resources.join(&rel))
            .catalog_entry("src/test/resources/DoubleItLogical.wsdl", &logical)
            .manual_security(["*"])
            .generate_one(&resources.join(&rel));
        let g = match g {
            Ok(g) => g,
            Err(e) => {
                let first = e.0.first().map(|e| e.kind.to_string()).unwrap_or_default();
                let _ = writeln!(
                    table,
                    "| {name} | | | | | not generated: {} |",
                    cell(&first)
                );
                continue;
            }
        };
        for c in &g.module.clients {
            for p in &c.ports {
                let Some(sec) = &p.security else { continue };
                for op in &sec.operations {
                    let prefix = format!("| {name} | {} | {} |", p.port, op.wsdl_name);
                    rows(
                        &mut table,
                        &format!("{prefix} request |"),
                        &op.input,
                        &mut counts,
                    );
                    rows(
                        &mut table,
                        &format!("{prefix} response |"),
                        &op.output,
                        &mut counts,
                    );
                }
            }
        }
    }
    let doc = format!(
        "# WS-SecurityPolicy: the CXF corpus, alternative by alternative\n\n\
         Apache CXF's `systests/ws-security` WSDLs ({files} files; the policy corpus beside the \
         repository), each port's effective policy per operation and message, each alternative \
         of its normal form: understood by soapgen (what it demands), or refused with the \
         assertion and the reason. {} alternatives understood, {} refused. Written by \
         `SOAPGEN_BLESS=1 cargo test -p soapgen-build --test policy_corpus`, checked by the same \
         test without the variable.\n\n\
         | WSDL | port | operation | message | alternative | soapgen |\n\
         |---|---|---|---|---:|---|\n{table}",
        counts[0], counts[1]
    );
    let path = root().join("docs/ws-security-policy-corpus.md");
    if std::env::var_os("SOAPGEN_BLESS").is_some() {
        std::fs::write(&path, &doc).unwrap();
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == doc,
        "{} is not what soapgen reads now: run SOAPGEN_BLESS=1 cargo test -p soapgen-build \
         --test policy_corpus and review the diff",
        path.display()
    );
    assert!(counts[0] > 100 && counts[1] > 10, "{counts:?}");
}
