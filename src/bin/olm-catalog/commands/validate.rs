//! `olm-catalog validate`: each catalog checked as `opm validate` does, plus the lints, with the
//! lint configuration found or given, and the findings in one of the report formats.

use std::path::{Path, PathBuf};

use clap::ValueEnum;
use olm_catalog::crd_safety::add_to_report;
use olm_catalog::report_formats::render_diagnostics;
use olm_catalog::validate::{only_new, validate_loaded_with, LintConfig, Options, Validated};
use olm_catalog::{Diagnostic, Severity};

use crate::catalog::load_loaded;
use crate::output::{answer, push_json, report_format, Fail};

pub const EXIT_CODES: &str = "Exit codes:
- 0: valid (with --deny-warnings: and no warnings)
- 1: invalid, or warnings with --deny-warnings
- 2: usage or I/O error, a bad lint configuration included";

#[derive(clap::Args)]
pub struct Args {
    /// Catalog directories, files or images; each is validated as its own catalog.
    ///
    /// A directory is read as `opm validate` reads it: every file whatever its extension, except
    /// what `.indexignore` ignores. An image (`oci:DIR[:TAG]`, `oci-archive:FILE[:TAG]`,
    /// `docker-archive:FILE[:REFERENCE]`, `docker-archive:-` for stdin, a registry reference) is read as `opm render` reads a catalog image: the
    /// directory its `operators.operatorframework.io.index.configs.v1` label names.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ValidateFormat::Text)]
    format: ValidateFormat,
    /// Report only what `opm validate` checks (no lint warnings).
    #[arg(long)]
    no_lints: bool,
    /// Lint configuration file (default: the first `.olm-catalog.yaml` or
    /// `.olm-catalog.yml` found from each catalog's directory upwards).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Set a lint's level: `code=off|note|warning|error` (repeatable; over the file).
    #[arg(long = "lint", value_name = "CODE=LEVEL")]
    lint: Vec<String>,
    /// Warnings fail the run (exit 1).
    #[arg(long)]
    deny_warnings: bool,
    /// Run the OLM v1 readiness lints (`olmv1-*`).
    #[arg(long = "olm-v1")]
    olm_v1: bool,
    /// Report only the findings this catalog (directory, file or image) did not have.
    ///
    /// Findings are matched by code, package and message (never by line), so a pull request is
    /// judged on its own change; a catalog against itself reports nothing.
    #[arg(long)]
    baseline: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ValidateFormat {
    /// `file:line:col: error[code]: message`, one per finding, then a summary.
    Text,
    /// `{"valid": bool, "diagnostics": [...]}`.
    Json,
    /// The single message `opm validate` would print (empty when valid).
    Opm,
    /// SARIF 2.1.0 (GitHub code scanning).
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=code::message`).
    Github,
    /// A pull-request comment: summary and a table of the findings.
    Markdown,
    /// JUnit XML: a testcase per finding, a failure per error.
    Junit,
}

/// What the catalogs of one run gave: their findings (files named from the working directory),
/// whether all are valid, whether the run passes, and opm's messages.
#[derive(Default)]
struct Findings {
    diagnostics: Vec<Diagnostic>,
    valid: bool,
    passes: bool,
    opm_messages: Vec<String>,
}

pub fn run(a: &Args, out: &mut String) -> Result<u8, Fail> {
    let found = validate_all(a)?;
    print(a.format, &found, out)?;
    Ok(answer(!found.passes))
}

/// Validate each catalog of `a` with its configuration (and against the baseline, if any).
fn validate_all(a: &Args) -> Result<Findings, Fail> {
    let mut found = Findings { valid: true, passes: true, ..Findings::default() };
    for (i, path) in a.paths.iter().enumerate() {
        let config = lint_config(path, a)?;
        let deny_warnings = config.deny_warnings;
        let options = Options { lints: !a.no_lints, config };
        let (loaded, origin) = load_loaded(path)?;
        let mut result = validate_with_crds(loaded, &options);
        if let Some(old) = &a.baseline {
            result.report = only_new(&result, &validate_with_crds(load_loaded(old)?.0, &options));
        }
        let Validated { loaded, model, report } = result;
        if i + 1 == a.paths.len() {
            crate::output::leave_to_exit((loaded, model));
        }
        found.valid &= report.valid;
        found.passes &= report.passes(deny_warnings);
        if let Some(m) = report.opm_message {
            found.opm_messages.push(m);
        }
        for mut d in report.diagnostics {
            let prefix = |f: &mut String| *f = origin.file(f);
            prefix(&mut d.location.file);
            for r in &mut d.related {
                prefix(&mut r.location.file);
            }
            found.diagnostics.push(d);
        }
    }
    Ok(found)
}

/// opm's checks and the lints, with the CRD upgrade-safety lints when the catalog carries CRDs.
fn validate_with_crds(loaded: olm_catalog::declcfg::Loaded, options: &Options) -> Validated {
    let mut result = validate_loaded_with(loaded, options.clone());
    add_to_report(&mut result, options);
    result
}

/// The findings in `format`.
fn print(format: ValidateFormat, found: &Findings, out: &mut String) -> Result<(), Fail> {
    match format {
        ValidateFormat::Text => print_text(found, out),
        ValidateFormat::Json => {
            // A struct, not `json!`: the findings keep their field order, as in the Node CLI.
            #[derive(serde::Serialize)]
            struct Output<'a> {
                diagnostics: &'a [Diagnostic],
                valid: bool,
            }
            push_json(out, &Output { diagnostics: &found.diagnostics, valid: found.valid })?;
        }
        ValidateFormat::Opm => {
            for m in &found.opm_messages {
                out.push_str(m);
                out.push('\n');
            }
        }
        _ => {
            if let Some(f) = report_format(format) {
                out.push_str(&render_diagnostics(f, &found.diagnostics, found.valid));
            }
        }
    }
    Ok(())
}

/// One line per finding, then `valid: 0 errors, 1 warning` (and the notes when there are some).
fn print_text(found: &Findings, out: &mut String) {
    let count = |s: Severity| found.diagnostics.iter().filter(|d| d.severity == s).count();
    let (errors, warnings, notes) = (count(Severity::Error), count(Severity::Warning), count(Severity::Note));
    let on = crate::colour::stdout();
    for d in &found.diagnostics {
        out.push_str(&crate::colour::findings(&d.to_string(), on));
        out.push('\n');
    }
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let mut summary = format!(
        "{}: {}, {}",
        crate::colour::verdict(if found.valid { "valid" } else { "invalid" }, found.valid, on),
        plural(errors, "error"),
        plural(warnings, "warning")
    );
    if notes > 0 {
        summary.push_str(&format!(", {}", plural(notes, "note")));
    }
    out.push_str(&summary);
    out.push('\n');
}

/// The first `.olm-catalog.yaml` (or `.yml`) from the catalog's directory upwards.
fn find_config(catalog: &Path) -> Option<PathBuf> {
    let abs = std::path::absolute(catalog).ok()?;
    let start = if abs.is_dir() { abs.as_path() } else { abs.parent()? };
    start
        .ancestors()
        .find_map(|dir| [".olm-catalog.yaml", ".olm-catalog.yml"].iter().map(|n| dir.join(n)).find(|f| f.is_file()))
}

/// The configuration for `catalog`: its file (given or found), then the command line.
fn lint_config(catalog: &Path, a: &Args) -> Result<LintConfig, Fail> {
    let mut config = LintConfig::default();
    if let Some(file) = a.config.clone().or_else(|| find_config(catalog)) {
        let bytes = std::fs::read(&file).map_err(|e| Fail::at(&file, e))?;
        let found = LintConfig::from_file(&file.display().to_string(), &bytes)
            .map_err(|ds| Fail(ds.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")))?;
        config.merge(found);
    }
    let mut cli = LintConfig { deny_warnings: a.deny_warnings, olm_v1: a.olm_v1, ..LintConfig::default() };
    for s in &a.lint {
        cli.set(s).map_err(|e| Fail(format!("--lint {s}: {e}")))?;
    }
    config.merge(cli);
    Ok(config)
}
