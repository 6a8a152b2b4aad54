//! The preview of an operation: its edits and their undo, the catalog after them, the catalog
//! diff, the findings the change introduces (update safety, validation, and CRD safety of the
//! package's upgrade edges: what the edit would make unsafe), and the graphs of
//! the channels it touches before and after. A removal that would strand versions is refused
//! here, on the edited catalog.

use serde::Serialize;

use crate::declcfg::FileInput;
use crate::diagnostic::Diagnostic;
use crate::diff::{self, CatalogDiff, DiffOptions};
use crate::graph::{ChannelGraph, EXPANSION_BUDGET};
use crate::model::Model;
use crate::validate::{validate_files, Validated};

use super::ops::{self, Ctx};
use super::text::{apply_edits, invert, TextEdit};
use super::{EditError, Operation};

/// What an operation would do, before anything is written.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EditPlan {
    /// The edits, in the order they are made.
    pub edits: Vec<TextEdit>,
    /// The edits that undo them, against the edited files.
    pub undo: Vec<TextEdit>,
    /// The files the edits touch, as they will be.
    #[serde(skip)]
    pub files: Vec<FileInput>,
    /// The catalog diff of before and after (the operation's package).
    pub diff: CatalogDiff,
    /// The update-safety findings of the diff, then the validation findings that are new in the
    /// edited catalog, then the CRD safety findings of the package's edges that are new.
    pub findings: Vec<Diagnostic>,
    /// The graphs of the channels the change touches.
    pub graphs: Vec<GraphChange>,
}

impl EditPlan {
    /// Whether the edited catalog has an error the original did not.
    pub fn has_new_errors(&self) -> bool {
        self.findings.iter().any(Diagnostic::is_error)
    }
}

/// One channel's graph before and after (`None` where the channel does not exist).
#[derive(Debug, Clone, Serialize)]
pub struct GraphChange {
    /// The package.
    pub package: String,
    /// The channel.
    pub channel: String,
    /// Before.
    pub before: Option<ChannelGraph>,
    /// After.
    pub after: Option<ChannelGraph>,
}

/// [`plan_edit`] over an already validated catalog.
pub fn plan_on(files: &[FileInput], before: &Validated, op: &Operation) -> Result<EditPlan, EditError> {
    let mut ctx = Ctx::new(files, &before.model, &before.loaded.config);
    let edits = ops::edits(&mut ctx, op)?;
    let after_files = apply_edits(files, &edits)?;
    let after = validate_files(&after_files);
    let sides = Sides::of(before, &after);
    finish(files, after_files, edits, sides, op)
}

/// The catalog before and after an edit: models and validation findings.
pub(crate) struct Sides<'a> {
    pub before: &'a Model,
    pub after: &'a Model,
    pub before_findings: &'a [Diagnostic],
    pub after_findings: &'a [Diagnostic],
}

impl<'a> Sides<'a> {
    /// The sides of two whole validations.
    pub(crate) fn of(before: &'a Validated, after: &'a Validated) -> Self {
        Sides {
            before: &before.model,
            after: &after.model,
            before_findings: &before.report.diagnostics,
            after_findings: &after.report.diagnostics,
        }
    }
}

/// The plan of `edits` on `files` (giving `after_files`), previewed on `sides`.
pub(crate) fn finish(
    files: &[FileInput],
    after_files: Vec<FileInput>,
    edits: Vec<TextEdit>,
    sides: Sides<'_>,
    op: &Operation,
) -> Result<EditPlan, EditError> {
    if let Operation::RemoveBundle { package, bundle } = op {
        check_stranded(sides.before, sides.after, package, bundle)?;
    }
    let undo = invert(files, &edits)?;
    let options = DiffOptions { package: Some(op.package().to_string()) };
    let d = diff::diff_with(sides.before, sides.after, &options);
    let mut findings = d.findings.clone();
    findings.extend(new_findings(sides.before_findings, sides.after_findings));
    findings.extend(new_crd_findings(sides.before, sides.after, op.package()));
    let graphs = graphs(sides.before, sides.after, op, &d);
    let touched: Vec<&str> = edits.iter().map(|e| e.file.as_str()).collect();
    let files = after_files.into_iter().filter(|f| touched.contains(&f.path.as_str())).collect();
    Ok(EditPlan { edits, undo, files, diff: d, findings, graphs })
}

/// Findings of `after` whose code and message no finding of `before` has.
fn new_findings(before: &[Diagnostic], after: &[Diagnostic]) -> Vec<Diagnostic> {
    let seen: std::collections::HashSet<(&str, &str)> =
        before.iter().map(|d| (d.code.as_str(), d.message.as_str())).collect();
    after.iter().filter(|d| !seen.contains(&(d.code.as_str(), d.message.as_str()))).cloned().collect()
}

/// The CRD safety findings of the package's upgrade edges (`crd_safety`) that the edit
/// introduces: an edge it adds or a CRD it changes that OLM would refuse.
fn new_crd_findings(before: &Model, after: &Model, package: &str) -> Vec<Diagnostic> {
    use crate::crd_safety::{check_catalog, CatalogOptions};
    let options = CatalogOptions { package: Some(package.to_string()), ..CatalogOptions::default() };
    let of = |m: &Model| {
        let check = check_catalog(m, &options);
        if check.bundles_with_crds == 0 {
            return Vec::new();
        }
        check.diagnostics().into_iter().filter(|d| d.code != crate::diagnostic::Code::CrdNoneInCatalog).collect()
    };
    new_findings(&of(before), &of(after))
}

