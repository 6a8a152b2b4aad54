//! Each operation: its checks against the model (before any text changes) and the text edits
//! that carry it out on the located blobs.

use std::collections::HashMap;
use std::rc::Rc;

use crate::declcfg::{self, DeclarativeConfig, FileInput, Source, Span};
use crate::model::{self, Channel, Model, Package};

use super::doc::Doc;
use super::edges::{self, Edges, Lineup};
use super::emit::Out;
use super::text::TextEdit;
use super::{EdgePolicy, EditError, NewBundle, Operation};

/// The catalog an operation is checked against, and its files opened for editing on demand.
pub struct Ctx<'a> {
    /// The files.
    pub files: &'a [FileInput],
    /// The checked model.
    pub model: &'a Model,
    /// The raw blobs.
    pub config: &'a DeclarativeConfig,
    /// The files are basic templates: blobs are the items of `entries`, a bundle is written as a
    /// reference to its image.
    pub basic_template: bool,
    /// The bundles an `addBundle` on a template brings in (the template names only their
    /// images): each blob in full, for the expansion of the edited template.
    pub new_bundles: Vec<Out>,
    /// The number of blobs of each file, when `config` holds only the package's blobs (an edit
    /// session's view); `None`: counted in `config`.
    pub blob_counts: Option<HashMap<String, usize>>,
    docs: HashMap<String, Rc<Doc>>,
}

impl<'a> Ctx<'a> {
    /// A context over a loaded catalog.
    pub fn new(files: &'a [FileInput], model: &'a Model, config: &'a DeclarativeConfig) -> Ctx<'a> {
        Ctx {
            files,
            model,
            config,
            basic_template: false,
            new_bundles: Vec::new(),
            blob_counts: None,
            docs: HashMap::new(),
        }
    }

    fn doc(&mut self, file: &str) -> Result<Rc<Doc>, EditError> {
        if let Some(d) = self.docs.get(file) {
            return Ok(d.clone());
        }
        let text = match self.files.iter().find(|f| f.path == file) {
            Some(f) => String::from_utf8(f.content.clone()).map_err(|_| EditError::Unreadable {
                file: file.into(),
                line: 1,
                reason: "not UTF-8".into(),
            })?,
            None => String::new(),
        };
        let doc = Rc::new(if self.basic_template { Doc::basic_template(file, text)? } else { Doc::new(file, text)? });
        self.docs.insert(file.to_string(), doc.clone());
        Ok(doc)
    }

    /// The blob at `source`, with its file.
    fn blob(&mut self, source: &Source) -> Result<(Rc<Doc>, Span), EditError> {
        let doc = self.doc(&source.file)?;
        let root = doc.root_at(source.pos)?.clone();
        Ok((doc, root))
    }

    fn package(&self, op: &Operation) -> Result<&'a Package, EditError> {
        let name = op.package();
        self.model.package(name).ok_or_else(|| EditError::NoPackage { package: name.into() })
    }
}

fn channel<'p>(p: &'p Package, name: &str) -> Result<&'p Channel, EditError> {
    p.channel(name)
        .filter(|c| c.source.is_some())
        .ok_or_else(|| EditError::NoChannel { package: p.name.clone(), channel: name.into() })
}

fn bundle_exists(p: &Package, name: &str) -> Result<(), EditError> {
    match p.bundle(name) {
        Some(_) => Ok(()),
        None => Err(EditError::NoBundle { package: p.name.clone(), bundle: name.into(), channel: None }),
    }
}

