//! The `soapgen` command; see `soapgen --help`.

fn main() {
    std::process::exit(soapgen_cli::main_with_args(std::env::args_os()));
}
