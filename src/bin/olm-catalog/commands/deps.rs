//! `olm-catalog deps`: a package's cross-package view.

use std::path::PathBuf;

use olm_catalog::deps::{package_deps, DepsOptions};

use crate::args::TextOrJson;
use crate::catalog::load_built;
use crate::output::{answer, push_json, Fail};

pub const EXIT_CODES: &str = "Exit codes:
- 0: every requirement is satisfied, or unknown (it depends on a CEL rule)
- 1: a requirement is unsatisfied or invalid (OLM cannot read it)
- 2: usage or I/O error, an unknown package included";

#[derive(clap::Args)]
pub struct Args {
    /// Catalog directory, file or image.
    path: PathBuf,
    /// The package.
    #[arg(long)]
    package: String,
    /// Output format: the requirements, their providers and who requires the package; or JSON
    /// (`{package, headsOnly, bundles, requirements, provides, requiredBy, summary}`).
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    format: TextOrJson,
    /// Only the package's channel heads (their requirements and provided APIs).
    #[arg(long)]
    heads_only: bool,
}

/// A package's cross-package view; exit 1 when a requirement is unsatisfied or unreadable.
pub fn run(a: &Args, out: &mut String) -> Result<u8, Fail> {
    let m = load_built(&a.path)?;
    let deps =
        package_deps(&m, &a.package, &DepsOptions { heads_only: a.heads_only }).map_err(|e| Fail::at(&a.path, e))?;
    match a.format {
        TextOrJson::Json => push_json(out, &deps)?,
        TextOrJson::Text => out.push_str(&crate::colour::findings(&deps.to_text(), crate::colour::stdout())),
    }
    Ok(answer(deps.has_unmet()))
}
