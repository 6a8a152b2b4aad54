//! `olm-catalog __cli-reference` (hidden): this command line's reference, docs/cli.md, as
//! Markdown generated from the clap definition, so that the document cannot drift from the CLI
//! (tests/cli_reference.rs compares them; `make cli-reference` rewrites the file).

use clap_markdown::{help_markdown_custom, MarkdownOptions};

use crate::cli::Cli;
use crate::output::{Fail, SUCCESS};

/// The lines above the generated reference.
const PREAMBLE: &str = "<!-- Generated from the CLI's definition (src/bin/olm-catalog/) by `make cli-reference`; \
do not edit: tests/cli_reference.rs fails when this file differs from what the CLI prints. -->\n\n";

pub fn run(out: &mut String) -> Result<u8, Fail> {
    let options = MarkdownOptions::new().title("Command-line reference".to_string()).show_footer(false);
    out.push_str(PREAMBLE);
    out.push_str(help_markdown_custom::<Cli>(&options).trim_end());
    out.push('\n');
    Ok(SUCCESS)
}
