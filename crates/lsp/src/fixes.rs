//! Quick fixes: for each finding the edit engine can fix, the operation that fixes it, found from
//! the finding's code and the name it points at (an entry's name, `replaces` or `skipRange`, a
//! bundle's name, a deprecation's reference) and checked against the model as the operation
//! always is. A finding whose fix would need a choice the catalog does not make (which of two
//! heads to keep, say) has none.

use lsp_types::{CodeAction, CodeActionKind, Diagnostic, NumberOrString, Position};

use crate::actions::action;
use crate::convert::Lines;
use crate::edit::Operation;
use crate::features::at;
use crate::index::{Kind, Target};
use crate::model::{Channel, Package, ReplacesForest};
use crate::workspace::Workspace;

/// An entry of a channel: (package, channel, bundle).
type EntryRef = (String, String, String);

/// The fix of finding `d` in file `path`, if it has one.
pub fn quick_fix(ws: &mut Workspace, path: &str, d: &Diagnostic) -> Option<CodeAction> {
    let Some(NumberOrString::String(code)) = &d.code else { return None };
    let on_entry =
        matches!(code.as_str(), "z-stream-gap" | "stranded-entry" | "replaces-skipped" | "unreachable-entry");
    let e = if on_entry { entry_at(ws, path, d.range.start) } else { None };
    let (title, op) = match code.as_str() {
        "z-stream-gap" => z_stream_gap(ws, e.as_ref()?)?,
        "entry-without-bundle" => {
            let (package, _, bundle) = entry_at(ws, path, d.range.start)?;
            let title = format!("Remove the entry {bundle}, which has no bundle (re-wire its channels)");
            (title, Operation::RemoveBundle { package, bundle })
        }
        "default-channel-unset" | "empty-channel" => default_channel(ws, path)?,
        "stranded-entry" => stranded(ws, e.as_ref()?, &d.message)?,
        "replaces-skipped" => replaces_skipped(ws, e.as_ref()?)?,
        "skip-range-covers-nothing" => {
            let (package, channel, bundle) = entry_at(ws, path, d.range.start)?;
            let title = format!("Remove the skipRange of {bundle}, which covers nothing");
            (title, edges(package, channel, bundle, None, None, Some(String::new())))
        }
        "empty-skip" => {
            let (package, channel, bundle) = entry_at(ws, path, d.range.start)?;
            let skips = entry(ws, &package, &channel, &bundle)?.skips.iter().map(|s| s.value.clone());
            let skips: Vec<String> = skips.filter(|s| !s.is_empty()).collect();
            let title = format!("Remove the empty skips of {bundle}");
            (title, edges(package, channel, bundle, None, Some(skips), None))
        }
        "unreachable-entry" => unreachable(ws, e.as_ref()?)?,
        "deprecated-head" => {
            let (package, _, bundle) = entry_at(ws, path, d.range.start)?;
            let title = format!("Remove the deprecation of the head {bundle}");
            (title, Operation::Undeprecate { package, bundle: Some(bundle), channel: None })
        }
        "deprecated-not-found" => deprecated_not_found(ws, path, d.range.start)?,
        "bundle-not-in-channel" => bundle_not_in_channel(ws, path, d.range.start)?,
        _ => return None,
    };
    action(ws, title, CodeActionKind::QUICKFIX, op)
}

