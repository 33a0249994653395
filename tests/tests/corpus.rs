//! Every entry document of the real-world corpus (`tests/corpus`): generation gives the outcome
//! recorded in `tests/corpus/EXPECTED.tsv` (a client, or an error naming the unsupported construct or
//! the broken input), every generated client compiles (one crate holding them all, against the
//! workspace's runtime, each with its in-process fake), every operation's response type
//! round-trips: arbitrary values (`soapgen_runtime::arbitrary`, a fixed seed, `CASES` each)
//! written with the runtime's writer and read back with its reader come back equal; and every
//! client calls its first operation with a body result through its fake (`CALLS` times,
//! arbitrary arguments and result), the fake checking the arguments and the client the result.
//! Forty random content models (sequences, choices, `all`, nested and named groups, wildcards,
//! occurrence ranges, nil, attributes, simpleContent, extensions: `soapgen_tests::content_models`)
//! are generated and round-tripped the same way, in the same crate.
//!
//! After an intended change, rewrite the expectations with `SOAPGEN_UPDATE_EXPECTED=1`.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use soapgen_tests::corpus;

fn expected() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(corpus::dir().join("EXPECTED.tsv")).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .filter_map(|l| l.split_once('\t'))
        .map(|(p, e)| (p.to_owned(), e.to_owned()))
        .collect()
}

/// What an outcome is compared by: `ok`, or the error's message without its location.
fn key(o: &corpus::Outcome) -> String {
    match &o.result {
        Ok(_) => "ok".to_owned(),
        Err(e) => format!("error: {}", corpus::without_location(e)),
    }
}

