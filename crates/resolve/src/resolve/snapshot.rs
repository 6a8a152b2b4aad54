//! The resolver's view of the catalogs (OLM's cache), read from the checked models of a
//! [`Cluster`]: one entry per (bundle, channel), with the facts the resolver reads (version,
//! provided GVKs, package properties, labels, deprecation), the virtual `@existing` catalog of
//! installed operators, and indexes by GVK and package name. Nothing here parses text: every
//! version, range and property was parsed when the model (or the cluster) was built.

use crate::hash::{HashMap, HashMapExt};
use std::borrow::Cow;
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};

use crate::cluster::{Cluster, InstalledCsv};
use crate::declcfg::{self, Node, Spanned};
use crate::graph::order::{v0_order_links, Links};
use crate::model::Model;
use crate::property::{Gvk, PackageProperty, Property, TYPE_BUNDLE_OBJECT, TYPE_CSV_METADATA, TYPE_PACKAGE};
use crate::version::{Version, VersionRange};

/// Index of an entry of the snapshot (see [`Snapshot::entry`]).
pub type EntryId = usize;
/// Index of a catalog in [`Snapshot::catalogs`].
pub type CatalogId = usize;

/// Name of the virtual catalog of installed operators.
pub const EXISTING: &str = "@existing";

/// Property types the registry does not serve to the resolver.
const NOT_SERVED: &[&str] = &[TYPE_BUNDLE_OBJECT, TYPE_CSV_METADATA];

/// A visible catalog.
#[derive(Debug)]
pub struct CatalogInfo {
    pub name: String,
    pub namespace: String,
    pub priority: i32,
    /// The `@existing` catalog.
    pub is_virtual: bool,
    /// Its entries: catalogs' entries are numbered one catalog after the other, in snapshot order.
    pub entries: Range<EntryId>,
}

/// One property as the resolver sees it: the raw value (what CEL reads) and the parsed one,
/// both borrowed from the model or the cluster.
#[derive(Debug)]
pub struct Prop<'a> {
    pub type_: Cow<'a, str>,
    pub value: Cow<'a, Node>,
    pub parsed: Cow<'a, Property>,
}

/// Facts about a bundle (or installed CSV), shared by its entries. Borrowed from the model or
/// the cluster, and made when asked for ([`Snapshot::bundle`]): the snapshot keeps no per-bundle
/// data of a catalog beyond its [`CatalogIndex`]. The properties and what they give (GVKs,
/// packages, labels) are read from the model's parsed properties when asked, since a resolution
/// reads those of the few bundles it explores or tests.
#[derive(Debug, Clone, Copy)]
pub struct Bundle<'a> {
    pub name: &'a str,
    /// The bundle's version; `None` when it has none that parses.
    pub version: Option<&'a Version>,
    /// The parsed properties (each with its index into `raw`), the registry's unserved types
    /// included (see [`Bundle::served`]).
    parsed: &'a [(usize, Property)],
    raw: &'a [declcfg::Property],
    /// A catalog bundle (whose unserved property types are left out), not an installed CSV.
    catalog: bool,
    /// The package of the `olm.package` property `EnsurePackageProperty` adds (the bundle has
    /// none among its served properties).
    ensured: Option<&'a str>,
    /// Has the legacy `olm.deprecated` property.
    pub deprecated: bool,
}

/// One (bundle, channel) pair of a catalog, or an installed CSV; made when asked for
/// ([`Snapshot::entry`]).
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    pub catalog: CatalogId,
    pub package: &'a str,
    pub channel: &'a str,
    pub name: &'a str,
    pub replaces: &'a str,
    pub skips: &'a [Spanned<String>],
    /// The skipRange, when set and valid (OLM ignores an invalid one).
    pub skip_range: Option<&'a VersionRange>,
    /// Its bundle's index (see [`Snapshot::bundle_at`]).
    pub bundle: usize,
    /// The channel is the package's default channel.
    pub default_channel: bool,
    /// For installed CSVs: the subscription whose `installedCSV` names it.
    pub subscription: Option<usize>,
}

impl<'a> Entry<'a> {
    /// The skipRange, when present and valid.
    pub fn skip_range(&self) -> Option<&'a VersionRange> {
        self.skip_range
    }
}

/// Entries (by their index in one catalog) by GVK provided and by package name (an entry's own
/// package and every `olm.package` its bundle lists), each list in snapshot order.
#[derive(Debug, Default)]
struct Lists {
    by_gvk: HashMap<Gvk, Vec<u32>>,
    by_package: HashMap<String, Vec<u32>>,
    /// The GVKs and packages by number (the order in which they were first met).
    gvks: Vec<Gvk>,
    packages: Vec<String>,
    /// Each bundle's run in `keys` (empty for a bundle no entry lists).
    key_runs: Vec<(u32, u32)>,
    /// What each bundle provides, as numbers: `(true, gvk)` for each of `Bundle::provides`, then
    /// `(false, package)` for each of `Bundle::packages`, in their order.
    keys: Vec<(bool, u32)>,
}

