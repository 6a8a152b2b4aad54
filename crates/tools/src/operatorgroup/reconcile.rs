//! Provided-API reconciliation between intersecting OperatorGroups (`ReconcileAPIIntersection`)
//! and what one CSV sync does with its result (`transitionCSVState`): fail the CSV, rewrite the
//! group's `olm.providedAPIs`, or let the CSV go on.

use super::provided_apis::{render_provided_apis, ApiSet};
use super::targets::GroupSurface;
use super::{Failure, Reason};

/// The result of `ReconcileAPIIntersection`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum ApiReconciliation {
    /// The APIs are the group's already, but an intersecting group provides some too.
    #[serde(rename = "RemoveAPIs")]
    RemoveApis,
    /// New APIs that no intersecting group provides.
    #[serde(rename = "AddAPIs")]
    AddApis,
    /// New APIs, some of which an intersecting group provides.
    #[serde(rename = "APIConflict")]
    ApiConflict,
    /// Nothing to do.
    #[serde(rename = "NoAPIConflict")]
    NoApiConflict,
}

impl ApiReconciliation {
    /// OLM's name of the result.
    pub fn as_str(self) -> &'static str {
        match self {
            ApiReconciliation::RemoveApis => "RemoveAPIs",
            ApiReconciliation::AddApis => "AddAPIs",
            ApiReconciliation::ApiConflict => "APIConflict",
            ApiReconciliation::NoApiConflict => "NoAPIConflict",
        }
    }
}

/// Compare `add` (a CSV's provided APIs) with `group`'s APIs and with the APIs of the groups of
/// `others` that intersect it.
pub fn reconcile_api_intersection(add: &ApiSet, group: &GroupSurface, others: &[GroupSurface]) -> ApiReconciliation {
    let elsewhere: ApiSet =
        group.intersecting(others).into_iter().flat_map(|g| g.provided_apis.iter().cloned()).collect();
    let intersecting = !add.is_disjoint(&elsewhere);
    let subset = add.is_subset(&group.provided_apis);
    match (subset, intersecting) {
        (true, true) => ApiReconciliation::RemoveApis,
        (false, true) => ApiReconciliation::ApiConflict,
        (false, false) => ApiReconciliation::AddApis,
        (true, false) => ApiReconciliation::NoApiConflict,
    }
}

/// What one CSV sync does after reconciling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiStep {
    /// The CSV goes on (to its requirements, then the install).
    Continue,
    /// The CSV fails; OLM also deletes its deployments.
    Fail(Failure),
    /// OLM writes this `olm.providedAPIs` on the group and syncs the CSV again.
    SetAnnotation(String),
}

/// One sync's provided-API step for a CSV providing `add` in `group` (whose current annotation
/// text is `annotation`, and which is static when `static_apis`).
pub fn csv_api_step(
    add: &ApiSet,
    group: &GroupSurface,
    annotation: &str,
    static_apis: bool,
    others: &[GroupSurface],
) -> (ApiReconciliation, ApiStep) {
    let result = reconcile_api_intersection(add, group, others);
    let step = match result {
        ApiReconciliation::AddApis | ApiReconciliation::RemoveApis if static_apis => Failure::new(
            Reason::CannotModifyStaticProvidedApis,
            "static provided api operatorgroup cannot be modified by these apis",
        )
        .into(),
        ApiReconciliation::ApiConflict => {
            Failure::new(Reason::InterOperatorGroupOwnerConflict, "intersecting operatorgroups provide the same apis")
                .into()
        }
        ApiReconciliation::AddApis => {
            let union = render_provided_apis(&group.provided_apis.union(add).cloned().collect());
            if union == annotation {
                ApiStep::Continue
            } else {
                ApiStep::SetAnnotation(union)
            }
        }
        ApiReconciliation::RemoveApis => {
            ApiStep::SetAnnotation(render_provided_apis(&group.provided_apis.difference(add).cloned().collect()))
        }
        ApiReconciliation::NoApiConflict => ApiStep::Continue,
    };
    (result, step)
}

impl From<Failure> for ApiStep {
    fn from(f: Failure) -> ApiStep {
        ApiStep::Fail(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operatorgroup::provided_apis::parse_provided_apis;

    fn g(name: &str, ns: &str, status: &[&str], apis: &str) -> GroupSurface {
        let status: Vec<String> = status.iter().map(|s| s.to_string()).collect();
        GroupSurface::new(name, ns, &status, apis)
    }

    const GOOSE: &str = "Goose.v1alpha1.birds.com";

    #[test]
    fn the_four_results() {
        let add = parse_provided_apis(GOOSE);
        let mine = g("g1", "ns", &["ns-1"], GOOSE);
        let new = g("g1", "ns", &["ns-1"], "");
        let rival = [g("g2", "ns-2", &["ns-1"], GOOSE)];
        let apart = [g("g2", "ns-2", &["ns-9"], GOOSE)];
        assert_eq!(reconcile_api_intersection(&add, &mine, &rival), ApiReconciliation::RemoveApis);
        assert_eq!(reconcile_api_intersection(&add, &new, &rival), ApiReconciliation::ApiConflict);
        assert_eq!(reconcile_api_intersection(&add, &new, &apart), ApiReconciliation::AddApis);
        assert_eq!(reconcile_api_intersection(&add, &mine, &apart), ApiReconciliation::NoApiConflict);
        assert_eq!(reconcile_api_intersection(&ApiSet::new(), &new, &rival), ApiReconciliation::NoApiConflict);
    }

    #[test]
    fn a_static_group_cannot_be_changed() {
        let add = parse_provided_apis(GOOSE);
        let (result, step) = csv_api_step(&add, &g("g1", "ns", &["ns-1"], ""), "", true, &[]);
        assert_eq!(result, ApiReconciliation::AddApis);
        let ApiStep::Fail(f) = step else { panic!("{step:?}") };
        assert_eq!(f.reason.as_str(), "CannotModifyStaticOperatorGroupProvidedAPIs");
    }

    #[test]
    fn add_writes_the_union_and_remove_the_difference() {
        let add = parse_provided_apis(GOOSE);
        let (_, step) =
            csv_api_step(&add, &g("g1", "ns", &["ns-1"], "Moose.v1.mammals.com"), "Moose.v1.mammals.com", false, &[]);
        assert_eq!(step, ApiStep::SetAnnotation(format!("{GOOSE},Moose.v1.mammals.com")));
        let both = format!("{GOOSE},Moose.v1.mammals.com");
        let rival = [g("g2", "ns-2", &[""], GOOSE)];
        let (result, step) = csv_api_step(&add, &g("g1", "ns", &["ns-1"], &both), &both, false, &rival);
        assert_eq!(
            (result, step),
            (ApiReconciliation::RemoveApis, ApiStep::SetAnnotation("Moose.v1.mammals.com".into()))
        );
    }
}
