//! The crates' sources stay readable (`soapgen_structure`): no import cycle of more than three
//! files, no function over 150 lines without a `// Long:` comment saying why, no file over 800
//! lines before its tests.

use std::path::{Path, PathBuf};

use soapgen_structure::{cycles, long_files, long_functions, Crate};

/// The crates' `src` folders.
fn crates() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    [
        "soapgen-runtime",
        "soapgen-build",
        "soapgen-cli",
        "soapgen-macros",
        "soapgen-contract",
    ]
    .iter()
    .map(|c| root.join(c).join("src"))
    .collect()
}

#[test]
fn no_import_cycle_is_longer_than_three_files() {
    let mut found = Vec::new();
    for src in crates() {
        let c = Crate::read(&src).unwrap_or_else(|e| panic!("{e}"));
        for cycle in cycles(&c.graph()) {
            if cycle.len() > 3 {
                found.push(format!("{}: {cycle:?}", src.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "import cycles of more than three files:\n{}",
        found.join("\n")
    );
}

#[test]
fn no_function_is_longer_than_150_lines_unless_it_says_why() {
    let mut found = Vec::new();
    for src in crates() {
        for f in long_functions(&src, 150).unwrap_or_else(|e| panic!("{e}")) {
            found.push(format!(
                "{}/{}:{} {} ({} lines)",
                src.display(),
                f.file.display(),
                f.line,
                f.name,
                f.lines
            ));
        }
    }
    assert!(
        found.is_empty(),
        "functions over 150 lines:\n{}",
        found.join("\n")
    );
}

#[test]
fn no_file_is_longer_than_800_lines() {
    let mut found = Vec::new();
    for src in crates() {
        for (file, n) in long_files(&src, 800).unwrap_or_else(|e| panic!("{e}")) {
            found.push(format!("{}/{} ({n} lines)", src.display(), file.display()));
        }
    }
    assert!(
        found.is_empty(),
        "files over 800 lines:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_graph_follows_re_exports_to_the_defining_file() {
    // A small crate written for the test: `lib.rs` re-exports `b::B`, `a.rs` names it through
    // the facade; the arrow goes to `b.rs`, and the facade itself imports nothing.
    let dir = std::env::temp_dir().join(format!("soapgen-structure-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod a;\nmod b;\npub use b::B;\n").unwrap();
    std::fs::write(dir.join("a.rs"), "pub fn f() -> crate::B { crate::B }\n").unwrap();
    std::fs::write(dir.join("b.rs"), "pub struct B;\nuse super::a::f;\n").unwrap();
    let g = Crate::read(&dir).unwrap().graph();
    let _ = std::fs::remove_dir_all(&dir);
    let to = |f: &str| {
        g[&PathBuf::from(f)]
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(to("a.rs"), ["b.rs"]);
    assert_eq!(to("b.rs"), ["a.rs"]);
    assert!(to("lib.rs").is_empty());
    assert_eq!(
        cycles(&g),
        vec![vec![PathBuf::from("a.rs"), PathBuf::from("b.rs")]]
    );
}
