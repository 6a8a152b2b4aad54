//! The boolean problem OLM solves and its search: variables with Mandatory, Prohibited,
//! Dependency, Conflict and AtMost constraints; OLM's preference search (anchors in order, then
//! the first acceptable candidate of each dependency, breadth-first), and on failure a minimal
//! set of constraints that cannot hold together. The SAT work is done by `batsat`.
//!
//! Every constraint except Mandatory gets an activation literal that is assumed true, so an
//! unsatisfiable problem yields a core of constraints. The search asks the SAT solver, after
//! each guess, whether the guesses so far can still be completed; the first candidate that can
//! is taken. This gives the answer OLM's search defines (spec §3.2: the first leaf in its
//! depth-first order whose guesses are satisfiable together with every constraint) without
//! backtracking, because a satisfiable set of guesses always has an acceptable next candidate.
//!
//! Whether the guesses can still be completed is first asked of a model kept beside the search
//! (`Witness`, in `witness.rs`): installing the next candidate and mending, by hand, what that
//! breaks usually proves it. The SAT solver is built and asked only when that fails (always for an
//! unsatisfiable problem, whose core only the solver gives), so a typical resolution makes no
//! SAT call. The answer does not depend on which model proves a guess possible.

use std::cell::Cell;
use std::collections::VecDeque;

use crate::hash::{HashMap, HashMapExt};
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

use batsat::{lbool, Callbacks, ClauseKind, Lit, Solver, SolverInterface, SolverOpts, Var};

use super::predicate::Predicate;

mod witness;
use witness::Witness;

/// What a constraint says about its subject variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConstraintKind {
    /// The subject must be installed.
    Mandatory,
    /// The subject must not be installed.
    Prohibited,
    /// If the subject is installed, so is one of these (listed by preference).
    Dependency(Vec<usize>),
    /// The subject and this variable are not both installed.
    Conflict(usize),
    /// At most `n` of these are installed (whatever the subject).
    AtMost(usize, Vec<usize>),
}

/// A constraint, with the message OLM shows for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraint {
    pub kind: ConstraintKind,
    pub message: Message,
}

/// What a constraint's message says; the text is only formatted when read ([`message`]): a
/// resolution makes a constraint per dependency of every bundle it explores, and reads the
/// messages of the few that explain its picks or its failure.
#[derive(Debug, Clone)]
pub enum Message {
    /// OLM's default text for the constraint's kind.
    Default,
    /// A text known when the constraint was made.
    Text(String),
    /// A bundle's dependency: `bundle <bundle> requires an operator <predicate>`, the predicate
    /// being `predicates[index]` (the bundle's, shared by its constraints).
    Requires { bundle: Rc<str>, predicates: Arc<[Predicate]>, index: usize },
    /// A subscription's requirement (its subject's identifier is `subscription:<name>`):
    /// `subscription <name> requires at least one of <candidates>`, or OLM's text for one or
    /// no candidate.
    Subscription,
    /// An invariant's (its subject's identifier names the GVK or the package): `there can be
    /// only one provider of <GVK>` / `... operator from package <package>` (Mandatory), `<a>
    /// and <b> provide <GVK>` / `... originate from package <package>` (AtMost).
    Invariant {
        /// One provider per GVK, not one bundle per package.
        gvk: bool,
    },
}

impl Message {
    /// The dependency's predicate, for a bundle's dependency.
    pub fn predicate(&self) -> Option<&Predicate> {
        match self {
            Message::Requires { predicates, index, .. } => predicates.get(*index),
            _ => None,
        }
    }
}

impl PartialEq for Message {
    fn eq(&self, other: &Message) -> bool {
        match (self, other) {
            (Message::Default, Message::Default) => true,
            (Message::Text(a), Message::Text(b)) => a == b,
            (
                Message::Requires { bundle: a, predicates: p, index: i },
                Message::Requires { bundle: b, predicates: q, index: j },
            ) => a == b && Arc::ptr_eq(p, q) && i == j,
            (Message::Subscription, Message::Subscription) => true,
            (Message::Invariant { gvk: a }, Message::Invariant { gvk: b }) => a == b,
            _ => false,
        }
    }
}

impl Eq for Message {}

/// A boolean variable: true means "installed".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    pub id: String,
    pub constraints: Vec<Constraint>,
}

/// One constraint of one variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Applied {
    pub variable: usize,
    pub constraint: usize,
}

/// Why the search stopped without a solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveError {
    /// These constraints cannot all hold (a minimal set, sorted by message).
    NotSatisfiable(Vec<Applied>),
    /// The conflict budget ran out.
    TooHard {
        /// The conflicts spent.
        conflicts: u64,
    },
}

/// How a variable came to be installed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pick {
    pub variable: usize,
    /// The dependency that asked for it (`None` for an anchor).
    pub by: Option<Applied>,
    /// Candidates before it in that dependency's order that could not be installed.
    pub rejected: Vec<usize>,
}

/// A solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// Installed variables, in input order.
    pub installed: Vec<usize>,
    /// Why each was installed, in the order the search picked them.
    pub picks: Vec<Pick>,
    /// Dependencies that were already met when the search reached them (by a candidate picked
    /// earlier), with that candidate: no other candidate of theirs was tried.
    pub already_met: Vec<(Applied, usize)>,
}

