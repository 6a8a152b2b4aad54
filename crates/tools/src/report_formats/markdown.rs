//! Markdown for a pull-request comment: a heading, the summary line in bold, a table of the
//! findings (status, code, location, message), one row per finding; for a diff also the changed
//! packages and, per package, the update-safety rows that changed or have findings (or a line
//! saying no installed version's path changes), each finding with its fix when it has one. Cells are
//! escaped so that no message breaks the table or turns into HTML.

use std::fmt::Write as _;

use crate::diagnostic::{Diagnostic, Severity};
use crate::diff::{CatalogDiff, ChangeKind, PackageChange, Routes, SafetyRow};

/// Text in a table cell: `|` escaped, HTML characters as entities, line breaks as `<br>`.
fn cell(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('|', "\\|")
        .replace("\r\n", "<br>")
        .replace(['\n', '\r'], "<br>")
}

/// Text in a code span inside a cell.
fn code(s: &str) -> String {
    format!("`{}`", s.replace('`', "'").replace('|', "\\|").replace(['\n', '\r'], " "))
}

fn status(s: Severity) -> &'static str {
    match s {
        Severity::Error => "❌ error",
        Severity::Warning => "⚠️ warning",
        Severity::Note => "ℹ️ note",
    }
}

fn header(title: &str, summary: &str, out: &mut String) {
    let _ = write!(out, "### {title}\n\n**{}**\n\n", cell(summary));
}

/// The findings' table; `fixes` holds each finding's fix (same index), if any.
fn table(diagnostics: &[Diagnostic], fixes: &[Option<String>], out: &mut String) {
    if diagnostics.is_empty() {
        out.push_str("No findings.\n");
        return;
    }
    out.push_str("| Status | Code | Location | Message |\n| --- | --- | --- | --- |\n");
    for (i, d) in diagnostics.iter().enumerate() {
        let mut message = cell(&d.message);
        for r in &d.related {
            let _ = write!(message, "<br>note: {} {}", code(&r.location.to_string()), cell(&r.message));
        }
        if let Some(fix) = fixes.get(i).and_then(|f| f.as_deref()) {
            let _ = write!(message, "<br>fix: {}", code(&format!("olm-catalog edit CATALOG json --op '{fix}'")));
        }
        let _ = writeln!(
            out,
            "| {} | {} | {} | {message} |",
            status(d.severity),
            code(d.code.as_str()),
            code(&d.location.to_string())
        );
    }
}

/// The findings of `validate` as a comment.
pub fn findings(title: &str, diagnostics: &[Diagnostic], summary: &str) -> String {
    let mut out = String::new();
    header(title, summary, &mut out);
    table(diagnostics, &[], &mut out);
    out
}

fn kind(k: ChangeKind) -> &'static str {
    match k {
        ChangeKind::Added => "added",
        ChangeKind::Removed => "removed",
        ChangeKind::Changed => "changed",
    }
}

/// What changed in a package, in one cell.
fn details(p: &PackageChange) -> String {
    let mut parts = Vec::new();
    if let Some(c) = &p.default_channel {
        parts.push(format!(
            "default channel {} → {}",
            code(c.old.as_deref().unwrap_or("(none)")),
            code(c.new.as_deref().unwrap_or("(none)"))
        ));
    }
    if p.deprecation.is_some() {
        parts.push("deprecation changed".into());
    }
    if p.metadata_changed {
        parts.push("description or icon changed".into());
    }
    if !p.channels.is_empty() {
        let channels: Vec<String> =
            p.channels.iter().map(|c| format!("{} ({})", code(&c.name), kind(c.kind))).collect();
        parts.push(format!("channels: {}", channels.join(", ")));
    }
    if !p.bundles.is_empty() {
        let count = |k| p.bundles.iter().filter(|b| b.kind == k).count();
        parts.push(format!(
            "bundles: {} added, {} removed, {} changed",
            count(ChangeKind::Added),
            count(ChangeKind::Removed),
            count(ChangeKind::Changed)
        ));
    }
    parts.join("; ")
}

