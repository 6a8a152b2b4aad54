//! The model the search keeps beside itself ([`Witness`]), which proves most guesses
//! satisfiable without the SAT solver, and the per-variable lists of the constraints each flip
//! can break.

use super::{Applied, ConstraintKind, Variable};

/// A model of every constraint and the guesses so far, kept beside the search: at first the
/// assignment that installs nothing with the anchors then installed, or the SAT solver's model
/// when that repair fails; after each SAT call, its model. Before the SAT solver is asked
/// whether one more guess can be added, the model is changed locally to include it: the guess
/// is set true, and
/// each constraint that this breaks is mended by flipping another variable that is neither
/// guessed nor flipped already (a dependency gets its first such candidate, a conflict or an
/// at-most loses members, a prohibited variable is turned off), and so on from each flip. When
/// nothing is left broken, the model proves the guesses satisfiable and the SAT solver is not
/// asked; when a constraint cannot be mended that way, or the repair has examined as many
/// constraint members as the whole problem holds, the flips are undone and the SAT solver
/// decides. The search's answer does not depend on the model: it only saves SAT calls.
pub(super) struct Witness {
    pub(super) model: Vec<bool>,
    /// For each variable, the constraints that setting it true can break (`Lists::get`).
    breakable: Lists,
    /// For each variable, the constraints that setting it false can break: its Mandatory, and
    /// the dependencies that list it.
    needed: Lists,
    /// The variables the current repair flipped, in order (each at most once).
    flipped: Vec<usize>,
    is_flipped: Vec<bool>,
    /// How many constraint members one repair may examine: the size of the whole problem.
    budget: usize,
}

/// One list of constraints per variable, all in one buffer (variable `v`'s is
/// `items[start[v]..end[v]]`): two allocations instead of one growing `Vec` per variable, which
/// were a tenth of the witness's set-up (most in WebAssembly, where each growth is a call to the
/// allocator and a copy).
struct Lists {
    start: Vec<u32>,
    end: Vec<u32>,
    items: Vec<Applied>,
}

impl Lists {
    /// Room for `counts[v]` items in variable `v`'s list.
    fn with_counts(counts: &[u32]) -> Lists {
        let mut start = Vec::with_capacity(counts.len());
        let mut total = 0u32;
        for &c in counts {
            start.push(total);
            total += c;
        }
        Lists { end: start.clone(), start, items: vec![Applied { variable: 0, constraint: 0 }; total as usize] }
    }

    /// Append `a` to variable `v`'s list unless it is the list's last item already (what
    /// `Vec::dedup` left of the lists before: a constraint that names a variable twice in a row).
    fn push(&mut self, v: usize, a: Applied) {
        let end = self.end[v] as usize;
        if end > self.start[v] as usize && self.items[end - 1] == a {
            return;
        }
        self.items[end] = a;
        self.end[v] += 1;
    }

    fn get(&self, v: usize) -> &[Applied] {
        &self.items[self.start[v] as usize..self.end[v] as usize]
    }
}

impl Witness {
    /// The model that installs nothing, and the indexes of what each flip can break.
    pub(super) fn new(vars: &[Variable]) -> Witness {
        let n = vars.len();
        // How many items each list gets (an upper bound: duplicates are dropped when filled).
        let (mut counts_b, mut counts_n) = (vec![0u32; n], vec![0u32; n]);
        let mut budget = 0;
        for (vi, v) in vars.iter().enumerate() {
            for c in &v.constraints {
                budget += 1 + members(&c.kind);
                exposed_by(vi, &c.kind, |breaks, x| if breaks { counts_b[x] += 1 } else { counts_n[x] += 1 });
            }
        }
        let mut breakable = Lists::with_counts(&counts_b);
        let mut needed = Lists::with_counts(&counts_n);
        // Constraints of at most one member first, then the others: a repair that must fail
        // usually fails on a cheap one (a prohibited candidate, a dependency without any).
        for small in [true, false] {
            for (vi, v) in vars.iter().enumerate() {
                for (ci, c) in v.constraints.iter().enumerate() {
                    if (members(&c.kind) <= 1) != small {
                        continue;
                    }
                    let a = Applied { variable: vi, constraint: ci };
                    exposed_by(vi, &c.kind, |breaks, x| if breaks { breakable.push(x, a) } else { needed.push(x, a) });
                }
            }
        }
        Witness { model: vec![false; n], breakable, needed, flipped: Vec::new(), is_flipped: vec![false; n], budget }
    }

    /// Whether the model, repaired, has every variable of `cs` true: then the guesses and `cs`
    /// are satisfiable together. On failure the model is left as it was.
    pub(super) fn extend(&mut self, vars: &[Variable], guessed: &[bool], cs: &[usize]) -> bool {
        for &c in cs {
            if !self.model[c] && !self.is_flipped[c] {
                self.flip(c);
            }
        }
        if self.flipped.is_empty() {
            return true;
        }
        let ok = self.mend(vars, guessed) && self.verified(vars);
        for &v in &self.flipped {
            if !ok {
                self.model[v] = !self.model[v];
            }
            self.is_flipped[v] = false;
        }
        self.flipped.clear();
        ok
    }