/// The message of a constraint, OLM's default text when it has none.
pub fn message(vars: &[Variable], a: Applied) -> String {
    let v = &vars[a.variable];
    let c = &v.constraints[a.constraint];
    match &c.message {
        Message::Default => {}
        Message::Text(m) => return m.clone(),
        Message::Requires { bundle, predicates, index } => {
            return match predicates.get(*index) {
                Some(p) => format!("bundle {bundle} requires an operator {p}"),
                None => format!("bundle {bundle} requires an operator"),
            };
        }
        Message::Subscription => {
            let listed = listed(&c.kind);
            let names: Vec<&str> = listed.iter().take(super::MAX_LISTED).map(|&i| vars[i].id.as_str()).collect();
            return subscription_text(&v.id, &names, listed.len());
        }
        Message::Invariant { gvk } => {
            let names: Vec<&str> = listed(&c.kind).iter().map(|&i| vars[i].id.as_str()).collect();
            return match (&c.kind, gvk) {
                (ConstraintKind::AtMost(..), true) => {
                    format!("{} provide {}", super::join_capped(&names, " and "), v.id)
                }
                (ConstraintKind::AtMost(..), false) => {
                    format!("{} originate from package {}", super::join_capped(&names, " and "), v.id)
                }
                (_, true) => format!("there can be only one provider of {}", v.id),
                (_, false) => format!("there can be only one operator from package {}", v.id),
            };
        }
    }
    let ids = |ids: &[usize]| ids.iter().map(|&i| vars[i].id.as_str()).collect::<Vec<_>>().join(", ");
    match &c.kind {
        ConstraintKind::Mandatory => format!("{} is mandatory", v.id),
        ConstraintKind::Prohibited => format!("{} is prohibited", v.id),
        ConstraintKind::Dependency(d) => {
            let names: Vec<&str> = d.iter().map(|&i| vars[i].id.as_str()).collect();
            dependency_text(&v.id, &names)
        }
        ConstraintKind::Conflict(o) => format!("{} conflicts with {}", v.id, vars[*o].id),
        ConstraintKind::AtMost(n, d) => format!("{} permits at most {n} of {}", v.id, ids(d)),
    }
}

/// A subscription's requirement (`id` is `subscription:<name>`): `subscription <name> requires at
/// least one of <candidates>`, or OLM's text for one or no candidate. `shown` are the first
/// candidates' identifiers (at most [`super::MAX_LISTED`]) of `total`.
pub(crate) fn subscription_text(id: &str, shown: &[&str], total: usize) -> String {
    let name = id.strip_prefix("subscription:").unwrap_or(id);
    match (shown, total) {
        (_, 0) | ([], _) => format!("no operators found matching the criteria of subscription {name}"),
        ([one], 1) => format!("subscription {name} requires {one}"),
        _ => format!("subscription {name} requires at least one of {}", super::join_counted(shown, total, " or ")),
    }
}

/// OLM's default text of a dependency of variable `id` on the candidates `names`.
pub(crate) fn dependency_text(id: &str, names: &[&str]) -> String {
    if names.is_empty() {
        format!("{id} has a dependency without any candidates to satisfy it")
    } else {
        format!("{id} requires at least one of {}", names.join(", "))
    }
}

/// The variables a Dependency or AtMost constraint lists (none for the others).
fn listed(kind: &ConstraintKind) -> &[usize] {
    match kind {
        ConstraintKind::Dependency(d) | ConstraintKind::AtMost(_, d) => d,
        _ => &[],
    }
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::NotSatisfiable(_) => f.write_str("constraints not satisfiable"),
            SolveError::TooHard { conflicts } => write!(
                f,
                "the resolution problem is too hard: gave up after {conflicts} solver conflicts (raise the budget to keep trying)"
            ),
        }
    }
}

/// The solver's step limit: how many SAT conflicts one resolution may spend in all (its search,
/// and shrinking an unsatisfiable core): 50,000. Past it the resolution ends with
/// `TooHard` (`ResolveError::TooHard`), which names the conflicts spent. Real resolutions spend
/// a handful; 50,000 conflicts take about half a second on problems of a few thousand variables
/// (pigeonhole problems, which no SAT solver refutes quickly, reach it).
pub const DEFAULT_CONFLICT_BUDGET: u64 = 50_000;

/// Counts learnt clauses (one per conflict) and stops the solver past the budget.
struct Budget {
    used: Rc<Cell<u64>>,
    limit: u64,
}

impl Callbacks for Budget {
    fn on_new_clause(&mut self, _c: &[Lit], kind: ClauseKind) {
        if matches!(kind, ClauseKind::Learnt) {
            self.used.set(self.used.get() + 1);
        }
    }
    fn stop(&self) -> bool {
        self.used.get() > self.limit
    }
}

struct Sat {
    solver: Solver<Budget>,
    used: Rc<Cell<u64>>,
    limit: u64,
}