fn graph_of(m: &Model, package: &str, channel: &str) -> Option<ChannelGraph> {
    let p = m.package(package)?;
    p.channel(channel).filter(|c| c.source.is_some()).map(|c| ChannelGraph::new(p, c))
}

/// The channels the operation names or the diff shows changed, before and after.
fn graphs(before: &Model, after: &Model, op: &Operation, d: &CatalogDiff) -> Vec<GraphChange> {
    let package = op.package();
    let mut names: Vec<String> = d.packages.iter().flat_map(|p| p.channels.iter().map(|c| c.name.clone())).collect();
    match op {
        Operation::AddBundle { channels, .. } => names.extend(channels.iter().cloned()),
        Operation::Promote { channel, .. }
        | Operation::SetEdges { channel, .. }
        | Operation::RemoveChannel { channel, .. }
        | Operation::CreateChannel { channel, .. } => names.push(channel.clone()),
        Operation::RenameChannel { channel, to, .. } => names.extend([channel.clone(), to.clone()]),
        _ => {}
    }
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(|c| GraphChange {
            package: package.to_string(),
            before: graph_of(before, package, &c),
            after: graph_of(after, package, &c),
            channel: c,
        })
        .collect()
}

/// Every entry that reached a channel's head before the removal must still reach it.
fn check_stranded(before: &Model, after: &Model, package: &str, bundle: &str) -> Result<(), EditError> {
    let (Some(old), Some(new)) = (before.package(package), after.package(package)) else { return Ok(()) };
    for c in old.channels.iter().filter(|c| c.entry(bundle).is_some()) {
        let (Ok(head), Some(nc)) = (c.head(), new.channel(&c.name)) else { continue };
        let head = head.name.value.as_str();
        let mut g_old = ChannelGraph::new(old, c);
        let mut g_new = ChannelGraph::new(new, nc);
        if g_old.expand_ranges(EXPANSION_BUDGET).is_err() || g_new.expand_ranges(EXPANSION_BUDGET).is_err() {
            continue;
        }
        let stranded: Vec<String> = c
            .entries
            .iter()
            .map(|e| e.name.value.as_str())
            .filter(|n| *n != bundle && *n != head && g_old.reachable(n, head) && !g_new.reachable(n, head))
            .map(str::to_string)
            .collect();
        if !stranded.is_empty() {
            return Err(EditError::Stranded { bundle: bundle.into(), channel: c.name.clone(), entries: stranded });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use base64::Engine as _;

    use super::*;
    use crate::diagnostic::Code;

    /// An `olm.bundle.object` property of CRD `widgets.example.com` with this scope.
    fn crd(scope: &str) -> String {
        let manifest = format!(
            r#"{{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{{"name":"widgets.example.com"}},"spec":{{"scope":"{scope}","versions":[{{"name":"v1","served":true,"storage":true}}]}}}}"#
        );
        let data = base64::engine::general_purpose::STANDARD.encode(manifest);
        format!("- type: olm.bundle.object\n  value: {{data: {data}}}\n")
    }

    fn bundle(version: &str, scope: &str) -> String {
        format!(
            "---\nschema: olm.bundle\npackage: foo\nname: foo.v{version}\nimage: r/foo:{version}\nproperties:\n\
             - type: olm.package\n  value: {{packageName: foo, version: {version}}}\n{}",
            crd(scope)
        )
    }

    #[test]
    fn a_preview_shows_the_upgrade_an_edit_would_make_unsafe_for_crds() {
        let text = format!(
            "---\nschema: olm.package\nname: foo\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: foo\n\
             name: stable\nentries:\n- name: foo.v1.0.0\n- name: foo.v2.0.0\n{}{}",
            bundle("1.0.0", "Namespaced"),
            bundle("2.0.0", "Cluster")
        );
        let files = vec![FileInput::new("foo/catalog.yaml", text)];
        let op: Operation = serde_json::from_str(
            r#"{"op":"setEdges","package":"foo","channel":"stable","bundle":"foo.v2.0.0","replaces":"foo.v1.0.0"}"#,
        )
        .unwrap();
        let plan = super::super::plan_edit(&files, &op).unwrap();
        let crd: Vec<&Diagnostic> = plan.findings.iter().filter(|d| d.code == Code::CrdScope).collect();
        assert_eq!(crd.len(), 1, "{:?}", plan.findings);
        assert!(crd[0].message.starts_with("foo/stable: foo.v1.0.0 -> foo.v2.0.0 (replaces): validating upgrade"));
        assert!(plan.has_new_errors());
        let undo: Operation = serde_json::from_str(
            r#"{"op":"setEdges","package":"foo","channel":"stable","bundle":"foo.v2.0.0","replaces":""}"#,
        )
        .unwrap();
        let after = apply_edits(&files, &plan.edits).unwrap();
        let back = super::super::plan_edit(&after, &undo).unwrap();
        assert!(back.findings.iter().all(|d| !d.code.as_str().starts_with("crd-")), "{:?}", back.findings);
    }
}