/// The entry a finding points into: the name at `pos` when it is an entry's (or a `skipRange`),
/// else the last entry name before `pos` in the file (a finding on an entry's `replaces` or
/// `skips` item).
fn entry_at(ws: &mut Workspace, path: &str, pos: Position) -> Option<EntryRef> {
    if let Some((o, _)) = at(ws, path, pos) {
        match (&o.kind, &o.channel) {
            (Kind::SkipRange(p, c, e), _) => return Some((p.clone(), c.clone(), e.clone())),
            (Kind::Reference(Target::Bundle(p, b), "name"), Some(c)) => return Some((p.clone(), c.clone(), b.clone())),
            _ => {}
        }
    }
    let text = ws.text(path)?;
    let lines = Lines::new(&text);
    let names = ws.names_in(path);
    let before = names.iter().filter(|o| lines.token(o.pos).start <= pos);
    let last = before.filter(|o| matches!(o.kind, Kind::Reference(_, "name")) && o.channel.is_some());
    let last = last.max_by_key(|o| (o.pos.line, o.pos.column))?;
    let (Some(Target::Bundle(p, b)), Some(c)) = (last.target(), &last.channel) else { return None };
    Some((p.clone(), c.clone(), b.clone()))
}

fn package<'w>(ws: &'w Workspace, name: &str) -> Option<&'w Package> {
    ws.session().model().package(name)
}

fn channel<'w>(ws: &'w Workspace, package: &str, name: &str) -> Option<&'w Channel> {
    crate::fixes::package(ws, package)?.channel(name)
}

fn entry<'w>(ws: &'w Workspace, package: &str, channel: &str, bundle: &str) -> Option<&'w crate::model::Entry> {
    crate::fixes::channel(ws, package, channel)?.entry(bundle)
}

/// A `setEdges` changing the fields given.
fn edges(
    package: String,
    channel: String,
    bundle: String,
    replaces: Option<String>,
    skips: Option<Vec<String>>,
    skip_range: Option<String>,
) -> Operation {
    Operation::SetEdges { package, channel, bundle, replaces, skips, skip_range }
}

/// `z-stream-gap`: the skipRange covering the earlier patches of the entry's minor version.
fn z_stream_gap(ws: &Workspace, (package, channel, bundle): &EntryRef) -> Option<(String, Operation)> {
    if entry(ws, package, channel, bundle)?.skip_range.is_some() {
        return None;
    }
    let v = crate::fixes::package(ws, package)?.bundle(bundle)?.version.as_ref()?.semver().clone();
    let range = format!(">={}.{}.0 <{v}", v.major, v.minor);
    let title = format!("Add skipRange \"{range}\" to {bundle}");
    Some((title, edges(package.clone(), channel.clone(), bundle.clone(), None, None, Some(range))))
}

/// `default-channel-unset`, or a `defaultChannel` naming no channel (`empty-channel`): the
/// first channel.
fn default_channel(ws: &Workspace, path: &str) -> Option<(String, Operation)> {
    let file_packages = ws.session().session().file_packages(path);
    let p =
        file_packages.iter().filter_map(|p| package(ws, p)).find(|p| p.channel(&p.default_channel.value).is_none())?;
    let channel = p.channels.first()?.name.clone();
    let title = format!("Set the default channel to {channel}");
    Some((title, Operation::SetDefaultChannel { package: p.name.clone(), channel }))
}

/// `stranded-entry`: the entry the finding names to skip it from (`add "x" to the skips of
/// "y"`), else the channel head, skips it.
fn stranded(ws: &Workspace, (package, channel, bundle): &EntryRef, message: &str) -> Option<(String, Operation)> {
    let named = message.rsplit_once(" to the skips of \"").and_then(|(_, r)| r.strip_suffix('"'));
    let ch = crate::fixes::channel(ws, package, channel)?;
    let skipper = match named {
        Some(n) => ch.entry(n)?,
        None => ch.head().ok()?,
    };
    let mut skips: Vec<String> = skipper.skips.iter().map(|s| s.value.clone()).collect();
    skips.push(bundle.clone());
    let by = skipper.name.value.clone();
    let title = format!("Add {bundle} to the skips of {by}");
    Some((title, edges(package.clone(), channel.clone(), by, None, Some(skips), None)))
}