impl Sat {
    fn new(limit: u64) -> Sat {
        let used = Rc::new(Cell::new(0));
        let solver = Solver::new(SolverOpts::default(), Budget { used: used.clone(), limit });
        Sat { solver, used, limit }
    }
    fn var(&mut self) -> Var {
        self.solver.new_var_default()
    }
    fn clause(&mut self, lits: &[Lit]) {
        let mut c = lits.to_vec();
        self.solver.add_clause_reuse(&mut c);
    }
    /// Satisfiable under these assumptions?
    fn check(&mut self, assumptions: &[Lit]) -> Result<bool, SolveError> {
        if self.used.get() > self.limit {
            return Err(SolveError::TooHard { conflicts: self.used.get() });
        }
        let r = self.solver.solve_limited(assumptions);
        if r == lbool::TRUE {
            Ok(true)
        } else if r == lbool::FALSE {
            Ok(false)
        } else {
            Err(SolveError::TooHard { conflicts: self.used.get() })
        }
    }
}

/// Find OLM's solution, or a minimal unsatisfiable set of constraints.
///
/// The SAT solver is only built and asked when a model found by hand (`Witness`, in
/// `witness.rs`) cannot prove what the search needs: first that the constraints hold together,
/// then that each guess can be added. The answer is the same either way; a typical resolution
/// needs no SAT call at all.
pub fn solve(vars: &[Variable], conflict_budget: u64) -> Result<Solution, SolveError> {
    Search::new(vars, conflict_budget).solve()
}

/// The variables with a Mandatory constraint, in input order.
fn anchors(vars: &[Variable]) -> Vec<usize> {
    (0..vars.len()).filter(|&i| vars[i].constraints.iter().any(|c| c.kind == ConstraintKind::Mandatory)).collect()
}

/// The problem as SAT clauses (spec §3.1), in a solver.
struct Encoded {
    sat: Sat,
    /// The literal of each variable ("installed").
    lits: Vec<Lit>,
    /// Activation literal of each assumed constraint; Mandatory maps to the subject's literal.
    assumed: Vec<(Lit, Applied)>,
}

impl Encoded {
    /// Every constraint's activation literal: the assumptions under which the problem holds.
    fn base(&self) -> Vec<Lit> {
        self.assumed.iter().map(|(l, _)| *l).collect()
    }
}

/// Encode every constraint as clauses guarded by its activation literal.
fn encode(mut sat: Sat, vars: &[Variable]) -> Encoded {
    let lits: Vec<Lit> = (0..vars.len()).map(|_| Lit::new(sat.var(), true)).collect();
    let mut assumed: Vec<(Lit, Applied)> = Vec::new();
    for (vi, v) in vars.iter().enumerate() {
        let x = lits[vi];
        for (ci, c) in v.constraints.iter().enumerate() {
            let applied = Applied { variable: vi, constraint: ci };
            if c.kind == ConstraintKind::Mandatory {
                assumed.push((x, applied));
                continue;
            }
            let a = Lit::new(sat.var(), true);
            assumed.push((a, applied));
            match &c.kind {
                ConstraintKind::Mandatory => {}
                ConstraintKind::Prohibited => sat.clause(&[!a, !x]),
                ConstraintKind::Dependency(d) => {
                    let mut clause = vec![!a, !x];
                    clause.extend(d.iter().map(|&i| lits[i]));
                    sat.clause(&clause);
                }
                ConstraintKind::Conflict(o) => sat.clause(&[!a, !x, !lits[*o]]),
                ConstraintKind::AtMost(n, d) => {
                    at_most(&mut sat, a, *n, &d.iter().map(|&i| lits[i]).collect::<Vec<_>>())
                }
            }
        }
    }
    Encoded { sat, lits, assumed }
}

/// The SAT solver's last model, over the original variables only.
fn read_model(sat: &Sat, lits: &[Lit]) -> Vec<bool> {
    lits.iter().map(|l| SolverInterface::value_var(&sat.solver, l.var()) == lbool::TRUE).collect()
}

/// OLM's preference search (spec §3.2), started on a problem whose constraints are
/// satisfiable: anchors in order, then the first acceptable candidate of each dependency,
/// breadth-first.
struct Search<'v> {
    vars: &'v [Variable],
    conflict_budget: u64,
    /// The SAT solver with the problem, built the first time it is needed.
    encoded: Option<Encoded>,
    /// How many times the SAT solver was asked.
    sat_calls: usize,
    /// A model of the guesses so far, which proves most next guesses satisfiable without the
    /// SAT solver.
    witness: Witness,
    /// The guessed (installed) variables.
    installed: Vec<bool>,
    /// The same, in the order they were guessed.
    guesses: Vec<usize>,
}

