//! Every upgrade edge of a catalog checked for CRD safety: for each package and channel, each
//! edge OLM v0 or v1 can take (an entry's `replaces`, `skips`, and the channel's bundles its
//! `skipRange` covers) compares each CRD the old bundle provides (its `olm.bundle.object`
//! properties) with the new bundle's CRD of the same name. Along a channel, the versions stored
//! for a CRD are every storage version of a bundle from which the old one is reached, as long as
//! the CRDs on the way keep them.
//!
//! Real catalogs repeat the same CRD across dozens of bundles: each distinct manifest is read
//! once (keyed by its embedded data), and each distinct (old, new, stored versions) triple is
//! compared once; edges share the verdict.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::outcome::{not_comparable, CrdCheck, Outcome, Verdict};
use super::{crd_name, into_crd, is_crd, Crd, CrdError, FoundCrd};
use crate::declcfg::property_types::TYPE_BUNDLE_OBJECT;
use crate::declcfg::Property;
use crate::diagnostic::Location;
use crate::graph::Start;
use crate::hash::{HashMap, HashMapExt};
use crate::model::{Channel, Model, Package};

/// Which edges to check.
#[derive(Debug, Clone, Default)]
pub struct CatalogOptions {
    /// Only this package.
    pub package: Option<String>,
    /// Only edges on the way up from this bundle or version.
    pub from: Option<Start>,
    /// CRDs found elsewhere (bundle directories), by bundle name: used for the catalog's bundles
    /// that carry none (an `olm.csv.metadata` catalog).
    pub bundles: BTreeMap<String, Vec<FoundCrd>>,
}

/// The checks of a catalog's edges.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogCheck {
    /// Bundles looked at.
    pub bundles: usize,
    /// Those that carry CRDs (none in an `olm.csv.metadata` catalog).
    pub bundles_with_crds: usize,
    /// Every edge that carries CRDs, by package, channel and entry order.
    pub edges: Vec<EdgeCheck>,
    /// CRDs provided by bundles of more than one package.
    pub shared: Vec<SharedCrd>,
    /// Distinct (old, new) CRD pairs compared.
    pub compared_pairs: usize,
}

/// One upgrade edge and its CRDs.
#[derive(Debug, Clone, Serialize)]
pub struct EdgeCheck {
    /// The package.
    pub package: String,
    /// The channel.
    pub channel: String,
    /// The bundle upgraded from.
    pub from: String,
    /// The bundle upgraded to.
    pub to: String,
    /// How the new entry names the old bundle: `replaces`, `skips`, `skipRange`.
    pub via: Vec<&'static str>,
    /// The new bundle's channel entry.
    pub location: Location,
    /// Each CRD of the old bundle.
    pub crds: Vec<CrdCheck>,
}

impl EdgeCheck {
    /// Whether every CRD may be upgraded.
    pub fn safe(&self) -> bool {
        self.crds.iter().all(CrdCheck::safe)
    }
}

/// A CRD provided by bundles of several packages (OLM v0 refuses to install the second).
#[derive(Debug, Clone, Serialize)]
pub struct SharedCrd {
    /// The CRD.
    pub crd: String,
    /// The packages, sorted.
    pub packages: Vec<String>,
    /// A bundle property providing it in the second package.
    pub location: Location,
}

/// A CRD of a bundle: its name, manifest (index into the distinct manifests) and property.
struct BundleCrd {
    name: String,
    object: usize,
    location: Location,
}

/// The distinct manifests read so far, by embedded data: each CRD's name and reading.
#[derive(Default)]
struct Objects<'m> {
    by_data: HashMap<Data<'m>, Option<usize>>,
    crds: Vec<(String, Result<Crd, CrdError>)>,
}

impl<'m> Objects<'m> {
    /// The CRD an `olm.bundle.object` property embeds (its index), `None` for another kind.
    /// Another kind known from its first bytes is not looked up at all.
    fn crd_of(&mut self, p: &'m Property) -> Option<usize> {
        let data = p.value.as_ref()?.field("data")?.value.as_str()?;
        if surely_not_a_crd(data) {
            return None;
        }
        if let Some(&known) = self.by_data.get(&Data(data)) {
            return known;
        }
        let id = p.bundle_object().filter(is_crd).map(|m| {
            let name = crd_name(&m).unwrap_or("").to_string();
            self.crds.push((name, into_crd(m)));
            self.crds.len() - 1
        });
        self.by_data.insert(Data(data), id);
        id
    }
}

/// An embedded manifest's data as a map key: equal when the whole text is, hashed from its
/// length and a few samples (hashing every byte of a catalog's CRDs cost as much as reading the
/// distinct ones; two manifests that share the samples are told apart by the comparison).
#[derive(PartialEq, Eq)]
struct Data<'m>(&'m str);