/// The text edits carrying out `op`.
pub fn edits(ctx: &mut Ctx<'_>, op: &Operation) -> Result<Vec<TextEdit>, EditError> {
    let p = ctx.package(op)?;
    match op {
        Operation::SetDefaultChannel { channel: c, .. } => {
            channel(p, c)?;
            if p.default_channel.value == *c {
                return Err(EditError::refused(op, format!("{c:?} is already the default channel")));
            }
            let (doc, root) = ctx.blob(&p.source)?;
            Ok(vec![doc.set_member(&root, "defaultChannel", &Out::s(c))])
        }
        Operation::Deprecate { bundle, channel: ch, message, .. } => {
            let target = target(op, p, bundle, ch)?;
            if message.is_empty() {
                return Err(EditError::Invalid { op: op.name().into(), reason: "the message is empty".into() });
            }
            deprecate(ctx, op, p, &target, message)
        }
        Operation::Undeprecate { bundle, channel: ch, .. } => {
            // A deprecation naming a bundle or channel the package lacks (`deprecated-not-found`)
            // can be removed too.
            let target = match (bundle, ch) {
                (Some(b), None) => Target { schema: declcfg::SCHEMA_BUNDLE, name: b.clone() },
                (None, Some(c)) => Target { schema: declcfg::SCHEMA_CHANNEL, name: c.clone() },
                _ => target(op, p, bundle, ch)?,
            };
            let found = find_deprecation(ctx, p, &target)?;
            let Some((doc, root, i)) = found else {
                return Err(EditError::refused(op, format!("{} is not deprecated", target.describe())));
            };
            Ok(vec![remove_deprecation_entry(&doc, &root, i)])
        }
        Operation::SetEdges { channel: c, bundle, replaces, skips, skip_range, .. } => {
            let ch = channel(p, c)?;
            let entry = ch.entry(bundle).ok_or_else(|| EditError::NoBundle {
                package: p.name.clone(),
                bundle: bundle.clone(),
                channel: Some(c.clone()),
            })?;
            let old = entry_edges(entry);
            let mut new = old.clone();
            if let Some(r) = replaces {
                new.replaces = r.clone();
            }
            if let Some(s) = skips {
                new.skips = s.clone();
            }
            if let Some(r) = skip_range {
                new.skip_range = r.clone();
            }
            if new.replaces == *bundle || new.skips.contains(bundle) {
                return Err(EditError::refused(op, format!("{bundle:?} cannot replace or skip itself")));
            }
            if new == old {
                return Err(EditError::refused(op, "the entry already has these edges"));
            }
            let (doc, root) = ctx.blob(ch.source.as_ref().expect("read channel"))?;
            Ok(set_entry_edges(&doc, &root, entry.index, &old, &new))
        }
        Operation::RenameChannel { channel: c, to, .. } => rename_channel(ctx, op, p, c, to),
        Operation::RemoveChannel { channel: c, .. } => remove_channel(ctx, op, p, c),
        Operation::Promote { bundle, channel: c, edge, .. } => {
            bundle_exists(p, bundle)?;
            let existing = p.channel(c).filter(|c| c.source.is_some());
            if existing.is_some_and(|ch| ch.entry(bundle).is_some()) {
                return Err(EditError::refused(op, format!("{bundle:?} is already in channel {c:?}")));
            }
            let version = p.bundle(bundle).and_then(|b| b.version.as_ref());
            let e = edges::choose(op, edge, &Lineup::of(p, existing), bundle, version)?;
            add_entry(ctx, p, existing, c, bundle, &e)
        }
        Operation::CreateChannel { channel: c, bundles, edge, .. } => create_channel(ctx, op, p, c, bundles, edge),
        Operation::RemoveBundle { bundle, .. } => remove_bundle(ctx, op, p, bundle),
        Operation::AddBundle { bundle, channels, edge, .. } => add_bundle(ctx, op, p, bundle, channels, edge),
    }
}

/// What a deprecation names.
struct Target {
    schema: &'static str,
    name: String,
}

impl Target {
    fn describe(&self) -> String {
        match self.schema {
            declcfg::SCHEMA_BUNDLE => format!("bundle {:?}", self.name),
            declcfg::SCHEMA_CHANNEL => format!("channel {:?}", self.name),
            _ => "the package".into(),
        }
    }

    fn out(&self) -> Out {
        if self.name.is_empty() {
            Out::map([("schema", Out::s(self.schema))])
        } else {
            Out::map([("schema", Out::s(self.schema)), ("name", Out::s(&self.name))])
        }
    }
}

