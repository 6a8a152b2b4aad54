//! The per-catalog index the snapshot reads ([`CatalogIndex`]): a catalog's entries and bundles
//! as indexes into its model, in OLM's snapshot order, its entries by GVK and package name
//! ([`Lists`]), each (package, channel)'s run of entries, and the cache that keeps one index per
//! model while the model lives.

use crate::hash::{HashMap, HashMapExt};
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};

use super::{chain_order, Bundle, CatalogId, Entry};
use crate::model::Model;
use crate::property::{Gvk, Property};
use crate::resolve::predicate::BundlePredicates;

/// Entries (by their index in one catalog) by GVK provided and by package name (an entry's own
/// package and every `olm.package` its bundle lists), each list in snapshot order.
#[derive(Debug, Default)]
pub(super) struct Lists {
    pub(super) by_gvk: HashMap<Gvk, Vec<u32>>,
    pub(super) by_package: HashMap<String, Vec<u32>>,
    /// The GVKs and packages by number (the order in which they were first met).
    pub(super) gvks: Vec<Gvk>,
    pub(super) packages: Vec<String>,
    /// Each bundle's run in `keys` (empty for a bundle no entry lists).
    pub(super) key_runs: Vec<(u32, u32)>,
    /// What each bundle provides, as numbers: `(true, gvk)` for each of `Bundle::provides`, then
    /// `(false, package)` for each of `Bundle::packages`, in their order.
    pub(super) keys: Vec<(bool, u32)>,
}

