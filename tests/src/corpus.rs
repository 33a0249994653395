//! The real-world WSDL corpus (`tests/corpus`: files from public repositories, SOURCES.tsv naming
//! each one's repository, commit and licence): generation of every entry document, the expected outcome of each, and the table in docs/testing.md.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// One entry document of the corpus.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Path relative to `tests/corpus`.
    pub path: String,
    /// The notes column of SOURCES.tsv (style, features).
    pub notes: String,
}

/// An operation's response as its generated client reads it (for the round trip of
/// `tests/tests/corpus.rs`).
#[derive(Debug, Clone)]
pub struct Response {
    /// The client trait.
    pub client: String,
    /// The method (a Rust identifier, maybe raw: `r#type`).
    pub method: String,
    /// The Rust type the method returns (its body result), as the trait spells it (`types::Foo`).
    pub ty: String,
    /// The response element, (namespace, local name): the SOAP Body's child.
    pub element: (String, String),
    /// The result element inside the response wrapper (wrapped and rpc styles), or `None` when
    /// the result is the response element itself (bare, or a wrapper with several children).
    pub result: Option<(String, String)>,
}

/// The outcome of generating one entry.
/// One call of a client to put through its in-process fake: the client trait's first operation
/// the fake answers (a body result; no SwA part parameters or results), its parameter types
/// and its result and error types, as the trait spells them.
#[derive(Debug, Clone)]
pub struct FakeCall {
    /// The client trait.
    pub client: String,
    /// The method.
    pub method: String,
    /// The parameters' types, in order.
    pub params: Vec<String>,
    /// The result type.
    pub ret: String,
    /// The result's minOccurs when it is repeated (XML Schema Part 1 §3.9.1), else 0.
    pub ret_min: u64,
    /// The error type (`Error`, or the `FaultError` of the operation's fault set).
    pub err: String,
}

#[derive(Debug, Clone)]
pub struct Outcome {
    /// The entry.
    pub entry: Entry,
    /// Generated code, or the error text (locations relative to the corpus folder).
    pub result: Result<String, String>,
    /// Number of operations and types generated.
    pub operations: usize,
    /// Types generated.
    pub types: usize,
    /// Time taken to generate.
    pub elapsed: Duration,
    /// The responses of every operation that has a body result, in client and operation order.
    pub responses: Vec<Response>,
    /// One call per client through its fake (clients without an operation the fake answers
    /// with a body result have none).
    pub calls: Vec<FakeCall>,
}

/// The corpus folder.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// The entry documents listed in SOURCES.tsv (notes column says `entry`), in file order.
pub fn entries() -> Vec<Entry> {
    let text =
        std::fs::read_to_string(dir().join("SOURCES.tsv")).expect("tests/corpus/SOURCES.tsv");
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let notes = cols.last()?.to_string();
            notes.split("; ").any(|n| n == "entry").then(|| Entry {
                path: cols[0].to_owned(),
                notes,
            })
        })
        .collect()
}

/// Generates one entry with the default settings (unsupported constructs are errors; the fake
/// behind the generated crate's `fake` feature, as `soapgen generate --fake` puts it) and the corpus
/// catalog (`tests/corpus/catalog.txt`: the OASIS schemas ONVIF imports by URL, mapped to copies in
/// the corpus, as a user would map downloaded copies).
pub fn generate(entry: &Entry) -> Outcome {
    let path = dir().join(&entry.path);
    let start = Instant::now();
    let g = soapgen_build::Builder::new()
        .wsdl(&path)
        .catalog_file(dir().join("catalog.txt"))
        .fake(soapgen_build::Fake::Feature("fake".to_owned()))
        .generate_one(&path);
    let elapsed = start.elapsed();
    let prefix = format!("{}/", dir().display());
    match g {
        Ok(g) => Outcome {
            responses: responses(&g.module),
            calls: calls(&g.module),
            entry: entry.clone(),
            operations: g.module.clients.iter().map(|c| c.operations.len()).sum(),
            types: g.module.types.len(),
            result: Ok(g.code),
            elapsed,
        },
        Err(e) => Outcome {
            entry: entry.clone(),
            result: Err(e.to_string().replace(&prefix, "")),
            operations: 0,
            types: 0,
            elapsed,
            responses: Vec::new(),
            calls: Vec::new(),
        },
    }
}