fn target(op: &Operation, p: &Package, bundle: &Option<String>, ch: &Option<String>) -> Result<Target, EditError> {
    match (bundle, ch) {
        (Some(_), Some(_)) => {
            Err(EditError::Invalid { op: op.name().into(), reason: "name a bundle or a channel, not both".into() })
        }
        (Some(b), None) => {
            bundle_exists(p, b)?;
            Ok(Target { schema: declcfg::SCHEMA_BUNDLE, name: b.clone() })
        }
        (None, Some(c)) => {
            channel(p, c)?;
            Ok(Target { schema: declcfg::SCHEMA_CHANNEL, name: c.clone() })
        }
        (None, None) => Ok(Target { schema: declcfg::SCHEMA_PACKAGE, name: String::new() }),
    }
}

/// The package's `olm.deprecations` blob and the index of the entry naming `target`.
fn find_deprecation(
    ctx: &mut Ctx<'_>,
    p: &Package,
    target: &Target,
) -> Result<Option<(Rc<Doc>, Span, usize)>, EditError> {
    let blobs: Vec<_> = ctx.config.deprecations.iter().filter(|d| d.package.value == p.name).cloned().collect();
    for d in blobs {
        let i = d.entries.iter().position(|e| e.schema.value == target.schema && e.name.value == target.name);
        if let Some(i) = i {
            let (doc, root) = ctx.blob(&d.source)?;
            return Ok(Some((doc, root, i)));
        }
    }
    Ok(None)
}

fn deprecate(
    ctx: &mut Ctx<'_>,
    op: &Operation,
    p: &Package,
    target: &Target,
    message: &str,
) -> Result<Vec<TextEdit>, EditError> {
    if let Some((doc, root, i)) = find_deprecation(ctx, p, target)? {
        let entry = &root.member("entries").expect("entries").value.items()[i];
        let Some(m) = entry.member("message") else {
            return Ok(vec![doc.set_member(entry, "message", &Out::s(message))]);
        };
        if scalar_is(&doc, &m.value, message) {
            return Err(EditError::refused(
                op,
                format!("{} is already deprecated with this message", target.describe()),
            ));
        }
        return Ok(vec![doc.replace_scalar(&m.value, message)]);
    }
    let entry = Out::map([("reference", target.out()), ("message", Out::s(message))]);
    if let Some(d) = ctx.config.deprecations.iter().find(|d| d.package.value == p.name).cloned() {
        let (doc, root) = ctx.blob(&d.source)?;
        return Ok(vec![match root.member("entries") {
            Some(owner) if matches!(owner.value.kind, declcfg::SpanKind::Seq(_)) => doc.push_item(owner, &entry),
            _ => doc.set_member(&root, "entries", &Out::Seq(vec![entry])),
        }]);
    }
    let blob = Out::map([
        ("schema", Out::s(declcfg::SCHEMA_DEPRECATIONS)),
        ("package", Out::s(&p.name)),
        ("entries", Out::Seq(vec![entry])),
    ]);
    let doc = ctx.doc(&p.source.file)?;
    Ok(vec![doc.append_root(&blob)])
}

fn scalar_is(doc: &Doc, node: &Span, value: &str) -> bool {
    let text = &doc.text[node.start..node.end];
    text == value || serde_json::from_str::<String>(text).is_ok_and(|s| s == value)
}

/// Remove entry `i` of a deprecations blob, or the blob when it is the last.
fn remove_deprecation_entry(doc: &Doc, root: &Span, i: usize) -> TextEdit {
    let owner = root.member("entries").expect("entries");
    if owner.value.items().len() <= 1 {
        doc.remove_root(root)
    } else {
        doc.remove_item(owner, i)
    }
}

fn entry_edges(e: &model::Entry) -> Edges {
    Edges {
        replaces: e.replaces.value.clone(),
        skips: e.skips.iter().map(|s| s.value.clone()).collect(),
        skip_range: e.skip_range_text().to_string(),
    }
}

