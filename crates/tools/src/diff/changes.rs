//! The change summary: packages, channels and bundles added, removed or changed, and which of
//! their fields (default channel, head, entries, upgrade edges, image, properties by type,
//! related images, deprecations). Compares the model's values, never positions, so moving a blob
//! to another file or line is no change.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use super::{BundleChange, ChangeKind, ChannelChange, EntryChange, PackageChange, PropertyChange, ValueChange};
use crate::declcfg::{self, Value};
use crate::graph::{ChannelGraph, GraphEdge};
use crate::model::{Bundle, Channel, Deprecation, Entry, Model, Package};

/// Every package that differs, by name.
pub(crate) fn packages(old: &Model, new: &Model) -> Vec<PackageChange> {
    let names: BTreeSet<&str> = old.packages.iter().chain(&new.packages).map(|p| p.name.as_str()).collect();
    names.into_iter().filter_map(|n| package(old.package(n), new.package(n))).collect()
}

fn kind<T>(old: Option<T>, new: Option<T>) -> ChangeKind {
    match (old, new) {
        (None, _) => ChangeKind::Added,
        (_, None) => ChangeKind::Removed,
        _ => ChangeKind::Changed,
    }
}

fn message(d: Option<&Deprecation>) -> Option<String> {
    d.map(|d| d.message.value.clone())
}

fn package(old: Option<&Package>, new: Option<&Package>) -> Option<PackageChange> {
    let name = old.or(new)?.name.clone();
    let default = |p: Option<&Package>| p.map(|p| p.default_channel.value.clone()).filter(|d| !d.is_empty());
    let channel_names: BTreeSet<&str> =
        old.into_iter().chain(new).flat_map(|p| p.channels.iter().map(|c| c.name.as_str())).collect();
    let channels: Vec<ChannelChange> = channel_names
        .into_iter()
        .filter_map(|c| channel(old, new, old.and_then(|p| p.channel(c)), new.and_then(|p| p.channel(c))))
        .collect();
    let bundle_names: BTreeSet<&str> =
        old.into_iter().chain(new).flat_map(|p| p.bundles.iter().map(|b| b.name.value.as_str())).collect();
    let bundles: Vec<BundleChange> = bundle_names.into_iter().filter_map(|b| bundle(old, new, b)).collect();
    let change = PackageChange {
        name,
        kind: kind(old, new),
        default_channel: ValueChange::of(default(old), default(new)),
        deprecation: ValueChange::of(
            old.and_then(|p| message(p.deprecation.as_ref())),
            new.and_then(|p| message(p.deprecation.as_ref())),
        ),
        metadata_changed: matches!((old, new), (Some(o), Some(n)) if o.description != n.description || o.icon != n.icon),
        channels,
        bundles,
    };
    let same = change.kind == ChangeKind::Changed
        && change.default_channel.is_none()
        && change.deprecation.is_none()
        && !change.metadata_changed
        && change.channels.is_empty()
        && change.bundles.is_empty();
    (!same).then_some(change)
}

/// A channel's upgrade edges as a set.
fn edge_set(p: Option<&Package>, c: Option<&Channel>) -> Vec<GraphEdge> {
    match (p, c) {
        (Some(p), Some(c)) => ChannelGraph::new(p, c).expanded_edges(usize::MAX).unwrap_or_default(),
        _ => Vec::new(),
    }
}

fn minus(a: &[GraphEdge], b: &[GraphEdge]) -> Vec<GraphEdge> {
    let set: HashSet<(&str, &str, crate::graph::EdgeKind)> =
        b.iter().map(|e| (e.from.as_str(), e.to.as_str(), e.kind)).collect();
    let mut out: Vec<GraphEdge> =
        a.iter().filter(|e| !set.contains(&(e.from.as_str(), e.to.as_str(), e.kind))).cloned().collect();
    out.dedup();
    out
}

fn names_minus(a: Option<&Channel>, b: Option<&Channel>) -> Vec<String> {
    let Some(a) = a else { return Vec::new() };
    a.entries
        .iter()
        .filter(|e| b.is_none_or(|b| b.entry(&e.name.value).is_none()))
        .map(|e| e.name.value.clone())
        .collect()
}

fn channel(
    po: Option<&Package>,
    pn: Option<&Package>,
    old: Option<&Channel>,
    new: Option<&Channel>,
) -> Option<ChannelChange> {
    let name = old.or(new)?.name.clone();
    let head = |c: Option<&Channel>| c.and_then(|c| c.head().ok()).map(|e| e.name.value.clone());
    let (eo, en) = (edge_set(po, old), edge_set(pn, new));
    let change = ChannelChange {
        name,
        kind: kind(old, new),
        head: ValueChange::of(head(old), head(new)),
        entries_added: names_minus(new, old),
        entries_removed: names_minus(old, new),
        edges_added: minus(&en, &eo),
        edges_removed: minus(&eo, &en),
        deprecation: ValueChange::of(
            old.and_then(|c| message(c.deprecation.as_ref())),
            new.and_then(|c| message(c.deprecation.as_ref())),
        ),
    };
    let same = change.kind == ChangeKind::Changed
        && change.head.is_none()
        && change.entries_added.is_empty()
        && change.entries_removed.is_empty()
        && change.edges_added.is_empty()
        && change.edges_removed.is_empty()
        && change.deprecation.is_none();
    (!same).then_some(change)
}

/// Property types whose manifests are too big to list.
const MANIFEST_TYPES: [&str; 2] = ["olm.bundle.object", "olm.csv.metadata"];

/// Whether two values are the same JSON, wherever they were written and in whatever key order.
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(m, n)| same_value(&m.value, &n.value))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter().all(|m| y.iter().any(|n| n.key == m.key && same_value(&m.value.value, &n.value.value)))
        }
        _ => a == b,
    }
}

