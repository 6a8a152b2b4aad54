//! `olm-catalog diff`: two catalogs compared, what changed and where OLM takes every version
//! installed from the old one.

use std::path::PathBuf;

use clap::ValueEnum;
use olm_catalog::diff::{diff_with, to_text, DiffOptions};
use olm_catalog::report_formats::render_diff;

use crate::catalog::load_model;
use crate::output::{answer, push_json, report_format, Fail};

pub const EXIT_CODES: &str = "Exit codes:
- 0: no update-safety error
- 1: at least one update-safety error
- 2: usage or I/O error";

#[derive(clap::Args)]
pub struct Args {
    /// The old catalog (directory, file or image).
    old: PathBuf,
    /// The new catalog (directory, file or image).
    new: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    format: DiffFormat,
    /// Only this package.
    #[arg(long)]
    package: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum DiffFormat {
    /// The change summary, findings and update-safety tables.
    Text,
    /// The whole `CatalogDiff`.
    Json,
    /// A pull-request comment: summary, findings, changes and update-safety tables.
    Markdown,
    /// SARIF 2.1.0 of the findings.
    Sarif,
    /// GitHub Actions workflow commands for the findings.
    Github,
    /// JUnit XML of the findings.
    Junit,
}

/// Compare two catalogs; exit 1 when an update-safety error is found.
pub fn run(a: Args, out: &mut String) -> Result<u8, Fail> {
    let result = diff_with(&load_model(&a.old)?, &load_model(&a.new)?, &DiffOptions { package: a.package });
    match a.format {
        DiffFormat::Json => push_json(out, &result)?,
        DiffFormat::Text => out.push_str(&crate::colour::findings(&to_text(&result), crate::colour::stdout())),
        format => out.push_str(&report_format(format).map(|f| render_diff(f, &result)).unwrap_or_default()),
    }
    Ok(answer(result.has_errors()))
}