impl std::hash::Hash for Data<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        const SAMPLE: usize = 64;
        let b = self.0.as_bytes();
        state.write_usize(b.len());
        if b.len() <= 8 * SAMPLE {
            return state.write(b);
        }
        for i in 0..8 {
            let at = (b.len() - SAMPLE) / 7 * i;
            state.write(&b[at..at + SAMPLE]);
        }
    }
}

/// Whether the start of an embedded manifest shows another kind: opm embeds manifests as JSON
/// with sorted keys, `{"apiVersion":"…","kind":"…"`, so most non-CRDs are known without
/// decoding the rest. Anything else is decoded.
fn surely_not_a_crd(data: &str) -> bool {
    let Some(head) = data.get(..data.len().min(160) & !3) else { return false };
    let Ok(head) = crate::gotext::decode_base64(head) else { return false };
    let Some(rest) = head.strip_prefix(b"{\"apiVersion\":\"") else { return false };
    let Some(end) = rest.iter().position(|&b| b == b'"') else { return false };
    let Some(kind) = rest[end..].strip_prefix(b"\",\"kind\":\"") else { return false };
    let Some(end) = kind.iter().position(|&b| b == b'"') else { return false };
    &kind[..end] != b"CustomResourceDefinition"
}

/// Check every upgrade edge of `model` (of one package, from one start, as `options` say).
pub fn check_catalog(model: &Model, options: &CatalogOptions) -> CatalogCheck {
    let mut objects = Objects::default();
    let mut out = CatalogCheck::default();
    let mut owners: BTreeMap<String, (BTreeSet<String>, Location)> = BTreeMap::new();
    let mut cache: HashMap<(usize, usize, Vec<String>), Outcome> = HashMap::new();
    for package in &model.packages {
        if options.package.as_deref().is_some_and(|p| p != package.name) {
            continue;
        }
        let crds = bundle_crds(package, &mut objects, &options.bundles);
        out.bundles += package.bundles.len();
        out.bundles_with_crds += crds.iter().filter(|c| !c.is_empty()).count();
        for c in crds.iter().flatten() {
            let owner = owners.entry(c.name.clone()).or_insert_with(|| (BTreeSet::new(), c.location.clone()));
            if owner.0.insert(package.name.clone()) && owner.0.len() == 2 {
                owner.1 = c.location.clone();
            }
        }
        for channel in &package.channels {
            let edges = channel_edges(package, channel);
            let edges = match &options.from {
                Some(start) => reachable(package, &edges, start),
                None => edges,
            };
            let stored = stored_versions(package, &edges, &crds, &objects);
            for ((old, new), (entry, via)) in &edges {
                let mut checks = Vec::new();
                for c in &crds[*old] {
                    let versions = stored.get(&(*old, c.name.as_str())).cloned().unwrap_or_default();
                    checks.push(check_crd(c, &crds[*new], versions, &objects, &mut cache));
                }
                if checks.is_empty() {
                    continue;
                }
                let e = &channel.entries[*entry];
                let location = channel
                    .source
                    .as_ref()
                    .map(|s| s.at(e.name.pos, format!("/entries/{}/name", e.index)))
                    .unwrap_or_default();
                out.edges.push(EdgeCheck {
                    package: package.name.clone(),
                    channel: channel.name.clone(),
                    from: package.bundles[*old].name.value.clone(),
                    to: package.bundles[*new].name.value.clone(),
                    via: via.clone(),
                    location,
                    crds: checks,
                });
            }
        }
    }
    out.shared = owners
        .into_iter()
        .filter(|(_, (p, _))| p.len() > 1)
        .map(|(crd, (packages, location))| SharedCrd { crd, packages: packages.into_iter().collect(), location })
        .collect();
    out.compared_pairs = cache.len();
    out
}

/// The CRDs of each of the package's bundles (by position), from their `olm.bundle.object`
/// properties, or when a bundle has none from `found` (bundle directories, by bundle name).
fn bundle_crds<'m>(
    package: &'m Package,
    objects: &mut Objects<'m>,
    found: &BTreeMap<String, Vec<FoundCrd>>,
) -> Vec<Vec<BundleCrd>> {
    let mut out = Vec::with_capacity(package.bundles.len());
    for b in &package.bundles {
        let mut crds = Vec::new();
        for (i, p) in b.raw_properties.iter().enumerate() {
            if p.type_.value != TYPE_BUNDLE_OBJECT {
                continue;
            }
            if let Some(object) = objects.crd_of(p) {
                let location = b.source.at(p.pos, format!("/properties/{i}"));
                crds.push(BundleCrd { name: objects.crds[object].0.clone(), object, location });
            }
        }
        if crds.is_empty() {
            for f in found.get(&b.name.value).into_iter().flatten() {
                objects.crds.push((f.name.clone(), f.crd.clone()));
                let object = objects.crds.len() - 1;
                crds.push(BundleCrd { name: f.name.clone(), object, location: f.location.clone() });
            }
        }
        out.push(crds);
    }
    out
}

