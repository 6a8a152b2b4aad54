//! `olm-catalog convert-template`: a File-Based Catalog turned into a basic template.

use std::path::PathBuf;

use clap::ValueEnum;
use olm_catalog::declcfg::load_files;
use olm_catalog::render::convert::{to_basic_template, write_basic_template};
use olm_catalog::Diagnostic;

use crate::args::FbcFormat;
use crate::catalog::read_input;
use crate::output::{report, Fail, NEGATIVE, SUCCESS};

pub const EXIT_CODES: &str = "Exit codes:
- 0: converted
- 1: the catalog has errors (on stderr; nothing is printed)
- 2: usage or I/O error";

#[derive(clap::Args)]
pub struct Args {
    /// The template kind to make (only `basic`).
    kind: ConvertKind,
    /// An FBC directory or file, or a catalog image.
    path: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FbcFormat::Json)]
    format: FbcFormat,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ConvertKind {
    /// `olm.template.basic`: the catalog's blobs, each bundle as `{schema: olm.bundle, image}`;
    /// expanding it against the same catalog gives the catalog back.
    Basic,
}

pub fn run(a: &Args, out: &mut String) -> Result<u8, Fail> {
    let ConvertKind::Basic = a.kind;
    let input = read_input(&a.path)?;
    let loaded = load_files(&input.files);
    let errors: Vec<Diagnostic> = loaded.diagnostics.into_iter().filter(Diagnostic::is_error).collect();
    if !errors.is_empty() {
        report(&input.origin.name_diagnostics(errors));
        return Ok(NEGATIVE);
    }
    out.push_str(&write_basic_template(&to_basic_template(&loaded.config), a.format.into()));
    Ok(SUCCESS)
}
