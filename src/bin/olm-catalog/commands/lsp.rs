//! `olm-catalog lsp`: the language server (`crates/lsp`, LSP 3.17) on standard input and output,
//! the workspace folder being the catalog.

use crate::output::Fail;

pub const EXIT_CODES: &str = "Exit codes:
- 0: the client sent `shutdown`, then `exit`
- 1: `exit` without `shutdown`, or the input ended (LSP's rule)
- 2: standard input or output failed";

#[derive(clap::Args)]
pub struct Args {
    /// Speak over standard input and output (the only transport; accepted because clients such
    /// as vscode-languageclient pass it).
    #[arg(long)]
    stdio: bool,
}

pub fn run(_a: &Args, _out: &mut String) -> Result<u8, Fail> {
    match olm_catalog_lsp::run_stdio() {
        Ok(true) => Ok(0),
        Ok(false) => Ok(1),
        Err(e) => Err(Fail(format!("lsp: {e}"))),
    }
}
