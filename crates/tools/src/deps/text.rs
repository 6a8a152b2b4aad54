//! [`PackageDeps`] as text for a reviewer: the requirements with their status, who declares them
//! and who provides them; the APIs the package provides; who requires it. Long lists are capped
//! ("… and 19 more").

use std::fmt::Write as _;

use super::{ConstraintNode, ConstraintOp, PackageDeps, Provider, Requirement, Status};

/// The most names a line lists before "… and N more".
const LIST_CAP: usize = 5;

pub(super) fn render(d: &PackageDeps) -> String {
    let mut out = String::new();
    let s = &d.summary;
    let heads = d.bundles.iter().filter(|b| !b.head_of.is_empty()).count();
    let scope = if d.heads_only { " (channel heads only)" } else { "" };
    let _ = writeln!(
        out,
        "Package {}: {}, {}{scope}",
        d.package,
        plural(s.bundles, "bundle"),
        plural(heads, "channel head")
    );
    let _ = write!(out, "\nRequires: {}", plural(s.requirements, "requirement"));
    let counts: Vec<String> = [
        (s.satisfied, "satisfied"),
        (s.unsatisfied, "unsatisfied"),
        (s.unknown, "unknown (CEL, not evaluated)"),
        (s.invalid, "invalid"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, w)| format!("{n} {w}"))
    .collect();
    if !counts.is_empty() {
        let _ = write!(out, ": {}", counts.join(", "));
    }
    out.push('\n');
    for r in &d.requirements {
        requirement(&mut out, r);
    }
    let _ = writeln!(out, "\nProvides: {}", plural(d.provides.len(), "API"));
    for p in &d.provides {
        let _ = writeln!(out, "  {} ({})", p.text, plural(p.bundles.len(), "bundle"));
    }
    let _ = writeln!(out, "\nRequired by: {}", plural(s.required_by, "package"));
    for r in &d.required_by {
        let mark = if r.satisfied { "" } else { " — NOT satisfied by this package" };
        let _ = writeln!(out, "  {}: {} ({}){mark}", r.package, r.text, r.property);
        let _ = writeln!(out, "      {}", declared(&r.bundles, &r.heads));
    }
    out
}

fn requirement(out: &mut String, r: &Requirement) {
    let _ = writeln!(out, "\n  [{}] {} ({})", status_word(r.status), r.text, r.property);
    let _ = writeln!(out, "      {}", declared(&r.declared_by, &r.declared_by_heads));
    if let Some(c) = &r.constraint {
        if !c.children.is_empty() || c.op == ConstraintOp::Cel {
            constraint(out, c, 6);
        }
    }
    if let Some(e) = &r.error {
        let _ = writeln!(out, "      OLM cannot read it: {e}");
        return;
    }
    if r.provider_count > 0 {
        let _ = writeln!(out, "      provided by {}:", plural(r.provider_count, "bundle"));
        providers(out, &r.providers, r.provider_count);
    } else if r.status == Status::Unknown {
        let _ = writeln!(out, "      no bundle certainly satisfies it; CEL rules are not evaluated");
    } else {
        let _ = writeln!(out, "      nothing in the catalog satisfies it");
    }
    if !r.other_versions.is_empty() && r.provider_count == 0 {
        let _ = writeln!(out, "      outside the range:");
        providers(out, &r.other_versions, r.other_versions.len());
    }
}

fn constraint(out: &mut String, c: &ConstraintNode, indent: usize) {
    let pad = " ".repeat(indent);
    let label = match c.op {
        ConstraintOp::Cel => format!("cel: {}", c.text),
        ConstraintOp::Gvk | ConstraintOp::Package => c.text.clone(),
        op => op.name().to_string(),
    };
    let state = match (c.op, c.status) {
        (ConstraintOp::Cel, _) => "not evaluated".to_string(),
        (_, Status::Satisfied) => format!("satisfied by {}", plural(c.matches, "bundle")),
        (_, s) => status_word(s).to_string(),
    };
    let _ = writeln!(out, "{pad}{label}  [{state}]");
    if !c.failure_message.is_empty() {
        let _ = writeln!(out, "{pad}  failure message: {}", c.failure_message);
    }
    for child in &c.children {
        constraint(out, child, indent + 2);
    }
}

/// `pkg: 1.2.0 (head of stable), 1.1.0 … and 3 more`, one line per package.
fn providers(out: &mut String, list: &[Provider], total: usize) {
    let mut shown = 0;
    let mut i = 0;
    while i < list.len() {
        let package = &list[i].package;
        let group: Vec<&Provider> = list[i..].iter().take_while(|p| &p.package == package).collect();
        i += group.len();
        shown += group.len();
        let items: Vec<String> = group.iter().map(|p| provider(p)).collect();
        let _ = writeln!(out, "        {package}: {}", capped(&items));
    }
    if total > shown {
        let _ = writeln!(out, "        … and {} more", total - shown);
    }
}

fn provider(p: &Provider) -> String {
    let name = p.version.clone().unwrap_or_else(|| p.bundle.clone());
    if p.head_of.is_empty() {
        name
    } else {
        format!("{name} (head of {})", p.head_of.join(", "))
    }
}

fn declared(bundles: &[String], heads: &[String]) -> String {
    let mut s = format!("declared by {}: {}", plural(bundles.len(), "bundle"), capped(bundles));
    if !heads.is_empty() {
        let _ = write!(s, "; channel heads: {}", capped(heads));
    }
    s
}

fn capped(items: &[String]) -> String {
    if items.len() <= LIST_CAP {
        return items.join(", ");
    }
    format!("{} … and {} more", items[..LIST_CAP].join(", "), items.len() - LIST_CAP)
}

fn status_word(s: Status) -> &'static str {
    match s {
        Status::Satisfied => "satisfied",
        Status::Unsatisfied => "UNSATISFIED",
        Status::Unknown => "unknown",
        Status::Invalid => "INVALID",
    }
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}