/// Edits setting entry `index` of a channel blob from `old` to `new` edges, key by key.
fn set_entry_edges(doc: &Doc, root: &Span, index: usize, old: &Edges, new: &Edges) -> Vec<TextEdit> {
    let entry = &root.member("entries").expect("entries").value.items()[index];
    let mut out = Vec::new();
    let mut set = |key: &str, changed: bool, empty: bool, value: Out| {
        if !changed {
            return;
        }
        if empty {
            out.extend(doc.remove_member(entry, key));
        } else {
            out.push(doc.set_member(entry, key, &value));
        }
    };
    set("replaces", old.replaces != new.replaces, new.replaces.is_empty(), Out::s(&new.replaces));
    let skips = Out::Seq(new.skips.iter().map(Out::s).collect());
    // Both may be appended at one place: in a file with sorted keys `skipRange` comes first.
    let range_first = doc.style.sorted;
    if range_first {
        set("skipRange", old.skip_range != new.skip_range, new.skip_range.is_empty(), Out::s(&new.skip_range));
    }
    set("skips", old.skips != new.skips, new.skips.is_empty(), skips);
    if !range_first {
        set("skipRange", old.skip_range != new.skip_range, new.skip_range.is_empty(), Out::s(&new.skip_range));
    }
    out
}

fn entry_out(name: &str, e: &Edges) -> Out {
    let mut m = vec![("name".to_string(), Out::s(name))];
    if !e.replaces.is_empty() {
        m.push(("replaces".into(), Out::s(&e.replaces)));
    }
    if !e.skips.is_empty() {
        m.push(("skips".into(), Out::Seq(e.skips.iter().map(Out::s).collect())));
    }
    if !e.skip_range.is_empty() {
        m.push(("skipRange".into(), Out::s(&e.skip_range)));
    }
    Out::Map(m)
}

/// An entry appended to `existing`, or a new channel blob holding only it.
fn add_entry(
    ctx: &mut Ctx<'_>,
    p: &Package,
    existing: Option<&Channel>,
    name: &str,
    bundle: &str,
    e: &Edges,
) -> Result<Vec<TextEdit>, EditError> {
    if let Some(ch) = existing {
        let (doc, root) = ctx.blob(ch.source.as_ref().expect("read channel"))?;
        let owner = root.member("entries").ok_or_else(|| EditError::Unreadable {
            file: doc.file.clone(),
            line: root.line,
            reason: "the channel has no entries list".into(),
        })?;
        return Ok(vec![doc.push_item(owner, &entry_out(bundle, e))]);
    }
    new_channel_blob(ctx, p, name, vec![entry_out(bundle, e)])
}

fn new_channel_blob(ctx: &mut Ctx<'_>, p: &Package, name: &str, entries: Vec<Out>) -> Result<Vec<TextEdit>, EditError> {
    let blob = Out::map([
        ("schema", Out::s(declcfg::SCHEMA_CHANNEL)),
        ("name", Out::s(name)),
        ("package", Out::s(&p.name)),
        ("entries", Out::Seq(entries)),
    ]);
    let file = p.channels_in_read_order().last().and_then(|c| c.source.as_ref()).unwrap_or(&p.source).file.to_string();
    Ok(vec![ctx.doc(&file)?.append_root(&blob)])
}

fn create_channel(
    ctx: &mut Ctx<'_>,
    op: &Operation,
    p: &Package,
    name: &str,
    bundles: &[String],
    policy: &EdgePolicy,
) -> Result<Vec<TextEdit>, EditError> {
    if p.channel(name).is_some_and(|c| c.source.is_some()) {
        return Err(EditError::refused(op, format!("channel {name:?} already exists")));
    }
    if name.is_empty() || bundles.is_empty() {
        return Err(EditError::Invalid { op: op.name().into(), reason: "a channel needs a name and a bundle".into() });
    }
    if matches!(policy, EdgePolicy::Explicit { .. }) && bundles.len() > 1 {
        let reason = "explicit edges name one entry's edges; give one bundle, then promote the others".into();
        return Err(EditError::Invalid { op: op.name().into(), reason });
    }
    let mut listed: Vec<(&str, Option<&crate::version::Version>)> = Vec::new();
    for b in bundles {
        bundle_exists(p, b)?;
        listed.push((b, p.bundle(b).and_then(|x| x.version.as_ref())));
    }
    listed.sort_by(|a, b| a.1.cmp(&b.1));
    let mut entries = Vec::new();
    let mut lineup = Lineup { entries: vec![], head: Ok(None) };
    for (n, v) in listed {
        let e = edges::choose(op, policy, &lineup, n, v)?;
        entries.push(entry_out(n, &e));
        lineup.entries.push((n, v));
        lineup.head = Ok(Some(n));
    }
    new_channel_blob(ctx, p, name, entries)
}

