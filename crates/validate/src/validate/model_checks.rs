//! opm's aggregated model validation (package, channel and bundle checks), producing both the
//! error tree opm prints and one located [`Diagnostic`] per finding.
//!
//! opm visits a package's channels and a channel's bundles in Go map order, which differs from
//! run to run; the tree holds the order opm prints most often ([`go_map_order`]): channels
//! placed by the order their blobs were read in (a synthesized default channel last), bundles
//! by the order of the channel's entries. Findings are made visiting channels and entries by
//! name.
//!
//! The tree also holds opm's *phantom bundles*: opm turns every channel entry into a model bundle
//! before it reads the `olm.bundle` blobs, so an entry naming no bundle stays in the model as an
//! empty bundle (no properties, no image, version 0.0.0) when opm's dangling-entry check misses
//! it (fbc.md §3.2, §9.1). Its model errors are in the tree, which is what opm prints then; they
//! are not diagnostics (the entry is reported once, as `entry-without-bundle`), except the
//! entry's own `skips` and `skipRange` problems.

use crate::hash::{HashMap, HashMapExt};
use std::collections::{BTreeMap, BTreeSet};

use super::error_tree::ErrorTree;
use crate::diagnostic::{Code, Diagnostic, Location};
use crate::gotext::{join_counted, quote as q, OPM_LIST_CAP};
use crate::model::{Bundle, ChainError, Channel, Entry, Package};

struct Ctx<'a, 'p> {
    /// The labels of the nodes from the package down to the one being checked.
    chain: Vec<Label<'p>>,
    diags: &'a mut Vec<Diagnostic>,
}

impl Ctx<'_, '_> {
    fn report(&mut self, tree: &mut ErrorTree, code: Code, leaf: String, loc: Location, emit: bool) {
        if emit {
            let message = self.message(&leaf);
            self.diags.push(Diagnostic::error(code, message, loc));
        }
        tree.leaf(leaf);
    }

    /// `leaf` under the labels of the chain, as opm joins them (`invalid package "p": …`).
    fn message(&self, leaf: &str) -> String {
        use std::fmt::Write as _;
        let mut message = String::new();
        for label in &self.chain {
            let _ = write!(message, "{label}: ");
        }
        message.push_str(leaf);
        message
    }
}

/// The label of a node of opm's error tree, formatted only when something below it is found:
/// most packages, channels and bundles have nothing to say.
#[derive(Clone, Copy)]
enum Label<'p> {
    Package(&'p str),
    Channel(&'p str),
    Bundle(&'p str),
}

impl std::fmt::Display for Label<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (what, name) = match self {
            Label::Package(n) => ("package", n),
            Label::Channel(n) => ("channel", n),
            Label::Bundle(n) => ("bundle", n),
        };
        write!(f, "invalid {what} {}", q(name))
    }
}

/// `tree` (made with an empty label) labelled `label` when it holds anything; an empty tree is
/// left out of its parent, label and all.
fn labelled(mut tree: ErrorTree, label: Label<'_>) -> ErrorTree {
    if !tree.is_empty() {
        tree.label = label.to_string();
    }
    tree
}

/// The edit for a package without a default channel: the channel to name, or the choice.
fn default_channel_fix(p: &Package) -> Option<String> {
    let names: Vec<String> = p.channels.iter().map(|c| q(&c.name)).collect();
    match names.as_slice() {
        [] => None,
        [one] => Some(format!("set defaultChannel to {one}, the package's only channel")),
        _ => Some(format!("set defaultChannel to one of {}", crate::gotext::join_capped(&names, ", ", 10))),
    }
}

