//! The steps of one upgrade path checked for CRD safety: each step's old bundle's CRDs (its
//! `olm.bundle.object` properties) against the new bundle's. Along the path, the versions stored
//! for a CRD are every storage version of the bundles passed so far (the start included), as
//! long as the CRDs on the way keep them: a version a step drops is reported at that step.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::outcome::{not_comparable, CrdCheck, CrdFinding, Outcome, Verdict};
use super::sets::{crds_of_bundle, stored_versions, FoundCrd};
use crate::model::Package;

/// One step of a path and its CRDs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepCheck {
    /// The bundle upgraded from.
    pub from: String,
    /// The bundle upgraded to.
    pub to: String,
    /// Each CRD of the old bundle (none when it carries no CRDs or is not a bundle of the
    /// package).
    pub crds: Vec<CrdCheck>,
}

impl StepCheck {
    /// Whether OLM v0 and v1 take every CRD of the step.
    pub fn safe(&self) -> bool {
        self.crds.iter().all(CrdCheck::safe)
    }

    /// Every finding of the step's CRDs.
    pub fn findings(&self) -> Vec<CrdFinding> {
        self.crds.iter().flat_map(CrdCheck::findings).collect()
    }
}

/// Check each `(from, to)` step of a path through `package`'s bundles, in order.
pub fn check_path(package: &Package, steps: &[(&str, &str)]) -> Vec<StepCheck> {
    let mut read: BTreeMap<&str, Vec<FoundCrd>> = BTreeMap::new();
    let mut stored: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut out = Vec::with_capacity(steps.len());
    for &(from, to) in steps {
        let mut crds = Vec::new();
        if let (Some(f), Some(t)) = (package.bundle(from), package.bundle(to)) {
            read.entry(from).or_insert_with(|| crds_of_bundle(f));
            read.entry(to).or_insert_with(|| crds_of_bundle(t));
            for o in &read[from] {
                if crds.iter().any(|c: &CrdCheck| c.crd == o.name) {
                    continue;
                }
                let n = read[to].iter().find(|n| n.name == o.name);
                crds.push(step_crd(o, n, stored.entry(o.name.clone()).or_default()));
            }
        }
        out.push(StepCheck { from: from.to_string(), to: to.to_string(), crds });
    }
    out
}

/// One CRD of a step, with the versions stored so far (updated to those the new CRD keeps).
fn step_crd(old: &FoundCrd, new: Option<&FoundCrd>, stored: &mut BTreeSet<String>) -> CrdCheck {
    if let Ok(oc) = &old.crd {
        stored.extend(stored_versions(oc));
    }
    let outcome = match new {
        None => Outcome::Removed,
        Some(n) => not_comparable(&old.crd, &n.crd).unwrap_or_else(|| match (&old.crd, &n.crd) {
            (Ok(oc), Ok(nc)) => Verdict::outcome(oc, nc, &stored.iter().cloned().collect::<Vec<_>>()),
            _ => unreachable!("not_comparable covers an unread side"),
        }),
    };
    if let Some(Ok(nc)) = new.map(|n| &n.crd) {
        stored.retain(|v| nc.version(v).is_some());
    }
    CrdCheck { crd: old.name.clone(), old: old.location.clone(), new: new.map(|n| n.location.clone()), outcome }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crd_safety::{Crd, CrdVersion};

    /// `a.example.com` with these (name, storage) versions, all served, no schema.
    fn found(versions: &[(&str, bool)]) -> FoundCrd {
        let versions = versions
            .iter()
            .map(|&(name, storage)| CrdVersion { name: name.into(), served: true, storage, schema: None })
            .collect();
        let crd = Crd { name: "a.example.com".into(), scope: "Namespaced".into(), versions, ..Crd::default() };
        FoundCrd { name: crd.name.clone(), location: Default::default(), crd: Ok(crd) }
    }

    #[test]
    fn a_version_stored_earlier_on_the_path_counts_as_stored() {
        // 1 stores v1alpha1; 2 adds v1 as storage and keeps v1alpha1; 3 drops v1alpha1. The
        // cluster that came through 1 still stores v1alpha1: step 2 -> 3 is refused.
        let (one, two, three) =
            (found(&[("v1alpha1", true)]), found(&[("v1alpha1", false), ("v1", true)]), found(&[("v1", true)]));
        let mut stored = BTreeSet::new();
        assert!(step_crd(&one, Some(&two), &mut stored).safe());
        let step = step_crd(&two, Some(&three), &mut stored);
        let rules: Vec<&str> = step.findings().iter().map(|f| f.rule).collect();
        assert_eq!(rules, ["storedVersionRemoval", "olmV0StoredVersion"]);
        // Started at 2, only v1 is stored: 2 -> 3 is taken.
        assert!(step_crd(&two, Some(&three), &mut BTreeSet::new()).safe());
        // The dropped version no longer counts after the step that dropped it.
        assert_eq!(stored.into_iter().collect::<Vec<_>>(), ["v1"]);
    }
}
