//! Explanations people can read: why each selected bundle was picked (its requirement, its rank
//! among the candidates, and which better-ranked candidates could not be used), and, when
//! nothing satisfies the constraints, a tree that says for each conflicting requirement which
//! candidates existed and what excluded each one.

use std::fmt;
use std::sync::Arc;

use crate::hash::{HashMap, HashMapExt, HashSet, HashSetExt};

use serde::Serialize;

use super::snapshot::{EntryId, Snapshot};
use super::solver::{self, Applied, ConstraintKind, Message, Pick, Solution, Variable};
use super::variables::{Built, Subject};

/// A node of the failure explanation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Explanation {
    /// One line of the explanation.
    pub message: String,
    /// What the line depends on.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Explanation>,
}

/// Why one bundle was selected.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PickReason {
    /// The bundle's resolver identifier (`catalog/namespace/channel/name`).
    pub bundle: String,
    /// The bundle (CSV) name.
    pub name: String,
    /// Already installed (kept), rather than new.
    pub installed: bool,
    /// The requirement that asked for it; `None` when it was mandatory on its own. Its text
    /// (OLM's constraint message, which lists the candidates) is formatted when read
    /// ([`Requirement::text`]), not with every resolution; it is serialized only on request
    /// ([`super::Outcome::with_texts`]).
    #[serde(skip)]
    pub required_by: Option<Requirement>,
    /// Who had that requirement: `subscription <name>` or `bundle <name>`.
    pub requester: Option<String>,
    /// Its position (1-based) among that requirement's candidates, most preferred first.
    pub rank: usize,
    /// How many candidates the requirement had.
    pub candidates: usize,
    /// Better-ranked candidates that could not be installed alongside the rest.
    pub rejected: Vec<String>,
    /// A sentence saying why.
    pub why: String,
}

/// The requirement that asked for a pick, kept so that its text is formatted only when read.
///
/// A subscription's requirement lists its candidates' identifiers (up to
/// [`super::MAX_LISTED`]): these texts were most of a resolution's outcome, and most callers
/// never read them. The identifiers they name are kept once per resolution, shared by its picks
/// (moved out of the resolution's variables, not copied).
#[derive(Clone)]
pub struct Requirement {
    /// The identifiers the resolution's requirements name.
    ids: Arc<[String]>,
    text: Text,
}

/// How a requirement's text is made.
#[derive(Clone)]
enum Text {
    /// Formatted with the resolution (a short text: a bundle's dependency, a system constraint).
    Formatted(String),
    /// `subscription <name> requires at least one of <candidates>`: `subject` is the
    /// subscription's identifier, `shown` the first candidates (indexes into `ids`) of `total`.
    Subscription { subject: u32, shown: Box<[u32]>, total: usize },
    /// OLM's default text of a dependency: `<subject> requires at least one of <candidates>`.
    Dependency { subject: u32, candidates: Box<[u32]> },
}

impl Requirement {
    /// The requirement's text: OLM's message for the constraint, e.g. `subscription foo requires
    /// at least one of cat/ns/stable/foo.v2, cat/ns/stable/foo.v1`.
    pub fn text(&self) -> String {
        let names = |list: &[u32]| list.iter().map(|&i| self.ids[i as usize].as_str()).collect::<Vec<&str>>();
        match &self.text {
            Text::Formatted(t) => t.clone(),
            Text::Subscription { subject, shown, total } => {
                solver::subscription_text(&self.ids[*subject as usize], &names(shown), *total)
            }
            Text::Dependency { subject, candidates } => {
                solver::dependency_text(&self.ids[*subject as usize], &names(candidates))
            }
        }
    }
}

impl fmt::Display for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

impl fmt::Debug for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.text(), f)
    }
}

impl PartialEq for Requirement {
    /// Two requirements are equal when their texts are.
    fn eq(&self, other: &Requirement) -> bool {
        self.text() == other.text()
    }
}

impl Eq for Requirement {}

impl Serialize for Requirement {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text())
    }
}