/// The generation of a document held in memory, `text`, named `name` (an entry of no file).
pub fn generate_document(name: &str, text: &str) -> Outcome {
    let path = PathBuf::from(format!("/mem/{name}"));
    let start = Instant::now();
    let g = soapgen_build::Builder::new()
        .document(&path, text)
        .fake(soapgen_build::Fake::Feature("fake".to_owned()))
        .generate_one(&path);
    let elapsed = start.elapsed();
    let entry = Entry {
        path: name.to_owned(),
        notes: String::new(),
    };
    match g {
        Ok(g) => Outcome {
            responses: responses(&g.module),
            calls: calls(&g.module),
            entry,
            operations: g.module.clients.iter().map(|c| c.operations.len()).sum(),
            types: g.module.types.len(),
            result: Ok(g.code),
            elapsed,
        },
        Err(e) => Outcome {
            entry,
            result: Err(e.to_string()),
            operations: 0,
            types: 0,
            elapsed,
            responses: Vec::new(),
            calls: Vec::new(),
        },
    }
}

/// The responses of `module`'s operations that return a body result, read as `#[soap_client]`
/// reads them: the whole response element (bare, or `bare_response`), or the result element in
/// the response wrapper.
fn responses(module: &soapgen_build::model::ir::Module) -> Vec<Response> {
    let opts = soapgen_build::emit::EmitOptions::default();
    let mut out = Vec::new();
    for c in &module.clients {
        for op in &c.operations {
            let (Some(ret), Some(resp)) = (&op.ret, &op.response) else {
                continue;
            };
            let result = if op.bare || op.bare_response {
                None
            } else {
                Some(match &op.result {
                    Some(r) => (r.ns.clone(), r.local.clone()),
                    None => (resp.ns.clone(), format!("{}Result", op.request.local)),
                })
            };
            out.push(Response {
                client: c.name.clone(),
                method: op.method.clone(),
                ty: soapgen_build::emit::type_source(ret, &opts),
                element: (resp.ns.clone(), resp.local.clone()),
                result,
            });
        }
    }
    out
}

/// For each client of `module`, its first operation the in-process fake answers with a body
/// result (no SwA part parameters or results).
fn calls(module: &soapgen_build::model::ir::Module) -> Vec<FakeCall> {
    let opts = soapgen_build::emit::EmitOptions::default();
    let ty = |t| soapgen_build::emit::type_source(t, &opts);
    module
        .clients
        .iter()
        .filter_map(|c| {
            let op = c.operations.iter().find(|op| {
                op.ret.is_some() && op.attachments.is_empty() && op.response_attachments.is_empty()
            })?;
            Some(FakeCall {
                client: c.name.clone(),
                method: op.method.clone(),
                params: op.params.iter().map(|p| ty(&p.ty)).collect(),
                ret: ty(op.ret.as_ref()?),
                ret_min: op.result_min,
                err: match &op.faults {
                    Some(f) => format!("::soapgen_runtime::FaultError<types::{f}>"),
                    None => "::soapgen_runtime::Error".to_owned(),
                },
            })
        })
        .collect()
}

/// The first line of an error without its leading `file:line:col: `.
pub fn without_location(error: &str) -> &str {
    let first = error.lines().next().unwrap_or_default();
    match first.split_once(": ") {
        Some((loc, msg)) if loc.rsplit(':').take(2).all(|n| n.parse::<u32>().is_ok()) => msg,
        _ => first,
    }
}

/// The style column: what SOURCES.tsv says of the entry's bindings.
pub fn style(notes: &str) -> String {
    notes
        .split("; ")
        .find_map(|n| n.strip_prefix("style="))
        .unwrap_or(if notes.starts_with("xsd") {
            "schema only"
        } else {
            "—"
        })
        .to_owned()
}

/// The Markdown table of outcomes: WSDL, style, operations, types, generation time, result.
pub fn table(outcomes: &[Outcome]) -> String {
    let mut out = String::from(
        "| WSDL | style | operations | types | generation | result |\n|---|---|---:|---:|---:|---|\n",
    );
    for o in outcomes {
        let result = match &o.result {
            Ok(_) => "generates, compiles".to_owned(),
            Err(e) => format!("error: {}", without_location(e).replace('|', "\\|")),
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {:.0} ms | {} |\n",
            o.entry.path,
            style(&o.entry.notes),
            o.operations,
            o.types,
            o.elapsed.as_secs_f64() * 1000.0,
            result
        ));
    }
    out
}
