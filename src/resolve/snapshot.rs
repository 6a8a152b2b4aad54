//! The resolver's view of the catalogs (OLM's cache): one entry per (bundle, channel), with the
//! facts the resolver reads (tolerant version, provided GVKs, package properties, labels,
//! deprecation), the virtual `@existing` catalog of installed operators, and indexes by GVK and
//! package name.

use std::borrow::Cow;
use std::collections::HashMap;

use super::problem::{CatalogBundle, CatalogPackage, Problem, PropertyValue};
use crate::property::Gvk;
use crate::version::{Version, VersionRange};

/// Index of an entry in [`Snapshot::entries`].
pub type EntryId = usize;
/// Index of a catalog in [`Snapshot::catalogs`].
pub type CatalogId = usize;

/// Name of the virtual catalog of installed operators.
pub const EXISTING: &str = "@existing";

/// A catalog whose packages live elsewhere (e.g. converted once from a loaded model).
#[derive(Debug, Clone, Copy)]
pub struct CatalogRef<'a> {
    pub name: &'a str,
    pub namespace: &'a str,
    pub priority: i32,
    pub packages: &'a [CatalogPackage],
}

/// A visible catalog.
#[derive(Debug)]
pub struct CatalogInfo {
    pub name: String,
    pub namespace: String,
    pub priority: i32,
    /// The `@existing` catalog.
    pub is_virtual: bool,
    /// Entries in snapshot order.
    pub entries: Vec<EntryId>,
}

/// One property as the resolver sees it (borrowed from the problem's catalogs).
#[derive(Debug)]
pub struct Prop<'a> {
    pub type_: Cow<'a, str>,
    pub value: Cow<'a, serde_json::Value>,
}

/// Facts about a bundle (or installed CSV), shared by its entries.
#[derive(Debug)]
pub struct Bundle<'a> {
    pub name: String,
    /// `ParseTolerant` of the bundle's version; `None` when it does not parse.
    pub version: Option<Version>,
    pub properties: Vec<Prop<'a>>,
    pub provides: Vec<Gvk>,
    /// `(packageName, version)` of every `olm.package` property.
    pub packages: Vec<(String, String)>,
    pub labels: Vec<String>,
    /// Has the legacy `olm.deprecated` property.
    pub deprecated: bool,
}

/// One (bundle, channel) pair of a catalog, or an installed CSV.
#[derive(Debug)]
pub struct Entry {
    pub catalog: CatalogId,
    pub package: String,
    pub channel: String,
    pub name: String,
    pub replaces: String,
    pub skips: Vec<String>,
    /// The raw skipRange (parsed when needed; a parse error means none).
    pub skip_range: String,
    pub bundle: usize,
    /// The channel is the package's default channel.
    pub default_channel: bool,
    /// For installed CSVs: the subscription whose `installedCSV` names it.
    pub subscription: Option<usize>,
}

impl Entry {
    /// The skipRange, when present and valid.
    pub fn skip_range(&self) -> Option<VersionRange> {
        if self.skip_range.is_empty() {
            None
        } else {
            VersionRange::parse(&self.skip_range).ok()
        }
    }
}

/// Everything the resolver can see.
#[derive(Debug, Default)]
pub struct Snapshot<'a> {
    pub catalogs: Vec<CatalogInfo>,
    pub entries: Vec<Entry>,
    pub bundles: Vec<Bundle<'a>>,
    /// The `@existing` catalog.
    pub existing: CatalogId,
    by_gvk: HashMap<Gvk, Vec<EntryId>>,
    by_package: HashMap<String, Vec<EntryId>>,
    /// Entries of each (catalog, package, channel), in snapshot order.
    groups: HashMap<(CatalogId, String, String), Vec<EntryId>>,
}

