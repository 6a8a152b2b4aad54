//! opm's aggregated model validation (package, channel and bundle checks), producing both the
//! error tree opm prints and one located [`Diagnostic`] per finding. Siblings are visited in name
//! order (opm visits them in Go map order).

use std::collections::{BTreeMap, BTreeSet};

use super::error_tree::ErrorTree;
use crate::diagnostic::{Code, Diagnostic, Location};
use crate::model::{Bundle, ChainError, Channel, Entry, Package};
use crate::gotext::quote as q;

struct Ctx<'a> {
    chain: Vec<String>,
    diags: &'a mut Vec<Diagnostic>,
}

impl Ctx<'_> {
    fn report(&mut self, tree: &mut ErrorTree, code: Code, leaf: String, loc: Location, emit: bool) {
        if emit {
            let mut message = self.chain.join(": ");
            if !message.is_empty() {
                message.push_str(": ");
            }
            message.push_str(&leaf);
            self.diags.push(Diagnostic::error(code, message, loc));
        }
        tree.leaf(leaf);
    }
}

/// One package's checks: its subtree of the error tree, findings appended to `diags`.
pub fn package(p: &Package, diags: &mut Vec<Diagnostic>) -> ErrorTree {
    let label = format!("invalid package {}", q(&p.name));
    let mut tree = ErrorTree::new(label.clone());
    let mut ctx = Ctx { chain: vec![label], diags };
    if p.default_channel.value.is_empty() {
        let loc = p.source.at(p.default_channel.pos, "/defaultChannel");
        ctx.report(&mut tree, Code::DefaultChannelUnset, "default channel must be set".into(), loc, true);
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
    for c in &p.channels {
        let t = channel(p, c, &mut ctx, &mut shown);
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
    tree
}

fn duplicate_versions(p: &Package, tree: &mut ErrorTree, ctx: &mut Ctx<'_>) {
    let mut by_version: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    for c in &p.channels {
        for e in &c.entries {
            if let Some(bi) = e.bundle {
                if let Some(v) = p.bundles.get(bi).and_then(Bundle::version_string) {
                    by_version.entry(v).or_default().insert(bi);
                }
            }
        }
    }
    let dups: Vec<(&String, Vec<&Bundle>)> = by_version
        .iter()
        .filter(|(_, b)| b.len() > 1)
        .map(|(v, b)| {
            let mut bs: Vec<&Bundle> = b.iter().filter_map(|&i| p.bundles.get(i)).collect();
            bs.sort_by(|a, b| a.name.value.cmp(&b.name.value));
            (v, bs)
        })
        .collect();
    if dups.is_empty() {
        return;
    }
    let items: Vec<String> = dups
        .iter()
        .map(|(v, bs)| {
            format!("{{{v}: [{}]}}", bs.iter().map(|b| b.name.value.as_str()).collect::<Vec<_>>().join(", "))
        })
        .collect();
    let leaf = format!("duplicate versions found in bundles: [{}]", items.join(" "));
    let first = dups[0].1[0];
    let mut message = ctx.chain.join(": ");
    message.push_str(": ");
    message.push_str(&leaf);
    let mut d = Diagnostic::error(Code::DuplicateVersions, message, first.source.at(first.name.pos, "/name"));
    for (v, bs) in &dups {
        for b in bs {
            d = d.with_related(format!("version {v}"), b.source.at(b.name.pos, "/name"));
        }
    }
    ctx.diags.push(d);
    tree.leaf(leaf);
}

fn channel(p: &Package, c: &Channel, ctx: &mut Ctx<'_>, shown: &mut BTreeSet<usize>) -> ErrorTree {
    let label = format!("invalid channel {}", q(&c.name));
    let mut tree = ErrorTree::new(label.clone());
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
        let note = match code {
            Code::MultipleChannelHeads => "another head",
            _ => "also stranded",
        };
        let leaf = e.to_string();
        let mut message = ctx.chain.join(": ");
        message.push_str(": ");
        message.push_str(&leaf);
        let mut d = Diagnostic::error(code, message, loc);
        for r in related {
            d = d.with_related(note, r);
        }
        ctx.diags.push(d);
        tree.leaf(leaf);
    }
    let mut entries: Vec<&Entry> = c.entries.iter().collect();
    entries.sort_by(|a, b| a.name.value.cmp(&b.name.value));
    for e in entries {
        let Some(bi) = e.bundle else { continue };
        let Some(b) = p.bundles.get(bi) else { continue };
        let first_time = shown.insert(bi);
        let t = bundle(p, c, e, b, ctx, first_time);
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
    tree
}

/// Where to point for a replaces-chain error.
fn chain_location(c: &Channel, e: &ChainError, blob: Location) -> (Code, Location, Vec<Location>) {
    let entry_loc = |name: &str| -> Option<Location> {
        let entry = c.entry(name)?;
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

fn bundle(p: &Package, c: &Channel, e: &Entry, b: &Bundle, ctx: &mut Ctx<'_>, first_time: bool) -> ErrorTree {
    let label = format!("invalid bundle {}", q(&e.name.value));
    let mut tree = ErrorTree::new(label.clone());
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
    for (i, s) in e.skips.iter().enumerate() {
        if s.value.is_empty() {
            let loc = entry_at(format!("/entries/{}/skips/{i}", e.index), s.pos);
            ctx.report(&mut tree, Code::EmptySkip, format!("skip[{i}] is empty"), loc, true);
        }
    }
    if let Some(sr) = &e.skip_range {
        if let Err(err) = &sr.range {
            let loc = entry_at(format!("/entries/{}/skipRange", e.index), sr.text.pos);
            ctx.report(
                &mut tree,
                Code::InvalidSkipRange,
                format!("invalid skipRange {}: {err}", q(&sr.text.value)),
                loc,
                true,
            );
        }
    }
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
    tree
}
