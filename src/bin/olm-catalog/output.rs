//! What every command shares on the way out: the exit codes, the failure that ends a run with
//! exit code 2, JSON and catalog output on stdout, findings on stderr.
//!
//! A command writes its answer into a `String` and returns its exit code (or a [`Fail`]);
//! [`finish`] prints both, so that a closed pipe never interrupts a command half-way.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use clap::ValueEnum;
use olm_catalog::declcfg::write::{self, Format};
use olm_catalog::declcfg::DeclarativeConfig;
use olm_catalog::report_formats::ReportFormat;
use olm_catalog::Diagnostic;
use olm_catalog_save::{Expect, FileWrite};

/// Exit code 0: the command succeeded and its answer is positive.
pub const SUCCESS: u8 = 0;
/// Exit code 1: the command ran and its answer is negative (invalid catalog, stranded version…).
pub const NEGATIVE: u8 = 1;
/// Exit code 2: usage or I/O error.
pub const FAILURE: u8 = 2;

/// The exit codes, as the top-level help and docs/cli.md state them.
pub const EXIT_CODES: &str = "Exit codes (each command says what its answers are):
- 0: success: a positive answer (a valid catalog, a path that reaches the head, …)
- 1: a negative answer (an invalid catalog, a stranded version, an unmet dependency, …)
- 2: usage or I/O error";

/// The exit code of an answer: [`NEGATIVE`] when `negative`, else [`SUCCESS`].
pub fn answer(negative: bool) -> u8 {
    if negative {
        NEGATIVE
    } else {
        SUCCESS
    }
}

/// A failure that ends the command with exit code 2 (its message on stderr).
pub struct Fail(pub String);

impl Fail {
    /// A failure about `path`: `path: what`.
    pub fn at(path: &Path, what: impl std::fmt::Display) -> Fail {
        Fail(format!("{}: {what}", path.display()))
    }
}

/// Print a command's output and its failure, if any; the process' exit code.
pub fn finish(out: &str, result: Result<u8, Fail>) -> ExitCode {
    // A closed pipe (`| head`) is not an error worth a panic. Styled output goes through anstream
    // (which turns on the Windows console's ANSI mode); plain output is written as it is.
    if crate::colour::stdout() {
        let _ = anstream::AutoStream::always_ansi(std::io::stdout().lock()).write_all(out.as_bytes());
    } else {
        let _ = std::io::stdout().lock().write_all(out.as_bytes());
    }
    match result {
        Ok(code) => ExitCode::from(code),
        Err(Fail(m)) => {
            eprintln!("olm-catalog: {m}");
            ExitCode::from(FAILURE)
        }
    }
}

/// Leave `value` (a run's last catalog: its trees and model) to the process' exit, which hands
/// its memory back at once, instead of freeing it node by node as the command ends.
pub fn leave_to_exit<T>(value: T) {
    std::mem::forget(value);
}

/// Append `value` as pretty-printed JSON and a newline.
pub fn push_json(out: &mut String, value: &impl serde::Serialize) -> Result<(), Fail> {
    out.push_str(&serde_json::to_string_pretty(value).map_err(|e| Fail(e.to_string()))?);
    out.push('\n');
    Ok(())
}

/// The shared renderer behind a CLI format, if the format is one of `report_formats`.
pub fn report_format(format: impl ValueEnum) -> Option<ReportFormat> {
    ReportFormat::from_name(format.to_possible_value()?.get_name())
}

/// Print findings on stderr, compiler style, file names as the user gave them (severities coloured
/// when stderr is).
pub fn report(diagnostics: &[Diagnostic]) {
    let mut err = std::io::stderr().lock();
    for d in diagnostics {
        let _ = writeln!(err, "{}", crate::colour::findings(&d.to_string(), crate::colour::stderr()));
    }
}

/// The output of `render` and `template`: one stream, or one file per package under `dir`,
/// written all or nothing. A file already in `dir` is overwritten only with `force` (one that
/// already holds what this run writes is left as it is).
pub fn emit(
    cfg: &DeclarativeConfig,
    format: Format,
    loaded_only: bool,
    dir: Option<&Path>,
    force: bool,
    out: &mut String,
) -> Result<(), Fail> {
    let Some(dir) = dir else {
        let text = if loaded_only { write::write_loaded(cfg, format) } else { write::write(cfg, format) };
        // Taken, not copied, when nothing precedes it: a render's output can be tens of MB.
        if out.is_empty() {
            *out = text;
        } else {
            out.push_str(&text);
        }
        return Ok(());
    };
    let expect = if force { Expect::Anything } else { Expect::Absent };
    let writes: Vec<FileWrite> = write::write_by_package(cfg, format)
        .into_iter()
        .map(|(package, text)| FileWrite {
            path: dir.join(&package).join(format!("catalog{}", format.extension())),
            content: text.into_bytes(),
            expect: expect.clone(),
        })
        .collect();
    // The save's journal lives in `dir`; a folder made here goes again if nothing is written.
    let made = !dir.exists();
    std::fs::create_dir_all(dir).map_err(|e| Fail::at(dir, e))?;
    let saved = crate::save::write(dir, &writes);
    if saved.is_err() && made {
        let _ = std::fs::remove_dir(dir);
    }
    saved.map(|_| ())
}
