//! The `soapgen` command-line tool; see `soapgen --help`.

fn main() {
    std::process::exit(soapgen_build::cli::main_with_args(std::env::args_os()));
}
