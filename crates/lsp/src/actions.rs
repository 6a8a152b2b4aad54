//! The requests that change the catalog, all through the edit engine's operations (checked
//! against the model, formatting kept): quick fixes for findings that have one ([`fixes`](crate::fixes)), the operations
//! on the bundle or channel under the cursor as refactorings, and rename of a channel (the
//! `renameChannel` operation) or of a bundle (every name naming it, across files).

use std::collections::HashMap;

use lsp_types::{CodeAction, CodeActionKind, CodeActionOrCommand, Position, TextEdit, Url, WorkspaceEdit};

use crate::convert::Lines;
use crate::edit::Operation;
use crate::features::{at, occurrences_of};
use crate::index::Target;
use crate::workspace::Workspace;

/// The edits of `op` on the catalog as it is, as a workspace edit (`Err`: why it cannot be made).
pub fn op_edit(ws: &mut Workspace, op: &Operation) -> Result<WorkspaceEdit, String> {
    let plan = ws.editor().plan(op).map_err(|e| e.to_string())?;
    let mut changes: HashMap<Url, Vec<TextEdit>> = HashMap::new();
    for e in plan.edits {
        let uri = ws.uri(&e.file).ok_or_else(|| format!("{}: not a file of the catalog", e.file))?;
        let p = |p: crate::edit::LspPosition| Position::new(p.line, p.character);
        let range = lsp_types::Range::new(p(e.lsp.start), p(e.lsp.end));
        changes.entry(uri).or_default().push(TextEdit { range, new_text: e.new_text });
    }
    Ok(WorkspaceEdit { changes: Some(changes), ..WorkspaceEdit::default() })
}

/// A code action of `kind` applying `op`, when the operation can be made.
pub(crate) fn action(ws: &mut Workspace, title: String, kind: CodeActionKind, op: Operation) -> Option<CodeAction> {
    let edit = op_edit(ws, &op).ok()?;
    Some(CodeAction { title, kind: Some(kind), edit: Some(edit), ..CodeAction::default() })
}

/// The code actions at `range` of file `path`, for the findings `diagnostics` the client sends.
pub fn code_actions(
    ws: &mut Workspace,
    path: &str,
    range: lsp_types::Range,
    diagnostics: &[lsp_types::Diagnostic],
) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    for d in diagnostics {
        if let Some(mut fix) = crate::fixes::quick_fix(ws, path, d) {
            fix.diagnostics = Some(vec![d.clone()]);
            fix.is_preferred = Some(true);
            out.push(fix);
        }
    }
    out.extend(refactorings(ws, path, range.start));
    out.into_iter().map(CodeActionOrCommand::CodeAction).collect()
}

/// The edit operations on the bundle, channel or package at `pos` (deprecate or undeprecate as
/// it is; those the engine refuses are left out).
fn refactorings(ws: &mut Workspace, path: &str, pos: Position) -> Vec<CodeAction> {
    let Some((o, _)) = at(ws, path, pos) else { return Vec::new() };
    let kind = CodeActionKind::REFACTOR;
    let mut out = Vec::new();
    match o.target().cloned() {
        Some(Target::Bundle(package, bundle)) => {
            out.extend(deprecation(ws, &package, Some(bundle.clone()), None));
            out.extend(promotions(ws, &package, &bundle));
            let remove = Operation::RemoveBundle { package, bundle: bundle.clone() };
            out.extend(action(ws, format!("Remove bundle {bundle} (re-wire its channels)"), kind, remove));
        }
        Some(Target::Channel(package, channel)) => {
            let default = Operation::SetDefaultChannel { package: package.clone(), channel: channel.clone() };
            out.extend(action(ws, format!("Make {channel} the default channel"), kind.clone(), default));
            out.extend(deprecation(ws, &package, None, Some(channel.clone())));
            let remove = Operation::RemoveChannel { package, channel: channel.clone() };
            out.extend(action(ws, format!("Remove channel {channel}"), kind, remove));
        }
        Some(Target::Package(package)) => out.extend(deprecation(ws, &package, None, None)),
        None => {}
    }
    out
}

/// Deprecate the bundle, the channel or else the package, or undeprecate it when it is.
fn deprecation(
    ws: &mut Workspace,
    package: &str,
    bundle: Option<String>,
    channel: Option<String>,
) -> Option<CodeAction> {
    let p = ws.session().model().package(package)?;
    let (what, deprecated) = match (&bundle, &channel) {
        (Some(b), _) => (format!("bundle {b}"), p.bundle(b)?.deprecation.is_some()),
        (_, Some(c)) => (format!("channel {c}"), p.channel(c)?.deprecation.is_some()),
        _ => (format!("package {package}"), p.deprecation.is_some()),
    };
    let package = package.to_string();
    let (title, op) = if deprecated {
        (format!("Undeprecate {what}"), Operation::Undeprecate { package, bundle, channel })
    } else {
        let message = format!("{what} is deprecated");
        (format!("Deprecate {what}"), Operation::Deprecate { package, bundle, channel, message })
    };
    action(ws, title, CodeActionKind::REFACTOR, op)
}

/// At most this many channels are offered to promote a bundle to.
const PROMOTIONS: usize = 5;

/// Promote `bundle` to each channel of its package that does not list it (the first
/// [`PROMOTIONS`]), its edges chosen by the default policy.
fn promotions(ws: &mut Workspace, package: &str, bundle: &str) -> Vec<CodeAction> {
    let Some(p) = ws.session().model().package(package) else { return Vec::new() };
    let channels: Vec<String> =
        p.channels.iter().filter(|c| c.entry(bundle).is_none()).take(PROMOTIONS).map(|c| c.name.clone()).collect();
    let mut out = Vec::new();
    for channel in channels {
        let op = Operation::Promote {
            package: package.to_string(),
            bundle: bundle.to_string(),
            channel: channel.clone(),
            edge: Default::default(),
        };
        out.extend(action(ws, format!("Promote {bundle} to channel {channel}"), CodeActionKind::REFACTOR, op));
    }
    out
}

/// Rename the channel or bundle at `pos` to `to`, in every file naming it.
pub fn rename(ws: &mut Workspace, path: &str, pos: Position, to: &str) -> Result<Option<WorkspaceEdit>, String> {
    let Some((o, _)) = at(ws, path, pos) else { return Ok(None) };
    match o.target().cloned() {
        Some(Target::Channel(package, channel)) => {
            op_edit(ws, &Operation::RenameChannel { package, channel, to: to.to_string() }).map(Some)
        }
        Some(Target::Bundle(package, bundle)) => {
            let exists = ws.session().model().package(&package).and_then(|p| p.bundle(to)).is_some();
            if exists {
                return Err(format!("package {package} already has a bundle named {to}"));
            }
            let target = Target::Bundle(package, bundle);
            let mut changes: HashMap<Url, Vec<TextEdit>> = HashMap::new();
            for o in occurrences_of(ws, &target, true) {
                let (Some(uri), Some(text)) = (ws.uri(&o.file), ws.text(&o.file)) else { continue };
                let range = Lines::new(&text).token(o.pos);
                changes.entry(uri).or_default().push(TextEdit { range, new_text: to.to_string() });
            }
            Ok(Some(WorkspaceEdit { changes: Some(changes), ..WorkspaceEdit::default() }))
        }
        Some(Target::Package(_)) => {
            Err("renaming a package is not supported: rename its blobs' `package` fields".into())
        }
        None => Ok(None),
    }
}
