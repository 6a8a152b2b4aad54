//! The diff as text: a change summary per package, then the findings compiler-style (each with the
//! `olm-catalog edit` command that fixes it, when the diff knows one), then a
//! per-package update-safety table of the rows whose routes changed or that have findings (or one
//! line saying no installed version's path changes), then one summary line.

use std::fmt::Write as _;

use super::{BundleChange, CatalogDiff, ChannelChange, PackageChange, Route, SafetyRow, ValueChange};

/// The whole diff as text (what `olm-catalog diff` prints).
pub fn to_text(d: &CatalogDiff) -> String {
    let mut out = String::new();
    for p in &d.packages {
        package(p, &mut out);
    }
    if !d.packages.is_empty() {
        out.push('\n');
    }
    for (i, f) in d.findings.iter().enumerate() {
        let _ = writeln!(out, "{f}");
        if let Some(op) = d.fixes.get(i).and_then(|f| f.as_deref()) {
            let _ = writeln!(out, "  fix: olm-catalog edit CATALOG json --op {}", shell_quoted(op));
        }
    }
    if !d.findings.is_empty() {
        out.push('\n');
    }
    for s in &d.safety {
        let rows: Vec<&SafetyRow> =
            s.rows.iter().filter(|r| r.changed || !r.findings.is_empty() || r.blocked.is_some()).collect();
        if !rows.is_empty() {
            table(&s.package, &rows, &mut out);
            out.push('\n');
        }
    }
    if !d.paths_changed() {
        out.push_str("update safety: no installed version's path changes\n");
    }
    summary(d, &mut out);
    out
}

/// `text` in single quotes for a POSIX shell (a `'` inside becomes `'\''`).
fn shell_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

fn value(v: &Option<String>) -> String {
    v.as_deref().map_or_else(|| "(none)".to_string(), |s| format!("{s:?}"))
}

fn change(label: &str, c: &Option<ValueChange>, out: &mut Vec<String>) {
    if let Some(c) = c {
        out.push(format!("{label} {} -> {}", value(&c.old), value(&c.new)));
    }
}

fn kind(k: super::ChangeKind) -> &'static str {
    match k {
        super::ChangeKind::Added => "added",
        super::ChangeKind::Removed => "removed",
        super::ChangeKind::Changed => "changed",
    }
}

fn package(p: &PackageChange, out: &mut String) {
    let _ = writeln!(out, "package {} ({})", p.name, kind(p.kind));
    let mut parts = Vec::new();
    change("default channel", &p.default_channel, &mut parts);
    change("deprecation", &p.deprecation, &mut parts);
    if p.metadata_changed {
        parts.push("description or icon changed".into());
    }
    for part in parts {
        let _ = writeln!(out, "  {part}");
    }
    if p.kind != super::ChangeKind::Changed {
        let _ = writeln!(out, "  {} channels, {} bundles", p.channels.len(), p.bundles.len());
        return;
    }
    for c in &p.channels {
        channel(c, out);
    }
    for b in &p.bundles {
        bundle(b, out);
    }
}

fn channel(c: &ChannelChange, out: &mut String) {
    let mut parts = Vec::new();
    change("head", &c.head, &mut parts);
    if !c.entries_added.is_empty() || !c.entries_removed.is_empty() {
        parts.push(format!("entries +{} -{}", c.entries_added.len(), c.entries_removed.len()));
    }
    if !c.edges_added.is_empty() || !c.edges_removed.is_empty() {
        parts.push(format!("edges +{} -{}", c.edges_added.len(), c.edges_removed.len()));
    }
    change("deprecation", &c.deprecation, &mut parts);
    let detail = if parts.is_empty() { String::new() } else { format!(": {}", parts.join("; ")) };
    let _ = writeln!(out, "  channel {} ({}){detail}", c.name, kind(c.kind));
}

fn bundle(b: &BundleChange, out: &mut String) {
    let version = b.version.as_deref().map(|v| format!(" {v}")).unwrap_or_default();
    let mut fields: Vec<String> = b.fields.iter().map(|f| f.to_string()).collect();
    if !b.properties.is_empty() {
        let by_type: Vec<String> =
            b.properties.iter().map(|p| format!("{} +{} -{}", p.type_, p.added, p.removed)).collect();
        if let Some(f) = fields.iter_mut().find(|f| *f == "properties") {
            *f = format!("properties ({})", by_type.join(", "));
        }
    }
    let detail = if fields.is_empty() { String::new() } else { format!(": {}", fields.join(", ")) };
    let _ = writeln!(out, "  bundle {}{version} ({}){detail}", b.name, kind(b.kind));
}