impl Lists {
    /// The lists of `entries`, whose bundles are `bundle(i)`. Names are hashed once per bundle,
    /// not once per entry: a bundle listed in several channels reuses the lists its GVKs and
    /// packages were found at.
    fn new<'a>(entries: &[(&'a str, usize)], bundles: usize, bundle: impl Fn(usize) -> Bundle<'a>) -> Lists {
        let mut slots: Vec<Option<(u32, u32)>> = vec![None; bundles];
        let mut flat: Vec<(bool, u32)> = Vec::new();
        let mut gvk_at: HashMap<&'a Gvk, usize> = HashMap::new();
        let mut gvk_lists: Vec<(&'a Gvk, Vec<u32>)> = Vec::new();
        let mut package_at: HashMap<&'a str, usize> = HashMap::new();
        let mut package_lists: Vec<(&'a str, Vec<u32>)> = Vec::new();
        let mut package_slot = |n: &'a str, lists: &mut Vec<(&'a str, Vec<u32>)>| {
            *package_at.entry(n).or_insert_with(|| {
                lists.push((n, Vec::new()));
                lists.len() - 1
            })
        };
        for (id, &(package, b)) in entries.iter().enumerate() {
            let id = id as u32;
            let (from, to) = *slots[b].get_or_insert_with(|| {
                let from = flat.len() as u32;
                let facts = bundle(b);
                for g in facts.provides() {
                    let at = *gvk_at.entry(g).or_insert_with(|| {
                        gvk_lists.push((g, Vec::new()));
                        gvk_lists.len() - 1
                    });
                    flat.push((true, at as u32));
                }
                for (n, _, _) in facts.packages() {
                    flat.push((false, package_slot(n, &mut package_lists) as u32));
                }
                (from, flat.len() as u32)
            });
            // Each list gets the entry once: its own package, then what its bundle names.
            let own = package_slot(package, &mut package_lists);
            let lists = std::iter::once((false, own as u32)).chain(flat[from as usize..to as usize].iter().copied());
            for (gvk, at) in lists {
                let list = if gvk { &mut gvk_lists[at as usize].1 } else { &mut package_lists[at as usize].1 };
                if list.last() != Some(&id) {
                    list.push(id);
                }
            }
        }
        Lists {
            gvks: gvk_lists.iter().map(|(g, _)| (*g).clone()).collect(),
            packages: package_lists.iter().map(|(p, _)| p.to_string()).collect(),
            by_gvk: gvk_lists.into_iter().map(|(g, l)| (g.clone(), l)).collect(),
            by_package: package_lists.into_iter().map(|(p, l)| (p.to_string(), l)).collect(),
            key_runs: slots.into_iter().map(|s| s.unwrap_or((0, 0))).collect(),
            keys: flat,
        }
    }

    /// The entries that may match a predicate with this GVK / package hint (none without one).
    fn get(&self, gvk: Option<&Gvk>, package: Option<&str>) -> &[u32] {
        let list = match (gvk, package) {
            (Some(g), _) => self.by_gvk.get(g),
            (None, Some(p)) => self.by_package.get(p),
            (None, None) => None,
        };
        list.map_or(&[], Vec::as_slice)
    }
}

/// One catalog entry, as indexes into its model.
#[derive(Debug, Clone, Copy)]
struct EntryAt {
    package: u32,
    channel: u32,
    entry: u32,
    /// Its bundle, in [`CatalogIndex::bundles`].
    bundle: u32,
    /// Its (package, channel)'s run, in [`CatalogIndex::runs`] (the first run of that package
    /// and channel name, should a catalog repeat them).
    run: u32,
    default_channel: bool,
}

/// The entries of one (package, channel) of a catalog, consecutive in the index.
#[derive(Debug)]
struct Run {
    entries: Range<u32>,
    /// The run's place in OLM's `sortBundles` order of groups: default channels first, then by
    /// package and channel name.
    rank: u32,
    /// The run's `sortChannel` order (its entries in chain order, as entry indexes of the
    /// catalog) or OLM's error, computed the first time a resolution asks and kept: the order
    /// of a whole channel depends on the catalog alone.
    order: OnceLock<Result<Box<[u32]>, String>>,
}

/// One catalog bundle, as indexes into its model, and the facts that take a scan of its
/// properties.
#[derive(Debug, Clone, Copy)]
struct BundleAt {
    package: u32,
    /// In the package's bundles; `None` for an entry without a bundle blob, named by the
    /// entry `(channel, entry)`.
    bundle: Option<u32>,
    channel: u32,
    entry: u32,
    has_package: bool,
    deprecated: bool,
    /// Has a served dependency property (a predicate to explore).
    dependent: bool,
}

/// What the resolver reads of one catalog, computed once per model and kept while the model
/// lives ([`CatalogIndex::of`]): its entries in OLM's snapshot order (packages in read order,
/// each package's channels in read order) and bundles as indexes into the model, the entries by
/// GVK and package, and each (package, channel)'s run of entries. Resolving against a loaded
/// catalog again (the site and the benchmarks resolve the same catalog many times) reads the
/// same index: a resolution's work is then that of the bundles it explores, not the catalog's.
#[derive(Debug)]
pub struct CatalogIndex {
    entries: Vec<EntryAt>,
    bundles: Vec<BundleAt>,
    lists: Lists,
    /// Each package's channels and the number of each one's run in `runs` (while the index is
    /// built: a channel name a package repeats gets the run of its first channel).
    groups: HashMap<String, Vec<(String, u32)>>,
    /// Each (package, channel)'s run of entries, in index order.
    runs: Vec<Run>,
    /// Each entry's rank when the entries are ordered by `channel/name` (the part of OLM's bundle
    /// identifier after the catalog's name and namespace), and whether those texts are all
    /// different; computed on first use and kept.
    ranks: OnceLock<(Box<[u32]>, bool)>,
}

