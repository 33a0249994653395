//! Every entry document of the real-world corpus (`tests/corpus`): generation gives the outcome
//! recorded in `tests/corpus/EXPECTED.tsv` (a client, or an error naming the unsupported construct or
//! the broken input), and every generated client compiles (`cargo check` of one crate holding them
//! all, against the workspace's runtime).
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

    // Every generated client compiles: one crate, one module per entry.
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/corpus-check");
    let src = target.join("src");
    std::fs::create_dir_all(&src).unwrap();
    let mut lib = String::from(
        "//! Generated clients of the corpus, checked to compile.\n#![allow(async_fn_in_trait)]\n",
    );
    for (i, o) in outcomes.iter().enumerate() {
        if let Ok(code) = &o.result {
            let file = format!("m{i:02}.rs");
            soapgen_build::write_if_changed(&src.join(&file), code).unwrap();
            lib.push_str(&format!(
                "/// `{}`\npub mod m{i:02} {{ include!(\"{file}\"); }}\n",
                o.entry.path
            ));
        }
    }
    soapgen_build::write_if_changed(&src.join("lib.rs"), &lib).unwrap();
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../soapgen-runtime")
        .canonicalize()
        .unwrap();
    let manifest = format!(
        "[package]\nname = \"corpus-check\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\nsoapgen-runtime = {{ path = {:?}, features = [\"blocking\"] }}\n\n[workspace]\n",
        runtime.display().to_string()
    );
    soapgen_build::write_if_changed(&target.join("Cargo.toml"), &manifest).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.lock"),
        target.join("Cargo.lock"),
    )
    .unwrap();
    let out = Command::new(env!("CARGO"))
        .args(["check", "--quiet", "--offline", "--message-format=short"])
        .current_dir(&target)
        .env("CARGO_TARGET_DIR", target.join("target"))
        .env("RUSTFLAGS", "-D warnings")
        .output()
        .expect("run cargo check");
    assert!(
        out.status.success(),
        "generated corpus clients do not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