/// The requirements of a resolution's picks while they are found: which variables' identifiers
/// their texts name (each kept once, in `taken`), and how each text is made.
struct Requirements {
    /// Per variable, its index in `taken` (`u32::MAX`: not taken).
    place: Vec<u32>,
    /// The variables whose identifiers are kept, in order.
    taken: Vec<usize>,
}

impl Requirements {
    fn new(variables: usize) -> Requirements {
        Requirements { place: vec![u32::MAX; variables], taken: Vec::new() }
    }

    /// Variable `v`'s index among the kept identifiers.
    fn id(&mut self, v: usize) -> u32 {
        if self.place[v] == u32::MAX {
            self.place[v] = self.taken.len() as u32;
            self.taken.push(v);
        }
        self.place[v]
    }

    /// How the text of dependency `a` is made: its candidates listed from the kept identifiers
    /// (a subscription's, or OLM's default text), any other message formatted now.
    fn of(&mut self, vars: &[Variable], a: Applied) -> Text {
        let c = &vars[a.variable].constraints[a.constraint];
        let ConstraintKind::Dependency(candidates) = &c.kind else {
            return Text::Formatted(solver::message(vars, a));
        };
        match c.message {
            Message::Subscription => Text::Subscription {
                subject: self.id(a.variable),
                shown: candidates.iter().take(super::MAX_LISTED).map(|&v| self.id(v)).collect(),
                total: candidates.len(),
            },
            Message::Default => Text::Dependency {
                subject: self.id(a.variable),
                candidates: candidates.iter().map(|&v| self.id(v)).collect(),
            },
            _ => Text::Formatted(solver::message(vars, a)),
        }
    }

    /// The kept identifiers, moved out of the variables (which the resolution drops next).
    fn into_ids(self, vars: &mut [Variable]) -> Arc<[String]> {
        self.taken.into_iter().map(|v| std::mem::take(&mut vars[v].id)).collect()
    }
}

/// The reasons of every pick, in search order (bundle variables only). The picks' requirement
/// texts keep the identifiers they name, which are moved out of `built`'s variables: `built` is
/// not used after this.
pub(super) fn picks(snap: &Snapshot, built: &mut Built, solution: &Solution) -> Vec<PickReason> {
    let mut requirements = Requirements::new(built.variables.len());
    let mut texts: Vec<Option<Text>> = Vec::new();
    let mut out: Vec<PickReason> = Vec::new();
    for p in &solution.picks {
        if let Some(reason) = pick_reason(snap, built, p) {
            texts.push(p.by.map(|a| requirements.of(&built.variables, a)));
            out.push(reason);
        }
    }
    // A subscription whose requirement was already met by a bundle picked for something else:
    // OLM never tries its other candidates (an upgrade, say).
    for &(a, c) in &solution.already_met {
        if let Some(reason) = already_met_reason(snap, built, &out, a, c) {
            texts.push(Some(requirements.of(&built.variables, a)));
            out.push(reason);
        }
    }
    let ids = requirements.into_ids(&mut built.variables);
    for (pick, text) in out.iter_mut().zip(texts) {
        pick.required_by = text.map(|text| Requirement { ids: ids.clone(), text });
    }
    out
}

/// Why the search picked a bundle: its rank in its requirement, the better ones passed over (the
/// requirement's text is added by [`picks`]).
fn pick_reason(snap: &Snapshot, built: &Built, p: &Pick) -> Option<PickReason> {
    let vars = &built.variables;
    let Subject::Bundle(e) = built.subjects[p.variable] else { return None };
    let installed = snap.catalogs[snap.entry(e).catalog].is_virtual;
    let (rank, candidates) = match p.by {
        Some(a) => rank_in(built, a, p.variable)?,
        None => (1, 1),
    };
    let rejected: Vec<String> = p.rejected.iter().map(|&r| vars[r].id.clone()).collect();
    let why = match p.by.map(|a| &built.subjects[a.variable]) {
        None => "installed and not referenced by a subscription, so it must stay".to_string(),
        Some(Subject::Subscription(_)) if installed => {
            "no upgrade candidate could be installed, so the installed version stays".to_string()
        }
        Some(Subject::Subscription(_)) => why_for_subscription(snap, built, e, rank),
        Some(_) if installed => "an installed operator satisfies the requirement (installed operators are preferred)".into(),
        Some(_) if rank == 1 => "the most preferred candidate: installed operators first, then the dependent's own catalog, higher catalog priority, same namespace, catalog name, default channel, package name, channel name, and closeness to the channel head".into(),
        Some(_) => "the first candidate in OLM's preference order that can be installed; better-ranked ones were blocked".into(),
    };
    Some(PickReason {
        bundle: vars[p.variable].id.clone(),
        requester: p.by.map(|a| requester(snap, built, a)),
        name: snap.entry(e).name.to_string(),
        installed,
        required_by: None,
        rank,
        candidates,
        rejected,
        why,
    })
}

