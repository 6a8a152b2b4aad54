//! The read-only requests: hover, definition, references, completion, document and workspace
//! symbols, each over the [`index`](crate::index) of names and the catalog's model.

use std::fmt::Write;

use lsp_types::{
    CompletionItem, CompletionItemKind, DocumentSymbol, Hover, HoverContents, Location, MarkupContent, MarkupKind,
    Position, SymbolInformation, SymbolKind,
};

use crate::convert::{contains, Lines};
use crate::graph::{upgrade_path, Semantics, Start};
use crate::index::{Kind, Occurrence, Target};
use crate::model::{Channel, Package};
use crate::workspace::Workspace;

/// The name at `pos` in file `path`, with its range.
pub fn at(ws: &mut Workspace, path: &str, pos: Position) -> Option<(Occurrence, lsp_types::Range)> {
    let text = ws.text(path)?;
    let lines = Lines::new(&text);
    let found = ws.names_in(path);
    found.into_iter().map(|o| (lines.token(o.pos), o)).find(|(r, _)| contains(r, pos)).map(|(r, o)| (o, r))
}

/// The location of occurrence `o`.
pub fn location(ws: &Workspace, o: &Occurrence) -> Option<Location> {
    let text = ws.text(&o.file)?;
    Some(Location { uri: ws.uri(&o.file)?, range: Lines::new(&text).token(o.pos) })
}

/// Every occurrence naming `target` (its definitions first when `declarations`).
pub fn occurrences_of(ws: &mut Workspace, target: &Target, declarations: bool) -> Vec<Occurrence> {
    let package = match target {
        Target::Package(p) | Target::Channel(p, _) | Target::Bundle(p, _) => p.clone(),
    };
    let all = ws.names_of(&package);
    let mut found: Vec<Occurrence> =
        all.iter().filter(|o| o.target() == Some(target) && (declarations || !o.defines(target))).cloned().collect();
    found.sort_by_key(|o| !o.defines(target));
    found
}

/// Go to definition: the blob a name names.
pub fn definition(ws: &mut Workspace, path: &str, pos: Position) -> Vec<Location> {
    if ws.templates().is_template(path) {
        return template_bundle(ws, path, pos).and_then(|(b, _)| bundle_location(ws, &b)).into_iter().collect();
    }
    let Some((o, _)) = at(ws, path, pos) else { return Vec::new() };
    let Some(target) = o.target().cloned() else { return Vec::new() };
    let defs: Vec<Occurrence> = occurrences_of(ws, &target, true).into_iter().filter(|d| d.defines(&target)).collect();
    defs.iter().filter_map(|d| location(ws, d)).collect()
}

/// The bundle a template's image under `pos` names, among the template's sources.
fn template_bundle(ws: &Workspace, path: &str, pos: Position) -> Option<(crate::declcfg::Bundle, lsp_types::Range)> {
    let (image, range) = crate::templates::image_at(&ws.text(path)?, pos)?;
    let source = ws.templates().source(ws.session());
    Some((source.get(&image)?.blob.clone(), range))
}

/// Where bundle blob `b` (of a template's source) names itself.
fn bundle_location(ws: &Workspace, b: &crate::declcfg::Bundle) -> Option<Location> {
    let file = b.source.file.to_string();
    let text = ws.text(&file).or_else(|| std::fs::read_to_string(ws.root().join(&file)).ok())?;
    Some(Location { uri: ws.uri(&file)?, range: Lines::new(&text).token(b.name.pos) })
}

/// Find references: every name naming what the name at `pos` names.
pub fn references(ws: &mut Workspace, path: &str, pos: Position, declarations: bool) -> Vec<Location> {
    let Some((o, _)) = at(ws, path, pos) else { return Vec::new() };
    let Some(target) = o.target().cloned() else { return Vec::new() };
    let found = occurrences_of(ws, &target, declarations);
    found.iter().filter_map(|d| location(ws, d)).collect()
}

/// Hover: what the name at `pos` is.
pub fn hover(ws: &mut Workspace, path: &str, pos: Position) -> Option<Hover> {
    if ws.templates().is_template(path) {
        let (b, range) = template_bundle(ws, path, pos)?;
        let model = ws.session().model();
        let version = model.package(&b.package.value).and_then(|p| p.bundle(&b.name.value)?.version.clone());
        let mut value = format!("**{}** — bundle of package `{}`\n\n", b.name.value, b.package.value);
        if let Some(v) = version {
            let _ = writeln!(value, "- version: {v}");
        }
        let _ = write!(value, "- image: `{}`\n- from: {}", b.image.value, b.source.file);
        let contents = HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value });
        return Some(Hover { contents, range: Some(range) });
    }
    let (o, range) = at(ws, path, pos)?;
    let model = ws.session().model();
    let text = match &o.kind {
        Kind::Definition(t) | Kind::Reference(t, _) => match t {
            Target::Package(p) => package_hover(model.package(p)?),
            Target::Channel(p, c) => channel_hover(model.package(p)?, c),
            Target::Bundle(p, b) => bundle_hover(model.package(p)?, b),
        },
        Kind::SkipRange(p, c, e) => skip_range_hover(model.package(p)?, c, e)?,
        Kind::Property(p, b, i) => property_hover(model.package(p)?, b, *i)?,
    };
    let contents = HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: text });
    Some(Hover { contents, range: Some(range) })
}

