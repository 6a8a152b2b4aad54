//! `olm-catalog man --out DIR`: the man pages, generated from the clap definition (clap_mangen):
//! `olm-catalog.1` and one `olm-catalog-COMMAND.1` per command, as `make install` installs them.

use std::path::{Path, PathBuf};

use clap::CommandFactory as _;
use olm_catalog_save::{Expect, FileWrite};

use crate::cli::Cli;
use crate::output::{Fail, SUCCESS};

pub const EXIT_CODES: &str = "Exit codes:
- 0: the pages were written
- 2: usage or I/O error";

#[derive(clap::Args)]
pub struct Args {
    /// The directory the pages are written to (created if missing); their names are printed.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

/// `text` as roff body text: backslashes and hyphens escaped, a line never read as a request.
fn roff_text(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with('.') || escaped.starts_with('\'') {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

/// The help's last lines (`after_help`) as man sections: the exit codes under EXIT STATUS, the
/// rest under NOTES; each `- item` line a bullet (clap_mangen would fill them into one line).
fn after_help_sections(after_help: &str) -> String {
    let (mut notes, mut status) = (String::new(), String::new());
    for paragraph in after_help.split("\n\n") {
        let section = if paragraph.starts_with("Exit codes") { &mut status } else { &mut notes };
        for line in paragraph.lines() {
            match line.strip_prefix("- ") {
                Some(item) => section.push_str(&format!(".IP \\(bu 2\n{}\n", roff_text(item))),
                None => section.push_str(&format!(".PP\n{}\n", roff_text(line))),
            }
        }
    }
    let mut roff = String::new();
    for (title, body) in [("NOTES", notes), ("\"EXIT STATUS\"", status)] {
        if !body.is_empty() {
            roff.push_str(&format!(".SH {title}\n{body}"));
        }
    }
    roff
}

/// The page of `cmd` (a built command: subcommands are named `olm-catalog-COMMAND`), to be
/// written into `dir` under its name.
fn page(dir: &Path, cmd: clap::Command) -> Result<FileWrite, Fail> {
    let after_help = cmd.get_after_help().map(|h| h.to_string()).unwrap_or_default();
    let has_version = cmd.get_version().is_some();
    let man = clap_mangen::Man::new(cmd);
    let path = dir.join(man.get_filename());
    let mut roff = Vec::new();
    let io = |e: std::io::Error| Fail::at(&path, e);
    man.render_title(&mut roff).map_err(io)?;
    man.render_name_section(&mut roff).map_err(io)?;
    man.render_synopsis_section(&mut roff).map_err(io)?;
    man.render_description_section(&mut roff).map_err(io)?;
    man.render_options_section(&mut roff).map_err(io)?;
    man.render_subcommands_section(&mut roff).map_err(io)?;
    roff.extend_from_slice(after_help_sections(&after_help).as_bytes());
    if has_version {
        man.render_version_section(&mut roff).map_err(io)?;
    }
    // Generated pages: a new install replaces the last one's.
    Ok(FileWrite { path, content: roff, expect: Expect::Anything })
}

/// Every page written at once, all or nothing (the CLI's safe writer); their paths printed.
pub fn run(a: &Args, out: &mut String) -> Result<u8, Fail> {
    std::fs::create_dir_all(&a.out).map_err(|e| Fail::at(&a.out, e))?;
    let mut cli = Cli::command();
    cli.build();
    let mut pages = vec![page(&a.out, cli.clone())?];
    for sub in cli.get_subcommands().filter(|s| !s.is_hide_set()) {
        pages.push(page(&a.out, sub.clone())?);
    }
    crate::save::write(&a.out, &pages)?;
    for p in &pages {
        out.push_str(&format!("{}\n", p.path.display()));
    }
    Ok(SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_go_under_exit_status_as_bullets_and_other_paragraphs_under_notes() {
        let roff = after_help_sections("Load it:\n- bash: `source <(x)`\n\nExit codes:\n- 0: ok\n- 2: usage error");
        assert_eq!(
            roff,
            ".SH NOTES\n.PP\nLoad it:\n.IP \\(bu 2\nbash: `source <(x)`\n\
             .SH \"EXIT STATUS\"\n.PP\nExit codes:\n.IP \\(bu 2\n0: ok\n.IP \\(bu 2\n2: usage error\n"
        );
        assert_eq!(after_help_sections(""), "");
    }

    #[test]
    fn text_is_escaped_for_roff() {
        assert_eq!(roff_text("--deny-warnings"), "\\-\\-deny\\-warnings");
        assert_eq!(roff_text("a\\b"), "a\\eb");
        assert_eq!(roff_text(".olm-catalog.yaml"), "\\&.olm\\-catalog.yaml");
        assert_eq!(roff_text("'quoted'"), "\\&'quoted'");
    }
}