/// One package's checks: its subtree of the error tree, findings appended to `diags`.
pub fn package(p: &Package, diags: &mut Vec<Diagnostic>) -> ErrorTree {
    let label = Label::Package(&p.name);
    let mut tree = ErrorTree::new(String::new());
    let mut ctx = Ctx { chain: vec![label], diags };
    if p.default_channel.value.is_empty() {
        let loc = p.source.at(p.default_channel.pos, "/defaultChannel");
        ctx.report(&mut tree, Code::DefaultChannelUnset, "default channel must be set".into(), loc.clone(), true);
        if let (Some(d), Some(note)) = (ctx.diags.last_mut(), default_channel_fix(p)) {
            d.related.push(crate::diagnostic::Related { message: note, location: loc });
        }
    }
    if p.channels.is_empty() {
        ctx.report(
            &mut tree,
            Code::PackageNoChannels,
            "package must contain at least one channel".into(),
            p.source.blob(),
            true,
        );
    }
    // Bundle-blob findings are shown once, under the first channel (by name) that lists the bundle.
    let mut shown: BTreeSet<usize> = BTreeSet::new();
    let trees: Vec<(usize, ErrorTree)> =
        p.channels.iter().map(|c| (c.order, channel(p, c, &mut ctx, &mut shown))).collect();
    // Each channel's slot in opm's map: its place in read order.
    let mut read_order: Vec<usize> = trees.iter().map(|(order, _)| *order).collect();
    crate::sort::sort(&mut read_order);
    let slotted = trees
        .into_iter()
        .filter(|(_, t)| !t.is_empty())
        .map(|(order, t)| (read_order.binary_search(&order).unwrap_or(0), t))
        .collect();
    for t in go_map_order(p.channels.len(), slotted) {
        tree.child(t);
    }
    duplicate_versions(p, &mut tree, &mut ctx);
    if let Some(d) = &p.deprecation {
        if d.message.value.is_empty() {
            let loc = d.source.at(d.message.pos, format!("/entries/{}/message", d.entry));
            ctx.report(
                &mut tree,
                Code::EmptyDeprecationMessage,
                "invalid deprecation: message must be set".into(),
                loc,
                true,
            );
        }
    }
    labelled(tree, label)
}

/// The values of the keys of a Go map that opm prints (those with something to say), in the
/// order a `range` over the map yields them most often. `keys` is the number of keys in the map
/// and each item's slot its key's place in insertion order.
///
/// A map of at most 8 keys holds them in one group of 8 slots, in insertion order; `range`
/// starts at a random one of the 8 slots and wraps around. So the items come out as a rotation
/// of their insertion order, starting at the item after the largest gap of slots (counted
/// around the ring of 8) with probability `gap / 8`: that rotation is returned (the first in
/// insertion order among equal gaps). Beyond 8 keys Go's order follows the map's random hash
/// seed; the insertion order is returned.
pub(super) fn go_map_order<T>(keys: usize, mut items: Vec<(usize, T)>) -> Vec<T> {
    const SLOTS: usize = 8;
    crate::sort::sort_by_key(&mut items, |(slot, _)| *slot);
    let start = if keys <= SLOTS && items.len() > 1 {
        let gap = |m: usize| {
            let before = if m == 0 { items[items.len() - 1].0 } else { items[m - 1].0 };
            (items[m].0 + SLOTS - before - 1) % SLOTS + 1
        };
        (0..items.len()).fold(0, |best, m| if gap(m) > gap(best) { m } else { best })
    } else {
        0
    };
    items.rotate_left(start);
    items.into_iter().map(|(_, t)| t).collect()
}

/// The version string opm gives a phantom bundle (its zero version).
const PHANTOM_VERSION: &str = "0.0.0";