fn same_property(a: &declcfg::Property, b: &declcfg::Property) -> bool {
    a.type_.value == b.type_.value
        && match (&a.value, &b.value) {
            (Some(x), Some(y)) => same_value(&x.value, &y.value),
            (x, y) => x.is_none() && y.is_none(),
        }
}

/// Items of `a` not matched by one of `b` (as multisets).
fn unmatched<'a, T>(a: &'a [T], b: &[T], same: impl Fn(&T, &T) -> bool) -> Vec<&'a T> {
    let mut left: Vec<&T> = b.iter().collect();
    let mut out = Vec::new();
    for v in a {
        match left.iter().position(|x| same(x, v)) {
            Some(i) => {
                left.swap_remove(i);
            }
            None => out.push(v),
        }
    }
    out
}

/// Values of `a` not matched by one of `b` (as multisets).
fn multiset_minus(a: &[String], b: &[String]) -> Vec<String> {
    unmatched(a, b, |x, y| x == y).into_iter().cloned().collect()
}

/// Properties added and removed, by type (values as compact JSON, except manifests').
fn property_changes(old: &Bundle, new: &Bundle) -> Vec<PropertyChange> {
    let (po, pn) = (&old.raw_properties[..], &new.raw_properties[..]);
    if po.len() == pn.len() && po.iter().zip(pn).all(|(a, b)| same_property(a, b)) {
        return Vec::new();
    }
    let added = unmatched(pn, po, same_property);
    let removed = unmatched(po, pn, same_property);
    let mut by_type: BTreeMap<&str, PropertyChange> = BTreeMap::new();
    for (p, is_added) in added.iter().map(|p| (p, true)).chain(removed.iter().map(|p| (p, false))) {
        let t = p.type_.value.as_str();
        let c = by_type.entry(t).or_insert_with(|| PropertyChange {
            type_: t.to_string(),
            added: 0,
            removed: 0,
            values_added: Vec::new(),
            values_removed: Vec::new(),
        });
        let value =
            (!MANIFEST_TYPES.contains(&t)).then(|| p.value.as_ref().map(|v| v.to_go_json()).unwrap_or_default());
        if is_added {
            c.added += 1;
            c.values_added.extend(value);
        } else {
            c.removed += 1;
            c.values_removed.extend(value);
        }
    }
    by_type.into_values().collect()
}

fn related_images(b: Option<&Bundle>) -> Vec<String> {
    b.iter()
        .flat_map(|b| b.related_images.iter())
        .map(|r| {
            if r.name.value.is_empty() {
                r.image.value.clone()
            } else {
                format!("{}={}", r.name.value, r.image.value)
            }
        })
        .collect()
}

/// Reads one field of an entry as text.
type EntryField = fn(&Entry) -> String;

/// `replaces`, `skips` and `skipRange` of the entries naming `name`, in channels of both sides.
fn entry_changes(po: &Package, pn: &Package, name: &str) -> Vec<EntryChange> {
    let mut out = Vec::new();
    for co in &po.channels {
        let (Some(cn), Some(eo)) = (pn.channel(&co.name), co.entry(name)) else { continue };
        let Some(en) = cn.entry(name) else { continue };
        let fields: [(&'static str, EntryField); 3] = [
            ("replaces", |e| e.replaces.value.clone()),
            ("skips", |e| e.skips.iter().map(|s| s.value.as_str()).collect::<Vec<_>>().join(", ")),
            ("skipRange", |e| e.skip_range_text().to_string()),
        ];
        for (field, get) in fields {
            let nonempty = |s: String| (!s.is_empty()).then_some(s);
            if let Some(change) = ValueChange::of(nonempty(get(eo)), nonempty(get(en))) {
                out.push(EntryChange { channel: co.name.clone(), field, change });
            }
        }
    }
    out
}

fn bundle(po: Option<&Package>, pn: Option<&Package>, name: &str) -> Option<BundleChange> {
    let (old, new) = (po.and_then(|p| p.bundle(name)), pn.and_then(|p| p.bundle(name)));
    let version = |b: Option<&Bundle>| b.and_then(Bundle::version_string);
    let mut change = BundleChange {
        name: name.to_string(),
        kind: kind(old, new),
        version: version(new).or_else(|| version(old)),
        fields: Vec::new(),
        image: None,
        properties: Vec::new(),
        related_images_added: Vec::new(),
        related_images_removed: Vec::new(),
        edges: Vec::new(),
        deprecation: None,
    };
    let (Some(o), Some(n), Some(po), Some(pn)) = (old, new, po, pn) else { return Some(change) };
    let image = |b: &Bundle| Some(b.image.value.clone()).filter(|i| !i.is_empty());
    change.image = ValueChange::of(image(o), image(n));
    change.properties = property_changes(o, n);
    let (ro, rn) = (related_images(Some(o)), related_images(Some(n)));
    change.related_images_added = multiset_minus(&rn, &ro);
    change.related_images_removed = multiset_minus(&ro, &rn);
    change.edges = entry_changes(po, pn, name);
    change.deprecation = ValueChange::of(message(o.deprecation.as_ref()), message(n.deprecation.as_ref()));
    let flags = [
        ("version", version(Some(o)) != version(Some(n))),
        ("image", change.image.is_some()),
        ("properties", !change.properties.is_empty()),
        ("relatedImages", !change.related_images_added.is_empty() || !change.related_images_removed.is_empty()),
        ("edges", !change.edges.is_empty()),
        ("deprecation", change.deprecation.is_some()),
    ];
    change.fields = flags.iter().filter(|(_, f)| *f).map(|(n, _)| *n).collect();
    (!change.fields.is_empty()).then_some(change)
}
