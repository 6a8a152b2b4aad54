//! Turning a problem into solver variables as OLM v0 does: a variable per explored bundle with
//! its dependencies (candidates in OLM's preference order), a variable per subscription, and the
//! one-provider-per-GVK and one-bundle-per-package invariants.

use std::collections::BTreeMap;

use crate::hash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::hash::BuildHasher;
use std::rc::Rc;

use super::predicate::{self, CelMeter, Predicate};
use super::snapshot::{chain_order, EntryId, Snapshot};
use super::solver::{Constraint, ConstraintKind, Message, Variable};
use crate::cluster::{Cluster, Subscription};

/// What a solver variable stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    Bundle(EntryId),
    Subscription(usize),
    /// One provider per GVK or one bundle per package.
    Invariant,
}

/// The variables of a problem and what they stand for.
#[derive(Debug, Default)]
pub struct Built {
    pub variables: Vec<Variable>,
    pub subjects: Vec<Subject>,
    /// For subscription variables: the requirement candidates (entries), in preference order,
    /// and the installed CSV they upgrade, if any.
    pub subscription_candidates: BTreeMap<usize, (Vec<EntryId>, Option<EntryId>)>,
    /// `Replaces` reported for an upgrade candidate (the installed CSV's name).
    pub replaces: HashMap<EntryId, String>,
    /// Entries picked because of a subscription's `startingCSV`.
    pub starting_csv: HashMap<EntryId, String>,
}

/// No variable yet (in `Builder::var_of_entry`).
const NONE: usize = usize::MAX;

/// The requirement number of a predicate that is not shared (it holds a CEL rule).
const UNSHARED: u32 = u32::MAX;

/// A bundle's dependency predicates and each one's requirement number (`UNSHARED`, or the same
/// number for the same requirement).
#[derive(Clone)]
struct Dependencies {
    predicates: Rc<[Predicate]>,
    requirements: Rc<[u32]>,
}

struct Builder<'a> {
    problem: &'a Cluster,
    snap: &'a Snapshot<'a>,
    vars: Vec<Variable>,
    subjects: Vec<Subject>,
    /// Each entry's variable, once it has one (`NONE` before).
    var_of_entry: Vec<usize>,
    /// Bundle variables by the hash of their identifier (the first of each hash).
    by_identifier: HashMap<u64, usize>,
    /// Whether each entry was explored.
    explored: Vec<bool>,
    /// Each explored bundle's dependency predicates.
    predicates: HashMap<usize, Dependencies>,
    /// The requirements met so far, numbered by their [`Predicate::memo_key`].
    requirements: HashMap<Vec<u8>, u32>,
    /// Each requirement's candidates for a dependent in a catalog, by (catalog, requirement):
    /// found once per resolution, however many bundles repeat the requirement.
    found: HashMap<(usize, u32), Rc<[EntryId]>>,
    /// What CEL rules have cost so far.
    cel: CelMeter,
    /// Which bundles the dependency being explored matches.
    tested: Tested,
    built: Built,
}

