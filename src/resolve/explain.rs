//! Explanations people can read: why each selected bundle was picked (its requirement, its rank
//! among the candidates, and which better-ranked candidates could not be used), and, when
//! nothing satisfies the constraints, a tree that says for each conflicting requirement which
//! candidates existed and what excluded each one.

use std::collections::HashSet;

use serde::Serialize;

use super::snapshot::Snapshot;
use super::solver::{self, Applied, ConstraintKind, Solution};
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
    /// The requirement that asked for it (its message); `None` when it was mandatory on its own.
    pub required_by: Option<String>,
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

/// The reasons of every pick, in search order (bundle variables only).
pub(super) fn picks(snap: &Snapshot, built: &Built, solution: &Solution) -> Vec<PickReason> {
    let vars = &built.variables;
    let mut out = Vec::new();
    for p in &solution.picks {
        let Subject::Bundle(e) = built.subjects[p.variable] else { continue };
        let installed = snap.catalogs[snap.entries[e].catalog].is_virtual;
        let (required_by, rank, candidates) = match p.by {
            Some(a) => {
                let ConstraintKind::Dependency(d) = &vars[a.variable].constraints[a.constraint].kind else {
                    continue;
                };
                let rank = d.iter().position(|&c| c == p.variable).map(|i| i + 1).unwrap_or(0);
                (Some(solver::message(vars, a)), rank, d.len())
            }
            None => (None, 1, 1),
        };
        let rejected: Vec<String> = p.rejected.iter().map(|&r| vars[r].id.clone()).collect();
        let why = match (&required_by, p.by.map(|a| &built.subjects[a.variable])) {
            (None, _) => "installed and not referenced by a subscription, so it must stay".to_string(),
            (Some(_), Some(Subject::Subscription(_))) if installed => {
                "no upgrade candidate could be installed, so the installed version stays".to_string()
            }
            (Some(_), Some(Subject::Subscription(_))) => {
                let upgrading = built.replaces.contains_key(&e);
                let sub = &snap.entries[e];
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
            (Some(_), _) if installed => "an installed operator satisfies the requirement (installed operators are preferred)".into(),
            (Some(_), _) if rank == 1 => "the most preferred candidate: installed operators first, then the dependent's own catalog, higher catalog priority, same namespace, catalog name, default channel, package name, channel name, and closeness to the channel head".into(),
            (Some(_), _) => "the first candidate in OLM's preference order that can be installed; better-ranked ones were blocked".into(),
        };
        let requester = p.by.map(|a| match &built.subjects[a.variable] {
            Subject::Subscription(_) => {
                format!("subscription {}", vars[a.variable].id.trim_start_matches("subscription:"))
            }
            Subject::Bundle(b) => format!("bundle {}", snap.entries[*b].name),
            Subject::Invariant => vars[a.variable].id.clone(),
        });
        out.push(PickReason {
            bundle: vars[p.variable].id.clone(),
            requester,
            name: snap.entries[e].name.clone(),
            installed,
            required_by,
            rank,
            candidates,
            rejected,
            why,
        });
    }
    // A subscription whose requirement was already met by a bundle picked for something else:
    // OLM never tries its other candidates (an upgrade, say).
    for &(a, c) in &solution.already_met {
        let Subject::Subscription(_) = built.subjects[a.variable] else { continue };
        let Subject::Bundle(e) = built.subjects[c] else { continue };
        let ConstraintKind::Dependency(d) = &vars[a.variable].constraints[a.constraint].kind else { continue };
        let rank = d.iter().position(|&x| x == c).map(|i| i + 1).unwrap_or(0);
        let installed = snap.catalogs[snap.entries[e].catalog].is_virtual;
        let earlier = out.iter().find(|p| p.bundle == vars[c].id).and_then(|p| p.requester.clone());
        let why = match (rank, earlier) {
            (1, _) => "already selected, and the most preferred candidate".to_string(),
            (_, Some(by)) => format!(
                "already selected for {by}, so OLM does not try this subscription's better-ranked candidates{}",
                if installed { " (no upgrade this time)" } else { "" }
            ),
            (_, None) => "already selected, so OLM does not try this subscription's better-ranked candidates".into(),
        };
        out.push(PickReason {
            bundle: vars[c].id.clone(),
            name: snap.entries[e].name.clone(),
            installed,
            required_by: Some(solver::message(vars, a)),
            requester: Some(format!("subscription {}", vars[a.variable].id.trim_start_matches("subscription:"))),
            rank,
            candidates: d.len(),
            rejected: Vec::new(),
            why,
        });
    }
    out
}

/// The explanation tree of an unsatisfiable core.
pub(super) fn explain(snap: &Snapshot, built: &Built, core: &[Applied]) -> Explanation {
    let vars = &built.variables;
    let mut children = Vec::new();
    let mut shown: HashSet<Applied> = HashSet::new();
    // Requirements (dependencies) are the roots; everything else appears under them when it
    // concerns a candidate, or on its own otherwise.
    for &a in core {
        if let ConstraintKind::Dependency(_) = vars[a.variable].constraints[a.constraint].kind {
            if matches!(built.subjects[a.variable], Subject::Subscription(_)) {
                children.push(requirement(snap, built, core, a, &mut shown, 0));
            }
        }
    }
    for &a in core {
        if shown.contains(&a) {
            continue;
        }
        if let ConstraintKind::Dependency(_) = vars[a.variable].constraints[a.constraint].kind {
            children.push(requirement(snap, built, core, a, &mut shown, 0));
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

fn requirement(
    snap: &Snapshot,
    built: &Built,
    core: &[Applied],
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
        let what = built
            .dependency_text
            .get(&(a.variable, a.constraint))
            .map(|t| format!("no bundle in the visible catalogs is {t}"))
            .unwrap_or_else(|| "no candidate matched in the subscription's catalog".to_string());
        children.push(Explanation { message: what, children: Vec::new() });
    }
    let mut per_candidate: Vec<(usize, usize, &str, Vec<Explanation>)> = Vec::new();
    for (i, &c) in cands.iter().enumerate() {
        let mut reasons = Vec::new();
        for &o in core {
            if o == a {
                continue;
            }
            let oc = &vars[o.variable].constraints[o.constraint];
            let concerns = match &oc.kind {
                ConstraintKind::Prohibited => o.variable == c,
                ConstraintKind::Conflict(x) => o.variable == c || *x == c,
                ConstraintKind::AtMost(_, d) => d.contains(&c),
                ConstraintKind::Dependency(_) => o.variable == c,
                ConstraintKind::Mandatory => false,
            };
            if !concerns {
                continue;
            }
            if matches!(oc.kind, ConstraintKind::Dependency(_)) && depth < MAX_DEPTH && !shown.contains(&o) {
                reasons.push(requirement(snap, built, core, o, shown, depth + 1));
            } else {
                shown.insert(o);
                reasons.push(Explanation { message: short(built, o), children: Vec::new() });
            }
        }
        let installed = match built.subjects[c] {
            Subject::Bundle(e) => snap.catalogs[snap.entries[e].catalog].is_virtual,
            _ => false,
        };
        let label = if installed { " (installed)" } else { "" };
        per_candidate.push((i, c, label, reasons));
    }
    // Candidates excluded for the same reasons are shown together.
    let mut k = 0;
    while k < per_candidate.len() {
        let mut j = k + 1;
        while j < per_candidate.len() && per_candidate[j].3 == per_candidate[k].3 {
            j += 1;
        }
        let (i, c, label, reasons) = &per_candidate[k];
        let message = match (j - k, reasons.is_empty()) {
            (1, true) => format!("candidate {} {}{label}: not excluded by itself", i + 1, vars[*c].id),
            (1, false) => format!("candidate {} {}{label} is excluded:", i + 1, vars[*c].id),
            (n, empty) => {
                let (_, last, _, _) = &per_candidate[j - 1];
                let what = if n == cands.len() { format!("all {n} candidates") } else { format!("{n} candidates") };
                format!(
                    "{what} ({} … {}) {}",
                    vars[*c].id,
                    vars[*last].id,
                    if empty { "are not excluded by themselves" } else { "are excluded:" }
                )
            }
        };
        children.push(Explanation { message, children: reasons.clone() });
        k = j;
    }
    Explanation { message: short(built, a), children }
}