/// The most catalog indexes kept at once (each while its model lives).
const KEPT_INDEXES: usize = 16;

/// Indexes of the models resolved against, by model: an index is found by the model's address
/// and kept only while the model lives (a `Weak` keeps the address from being reused by another
/// model, and stops answering once the model is dropped or changed through `Arc::make_mut`).
static INDEXES: Mutex<Vec<(Weak<Model>, Arc<CatalogIndex>)>> = Mutex::new(Vec::new());

impl CatalogIndex {
    /// The index of `model`: computed on first use, then kept while the model lives (up to
    /// [`KEPT_INDEXES`] models; the least recently built that is not in use is dropped first).
    pub fn of(model: &Arc<Model>) -> Arc<CatalogIndex> {
        let cached = |kept: &mut Vec<(Weak<Model>, Arc<CatalogIndex>)>| {
            kept.retain(|(m, _)| m.strong_count() > 0);
            kept.iter().find(|(m, _)| std::ptr::eq(m.as_ptr(), Arc::as_ptr(model))).map(|(_, ix)| ix.clone())
        };
        if let Some(ix) = cached(&mut INDEXES.lock().unwrap_or_else(PoisonError::into_inner)) {
            return ix;
        }
        let ix = Arc::new(CatalogIndex::new(model));
        let mut kept = INDEXES.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(other) = cached(&mut kept) {
            return other;
        }
        if kept.len() >= KEPT_INDEXES {
            // The least recently built index that nobody holds: one in use (a resolution
            // running, a caller keeping it) stays, so the list may briefly hold more.
            if let Some(k) = kept.iter().position(|(_, ix)| Arc::strong_count(ix) == 1) {
                kept.remove(k);
            }
        }
        kept.push((Arc::downgrade(model), ix.clone()));
        ix
    }

    /// The index of a catalog, computed afresh (without looking for a kept one): one entry per
    /// channel entry, packages and channels in read order.
    pub fn new(model: &Model) -> CatalogIndex {
        let mut ix = CatalogIndex {
            entries: Vec::new(),
            bundles: Vec::new(),
            lists: Lists::default(),
            groups: HashMap::new(),
            runs: Vec::new(),
            ranks: OnceLock::new(),
        };
        let mut packages: Vec<usize> = (0..model.packages.len()).collect();
        crate::sort::sort_by_key(&mut packages, |&p| model.packages[p].order);
        ix.entries
            .reserve(model.packages.iter().map(|p| p.channels.iter().map(|c| c.entries.len()).sum::<usize>()).sum());
        for pi in packages {
            ix.add_package(model, pi);
        }
        let names: Vec<(&str, usize)> =
            ix.entries.iter().map(|e| (model.packages[e.package as usize].name.as_str(), e.bundle as usize)).collect();
        ix.lists = Lists::new(&names, ix.bundles.len(), |b| ix.bundle(model, b));
        ix.rank_runs(model);
        ix
    }

    /// Number the runs in `sortBundles` order: default channels first, then package and channel
    /// names.
    fn rank_runs(&mut self, model: &Model) {
        let key = |r: &Run| {
            let at = self.entries[r.entries.start as usize];
            let p = &model.packages[at.package as usize];
            (!at.default_channel, p.name.as_str(), p.channels[at.channel as usize].name.as_str())
        };
        let mut order: Vec<usize> = (0..self.runs.len()).collect();
        crate::sort::sort_by(&mut order, |&a, &b| key(&self.runs[a]).cmp(&key(&self.runs[b])));
        for (run, rank) in self.runs.iter_mut().zip(crate::sort::places(&order)) {
            run.rank = rank;
        }
    }

    /// How many entries the catalog has (one per channel entry).
    pub fn entries(&self) -> usize {
        self.entries.len()
    }

    /// A package's bundles, then one entry per channel entry, channels in read order.
    fn add_package(&mut self, model: &Model, pi: usize) {
        let p = &model.packages[pi];
        let first = self.bundles.len() as u32;
        for (bi, b) in p.bundles.iter().enumerate() {
            let facts = Bundle::new(&b.name.value, None, &b.properties, &b.raw_properties, Some(&p.name));
            self.bundles.push(BundleAt {
                package: pi as u32,
                bundle: Some(bi as u32),
                channel: 0,
                entry: 0,
                has_package: facts.ensured.is_none(),
                deprecated: facts.deprecated,
                dependent: facts.served_parsed().any(Property::is_dependency),
            });
        }
        let mut channels: Vec<usize> = (0..p.channels.len()).filter(|&c| p.channels[c].source.is_some()).collect();
        crate::sort::sort_by_key(&mut channels, |&c| p.channels[c].order);
        for ci in channels {
            let ch = &p.channels[ci];
            let default_channel = p.default_channel.value == ch.name;
            let start = self.entries.len() as u32;
            // A channel is empty or has a run of its own; a name the package repeats has the
            // run of its first channel (as a lookup by name finds it).
            let named = self.groups.get(&p.name).and_then(|cs| cs.iter().find(|(c, _)| *c == ch.name)).map(|c| c.1);
            let run = named.unwrap_or(self.runs.len() as u32);
            for (ei, e) in ch.entries.iter().enumerate() {
                let bundle = match e.bundle {
                    Some(b) => first + b as u32,
                    None => {
                        // An entry without a bundle blob: OLM would serve an entry with no
                        // properties beyond its package.
                        self.bundles.push(BundleAt {
                            package: pi as u32,
                            bundle: None,
                            channel: ci as u32,
                            entry: ei as u32,
                            has_package: false,
                            deprecated: false,
                            dependent: false,
                        });
                        self.bundles.len() as u32 - 1
                    }
                };
                self.entries.push(EntryAt {
                    package: pi as u32,
                    channel: ci as u32,
                    entry: ei as u32,
                    bundle,
                    run,
                    default_channel,
                });
            }
            let end = self.entries.len() as u32;
            if named.is_none() && end > start {
                self.runs.push(Run { entries: start..end, rank: 0, order: OnceLock::new() });
                self.groups.entry(p.name.clone()).or_default().push((ch.name.clone(), run));
            }
        }
    }