fn package_hover(p: &Package) -> String {
    let mut s = format!("**package** `{}`\n\n", p.name);
    let _ = writeln!(s, "- default channel: `{}`", p.default_channel.value);
    let channels: Vec<String> = p.channels.iter().map(|c| format!("`{}`", c.name)).collect();
    let _ = writeln!(s, "- channels: {}", channels.join(", "));
    let _ = writeln!(s, "- bundles: {}", p.bundles.len());
    if let Some(d) = &p.deprecation {
        let _ = writeln!(s, "- **deprecated**: {}", d.message.value);
    }
    s
}

fn channel_hover(p: &Package, name: &str) -> String {
    let mut s = format!("**channel** `{name}` of `{}`\n\n", p.name);
    let Some(c) = p.channel(name) else {
        s.push_str("- no such channel\n");
        return s;
    };
    let _ = writeln!(s, "- entries: {}", c.entries.len());
    match c.head() {
        Ok(h) => {
            let _ = writeln!(s, "- head: `{}`", h.name.value);
        }
        Err(e) => {
            let _ = writeln!(s, "- no head: {e}");
        }
    }
    if p.default_channel.value == name {
        s.push_str("- the default channel\n");
    }
    if let Some(d) = &c.deprecation {
        let _ = writeln!(s, "- **deprecated**: {}", d.message.value);
    }
    s
}

/// A bundle: version, channels, deprecation, and the OLM v0 and v1 path to each channel's head.
fn bundle_hover(p: &Package, name: &str) -> String {
    let mut s = format!("**bundle** `{name}` of `{}`\n\n", p.name);
    match p.bundle(name) {
        Some(b) => {
            let _ = writeln!(s, "- version: `{}`", b.version_string().unwrap_or_else(|| "unknown".into()));
            let _ = writeln!(s, "- image: `{}`", b.image.value);
            if let Some(d) = &b.deprecation {
                let _ = writeln!(s, "- **deprecated**: {}", d.message.value);
            }
        }
        None => s.push_str("- no bundle of this name\n"),
    }
    let channels: Vec<&Channel> = p.channels.iter().filter(|c| c.entry(name).is_some()).collect();
    let names: Vec<String> = channels.iter().map(|c| format!("`{}`", c.name)).collect();
    let _ = writeln!(s, "- channels: {}", if names.is_empty() { "none".into() } else { names.join(", ") });
    for c in channels {
        if let Some(d) = &c.deprecation {
            let _ = writeln!(s, "- channel `{}` is **deprecated**: {}", c.name, d.message.value);
        }
        for (label, semantics) in [("OLM v0", Semantics::V0), ("OLM v1", Semantics::V1)] {
            let _ = writeln!(s, "- {label} path to the head of `{}`: {}", c.name, path_text(p, c, name, semantics));
        }
    }
    s
}

/// `a → b → c`, `already the head`, or why no path reaches the head.
fn path_text(p: &Package, c: &Channel, name: &str, semantics: Semantics) -> String {
    match upgrade_path(p, c, &Start::Bundle(name.to_string()), semantics) {
        Ok(path) if path.stranded => format!("stranded ({})", path.reason.unwrap_or_default()),
        Ok(path) if path.steps.is_empty() => "already the head".to_string(),
        Ok(path) => {
            let mut names = vec![format!("`{name}`")];
            names.extend(path.steps.iter().map(|s| format!("`{}`", s.to)));
            names.join(" → ")
        }
        Err(e) => format!("none ({e})"),
    }
}