fn changes(d: &CatalogDiff, out: &mut String) {
    if d.packages.is_empty() {
        return;
    }
    out.push_str("\n#### Changes\n\n| Package | Change | Details |\n| --- | --- | --- |\n");
    for p in &d.packages {
        let _ = writeln!(out, "| {} | {} | {} |", code(&p.name), kind(p.kind), details(p));
    }
}

fn routes(r: &SafetyRow, pick: fn(&Routes) -> &crate::diff::Route) -> String {
    let new = r.new.as_ref().map_or_else(|| "gone".to_string(), |n| pick(n).summary());
    cell(&format!("{} → {new}", pick(&r.old).summary()))
}

fn safety(d: &CatalogDiff, out: &mut String) {
    if !d.paths_changed() {
        out.push_str("\n#### Update safety\n\nNo installed version's path changes.\n");
    }
    for s in &d.safety {
        let rows: Vec<&SafetyRow> = s.rows.iter().filter(|r| r.changed || !r.findings.is_empty()).collect();
        if rows.is_empty() {
            continue;
        }
        let _ = write!(
            out,
            "\n#### Update safety: {}\n\n| Channel | Installed | OLM v0 (old → new) | OLM v1 (old → new) | Findings |\n| --- | --- | --- | --- | --- |\n",
            code(&s.package)
        );
        for r in rows {
            let findings: Vec<String> = r.findings.iter().map(|c| code(c.as_str())).collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                code(&r.channel),
                code(&r.installed),
                routes(r, |n| &n.v0),
                routes(r, |n| &n.v1),
                findings.join(", ")
            );
        }
    }
}

/// A catalog diff as a comment: summary, findings, changes, update safety per package.
pub fn diff(d: &CatalogDiff, summary: &str) -> String {
    let mut out = String::new();
    header("olm-catalog diff", summary, &mut out);
    table(&d.findings, &d.fixes, &mut out);
    changes(d, &mut out);
    safety(d, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report_formats::testing::sample;

    #[test]
    fn a_summary_then_one_table_row_per_finding() {
        let out = findings("olm-catalog validate", &sample(), "invalid: 1 error, 1 warning, 1 note");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "### olm-catalog validate");
        assert_eq!(lines[2], "**invalid: 1 error, 1 warning, 1 note**");
        assert_eq!(lines[4], "| Status | Code | Location | Message |");
        assert_eq!(lines.len(), 9);
        assert!(lines[6].starts_with("| ❌ error | `"));
        assert!(lines[6].contains("| `a/c.yaml:3:5` | bad, really: 100%<br>second &lt;line&gt; &amp; \"quoted\"<br>note: `a/b.yaml:1:1` first defined here |"));
        assert!(lines[7].ends_with("| a \\| pipe |"), "{}", lines[7]);
    }

    #[test]
    fn a_diff_says_when_no_path_changes_and_shows_each_fix() {
        let empty = diff(&CatalogDiff::default(), "s");
        assert!(
            empty.ends_with("No findings.\n\n#### Update safety\n\nNo installed version's path changes.\n"),
            "{empty}"
        );
        let d = CatalogDiff {
            findings: sample(),
            fixes: vec![None, Some(r#"{"op":"setEdges"}"#.into()), None],
            ..CatalogDiff::default()
        };
        let out = diff(&d, "s");
        let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("| ")).collect();
        assert!(
            lines[3].ends_with("| a \\| pipe<br>fix: `olm-catalog edit CATALOG json --op '{\"op\":\"setEdges\"}'` |"),
            "{}",
            lines[3]
        );
        assert!(!lines[2].contains("fix:") && !lines[4].contains("fix:"));
    }

    #[test]
    fn no_findings_says_so() {
        assert!(findings("t", &[], "valid: 0 errors, 0 warnings").ends_with("\n\nNo findings.\n"));
    }

    #[test]
    fn every_row_has_the_columns_of_its_header() {
        for line in findings("t", &sample(), "s").lines().filter(|l| l.starts_with('|')) {
            let unescaped = line.replace("\\|", "");
            assert_eq!(unescaped.matches('|').count(), 5, "{line}");
        }
    }
}