fn rename_channel(
    ctx: &mut Ctx<'_>,
    op: &Operation,
    p: &Package,
    c: &str,
    to: &str,
) -> Result<Vec<TextEdit>, EditError> {
    let ch = channel(p, c)?;
    if to.is_empty() || p.channel(to).is_some() {
        return Err(EditError::refused(op, format!("channel {to:?} already exists or is not a name")));
    }
    let (doc, root) = ctx.blob(ch.source.as_ref().expect("read channel"))?;
    let mut out = vec![doc.set_member(&root, "name", &Out::s(to))];
    if p.default_channel.value == c {
        let (doc, root) = ctx.blob(&p.source)?;
        out.push(doc.set_member(&root, "defaultChannel", &Out::s(to)));
    }
    let target = Target { schema: declcfg::SCHEMA_CHANNEL, name: c.to_string() };
    if let Some((doc, root, i)) = find_deprecation(ctx, p, &target)? {
        let reference = &root.member("entries").expect("entries").value.items()[i].member("reference");
        if let Some(r) = reference {
            out.push(doc.set_member(&r.value, "name", &Out::s(to)));
        }
    }
    Ok(out)
}

fn remove_channel(ctx: &mut Ctx<'_>, op: &Operation, p: &Package, c: &str) -> Result<Vec<TextEdit>, EditError> {
    let ch = channel(p, c)?;
    if p.default_channel.value == c {
        return Err(EditError::refused(op, format!("{c:?} is the default channel; set another default first")));
    }
    let orphans: Vec<String> = ch
        .entries
        .iter()
        .map(|e| e.name.value.clone())
        .filter(|b| !p.channels.iter().any(|o| o.name != c && o.entry(b).is_some()))
        .collect();
    if !orphans.is_empty() {
        let list = crate::gotext::join_capped(&orphans, ", ", 10);
        return Err(EditError::refused(op, format!("these bundles are in no other channel: {list}")));
    }
    let (doc, root) = ctx.blob(ch.source.as_ref().expect("read channel"))?;
    let mut out = vec![doc.remove_root(&root)];
    out.extend(undeprecate_quietly(ctx, p, declcfg::SCHEMA_CHANNEL, c)?);
    Ok(out)
}

/// Remove the deprecation of a removed thing, if any.
fn undeprecate_quietly(
    ctx: &mut Ctx<'_>,
    p: &Package,
    schema: &'static str,
    name: &str,
) -> Result<Option<TextEdit>, EditError> {
    let target = Target { schema, name: name.to_string() };
    Ok(find_deprecation(ctx, p, &target)?.map(|(doc, root, i)| remove_deprecation_entry(&doc, &root, i)))
}

fn remove_bundle(ctx: &mut Ctx<'_>, op: &Operation, p: &Package, name: &str) -> Result<Vec<TextEdit>, EditError> {
    // A name only entries list (an entry without a bundle) is removed from them, re-wired.
    let dangling = p.bundle(name).is_none() && p.channels.iter().any(|c| c.entry(name).is_some());
    if !dangling {
        bundle_exists(p, name)?;
    }
    let mut out = Vec::new();
    for ch in p.channels.iter().filter(|c| c.source.is_some()) {
        let Some(gone) = ch.entry(name) else { continue };
        if ch.entries.len() == 1 {
            return Err(EditError::refused(
                op,
                format!("{name:?} is the only entry of channel {:?}; remove the channel", ch.name),
            ));
        }
        if ch.head().is_ok_and(|h| h.name.value == name) {
            return Err(EditError::refused(
                op,
                format!("{name:?} is the head of channel {:?}; add or promote a newer bundle first", ch.name),
            ));
        }
        let (doc, root) = ctx.blob(ch.source.as_ref().expect("read channel"))?;
        let gone_edges = entry_edges(gone);
        for e in ch.entries.iter().filter(|e| e.name.value != name) {
            let old = entry_edges(e);
            let new = edges::rewire(&old, name, &gone_edges);
            out.extend(set_entry_edges(&doc, &root, e.index, &old, &new));
        }
        out.push(doc.remove_item(root.member("entries").expect("entries"), gone.index));
    }
    if let Some(b) = p.bundle(name) {
        let (doc, root) = ctx.blob(&b.source)?;
        out.push(doc.remove_root(&root));
    }
    out.extend(undeprecate_quietly(ctx, p, declcfg::SCHEMA_BUNDLE, name)?);
    Ok(out)
}