/// The edges of a channel: (old bundle, new bundle) → (the new entry's index, how it names the
/// old bundle), in a stable order.
type Edges = BTreeMap<(usize, usize), (usize, Vec<&'static str>)>;

fn channel_edges(package: &Package, channel: &Channel) -> Edges {
    let mut edges = Edges::new();
    let mut add = |old: Option<usize>, new: usize, entry: usize, via: &'static str| {
        if let Some(old) = old.filter(|&o| o != new) {
            let e = edges.entry((old, new)).or_insert((entry, Vec::new()));
            if !e.1.contains(&via) {
                e.1.push(via);
            }
        }
    };
    for (i, e) in channel.entries.iter().enumerate() {
        let Some(new) = e.bundle else { continue };
        if !e.replaces.value.is_empty() {
            add(package.bundle_position(&e.replaces.value), new, i, "replaces");
        }
        for s in &e.skips {
            add(package.bundle_position(&s.value), new, i, "skips");
        }
        if let Some(range) = e.range() {
            for other in &channel.entries {
                let covered =
                    other.bundle.filter(|&b| package.bundles[b].version.as_ref().is_some_and(|v| range.contains(v)));
                add(covered, new, i, "skipRange");
            }
        }
    }
    edges
}

/// The edges on the way up from `start`: those whose old bundle is the start or is reached from
/// it.
fn reachable(package: &Package, edges: &Edges, start: &Start) -> Edges {
    let starts: Vec<usize> = match start {
        Start::Bundle(name) | Start::Installed { name, .. } => package.bundle_position(name).into_iter().collect(),
        Start::Typed { text, version } => match package.bundle_position(text) {
            Some(b) => vec![b],
            None => bundles_of(package, version.as_ref()),
        },
        Start::Version(v) => bundles_of(package, Some(v)),
    };
    let mut seen: BTreeSet<usize> = starts.iter().copied().collect();
    let mut todo = starts;
    while let Some(b) = todo.pop() {
        for &(old, new) in edges.keys() {
            if old == b && seen.insert(new) {
                todo.push(new);
            }
        }
    }
    edges.iter().filter(|((old, _), _)| seen.contains(old)).map(|(k, v)| (*k, v.clone())).collect()
}

fn bundles_of(package: &Package, version: Option<&crate::version::Version>) -> Vec<usize> {
    let Some(v) = version else { return Vec::new() };
    (0..package.bundles.len()).filter(|&i| package.bundles[i].version.as_ref() == Some(v)).collect()
}

/// For each (bundle, CRD name) of the channel's edges, the versions stored by the time that
/// bundle is installed: its own storage version and those of every bundle it is reached from,
/// as far as they are still versions of its CRD (a cluster that stored a version a later CRD
/// drops is stopped at that edge, where the drop is reported).
fn stored_versions<'c>(
    package: &Package,
    edges: &Edges,
    crds: &'c [Vec<BundleCrd>],
    objects: &Objects,
) -> HashMap<(usize, &'c str), Vec<String>> {
    let mut stored: HashMap<(usize, &str), BTreeSet<String>> = HashMap::new();
    let bundles: BTreeSet<usize> = edges.keys().flat_map(|&(o, n)| [o, n]).collect();
    for &b in &bundles {
        for c in &crds[b] {
            if let Ok(crd) = &objects.crds[c.object].1 {
                stored.entry((b, c.name.as_str())).or_default().extend(crd.storage_version().map(str::to_string));
            }
        }
    }
    // Propagate along the edges, lower versions first, until nothing changes (bounded).
    let mut order: Vec<(usize, usize)> = edges.keys().copied().collect();
    order.sort_by(|a, b| package.bundles[a.1].version.cmp(&package.bundles[b.1].version));
    for _ in 0..8 {
        let mut changed = false;
        for &(old, new) in &order {
            for c in &crds[new] {
                let Ok(crd) = &objects.crds[c.object].1 else { continue };
                let Some(before) = stored.get(&(old, c.name.as_str())) else { continue };
                // A cluster that stored a version the new CRD drops cannot take this edge (both
                // OLMs refuse it): only the versions the new CRD keeps come along.
                let kept: Vec<String> = before.iter().filter(|v| crd.version(v).is_some()).cloned().collect();
                let after = stored.entry((new, c.name.as_str())).or_default();
                let n = after.len();
                after.extend(kept);
                changed |= after.len() != n;
            }
        }
        if !changed {
            break;
        }
    }
    stored.into_iter().map(|(k, v)| (k, v.into_iter().collect())).collect()
}