/// `c`'s rank (1-based, 0 if absent) among dependency `a`'s candidates, and how many there are.
fn rank_in(built: &Built, a: Applied, c: usize) -> Option<(usize, usize)> {
    let ConstraintKind::Dependency(d) = &built.variables[a.variable].constraints[a.constraint].kind else {
        return None;
    };
    Some((d.iter().position(|&x| x == c).map(|i| i + 1).unwrap_or(0), d.len()))
}

/// Why a subscription got entry `e` at `rank`: channel head, closest upgrade, or a fallback.
fn why_for_subscription(snap: &Snapshot, built: &Built, e: EntryId, rank: usize) -> String {
    let upgrading = built.replaces.contains_key(&e);
    let sub = snap.entry(e);
    match (upgrading, rank) {
        (true, 1) => format!(
            "the upgrade candidate closest to the head of channel {} that directly replaces, skips or skipRange-covers the installed version",
            sub.channel
        ),
        (true, _) => format!(
            "the first upgrade candidate in channel {} (closest to the head) that can be installed; better-ranked ones were blocked",
            sub.channel
        ),
        (false, 1) => format!("the head of channel {}", sub.channel),
        (false, _) => format!(
            "the entry closest to the head of channel {} that can be installed; better-ranked ones were blocked",
            sub.channel
        ),
    }
}

/// Who had requirement `a`: `subscription <name>`, `bundle <name>` or an invariant's id.
fn requester(snap: &Snapshot, built: &Built, a: Applied) -> String {
    let vars = &built.variables;
    match &built.subjects[a.variable] {
        Subject::Subscription(_) => format!("subscription {}", vars[a.variable].id.trim_start_matches("subscription:")),
        Subject::Bundle(b) => format!("bundle {}", snap.entry(*b).name),
        Subject::Invariant => vars[a.variable].id.clone(),
    }
}

/// Why a subscription kept `c`, picked earlier for something else: OLM tried nothing better.
fn already_met_reason(snap: &Snapshot, built: &Built, out: &[PickReason], a: Applied, c: usize) -> Option<PickReason> {
    let vars = &built.variables;
    let Subject::Subscription(_) = built.subjects[a.variable] else { return None };
    let Subject::Bundle(e) = built.subjects[c] else { return None };
    let (rank, candidates) = rank_in(built, a, c)?;
    let installed = snap.catalogs[snap.entry(e).catalog].is_virtual;
    let earlier = out.iter().find(|p| p.bundle == vars[c].id).and_then(|p| p.requester.clone());
    let why = match (rank, earlier) {
        (1, _) => "already selected, and the most preferred candidate".to_string(),
        (_, Some(by)) => format!(
            "already selected for {by}, so OLM does not try this subscription's better-ranked candidates{}",
            if installed { " (no upgrade this time)" } else { "" }
        ),
        (_, None) => "already selected, so OLM does not try this subscription's better-ranked candidates".into(),
    };
    Some(PickReason {
        bundle: vars[c].id.clone(),
        name: snap.entry(e).name.to_string(),
        installed,
        required_by: None,
        requester: Some(requester(snap, built, a)),
        rank,
        candidates,
        rejected: Vec::new(),
        why,
    })
}