impl Lists {
    /// The lists of `entries`, whose bundles are `bundle(i)`. Names are hashed once per bundle,
    /// not once per entry: a bundle listed in several channels reuses the lists its GVKs and
    /// packages were found at.
    pub(super) fn new<'a>(entries: &[(&'a str, usize)], bundles: usize, bundle: impl Fn(usize) -> Bundle<'a>) -> Lists {
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
    pub(super) fn get(&self, gvk: Option<&Gvk>, package: Option<&str>) -> &[u32] {
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
pub(super) struct EntryAt {
    pub(super) package: u32,
    pub(super) channel: u32,
    pub(super) entry: u32,
    /// Its bundle, in [`CatalogIndex::bundles`].
    pub(super) bundle: u32,
    /// Its (package, channel)'s run, in [`CatalogIndex::runs`] (the first run of that package
    /// and channel name, should a catalog repeat them).
    pub(super) run: u32,
    pub(super) default_channel: bool,
}

/// The entries of one (package, channel) of a catalog, consecutive in the index.
#[derive(Debug)]
pub(super) struct Run {
    pub(super) entries: Range<u32>,
    /// The run's place in OLM's `sortBundles` order of groups: default channels first, then by
    /// package and channel name.
    pub(super) rank: u32,
    /// The run's `sortChannel` order (its entries in chain order, as entry indexes of the
    /// catalog) or OLM's error, computed the first time a resolution asks and kept: the order
    /// of a whole channel depends on the catalog alone.
    pub(super) order: OnceLock<Result<Box<[u32]>, String>>,
}

/// One catalog bundle, as indexes into its model, and the facts that take a scan of its
/// properties.
#[derive(Debug, Clone, Copy)]
pub(super) struct BundleAt {
    pub(super) package: u32,
    /// In the package's bundles; `None` for an entry without a bundle blob, named by the
    /// entry `(channel, entry)`.
    pub(super) bundle: Option<u32>,
    pub(super) channel: u32,
    pub(super) entry: u32,
    pub(super) has_package: bool,
    pub(super) deprecated: bool,
    /// Has a served dependency property (a predicate to explore).
    pub(super) dependent: bool,
}

/// What the resolver reads of one catalog, computed once per model and kept while the model
/// lives ([`CatalogIndex::of`]): its entries in OLM's snapshot order (packages in read order,
/// each package's channels in read order) and bundles as indexes into the model, the entries by
/// GVK and package, and each (package, channel)'s run of entries. Resolving against a loaded
/// catalog again (the site and the benchmarks resolve the same catalog many times) reads the
/// same index: a resolution's work is then that of the bundles it explores, not the catalog's.
#[derive(Debug)]
pub struct CatalogIndex {
    pub(super) entries: Vec<EntryAt>,
    pub(super) bundles: Vec<BundleAt>,
    pub(super) lists: Lists,
    /// Each package's channels and the number of each one's run in `runs` (while the index is
    /// built: a channel name a package repeats gets the run of its first channel).
    pub(super) groups: HashMap<String, Vec<(String, u32)>>,
    /// Each (package, channel)'s run of entries, in index order.
    pub(super) runs: Vec<Run>,
    /// Each entry's rank when the entries are ordered by `channel/name` (the part of OLM's bundle
    /// identifier after the catalog's name and namespace), and whether those texts are all
    /// different; computed on first use and kept.
    pub(super) ranks: OnceLock<(Box<[u32]>, bool)>,
    /// Each bundle's dependency predicates, read on first use by a resolution and kept (the
    /// cells themselves made on the first resolution).
    pub(super) predicates: OnceLock<Box<[OnceLock<Predicates>]>>,
}

/// A bundle's dependency predicates, or why one of its properties cannot become one.
pub type Predicates = Result<Arc<BundlePredicates>, String>;

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
            predicates: OnceLock::new(),
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
    pub(super) fn rank_runs(&mut self, model: &Model) {
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
    pub(super) fn add_package(&mut self, model: &Model, pi: usize) {
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
    #[inline(always)]
    pub(super) fn entry<'a>(&self, model: &'a Model, i: usize, catalog: CatalogId, bundles: usize) -> Entry<'a> {
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

    /// Bundle `i`'s dependency predicates (`model` is the index's): read on first use, then
    /// kept with the index for every later resolution.
    pub(super) fn predicates(&self, model: &Model, i: usize) -> Predicates {
        let cells = self.predicates.get_or_init(|| (0..self.bundles.len()).map(|_| OnceLock::new()).collect());
        cells[i].get_or_init(|| BundlePredicates::of(self.bundle(model, i).served_parsed()).map(Arc::new)).clone()
    }

    /// Bundle `i` of the catalog.
    #[inline]
    pub(super) fn bundle<'a>(&self, model: &'a Model, i: usize) -> Bundle<'a> {
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
    pub(super) fn run_order(&self, model: &Model, run: u32) -> Result<&[u32], &str> {
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
    pub(super) fn ranks(&self, model: &Model) -> &(Box<[u32]>, bool) {
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
    fn a_bundles_predicates_are_read_once_and_kept_with_the_index_errors_too() {
        let json = r#"{"namespace":"ns","catalogs":[{"name":"cat","namespace":"ns","packages":[{"name":"a",
            "defaultChannel":"stable","channels":[{"name":"stable","entries":[{"name":"a.v1"},{"name":"a.v2"}]}],
            "bundles":[
              {"name":"a.v1","version":"1.0.0","properties":[{"type":"olm.package.required","value":{"packageName":"b","versionRange":">=1.0.0"}}]},
              {"name":"a.v2","version":"2.0.0","properties":[{"type":"olm.package.required","value":{"packageName":"b","versionRange":"not a range"}}]}]}]}]}"#;
        let cluster = serde_json::from_str::<ProblemJson>(json).unwrap().into_cluster().unwrap();
        let m = cluster.catalogs[0].model.clone();
        let ix = CatalogIndex::of(&m);
        let bundle = |name: &str| (0..ix.bundles.len()).find(|&b| ix.bundle(&m, b).name == name).unwrap();
        let first = ix.predicates(&m, bundle("a.v1")).unwrap();
        assert_eq!((first.predicates.len(), first.keys[0].is_some()), (1, true), "one shared requirement");
        assert!(Arc::ptr_eq(&first, &ix.predicates(&m, bundle("a.v1")).unwrap()), "read once, then the same");
        let bad = ix.predicates(&m, bundle("a.v2")).unwrap_err();
        assert_eq!(
            ix.predicates(&m, bundle("a.v2")).unwrap_err(),
            bad,
            "a property that is no predicate fails each time"
        );
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
