//! Prints the corpus table of docs/testing.md: every entry document of `tests/corpus`, its style, operations,
//! types, generation time and result. Run it in release for representative times:
//!
//! ```text
//! cargo run --release -p soapgen-tests --bin corpus_report
//! ```

fn main() {
    let outcomes: Vec<_> = soapgen_tests::corpus::entries()
        .iter()
        .map(soapgen_tests::corpus::generate)
        .collect();
    let ok = outcomes.iter().filter(|o| o.result.is_ok()).count();
    println!(
        "{ok} of {} entry documents generate a client that compiles.\n",
        outcomes.len()
    );
    print!("{}", soapgen_tests::corpus::table(&outcomes));
}