impl<'a> Snapshot<'a> {
    /// Build the snapshot from the problem's catalogs and then `extra`; fails like OLM when the
    /// installed operators violate fail-forward.
    pub fn build(problem: &'a Problem, extra: &[CatalogRef<'a>]) -> Result<Snapshot<'a>, String> {
        let ns = problem.namespace.as_str();
        let visible_ns: Vec<&str> = match &problem.resolution_namespaces {
            Some(list) => list.iter().map(String::as_str).collect(),
            None => vec![ns],
        };
        // The virtual catalog of installed operators comes first (`existing` is 0).
        let mut s = Snapshot::default();
        s.catalogs.push(CatalogInfo {
            name: EXISTING.into(),
            namespace: ns.into(),
            priority: 0,
            is_virtual: true,
            entries: Vec::new(),
        });
        let dropped = fail_forward_dropped(problem)?;
        for (i, csv) in problem.installed.iter().enumerate() {
            if dropped.contains(&i) {
                continue;
            }
            let version = if csv.version.is_empty() {
                Some(Version::new(0, 0, 0))
            } else {
                Version::parse_tolerant(&csv.version).ok().or(Some(Version::new(0, 0, 0)))
            };
            let bundle = bundle_facts(&csv.name, version, &csv.properties);
            let package = bundle.packages.last().map(|(n, _)| n.clone()).unwrap_or_default();
            let subscription =
                problem.subscriptions.iter().position(|sub| sub.installed_csv.as_deref() == Some(csv.name.as_str()));
            s.bundles.push(bundle);
            let id = s.entries.len();
            s.entries.push(Entry {
                catalog: 0,
                package,
                channel: String::new(),
                name: csv.name.clone(),
                replaces: String::new(),
                skips: Vec::new(),
                skip_range: String::new(),
                bundle: s.bundles.len() - 1,
                default_channel: false,
                subscription,
            });
            s.catalogs[0].entries.push(id);
        }
        let own: Vec<CatalogRef<'a>> = problem
            .catalogs
            .iter()
            .map(|c| CatalogRef { name: &c.name, namespace: &c.namespace, priority: c.priority, packages: &c.packages })
            .collect();
        for cat in own.iter().chain(extra) {
            if !visible_ns.contains(&cat.namespace) {
                continue;
            }
            let cid = s.catalogs.len();
            s.catalogs.push(CatalogInfo {
                name: cat.name.to_string(),
                namespace: cat.namespace.to_string(),
                priority: cat.priority,
                is_virtual: false,
                entries: Vec::new(),
            });
            for p in cat.packages {
                let first = s.bundles.len();
                for b in &p.bundles {
                    s.bundles.push(catalog_bundle_facts(&p.name, b));
                }
                let bundle_of: HashMap<&str, usize> =
                    p.bundles.iter().enumerate().map(|(i, b)| (b.name.as_str(), first + i)).collect();
                for ch in &p.channels {
                    let default_channel = p.default_channel.as_deref() == Some(ch.name.as_str());
                    for e in &ch.entries {
                        let bundle = match bundle_of.get(e.name.as_str()) {
                            Some(&b) => b,
                            None => {
                                // An entry without a bundle blob: OLM would serve an entry with no
                                // properties beyond its package.
                                let empty = CatalogBundle { name: e.name.clone(), ..Default::default() };
                                let facts = catalog_bundle_facts(&p.name, &empty);
                                s.bundles.push(Bundle { properties: owned(facts.properties), ..facts });
                                s.bundles.len() - 1
                            }
                        };
                        let id = s.entries.len();
                        s.entries.push(Entry {
                            catalog: cid,
                            package: p.name.clone(),
                            channel: ch.name.clone(),
                            name: e.name.clone(),
                            replaces: e.replaces.clone().unwrap_or_default(),
                            skips: e.skips.clone(),
                            skip_range: e.skip_range.clone().unwrap_or_default(),
                            bundle,
                            default_channel,
                            subscription: None,
                        });
                        s.catalogs[cid].entries.push(id);
                    }
                }
            }
        }
        for (id, e) in s.entries.iter().enumerate() {
            s.groups.entry((e.catalog, e.package.clone(), e.channel.clone())).or_default().push(id);
            let b = &s.bundles[e.bundle];
            for g in &b.provides {
                let list = s.by_gvk.entry(g.clone()).or_default();
                if list.last() != Some(&id) {
                    list.push(id);
                }
            }
            let mut names: Vec<&str> = b.packages.iter().map(|(n, _)| n.as_str()).collect();
            names.push(&e.package);
            names.sort_unstable();
            names.dedup();
            for n in names {
                s.by_package.entry(n.to_string()).or_default().push(id);
            }
        }
        Ok(s)
    }

    /// The entry's bundle facts.
    pub fn bundle(&self, id: EntryId) -> &Bundle<'a> {
        &self.bundles[self.entries[id].bundle]
    }

    /// Entries that may match a predicate with this GVK / package hint (a superset), in snapshot
    /// order; every entry when there is no hint.
    pub fn candidates(&self, gvk: Option<&Gvk>, package: Option<&str>) -> Vec<EntryId> {
        if let Some(g) = gvk {
            return self.by_gvk.get(g).cloned().unwrap_or_default();
        }
        if let Some(p) = package {
            return self.by_package.get(p).cloned().unwrap_or_default();
        }
        (0..self.entries.len()).collect()
    }

    /// The entries of one (catalog, package, channel), in snapshot order.
    pub fn group(&self, catalog: CatalogId, package: &str, channel: &str) -> &[EntryId] {
        self.groups.get(&(catalog, package.to_string(), channel.to_string())).map(Vec::as_slice).unwrap_or(&[])
    }

    /// `<catalog>/<namespace>/<channel>/<name>`, OLM's bundle variable identifier.
    pub fn identifier(&self, id: EntryId) -> String {
        let e = &self.entries[id];
        let c = &self.catalogs[e.catalog];
        format!("{}/{}/{}/{}", c.name, c.namespace, e.channel, e.name)
    }
}