/// The explanation tree of an unsatisfiable core.
pub(super) fn explain(snap: &Snapshot, built: &Built, core: &[Applied]) -> Explanation {
    let vars = &built.variables;
    let index = Concerning::new(built, core);
    let concerning = &index;
    let mut children = Vec::new();
    let mut shown: HashSet<Applied> = HashSet::new();
    // Requirements (dependencies) are the roots; everything else appears under them when it
    // concerns a candidate, or on its own otherwise.
    for &a in core {
        if let ConstraintKind::Dependency(_) = vars[a.variable].constraints[a.constraint].kind {
            if matches!(built.subjects[a.variable], Subject::Subscription(_)) {
                children.push(requirement(snap, built, concerning, a, &mut shown, 0));
            }
        }
    }
    for &a in core {
        if shown.contains(&a) {
            continue;
        }
        if let ConstraintKind::Dependency(_) = vars[a.variable].constraints[a.constraint].kind {
            children.push(requirement(snap, built, concerning, a, &mut shown, 0));
        }
    }
    for &a in core {
        if !shown.contains(&a) {
            shown.insert(a);
            children.push(Explanation { message: short(built, a), children: Vec::new() });
        }
    }
    let message = if core.is_empty() {
        "constraints not satisfiable".to_string()
    } else {
        format!("constraints not satisfiable: {} constraints cannot hold together", core.len())
    };
    Explanation { message, children }
}

const MAX_DEPTH: usize = 12;

/// How many identifiers a long list shows before "and N more".
const LIST_HEAD: usize = 4;

/// A constraint's message for the tree: long identifier lists are shortened.
fn short(built: &Built, a: Applied) -> String {
    let vars = &built.variables;
    let full = solver::message(vars, a);
    let ids: Vec<&str> = match &vars[a.variable].constraints[a.constraint].kind {
        ConstraintKind::AtMost(_, d) | ConstraintKind::Dependency(d) if d.len() > LIST_HEAD + 2 => {
            d.iter().map(|&i| vars[i].id.as_str()).collect()
        }
        _ => return full,
    };
    // Find the rendered list in the message and replace it with its head.
    for sep in [" and ", " or "] {
        let list = match ids.split_last() {
            Some((last, rest)) => format!("{}{sep}{last}", rest.join(", ")),
            None => String::new(),
        };
        if let Some(at) = full.find(&list) {
            let head = format!("{} and {} more", ids[..LIST_HEAD].join(", "), ids.len() - LIST_HEAD);
            return format!("{}{head}{}", &full[..at], &full[at + list.len()..]);
        }
    }
    let list = ids.join(", ");
    if let Some(at) = full.find(&list) {
        let head = format!("{} and {} more", ids[..LIST_HEAD].join(", "), ids.len() - LIST_HEAD);
        return format!("{}{head}{}", &full[..at], &full[at + list.len()..]);
    }
    full
}

/// Requirement `a` as a tree: its candidates, each with the core constraints that exclude it.
fn requirement(
    snap: &Snapshot,
    built: &Built,
    core: &Concerning,
    a: Applied,
    shown: &mut HashSet<Applied>,
    depth: usize,
) -> Explanation {
    let vars = &built.variables;
    shown.insert(a);
    let ConstraintKind::Dependency(cands) = &vars[a.variable].constraints[a.constraint].kind else {
        return Explanation { message: short(built, a), children: Vec::new() };
    };
    let mut children = Vec::new();
    if cands.is_empty() {
        children.push(no_candidates(built, a));
    }
    let mut per_candidate: Vec<Candidate> = Vec::new();
    for (i, &c) in cands.iter().enumerate() {
        let reasons = exclusions(snap, built, core, a, c, shown, depth);
        let label = if is_installed(snap, built, c) { " (installed)" } else { "" };
        per_candidate.push(Candidate { index: i, variable: c, label, reasons });
    }
    children.extend(grouped(built, cands.len(), &per_candidate));
    Explanation { message: short(built, a), children }
}

/// One candidate of a requirement in the tree, with the reasons that exclude it.
struct Candidate {
    index: usize,
    variable: usize,
    label: &'static str,
    reasons: Vec<Explanation>,
}