    /// Entry `i` of the catalog, as catalog `catalog` of a snapshot whose bundles of this catalog
    /// start at `bundles`.
    #[inline]
    fn entry<'a>(&self, model: &'a Model, i: usize, catalog: CatalogId, bundles: usize) -> Entry<'a> {
        let at = self.entries[i];
        let p = &model.packages[at.package as usize];
        let ch = &p.channels[at.channel as usize];
        let e = &ch.entries[at.entry as usize];
        Entry {
            catalog,
            package: &p.name,
            channel: &ch.name,
            name: &e.name.value,
            replaces: &e.replaces.value,
            skips: &e.skips,
            skip_range: e.range(),
            bundle: bundles + at.bundle as usize,
            default_channel: at.default_channel,
            subscription: None,
        }
    }

    /// Bundle `i` of the catalog.
    #[inline]
    fn bundle<'a>(&self, model: &'a Model, i: usize) -> Bundle<'a> {
        let at = self.bundles[i];
        let p = &model.packages[at.package as usize];
        let ensured = (!at.has_package).then_some(p.name.as_str());
        match at.bundle {
            Some(b) => {
                let b = &p.bundles[b as usize];
                Bundle {
                    name: &b.name.value,
                    version: b.version.as_ref(),
                    parsed: &b.properties,
                    raw: &b.raw_properties,
                    catalog: true,
                    ensured,
                    deprecated: at.deprecated,
                }
            }
            None => {
                let e = &p.channels[at.channel as usize].entries[at.entry as usize];
                Bundle {
                    name: &e.name.value,
                    version: None,
                    parsed: &[],
                    raw: &[],
                    catalog: true,
                    ensured,
                    deprecated: false,
                }
            }
        }
    }

    /// OLM v0's order (`sortChannel`) of run `run`, as entry indexes of this catalog, head
    /// first; computed once and kept.
    fn run_order(&self, model: &Model, run: u32) -> Result<&[u32], &str> {
        let r = &self.runs[run as usize];
        let order = r.order.get_or_init(|| {
            let views: Vec<Entry> =
                (r.entries.start..r.entries.end).map(|i| self.entry(model, i as usize, 0, 0)).collect();
            chain_order(views[0].package, views[0].channel, &views)
                .map(|o| o.into_iter().map(|k| r.entries.start + k as u32).collect())
        });
        order.as_deref().map_err(String::as_str)
    }

    /// Each entry's rank in `channel/name` byte order (entries with equal texts ranked apart, in
    /// catalog order); computed once and kept.
    fn ranks(&self, model: &Model) -> &(Box<[u32]>, bool) {
        self.ranks.get_or_init(|| {
            let views: Vec<Entry> = (0..self.entries.len()).map(|i| self.entry(model, i, 0, 0)).collect();
            let text = |i: usize| views[i].channel.bytes().chain([b'/']).chain(views[i].name.bytes());
            let mut order: Vec<usize> = (0..views.len()).collect();
            crate::sort::sort_by(&mut order, |&a, &b| text(a).cmp(text(b)));
            let unique = order.windows(2).all(|w| text(w[0]).ne(text(w[1])));
            (crate::sort::places(&order).into(), unique)
        })
    }
}

/// A visible catalog's model and index, and where its entries and bundles start in the snapshot.
#[derive(Debug)]
struct Part<'a> {
    model: &'a Model,
    index: Arc<CatalogIndex>,
    entries: usize,
    bundles: usize,
}

/// Everything the resolver can see.
#[derive(Debug, Default)]
pub struct Snapshot<'a> {
    /// The visible catalogs, `@existing` first.
    pub catalogs: Vec<CatalogInfo>,
    /// The `@existing` catalog.
    pub existing: CatalogId,
    /// The installed CSVs' entries and bundles (the first entries and bundles of the snapshot).
    installed: Vec<Entry<'a>>,
    installed_bundles: Vec<Bundle<'a>>,
    installed_lists: Lists,
    /// The other catalogs (`catalogs[1..]`).
    parts: Vec<Part<'a>>,
    /// How many entries there are.
    len: usize,
    /// Each catalog's place in the order of their identifiers' `<catalog>/<namespace>/`
    /// prefixes, when no prefix begins another (names hold no `/`, and no two catalogs have the
    /// same name and namespace): then the identifiers of two catalogs compare as their prefixes
    /// do, and no two catalogs share one.
    places: Option<Vec<u32>>,
}

