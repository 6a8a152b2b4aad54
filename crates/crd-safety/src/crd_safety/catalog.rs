//! Every upgrade edge of a catalog checked for CRD safety: for each package and channel, each
//! edge OLM v0 or v1 can take (an entry's `replaces`, `skips`, and the channel's bundles its
//! `skipRange` covers) compares each CRD the old bundle provides (its `olm.bundle.object`
//! properties) with the new bundle's CRD of the same name. Along a channel, the versions stored
//! for a CRD are every storage version of a bundle from which the old one is reached, as long as
//! the CRDs on the way keep them.
//!
//! Real catalogs repeat the same CRD across dozens of bundles: each distinct manifest is read
//! once and each distinct (old, new, stored versions) triple compared once ([`CrdStore`]);
//! edges share the verdict.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::outcome::CrdCheck;
use super::store::{CrdStore, StoredCrd};
use super::FoundCrd;
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

/// Check every upgrade edge of `model` (of one package, from one start, as `options` say).
pub fn check_catalog(model: &Model, options: &CatalogOptions) -> CatalogCheck {
    let mut edges = Vec::new();
    let mut out = check_each_edge(model, options, |e| edges.push(e));
    out.edges = edges;
    out
}

/// The checks of [`check_catalog`], each edge handed to `each` as soon as it is checked rather
/// than kept: the returned check has no `edges`. A caller that keeps only some of each edge
/// (the lints keep its findings) holds one edge's checks at a time.
pub(super) fn check_each_edge(
    model: &Model,
    options: &CatalogOptions,
    mut each: impl FnMut(EdgeCheck),
) -> CatalogCheck {
    let mut store = CrdStore::new();
    let mut out = CatalogCheck::default();
    let mut owners: BTreeMap<String, (BTreeSet<String>, Location)> = BTreeMap::new();
    for package in &model.packages {
        if options.package.as_deref().is_some_and(|p| p != package.name) {
            continue;
        }
        let crds = bundle_crds(package, &mut store, &options.bundles);
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
            let stored = stored_versions(package, &edges, &crds, &store);
            for ((old, new), (entry, via)) in &edges {
                let mut checks = Vec::new();
                for c in &crds[*old] {
                    let versions = stored.get(&(*old, c.name.as_str())).cloned().unwrap_or_default();
                    checks.push(store.check(c, &crds[*new], Some(versions)));
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
                each(EdgeCheck {
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
    out.compared_pairs = store.compared_pairs();
    out
}

/// The CRDs of each of the package's bundles (by position), from their `olm.bundle.object`
/// properties, or when a bundle has none from `found` (bundle directories, by bundle name).
fn bundle_crds<'m>(
    package: &'m Package,
    store: &mut CrdStore<'m>,
    found: &BTreeMap<String, Vec<FoundCrd>>,
) -> Vec<Vec<StoredCrd>> {
    let mut out = Vec::with_capacity(package.bundles.len());
    for b in &package.bundles {
        let mut crds = store.bundle(b);
        if crds.is_empty() {
            crds = found.get(&b.name.value).into_iter().flatten().map(|f| store.add(f)).collect();
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
    crds: &'c [Vec<StoredCrd>],
    store: &CrdStore,
) -> HashMap<(usize, &'c str), Vec<String>> {
    let mut stored: HashMap<(usize, &str), BTreeSet<String>> = HashMap::new();
    let bundles: BTreeSet<usize> = edges.keys().flat_map(|&(o, n)| [o, n]).collect();
    for &b in &bundles {
        for c in &crds[b] {
            if let Ok(crd) = store.crd(c.object) {
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
                let Ok(crd) = store.crd(c.object) else { continue };
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
    fn a_catalog_without_crds_says_so() {
        let m = model("- name: p.v1.0.0\n- name: p.v1.1.0\n  replaces: p.v1.0.0\n", &["1.0.0", "1.1.0"]);
        let check = check_catalog(&m, &CatalogOptions::default());
        assert_eq!((check.bundles, check.bundles_with_crds, check.edges.len()), (2, 0, 0));
        let d = check.diagnostics();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, crate::diagnostic::Code::CrdNoneInCatalog);
    }
}