/// What a requirement without candidates says: no visible bundle matches, or none in its catalog.
fn no_candidates(built: &Built, a: Applied) -> Explanation {
    let what = built.variables[a.variable].constraints[a.constraint]
        .message
        .predicate()
        .map(|t| format!("no bundle in the visible catalogs is {t}"))
        .unwrap_or_else(|| "no candidate matched in the subscription's catalog".to_string());
    Explanation { message: what, children: Vec::new() }
}

/// The core constraints other than `a` that exclude candidate `c`, requirements expanded.
fn exclusions(
    snap: &Snapshot,
    built: &Built,
    core: &Concerning,
    a: Applied,
    c: usize,
    shown: &mut HashSet<Applied>,
    depth: usize,
) -> Vec<Explanation> {
    let vars = &built.variables;
    let mut reasons = Vec::new();
    for &o in core.of(c) {
        if o == a {
            continue;
        }
        let oc = &vars[o.variable].constraints[o.constraint];
        if matches!(oc.kind, ConstraintKind::Dependency(_)) && depth < MAX_DEPTH && !shown.contains(&o) {
            reasons.push(requirement(snap, built, core, o, shown, depth + 1));
        } else {
            shown.insert(o);
            reasons.push(Explanation { message: short(built, o), children: Vec::new() });
        }
    }
    reasons
}

/// For each variable, the core constraints that can exclude it, in core order: built once, so
/// that explaining a requirement with thousands of candidates does not scan the core for each.
struct Concerning {
    by_variable: HashMap<usize, Vec<Applied>>,
}

impl Concerning {
    fn new(built: &Built, core: &[Applied]) -> Concerning {
        let mut by_variable: HashMap<usize, Vec<Applied>> = HashMap::new();
        for &o in core {
            let mut add = |c: usize| {
                let list = by_variable.entry(c).or_default();
                if list.last() != Some(&o) {
                    list.push(o);
                }
            };
            match &built.variables[o.variable].constraints[o.constraint].kind {
                ConstraintKind::Prohibited | ConstraintKind::Dependency(_) => add(o.variable),
                ConstraintKind::Conflict(x) => {
                    add(o.variable);
                    add(*x);
                }
                ConstraintKind::AtMost(_, d) => d.iter().for_each(|&c| add(c)),
                ConstraintKind::Mandatory => {}
            }
        }
        Concerning { by_variable }
    }

    /// The core constraints that can exclude variable `c`.
    fn of(&self, c: usize) -> &[Applied] {
        self.by_variable.get(&c).map_or(&[], Vec::as_slice)
    }
}

/// Whether variable `c` is an installed operator (a bundle of the virtual catalog).
fn is_installed(snap: &Snapshot, built: &Built, c: usize) -> bool {
    match built.subjects[c] {
        Subject::Bundle(e) => snap.catalogs[snap.entry(e).catalog].is_virtual,
        _ => false,
    }
}

/// The candidates' nodes; consecutive ones excluded for the same reasons are shown together.
fn grouped(built: &Built, total: usize, per_candidate: &[Candidate]) -> Vec<Explanation> {
    let vars = &built.variables;
    let mut out = Vec::new();
    let mut k = 0;
    while k < per_candidate.len() {
        let mut j = k + 1;
        while j < per_candidate.len() && per_candidate[j].reasons == per_candidate[k].reasons {
            j += 1;
        }
        let Candidate { index: i, variable: c, label, reasons } = &per_candidate[k];
        let message = match (j - k, reasons.is_empty()) {
            (1, true) => format!("candidate {} {}{label}: not excluded by itself", i + 1, vars[*c].id),
            (1, false) => format!("candidate {} {}{label} is excluded:", i + 1, vars[*c].id),
            (n, empty) => {
                let last = per_candidate[j - 1].variable;
                let what = if n == total { format!("all {n} candidates") } else { format!("{n} candidates") };
                format!(
                    "{what} ({} … {}) {}",
                    vars[*c].id,
                    vars[last].id,
                    if empty { "are not excluded by themselves" } else { "are excluded:" }
                )
            }
        };
        out.push(Explanation { message, children: reasons.clone() });
        k = j;
    }
    out
}