impl<'a> Snapshot<'a> {
    /// Build the snapshot from the cluster's installed operators and visible catalogs; fails
    /// like OLM when the installed operators violate fail-forward.
    pub fn build(cluster: &'a Cluster) -> Result<Snapshot<'a>, String> {
        let ns = cluster.namespace.as_str();
        let visible_ns: Vec<&str> = match &cluster.resolution_namespaces {
            Some(list) => list.iter().map(String::as_str).collect(),
            None => vec![ns],
        };
        // The virtual catalog of installed operators comes first (`existing` is 0).
        let mut s = Snapshot::default();
        let dropped = fail_forward_dropped(cluster)?;
        for (i, csv) in cluster.installed.iter().enumerate() {
            if !dropped.contains(&i) {
                s.add_installed(cluster, csv);
            }
        }
        s.catalogs.push(CatalogInfo {
            name: EXISTING.into(),
            namespace: ns.into(),
            priority: 0,
            is_virtual: true,
            entries: 0..s.installed.len(),
        });
        let own: Vec<(&str, usize)> = s.installed.iter().map(|e| (e.package, e.bundle)).collect();
        s.installed_lists = Lists::new(&own, s.installed_bundles.len(), |b| s.installed_bundles[b]);
        let (mut entries, mut bundles) = (s.installed.len(), s.installed_bundles.len());
        for cat in &cluster.catalogs {
            if !visible_ns.contains(&cat.namespace.as_str()) {
                continue;
            }
            let index = CatalogIndex::of(&cat.model);
            let n = index.entries.len();
            s.catalogs.push(CatalogInfo {
                name: cat.name.clone(),
                namespace: cat.namespace.clone(),
                priority: cat.priority,
                is_virtual: false,
                entries: entries..entries + n,
            });
            let next = bundles + index.bundles.len();
            s.parts.push(Part { model: &cat.model, index, entries, bundles });
            (entries, bundles) = (entries + n, next);
        }
        s.len = entries;
        s.places = s.prefix_places();
        Ok(s)
    }

    /// See [`Snapshot::places`].
    fn prefix_places(&self) -> Option<Vec<u32>> {
        let prefix = |c: usize| {
            let c = &self.catalogs[c];
            c.name.bytes().chain([b'/']).chain(c.namespace.bytes()).chain([b'/'])
        };
        let mut order: Vec<usize> = (0..self.catalogs.len()).collect();
        crate::sort::sort_by(&mut order, |&a, &b| prefix(a).cmp(prefix(b)));
        // Sorted, a prefix that begins others is followed by one of them.
        let begins = |a: usize, b: usize| prefix(a).zip(prefix(b)).all(|(x, y)| x == y);
        if order.windows(2).any(|w| begins(w[0], w[1])) {
            return None;
        }
        Some(crate::sort::places(&order))
    }

    /// Catalog `catalog`'s place among the catalogs ordered by identifier prefix, when the
    /// prefixes decide the order of identifiers (see [`Snapshot::places`]).
    pub fn identifier_place(&self, catalog: CatalogId) -> Option<u32> {
        self.places.as_ref().map(|p| p[catalog])
    }

    /// Whether no other entry of the snapshot has entry `id`'s identifier, known from the
    /// indexes (`false` also when not known: installed CSVs, catalogs whose identifiers may
    /// meet).
    #[inline]
    pub fn identifier_unique(&self, id: EntryId) -> bool {
        self.places.is_some() && self.part_of(id).is_some_and(|(_, p)| p.index.ranks(p.model).1)
    }

    fn add_installed(&mut self, cluster: &Cluster, csv: &'a InstalledCsv) {
        let bundle = Bundle::new(&csv.name, Some(&csv.version), &csv.properties, &csv.raw_properties, None);
        let package = bundle.packages().last().map(|(n, _, _)| n).unwrap_or_default();
        let subscription =
            cluster.subscriptions.iter().position(|sub| sub.installed_csv.as_deref() == Some(csv.name.as_str()));
        self.installed_bundles.push(bundle);
        self.installed.push(Entry {
            catalog: 0,
            package,
            channel: "",
            name: &csv.name,
            replaces: "",
            skips: &[],
            skip_range: None,
            bundle: self.installed_bundles.len() - 1,
            default_channel: false,
            subscription,
        });
    }

    /// How many entries there are (entries are `0..entries()`).
    pub fn entries(&self) -> usize {
        self.len
    }

    /// How many bundles there are (bundles are `0..bundles()`).
    pub fn bundles(&self) -> usize {
        self.parts.last().map_or(self.installed_bundles.len(), |p| p.bundles + p.index.bundles.len())
    }

    /// The catalog part holding entry `id` (`None`: an installed CSV).
    #[inline]
    fn part_of(&self, id: EntryId) -> Option<(CatalogId, &Part<'a>)> {
        let i = self.parts.partition_point(|p| p.entries <= id);
        (i > 0).then(|| (i, &self.parts[i - 1]))
    }

    /// Entry `id`.
    #[inline]
    pub fn entry(&self, id: EntryId) -> Entry<'a> {
        match self.part_of(id) {
            Some((cid, p)) => p.index.entry(p.model, id - p.entries, cid, p.bundles),
            None => self.installed[id],
        }
    }

    /// Entry `id`'s bundle (its [`Entry::bundle`]), read from the index alone: the hot loops
    /// that only test or look up a bundle skip making the whole view.
    #[inline]
    pub fn bundle_of(&self, id: EntryId) -> usize {
        match self.part_of(id) {
            Some((_, p)) => p.bundles + p.index.entries[id - p.entries].bundle as usize,
            None => self.installed[id].bundle,
        }
    }