/// One CRD of the old bundle against the new bundle's CRD of the same name.
fn check_crd(
    old: &BundleCrd,
    new: &[BundleCrd],
    stored: Vec<String>,
    objects: &Objects,
    cache: &mut HashMap<(usize, usize, Vec<String>), Outcome>,
) -> CrdCheck {
    let n = new.iter().find(|n| n.name == old.name);
    let outcome = match n {
        None => Outcome::Removed,
        Some(n) => {
            let (o, nw) = (&objects.crds[old.object].1, &objects.crds[n.object].1);
            match (not_comparable(o, nw), o, nw) {
                (Some(outcome), _, _) => outcome,
                (None, Ok(oc), Ok(nc)) => cache
                    .entry((old.object, n.object, stored))
                    .or_insert_with_key(|(_, _, stored)| Verdict::outcome(oc, nc, stored))
                    .clone(),
                _ => unreachable!("not_comparable covers an unread side"),
            }
        }
    };
    CrdCheck { crd: old.name.clone(), old: old.location.clone(), new: n.map(|n| n.location.clone()), outcome }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::{load_files, FileInput};

    fn model(channel_entries: &str, versions: &[&str]) -> Model {
        let mut text = format!(
            "schema: olm.package\nname: p\ndefaultChannel: c\n---\nschema: olm.channel\npackage: p\nname: c\nentries:\n{channel_entries}"
        );
        for v in versions {
            text.push_str(&format!(
                "---\nschema: olm.bundle\npackage: p\nname: p.v{v}\nimage: example.com/p:{v}\nproperties:\n- type: olm.package\n  value: {{packageName: p, version: {v}}}\n"
            ));
        }
        crate::model::build(&load_files(&[FileInput::new("p/catalog.yaml", text)]).config).0
    }

    fn edges(m: &Model) -> Vec<(String, String, Vec<&'static str>)> {
        let p = &m.packages[0];
        channel_edges(p, &p.channels[0])
            .into_iter()
            .map(|((o, n), (_, via))| (p.bundles[o].name.value.clone(), p.bundles[n].name.value.clone(), via))
            .collect()
    }

    #[test]
    fn every_edge_olm_can_take_is_checked_replaces_skips_and_skip_range() {
        let m = model(
            "- name: p.v1.0.0\n- name: p.v1.1.0\n  replaces: p.v1.0.0\n- name: p.v1.2.0\n  replaces: p.v1.1.0\n  skips: [p.v1.0.0]\n- name: p.v1.4.0\n  skipRange: '>=1.0.0 <1.4.0'\n",
            &["1.0.0", "1.1.0", "1.2.0", "1.4.0"],
        );
        let got = edges(&m);
        let want = [
            ("p.v1.0.0", "p.v1.1.0", vec!["replaces"]),
            ("p.v1.0.0", "p.v1.2.0", vec!["skips"]),
            ("p.v1.0.0", "p.v1.4.0", vec!["skipRange"]),
            ("p.v1.1.0", "p.v1.2.0", vec!["replaces"]),
            ("p.v1.1.0", "p.v1.4.0", vec!["skipRange"]),
            ("p.v1.2.0", "p.v1.4.0", vec!["skipRange"]),
        ];
        let want: Vec<(String, String, Vec<&str>)> =
            want.into_iter().map(|(a, b, v)| (a.to_string(), b.to_string(), v)).collect();
        let mut got = got;
        got.sort();
        assert_eq!(got, want);
    }

    #[test]
    fn manifests_that_share_the_hashed_samples_are_still_told_apart() {
        let a = "A".repeat(10_000);
        let mut b = a.clone().into_bytes();
        b[5_000] = b'B'; // between the samples
        let b = String::from_utf8(b).unwrap();
        let mut map: HashMap<Data, usize> = HashMap::new();
        map.insert(Data(&a), 1);
        map.insert(Data(&b), 2);
        let same = a.clone();
        assert_eq!((map.len(), map.get(&Data(&same)), map.get(&Data(&b))), (2, Some(&1), Some(&2)));
    }

    #[test]
    fn a_catalog_without_crds_says_so() {
        let m = model("- name: p.v1.0.0\n- name: p.v1.1.0\n  replaces: p.v1.0.0\n", &["1.0.0", "1.1.0"]);
        let check = check_catalog(&m, &CatalogOptions::default());
        assert_eq!((check.bundles, check.bundles_with_crds, check.edges.len()), (2, 0, 0));
        let d = check.diagnostics();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, crate::diagnostic::Code::CrdNoneInCatalog);
    }
}