/// The blob a [`NewBundle`] describes, checked against the package.
pub(crate) fn bundle_blob_of(op: &Operation, p: &Package, nb: &NewBundle) -> Result<(String, Out), EditError> {
    let invalid = |reason: String| EditError::Invalid { op: op.name().into(), reason };
    let mut blob = match nb {
        NewBundle::Image { image, name, version } => {
            let value = Out::map([("packageName", Out::s(&p.name)), ("version", Out::s(version))]);
            return Ok((
                name.clone(),
                Out::map([
                    ("schema", Out::s(declcfg::SCHEMA_BUNDLE)),
                    ("name", Out::s(name)),
                    ("package", Out::s(&p.name)),
                    ("image", Out::s(image)),
                    ("properties", Out::Seq(vec![Out::map([("type", Out::s("olm.package")), ("value", value)])])),
                ]),
            ));
        }
        NewBundle::Blob { blob: serde_json::Value::String(text) } => {
            let docs = declcfg::read_documents("bundle", text.as_bytes());
            let first = docs.into_iter().next().ok_or_else(|| invalid("the blob is empty".into()))?;
            let node = first.map_err(|d| invalid(format!("the blob does not parse: {}", d.message)))?;
            Out::from_node(&node.value.ok_or_else(|| invalid("the blob is empty".into()))?)
        }
        NewBundle::Blob { blob } => out_of_json(blob),
    };
    let Out::Map(members) = &mut blob else { return Err(invalid("the blob is not an object".into())) };
    let get = |m: &Vec<(String, Out)>, k: &str| {
        m.iter().find(|(key, _)| key == k).and_then(|(_, v)| if let Out::Str(s) = v { Some(s.clone()) } else { None })
    };
    if get(members, "schema").as_deref() != Some(declcfg::SCHEMA_BUNDLE) {
        return Err(invalid("the blob's schema is not olm.bundle".into()));
    }
    match get(members, "package") {
        Some(pk) if pk != p.name => return Err(invalid(format!("the blob belongs to package {pk:?}"))),
        Some(_) => {}
        None => members.push(("package".into(), Out::s(&p.name))),
    }
    let name = get(members, "name").filter(|n| !n.is_empty()).ok_or_else(|| invalid("the blob has no name".into()))?;
    Ok((name, blob))
}

fn out_of_json(v: &serde_json::Value) -> Out {
    match v {
        serde_json::Value::String(s) => Out::s(s),
        serde_json::Value::Array(a) => Out::Seq(a.iter().map(out_of_json).collect()),
        serde_json::Value::Object(m) => Out::Map(m.iter().map(|(k, v)| (k.clone(), out_of_json(v))).collect()),
        other => Out::Lit(other.to_string()),
    }
}

/// Where a new bundle blob goes: its own file beside the others when each bundle has one, else
/// after the package's last bundle, else in the package's file.
fn bundle_file(ctx: &Ctx<'_>, p: &Package, name: &str) -> String {
    if ctx.basic_template {
        return p.source.file.to_string();
    }
    let Some(last) = p.bundles_in_order().last().map(|b| b.source.file.to_string()) else {
        return p.source.file.to_string();
    };
    let blobs_in = |f: &str| {
        if let Some(counts) = &ctx.blob_counts {
            return counts.get(f).copied().unwrap_or(0);
        }
        let c = ctx.config;
        c.packages.iter().filter(|x| &*x.source.file == f).count()
            + c.channels.iter().filter(|x| &*x.source.file == f).count()
            + c.bundles.iter().filter(|x| &*x.source.file == f).count()
            + c.deprecations.iter().filter(|x| &*x.source.file == f).count()
            + c.others.iter().filter(|x| &*x.source.file == f).count()
    };
    if p.bundles.len() > 1 && p.bundles.iter().all(|b| blobs_in(&b.source.file) == 1) {
        let (dir, ext) =
            (last.rsplit_once('/').map_or("", |(d, _)| d), last.rsplit_once('.').map_or("yaml", |(_, e)| e));
        let file = format!("{name}.{ext}");
        return if dir.is_empty() { file } else { format!("{dir}/{file}") };
    }
    last
}

