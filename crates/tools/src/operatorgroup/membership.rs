//! A CSV's membership in the OperatorGroup of its namespace, decided as OLM's CSV sync
//! (`transitionCSVState`, `operatorGroupForCSV`) decides it: the checks in OLM's order, the first
//! failure winning, and the syncs OLM goes through on the way (it annotates the CSV, rewrites the
//! group's `olm.providedAPIs`, then syncs again), until the CSV fails or goes on to its
//! requirements.
//!
//! The CSV is taken as new (no status reason yet). OperatorGroups whose `status.namespaces` is not
//! given get the status OLM would compute from their spec; a given status is taken as that
//! computation's result (an empty one is `NoTargetNamespaces`).

use std::collections::BTreeMap;

use super::install_modes::InstallModeSet;
use super::provided_apis::csv_provided_apis;
use super::reconcile::{csv_api_step, ApiReconciliation, ApiStep};
use super::targets::{operator_group_targets, status_namespaces, GroupSurface};
use super::{Failure, Outcome, Reason};
use crate::cluster::operator_groups::{GroupCluster, OperatorGroup};
use crate::model::csv::CsvView;

/// The CSV annotation naming its OperatorGroup.
pub const ANNOTATION_OPERATOR_GROUP: &str = "olm.operatorGroup";
/// The CSV annotation naming its OperatorGroup's namespace.
pub const ANNOTATION_OPERATOR_NAMESPACE: &str = "olm.operatorNamespace";
/// The CSV annotation listing its target namespaces, sorted, comma-separated.
pub const ANNOTATION_TARGET_NAMESPACES: &str = "olm.targetNamespaces";

/// What OLM does with a CSV in a namespace.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Membership {
    /// Where the CSV ends up.
    pub outcome: Outcome,
    /// The OperatorGroup it joins (`name/namespace`), when its namespace has exactly one.
    pub operator_group: Option<String>,
    /// The annotations OLM writes on the CSV (`olm.operatorGroup`, `olm.operatorNamespace`,
    /// `olm.targetNamespaces`).
    pub csv_annotations: BTreeMap<String, String>,
    /// The group's `olm.providedAPIs` before the CSV's syncs.
    pub provided_apis_before: Option<String>,
    /// The `olm.providedAPIs` OLM last writes on the group, when it writes one.
    pub provided_apis_after: Option<String>,
    /// The provided-API reconciliation result of each sync that got that far.
    pub api_reconciliation: Vec<ApiReconciliation>,
    /// The other groups whose targets intersect the CSV's group (`name/namespace`).
    pub intersecting_groups: Vec<String>,
    /// What each sync does, in order.
    pub syncs: Vec<String>,
}

impl Membership {
    fn end(mut self, outcome: Outcome) -> Membership {
        self.outcome = outcome;
        self
    }

    fn fail(mut self, reason: Reason, message: impl Into<String>) -> Membership {
        let failure = Failure::new(reason, message);
        self.syncs.push(format!("the CSV fails: {}: {}", failure.reason.as_str(), failure.message));
        self.end(Outcome::Failed(failure))
    }
}

/// Most syncs OLM needs before the outcome settles (annotate, rewrite the APIs, see the result).
const MAX_API_SYNCS: usize = 4;

/// What OLM does with `csv` created in `namespace` of `cluster`.
pub fn membership(csv: &CsvView, namespace: &str, cluster: &GroupCluster) -> Membership {
    let m = Membership {
        outcome: Outcome::Supported,
        operator_group: None,
        csv_annotations: BTreeMap::new(),
        provided_apis_before: None,
        provided_apis_after: None,
        api_reconciliation: Vec::new(),
        intersecting_groups: Vec::new(),
        syncs: Vec::new(),
    };
    let add = match csv_provided_apis(csv) {
        Ok(a) => a,
        Err(e) => return m.end(Outcome::Stalled { message: format!("OLM cannot read the CSV's APIs: {e}") }),
    };
    let groups: Vec<&OperatorGroup> = cluster.groups_in(namespace).collect();
    let og = match groups.as_slice() {
        [] => return m.fail(Reason::NoOperatorGroup, "csv in namespace with no operatorgroups"),
        [og] => *og,
        _ => {
            return m.fail(
                Reason::TooManyOperatorGroups,
                "csv created in namespace with multiple operatorgroups, can't pick one automatically",
            )
        }
    };
    join(m, csv, namespace, cluster, og, add)
}

