//! Compile-fail tests: every misuse of the macros is an error at the offending span.
//! Regenerate expected output after an intended change with `TRYBUILD=overwrite`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/fail/*.rs");
}
