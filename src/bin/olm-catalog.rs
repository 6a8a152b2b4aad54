//! The `olm-catalog` command line: a thin surface over the library (no logic of its own).
//!
//! Exit codes: 0 valid, 1 invalid, 2 usage or I/O error.

use std::path::PathBuf;
use std::process::ExitCode;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand, ValueEnum};

use olm_catalog::declcfg::walk::read_catalog;
use olm_catalog::validate::validate_files;
use olm_catalog::{Diagnostic, Severity};

#[derive(Parser)]
#[command(name = "olm-catalog", version, about = "Validate and explore Operator Lifecycle Manager catalogs")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check File-Based Catalogs the way `opm validate` does, and report every problem.
    Validate {
        /// Catalog directories or files; each is validated as its own catalog.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// `file:line:col: error[code]: message`, one per finding, then a summary.
    Text,
    /// `{"valid": bool, "diagnostics": [...]}`.
    Json,
    /// The single message `opm validate` would print (empty when valid).
    Opm,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    match cli.command {
        Command::Validate { paths, format } => validate(&paths, format),
    }
}

fn validate(paths: &[PathBuf], format: Format) -> ExitCode {
    let mut valid = true;
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    let mut opm_messages = Vec::new();
    for path in paths {
        let files = match read_catalog(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("olm-catalog: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        };
        let result = validate_files(&files);
        valid &= result.report.valid;
        if let Some(m) = result.report.opm_message {
            opm_messages.push(m);
        }
        let is_dir = path.is_dir();
        for mut d in result.report.diagnostics {
            let prefix = |f: &mut String| {
                *f = if is_dir { path.join(&*f).display().to_string() } else { path.display().to_string() };
            };
            prefix(&mut d.location.file);
            for r in &mut d.related {
                prefix(&mut r.location.file);
            }
            diagnostics.push(d);
        }
    }
    match format {
        Format::Text => {
            for d in &diagnostics {
                println!("{d}");
            }
            let errors = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
            let warnings = diagnostics.len() - errors;
            println!(
                "{}: {errors} error{}, {warnings} warning{}",
                if valid { "valid" } else { "invalid" },
                if errors == 1 { "" } else { "s" },
                if warnings == 1 { "" } else { "s" }
            );
        }
        Format::Json => {
            let out = serde_json::json!({ "valid": valid, "diagnostics": diagnostics });
            println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        }
        Format::Opm => {
            for m in &opm_messages {
                println!("{m}");
            }
        }
    }
    if valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
