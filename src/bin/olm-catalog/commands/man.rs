//! `olm-catalog man --out DIR`: the man pages, generated from the clap definition (clap_mangen):
//! `olm-catalog.1` and one `olm-catalog-COMMAND.1` per command, as `make install` installs them.

use std::path::{Path, PathBuf};

use clap::CommandFactory as _;

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

/// The page of `cmd` (a built command: subcommands are named `olm-catalog-COMMAND`), written
/// into `dir` under its name; the path printed.
fn write(dir: &Path, cmd: clap::Command, out: &mut String) -> Result<(), Fail> {
    let man = clap_mangen::Man::new(cmd);
    let path = dir.join(man.get_filename());
    let mut roff = Vec::new();
    man.render(&mut roff).map_err(|e| Fail(e.to_string()))?;
    std::fs::write(&path, roff).map_err(|e| Fail::at(&path, e))?;
    out.push_str(&format!("{}\n", path.display()));
    Ok(())
}

pub fn run(a: &Args, out: &mut String) -> Result<u8, Fail> {
    std::fs::create_dir_all(&a.out).map_err(|e| Fail::at(&a.out, e))?;
    let mut cli = Cli::command();
    cli.build();
    write(&a.out, cli.clone(), out)?;
    for sub in cli.get_subcommands().filter(|s| !s.is_hide_set() && s.get_name() != "help") {
        write(&a.out, sub.clone(), out)?;
    }
    Ok(SUCCESS)
}