/// The checks after the CSV has found its one group.
fn join(
    mut m: Membership,
    csv: &CsvView,
    namespace: &str,
    cluster: &GroupCluster,
    og: &OperatorGroup,
    add: super::provided_apis::ApiSet,
) -> Membership {
    m.operator_group = Some(og.identifier());
    m.provided_apis_before = og.provided_apis.clone();
    let computed = operator_group_targets(og, &cluster.namespaces);
    let status = match (&og.status_namespaces, &computed) {
        (Some(s), _) => s.clone(),
        (None, Ok(set)) => set.iter().cloned().collect(),
        (None, Err(e)) => {
            let message = format!("OLM cannot compute the OperatorGroup's namespaces: {e}");
            return m.end(Outcome::InvalidGroup { message });
        }
    };
    let mut sorted = status.clone();
    crate::sort::sort(&mut sorted);
    let targets = sorted.join(",");
    m.csv_annotations.insert(ANNOTATION_OPERATOR_GROUP.into(), og.name.clone());
    m.csv_annotations.insert(ANNOTATION_OPERATOR_NAMESPACE.into(), og.namespace.clone());
    m.csv_annotations.insert(ANNOTATION_TARGET_NAMESPACES.into(), targets.clone());
    m.syncs.push(format!(
        "OLM annotates the CSV for OperatorGroup {} (olm.targetNamespaces={})",
        og.identifier(),
        crate::gotext::quote(&targets)
    ));
    // A given status is what OLM computed from the spec; otherwise OLM computes it now.
    if status.is_empty() {
        return m
            .fail(Reason::NoTargetNamespaces, "no targetNamespaces are matched operatorgroups namespace selection");
    }
    let modes = match InstallModeSet::new(&csv.install_modes) {
        Ok(s) => s,
        Err(e) => return m.fail(Reason::InvalidInstallModes, e.to_string()),
    };
    let watched: Vec<String> = targets.split(',').map(str::to_string).collect();
    if let Err(e) = modes.supports(namespace, &watched) {
        return m.fail(Reason::UnsupportedOperatorGroup, e.to_string());
    }
    reconcile_apis(m, cluster, og, &status, &add)
}