/// A skipRange: the versions it covers, among the package's bundles.
fn skip_range_hover(p: &Package, channel: &str, entry: &str) -> Option<String> {
    let e = p.channel(channel)?.entry(entry)?;
    let sr = e.skip_range.as_ref()?;
    let mut s = format!("**skipRange** `{}` of `{entry}`\n\n", sr.text.value);
    let range = match &sr.range {
        Ok(r) => r,
        Err(err) => return Some(format!("{s}- invalid: {err}\n")),
    };
    let mut covered: Vec<(&crate::version::Version, &str)> = p
        .bundles
        .iter()
        .filter_map(|b| Some((b.version.as_ref()?, b.name.value.as_str())))
        .filter(|(v, _)| range.contains(v))
        .collect();
    covered.sort();
    let _ = writeln!(s, "- covers {} version(s) of the package's bundles", covered.len());
    for (v, n) in covered.iter().take(30) {
        let _ = writeln!(s, "  - `{v}` (`{n}`)");
    }
    if covered.len() > 30 {
        let _ = writeln!(s, "  - … {} more", covered.len() - 30);
    }
    Some(s)
}

/// What each property type means.
pub const PROPERTY_TYPES: &[(&str, &str)] = &[
    ("olm.package", "the bundle's package, version and release"),
    ("olm.package.required", "a dependency on a package within a version range"),
    ("olm.gvk", "an API (group, version, kind) the bundle provides"),
    ("olm.gvk.required", "an API the bundle needs another bundle to provide"),
    ("olm.label", "a label the bundle carries"),
    ("olm.label.required", "a label a dependency must carry"),
    ("olm.bundle.object", "a manifest of the bundle, embedded as base64"),
    ("olm.csv.metadata", "the ClusterServiceVersion's metadata, in place of the embedded CSV"),
    ("olm.constraint", "a generic dependency: GVK, package, CEL or compound"),
    ("olm.deprecated", "the legacy deprecation marker"),
    ("olm.channel", "the channel a bundle was rendered from (internal use)"),
];

/// A property: what its type means and its value as read into the model.
fn property_hover(p: &Package, bundle: &str, index: usize) -> Option<String> {
    let b = p.bundle(bundle)?;
    let raw = b.raw_properties.get(index)?;
    let ty = raw.type_.value.as_str();
    let meaning =
        PROPERTY_TYPES.iter().find(|(t, _)| *t == ty).map_or("a property type OLM does not define", |(_, m)| m);
    let mut s = format!("**property** `{ty}`: {meaning}\n\n");
    match b.properties.iter().find(|(i, _)| *i == index) {
        Some((_, parsed)) => {
            let mut value = format!("{parsed:#?}");
            if value.len() > 1500 {
                let cut = (0..=1500).rev().find(|i| value.is_char_boundary(*i)).unwrap_or(0);
                value.truncate(cut);
                value.push_str("\n…");
            }
            let _ = write!(s, "parsed value:\n```\n{value}\n```\n");
        }
        None => s.push_str("not read into the model (see this bundle's findings)\n"),
    }
    Some(s)
}

/// The schema names a blob may have.
pub const SCHEMAS: &[&str] = &["olm.package", "olm.channel", "olm.bundle", "olm.deprecations"];

/// What is asked for at a cursor: the key of its line (`replaces`, `- name`, …) or the list it
/// is an item of.
fn key_at(lines: &Lines<'_>, pos: Position) -> Option<String> {
    let line = lines.line(pos.line);
    let cut = lines.offset(pos) - lines.offset(Position::new(pos.line, 0));
    let before = &line[..cut.min(line.len())];
    let item = before.trim_start().starts_with('-');
    let clean = |k: &str| k.trim().trim_start_matches(['-', '{', ',', ' ']).trim().trim_matches('"').to_string();
    if let Some((key, _)) = before.rsplit_once(':') {
        let key = clean(key.rsplit([',', '{']).next().unwrap_or(key));
        return Some(if item && key == "name" { "- name".to_string() } else { key });
    }
    if !item {
        return None;
    }
    // A list item: the key of the first line above indented less.
    let indent = line.len() - line.trim_start().len();
    (0..pos.line).rev().map(|l| lines.line(l)).find_map(|l| {
        let t = l.trim_start();
        let shallower =
            !t.is_empty() && l.len() - t.len() < indent || (l.len() - t.len() == indent && !t.starts_with('-'));
        shallower.then(|| clean(t.trim_end().trim_end_matches(':')))
    })
}