    /// Whether entry `id`'s bundle may have dependencies: `false` when its catalog's index
    /// found no dependency property among its served properties (installed CSVs are read).
    #[inline]
    pub fn dependent(&self, id: EntryId) -> bool {
        match self.part_of(id) {
            Some((_, p)) => p.index.bundles[p.index.entries[id - p.entries].bundle as usize].dependent,
            None => true,
        }
    }

    /// Entry `id`'s catalog (its [`Entry::catalog`]), read from the index alone.
    #[inline]
    pub fn catalog_of(&self, id: EntryId) -> CatalogId {
        match self.part_of(id) {
            Some((cid, _)) => cid,
            None => self.installed[id].catalog,
        }
    }

    /// Entry `id`'s package (its [`Entry::package`]), read from the index alone.
    #[inline]
    pub fn package_of(&self, id: EntryId) -> &'a str {
        match self.part_of(id) {
            Some((_, p)) => &p.model.packages[p.index.entries[id - p.entries].package as usize].name,
            None => self.installed[id].package,
        }
    }

    /// What entry `id`'s bundle provides, as numbers of its catalog's index: `(catalog part,
    /// keys)`, each key `(true, gvk)` for each of [`Bundle::provides`], then `(false, package)`
    /// for each of [`Bundle::packages`], in their order (read them with [`Snapshot::gvk_key`] and
    /// [`Snapshot::package_key`]); `None` for an installed CSV. The invariants group bundles by
    /// these numbers, and compare names only once per GVK and package of each catalog.
    #[inline]
    pub fn invariant_keys(&self, id: EntryId) -> Option<(usize, &[(bool, u32)])> {
        let (cid, p) = self.part_of(id)?;
        let lists = &p.index.lists;
        let (from, to) = lists.key_runs[p.index.entries[id - p.entries].bundle as usize];
        Some((cid - 1, &lists.keys[from as usize..to as usize]))
    }

    /// GVK number `n` of catalog part `part` (see [`Snapshot::invariant_keys`]).
    pub fn gvk_key(&self, part: usize, n: u32) -> &Gvk {
        &self.parts[part].index.lists.gvks[n as usize]
    }

    /// Package number `n` of catalog part `part` (see [`Snapshot::invariant_keys`]).
    pub fn package_key(&self, part: usize, n: u32) -> &str {
        &self.parts[part].index.lists.packages[n as usize]
    }

    /// How many GVKs and packages catalog part `part` numbers (see [`Snapshot::invariant_keys`]).
    pub fn key_counts(&self, part: usize) -> (usize, usize) {
        let lists = &self.parts[part].index.lists;
        (lists.gvks.len(), lists.packages.len())
    }

    /// How many catalog parts there are (catalog sources, `@existing` aside).
    pub fn parts(&self) -> usize {
        self.parts.len()
    }

    /// Whether entry `id`'s bundle is deprecated (its [`Bundle::deprecated`], without the view).
    #[inline]
    pub fn deprecated(&self, id: EntryId) -> bool {
        match self.part_of(id) {
            Some((_, p)) => p.index.bundles[p.index.entries[id - p.entries].bundle as usize].deprecated,
            None => self.installed_bundles[self.installed[id].bundle].deprecated,
        }
    }

    /// Bundle `b` (an [`Entry::bundle`]).
    #[inline]
    pub fn bundle_at(&self, b: usize) -> Bundle<'a> {
        let i = self.parts.partition_point(|p| p.bundles <= b);
        match i.checked_sub(1).map(|i| &self.parts[i]) {
            Some(p) => p.index.bundle(p.model, b - p.bundles),
            None => self.installed_bundles[b],
        }
    }

    /// The entry's bundle facts.
    #[inline]
    pub fn bundle(&self, id: EntryId) -> Bundle<'a> {
        match self.part_of(id) {
            Some((_, p)) => p.index.bundle(p.model, p.index.entries[id - p.entries].bundle as usize),
            None => self.installed_bundles[self.installed[id].bundle],
        }
    }

    /// Entries that may match a predicate with this GVK / package hint (a superset), in snapshot
    /// order; every entry when there is no hint. Read from the indexes: no copy.
    pub fn candidates<'s>(
        &'s self,
        gvk: Option<&'s Gvk>,
        package: Option<&'s str>,
    ) -> impl Iterator<Item = EntryId> + 's {
        let all = if gvk.is_none() && package.is_none() { 0..self.len } else { 0..0 };
        let installed = self.installed_lists.get(gvk, package).iter().map(|&i| i as usize);
        let listed = self
            .parts
            .iter()
            .flat_map(move |p| p.index.lists.get(gvk, package).iter().map(|&i| p.entries + i as usize));
        installed.chain(listed).chain(all)
    }

    /// The (package, channel) group of entry `id` of a catalog source, as `(catalog, run)`;
    /// `None` for an installed CSV.
    #[inline]
    pub fn run_of(&self, id: EntryId) -> Option<(CatalogId, u32)> {
        let (cid, p) = self.part_of(id)?;
        Some((cid, p.index.entries[id - p.entries].run))
    }

    /// Run `run`'s place in OLM's `sortBundles` order of a catalog's groups (default channels
    /// first, then package and channel names).
    #[inline]
    pub fn run_rank(&self, catalog: CatalogId, run: u32) -> u32 {
        self.parts[catalog - 1].index.runs[run as usize].rank
    }

    /// The entries of run `run` of a catalog source (a (package, channel) group), in catalog
    /// order.
    #[inline]
    pub fn run_entries(&self, catalog: CatalogId, run: u32) -> Range<EntryId> {
        let p = &self.parts[catalog - 1];
        let r = &p.index.runs[run as usize].entries;
        p.entries + r.start as usize..p.entries + r.end as usize
    }

    /// OLM v0's order (`sortChannel`) of a whole (package, channel) group of a catalog source,
    /// head first, or OLM's error; computed once per catalog and kept with its index (the
    /// order depends on the catalog alone).
    pub fn run_order(&self, catalog: CatalogId, run: u32) -> Result<impl Iterator<Item = EntryId> + '_, &str> {
        let p = &self.parts[catalog - 1];
        let order = p.index.run_order(p.model, run)?;
        Ok(order.iter().map(move |&i| p.entries + i as usize))
    }

    /// Entry `id`'s catalog and its place among the entries of that catalog source ordered by
    /// identifier (they share the catalog's name and namespace, so the rest decides); `None` for
    /// an installed CSV. Computed once per catalog and kept with its index.
    #[inline]
    pub fn identifier_rank(&self, id: EntryId) -> Option<(CatalogId, u32)> {
        let (cid, p) = self.part_of(id)?;
        Some((cid, p.index.ranks(p.model).0[id - p.entries]))
    }

    /// `<catalog>/<namespace>/<channel>/<name>`, OLM's bundle variable identifier.
    pub fn identifier(&self, id: EntryId) -> String {
        self.identifier_of(&self.entry(id))
    }

    /// [`Snapshot::identifier`] of an entry already viewed.
    pub fn identifier_of(&self, e: &Entry) -> String {
        let c = &self.catalogs[e.catalog];
        let parts = [c.name.as_str(), &c.namespace, e.channel, e.name];
        let mut out = String::with_capacity(parts.iter().map(|p| p.len() + 1).sum());
        for (i, p) in parts.into_iter().enumerate() {
            if i > 0 {
                out.push('/');
            }
            out.push_str(p);
        }
        out
    }
}