/// Build the variables; `Err` holds the plain (not unsatisfiable) errors, already aggregated.
pub fn build(problem: &Cluster, snap: &Snapshot) -> Result<Built, Vec<String>> {
    let mut b = Builder {
        problem,
        snap,
        vars: Vec::new(),
        subjects: Vec::new(),
        var_of_entry: vec![NONE; snap.entries()],
        by_identifier: HashMap::new(),
        explored: vec![false; snap.entries()],
        predicates: HashMap::new(),
        requirements: HashMap::new(),
        found: HashMap::new(),
        cel: CelMeter::default(),
        tested: Tested::new(snap.bundles()),
        built: Built::default(),
    };
    // Installed operators first; their errors are returned at once.
    let installed: Vec<EntryId> = snap.catalogs[snap.existing].entries.clone().collect();
    b.explore(&installed).map_err(|e| vec![e])?;
    // Subscriptions, in order; errors are collected.
    let mut errors: Vec<String> = Vec::new();
    for (si, _) in problem.subscriptions.iter().enumerate() {
        if let Err(e) = b.subscription(si) {
            errors.push(e);
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    b.invariants();
    Ok(b.finish())
}

impl<'a> Builder<'a> {
    fn constraint(kind: ConstraintKind, message: String) -> Constraint {
        Constraint { kind, message: Message::Text(message) }
    }

    /// The variable for an entry, created (with its intrinsic constraints) on first use.
    fn bundle_var(&mut self, e: EntryId) -> usize {
        if self.var_of_entry[e] != NONE {
            return self.var_of_entry[e];
        }
        let entry = self.snap.entry(e);
        let id = self.snap.identifier_of(&entry);
        // An identifier no other entry has needs no lookup.
        let shared = !self.snap.identifier_unique(e);
        let hash = if shared { self.by_identifier.hasher().hash_one(id.as_str()) } else { 0 };
        if shared {
            if let Some(v) = self.same_identifier(hash, &id) {
                self.var_of_entry[e] = v;
                return v;
            }
        }
        let virtual_ = self.snap.catalogs[entry.catalog].is_virtual;
        let mut constraints = Vec::new();
        if virtual_ && entry.subscription.is_none() {
            constraints.push(Self::constraint(
                ConstraintKind::Mandatory,
                format!("clusterserviceversion {} exists and is not referenced by a subscription", entry.name),
            ));
        }
        if self.snap.deprecated(e) {
            constraints.push(Self::constraint(ConstraintKind::Prohibited, format!("bundle {id} is deprecated")));
        }
        if !virtual_ {
            for sc in &self.problem.system_constraints {
                if sc.bundle == entry.name {
                    constraints.push(Self::constraint(ConstraintKind::Prohibited, sc.message.clone()));
                }
            }
        }
        let v = self.vars.len();
        self.vars.push(Variable { id, constraints });
        self.subjects.push(Subject::Bundle(e));
        self.var_of_entry[e] = v;
        if shared {
            self.by_identifier.entry(hash).or_insert(v);
        }
        v
    }

    /// The bundle variable with identifier `id` (whose hash is `hash`), if there is one: found
    /// by the hash, and by a scan in the unlikely case that another identifier has that hash.
    fn same_identifier(&self, hash: u64, id: &str) -> Option<usize> {
        let v = *self.by_identifier.get(&hash)?;
        if self.vars[v].id == id {
            return Some(v);
        }
        (0..self.vars.len()).find(|&v| matches!(self.subjects[v], Subject::Bundle(_)) && self.vars[v].id == id)
    }

    /// Explore entries and their dependencies (a work stack; each entry once per resolution).
    fn explore(&mut self, start: &[EntryId]) -> Result<(), String> {
        let mut stack: Vec<EntryId> = start.iter().rev().copied().collect();
        while let Some(e) = stack.pop() {
            if std::mem::replace(&mut self.explored[e], true) {
                continue;
            }
            let v = self.bundle_var(e);
            if !self.snap.dependent(e) {
                continue;
            }
            let deps = self.predicates(e)?;
            if deps.predicates.is_empty() {
                continue;
            }
            let bundle: Rc<str> = self.snap.entry(e).name.into();
            let own = self.snap.catalog_of(e);
            for (index, pred) in deps.predicates.iter().enumerate() {
                let candidates = self.requirement_candidates(e, own, pred, deps.requirements[index])?;
                let ids: Vec<usize> = candidates.iter().map(|&c| self.bundle_var(c)).collect();
                let message = Message::Requires { bundle: bundle.clone(), predicates: deps.predicates.clone(), index };
                self.vars[v].constraints.push(Constraint { kind: ConstraintKind::Dependency(ids), message });
                stack.extend(candidates.iter().rev().filter(|&&c| !self.explored[c]));
            }
        }
        Ok(())
    }

    /// The dependency predicates of entry `e`'s bundle, built once per bundle (a bundle listed in
    /// several channels is one set of facts), each with its requirement's number.
    fn predicates(&mut self, e: EntryId) -> Result<Dependencies, String> {
        let bundle = self.snap.bundle_of(e);
        if let Some(p) = self.predicates.get(&bundle) {
            return Ok(p.clone());
        }
        let mut preds = Vec::new();
        // The served properties but the ensured `olm.package` (a package property is no predicate).
        for p in self.snap.bundle_at(bundle).served_parsed() {
            if let Some(pred) = predicate::for_property(p) {
                preds.push(pred.map_err(|err| err.to_string())?);
            }
        }
        let known = &mut self.requirements;
        let requirements = preds
            .iter()
            .map(|p| match p.memo_key() {
                Some(key) => {
                    let next = known.len() as u32;
                    *known.entry(key).or_insert(next)
                }
                None => UNSHARED,
            })
            .collect();
        let deps = Dependencies { predicates: preds.into(), requirements };
        self.predicates.insert(bundle, deps.clone());
        Ok(deps)
    }

    /// The candidates of dependency `pred` (requirement number `requirement`) of entry `e` in
    /// catalog `own`: found once per catalog and requirement, then shared.
    fn requirement_candidates(
        &mut self,
        e: EntryId,
        own: usize,
        pred: &Predicate,
        requirement: u32,
    ) -> Result<Rc<[EntryId]>, String> {
        if let Some(found) = self.found.get(&(own, requirement)) {
            return Ok(found.clone());
        }
        let found: Rc<[EntryId]> = self.dependency_candidates(e, pred)?.into();
        if requirement != UNSHARED {
            self.found.insert((own, requirement), found.clone());
        }
        Ok(found)
    }

    /// OLM's candidates for one dependency of entry `e`, most preferred first (spec §2.4).
    fn dependency_candidates(&mut self, e: EntryId, pred: &Predicate) -> Result<Vec<EntryId>, String> {
        let snap = self.snap;
        let sources = Sources::matching(snap, pred, &mut self.cel, &mut self.tested)
            .map_err(|err| format!("bundle {}: {err}", snap.entry(e).name))?;
        if sources.groups.is_empty() && sources.virtual_names.is_empty() {
            return Ok(Vec::new());
        }
        let mut ordered: Vec<EntryId> = Vec::new();
        for cat in self.catalog_order(snap.entry(e).catalog, &sources) {
            if snap.catalogs[cat].is_virtual {
                ordered.extend(installed_in_order(snap, cat, &sources.virtual_names)?);
            } else {
                ordered.extend(self.catalog_in_order(cat, &sources.groups)?);
            }
        }
        // Filtered after sorting: the chain order comes from the whole channel. Each bundle was
        // tested once, when the sources were found.
        // (`tested` is still in this dependency's round: `catalog_in_order` tests nothing.)
        Ok(ordered.into_iter().filter(|&c| self.tested.matched(snap.bundle_of(c))).collect())
    }

    /// Catalogs in the order preferred for a dependent in `own` (`FindPreferred`, §2.4 step 2).
    fn catalog_order(&self, own: usize, sources: &Sources) -> Vec<usize> {
        let snap = self.snap;
        let mut catalogs: Vec<usize> =
            sources.groups.iter().map(|g| g.0).chain(sources.virtual_names.iter().map(|v| v.0)).collect();
        crate::sort::sort(&mut catalogs);
        catalogs.dedup();
        let ns = self.problem.namespace.as_str();
        crate::sort::sort_by(&mut catalogs, |&a, &b| {
            let ca = &snap.catalogs[a];
            let cb = &snap.catalogs[b];
            let existing = |c: &super::snapshot::CatalogInfo| c.is_virtual && c.namespace == ns;
            existing(cb)
                .cmp(&existing(ca))
                .then((b == own).cmp(&(a == own)))
                .then(cb.priority.cmp(&ca.priority))
                .then_with(|| {
                    if ca.namespace != cb.namespace {
                        (cb.namespace == ns).cmp(&(ca.namespace == ns))
                    } else {
                        std::cmp::Ordering::Equal
                    }
                })
                .then(ca.name.cmp(&cb.name))
        });
        catalogs
    }

    /// A catalog's matching groups in `sortBundles` order (default channels first, then package
    /// and channel names: each group's rank in the catalog's index), each in channel order
    /// (§2.4 step 3).
    fn catalog_in_order(&self, cat: usize, groups: &[(usize, u32)]) -> Result<Vec<EntryId>, String> {
        let snap = self.snap;
        let mut runs: Vec<(u32, u32)> =
            groups.iter().filter(|g| g.0 == cat).map(|&(_, run)| (snap.run_rank(cat, run), run)).collect();
        crate::sort::sort(&mut runs);
        let mut ordered: Vec<EntryId> = Vec::new();
        for (_, run) in runs {
            ordered.extend(snap.run_order(cat, run)?);
        }
        Ok(ordered)
    }

    /// One subscription's variable, candidates and requirement (§2.5); `Err` fails the resolution.
    fn subscription(&mut self, si: usize) -> Result<(), String> {
        let snap = self.snap;
        let sub = &self.problem.subscriptions[si];
        // 1. The installed CSV.
        let current = self.installed_csv(sub)?;
        let v = self.subscription_variable(si);
        // 2. Query the subscription's catalog, stage by stage.
        let starting = sub.starting_csv.as_deref().filter(|s| !s.is_empty() && current.is_none());
        let stages = Stages::query(snap, sub, starting);
        if let Some(reason) = stages.invalid_reason(sub, starting) {
            self.vars[v].constraints.push(Self::constraint(ConstraintKind::Prohibited, reason));
            self.built.subscription_candidates.insert(v, (Vec::new(), current));
            return Ok(());
        }
        // 3. Order.
        let mut ordered = subscription_order(snap, &stages.named)?;
        if ordered.is_empty() && current.is_none() {
            return Err(format!("could not find any potential bundles for subscription: {}", sub.package));
        }
        // 4. Upgrades only from what directly replaces, skips or skipRange-covers current.
        if let Some(cur) = current {
            keep_direct_upgrades(snap, cur, &mut ordered);
        }
        // 5. Candidates.
        let ids = self.subscription_candidates(&ordered, current, starting)?;
        // 6. The requirement.
        self.subscription_requirement(v, ids);
        self.built.subscription_candidates.insert(v, (ordered, current));
        Ok(())
    }

    /// The subscription's installed CSV in `@existing`, if any; several is an error (§2.5 step 1).
    fn installed_csv(&self, sub: &Subscription) -> Result<Option<EntryId>, String> {
        let snap = self.snap;
        let current: Vec<EntryId> = match sub.installed_csv.as_deref().filter(|s| !s.is_empty()) {
            Some(name) => {
                snap.catalogs[snap.existing].entries.clone().filter(|&i| snap.entry(i).name == name).collect()
            }
            None => Vec::new(),
        };
        if current.len() > 1 {
            let names: Vec<&str> = current.iter().map(|&i| snap.entry(i).name).collect();
            return Err(format!(
                "multiple name matches for status.installedCSV of subscription {}/{}: {}",
                self.problem.namespace,
                sub.name,
                names.join(", ")
            ));
        }
        Ok(current.first().copied())
    }

    /// The subscription's variable, `Mandatory` because the subscription exists.
    fn subscription_variable(&mut self, si: usize) -> usize {
        let name = &self.problem.subscriptions[si].name;
        let v = self.vars.len();
        self.vars.push(Variable {
            id: format!("subscription:{name}"),
            constraints: vec![Self::constraint(ConstraintKind::Mandatory, format!("subscription {name} exists"))],
        });
        self.subjects.push(Subject::Subscription(si));
        v
    }

    /// Explore the candidates; upgrades conflict with the installed CSV, put last (§2.5 step 5).
    fn subscription_candidates(
        &mut self,
        ordered: &[EntryId],
        current: Option<EntryId>,
        starting: Option<&str>,
    ) -> Result<Vec<usize>, String> {
        let mut ids = Vec::new();
        for &c in ordered {
            self.explore(&[c])?;
            let cv = self.bundle_var(c);
            if let Some(cur) = current {
                let cur_var = self.bundle_var(cur);
                let conflict = ConstraintKind::Conflict(cur_var);
                if !self.vars[cv].constraints.iter().any(|k| k.kind == conflict) {
                    let msg = format!("{} conflicts with {}", self.vars[cv].id, self.vars[cur_var].id);
                    self.vars[cv].constraints.push(Self::constraint(conflict, msg));
                }
                self.built.replaces.insert(c, self.snap.entry(cur).name.to_string());
            } else if let Some(s) = starting {
                self.built.starting_csv.insert(c, s.to_string());
            }
            ids.push(cv);
        }
        if let Some(cur) = current {
            ids.push(self.bundle_var(cur));
        }
        Ok(ids)
    }

    /// The subscription's Dependency on its candidates, with OLM's message for none, one or
    /// several (formatted when read).
    fn subscription_requirement(&mut self, v: usize, ids: Vec<usize>) {
        let requirement = Constraint { kind: ConstraintKind::Dependency(ids), message: Message::Subscription };
        self.vars[v].constraints.push(requirement);
    }

    /// One provider per GVK, one bundle per package, over every bundle variable so far.
    fn invariants(&mut self) {
        let snap = self.snap;
        // The bundle variables in identifier order (identifiers are unique: one variable each),
        // so that each group's list is built in that order.
        let by_id = self.bundle_vars_by_identifier();
        let mut groups = InvariantGroups::new(snap);
        for &v in &by_id {
            let Subject::Bundle(e) = self.subjects[v] else { continue };
            match snap.invariant_keys(e) {
                // A catalog bundle: grouped by its index's numbers.
                Some((part, keys)) => {
                    for &(gvk, n) in keys {
                        groups.add_numbered(part, gvk, n, v);
                    }
                }
                // An installed CSV: by name.
                None => {
                    let b = snap.bundle(e);
                    for g in b.provides() {
                        groups.add(Key::Gvk(&g.kind, &g.group, &g.version), v);
                    }
                    for (p, _, _) in b.packages() {
                        groups.add(Key::Package(p), v);
                    }
                }
            }
        }
        // GVKs, then packages, each in name order (the order of the maps by name this replaces).
        let mut lists = groups.lists;
        crate::sort::sort_by(&mut lists, |a, b| a.0.cmp(&b.0));
        let add = |vars: &mut Vec<Variable>, subjects: &mut Vec<Subject>, name: String, refs: Vec<usize>, gvk: bool| {
            if refs.len() < 2 {
                return;
            }
            let message = Message::Invariant { gvk };
            vars.push(Variable {
                id: name,
                constraints: vec![
                    Constraint { kind: ConstraintKind::Mandatory, message: message.clone() },
                    Constraint { kind: ConstraintKind::AtMost(1, refs), message },
                ],
            });
            subjects.push(Subject::Invariant);
        };
        for (key, refs) in lists {
            match key {
                Key::Gvk(kind, group, version) => {
                    add(&mut self.vars, &mut self.subjects, format!("{kind} ({group}/{version})"), refs, true)
                }
                Key::Package(p) => add(&mut self.vars, &mut self.subjects, p.to_string(), refs, false),
            }
        }
    }

    /// The bundle variables sorted by identifier (`<catalog>/<namespace>/<channel>/<name>`).
    /// The identifiers of one catalog share its `<catalog>/<namespace>/` prefix and are ordered
    /// by the rest, which each catalog's index ranks once ([`Snapshot::identifier_rank`]); when no
    /// catalog's prefix begins another's (names hold no `/`), the catalogs' prefixes decide
    /// between catalogs, so each variable's key is two numbers. Otherwise the identifiers
    /// themselves are compared.
    fn bundle_vars_by_identifier(&self) -> Vec<usize> {
        let (snap, vars) = (self.snap, &self.vars);
        let bundles: Vec<(usize, EntryId)> = (0..vars.len())
            .filter_map(|v| match self.subjects[v] {
                Subject::Bundle(e) => Some((v, e)),
                _ => None,
            })
            .collect();
        let Some(existing) = snap.identifier_place(snap.existing) else {
            let mut by_id: Vec<usize> = bundles.into_iter().map(|(v, _)| v).collect();
            crate::sort::sort_by(&mut by_id, |&a, &b| vars[a].id.cmp(&vars[b].id));
            return by_id;
        };
        let key = |place: u32, rank: u32| (u64::from(place) << 32) | u64::from(rank);
        let mut keyed: Vec<(u64, usize)> = Vec::with_capacity(bundles.len());
        // Installed CSVs have no index: they are ranked among themselves by identifier.
        let mut installed: Vec<usize> = Vec::new();
        for (v, e) in bundles {
            match snap.identifier_rank(e) {
                Some((catalog, rank)) => keyed.push((key(snap.identifier_place(catalog).unwrap_or(0), rank), v)),
                None => installed.push(v),
            }
        }
        crate::sort::sort_by(&mut installed, |&a, &b| vars[a].id.cmp(&vars[b].id));
        keyed.extend(installed.into_iter().enumerate().map(|(rank, v)| (key(existing, rank as u32), v)));
        crate::sort::sort(&mut keyed);
        keyed.into_iter().map(|(_, v)| v).collect()
    }

    /// Reorder variables so that anchors come in OLM's documented order: installed operators
    /// without subscription by name, subscriptions in input order, invariants by identifier,
    /// then everything else in creation order.
    fn finish(mut self) -> Built {
        let n = self.vars.len();
        // Four groups, each kept in creation order, then the first three sorted by their key:
        // only the few anchors are compared by name.
        let mut groups: [Vec<usize>; 4] = Default::default();
        for i in 0..n {
            let mandatory = self.vars[i].constraints.iter().any(|c| c.kind == ConstraintKind::Mandatory);
            let group = match &self.subjects[i] {
                Subject::Bundle(_) if mandatory => 0,
                Subject::Subscription(_) => 1,
                Subject::Invariant => 2,
                Subject::Bundle(_) => 3,
            };
            groups[group].push(i);
        }
        let (snap, vars, subjects) = (self.snap, &self.vars, &self.subjects);
        let name = |i: usize| match subjects[i] {
            Subject::Bundle(e) => snap.entry(e).name,
            _ => "",
        };
        crate::sort::sort_by(&mut groups[0], |&a, &b| name(a).cmp(name(b)));
        crate::sort::sort_by_key(&mut groups[1], |&i| match subjects[i] {
            Subject::Subscription(s) => s,
            _ => 0,
        });
        crate::sort::sort_by(&mut groups[2], |&a, &b| vars[a].id.cmp(&vars[b].id));
        let order: Vec<usize> = groups.concat();
        let mut new_index = vec![0; n];
        for (new, &old) in order.iter().enumerate() {
            new_index[old] = new;
        }
        let mut vars: Vec<Option<Variable>> = std::mem::take(&mut self.vars).into_iter().map(Some).collect();
        let mut subjects: Vec<Option<Subject>> = std::mem::take(&mut self.subjects).into_iter().map(Some).collect();
        let mut built = self.built;
        built.variables.reserve(n);
        built.subjects.reserve(n);
        for &old in &order {
            let mut v = vars[old].take().unwrap_or_else(|| Variable { id: String::new(), constraints: Vec::new() });
            for c in &mut v.constraints {
                match &mut c.kind {
                    ConstraintKind::Dependency(d) | ConstraintKind::AtMost(_, d) => {
                        d.iter_mut().for_each(|i| *i = new_index[*i]);
                    }
                    ConstraintKind::Conflict(o) => *o = new_index[*o],
                    ConstraintKind::Mandatory | ConstraintKind::Prohibited => {}
                }
            }
            built.variables.push(v);
            built.subjects.push(subjects[old].take().unwrap_or(Subject::Invariant));
        }
        built.subscription_candidates =
            built.subscription_candidates.into_iter().map(|(v, c)| (new_index[v], c)).collect();
        built
    }
}

/// What an invariant is over: a GVK (kind, group, version) or a package. GVKs sort first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Key<'a> {
    Gvk(&'a str, &'a str, &'a str),
    Package(&'a str),
}

/// The bundle variables of each GVK and package, found by the catalog indexes' numbers: a name
/// is hashed once per GVK and package of each catalog, not once per variable.
struct InvariantGroups<'a> {
    snap: &'a Snapshot<'a>,
    /// Each key's variables, in variable order, each once.
    lists: Vec<(Key<'a>, Vec<usize>)>,
    /// The list of each key, by name.
    by_key: HashMap<Key<'a>, usize>,
    /// Per catalog part, the list of each GVK and each package number (`NONE` before it is met).
    numbered: Vec<(Vec<usize>, Vec<usize>)>,
}

impl<'a> InvariantGroups<'a> {
    fn new(snap: &'a Snapshot<'a>) -> InvariantGroups<'a> {
        let numbered = (0..snap.parts())
            .map(|part| {
                let (gvks, packages) = snap.key_counts(part);
                (vec![NONE; gvks], vec![NONE; packages])
            })
            .collect();
        InvariantGroups { snap, lists: Vec::new(), by_key: HashMap::new(), numbered }
    }

    /// Add variable `v` to the list of GVK (`gvk`) or package number `n` of catalog part `part`.
    fn add_numbered(&mut self, part: usize, gvk: bool, n: u32, v: usize) {
        let (gvks, packages) = &self.numbered[part];
        let mut at = if gvk { gvks[n as usize] } else { packages[n as usize] };
        if at == NONE {
            let snap = self.snap;
            let key = if gvk {
                let g = snap.gvk_key(part, n);
                Key::Gvk(&g.kind, &g.group, &g.version)
            } else {
                Key::Package(snap.package_key(part, n))
            };
            at = self.list_of(key);
            let (gvks, packages) = &mut self.numbered[part];
            *(if gvk { &mut gvks[n as usize] } else { &mut packages[n as usize] }) = at;
        }
        self.push(at, v);
    }

    /// Add variable `v` to the list of `key`.
    fn add(&mut self, key: Key<'a>, v: usize) {
        let at = self.list_of(key);
        self.push(at, v);
    }

    fn list_of(&mut self, key: Key<'a>) -> usize {
        let lists = &mut self.lists;
        *self.by_key.entry(key).or_insert_with(|| {
            lists.push((key, Vec::new()));
            lists.len() - 1
        })
    }

    /// Each variable once per list, however often its bundle lists the GVK or package.
    fn push(&mut self, at: usize, v: usize) {
        let list = &mut self.lists[at].1;
        if list.last() != Some(&v) {
            list.push(v);
        }
    }
}

/// Which bundles a dependency's predicate matches, tested once per bundle and per dependency:
/// one slot per bundle of the snapshot, reused by every dependency (a slot holds the number of
/// the dependency that last tested it), so finding a dependency's sources hashes nothing.
struct Tested {
    /// The dependency being matched (slots of earlier numbers are stale).
    round: u32,
    /// The round in which each bundle was last tested, and whether it matched then.
    slots: Vec<(u32, bool)>,
}

impl Tested {
    fn new(bundles: usize) -> Tested {
        Tested { round: 0, slots: vec![(0, false); bundles] }
    }

    /// Whether bundle `b` matched in the current round (`false` when not tested in it).
    fn matched(&self, b: usize) -> bool {
        self.slots[b] == (self.round, true)
    }
}

/// A dependency's source sets (§2.4 step 1): matching (catalog, package, channel)s, as
/// `(catalog, run)` of the catalog's index (sorted, each once), and CSVs; the bundles (facts)
/// that match are those [`Tested::matched`] says.
struct Sources<'s> {
    groups: Vec<(usize, u32)>,
    virtual_names: HashSet<(usize, &'s str)>,
}

impl<'s> Sources<'s> {
    /// The source sets of `pred` over every visible catalog, the virtual one included. Each
    /// bundle is tested once, however many channels list it (a new round of `tested`).
    fn matching(
        snap: &'s Snapshot,
        pred: &Predicate,
        meter: &mut CelMeter,
        tested: &mut Tested,
    ) -> Result<Sources<'s>, String> {
        let mut groups = Vec::new();
        let mut virtual_names = HashSet::new();
        let candidates = snap.candidates(pred.gvk_hint(), pred.package_hint());
        tested.round += 1;
        let round = tested.round;
        // Read from the indexes: no entry is viewed but an installed CSV that matches.
        for c in candidates {
            let b = snap.bundle_of(c);
            let matches = match tested.slots[b] {
                (r, m) if r == round => m,
                _ => {
                    let m = pred.test(&snap.bundle_at(b), snap.package_of(c), meter)?;
                    tested.slots[b] = (round, m);
                    m
                }
            };
            if !matches {
                continue;
            }
            match snap.run_of(c) {
                // Candidates come in snapshot order, a channel's entries together.
                Some(key) => {
                    if groups.last() != Some(&key) {
                        groups.push(key);
                    }
                }
                None => {
                    let ce = snap.entry(c);
                    virtual_names.insert((ce.catalog, ce.name));
                }
            }
        }
        crate::sort::sort(&mut groups);
        groups.dedup();
        Ok(Sources { groups, virtual_names })
    }
}

/// The matching installed CSVs of virtual catalog `cat`, by package, each in channel order.
fn installed_in_order(
    snap: &Snapshot,
    cat: usize,
    virtual_names: &HashSet<(usize, &str)>,
) -> Result<Vec<EntryId>, String> {
    let mut keys: Vec<&str> = Vec::new();
    let mut members: HashMap<&str, Vec<EntryId>> = HashMap::new();
    for id in snap.catalogs[cat].entries.clone() {
        let ce = snap.entry(id);
        if virtual_names.contains(&(cat, ce.name)) {
            let list = members.entry(ce.package).or_default();
            if list.is_empty() {
                keys.push(ce.package);
            }
            list.push(id);
        }
    }
    crate::sort::sort(&mut keys);
    let mut ordered = Vec::new();
    for package in keys {
        let list = members[package].clone();
        ordered.extend(sort_channel(snap, package, "", &list)?);
    }
    Ok(ordered)
}

/// What a subscription's catalog query keeps at each stage: catalog, package, channel, name.
struct Stages {
    /// The subscription's catalog has no entries (or does not exist).
    catalog_empty: bool,
    in_package: Vec<EntryId>,
    in_channel: Vec<EntryId>,
    named: Vec<EntryId>,
}

impl Stages {
    /// Query the subscription's catalog (all when it names none), stage by stage (§2.5 step 2),
    /// through the snapshot's package index: the work is the package's, not the catalog's.
    fn query(snap: &Snapshot, sub: &Subscription, starting: Option<&str>) -> Stages {
        let any_catalog = sub.catalog.is_empty() && sub.catalog_namespace.is_empty();
        let selected: Vec<bool> = snap
            .catalogs
            .iter()
            .map(|c| !c.is_virtual && (any_catalog || (c.name == sub.catalog && c.namespace == sub.catalog_namespace)))
            .collect();
        let catalog_empty = !snap.catalogs.iter().zip(&selected).any(|(c, &s)| s && !c.entries.is_empty());
        let in_package: Vec<EntryId> =
            snap.candidates(None, Some(&sub.package)).filter(|&i| selected[snap.catalog_of(i)]).collect();
        let in_channel: Vec<EntryId> = in_package
            .iter()
            .copied()
            .filter(|&i| sub.channel.is_empty() || snap.entry(i).channel == sub.channel)
            .collect();
        let named: Vec<EntryId> = match starting {
            Some(s) => in_channel.iter().copied().filter(|&i| snap.entry(i).name == s).collect(),
            None => in_channel.clone(),
        };
        Stages { catalog_empty, in_package, in_channel, named }
    }

    /// Why the subscription is invalid: OLM's message for the first stage that matched nothing.
    fn invalid_reason(&self, sub: &Subscription, starting: Option<&str>) -> Option<String> {
        if self.catalog_empty {
            Some(format!(
                "no operators found from catalog {} in namespace {} referenced by subscription {}",
                sub.catalog, sub.catalog_namespace, sub.name
            ))
        } else if self.in_package.is_empty() {
            Some(format!(
                "no operators found in package {} in the catalog referenced by subscription {}",
                sub.package, sub.name
            ))
        } else if self.in_channel.is_empty() {
            Some(format!(
                "no operators found in channel {} of package {} in the catalog referenced by subscription {}",
                sub.channel, sub.package, sub.name
            ))
        } else if self.named.is_empty() {
            Some(format!(
                "no operators found with name {} in channel {} of package {} in the catalog referenced by subscription {}",
                starting.unwrap_or(""),
                sub.channel,
                sub.package,
                sub.name
            ))
        } else {
            None
        }
    }
}

/// Default channel first, then channel name, each channel's run in chain order (§2.5 step 3).
fn subscription_order(snap: &Snapshot, named: &[EntryId]) -> Result<Vec<EntryId>, String> {
    // Each entry's sort key read once (not two entry views per comparison).
    let mut keyed: Vec<(bool, &str, EntryId)> = named
        .iter()
        .map(|&i| {
            let e = snap.entry(i);
            (e.default_channel, e.channel, i)
        })
        .collect();
    crate::sort::sort_by(&mut keyed, |a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    let sorted: Vec<EntryId> = keyed.into_iter().map(|(_, _, i)| i).collect();
    let mut ordered: Vec<EntryId> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let ch = snap.entry(sorted[i]).channel;
        let mut j = i;
        while j < sorted.len() && snap.entry(sorted[j]).channel == ch {
            j += 1;
        }
        let package = snap.entry(sorted[i]).package;
        ordered.extend(sort_channel(snap, package, ch, &sorted[i..j])?);
        i = j;
    }
    Ok(ordered)
}

/// The (catalog, run) whose entries `group` is, all of them in catalog order, if it is one.
fn whole_run(snap: &Snapshot, group: &[EntryId]) -> Option<(usize, u32)> {
    let (cat, run) = snap.run_of(*group.first()?)?;
    snap.run_entries(cat, run).eq(group.iter().copied()).then_some((cat, run))
}

/// Keep what directly replaces, skips or skipRange-covers the installed CSV `cur` (§2.5 step 4).
fn keep_direct_upgrades(snap: &Snapshot, cur: EntryId, ordered: &mut Vec<EntryId>) {
    let ce = snap.entry(cur);
    let cv = snap.bundle(cur).version;
    ordered.retain(|&i| {
        let e = snap.entry(i);
        e.skip_range().is_some_and(|r| cv.as_ref().is_some_and(|v| r.contains(v)))
            || e.replaces == ce.name
            || e.skips.iter().any(|s| s.value == ce.name)
    });
}

/// `sortChannel` over snapshot entries; errors are OLM's texts. A whole channel of one catalog
/// takes the order kept with the catalog's index.
fn sort_channel(snap: &Snapshot, package: &str, channel: &str, list: &[EntryId]) -> Result<Vec<EntryId>, String> {
    if let Some((cat, run)) = whole_run(snap, list) {
        return Ok(snap.run_order(cat, run).map_err(str::to_string)?.collect());
    }
    let views: Vec<_> = list.iter().map(|&i| snap.entry(i)).collect();
    chain_order(package, channel, &views).map(|o| o.into_iter().map(|k| list[k]).collect())
}

#[cfg(test)]
mod tests {
    //! OLM v0's variables, one rule per test, on small clusters written as JSON problems.

    use super::*;
    use crate::cluster::problem_json::ProblemJson;

    /// The variables of a problem as lines: `id: constraint` (dependency candidates by id, in
    /// preference order).
    fn variables(json: &str) -> Vec<String> {
        let cluster = serde_json::from_str::<ProblemJson>(json).unwrap().into_cluster().unwrap();
        let snap = Snapshot::build(&cluster).unwrap();
        let built = build(&cluster, &snap).unwrap();
        let id = |v: usize| built.variables[v].id.clone();
        let mut out = Vec::new();
        for v in &built.variables {
            for c in &v.constraints {
                out.push(match &c.kind {
                    ConstraintKind::Mandatory => format!("{}: mandatory", v.id),
                    ConstraintKind::Prohibited => format!("{}: prohibited", v.id),
                    ConstraintKind::Dependency(vs) => {
                        format!("{}: one of [{}]", v.id, vs.iter().map(|&x| id(x)).collect::<Vec<_>>().join(", "))
                    }
                    ConstraintKind::Conflict(x) => format!("{}: conflicts with {}", v.id, id(*x)),
                    ConstraintKind::AtMost(n, vs) => {
                        format!(
                            "{}: at most {n} of [{}]",
                            v.id,
                            vs.iter().map(|&x| id(x)).collect::<Vec<_>>().join(", ")
                        )
                    }
                });
            }
        }
        out
    }

    fn package(name: &str, entries: &str, bundles: &str) -> String {
        format!(
            r#"{{"name":"{name}","defaultChannel":"stable","channels":[{{"name":"stable","entries":[{entries}]}}],"bundles":[{bundles}]}}"#
        )
    }

    fn bundle(name: &str, version: &str, extra: &str) -> String {
        format!(r#"{{"name":"{name}","version":"{version}","properties":[{extra}]}}"#)
    }

    const GVK: &str = r#"{"group":"g","version":"v1","kind":"K"}"#;

    #[test]
    fn a_subscription_needs_one_of_its_channel_entries_head_first() {
        let a = package(
            "a",
            r#"{"name":"a.v1"},{"name":"a.v2","replaces":"a.v1"}"#,
            &[bundle("a.v1", "1.0.0", ""), bundle("a.v2", "2.0.0", "")].join(","),
        );
        let vars = variables(&format!(
            r#"{{"namespace":"ns","catalogs":[{{"name":"cat","namespace":"ns","packages":[{a}]}}],
            "subscriptions":[{{"name":"sub","package":"a","channel":"stable","catalog":"cat","catalogNamespace":"ns"}}]}}"#
        ));
        let sub: Vec<&String> = vars.iter().filter(|l| !l.starts_with("cat/")).collect();
        assert!(sub.iter().any(|l| l.ends_with(": mandatory")), "{vars:#?}");
        assert!(
            sub.iter().any(|l| l.ends_with(": one of [cat/ns/stable/a.v2, cat/ns/stable/a.v1]")),
            "the channel head comes first: {vars:#?}"
        );
    }

    #[test]
    fn a_whole_channel_of_one_catalog_is_ordered_by_its_kept_run_order_and_a_part_of_it_afresh() {
        // Entries listed tail first: the order must come from the chain, not the listing.
        let a = package(
            "a",
            r#"{"name":"a.v3","replaces":"a.v2"},{"name":"a.v1"},{"name":"a.v2","replaces":"a.v1"}"#,
            &[bundle("a.v1", "1.0.0", ""), bundle("a.v2", "2.0.0", ""), bundle("a.v3", "3.0.0", "")].join(","),
        );
        let problem = format!(
            r#"{{"namespace":"ns","catalogs":[{{"name":"cat","namespace":"ns","packages":[{a}]}}],"subscriptions":[]}}"#
        );
        let cluster = serde_json::from_str::<ProblemJson>(&problem).unwrap().into_cluster().unwrap();
        let snap = Snapshot::build(&cluster).unwrap();
        let cat = (0..snap.catalogs.len()).find(|&c| snap.catalogs[c].name == "cat").unwrap();
        let all: Vec<EntryId> = snap.catalogs[cat].entries.clone().collect();
        let names = |ids: &[EntryId]| ids.iter().map(|&i| snap.entry(i).name).collect::<Vec<_>>();
        assert!(whole_run(&snap, &all).is_some());
        assert_eq!(names(&subscription_order(&snap, &all).unwrap()), ["a.v3", "a.v2", "a.v1"]);
        // A part of the channel (a startingCSV's), or the entries in another order, is no run.
        assert_eq!(whole_run(&snap, &all[1..]), None);
        let reversed: Vec<EntryId> = all.iter().rev().copied().collect();
        assert_eq!(whole_run(&snap, &reversed), None);
        assert_eq!(names(&subscription_order(&snap, &all[2..]).unwrap()), ["a.v2"]);
    }

    #[test]
    fn a_required_api_prefers_the_dependents_own_catalog_then_higher_priority() {
        let a = package(
            "a",
            r#"{"name":"a.v1"}"#,
            &bundle("a.v1", "1.0.0", &format!(r#"{{"type":"olm.gvk.required","value":{GVK}}}"#)),
        );
        let own = package(
            "p",
            r#"{"name":"p.v1"}"#,
            &bundle("p.v1", "1.0.0", &format!(r#"{{"type":"olm.gvk","value":{GVK}}}"#)),
        );
        let other = package(
            "q",
            r#"{"name":"q.v1"}"#,
            &bundle("q.v1", "1.0.0", &format!(r#"{{"type":"olm.gvk","value":{GVK}}}"#)),
        );
        let vars = variables(&format!(
            r#"{{"namespace":"ns","catalogs":[
              {{"name":"cat","namespace":"ns","priority":0,"packages":[{a},{own}]}},
              {{"name":"high","namespace":"ns","priority":10,"packages":[{other}]}}],
            "subscriptions":[{{"name":"sub","package":"a","channel":"stable","catalog":"cat","catalogNamespace":"ns"}}]}}"#
        ));
        assert!(
            vars.contains(&"cat/ns/stable/a.v1: one of [cat/ns/stable/p.v1, high/ns/stable/q.v1]".to_string()),
            "{vars:#?}"
        );
    }

    #[test]
    fn a_bundle_marked_olm_deprecated_is_prohibited() {
        let a = package("a", r#"{"name":"a.v1"}"#, &bundle("a.v1", "1.0.0", r#"{"type":"olm.deprecated","value":{}}"#));
        let vars = variables(&format!(
            r#"{{"namespace":"ns","catalogs":[{{"name":"cat","namespace":"ns","packages":[{a}]}}],
            "subscriptions":[{{"name":"sub","package":"a","channel":"stable","catalog":"cat","catalogNamespace":"ns"}}]}}"#
        ));
        assert!(vars.contains(&"cat/ns/stable/a.v1: prohibited".to_string()), "{vars:#?}");
    }

    #[test]
    fn an_installed_csv_is_upgraded_by_what_replaces_it_and_may_stay() {
        let a = package(
            "a",
            r#"{"name":"a.v1"},{"name":"a.v2","replaces":"a.v1"}"#,
            &[bundle("a.v1", "1.0.0", ""), bundle("a.v2", "2.0.0", "")].join(","),
        );
        let vars = variables(&format!(
            r#"{{"namespace":"ns","catalogs":[{{"name":"cat","namespace":"ns","packages":[{a}]}}],
            "installed":[{{"name":"a.v1","version":"1.0.0","properties":[{{"type":"olm.package","value":{{"packageName":"a","version":"1.0.0"}}}}]}}],
            "subscriptions":[{{"name":"sub","package":"a","channel":"stable","catalog":"cat","catalogNamespace":"ns","installedCSV":"a.v1"}}]}}"#
        ));
        assert!(
            vars.iter().any(|l| l.ends_with(": one of [cat/ns/stable/a.v2, @existing/ns//a.v1]")),
            "the upgrade first, then the installed CSV itself: {vars:#?}"
        );
    }

    #[test]
    fn at_most_one_bundle_of_a_package_is_installed() {
        let a = package(
            "a",
            r#"{"name":"a.v1"},{"name":"a.v2","replaces":"a.v1"}"#,
            &[bundle("a.v1", "1.0.0", ""), bundle("a.v2", "2.0.0", "")].join(","),
        );
        let vars = variables(&format!(
            r#"{{"namespace":"ns","catalogs":[{{"name":"cat","namespace":"ns","packages":[{a}]}}],
            "subscriptions":[{{"name":"sub","package":"a","channel":"stable","catalog":"cat","catalogNamespace":"ns"}}]}}"#
        ));
        assert!(
            vars.iter().any(|l| l.contains("at most 1 of [cat/ns/stable/a.v2, cat/ns/stable/a.v1]")
                || l.contains("at most 1 of [cat/ns/stable/a.v1, cat/ns/stable/a.v2]")),
            "{vars:#?}"
        );
    }

    /// A problem where one bundle requires [`GVK`] and many bundles, in catalogs `cats` (name,
    /// namespace) and channels `channels`, provide it: the providers' invariant lists them all.
    fn providers_invariant(cats: &[(&str, &str)], channels: &[&str], installed: bool) -> Vec<String> {
        let provides = format!(r#"{{"type":"olm.gvk","value":{GVK}}}"#);
        let catalogs: Vec<String> = cats
            .iter()
            .enumerate()
            .map(|(ci, (name, ns))| {
                let mut packages = Vec::new();
                if ci == 0 {
                    let needs = format!(r#"{{"type":"olm.gvk.required","value":{GVK}}}"#);
                    packages.push(package("a", r#"{"name":"a.v1"}"#, &bundle("a.v1", "1.0.0", &needs)));
                }
                let channel_list: Vec<String> = channels
                    .iter()
                    .map(|c| {
                        format!(
                            r#"{{"name":"{c}","entries":[{{"name":"p-{c}.v1","replaces":"p.v1"}},{{"name":"p.v1"}}]}}"#
                        )
                    })
                    .collect();
                let mut bundles: Vec<String> =
                    channels.iter().map(|c| bundle(&format!("p-{c}.v1"), "1.0.0", &provides)).collect();
                bundles.push(bundle("p.v1", "1.0.0", &provides));
                packages.push(format!(
                    r#"{{"name":"p","defaultChannel":"{}","channels":[{}],"bundles":[{}]}}"#,
                    channels[0],
                    channel_list.join(","),
                    bundles.join(",")
                ));
                format!(r#"{{"name":"{name}","namespace":"{ns}","packages":[{}]}}"#, packages.join(","))
            })
            .collect();
        let installed = if installed {
            let csv = |n: &str| {
                format!(
                    r#"{{"name":"{n}","version":"1.0.0","properties":[{provides},{{"type":"olm.package","value":{{"packageName":"{n}","version":"1.0.0"}}}}]}}"#
                )
            };
            format!(r#""installed":[{},{}],"#, csv("z.v1"), csv("b.v1"))
        } else {
            String::new()
        };
        let vars = variables(&format!(
            r#"{{"namespace":"ns","catalogs":[{}],{installed}
            "subscriptions":[{{"name":"sub","package":"a","channel":"stable","catalog":"{}","catalogNamespace":"{}"}}]}}"#,
            catalogs.join(","),
            cats[0].0,
            cats[0].1
        ));
        let line = vars.iter().find(|l| l.starts_with("K (g/v1): at most 1 of [")).expect("the GVK's invariant");
        line.trim_start_matches("K (g/v1): at most 1 of [")
            .trim_end_matches(']')
            .split(", ")
            .map(String::from)
            .collect()
    }

    #[test]
    fn an_invariant_lists_its_bundles_in_identifier_order() {
        // `-` sorts before `/`, so `x-y/...` comes before `x/...` and catalog `c-d` before `c`.
        let cases: [(&[(&str, &str)], bool); 3] = [
            (&[("c", "ns"), ("c-d", "ns"), ("b", "ns")], false),
            (&[("c", "ns"), ("c-d", "ns"), ("b", "ns")], true),
            // A catalog's prefix `a/ns/` begins another's (`a/ns/ns/`): compared whole.
            (&[("a", "ns"), ("a/ns", "ns"), ("a-b", "ns")], true),
        ];
        for (cats, installed) in cases {
            let ids = providers_invariant(cats, &["x", "x-y", "xa", "x.y"], installed);
            let mut sorted = ids.clone();
            sorted.sort();
            assert_eq!(ids, sorted, "{cats:?}");
            let expected = cats.len() * 8 + if installed { 2 } else { 0 };
            assert_eq!(ids.len(), expected, "every provider: {ids:#?}");
        }
    }

    #[test]
    fn each_requirement_has_its_own_candidates_and_a_repeated_one_the_same() {
        let needs = format!(
            r#"{{"type":"olm.gvk.required","value":{GVK}}},{{"type":"olm.package.required","value":{{"packageName":"q","versionRange":">=1.0.0"}}}}"#
        );
        let a = package(
            "a",
            r#"{"name":"a.v1"},{"name":"a.v2","replaces":"a.v1"}"#,
            &[bundle("a.v1", "1.0.0", &needs), bundle("a.v2", "2.0.0", &needs)].join(","),
        );
        let p = package(
            "p",
            r#"{"name":"p.v1"}"#,
            &bundle("p.v1", "1.0.0", &format!(r#"{{"type":"olm.gvk","value":{GVK}}}"#)),
        );
        let q = package("q", r#"{"name":"q.v1"}"#, &bundle("q.v1", "1.0.0", ""));
        let vars = variables(&format!(
            r#"{{"namespace":"ns","catalogs":[{{"name":"cat","namespace":"ns","packages":[{a},{p},{q}]}}],
            "subscriptions":[{{"name":"sub","package":"a","channel":"stable","catalog":"cat","catalogNamespace":"ns"}}]}}"#
        ));
        for v in ["a.v1", "a.v2"] {
            for dependency in ["p.v1", "q.v1"] {
                let line = format!("cat/ns/stable/{v}: one of [cat/ns/stable/{dependency}]");
                assert!(vars.contains(&line), "{line}: {vars:#?}");
            }
        }
    }

    #[test]
    fn entries_with_the_same_identifier_share_one_variable() {
        // `x/y` + `n` and `x` + `y/n` both give `cat/ns/x/y/n`.
        let provides = format!(r#"{{"type":"olm.gvk","value":{GVK}}}"#);
        let p = format!(
            r#"{{"name":"p","defaultChannel":"x","channels":[{{"name":"x/y","entries":[{{"name":"n"}}]}},{{"name":"x","entries":[{{"name":"y/n"}}]}}],"bundles":[{},{}]}}"#,
            bundle("n", "1.0.0", &provides),
            bundle("y/n", "1.0.0", &provides)
        );
        let needs = format!(r#"{{"type":"olm.gvk.required","value":{GVK}}}"#);
        let a = package("a", r#"{"name":"a.v1"}"#, &bundle("a.v1", "1.0.0", &needs));
        let json = format!(
            r#"{{"namespace":"ns","catalogs":[{{"name":"cat","namespace":"ns","packages":[{a},{p}]}}],
            "subscriptions":[{{"name":"sub","package":"a","channel":"stable","catalog":"cat","catalogNamespace":"ns"}}]}}"#
        );
        let cluster = serde_json::from_str::<ProblemJson>(&json).unwrap().into_cluster().unwrap();
        let snap = Snapshot::build(&cluster).unwrap();
        let built = build(&cluster, &snap).unwrap();
        let same: Vec<usize> =
            (0..built.variables.len()).filter(|&v| built.variables[v].id == "cat/ns/x/y/n").collect();
        assert_eq!(same.len(), 1, "one variable: {:#?}", built.variables);
        let dependency = built
            .variables
            .iter()
            .flat_map(|v| &v.constraints)
            .find_map(|c| match &c.kind {
                ConstraintKind::Dependency(d) if d.contains(&same[0]) => Some(d.clone()),
                _ => None,
            })
            .expect("a.v1's dependency");
        assert_eq!(dependency, vec![same[0], same[0]]);
    }
}