#[test]
fn corpus_generates_as_expected_and_compiles() {
    let outcomes: Vec<corpus::Outcome> = corpus::entries().iter().map(corpus::generate).collect();
    assert!(outcomes.len() >= 60, "corpus entries: {}", outcomes.len());
    let actual: BTreeMap<String, String> = outcomes
        .iter()
        .map(|o| (o.entry.path.clone(), key(o)))
        .collect();

    let exp_path = corpus::dir().join("EXPECTED.tsv");
    if std::env::var_os("SOAPGEN_UPDATE_EXPECTED").is_some() {
        let mut text = String::from(
            "# entry\texpected outcome (ok, or the error message without its location)\n",
        );
        for (p, k) in &actual {
            text.push_str(&format!("{p}\t{k}\n"));
        }
        std::fs::write(&exp_path, text).unwrap();
    }
    let expected = expected();
    let mut mismatches = Vec::new();
    for (p, k) in &actual {
        match expected.get(p) {
            Some(e) if e == k => {}
            Some(e) => mismatches.push(format!("{p}\n  expected: {e}\n  actual:   {k}")),
            None => mismatches.push(format!("{p}: no expectation recorded (actual: {k})")),
        }
    }
    for p in expected.keys().filter(|p| !actual.contains_key(*p)) {
        mismatches.push(format!("{p}: expected but not in the corpus"));
    }
    assert!(
        mismatches.is_empty(),
        "corpus outcomes changed:\n{}",
        mismatches.join("\n")
    );

    // Random content models (`soapgen_tests::content_models`): generated like an entry, their
    // round trips in the same crate.
    // `SOAPGEN_MODELS_SEED=n` draws other models: to explore beyond the recorded seed.
    let seed = std::env::var("SOAPGEN_MODELS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(MODELS_SEED);
    let mut outcomes = outcomes;
    let models = corpus::generate_document(
        "content-models.wsdl",
        &soapgen_tests::content_models::wsdl(seed, MODELS),
    );
    if let Err(e) = &models.result {
        panic!(
            "the random content models (seed {seed}) do not generate: {e}\n{}",
            soapgen_tests::content_models::wsdl(seed, MODELS)
        );
    }
    assert_eq!(
        models.responses.len(),
        MODELS,
        "one round trip per drawn type"
    );
    outcomes.push(models);

    // Every generated client compiles, and every response type round-trips: one crate, one module
    // per entry, one test per operation with a body result.
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/corpus-check");
    let src = target.join("src");
    std::fs::create_dir_all(&src).unwrap();
    let mut lib = String::from(
        "//! Generated clients of the corpus, checked to compile; their response types round-trip.\n\
         #![allow(async_fn_in_trait)]\n",
    );
    // `SOAPGEN_CORPUS_ONLY=a,b` builds only the entries whose path contains `a` or `b`: to iterate
    // on a few entries without compiling them all.
    let only: Option<Vec<String>> = std::env::var("SOAPGEN_CORPUS_ONLY")
        .ok()
        .map(|v| v.split(',').map(str::to_owned).collect());
    let mut round_trips = 0;
    let mut fake_calls = 0;
    for (i, o) in outcomes.iter().enumerate() {
        if only
            .as_ref()
            .is_some_and(|only| !only.iter().any(|p| o.entry.path.contains(p.as_str())))
        {
            continue;
        }
        if let Ok(code) = &o.result {
            let file = format!("m{i:02}.rs");
            soapgen_build::write_if_changed(&src.join(&file), code).unwrap();
            lib.push_str(&format!(
                "/// `{}`\npub mod m{i:02} {{ include!(\"{file}\"); }}\n",
                o.entry.path
            ));
            let tests = round_trip_module(i, o);
            round_trips += tests.1;
            lib.push_str(&tests.0);
            let calls = fake_module(i, o);
            fake_calls += calls.1;
            lib.push_str(&calls.0);
        }
    }
    lib.push_str(&format!(
        "\n/// Values generated per response type.\n#[cfg(test)]\nconst CASES: usize = {CASES};\n\
         /// Calls per client through its fake.\n#[cfg(test)]\nconst CALLS: usize = {CALLS};\n"
    ));
    lib.push_str(ROUND_TRIP_HELPER);
    soapgen_build::write_if_changed(&src.join("lib.rs"), &lib).unwrap();
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../soapgen-runtime")
        .canonicalize()
        .unwrap();
    let manifest = format!(
        "[package]\nname = \"corpus-check\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\nsoapgen-runtime = {{ path = {:?}, features = [\"blocking\", \"proptest\", \"testing\"] }}\n\
         proptest = \"1\"\n\n\
         [features]\nfake = []\n\n\
         [profile.dev]\ndebug = 0\n\n[workspace]\n",
        runtime.display().to_string()
    );
    soapgen_build::write_if_changed(&target.join("Cargo.toml"), &manifest).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.lock"),
        target.join("Cargo.lock"),
    )
    .unwrap();
    // Without the fake, each type has only the codecs of the directions its operations use it
    // in: every client must compile so too.
    let out = Command::new(env!("CARGO"))
        .args([
            "check",
            "--quiet",
            "--offline",
            "--lib",
            "--message-format=short",
        ])
        .current_dir(&target)
        .env("CARGO_TARGET_DIR", target.join("target"))
        .env("RUSTFLAGS", "-D warnings")
        .output()
        .expect("run cargo check");
    assert!(
        out.status.success(),
        "generated corpus clients do not compile without their fake:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new(env!("CARGO"))
        .args([
            "test",
            "--quiet",
            "--offline",
            "--lib",
            "--features=fake",
            "--message-format=short",
            "--",
            "--test-threads=2",
        ])
        .current_dir(&target)
        .env("CARGO_TARGET_DIR", target.join("target"))
        .env("RUSTFLAGS", "-D warnings")
        // The derived `FromXml` of some large corpus structs needs a stack frame of more than
        // 8 MiB in a debug build (VehicleSelectionService's
        // GetHgvPlatformAggregateModelDataResponseVxs, 51 fields: overflows the 2 MiB test thread
        // and an 8 MiB one, passes with 64 MiB); see docs/testing.md, the corpus section.
        .env("RUST_MIN_STACK", "67108864")
        .output()
        .expect("run cargo test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "generated corpus clients do not compile, or a response type does not round-trip:\n{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        stdout
            .lines()
            .filter(|l| !l.ends_with("... ok") && !l.starts_with('.'))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let tests = round_trips + fake_calls;
    let passed = format!("test result: ok. {tests} passed");
    assert!(
        stdout.contains(&passed),
        "expected {round_trips} round-trip tests and {fake_calls} fake calls to pass:\n{stdout}"
    );
    println!("{round_trips} response types round-trip ({CASES} values each)");
    println!("{fake_calls} clients call their fake ({CALLS} calls each)");

    // The documentation of every generated client renders without a rustdoc warning (broken
    // intra-doc links, unbalanced HTML from a WSDL's xs:documentation, bare URLs).
    let out = Command::new(env!("CARGO"))
        .args([
            "doc",
            "--quiet",
            "--offline",
            "--lib",
            "--no-deps",
            "--message-format=short",
        ])
        .current_dir(&target)
        .env("CARGO_TARGET_DIR", target.join("target"))
        .env("RUSTDOCFLAGS", "-D warnings")
        .output()
        .expect("run cargo doc");
    assert!(
        out.status.success(),
        "the generated clients' documentation has rustdoc warnings:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Values generated per response type.
const CASES: usize = 48;

/// Random content models drawn for the round trips, and the seed they are drawn from.
const MODELS: usize = 40;
const MODELS_SEED: u64 = 0x5EED_C0DE;

/// Calls per client through its fake.
const CALLS: usize = 8;

/// The fake test of entry `i`: per client, a fake implementing its first operation the fake
/// answers (returning an arbitrary value, checking it receives the arguments sent), called
/// [`CALLS`] times with arbitrary arguments through the blocking client on the fake, the result
/// compared with what the fake returned; and how many clients have one.
fn fake_module(i: usize, o: &corpus::Outcome) -> (String, usize) {
    let mut body = String::new();
    for c in &o.calls {
        let method = &c.method;
        let test = format!("{}__{}", c.client, method.trim_start_matches("r#"));
        let params: Vec<String> = (0..c.params.len()).map(|k| format!("p{k}")).collect();
        let decls: Vec<String> = params
            .iter()
            .zip(&c.params)
            .map(|(p, t)| format!("{p}: {t}"))
            .collect();
        let tuple_ty = format!(
            "({})",
            c.params.iter().map(|t| format!("{t},")).collect::<String>()
        );
        let tuple = format!(
            "({})",
            params.iter().map(|p| format!("{p},")).collect::<String>()
        );
        let draws: String = params
            .iter()
            .zip(&c.params)
            .map(|(p, t)| {
                format!("            let {p} = <{t} as ArbitraryXml>::arbitrary_xml(&mut Gen::new(&mut rng));\n")
            })
            .collect();
        // A repeated result of minOccurs above 0 (`result_min`): at least that many items.
        let ret_min = if c.ret_min > 0 {
            format!(
                "            let mut ret = ret;\n            while ret.len() < {} {{\n                \
                 ret.extend(<{} as ArbitraryXml>::arbitrary_nonempty(&mut Gen::new(&mut rng)));\n            }}\n",
                c.ret_min, c.ret
            )
        } else {
            String::new()
        };
        let cloned: String = params.iter().map(|p| format!("{p}.clone(),")).collect();
        let cloned = format!("({cloned})");
        body.push_str(&format!(
            "    #[test]\n    fn {test}() {{\n\
             \x20       use proptest::test_runner::{{RngAlgorithm, TestRng}};\n\
             \x20       use soapgen_runtime::arbitrary::{{ArbitraryXml, Gen}};\n\
             \x20       struct Fake({ret}, {tuple_ty});\n\
             \x20       impl super::m{i:02}::{client} for Fake {{\n\
             \x20           async fn {method}(&self, {decls}) -> ::core::result::Result<{ret}, {err}> {{\n\
             \x20               let got = {tuple};\n\
             \x20               if got != self.1 {{\n\
             \x20                   let why = format!(\"the fake got {{got:?}}, not {{:?}}\", self.1);\n\
             \x20                   return Err(::soapgen_runtime::Error::from(::soapgen_runtime::fault::Fault::receiver(::soapgen_runtime::SoapVersion::Soap11, why)).into());\n\
             \x20               }}\n\
             \x20               Ok(self.0.clone())\n\
             \x20           }}\n\
             \x20       }}\n\
             \x20       let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);\n\
             \x20       for case in 0..crate::CALLS {{\n\
             \x20           let ret = <{ret} as ArbitraryXml>::arbitrary_xml(&mut Gen::new(&mut rng));\n\
             {ret_min}\
             {draws}\
             \x20           let fake = Fake(ret.clone(), {cloned});\n\
             \x20           let transport = super::m{i:02}::{client}Client::fake_transport(fake);\n\
             \x20           let client = super::m{i:02}::{client}BlockingClient::from_client(\n\
             \x20               ::soapgen_runtime::testing::in_process_client(transport),\n\
             \x20           ).unwrap();\n\
             \x20           match client.{method}({args}) {{\n\
             \x20               Ok(got) => assert_eq!(got, ret, \"case {{case}}\"),\n\
             \x20               Err(e) => panic!(\"case {{case}}: {{e:?}}\"),\n\
             \x20           }}\n\
             \x20       }}\n\
             \x20   }}\n",
            ret = c.ret,
            err = c.err,
            client = c.client,
            decls = decls.join(", "),
            args = params.join(", "),
        ));
    }
    if o.calls.is_empty() {
        return (String::new(), 0);
    }
    (
        format!(
            "/// Calls of the clients of `{}` through their in-process fakes.\n#[cfg(test)]\n\
             #[allow(non_snake_case, non_camel_case_types, unused_imports, clippy::all)]\n\
             mod fake_m{i:02} {{\n    use super::m{i:02}::types;\n{body}}}\n",
            o.entry.path
        ),
        o.calls.len(),
    )
}

/// Response types left out of the round trip, (entry, client, method, why).
const EXCLUDED: &[(&str, &str, &str, &str)] = &[];

/// The round-trip tests of entry `i` (a module `rt_mNN` with one test per response type) and how
/// many there are.
fn round_trip_module(i: usize, o: &corpus::Outcome) -> (String, usize) {
    let mut body = String::new();
    let mut n = 0;
    for (k, r) in o.responses.iter().enumerate() {
        let method = r.method.trim_start_matches("r#");
        if EXCLUDED
            .iter()
            .any(|(e, c, m, _)| *e == o.entry.path && *c == r.client && *m == method)
        {
            continue;
        }
        let test = format!("{}__{method}", r.client);
        let (ens, elocal) = &r.element;
        match &r.result {
            None => body.push_str(&format!(
                "    #[test]\n    fn {test}() {{\n        crate::round_trip::check::<{}>({ens:?}, {elocal:?});\n    }}\n",
                r.ty
            )),
            Some((rns, rlocal)) => {
                let ns_attr = if rns.is_empty() {
                    String::new()
                } else {
                    format!("#[xml(namespace = {rns:?})]\n    ")
                };
                let field_attr = if rns.is_empty() {
                    format!("#[xml(rename = {rlocal:?}, unqualified)]")
                } else {
                    format!("#[xml(rename = {rlocal:?})]")
                };
                body.push_str(&format!(
                    "    /// The response wrapper of `{}::{method}`: its result element.\n    \
                     #[derive(Debug, Clone, PartialEq, ::soapgen_runtime::ToXml, ::soapgen_runtime::FromXml, ::soapgen_runtime::ArbitraryXml)]\n    \
                     {ns_attr}struct R{k} {{\n        {field_attr}\n        result: {},\n    }}\n    \
                     #[test]\n    fn {test}() {{\n        crate::round_trip::check::<R{k}>({ens:?}, {elocal:?});\n    }}\n",
                    r.client, r.ty
                ));
            }
        }
        n += 1;
    }
    if n == 0 {
        return (String::new(), 0);
    }
    (
        format!(
            "/// Round trips of the response types of `{}`.\n#[cfg(test)]\n#[allow(non_snake_case, non_camel_case_types)]\n\
             mod rt_m{i:02} {{\n    #[allow(unused_imports)]\n    use super::m{i:02}::types;\n{body}}}\n",
            o.entry.path
        ),
        n,
    )
}

/// `round_trip::check::<T>(ns, local)`: writes [`CASES`] values of `T` as the element
/// `{ns}local` with the runtime's writer, reads each back with its reader, and fails on the first
/// that does not come back equal, with the XML and where the two values differ.
const ROUND_TRIP_HELPER: &str = r#"
#[cfg(test)]
mod round_trip {
    use proptest::test_runner::{RngAlgorithm, TestRng};
    use soapgen_runtime::arbitrary::{ArbitraryXml, Gen};
    use soapgen_runtime::xml::{Name, XmlReader, XmlWriter};
    use soapgen_runtime::{FromXml, ToXml};
    use std::fmt::Debug;

    pub fn check<T: ArbitraryXml + ToXml + FromXml + PartialEq + Debug>(ns: &str, local: &str) {
        // A fixed seed: the same values on every run.
        let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
        for case in 0..super::CASES {
            let v = T::arbitrary_xml(&mut Gen::new(&mut rng));
            let mut w = XmlWriter::new();
            let written = v.write_xml(&mut w, Name::new(ns, local));
            let w_atts = w.take_attachments();
            let xml = match written.and_then(|()| w.into_string()) {
                Ok(xml) => xml,
                Err(e) => panic!("case {case}: cannot write {v:?}: {e}"),
            };
            // swaRef values travel as attachments (WS-I AP 1.0 §4.4): send them along as a
            // multipart/related message, read by the runtime's MIME reader.
            let atts = w_atts;
            let mut r = XmlReader::new(&xml);
            let related;
            if !atts.is_empty() {
                related = multipart(&xml, atts);
                r.set_attachments(&related.attachments);
            }
            let back = r
                .root()
                .and_then(|root| T::read_xml(&mut r, root))
                .and_then(|b| r.finish().map(|()| b));
            match back {
                Ok(b) if b == v => {}
                // Another value of the same document: where XML does not mark a model group's
                // occurrences (a repeated group's content split otherwise, an emptiable group
                // present or absent), the reader's value writes the same XML back.
                Ok(b) if rewrite(&b, ns, local).as_deref() == Some(xml.as_str()) => {}
                Ok(b) => panic!("case {case}: {}", differ(&format!("{v:?}"), &format!("{b:?}"), &xml)),
                Err(e) => panic!("case {case}: cannot read back what was written: {e}
{xml}"),
            }
        }
    }

    fn rewrite<T: ToXml>(v: &T, ns: &str, local: &str) -> Option<String> {
        let mut w = XmlWriter::new();
        v.write_xml(&mut w, Name::new(ns, local)).ok()?;
        w.into_string().ok()
    }

    fn multipart(xml: &str, atts: Vec<soapgen_runtime::mime::OutgoingAttachment>) -> soapgen_runtime::mime::MultipartRelated {
        let mut body = format!("--b\r\nContent-Type: text/xml\r\n\r\n{xml}\r\n").into_bytes();
        for a in atts {
            body.extend_from_slice(format!(
                "--b\r\nContent-Type: {}\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <{}>\r\n\r\n",
                a.content_type, a.content_id
            ).as_bytes());
            body.extend_from_slice(&a.data);
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(b"--b--\r\n");
        soapgen_runtime::mime::parse_multipart_related("multipart/related; boundary=b", body.into(), 100)
            .expect("a multipart/related message of the written attachments")
    }

    fn differ(a: &str, b: &str, xml: &str) -> String {
        let at = a.char_indices().zip(b.chars()).find(|((_, x), y)| x != y)
            .map_or(a.len().min(b.len()), |((i, _), _)| i);
        let around = |s: &str| -> String {
            let before = s.get(..at).map_or(0, |p| p.chars().count());
            s.chars().skip(before.saturating_sub(300)).take(600).collect()
        };
        format!("the value read back differs
 written: …{}…
 read:    …{}…
 XML: {}", around(a), around(b), xml)
    }
}
"#;