fn duplicate_versions(p: &Package, tree: &mut ErrorTree, ctx: &mut Ctx<'_, '_>) {
    let mut by_version: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    // Names of phantom bundles (entries naming no bundle), all at opm's zero version.
    let mut phantoms: BTreeSet<&str> = BTreeSet::new();
    for c in &p.channels {
        for e in &c.entries {
            match e.bundle {
                Some(bi) => {
                    if let Some(v) = p.bundles.get(bi).and_then(Bundle::version_string) {
                        by_version.entry(v).or_default().insert(bi);
                    }
                }
                None => {
                    phantoms.insert(e.name.value.as_str());
                }
            }
        }
    }
    if phantoms.is_empty() && by_version.values().all(|bs| bs.len() < 2) {
        return;
    }
    // Bundle names by version string: the real bundles, then with opm's phantoms at 0.0.0.
    let real: BTreeMap<&str, BTreeSet<&str>> = crate::sort::btree_map(by_version.iter().map(|(v, bs)| {
        (v.as_str(), crate::sort::btree_set(bs.iter().filter_map(|&i| p.bundles.get(i)).map(|b| b.name.value.as_str())))
    }));
    let mut with_phantoms = real.clone();
    if !phantoms.is_empty() {
        with_phantoms.entry(PHANTOM_VERSION).or_default().extend(phantoms.iter().copied());
    }
    // The tree holds what opm prints; the diagnostic is about real bundles only.
    if let Some(leaf) = duplicate_versions_message(&with_phantoms) {
        tree.leaf(leaf);
    }
    let Some(leaf) = duplicate_versions_message(&real) else { return };
    let dups: Vec<(&String, Vec<&Bundle>)> = by_version
        .iter()
        .filter(|(_, b)| b.len() > 1)
        .map(|(v, b)| {
            let mut bs: Vec<&Bundle> = b.iter().filter_map(|&i| p.bundles.get(i)).collect();
            crate::sort::sort_by(&mut bs, |a, b| a.name.value.cmp(&b.name.value));
            (v, bs)
        })
        .collect();
    let first = dups[0].1[0];
    let message = ctx.message(&leaf);
    let mut d = Diagnostic::error(Code::DuplicateVersions, message, first.source.at(first.name.pos, "/name"));
    for (v, bs) in &dups {
        for b in bs {
            d = d.with_related(format!("version {v}"), b.source.at(b.name.pos, "/name"));
        }
    }
    ctx.diags.push(d);
}

/// opm's `duplicate versions found in bundles: [{<version>: [<names>]} ...]`, versions sorted as
/// strings and names sorted, for every version held by more than one bundle name (at most
/// [`OPM_LIST_CAP`] versions, and names of each).
fn duplicate_versions_message(by_version: &BTreeMap<&str, BTreeSet<&str>>) -> Option<String> {
    let dups: Vec<(&&str, &BTreeSet<&str>)> = by_version.iter().filter(|(_, names)| names.len() > 1).collect();
    let items = dups
        .iter()
        .take(OPM_LIST_CAP)
        .map(|(v, names)| format!("{{{v}: [{}]}}", join_counted(names.iter().take(OPM_LIST_CAP), names.len(), ", ")));
    let items = join_counted(items, dups.len(), " ");
    (!dups.is_empty()).then(|| format!("duplicate versions found in bundles: [{items}]"))
}