impl<'v> Search<'v> {
    fn new(vars: &'v [Variable], conflict_budget: u64) -> Search<'v> {
        Search {
            vars,
            conflict_budget,
            encoded: None,
            sat_calls: 0,
            witness: Witness::new(vars),
            installed: vec![false; vars.len()],
            guesses: Vec::new(),
        }
    }

    /// Check that the constraints hold together, then search.
    fn solve(&mut self) -> Result<Solution, SolveError> {
        let vars = self.vars;
        let anchors = anchors(vars);
        // Every constraint but Mandatory holds when nothing is installed: from there, install
        // the anchors and mend what breaks. When that fails, the SAT solver decides.
        if !self.witness.extend(vars, &self.installed, &anchors) {
            let base = self.encoded().base();
            if !self.check(&base)? {
                return Err(self.not_satisfiable());
            }
        }
        self.run(&anchors)
    }

    /// Ask the SAT solver whether the assumptions can hold; when they can, its model becomes
    /// the witness.
    fn check(&mut self, assumptions: &[Lit]) -> Result<bool, SolveError> {
        self.sat_calls += 1;
        let sat = self.encoded();
        let ok = sat.sat.check(assumptions)?;
        if ok {
            self.witness.model = read_model(&sat.sat, &sat.lits);
        }
        Ok(ok)
    }

    /// OLM's search: each choice is met by a guessed candidate or guesses its first acceptable one.
    fn run(&mut self, anchors: &[usize]) -> Result<Solution, SolveError> {
        let vars = self.vars;
        let mut picks: Vec<Pick> = Vec::new();
        let mut already_met = Vec::new();
        let mut queue: VecDeque<(Option<Applied>, Vec<usize>)> = anchors.iter().map(|&a| (None, vec![a])).collect();
        while let Some((by, candidates)) = queue.pop_front() {
            if let Some(&c) = candidates.iter().find(|&&c| self.installed[c]) {
                if let Some(a) = by {
                    already_met.push((a, c));
                }
                continue;
            }
            let (chosen, rejected) = self.first_acceptable(&candidates)?;
            let Some(c) = chosen else {
                // Unreachable when the guesses so far were satisfiable (the subject's
                // dependency holds in some model); report the constraints that block it.
                return Err(self.not_satisfiable());
            };
            self.installed[c] = true;
            self.guesses.push(c);
            picks.push(Pick { variable: c, by, rejected });
            for (ci, k) in vars[c].constraints.iter().enumerate() {
                if let ConstraintKind::Dependency(d) = &k.kind {
                    if !d.is_empty() {
                        queue.push_back((Some(Applied { variable: c, constraint: ci }), d.clone()));
                    }
                }
            }
        }
        let installed = (0..vars.len()).filter(|&i| self.installed[i]).collect();
        Ok(Solution { installed, picks, already_met })
    }

    /// The SAT solver with the problem (built on first use).
    fn encoded(&mut self) -> &mut Encoded {
        self.encoded.get_or_insert_with(|| encode(Sat::new(self.conflict_budget), self.vars))
    }

    /// The error of a problem found unsatisfiable: its minimal core (or the budget's error).
    fn not_satisfiable(&mut self) -> SolveError {
        let vars = self.vars;
        let sat = self.encoded();
        match minimal_core(&mut sat.sat, vars, &sat.assumed) {
            Ok(core) => SolveError::NotSatisfiable(core),
            Err(e) => e,
        }
    }

    /// Every constraint's activation literal, the guesses so far, and `c`.
    fn assumptions_with(&mut self, c: usize) -> Vec<Lit> {
        let guesses = std::mem::take(&mut self.guesses);
        let sat = self.encoded();
        let mut assumptions = sat.base();
        assumptions.extend(guesses.iter().chain([&c]).map(|&g| sat.lits[g]));
        self.guesses = guesses;
        assumptions
    }

    /// The first candidate installable with the guesses so far (then guessed), and those before it.
    fn first_acceptable(&mut self, candidates: &[usize]) -> Result<(Option<usize>, Vec<usize>), SolveError> {
        let mut rejected = Vec::new();
        for &c in candidates {
            if self.witness.extend(self.vars, &self.installed, &[c]) {
                return Ok((Some(c), rejected));
            }
            let assumptions = self.assumptions_with(c);
            if self.check(&assumptions)? {
                return Ok((Some(c), rejected));
            }
            rejected.push(c);
        }
        Ok((None, rejected))
    }
}

/// `Σ xs ≤ n` when `a` holds: pairwise for small sets, a sequential counter otherwise.
fn at_most(sat: &mut Sat, a: Lit, n: usize, xs: &[Lit]) {
    if xs.len() <= n {
        return;
    }
    if n == 0 {
        for &x in xs {
            sat.clause(&[!a, !x]);
        }
        return;
    }
    if n == 1 && xs.len() <= 8 {
        for i in 0..xs.len() {
            for j in i + 1..xs.len() {
                sat.clause(&[!a, !xs[i], !xs[j]]);
            }
        }
        return;
    }
    // Sinz's sequential counter: s[i][j] means "at least j+1 of xs[..=i] are true".
    let mut prev: Vec<Lit> = Vec::new();
    for (i, &x) in xs.iter().enumerate() {
        let cur: Vec<Lit> = (0..n).map(|_| Lit::new(sat.var(), true)).collect();
        sat.clause(&[!x, cur[0]]);
        if i > 0 {
            for j in 0..n {
                sat.clause(&[!prev[j], cur[j]]);
            }
            for j in 1..n {
                sat.clause(&[!x, !prev[j - 1], cur[j]]);
            }
            sat.clause(&[!a, !x, !prev[n - 1]]);
        }
        prev = cur;
    }
}

/// Shrink the solver's unsat core to a minimal one (deletion-based), as applied constraints
/// sorted by message.
fn minimal_core(sat: &mut Sat, vars: &[Variable], assumed: &[(Lit, Applied)]) -> Result<Vec<Applied>, SolveError> {
    let core_vars: std::collections::HashSet<Var> = sat.solver.unsat_core().iter().map(|l| l.var()).collect();
    let mut core: Vec<(Lit, Applied)> = assumed.iter().filter(|(l, _)| core_vars.contains(&l.var())).cloned().collect();
    // Deterministic: try to drop constraints in message order.
    let msg: HashMap<Applied, String> = core.iter().map(|(_, a)| (*a, message(vars, *a))).collect();
    crate::sort::sort_by(&mut core, |x, y| msg[&x.1].cmp(&msg[&y.1]).then(x.1.cmp(&y.1)));
    let mut i = 0;
    while i < core.len() {
        let trial: Vec<Lit> = core.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, (l, _))| *l).collect();
        if !sat.check(&trial)? {
            let keep: std::collections::HashSet<Var> = sat.solver.unsat_core().iter().map(|l| l.var()).collect();
            let removed = core.remove(i);
            let _ = removed;
            core.retain(|(l, _)| keep.contains(&l.var()));
            // Positions before i were all needed; keep scanning from the same index.
            i = i.min(core.len());
        } else {
            i += 1;
        }
    }
    // Several constraints can share one literal (two Mandatory on one variable): keep one each.
    let mut out: Vec<Applied> = core.into_iter().map(|(_, a)| a).collect();
    crate::sort::sort_by(&mut out, |x, y| message(vars, *x).cmp(&message(vars, *y)).then(x.cmp(y)));
    out.dedup();
    Ok(out)
}

