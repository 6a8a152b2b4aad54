//! The steps of one upgrade path checked for CRD safety: each step's old bundle's CRDs (its
//! `olm.bundle.object` properties) against the new bundle's. Along the path, the versions stored
//! for a CRD are every storage version of the bundles passed so far (the start included), as
//! long as the CRDs on the way keep them: a version a step drops is reported at that step.
//! Each distinct CRD manifest is read once and each distinct pair compared once ([`CrdStore`]).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::outcome::{CrdCheck, CrdFinding};
use super::sets::stored_versions;
use super::store::{CrdStore, StoredCrd};
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
    let mut store = CrdStore::new();
    let mut read: BTreeMap<&str, Vec<StoredCrd>> = BTreeMap::new();
    let mut stored: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut out = Vec::with_capacity(steps.len());
    for &(from, to) in steps {
        let mut crds = Vec::new();
        if let (Some(f), Some(t)) = (package.bundle(from), package.bundle(to)) {
            read.entry(from).or_insert_with(|| store.bundle(f));
            read.entry(to).or_insert_with(|| store.bundle(t));
            for o in &read[from] {
                if crds.iter().any(|c: &CrdCheck| c.crd == o.name) {
                    continue;
                }
                crds.push(step_crd(&mut store, o, &read[to], stored.entry(o.name.clone()).or_default()));
            }
        }
        out.push(StepCheck { from: from.to_string(), to: to.to_string(), crds });
    }
    out
}

/// One CRD of a step against the new bundle's CRDs, with the versions stored so far (updated to
/// those the new CRD keeps).
fn step_crd(store: &mut CrdStore, old: &StoredCrd, new: &[StoredCrd], stored: &mut BTreeSet<String>) -> CrdCheck {
    if let Ok(oc) = store.crd(old.object) {
        stored.extend(stored_versions(oc));
    }
    let check = store.check(old, new, Some(stored.iter().cloned().collect()));
    if let Some(Ok(nc)) = new.iter().find(|n| n.name == old.name).map(|n| store.crd(n.object)) {
        stored.retain(|v| nc.version(v).is_some());
    }
    check
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crd_safety::{Crd, CrdVersion, FoundCrd};

    /// `a.example.com` with these (name, storage) versions, all served, no schema, in `store`.
    fn found(store: &mut CrdStore, versions: &[(&str, bool)]) -> StoredCrd {
        let versions = versions
            .iter()
            .map(|&(name, storage)| CrdVersion { name: name.into(), served: true, storage, schema: None })
            .collect();
        let crd = Crd { name: "a.example.com".into(), scope: "Namespaced".into(), versions, ..Crd::default() };
        store.add(&FoundCrd { name: crd.name.clone(), location: Default::default(), crd: Ok(crd) })
    }

    #[test]
    fn a_version_stored_earlier_on_the_path_counts_as_stored() {
        // 1 stores v1alpha1; 2 adds v1 as storage and keeps v1alpha1; 3 drops v1alpha1. The
        // cluster that came through 1 still stores v1alpha1: step 2 -> 3 is refused.
        let mut store = CrdStore::new();
        let one = found(&mut store, &[("v1alpha1", true)]);
        let two = found(&mut store, &[("v1alpha1", false), ("v1", true)]);
        let three = found(&mut store, &[("v1", true)]);
        let mut stored = BTreeSet::new();
        assert!(step_crd(&mut store, &one, std::slice::from_ref(&two), &mut stored).safe());
        let step = step_crd(&mut store, &two, std::slice::from_ref(&three), &mut stored);
        let rules: Vec<&str> = step.findings().iter().map(|f| f.rule).collect();
        assert_eq!(rules, ["storedVersionRemoval", "olmV0StoredVersion"]);
        // Started at 2, only v1 is stored: 2 -> 3 is taken.
        assert!(step_crd(&mut store, &two, std::slice::from_ref(&three), &mut BTreeSet::new()).safe());
        // A CRD the new bundle lacks is removed, and what was stored stays.
        assert_eq!(
            step_crd(&mut store, &three, &[], &mut BTreeSet::new()).outcome,
            crate::crd_safety::Outcome::Removed
        );
        // The dropped version no longer counts after the step that dropped it.
        assert_eq!(stored.into_iter().collect::<Vec<_>>(), ["v1"]);
    }
}