fn channel<'p>(p: &'p Package, c: &'p Channel, ctx: &mut Ctx<'_, 'p>, shown: &mut BTreeSet<usize>) -> ErrorTree {
    let label = Label::Channel(&c.name);
    let mut tree = ErrorTree::new(String::new());
    ctx.chain.push(label);
    let blob = match &c.source {
        Some(s) => s.blob(),
        None => p.source.at(p.default_channel.pos, "/defaultChannel"),
    };
    if c.entries.is_empty() {
        ctx.report(
            &mut tree,
            Code::EmptyChannel,
            "channel must contain at least one bundle".into(),
            blob.clone(),
            true,
        );
    } else if let Err(e) = c.validate_replaces_chain() {
        let (code, loc, related) = chain_location(c, &e, blob);
        let leaf = e.to_string();
        let mut d = Diagnostic::error(code, ctx.message(&leaf), loc);
        for (note, r) in chain_notes(p, c, &e, related) {
            d = d.with_related(note, r);
        }
        ctx.diags.push(d);
        tree.leaf(leaf);
    }
    let mut entries: Vec<&Entry> = c.entries.iter().collect();
    crate::sort::sort_by(&mut entries, |a, b| a.name.value.cmp(&b.name.value));
    let mut bundles: Vec<(usize, ErrorTree)> = Vec::with_capacity(entries.len());
    for e in entries {
        let t = match e.bundle.and_then(|bi| p.bundles.get(bi).map(|b| (bi, b))) {
            Some((bi, b)) => {
                let first_time = shown.insert(bi);
                bundle(p, c, e, b, ctx, first_time)
            }
            None => phantom_bundle(c, e, ctx),
        };
        if !t.is_empty() {
            bundles.push((e.index, t));
        }
    }
    // Each bundle's slot in opm's map: its entry's place in the channel.
    for t in go_map_order(c.entries.len(), bundles) {
        tree.child(t);
    }
    if let Some(d) = &c.deprecation {
        if d.message.value.is_empty() {
            let loc = d.source.at(d.message.pos, format!("/entries/{}/message", d.entry));
            ctx.report(
                &mut tree,
                Code::EmptyDeprecationMessage,
                "invalid deprecation: message must be set".into(),
                loc,
                true,
            );
        }
    }
    ctx.chain.pop();
    labelled(tree, label)
}

/// The notes of a replaces-chain error, each with the edit that fixes it: every other head is to
/// be skipped by the highest; each stranded entry, by the head; the edge of a cycle that goes to
/// a higher version, removed. `related` are the other heads or stranded entries, in order.
fn chain_notes(p: &Package, c: &Channel, e: &ChainError, related: Vec<Location>) -> Vec<(String, Location)> {
    let version = |name: &str| p.bundle(name).and_then(|b| b.version.as_ref());
    let at = |entry: &Entry, pos, field: &str| {
        c.source.as_ref().map(|s| s.at(pos, format!("/entries/{}/{field}", entry.index)))
    };
    match e {
        ChainError::MultipleHeads(heads) => {
            let highest = heads.iter().max_by(|a, b| version(a).cmp(&version(b)));
            let highest = highest.filter(|_| heads.iter().all(|h| version(h).is_some()));
            let others = heads.iter().skip(1);
            let note = |h: &String| match highest {
                Some(top) if top == h => {
                    "another head, the highest version: add the other heads to its skips".to_string()
                }
                Some(top) => format!("another head: add it to the skips of {}, the highest version", q(top)),
                None => "another head".to_string(),
            };
            others.map(note).zip(related).collect()
        }
        ChainError::Stranded(_) => {
            let head = c.head().ok();
            let note = head.map_or("also stranded".to_string(), |h| {
                format!("also stranded: add it to the skips of the head {}", q(&h.name.value))
            });
            let mut notes: Vec<(String, Location)> = related.into_iter().map(|r| (note.clone(), r)).collect();
            if let Some((h, loc)) = head.and_then(|h| Some((h, at(h, h.name.pos, "name")?))) {
                notes.push((format!("the head: add the stranded entries to the skips of {}", q(&h.name.value)), loc));
            }
            notes
        }
        ChainError::Cycle(names) => {
            // The edge that goes up: an entry replacing a higher version.
            let up = names
                .iter()
                .filter_map(|n| c.entry(n))
                .find(|e| matches!((version(&e.name.value), version(&e.replaces.value)), (Some(v), Some(r)) if r > v));
            up.and_then(|e| {
                let note = format!("the cycle's edge to a higher version: remove the replaces of {}", q(&e.name.value));
                Some((note, at(e, e.replaces.pos, "replaces")?))
            })
            .into_iter()
            .collect()
        }
        ChainError::NoHead => Vec::new(),
    }
}