/// Completion: bundle names after `replaces`, `skips` and entry names; channel names after
/// `defaultChannel` and `channel`; property types after `type`; schema names after `schema`.
pub fn completion(ws: &mut Workspace, path: &str, pos: Position) -> Vec<CompletionItem> {
    let Some(text) = ws.text(path) else { return Vec::new() };
    let Some(key) = key_at(&Lines::new(&text), pos) else { return Vec::new() };
    let model = ws.session().model();
    let packages: Vec<&Package> =
        ws.session().session().file_packages(path).iter().filter_map(|n| model.package(n)).collect();
    let item = |label: &str, kind, detail: String| CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: Some(detail),
        ..CompletionItem::default()
    };
    match key.as_str() {
        "replaces" | "skips" | "- name" => packages
            .iter()
            .flat_map(|p| p.bundles.iter())
            .map(|b| item(&b.name.value, CompletionItemKind::VALUE, b.version_string().unwrap_or_default()))
            .collect(),
        "defaultChannel" | "channel" => packages
            .iter()
            .flat_map(|p| p.channels.iter().map(move |c| (p, c)))
            .map(|(p, c)| item(&c.name, CompletionItemKind::ENUM_MEMBER, format!("channel of {}", p.name)))
            .collect(),
        "type" => PROPERTY_TYPES.iter().map(|(t, m)| item(t, CompletionItemKind::ENUM_MEMBER, m.to_string())).collect(),
        "schema" => SCHEMAS.iter().map(|s| item(s, CompletionItemKind::ENUM_MEMBER, "schema".into())).collect(),
        _ => Vec::new(),
    }
}

/// Document symbols: each package of the file (when its blob is there) holding its channels
/// (holding their entries) and bundles; channels and bundles of a package blob elsewhere at the
/// top. A symbol's range runs over its children's.
pub fn document_symbols(ws: &mut Workspace, path: &str) -> Vec<DocumentSymbol> {
    let Some(text) = ws.text(path) else { return Vec::new() };
    let lines = Lines::new(&text);
    let found = ws.names_in(path);
    let symbol = |o: &Occurrence, kind, children: Vec<DocumentSymbol>| {
        let range = lines.token(o.pos);
        let mut range_all = range;
        for c in &children {
            range_all.start = range_all.start.min(c.range.start);
            range_all.end = range_all.end.max(c.range.end);
        }
        #[allow(deprecated)]
        DocumentSymbol {
            name: o.text.clone(),
            detail: None,
            kind,
            tags: None,
            deprecated: None,
            range: range_all,
            selection_range: range,
            children: (!children.is_empty()).then_some(children),
        }
    };
    let mut packages: Vec<(&Occurrence, Vec<DocumentSymbol>)> = Vec::new();
    let mut items: Vec<(&str, DocumentSymbol)> = Vec::new();
    for o in &found {
        match &o.kind {
            Kind::Definition(Target::Package(_)) => packages.push((o, Vec::new())),
            Kind::Definition(Target::Channel(p, c)) => {
                let entries = found.iter().filter(|e| is_entry_of(e, p, c));
                let entries = entries.map(|e| symbol(e, SymbolKind::ENUM_MEMBER, Vec::new())).collect();
                items.push((p, symbol(o, SymbolKind::ENUM, entries)));
            }
            Kind::Definition(Target::Bundle(p, _)) => items.push((p, symbol(o, SymbolKind::OBJECT, Vec::new()))),
            _ => {}
        }
    }
    let mut top = Vec::new();
    for (package, item) in items {
        match packages.iter_mut().find(|(o, _)| o.text == package) {
            Some((_, children)) => children.push(item),
            None => top.push(item),
        }
    }
    let mut out: Vec<DocumentSymbol> =
        packages.into_iter().map(|(o, children)| symbol(o, SymbolKind::PACKAGE, children)).collect();
    out.extend(top);
    out
}

/// Whether `o` is the name of an entry of channel `channel` of package `package`.
fn is_entry_of(o: &Occurrence, package: &str, channel: &str) -> bool {
    matches!(&o.kind, Kind::Reference(Target::Bundle(p, _), "name") if p == package)
        && o.channel.as_deref() == Some(channel)
}

/// Workspace symbols: every package, channel and bundle whose name contains `query`.
pub fn workspace_symbols(ws: &mut Workspace, query: &str) -> Vec<SymbolInformation> {
    let query = query.to_lowercase();
    let mut out = Vec::new();
    for package in ws.all_names() {
        for o in package.iter() {
            let (kind, container) = match &o.kind {
                Kind::Definition(Target::Package(_)) => (SymbolKind::PACKAGE, None),
                Kind::Definition(Target::Channel(p, _)) => (SymbolKind::ENUM, Some(p.clone())),
                Kind::Definition(Target::Bundle(p, _)) => (SymbolKind::OBJECT, Some(p.clone())),
                _ => continue,
            };
            if !o.text.to_lowercase().contains(&query) {
                continue;
            }
            let Some(location) = location(ws, o) else { continue };
            #[allow(deprecated)]
            out.push(SymbolInformation {
                name: o.text.clone(),
                kind,
                tags: None,
                deprecated: None,
                location,
                container_name: container,
            });
            if out.len() >= 1000 {
                return out;
            }
        }
    }
    out
}
