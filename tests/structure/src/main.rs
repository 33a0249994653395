//! Prints the import graph of a crate's sources and its cycles (see the `soapgen-structure`
//! library).
//!
//! ```text
//! cargo run -p soapgen-structure --bin import-graph -- soapgen-runtime/src        # cycles, then each file's imports
//! cargo run -p soapgen-structure --bin import-graph -- soapgen-runtime/src --dot  # Graphviz
//! cargo run -p soapgen-structure --bin import-graph -- soapgen-runtime/src --why client.rs  # the paths behind one file's arrows
//! ```

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use soapgen_structure::{cycles, Crate, Graph};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(src) = args.first().filter(|a| !a.starts_with("--")) else {
        eprintln!("usage: import-graph <crate>/src [--dot | --why <file>]");
        return ExitCode::from(2);
    };
    let c = match Crate::read(&PathBuf::from(src)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("import-graph: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(file) = args
        .iter()
        .position(|a| a == "--why")
        .and_then(|i| args.get(i + 1))
    {
        for (path, to) in c.why(&PathBuf::from(file)) {
            println!("{path} -> {}", to.display());
        }
        return ExitCode::SUCCESS;
    }
    // A closed pipe (`| head`) ends the output quietly.
    let _ = print(&c.graph(), args.iter().any(|a| a == "--dot"));
    ExitCode::SUCCESS
}

fn print(g: &Graph, dot: bool) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    if dot {
        writeln!(
            out,
            "digraph imports {{\n  rankdir=LR; node [shape=box, fontsize=10];"
        )?;
        for (from, tos) in g {
            for to in tos {
                writeln!(out, "  \"{}\" -> \"{}\";", from.display(), to.display())?;
            }
        }
        return writeln!(out, "}}");
    }
    let cs = cycles(g);
    writeln!(out, "{} files, {} import cycles", g.len(), cs.len())?;
    for c in &cs {
        let names: Vec<String> = c.iter().map(|p| p.display().to_string()).collect();
        writeln!(out, "  cycle of {}: {}", c.len(), names.join(", "))?;
    }
    writeln!(out)?;
    for (from, tos) in g {
        let names: Vec<String> = tos.iter().map(|p| p.display().to_string()).collect();
        writeln!(out, "{} -> {}", from.display(), names.join(", "))?;
    }
    Ok(())
}