impl Route {
    /// The route in a few words: `at head`, `stranded`, or `2 steps via foo.v2`.
    pub fn summary(&self) -> String {
        route(self)
    }
}

fn route(r: &Route) -> String {
    if r.stranded {
        "stranded".into()
    } else if r.path.is_empty() {
        "at head".into()
    } else {
        format!("{} step{} via {}", r.path.len(), if r.path.len() == 1 { "" } else { "s" }, r.path[0])
    }
}

fn table(package: &str, rows: &[&SafetyRow], out: &mut String) {
    let _ = writeln!(out, "update safety: {package}");
    let mut lines = vec![[
        "CHANNEL".to_string(),
        "INSTALLED".into(),
        "OLM v0 (old -> new)".into(),
        "OLM v1 (old -> new)".into(),
        "FINDINGS".into(),
    ]];
    for r in rows {
        let new = |f: fn(&super::Routes) -> &Route| r.new.as_ref().map_or_else(|| "gone".to_string(), |n| route(f(n)));
        let mut codes: Vec<&str> = r.findings.iter().map(|c| c.as_str()).collect();
        if r.blocked.is_some() {
            codes.push("blocked (CRD)");
        }
        lines.push([
            r.channel.clone(),
            r.installed.clone(),
            format!("{} -> {}", route(&r.old.v0), new(|n| &n.v0)),
            format!("{} -> {}", route(&r.old.v1), new(|n| &n.v1)),
            codes.join(", "),
        ]);
    }
    let widths: Vec<usize> = (0..5).map(|i| lines.iter().map(|l| l[i].chars().count()).max().unwrap_or(0)).collect();
    for l in lines {
        let cells: Vec<String> = l.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
        let _ = writeln!(out, "  {}", cells.join("  ").trim_end());
    }
    for r in rows {
        if let Some(b) = &r.blocked {
            let reason = b.reason.replace('\n', "\n    ");
            let _ = writeln!(out, "  blocked: {} -> {} (OLM v1): {reason}", r.installed, b.next);
        }
    }
}

fn summary(d: &CatalogDiff, out: &mut String) {
    let count = |k| d.packages.iter().filter(|p| p.kind == k).count();
    let (errors, warnings) = d.counts();
    let notes = d.findings.len() - errors - warnings;
    let notes = if notes > 0 { format!(", {notes} notes") } else { String::new() };
    let _ = writeln!(
        out,
        "{} packages changed ({} added, {} removed); {errors} errors, {warnings} warnings{notes}",
        d.packages.len(),
        count(super::ChangeKind::Added),
        count(super::ChangeKind::Removed)
    );
}

#[cfg(test)]
mod tests {
    use super::super::diff;
    use super::super::testing::Catalog;
    use super::to_text;

    const CHAIN: &str = "
        - name: foo.v1.0.0
        - name: foo.v1.1.0
          replaces: foo.v1.0.0
    ";

    #[test]
    fn when_no_installed_versions_path_changes_one_line_says_so() {
        let old = Catalog::new().channel("foo", "stable", CHAIN).build();
        let new = Catalog::new().channel("foo", "stable", CHAIN).channel("foo", "fast", "- name: foo.v1.1.0").build();
        assert_eq!(
            to_text(&diff(&old, &new)),
            "package foo (changed)\n  channel fast (added): head (none) -> \"foo.v1.1.0\"; entries +1 -0\n\nupdate safety: no installed version's path changes\n1 packages changed (0 added, 0 removed); 0 errors, 0 warnings\n"
        );
    }

    #[test]
    fn a_changed_path_gets_a_table_and_not_the_line() {
        let old = Catalog::new().channel("foo", "stable", CHAIN).build();
        let new = Catalog::new()
            .channel("foo", "stable", &format!("{CHAIN}\n        - name: foo.v1.2.0\n          replaces: foo.v1.1.0"))
            .build();
        let text = to_text(&diff(&old, &new));
        assert!(text.contains("update safety: foo\n  CHANNEL"), "{text}");
        assert!(!text.contains("no installed version's path changes"), "{text}");
    }
}
