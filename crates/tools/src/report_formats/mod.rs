//! Output formats CI pipelines read, over the findings of `validate` (a list of [`Diagnostic`]s)
//! and over a [`CatalogDiff`]: SARIF 2.1.0 (code scanning), GitHub workflow commands (annotations
//! on a pull request), Markdown (a pull-request comment) and JUnit XML (test reports). One copy of
//! each renderer: the native CLI prints them and the JS bindings return them, so both CLIs print
//! the same bytes. Plain text and JSON stay with their owners (`Diagnostic`'s `Display`,
//! `diff::to_text`, serde).

mod github;
mod junit;
mod markdown;
mod sarif;

use crate::diagnostic::{Diagnostic, Severity};
use crate::diff::CatalogDiff;

/// A format of this module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportFormat {
    /// SARIF 2.1.0 JSON, one run.
    Sarif,
    /// GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=<code>::message`.
    Github,
    /// A pull-request comment: a summary line and a table, one row per finding.
    Markdown,
    /// JUnit XML: one testsuite, one testcase per finding, a failure per error.
    Junit,
}

impl ReportFormat {
    /// Every format, in documentation order.
    pub const ALL: &'static [ReportFormat] =
        &[ReportFormat::Sarif, ReportFormat::Github, ReportFormat::Markdown, ReportFormat::Junit];

    /// The format's name on the command line (`sarif`, `github`, `markdown`, `junit`).
    pub fn name(self) -> &'static str {
        match self {
            ReportFormat::Sarif => "sarif",
            ReportFormat::Github => "github",
            ReportFormat::Markdown => "markdown",
            ReportFormat::Junit => "junit",
        }
    }

    /// The format called `name`, if any.
    pub fn from_name(name: &str) -> Option<ReportFormat> {
        ReportFormat::ALL.iter().copied().find(|f| f.name() == name)
    }
}

/// The findings of `validate` in `format`; `valid` is the catalog's verdict (no errors), shown
/// in the Markdown summary. Ends with a newline.
pub fn render_diagnostics(format: ReportFormat, diagnostics: &[Diagnostic], valid: bool) -> String {
    let summary = format!("{}: {}", if valid { "valid" } else { "invalid" }, counts(diagnostics));
    render(format, "olm-catalog validate", diagnostics, &summary)
}

/// The findings of another command (`tool`, as the Markdown title and JUnit suite name it) in
/// `format`, `verdict` first in the Markdown summary (`unsafe`). Ends with a newline.
pub fn render_findings(format: ReportFormat, tool: &str, diagnostics: &[Diagnostic], verdict: &str) -> String {
    render(format, tool, diagnostics, &format!("{verdict}: {}", counts(diagnostics)))
}

/// A catalog diff in `format`: its findings, and for Markdown the change summary and the
/// update-safety table per package. Ends with a newline.
pub fn render_diff(format: ReportFormat, diff: &CatalogDiff) -> String {
    match format {
        ReportFormat::Markdown => markdown::diff(diff, &diff_summary(diff)),
        _ => render(format, "olm-catalog diff", &diff.findings, &diff_summary(diff)),
    }
}

fn render(format: ReportFormat, title: &str, diagnostics: &[Diagnostic], summary: &str) -> String {
    match format {
        ReportFormat::Sarif => sarif::to_sarif(diagnostics),
        ReportFormat::Github => github::to_github(diagnostics),
        ReportFormat::Markdown => markdown::findings(title, diagnostics, summary),
        ReportFormat::Junit => junit::to_junit(title, diagnostics),
    }
}

/// `2 errors, 1 warning` (and `, 3 notes` when there are notes), as the text summary says it.
fn counts(diagnostics: &[Diagnostic]) -> String {
    let count = |s: Severity| diagnostics.iter().filter(|d| d.severity == s).count();
    let mut out =
        format!("{}, {}", plural(count(Severity::Error), "error"), plural(count(Severity::Warning), "warning"));
    let notes = count(Severity::Note);
    if notes > 0 {
        out.push_str(&format!(", {}", plural(notes, "note")));
    }
    out
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn diff_summary(d: &CatalogDiff) -> String {
    let count = |k| d.packages.iter().filter(|p| p.kind == k).count();
    format!(
        "{} changed ({} added, {} removed); {}",
        plural(d.packages.len(), "package"),
        count(crate::diff::ChangeKind::Added),
        count(crate::diff::ChangeKind::Removed),
        counts(&d.findings)
    )
}

#[cfg(test)]
pub(crate) mod testing {
    use crate::diagnostic::{Code, Diagnostic, Location};

    pub fn loc(file: &str, line: u32, column: u32) -> Location {
        Location { file: file.into(), line, column, pointer: "/entries/0".into() }
    }

    /// An error with a related place, a warning, and a note about a whole file.
    pub fn sample() -> Vec<Diagnostic> {
        vec![
            Diagnostic::error(Code::ALL[0], "bad, really: 100%\nsecond <line> & \"quoted\"", loc("a/c.yaml", 3, 5))
                .with_related("first defined here", loc("a/b.yaml", 1, 1)),
            Diagnostic::warning(Code::ALL[1], "a | pipe", loc("a/c.yaml", 9, 2)),
            Diagnostic::note(Code::ALL[2], "whole file", Location { file: "x,y:z.json".into(), ..Location::default() }),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_names_round_trip() {
        for f in ReportFormat::ALL {
            assert_eq!(ReportFormat::from_name(f.name()), Some(*f));
        }
        assert_eq!(ReportFormat::from_name("text"), None);
    }

    #[test]
    fn summaries_count_like_the_text_output() {
        assert_eq!(counts(&testing::sample()), "1 error, 1 warning, 1 note");
        assert_eq!(counts(&[]), "0 errors, 0 warnings");
        assert_eq!(
            diff_summary(&CatalogDiff::default()),
            "0 packages changed (0 added, 0 removed); 0 errors, 0 warnings"
        );
    }
}