impl<'a> Bundle<'a> {
    /// A bundle's facts from its parsed and raw properties; `package`: a catalog bundle's
    /// package, for which the properties the registry does not serve are left out and
    /// `EnsurePackageProperty` applies (installed CSVs pass `None`: all their properties count).
    fn new(
        name: &'a str,
        version: Option<&'a Version>,
        parsed: &'a [(usize, Property)],
        raw: &'a [declcfg::Property],
        package: Option<&'a str>,
    ) -> Bundle<'a> {
        let mut b = Bundle { name, version, parsed, raw, catalog: package.is_some(), ensured: None, deprecated: false };
        let mut has_package = false;
        for p in b.facts() {
            match p {
                Property::Package(_) => has_package = true,
                Property::Deprecated => b.deprecated = true,
                _ => {}
            }
        }
        b.ensured = package.filter(|_| !has_package);
        b
    }

    /// The parsed properties, unserved types included: what the GVKs, packages, labels and the
    /// deprecation are read from, since only `olm.gvk`, `olm.package`, `olm.label` and
    /// `olm.deprecated` properties parse to those (no unserved type does), and skipping the
    /// type comparison matters (every bundle's properties are read to index the snapshot).
    fn facts(&self) -> impl Iterator<Item = &'a Property> + 'a {
        self.parsed.iter().map(|(_, p)| p)
    }

    /// The parsed properties the registry serves, in order, without the package property
    /// `EnsurePackageProperty` adds (which is no dependency): what a bundle's dependency
    /// predicates are read from, without making a [`Prop`] of each (in WebAssembly each of those
    /// moves was a `memory.copy`, a call out into the engine).
    pub fn served_parsed(&self) -> impl Iterator<Item = &'a Property> + 'a {
        self.served().map(|(_, parsed)| parsed)
    }

    /// The served properties, raw and parsed, in order (without the ensured package).
    fn served(&self) -> impl Iterator<Item = (&'a declcfg::Property, &'a Property)> + 'a {
        let (raw, catalog) = (self.raw, self.catalog);
        self.parsed
            .iter()
            .map(move |(i, parsed)| (&raw[*i], parsed))
            .filter(move |(r, _)| !catalog || !NOT_SERVED.contains(&r.type_.value.as_str()))
    }

    /// The properties the registry serves, in order, with `EnsurePackageProperty` applied: a
    /// bundle without an `olm.package` property gets one naming its package (with an empty
    /// version) at the end.
    pub fn properties(&self) -> impl Iterator<Item = Prop<'a>> + 'a {
        let served = self.served().map(|(raw, parsed)| Prop {
            type_: Cow::Borrowed(raw.type_.value.as_str()),
            value: raw
                .value
                .as_ref()
                .map(Cow::Borrowed)
                .unwrap_or_else(|| Cow::Owned(Node::new(raw.pos, declcfg::Value::Null))),
            parsed: Cow::Borrowed(parsed),
        });
        served.chain(self.ensured.map(|package| Prop {
            type_: Cow::Borrowed(TYPE_PACKAGE),
            value: Cow::Owned(Node::from_json(&serde_json::json!({"packageName": package, "version": ""}))),
            parsed: Cow::Owned(Property::Package(PackageProperty::new(package, ""))),
        }))
    }

    /// The GVKs it provides (`olm.gvk`), in order.
    pub fn provides(&self) -> impl Iterator<Item = &'a Gvk> + 'a {
        self.facts().filter_map(|p| match p {
            Property::Gvk(g) => Some(g),
            _ => None,
        })
    }

    /// `(packageName, version text, parsed version)` of every `olm.package` property (the
    /// ensured one included).
    pub fn packages(&self) -> impl Iterator<Item = (&'a str, &'a str, Option<&'a Version>)> + 'a {
        let listed = self.facts().filter_map(|p| match p {
            Property::Package(pp) => {
                Some((pp.package_name.as_str(), pp.version.as_str(), pp.parsed_version.as_ref().ok()))
            }
            _ => None,
        });
        listed.chain(self.ensured.map(|package| (package, "", None)))
    }

    /// Its labels (`olm.label`), in order.
    pub fn labels(&self) -> impl Iterator<Item = &'a str> + 'a {
        self.facts().filter_map(|p| match p {
            Property::Label(l) => Some(l.as_str()),
            _ => None,
        })
    }
}