/// Whether the assignment (`installed[i]` true for installed variables) satisfies every
/// constraint.
#[cfg(test)]
pub fn satisfies(vars: &[Variable], installed: &[bool]) -> bool {
    vars.iter().enumerate().all(|(i, v)| {
        v.constraints.iter().all(|c| match &c.kind {
            ConstraintKind::Mandatory => installed[i],
            ConstraintKind::Prohibited => !installed[i],
            ConstraintKind::Dependency(d) => !installed[i] || d.iter().any(|&x| installed[x]),
            ConstraintKind::Conflict(o) => !(installed[i] && installed[*o]),
            ConstraintKind::AtMost(n, d) => d.iter().filter(|&&x| installed[x]).count() <= *n,
        })
    })
}

/// Build variables from identifiers, as the `solver` conformance cases and tests state them.
/// Fails on a duplicate identifier or a reference to an identifier that is not a variable.
pub fn from_ids(input: &[(String, Vec<IdConstraint>)]) -> Result<Vec<Variable>, String> {
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, (id, _)) in input.iter().enumerate() {
        if index.insert(id.as_str(), i).is_some() {
            return Err(format!("duplicate identifier \"{id}\" in input"));
        }
    }
    let look = |id: &String| {
        index.get(id.as_str()).copied().ok_or_else(|| format!("variable \"{id}\" referenced but not provided"))
    };
    input
        .iter()
        .map(|(id, cs)| {
            let constraints = cs
                .iter()
                .map(|c| {
                    let kind = match c {
                        IdConstraint::Mandatory => ConstraintKind::Mandatory,
                        IdConstraint::Prohibited => ConstraintKind::Prohibited,
                        IdConstraint::Dependency(ids) => {
                            ConstraintKind::Dependency(ids.iter().map(look).collect::<Result<_, _>>()?)
                        }
                        IdConstraint::Conflict(o) => ConstraintKind::Conflict(look(o)?),
                        IdConstraint::AtMost(n, ids) => {
                            ConstraintKind::AtMost(*n, ids.iter().map(look).collect::<Result<_, _>>()?)
                        }
                    };
                    Ok(Constraint { kind, message: Message::Default })
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok(Variable { id: id.clone(), constraints })
        })
        .collect()
}

/// A constraint over identifiers (see [`from_ids`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdConstraint {
    /// The variable must be installed.
    Mandatory,
    /// The variable must not be installed.
    Prohibited,
    /// If installed, so is one of these.
    Dependency(Vec<String>),
    /// Not both installed.
    Conflict(String),
    /// At most `n` of these are installed.
    AtMost(usize, Vec<String>),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(spec: &[(&str, Vec<IdConstraint>)]) -> Vec<Variable> {
        let input: Vec<(String, Vec<IdConstraint>)> = spec.iter().map(|(i, c)| (i.to_string(), c.clone())).collect();
        from_ids(&input).unwrap()
    }
    fn dep(ids: &[&str]) -> IdConstraint {
        IdConstraint::Dependency(ids.iter().map(|s| s.to_string()).collect())
    }
    fn names(vs: &[Variable], s: &Solution) -> Vec<String> {
        s.installed.iter().map(|&i| vs[i].id.clone()).collect()
    }

    #[test]
    fn preference_beats_minimality() {
        use IdConstraint::*;
        let vs = vars(&[
            ("a", vec![Mandatory, dep(&["x", "y"])]),
            ("b", vec![Mandatory, dep(&["y"])]),
            ("x", vec![]),
            ("y", vec![]),
        ]);
        assert_eq!(names(&vs, &solve(&vs, DEFAULT_CONFLICT_BUDGET).unwrap()), ["a", "b", "x", "y"]);
    }

    #[test]
    fn least_preferred_when_others_conflict() {
        use IdConstraint::*;
        let vs = vars(&[
            ("a", vec![Mandatory, dep(&["b1", "b2"])]),
            ("b1", vec![Conflict("c".into())]),
            ("b2", vec![]),
            ("c", vec![Mandatory]),
        ]);
        assert_eq!(names(&vs, &solve(&vs, DEFAULT_CONFLICT_BUDGET).unwrap()), ["a", "b2", "c"]);
    }

    #[test]
    fn large_at_most_uses_counter() {
        use IdConstraint::*;
        let ids: Vec<String> = (0..20).map(|i| format!("p{i}")).collect();
        let mut spec: Vec<(String, Vec<IdConstraint>)> = vec![
            ("g".into(), vec![Mandatory, AtMost(2, ids.clone())]),
            ("s".into(), vec![Mandatory, Dependency(vec!["p3".into()]), Dependency(vec!["p7".into()])]),
            ("t".into(), vec![Dependency(vec!["p9".into()])]),
        ];
        spec.extend(ids.iter().map(|i| (i.clone(), vec![])));
        let vs = from_ids(&spec).unwrap();
        let s = solve(&vs, DEFAULT_CONFLICT_BUDGET).unwrap();
        assert_eq!(names(&vs, &s), ["g", "s", "p3", "p7"]);
        // A third one is impossible.
        spec[2].1.insert(0, Mandatory);
        let vs = from_ids(&spec).unwrap();
        match solve(&vs, DEFAULT_CONFLICT_BUDGET) {
            Err(SolveError::NotSatisfiable(core)) => {
                let msgs: Vec<String> = core.iter().map(|a| message(&vs, *a)).collect();
                assert!(msgs.iter().any(|m| m.starts_with("g permits at most 2 of")), "{msgs:?}");
                assert_eq!(msgs.len(), 6, "{msgs:?}");
            }
            other => panic!("{other:?}"),
        }
    }

    /// The search anomaly upstream shows on this problem (spec §11): upstream picks T40; the
    /// search as specified (and implemented here) picks T41, the first acceptable candidate.
    #[test]
    fn upstream_anomaly_problem_follows_the_specified_search() {
        use IdConstraint::*;
        let vs = vars(&[
            ("T40", vec![]),
            ("T41", vec![]),
            ("E0", vec![]),
            ("gvk", vec![AtMost(1, vec!["F40".into(), "F50".into(), "T40".into(), "T41".into()])]),
            ("sub-kiali", vec![Mandatory, dep(&["K"])]),
            ("F50", vec![]),
            ("K", vec![dep(&["T41", "T40", "F50", "F40"])]),
            ("F40", vec![]),
            ("E4", vec![dep(&["T41", "F50"]), dep(&["T40", "F40"])]),
            ("sub-etcd", vec![Mandatory, dep(&["E4", "E0"])]),
        ]);
        let mut got = names(&vs, &solve(&vs, DEFAULT_CONFLICT_BUDGET).unwrap());
        crate::sort::sort(&mut got);
        assert_eq!(got, ["E0", "K", "T41", "sub-etcd", "sub-kiali"]);
    }

    /// Pigeons that each need one of `holes` holes, each hole taking at most one: unsatisfiable,
    /// and refuting it takes a SAT solver exponentially many conflicts in `holes`.
    fn pigeonhole(holes: usize) -> Vec<Variable> {
        let mut spec: Vec<(String, Vec<IdConstraint>)> = Vec::new();
        for p in 0..=holes {
            let ids: Vec<String> = (0..holes).map(|h| format!("p{p}h{h}")).collect();
            spec.push((format!("pigeon{p}"), vec![IdConstraint::Mandatory, IdConstraint::Dependency(ids)]));
        }
        for h in 0..holes {
            let ids: Vec<String> = (0..=holes).map(|p| format!("p{p}h{h}")).collect();
            spec.push((format!("hole{h}"), vec![IdConstraint::AtMost(1, ids)]));
        }
        for p in 0..=holes {
            for h in 0..holes {
                spec.push((format!("p{p}h{h}"), vec![]));
            }
        }
        from_ids(&spec).unwrap()
    }

    /// The witness of `vs` after installing `cs` from the model that installs nothing, with
    /// `guessed` pinned: its model when the repair succeeded.
    fn repaired(vs: &[Variable], guessed: &[&str], cs: &[&str]) -> Option<Vec<String>> {
        let at = |id: &str| vs.iter().position(|v| v.id == id).unwrap();
        let mut w = Witness::new(vs);
        let mut pinned = vec![false; vs.len()];
        for &g in guessed {
            pinned[at(g)] = true;
            w.model[at(g)] = true;
        }
        let cs: Vec<usize> = cs.iter().map(|&c| at(c)).collect();
        let before = w.model.clone();
        if !w.extend(vs, &pinned, &cs) {
            assert_eq!(w.model, before, "a failed repair leaves the model as it was");
            return None;
        }
        assert!(satisfies(vs, &w.model));
        Some((0..vs.len()).filter(|&i| w.model[i]).map(|i| vs[i].id.clone()).collect())
    }

    #[test]
    fn a_repair_installs_the_first_free_candidate_of_each_broken_dependency() {
        use IdConstraint::*;
        let vs =
            vars(&[("a", vec![Mandatory, dep(&["x", "y"])]), ("x", vec![dep(&["z"])]), ("y", vec![]), ("z", vec![])]);
        assert_eq!(repaired(&vs, &[], &["a"]).unwrap(), ["a", "x", "z"]);
    }

    #[test]
    fn a_repair_turns_off_what_an_at_most_or_a_conflict_forbids_but_never_a_guess() {
        use IdConstraint::*;
        let vs = vars(&[
            ("g", vec![Mandatory, AtMost(1, vec!["p1".into(), "p2".into()])]),
            ("p1", vec![Conflict("q".into())]),
            ("p2", vec![]),
            ("q", vec![]),
        ]);
        // p2 (not guessed) makes way for p1; q makes way for p1 too.
        let mut w = Witness::new(&vs);
        w.model = vec![true, false, true, true];
        assert!(w.extend(&vs, &[true, false, false, false], &[1]));
        assert_eq!(w.model, [true, true, false, false]);
        // A guessed p2 cannot make way: the repair fails and leaves the model as it was.
        assert_eq!(repaired(&vs, &["g", "p2"], &["p1"]), None);
    }

    #[test]
    fn a_repair_fails_on_what_it_cannot_mend() {
        use IdConstraint::*;
        // A prohibited candidate, and a dependency without candidates.
        let vs = vars(&[("a", vec![Mandatory, dep(&["x"])]), ("x", vec![Prohibited])]);
        assert_eq!(repaired(&vs, &[], &["a"]), None);
        let vs = vars(&[("a", vec![Mandatory, dep(&[])])]);
        assert_eq!(repaired(&vs, &[], &["a"]), None);
        // x is flipped already (installed for a), so it cannot be turned off for b.
        let vs = vars(&[("a", vec![dep(&["x"])]), ("b", vec![Conflict("x".into())]), ("x", vec![])]);
        assert_eq!(repaired(&vs, &[], &["a", "b"]), None);
        assert_eq!(repaired(&vs, &[], &["a"]).unwrap(), ["a", "x"]);
    }

    /// Where the repair is not enough (it never backtracks: here it installs the first
    /// candidate, whose requirement is prohibited), the SAT solver decides; a typical problem
    /// needs no SAT call at all.
    #[test]
    fn the_sat_solver_is_asked_only_when_a_repair_fails() {
        use IdConstraint::*;
        let calls = |vs: &[Variable]| {
            let mut s = Search::new(vs, DEFAULT_CONFLICT_BUDGET);
            let installed = s.solve().map(|s| names(vs, &s));
            (installed, s.sat_calls)
        };
        let vs = vars(&[
            ("a", vec![Mandatory, dep(&["x1", "x2"])]),
            ("x1", vec![dep(&["y"])]),
            ("x2", vec![]),
            ("y", vec![]),
        ]);
        assert_eq!(calls(&vs), (Ok(vec!["a".into(), "x1".into(), "y".into()]), 0));
        let vs = vars(&[
            ("a", vec![Mandatory, dep(&["x1", "x2"])]),
            ("x1", vec![dep(&["y"])]),
            ("x2", vec![]),
            ("y", vec![Prohibited]),
        ]);
        // The first repair fails (y is prohibited), the solver finds a model with x2; x1 is
        // then tried first, fails to repair and is refuted by the solver.
        assert_eq!(calls(&vs), (Ok(vec!["a".into(), "x2".into()]), 2));
    }

    #[test]
    fn budget_exhaustion_is_reported() {
        // 9 pigeons, 8 holes: many conflicts to refute.
        assert!(matches!(solve(&pigeonhole(8), 50), Err(SolveError::TooHard { .. })));
    }

    #[test]
    fn the_default_budget_ends_a_problem_too_hard_for_it() {
        // 11 pigeons in 10 holes need far more than DEFAULT_CONFLICT_BUDGET conflicts; the
        // search stops right after spending it.
        match solve(&pigeonhole(10), DEFAULT_CONFLICT_BUDGET) {
            Err(SolveError::TooHard { conflicts }) => {
                assert!(conflicts > DEFAULT_CONFLICT_BUDGET && conflicts < DEFAULT_CONFLICT_BUDGET + 100, "{conflicts}")
            }
            other => panic!("{other:?}"),
        }
        // Smaller ones are refuted within it.
        assert!(matches!(solve(&pigeonhole(5), DEFAULT_CONFLICT_BUDGET), Err(SolveError::NotSatisfiable(_))));
    }

    #[test]
    fn unknown_and_duplicate_ids() {
        let e = from_ids(&[("a".into(), vec![IdConstraint::Conflict("z".into())])]).unwrap_err();
        assert_eq!(e, "variable \"z\" referenced but not provided");
        let e = from_ids(&[("a".into(), vec![]), ("a".into(), vec![])]).unwrap_err();
        assert_eq!(e, "duplicate identifier \"a\" in input");
    }

    /// Brute force: is there any assignment with `forced` true that satisfies everything?
    fn satisfiable(vs: &[Variable], forced: &[usize]) -> bool {
        let n = vs.len();
        (0u32..1 << n).any(|mask| {
            let a: Vec<bool> = (0..n).map(|i| mask & (1 << i) != 0).collect();
            forced.iter().all(|&f| a[f]) && satisfies(vs, &a)
        })
    }

    /// The search as the spec defines it, with backtracking and brute-force satisfiability: the
    /// first leaf (in DFS order, choices breadth-first) whose guesses are satisfiable and whose
    /// guessed set, taken alone, satisfies every constraint.
    fn reference(vs: &[Variable]) -> Option<Vec<usize>> {
        fn dfs(vs: &[Variable], queue: &[Vec<usize>], guessed: &mut Vec<usize>) -> Option<Vec<usize>> {
            if !satisfiable(vs, guessed) {
                return None;
            }
            let Some((choice, rest)) = queue.split_first() else {
                let mut a = vec![false; vs.len()];
                for &g in guessed.iter() {
                    a[g] = true;
                }
                return satisfies(vs, &a).then(|| guessed.clone());
            };
            if choice.iter().any(|c| guessed.contains(c)) {
                return dfs(vs, rest, guessed);
            }
            for &c in choice {
                let mut q: Vec<Vec<usize>> = rest.to_vec();
                for k in &vs[c].constraints {
                    if let ConstraintKind::Dependency(d) = &k.kind {
                        if !d.is_empty() {
                            q.push(d.clone());
                        }
                    }
                }
                guessed.push(c);
                if let Some(r) = dfs(vs, &q, guessed) {
                    return Some(r);
                }
                guessed.pop();
            }
            None
        }
        let anchors: Vec<Vec<usize>> = (0..vs.len())
            .filter(|&i| vs[i].constraints.iter().any(|c| c.kind == ConstraintKind::Mandatory))
            .map(|i| vec![i])
            .collect();
        let mut guessed = Vec::new();
        let mut r = dfs(vs, &anchors, &mut guessed)?;
        crate::sort::sort(&mut r);
        Some(r)
    }

    /// A small deterministic generator (xorshift).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    fn random_problem(rng: &mut Rng) -> Vec<Variable> {
        let n = 2 + rng.below(8);
        (0..n)
            .map(|i| {
                let mut constraints = Vec::new();
                for _ in 0..rng.below(4) {
                    let kind = match rng.below(10) {
                        0 | 1 => ConstraintKind::Mandatory,
                        2 => ConstraintKind::Prohibited,
                        3..=6 => ConstraintKind::Dependency((0..rng.below(4)).map(|_| rng.below(n)).collect()),
                        7 | 8 => ConstraintKind::Conflict(rng.below(n)),
                        _ => {
                            ConstraintKind::AtMost(rng.below(3), (0..2 + rng.below(4)).map(|_| rng.below(n)).collect())
                        }
                    };
                    constraints.push(Constraint { kind, message: Message::Default });
                }
                Variable { id: format!("v{i}"), constraints }
            })
            .collect()
    }

    /// Property: on random problems the solver returns exactly the specified search's answer;
    /// every solution satisfies every constraint; every installed variable is an anchor or is
    /// needed (removing it breaks a constraint) or is the most preferred candidate of a
    /// dependency of an installed variable that can be installed (OLM prefers over minimal);
    /// and every failure's core is unsatisfiable and minimal.
    #[test]
    fn random_problems_match_the_reference_search() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut sat, mut unsat) = (0, 0);
        for _ in 0..3000 {
            let vs = random_problem(&mut rng);
            let want = reference(&vs);
            match solve(&vs, DEFAULT_CONFLICT_BUDGET) {
                Ok(s) => {
                    sat += 1;
                    assert_eq!(Some(s.installed.clone()), want, "{vs:?}");
                    let mut a = vec![false; vs.len()];
                    for &i in &s.installed {
                        a[i] = true;
                    }
                    assert!(satisfies(&vs, &a));
                    for &i in &s.installed {
                        let anchor = vs[i].constraints.iter().any(|c| c.kind == ConstraintKind::Mandatory);
                        a[i] = false;
                        let needed = !satisfies(&vs, &a);
                        a[i] = true;
                        let preferred = s.picks.iter().any(|p| p.variable == i && p.by.is_some());
                        assert!(anchor || needed || preferred, "{vs:?} installs v{i} for no reason");
                    }
                }
                Err(SolveError::NotSatisfiable(core)) => {
                    unsat += 1;
                    assert_eq!(want, None, "{vs:?}");
                    // The core alone is unsatisfiable, and dropping any member makes it satisfiable.
                    let only = |keep: &[Applied]| -> Vec<Variable> {
                        vs.iter()
                            .enumerate()
                            .map(|(vi, v)| Variable {
                                id: v.id.clone(),
                                constraints: v
                                    .constraints
                                    .iter()
                                    .enumerate()
                                    .filter(|(ci, _)| keep.contains(&Applied { variable: vi, constraint: *ci }))
                                    .map(|(_, c)| c.clone())
                                    .collect(),
                            })
                            .collect()
                    };
                    assert!(!satisfiable(&only(&core), &[]), "core {core:?} of {vs:?} is satisfiable");
                    for k in 0..core.len() {
                        let mut smaller = core.clone();
                        smaller.remove(k);
                        assert!(satisfiable(&only(&smaller), &[]), "core {core:?} of {vs:?} is not minimal");
                    }
                }
                Err(e) => panic!("{e}"),
            }
        }
        assert!(sat > 500 && unsat > 500, "{sat} sat, {unsat} unsat");
    }
}