    fn flip(&mut self, v: usize) {
        self.model[v] = !self.model[v];
        self.is_flipped[v] = true;
        self.flipped.push(v);
    }

    /// Whether `v` may be flipped by this repair.
    fn free(&self, guessed: &[bool], v: usize) -> bool {
        !guessed[v] && !self.is_flipped[v]
    }

    /// The constraints that flipping `v` (to its current value) can break.
    fn exposed(&self, v: usize) -> &[Applied] {
        if self.model[v] {
            self.breakable.get(v)
        } else {
            self.needed.get(v)
        }
    }

    /// Check the constraints each flip can break, in the order of the flips, mending each
    /// broken one; false when one cannot be mended or the budget runs out.
    fn mend(&mut self, vars: &[Variable], guessed: &[bool]) -> bool {
        let mut spent = 0;
        let mut i = 0;
        while i < self.flipped.len() {
            let v = self.flipped[i];
            i += 1;
            for k in 0..self.exposed(v).len() {
                let a = self.exposed(v)[k];
                spent += 1 + members(&vars[a.variable].constraints[a.constraint].kind);
                if spent > self.budget {
                    return false;
                }
                if !holds(vars, &self.model, a) && !self.mend_one(vars, guessed, a) {
                    return false;
                }
            }
        }
        true
    }

    /// Flip what makes the broken constraint `a` hold again, if this repair may.
    fn mend_one(&mut self, vars: &[Variable], guessed: &[bool], a: Applied) -> bool {
        let s = a.variable;
        match &vars[s].constraints[a.constraint].kind {
            ConstraintKind::Mandatory | ConstraintKind::Prohibited => {
                if !self.free(guessed, s) {
                    return false;
                }
                self.flip(s);
            }
            ConstraintKind::Dependency(d) => {
                if let Some(&x) = d.iter().find(|&&x| self.free(guessed, x)) {
                    self.flip(x);
                } else if self.free(guessed, s) {
                    self.flip(s);
                } else {
                    return false;
                }
            }
            ConstraintKind::Conflict(o) => {
                if self.free(guessed, *o) {
                    self.flip(*o);
                } else if self.free(guessed, s) {
                    self.flip(s);
                } else {
                    return false;
                }
            }
            ConstraintKind::AtMost(n, d) => {
                let mut excess = d.iter().filter(|&&x| self.model[x]).count().saturating_sub(*n);
                for &x in d {
                    if excess == 0 {
                        break;
                    }
                    if self.model[x] && self.free(guessed, x) {
                        self.flip(x);
                        excess -= 1;
                    }
                }
            }
        }
        holds(vars, &self.model, a)
    }

    /// Whether every constraint a flip could break holds (each was mended when its flip was
    /// checked, but a later flip may touch it again; this pass makes the proof independent of
    /// the order of the repair).
    fn verified(&self, vars: &[Variable]) -> bool {
        self.flipped.iter().all(|&v| self.exposed(v).iter().all(|&a| holds(vars, &self.model, a)))
    }
}

/// Each variable whose flip can break a constraint of kind `kind` on variable `subject`, in order:
/// `f(true, x)` when setting `x` true can break it, `f(false, x)` when setting `x` false can.
fn exposed_by(subject: usize, kind: &ConstraintKind, mut f: impl FnMut(bool, usize)) {
    match kind {
        ConstraintKind::Mandatory => f(false, subject),
        ConstraintKind::Prohibited => f(true, subject),
        ConstraintKind::Dependency(d) => {
            f(true, subject);
            d.iter().for_each(|&x| f(false, x));
        }
        ConstraintKind::Conflict(o) => {
            f(true, subject);
            f(true, *o);
        }
        ConstraintKind::AtMost(_, d) => d.iter().for_each(|&x| f(true, x)),
    }
}

/// How many variables a constraint lists besides its subject.
fn members(kind: &ConstraintKind) -> usize {
    match kind {
        ConstraintKind::Mandatory | ConstraintKind::Prohibited => 0,
        ConstraintKind::Conflict(_) => 1,
        ConstraintKind::Dependency(d) | ConstraintKind::AtMost(_, d) => d.len(),
    }
}

/// Whether constraint `a` holds in `model`.
fn holds(vars: &[Variable], model: &[bool], a: Applied) -> bool {
    let subject = model[a.variable];
    match &vars[a.variable].constraints[a.constraint].kind {
        ConstraintKind::Mandatory => subject,
        ConstraintKind::Prohibited => !subject,
        ConstraintKind::Dependency(d) => !subject || d.iter().any(|&x| model[x]),
        ConstraintKind::Conflict(o) => !(subject && model[*o]),
        ConstraintKind::AtMost(n, d) => d.iter().filter(|&&x| model[x]).count() <= *n,
    }
}