/// Installed CSVs that fail-forward leaves out (Replacing CSVs whose chain ends in a Failed
/// one), or the snapshot error OLM reports.
/// OLM v0's order (`sortChannel`) of `entries`, all or some of one channel's (`package`,
/// `channel` name it in errors): indexes into `entries`, head first; errors are OLM's texts.
pub fn chain_order(package: &str, channel: &str, entries: &[Entry]) -> Result<Vec<usize>, String> {
    let links: Vec<Links<Spanned<String>>> =
        entries.iter().map(|e| Links { name: e.name, replaces: e.replaces, skips: e.skips }).collect();
    v0_order_links(package, channel, &links).map_err(|e| e.to_string())
}

fn fail_forward_dropped(cluster: &Cluster) -> Result<Vec<usize>, String> {
    if !cluster.fail_forward {
        return Ok(Vec::new());
    }
    let csvs = &cluster.installed;
    let replaced_by: HashMap<&str, usize> = csvs
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.replaces.as_deref().filter(|r| !r.is_empty()).map(|r| (r, i)))
        .collect();
    let phase = |i: usize| csvs[i].phase.as_deref().unwrap_or("");
    let wrap = |m: String| format!("error using catalogsource {}/{EXISTING}: {m}", cluster.namespace);
    let mut dropped = Vec::new();
    for start in 0..csvs.len() {
        let mut seen = vec![start];
        let mut cur = start;
        while let Some(&next) = replaced_by.get(csvs[cur].name.as_str()) {
            if phase(cur) != "Replacing" {
                return Err(wrap(format!(
                    "csv {}/{} in phase {} instead of Replacing",
                    cluster.namespace,
                    csvs[cur].name,
                    phase(cur)
                )));
            }
            if seen.contains(&next) {
                return Err(wrap(format!("csv {}/{} has already been seen", cluster.namespace, csvs[next].name)));
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

#[cfg(test)]
mod tests {
    //! A catalog's index is computed once per model, reused while the model lives, and never
    //! answered for another or an edited model.

    use super::*;
    use crate::cluster::problem_json::ProblemJson;

    fn model(bundles: &[&str]) -> Arc<Model> {
        let entries: Vec<String> = bundles.iter().map(|b| format!(r#"{{"name":"{b}"}}"#)).collect();
        let blobs: Vec<String> = bundles.iter().map(|b| format!(r#"{{"name":"{b}","version":"1.0.0"}}"#)).collect();
        let json = format!(
            r#"{{"namespace":"ns","catalogs":[{{"name":"cat","namespace":"ns","packages":[{{"name":"a","defaultChannel":"stable",
            "channels":[{{"name":"stable","entries":[{}]}}],"bundles":[{}]}}]}}]}}"#,
            entries.join(","),
            blobs.join(",")
        );
        let cluster = serde_json::from_str::<ProblemJson>(&json).unwrap().into_cluster().unwrap();
        cluster.catalogs[0].model.clone()
    }

    #[test]
    fn the_index_of_a_model_is_computed_once_and_reused() {
        let m = model(&["a.v1", "a.v2"]);
        let first = CatalogIndex::of(&m);
        assert!(Arc::ptr_eq(&first, &CatalogIndex::of(&m.clone())));
        assert_eq!(first.entries(), 2);
        let other = model(&["a.v1", "a.v2"]);
        assert!(!Arc::ptr_eq(&first, &CatalogIndex::of(&other)), "another model, even an equal one, has its own");
        let many: Vec<_> = (0..KEPT_INDEXES + 4).map(|_| model(&["a.v1"])).collect();
        many.iter().for_each(|m| drop(CatalogIndex::of(m)));
        assert!(Arc::ptr_eq(&first, &CatalogIndex::of(&m)), "an index in use is never the one let go");
    }

    #[test]
    fn an_index_is_let_go_with_its_model_and_an_edited_model_gets_a_new_one() {
        let m = model(&["a.v1"]);
        let kept = Arc::downgrade(&CatalogIndex::of(&m));
        drop(m);
        let _ = CatalogIndex::of(&model(&["a.v1"]));
        assert!(kept.upgrade().is_none(), "dropped at the next look-up after its model");

        let mut m = model(&["a.v1", "a.v2"]);
        assert_eq!(CatalogIndex::of(&m).entries(), 2);
        Arc::make_mut(&mut m).packages[0].channels[0].entries.pop();
        assert_eq!(
            CatalogIndex::of(&m).entries(),
            1,
            "an edit through Arc::make_mut is never answered from the old index"
        );
    }
}