/// `replaces-skipped`, as its message advises: an entry that skips what it replaces drops the
/// skip; so does a newer entry whose replaces chain goes on through the replacing one (the skip
/// is a shortcut); otherwise the entry replaces the older entry that skips its target.
fn replaces_skipped(ws: &Workspace, (package, channel, bundle): &EntryRef) -> Option<(String, Operation)> {
    let ch = crate::fixes::channel(ws, package, channel)?;
    let target = &ch.entry(bundle)?.replaces.value;
    let skipper = ch.entries.iter().find(|e| e.skips.iter().any(|s| s.value == *target))?;
    let by = skipper.name.value.clone();
    let at = |name: &str| ch.entries.iter().position(|e| e.name.value == name);
    let reaches = matches!((at(&by), at(bundle)), (Some(f), Some(t)) if ReplacesForest::new(ch).below(f, t));
    if by == *bundle || reaches {
        let skips: Vec<String> = skipper.skips.iter().map(|s| s.value.clone()).filter(|s| s != target).collect();
        let title = format!("Drop {target} from the skips of {by}");
        return Some((title, edges(package.clone(), channel.clone(), by, None, Some(skips), None)));
    }
    let title = format!("Make {bundle} replace {by}, which skips {target}");
    Some((title, edges(package.clone(), channel.clone(), bundle.clone(), Some(by), None, None)))
}

/// `unreachable-entry`: the entry of the channel with the next lower version upgrades to it
/// (the entry replaces it, or skips it when it replaces another).
fn unreachable(ws: &Workspace, (package, channel, bundle): &EntryRef) -> Option<(String, Operation)> {
    let p = crate::fixes::package(ws, package)?;
    let ch = p.channel(channel)?;
    let version = |name: &str| p.bundle(name).and_then(|b| b.version.clone());
    let v = version(bundle)?;
    let lower = ch.entries.iter().filter_map(|e| Some((version(&e.name.value)?, e))).filter(|(ev, _)| *ev < v);
    let (_, prev) = lower.max_by(|a, b| a.0.cmp(&b.0))?;
    let prev = prev.name.value.clone();
    let e = ch.entry(bundle)?;
    let (package, channel, bundle) = (package.clone(), channel.clone(), bundle.clone());
    if e.replaces.value.is_empty() {
        let title = format!("Make {bundle} replace {prev}");
        return Some((title, edges(package, channel, bundle, Some(prev), None, None)));
    }
    let mut skips: Vec<String> = e.skips.iter().map(|s| s.value.clone()).collect();
    skips.push(prev.clone());
    Some((format!("Make {bundle} skip {prev}"), edges(package, channel, bundle, None, Some(skips), None)))
}

/// `deprecated-not-found`: remove the deprecation of the bundle or channel that is not there.
fn deprecated_not_found(ws: &mut Workspace, path: &str, pos: Position) -> Option<(String, Operation)> {
    let (o, _) = at(ws, path, pos)?;
    let (package, bundle, channel) = match o.target()? {
        Target::Bundle(p, b) => (p.clone(), Some(b.clone()), None),
        Target::Channel(p, c) => (p.clone(), None, Some(c.clone())),
        Target::Package(_) => return None,
    };
    let title = format!("Remove the deprecation of {}, which does not exist", o.text);
    Some((title, Operation::Undeprecate { package, bundle, channel }))
}

/// `bundle-not-in-channel`: list the bundle in the package's default channel.
fn bundle_not_in_channel(ws: &mut Workspace, path: &str, pos: Position) -> Option<(String, Operation)> {
    let (o, _) = at(ws, path, pos)?;
    let Kind::Definition(Target::Bundle(package, bundle)) = &o.kind else { return None };
    let channel = crate::fixes::package(ws, package)?.default_channel.value.clone();
    crate::fixes::channel(ws, package, &channel)?;
    let title = format!("Add {bundle} to the default channel {channel}");
    let op = Operation::Promote { package: package.clone(), bundle: bundle.clone(), channel, edge: Default::default() };
    Some((title, op))
}