trait InOrder {
    fn bundles_in_order(&self) -> Vec<&model::Bundle>;
}

impl InOrder for Package {
    fn bundles_in_order(&self) -> Vec<&model::Bundle> {
        let mut v: Vec<&model::Bundle> = self.bundles.iter().collect();
        v.sort_by_key(|b| b.order);
        v
    }
}

fn add_bundle(
    ctx: &mut Ctx<'_>,
    op: &Operation,
    p: &Package,
    nb: &NewBundle,
    channels: &[String],
    policy: &EdgePolicy,
) -> Result<Vec<TextEdit>, EditError> {
    if channels.is_empty() {
        return Err(EditError::Invalid { op: op.name().into(), reason: "name at least one channel".into() });
    }
    let (name, blob) = bundle_blob_of(op, p, nb)?;
    if p.bundle(&name).is_some() {
        return Err(EditError::refused(op, format!("bundle {name:?} already exists; promote it instead")));
    }
    let version = new_bundle_version(p, &name, &blob);
    let file = bundle_file(ctx, p, &name);
    let written = if ctx.basic_template {
        let image = image_of(&blob).ok_or_else(|| EditError::Invalid {
            op: op.name().into(),
            reason: "a template names its bundles by image; the bundle has none".into(),
        })?;
        ctx.new_bundles.push(blob);
        Out::map([("schema", Out::s(declcfg::SCHEMA_BUNDLE)), ("image", Out::s(image))])
    } else {
        blob
    };
    let blob_edit = ctx.doc(&file)?.append_root(&written);
    let mut out = vec![blob_edit];
    for c in channels {
        let existing = p.channel(c).filter(|x| x.source.is_some());
        let e = edges::choose(op, policy, &Lineup::of(p, existing), &name, version.as_ref())?;
        out.extend(add_entry(ctx, p, existing, c, &name, &e)?);
    }
    Ok(out)
}

/// The `image` of a new bundle blob.
pub(crate) fn image_of(blob: &Out) -> Option<String> {
    let Out::Map(m) = blob else { return None };
    m.iter()
        .find(|(k, _)| k == "image")
        .and_then(|(_, v)| if let Out::Str(s) = v { Some(s.clone()) } else { None })
        .filter(|s| !s.is_empty())
}

/// The version of a new bundle, read the way every version is: through the model of a catalog
/// holding only the package, one channel and the bundle.
pub(crate) fn new_bundle_version(p: &Package, name: &str, blob: &Out) -> Option<crate::version::Version> {
    let package = Out::map([
        ("schema", Out::s(declcfg::SCHEMA_PACKAGE)),
        ("name", Out::s(&p.name)),
        ("defaultChannel", Out::s("c")),
    ]);
    let channel = Out::map([
        ("schema", Out::s(declcfg::SCHEMA_CHANNEL)),
        ("package", Out::s(&p.name)),
        ("name", Out::s("c")),
        ("entries", Out::Seq(vec![Out::map([("name", Out::s(name))])])),
    ]);
    let text: String = [package, channel, blob.clone()].iter().map(|o| super::emit::flow(o) + "\n").collect();
    let (model, _) = model::build(&declcfg::load_files(&[FileInput::new("new.json", text)]).config);
    model.package(&p.name)?.bundle(name)?.version.clone()
}

/// A new bundle blob as the templates layer takes it: an `olm.bundle` located in a file of its own.
pub(crate) fn rendered_bundle(blob: &Out) -> Option<crate::render::RenderedBundle> {
    let text = super::emit::flow(blob);
    let loaded = declcfg::load_files(&[FileInput::new("new-bundle.json", text)]);
    let b = loaded.config.bundles.into_iter().next()?;
    Some(crate::render::RenderedBundle {
        csv: declcfg::embedded_csv(&b.properties).map(|(_, csv)| csv),
        blob: b,
        annotations: crate::render::Annotations::default(),
    })
}