/// Where to point for a replaces-chain error.
fn chain_location(c: &Channel, e: &ChainError, blob: Location) -> (Code, Location, Vec<Location>) {
    let by_name: HashMap<&str, &Entry> = match e {
        ChainError::MultipleHeads(_) | ChainError::Stranded(_) => {
            c.entries.iter().map(|e| (e.name.value.as_str(), e)).collect()
        }
        _ => HashMap::new(),
    };
    let entry_loc = |name: &str| -> Option<Location> {
        let entry = by_name.get(name)?;
        let s = c.source.as_ref()?;
        Some(s.at(entry.name.pos, format!("/entries/{}/name", entry.index)))
    };
    match e {
        ChainError::NoHead => (Code::NoChannelHead, blob, Vec::new()),
        ChainError::MultipleHeads(h) => {
            let locs: Vec<Location> = h.iter().filter_map(|n| entry_loc(n)).collect();
            (Code::MultipleChannelHeads, locs.first().cloned().unwrap_or(blob), locs.into_iter().skip(1).collect())
        }
        ChainError::Cycle(names) => {
            let loc = names.first().and_then(|n| c.entry(n)).and_then(|entry| {
                let s = c.source.as_ref()?;
                Some(s.at(entry.replaces.pos, format!("/entries/{}/replaces", entry.index)))
            });
            (Code::ReplacesCycle, loc.unwrap_or(blob), Vec::new())
        }
        ChainError::Stranded(s) => {
            let locs: Vec<Location> = s.iter().filter_map(|n| entry_loc(n)).collect();
            (Code::StrandedBundles, locs.first().cloned().unwrap_or(blob), locs.into_iter().skip(1).collect())
        }
    }
}

fn bundle<'p>(
    p: &'p Package,
    c: &'p Channel,
    e: &'p Entry,
    b: &'p Bundle,
    ctx: &mut Ctx<'_, 'p>,
    first_time: bool,
) -> ErrorTree {
    let label = Label::Bundle(&e.name.value);
    let mut tree = ErrorTree::new(String::new());
    ctx.chain.push(label);
    let entry_at = |pointer: String, pos| c.source.as_ref().map(|s| s.at(pos, pointer)).unwrap_or_default();
    if e.name.value.is_empty() {
        let loc = entry_at(format!("/entries/{}/name", e.index), e.name.pos);
        ctx.report(&mut tree, Code::BundleNameNotNormalized, "name must be set".into(), loc, true);
    }
    if let (Some(v), Some(r)) = (&b.version, &b.release) {
        let normalized = format!("{}-v{}-{}", p.name, v, r);
        if b.name.value != normalized {
            let leaf = format!("name {} does not match normalized name {}", q(&b.name.value), q(&normalized));
            ctx.report(&mut tree, Code::BundleNameNotNormalized, leaf, b.source.at(b.name.pos, "/name"), first_time);
        }
    }
    entry_checks(c, e, &mut tree, ctx);
    if b.image.value.is_empty() && b.object_count == 0 {
        ctx.report(
            &mut tree,
            Code::BundleImageUnset,
            "bundle image must be set".into(),
            b.source.at(b.image.pos, "/image"),
            first_time,
        );
    }
    if let Some(d) = &b.deprecation {
        if d.message.value.is_empty() {
            let loc = d.source.at(d.message.pos, format!("/entries/{}/message", d.entry));
            ctx.report(
                &mut tree,
                Code::EmptyDeprecationMessage,
                "invalid deprecation: message must be set".into(),
                loc,
                first_time,
            );
        }
    }
    if let (Some(v), Some(_)) = (&b.version, &b.release) {
        if v.has_build() {
            let loc = b
                .raw_properties
                .iter()
                .position(|p| p.type_.value == crate::property::TYPE_PACKAGE)
                .map(|i| b.source.at(b.raw_properties[i].pos, format!("/properties/{i}/value/version")))
                .unwrap_or_else(|| b.source.blob());
            ctx.report(
                &mut tree,
                Code::BuildMetadataWithRelease,
                "cannot use build metadata in version with a release version".into(),
                loc,
                first_time,
            );
        }
    }
    ctx.chain.pop();
    labelled(tree, label)
}