/// Make borrowed properties owned (for bundles built from temporaries).
fn owned(props: Vec<Prop<'_>>) -> Vec<Prop<'static>> {
    props
        .into_iter()
        .map(|p| Prop { type_: Cow::Owned(p.type_.into_owned()), value: Cow::Owned(p.value.into_owned()) })
        .collect()
}

fn catalog_bundle_facts<'a>(package: &str, b: &'a CatalogBundle) -> Bundle<'a> {
    let mut facts = bundle_facts(&b.name, Version::parse_tolerant(&b.version).ok(), &b.properties);
    // EnsurePackageProperty.
    if facts.packages.is_empty() {
        facts.packages.push((package.to_string(), b.version.clone()));
        facts.properties.push(Prop {
            type_: Cow::Borrowed(crate::property::TYPE_PACKAGE),
            value: Cow::Owned(serde_json::json!({"packageName": package, "version": b.version})),
        });
    }
    facts
}

fn bundle_facts<'a>(name: &str, version: Option<Version>, props: &'a [PropertyValue]) -> Bundle<'a> {
    let s = |v: &serde_json::Value, k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or("").to_string();
    let mut b = Bundle {
        name: name.to_string(),
        version,
        properties: Vec::with_capacity(props.len()),
        provides: Vec::new(),
        packages: Vec::new(),
        labels: Vec::new(),
        deprecated: false,
    };
    for p in props {
        match p.type_.as_str() {
            "olm.gvk" if p.value.is_object() => b.provides.push(Gvk {
                group: s(&p.value, "group"),
                version: s(&p.value, "version"),
                kind: s(&p.value, "kind"),
            }),
            "olm.package" if p.value.is_object() => {
                b.packages.push((s(&p.value, "packageName"), s(&p.value, "version")))
            }
            "olm.label" if p.value.is_object() => b.labels.push(s(&p.value, "label")),
            "olm.deprecated" => b.deprecated = true,
            _ => {}
        }
        b.properties.push(Prop { type_: Cow::Borrowed(&p.type_), value: Cow::Borrowed(&p.value) });
    }
    b
}

/// Installed CSVs that fail-forward leaves out (Replacing CSVs whose chain ends in a Failed
/// one), or the snapshot error OLM reports.
fn fail_forward_dropped(problem: &Problem) -> Result<Vec<usize>, String> {
    if !problem.fail_forward {
        return Ok(Vec::new());
    }
    let csvs = &problem.installed;
    let replaced_by: HashMap<&str, usize> = csvs
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.replaces.as_deref().filter(|r| !r.is_empty()).map(|r| (r, i)))
        .collect();
    let phase = |i: usize| csvs[i].phase.as_deref().unwrap_or("");
    let wrap = |m: String| format!("error using catalogsource {}/{EXISTING}: {m}", problem.namespace);
    let mut dropped = Vec::new();
    for start in 0..csvs.len() {
        let mut seen = vec![start];
        let mut cur = start;
        while let Some(&next) = replaced_by.get(csvs[cur].name.as_str()) {
            if phase(cur) != "Replacing" {
                return Err(wrap(format!(
                    "csv {}/{} in phase {} instead of Replacing",
                    problem.namespace,
                    csvs[cur].name,
                    phase(cur)
                )));
            }
            if seen.contains(&next) {
                return Err(wrap(format!("csv {}/{} has already been seen", problem.namespace, csvs[next].name)));
            }
            seen.push(next);
            cur = next;
        }
        if phase(start) == "Replacing" && phase(cur) == "Failed" && cur != start {
            dropped.push(start);
        }
    }
    Ok(dropped)
}
