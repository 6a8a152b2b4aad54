//! Turning a problem into solver variables as OLM v0 does: a variable per explored bundle with
//! its dependencies (candidates in OLM's preference order), a variable per subscription, and the
//! one-provider-per-GVK and one-bundle-per-package invariants.

use std::collections::BTreeMap;

use crate::hash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::hash::BuildHasher;
use std::rc::Rc;
use std::sync::Arc;

use super::matching::CelMeter;
use super::predicate::Predicate;
use super::snapshot::{chain_order, EntryId, Snapshot};
use super::solver::{Constraint, ConstraintKind, Message, Variable};
use crate::cluster::{Cluster, Subscription};

mod invariants;
mod subscriptions;
use subscriptions::sort_channel;

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

/// No dependencies built yet (in `Builder::dependencies_of`).
const NONE32: u32 = u32::MAX;

/// The requirement number of a predicate that is not shared (it holds a CEL rule).
const UNSHARED: u32 = u32::MAX;

/// A bundle's dependency predicates and each one's requirement number (`UNSHARED`, or the same
/// number for the same requirement).
#[derive(Clone)]
struct Dependencies {
    predicates: Arc<[Predicate]>,
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
    /// Each bundle's dependency predicates once built: an index into `dependencies` (`NONE32`
    /// before), so that a bundle met again is found without hashing. An index, not the
    /// predicates themselves: 4 bytes per bundle of the snapshot, set up for every resolution.
    dependencies_of: Vec<u32>,
    dependencies: Vec<Dependencies>,
    /// The requirements met so far, numbered by their [`Predicate::memo_key`].
    requirements: HashMap<Vec<u8>, u32>,
    /// Each requirement's candidates for a dependent in a catalog: by requirement number, the
    /// (catalog, candidates) found so far. Found once per resolution, however many bundles repeat
    /// the requirement.
    found: Vec<Vec<(usize, Rc<[EntryId]>)>>,
    /// What CEL rules have cost so far.
    cel: CelMeter,
    /// Which bundles the dependency being explored matches.
    tested: Tested,
    built: Built,
}

/// Build the variables; `Err` holds the plain (not unsatisfiable) errors, already aggregated.
///
/// The builder's stages (a subscription, the invariants, `finish`, a bundle's predicates, a
/// dependency's candidates) are functions of their own (`#[inline(never)]`). Inlined into
/// `build` and `explore`, they made two functions so large that V8's optimizing compiler handles
/// them worse: Node's resolution was 8 % slower (`__resolveCount`, 0.648 against 0.597 ms).
/// Natively the speed is the same either way.
pub fn build(problem: &Cluster, snap: &Snapshot) -> Result<Built, Vec<String>> {
    let mut b = Builder {
        problem,
        snap,
        vars: Vec::new(),
        subjects: Vec::new(),
        var_of_entry: vec![NONE; snap.entries()],
        by_identifier: HashMap::new(),
        explored: vec![false; snap.entries()],
        dependencies_of: vec![NONE32; snap.bundles()],
        dependencies: Vec::new(),
        requirements: HashMap::new(),
        found: Vec::new(),
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

    /// The dependency predicates of entry `e`'s bundle (read once per catalog index, see
    /// `Snapshot::predicates`), each with its requirement's number in this resolution; once per
    /// bundle (a bundle listed in several channels is one set of facts).
    #[inline(never)] // a stage of its own: see `build`
    fn predicates(&mut self, e: EntryId) -> Result<Dependencies, String> {
        let bundle = self.snap.bundle_of(e);
        if let Some(p) = self.dependencies.get(self.dependencies_of[bundle] as usize) {
            return Ok(p.clone());
        }
        let read = self.snap.predicates(bundle)?;
        let known = &mut self.requirements;
        let requirements = read
            .keys
            .iter()
            .map(|key| {
                let Some(key) = key else { return UNSHARED };
                if let Some(&n) = known.get(&key[..]) {
                    return n;
                }
                let next = known.len() as u32;
                known.insert(key.to_vec(), next);
                next
            })
            .collect();
        let deps = Dependencies { predicates: read.predicates.clone(), requirements };
        self.dependencies_of[bundle] = self.dependencies.len() as u32;
        self.dependencies.push(deps.clone());
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
        let r = requirement as usize;
        if let Some((_, found)) = self.found.get(r).and_then(|l| l.iter().find(|(c, _)| *c == own)) {
            return Ok(found.clone());
        }
        let found: Rc<[EntryId]> = self.dependency_candidates(e, pred)?.into();
        if requirement != UNSHARED {
            if self.found.len() <= r {
                self.found.resize_with(r + 1, Vec::new);
            }
            self.found[r].push((own, found.clone()));
        }
        Ok(found)
    }

    /// OLM's candidates for one dependency of entry `e`, most preferred first (spec §2.4).
    #[inline(never)] // a stage of its own: see `build`
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

    /// Reorder variables so that anchors come in OLM's documented order: installed operators
    /// without subscription by name, subscriptions in input order, invariants by identifier,
    /// then everything else in creation order.
    #[inline(never)] // a stage of its own: see `build`
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

#[cfg(test)]
mod tests {
    //! OLM v0's variables, one rule per test, on small clusters written as JSON problems.

    use super::*;
    use crate::cluster::problem_json::ProblemJson;

    /// The variables of a problem as lines: `id: constraint` (dependency candidates by id, in
    /// preference order).
    pub(super) fn variables(json: &str) -> Vec<String> {
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

    pub(super) fn package(name: &str, entries: &str, bundles: &str) -> String {
        format!(
            r#"{{"name":"{name}","defaultChannel":"stable","channels":[{{"name":"stable","entries":[{entries}]}}],"bundles":[{bundles}]}}"#
        )
    }

    pub(super) fn bundle(name: &str, version: &str, extra: &str) -> String {
        format!(r#"{{"name":"{name}","version":"{version}","properties":[{extra}]}}"#)
    }

    pub(super) const GVK: &str = r#"{"group":"g","version":"v1","kind":"K"}"#;

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