/// The provided-API syncs: repeated until the CSV fails or goes on.
fn reconcile_apis(
    mut m: Membership,
    cluster: &GroupCluster,
    og: &OperatorGroup,
    status: &[String],
    add: &super::provided_apis::ApiSet,
) -> Membership {
    let others: Vec<GroupSurface> = cluster
        .groups
        .iter()
        .filter(|g| (g.name.as_str(), g.namespace.as_str()) != (og.name.as_str(), og.namespace.as_str()))
        .map(|g| GroupSurface::of(g, &status_namespaces(g, &cluster.namespaces).unwrap_or_default()))
        .collect();
    let mut annotation = og.provided_apis.clone().unwrap_or_default();
    let first = GroupSurface::new(&og.name, &og.namespace, status, &annotation);
    m.intersecting_groups = first.intersecting(&others).iter().map(|g| g.identifier()).collect();
    for _ in 0..MAX_API_SYNCS {
        let group = GroupSurface::new(&og.name, &og.namespace, status, &annotation);
        let (result, step) = csv_api_step(add, &group, &annotation, og.static_provided_apis, &others);
        m.api_reconciliation.push(result);
        match step {
            ApiStep::Continue => {
                m.syncs.push(format!("{}: the CSV goes on to Pending (requirements not yet checked)", result.as_str()));
                return m.end(Outcome::Supported);
            }
            ApiStep::Fail(f) => {
                m.syncs.push(format!("{}: the CSV fails: {}: {}", result.as_str(), f.reason.as_str(), f.message));
                return m.end(Outcome::Failed(f));
            }
            ApiStep::SetAnnotation(text) => {
                m.syncs.push(format!(
                    "{}: OLM sets the group's olm.providedAPIs to {} and syncs the CSV again",
                    result.as_str(),
                    crate::gotext::quote(&text)
                ));
                m.provided_apis_after = Some(text.clone());
                annotation = text;
            }
        }
    }
    m.end(Outcome::Stalled { message: "OLM keeps rewriting the group's olm.providedAPIs".into() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::operator_groups::{LabelSelector, Namespace};
    use crate::model::csv::{CrdDescription, InstallMode};

    fn csv(modes: &[(&str, bool)], owned: &[(&str, &str, &str)]) -> CsvView {
        CsvView {
            install_modes: modes.iter().map(|(t, s)| InstallMode { type_: t.to_string(), supported: *s }).collect(),
            owned_crds: owned
                .iter()
                .map(|(n, v, k)| CrdDescription { name: n.to_string(), version: v.to_string(), kind: k.to_string() })
                .collect(),
            ..CsvView::default()
        }
    }

    fn group(name: &str, ns: &str, targets: &[&str]) -> OperatorGroup {
        OperatorGroup {
            name: name.into(),
            namespace: ns.into(),
            target_namespaces: targets.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        }
    }

    fn reason(m: &Membership) -> Option<&str> {
        match &m.outcome {
            Outcome::Failed(f) => Some(f.reason.as_str()),
            _ => None,
        }
    }

    const ALL: &[(&str, bool)] =
        &[("OwnNamespace", true), ("SingleNamespace", true), ("MultiNamespace", true), ("AllNamespaces", true)];
    const GEESE: &[(&str, &str, &str)] = &[("geese.birds.com", "v1", "Goose")];

    #[test]
    fn group_count_decides_first() {
        let c = csv(ALL, GEESE);
        let none = GroupCluster::default();
        assert_eq!(reason(&membership(&c, "ops", &none)), Some("NoOperatorGroup"));
        let two = GroupCluster { groups: vec![group("a", "ops", &[]), group("b", "ops", &[])], ..Default::default() };
        let m = membership(&c, "ops", &two);
        assert_eq!(reason(&m), Some("TooManyOperatorGroups"));
        assert!(m.csv_annotations.is_empty());
    }

    #[test]
    fn a_supported_csv_gets_annotations_and_adds_its_apis() {
        let cluster = GroupCluster { groups: vec![group("og", "ops", &["b", "a"])], ..Default::default() };
        let m = membership(&csv(ALL, GEESE), "ops", &cluster);
        assert_eq!(m.outcome, Outcome::Supported);
        assert_eq!(m.csv_annotations["olm.targetNamespaces"], "a,b");
        assert_eq!(m.csv_annotations["olm.operatorGroup"], "og");
        assert_eq!(m.csv_annotations["olm.operatorNamespace"], "ops");
        assert_eq!(m.provided_apis_after.as_deref(), Some("Goose.v1.birds.com"));
        assert_eq!(m.api_reconciliation, [ApiReconciliation::AddApis, ApiReconciliation::NoApiConflict]);
    }

    #[test]
    fn install_modes_are_checked_against_the_targets() {
        let cluster = GroupCluster { groups: vec![group("og", "ops", &[])], ..Default::default() };
        let own_only = csv(&[("OwnNamespace", true)], GEESE);
        let m = membership(&own_only, "ops", &cluster);
        assert_eq!(reason(&m), Some("UnsupportedOperatorGroup"));
        let Outcome::Failed(f) = &m.outcome else { unreachable!() };
        assert_eq!(f.message, "AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces");
        let dup = csv(&[("OwnNamespace", true), ("OwnNamespace", true)], GEESE);
        assert_eq!(reason(&membership(&dup, "ops", &cluster)), Some("InvalidInstallModes"));
    }

    #[test]
    fn a_selector_matching_nothing_gives_no_target_namespaces() {
        let mut og = group("og", "ops", &[]);
        og.selector = Some(LabelSelector {
            match_labels: [("t".into(), "x".into())].into_iter().collect(),
            ..Default::default()
        });
        let cluster = GroupCluster {
            namespaces: vec![Namespace { name: "a".into(), labels: Default::default() }],
            groups: vec![og],
        };
        let m = membership(&csv(ALL, GEESE), "ops", &cluster);
        assert_eq!(reason(&m), Some("NoTargetNamespaces"));
        assert_eq!(m.csv_annotations["olm.targetNamespaces"], "");
    }

    #[test]
    fn an_intersecting_group_with_the_same_apis_conflicts() {
        let mut rival = group("rival", "other", &[]);
        rival.provided_apis = Some("Goose.v1.birds.com".into());
        let cluster = GroupCluster { groups: vec![group("og", "ops", &[]), rival], ..Default::default() };
        let m = membership(&csv(ALL, GEESE), "ops", &cluster);
        assert_eq!(reason(&m), Some("InterOperatorGroupOwnerConflict"));
        assert_eq!(m.intersecting_groups, ["rival/other"]);
    }

    #[test]
    fn remove_then_conflict_and_static_groups() {
        // The group lists the API already, but so does an intersecting group: OLM removes it,
        // and the next sync finds a conflict.
        let mut og = group("og", "ops", &[]);
        og.provided_apis = Some("Goose.v1.birds.com".into());
        let mut rival = group("rival", "other", &[]);
        rival.provided_apis = Some("Goose.v1.birds.com".into());
        let cluster = GroupCluster { groups: vec![og.clone(), rival], ..Default::default() };
        let m = membership(&csv(ALL, GEESE), "ops", &cluster);
        assert_eq!(m.api_reconciliation, [ApiReconciliation::RemoveApis, ApiReconciliation::ApiConflict]);
        assert_eq!(m.provided_apis_after.as_deref(), Some(""));
        assert_eq!(reason(&m), Some("InterOperatorGroupOwnerConflict"));
        og.static_provided_apis = true;
        og.provided_apis = None;
        let cluster = GroupCluster { groups: vec![og], ..Default::default() };
        assert_eq!(
            reason(&membership(&csv(ALL, GEESE), "ops", &cluster)),
            Some("CannotModifyStaticOperatorGroupProvidedAPIs")
        );
    }

    #[test]
    fn unreadable_apis_and_invalid_groups_stop_before_any_reason() {
        let cluster = GroupCluster { groups: vec![group("og", "ops", &["a", ""])], ..Default::default() };
        assert!(matches!(membership(&csv(ALL, GEESE), "ops", &cluster).outcome, Outcome::InvalidGroup { .. }));
        let bad = csv(ALL, &[("nodot", "v1", "X")]);
        assert!(matches!(membership(&bad, "ops", &cluster).outcome, Outcome::Stalled { .. }));
    }
}