/// The checks opm makes on a model bundle that come from its channel entry: empty `skips`
/// elements and an unparseable `skipRange`.
fn entry_checks(c: &Channel, e: &Entry, tree: &mut ErrorTree, ctx: &mut Ctx<'_, '_>) {
    let entry_at = |pointer: String, pos| c.source.as_ref().map(|s| s.at(pos, pointer)).unwrap_or_default();
    for (i, s) in e.skips.iter().enumerate() {
        if s.value.is_empty() {
            let loc = entry_at(format!("/entries/{}/skips/{i}", e.index), s.pos);
            ctx.report(tree, Code::EmptySkip, format!("skip[{i}] is empty"), loc, true);
        }
    }
    if let Some(sr) = &e.skip_range {
        if let Err(err) = &sr.range {
            let loc = entry_at(format!("/entries/{}/skipRange", e.index), sr.text.pos);
            ctx.report(
                tree,
                Code::InvalidSkipRange,
                format!("invalid skipRange {}: {err}", q(&sr.text.value)),
                loc,
                true,
            );
        }
    }
}

/// opm's model errors for the phantom bundle of an entry that names no `olm.bundle`: the entry's
/// own problems, then those of an empty bundle (no `olm.package` property, no image). Only the
/// entry's problems become diagnostics; the missing bundle itself is `entry-without-bundle`.
fn phantom_bundle<'p>(c: &'p Channel, e: &'p Entry, ctx: &mut Ctx<'_, 'p>) -> ErrorTree {
    let label = Label::Bundle(&e.name.value);
    let mut tree = ErrorTree::new(String::new());
    ctx.chain.push(label);
    if e.name.value.is_empty() {
        tree.leaf("name must be set");
    }
    entry_checks(c, e, &mut tree, ctx);
    tree.leaf(format!("must be exactly one property with type {}", q(crate::property::TYPE_PACKAGE)));
    tree.leaf("bundle image must be set");
    ctx.chain.pop();
    labelled(tree, label)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::{load_files, FileInput};

    fn foo_package(catalog: &str) -> Package {
        let loaded = load_files(&[FileInput::new("catalog.json", catalog.as_bytes().to_vec())]);
        let (model, _) = crate::model::build(&loaded.config);
        model.package("foo").cloned().expect("package foo")
    }

    #[test]
    fn go_map_order_starts_after_the_largest_gap_of_slots() {
        let order = |keys, slots: &[usize]| go_map_order(keys, slots.iter().map(|&s| (s, s)).collect());
        // Insertion order when the first item has the largest gap before it (around the ring).
        assert_eq!(order(3, &[1, 2]), [1, 2]);
        assert_eq!(order(2, &[1, 0]), [0, 1]);
        // Slots 1 and 6: a range starting at slots 2 to 6 yields 6 first (5 chances in 8).
        assert_eq!(order(7, &[1, 6]), [6, 1]);
        assert_eq!(order(8, &[0, 3, 4]), [0, 3, 4]);
        assert_eq!(order(8, &[1, 2, 7]), [7, 1, 2]);
        // Equal gaps (4 and 4): the first in insertion order.
        assert_eq!(order(8, &[2, 6]), [2, 6]);
        // Beyond 8 keys: insertion order.
        assert_eq!(order(9, &[1, 7]), [1, 7]);
    }

    #[test]
    fn phantom_bundles_are_in_the_tree_only() {
        // foo.v0.2.0 and foo.v0.3.0 name no bundle: opm gives them version 0.0.0, like foo.v0.0.0.
        let p = foo_package(
            r#"{"schema":"olm.package","name":"foo","defaultChannel":"stable"}
{"schema":"olm.channel","package":"foo","name":"alpha","entries":[{"name":"foo.v0.0.0"},{"name":"foo.v0.2.0","replaces":"foo.v0.0.0","skips":[""]},{"name":"foo.v0.3.0","replaces":"foo.v0.2.0"}]}
{"schema":"olm.channel","package":"foo","name":"stable","entries":[{"name":"foo.v0.0.0"}]}
{"schema":"olm.bundle","name":"foo.v0.0.0","package":"foo","image":"foo-bundle:v0.0.0","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"0.0.0"}}]}
"#,
        );
        let mut diags = Vec::new();
        let tree = package(&p, &mut diags);
        assert_eq!(
            tree.render(),
            "invalid package \"foo\":
├── invalid channel \"alpha\":
│   ├── invalid bundle \"foo.v0.2.0\":
│   │   ├── skip[0] is empty
│   │   ├── must be exactly one property with type \"olm.package\"
│   │   └── bundle image must be set
│   └── invalid bundle \"foo.v0.3.0\":
│       ├── must be exactly one property with type \"olm.package\"
│       └── bundle image must be set
└── duplicate versions found in bundles: [{0.0.0: [foo.v0.0.0, foo.v0.2.0, foo.v0.3.0]}]"
        );
        // The entry's own problem is a finding; the phantom's missing property, image and
        // version are not.
        let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            ["invalid package \"foo\": invalid channel \"alpha\": invalid bundle \"foo.v0.2.0\": skip[0] is empty"]
        );
    }

    #[test]
    fn duplicate_versions_of_real_bundles_are_still_findings() {
        let p = foo_package(
            r#"{"schema":"olm.package","name":"foo","defaultChannel":"stable"}
{"schema":"olm.channel","package":"foo","name":"stable","entries":[{"name":"a"},{"name":"b","replaces":"a"}]}
{"schema":"olm.bundle","name":"a","package":"foo","image":"foo-bundle:a","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"1.0.0"}}]}
{"schema":"olm.bundle","name":"b","package":"foo","image":"foo-bundle:b","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"1.0.0"}}]}
"#,
        );
        let mut diags = Vec::new();
        let tree = package(&p, &mut diags);
        let leaf = "duplicate versions found in bundles: [{1.0.0: [a, b]}]";
        assert_eq!(tree.render(), format!("invalid package \"foo\":\n└── {leaf}"));
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, Code::DuplicateVersions);
        assert_eq!(diags[0].message, format!("invalid package \"foo\": {leaf}"));
        assert_eq!(diags[0].related.len(), 2);
    }

    /// The notes of the replaces-chain error of channel `stable` with `entries` (a JSON list) over
    /// bundles foo.v1.0.0 … foo.v1.3.0.
    fn chain_error_notes(entries: &str) -> (Code, Vec<String>) {
        let mut catalog = String::from("{\"schema\":\"olm.package\",\"name\":\"foo\",\"defaultChannel\":\"stable\"}\n");
        for v in ["1.0.0", "1.1.0", "1.2.0", "1.3.0"] {
            catalog.push_str(&format!(
                "{{\"schema\":\"olm.bundle\",\"name\":\"foo.v{v}\",\"package\":\"foo\",\"image\":\"foo:{v}\",\"properties\":[{{\"type\":\"olm.package\",\"value\":{{\"packageName\":\"foo\",\"version\":\"{v}\"}}}}]}}\n"
            ));
        }
        catalog.push_str(&format!(
            "{{\"schema\":\"olm.channel\",\"package\":\"foo\",\"name\":\"stable\",\"entries\":{entries}}}\n"
        ));
        let r = crate::validate::validate_files(&[FileInput::new("catalog.json", catalog.into_bytes())]).report;
        let d = r.diagnostics.iter().find(|d| {
            d.code.as_str().contains("head") || d.code == Code::StrandedBundles || d.code == Code::ReplacesCycle
        });
        let d = d.expect("a replaces-chain error");
        (d.code, d.related.iter().map(|r| r.message.clone()).collect())
    }

    #[test]
    fn every_head_but_the_highest_is_to_be_skipped_by_it() {
        let (code, notes) = chain_error_notes(
            r#"[{"name":"foo.v1.0.0"},{"name":"foo.v1.1.0","replaces":"foo.v1.0.0"},{"name":"foo.v1.3.0","replaces":"foo.v1.0.0"},{"name":"foo.v1.2.0"}]"#,
        );
        assert_eq!(code, Code::MultipleChannelHeads);
        // The heads in name order: 1.1.0 (the error's place), then the notes of 1.2.0 and 1.3.0.
        assert_eq!(
            notes,
            [
                "another head: add it to the skips of \"foo.v1.3.0\", the highest version",
                "another head, the highest version: add the other heads to its skips"
            ]
        );
    }

    #[test]
    fn stranded_entries_are_to_be_skipped_by_the_head() {
        let (code, notes) = chain_error_notes(
            r#"[{"name":"foo.v1.0.0"},{"name":"foo.v1.1.0","replaces":"foo.v1.0.0"},{"name":"foo.v1.2.0","skips":["foo.v1.1.0"]},{"name":"foo.v1.3.0","replaces":"foo.v1.2.0"}]"#,
        );
        assert_eq!(code, Code::StrandedBundles);
        assert_eq!(
            notes.last().map(String::as_str),
            Some("the head: add the stranded entries to the skips of \"foo.v1.3.0\"")
        );
    }

    #[test]
    fn a_cycle_is_broken_at_its_edge_to_a_higher_version() {
        let (code, notes) = chain_error_notes(
            r#"[{"name":"foo.v1.0.0","replaces":"foo.v1.2.0"},{"name":"foo.v1.1.0","replaces":"foo.v1.0.0"},{"name":"foo.v1.2.0","replaces":"foo.v1.1.0"},{"name":"foo.v1.3.0","replaces":"foo.v1.2.0"}]"#,
        );
        assert_eq!(code, Code::ReplacesCycle);
        assert_eq!(notes, ["the cycle's edge to a higher version: remove the replaces of \"foo.v1.0.0\""]);
    }

    #[test]
    fn a_package_without_default_channel_is_told_which_to_name() {
        let catalog = r#"{"schema":"olm.package","name":"foo"}
{"schema":"olm.channel","package":"foo","name":"stable","entries":[{"name":"foo.v1.0.0"}]}
{"schema":"olm.bundle","name":"foo.v1.0.0","package":"foo","image":"foo:1","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"1.0.0"}}]}
{"schema":"olm.bundle","name":"foo.v1.1.0","package":"foo","image":"foo:1.1","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"1.1.0"}}]}
"#;
        let r = crate::validate::validate_files(&[FileInput::new("catalog.json", catalog.as_bytes().to_vec())]).report;
        let notes = |code: Code| -> Vec<String> {
            r.diagnostics
                .iter()
                .filter(|d| d.code == code)
                .flat_map(|d| d.related.iter().map(|n| n.message.clone()))
                .collect()
        };
        assert_eq!(notes(Code::DefaultChannelUnset), ["set defaultChannel to \"stable\", the package's only channel"]);
        // No default channel: nothing to propose for the unlisted bundle.
        assert_eq!(notes(Code::BundleNotInChannel), Vec::<String>::new());
        let with_default = catalog.replace(r#""name":"foo"}"#, r#""name":"foo","defaultChannel":"stable"}"#);
        let r = crate::validate::validate_files(&[FileInput::new("catalog.json", with_default.into_bytes())]).report;
        let d = r.diagnostics.iter().find(|d| d.code == Code::BundleNotInChannel).expect("foo.v1.1.0 is in no channel");
        assert_eq!(d.related[0].message, "add it to the entries of \"stable\", the default channel");
    }
}
