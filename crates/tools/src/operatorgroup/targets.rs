//! Which namespaces an OperatorGroup targets (`getOperatorGroupTargets`), and the namespace sets
//! OLM compares when it looks for intersecting groups (`NewOperatorGroup`, `GroupIntersection`).

use std::collections::BTreeSet;

use super::provided_apis::{parse_provided_apis, ApiSet};
use crate::cluster::operator_groups::{Namespace, OperatorGroup, SelectorError};

/// Why OLM cannot compute a group's targets (it then leaves its status as it was).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetsError {
    /// `spec.targetNamespaces` holds `""`.
    NamespaceAll(Vec<String>),
    /// The label selector does not convert.
    Selector(SelectorError),
}

impl std::fmt::Display for TargetsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TargetsError::NamespaceAll(list) => {
                write!(f, "TargetNamespaces cannot contain NamespaceAll: {}", crate::gotext::string_slice(list))
            }
            TargetsError::Selector(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TargetsError {}

/// The namespaces `group` targets: its `targetNamespaces` when any; else all namespaces (`{""}`)
/// when it has no selector or an empty one; else the namespaces whose labels match (possibly
/// none).
pub fn operator_group_targets(
    group: &OperatorGroup,
    namespaces: &[Namespace],
) -> Result<BTreeSet<String>, TargetsError> {
    if !group.target_namespaces.is_empty() {
        if group.target_namespaces.iter().any(String::is_empty) {
            return Err(TargetsError::NamespaceAll(group.target_namespaces.clone()));
        }
        return Ok(group.target_namespaces.iter().cloned().collect());
    }
    match &group.selector {
        Some(s) if !s.is_empty() => {
            s.check().map_err(TargetsError::Selector)?;
            Ok(namespaces.iter().filter(|n| s.matches(&n.labels)).map(|n| n.name.clone()).collect())
        }
        _ => Ok(BTreeSet::from([String::new()])),
    }
}

/// The group's `status.namespaces`: as given, or as OLM would write it from the spec (sorted).
pub fn status_namespaces(group: &OperatorGroup, namespaces: &[Namespace]) -> Result<Vec<String>, TargetsError> {
    match &group.status_namespaces {
        Some(status) => Ok(status.clone()),
        None => Ok(operator_group_targets(group, namespaces)?.into_iter().collect()),
    }
}

/// Whether a namespace set means all namespaces: exactly `{""}`.
pub fn is_all_namespaces(set: &BTreeSet<String>) -> bool {
    set.len() == 1 && set.contains("")
}

/// Whether two target sets share a namespace; an all-namespaces set shares one with any
/// non-empty set.
pub fn namespaces_intersect(a: &BTreeSet<String>, b: &BTreeSet<String>) -> bool {
    if is_all_namespaces(a) {
        return !b.is_empty();
    }
    if is_all_namespaces(b) {
        return !a.is_empty();
    }
    !a.is_disjoint(b)
}

/// A group as OLM compares it with others: identity, the namespaces it covers, its provided
/// APIs (read from its `olm.providedAPIs` annotation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupSurface {
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`.
    pub namespace: String,
    /// `status.namespaces`, plus the group's own namespace unless the status is empty or starts
    /// with `""` (a malformed status such as `["", "x"]` is kept as it is, as OLM keeps it).
    pub targets: BTreeSet<String>,
    /// The APIs of its `olm.providedAPIs` annotation.
    pub provided_apis: ApiSet,
}

impl GroupSurface {
    /// The surface of a group with this status and annotation.
    pub fn new(name: &str, namespace: &str, status: &[String], annotation: &str) -> GroupSurface {
        let mut targets: BTreeSet<String> = status.iter().cloned().collect();
        if status.first().is_some_and(|first| !first.is_empty()) {
            targets.insert(namespace.to_string());
        }
        GroupSurface {
            name: name.to_string(),
            namespace: namespace.to_string(),
            targets,
            provided_apis: parse_provided_apis(annotation),
        }
    }

    /// The surface of `group` whose status is `status`.
    pub fn of(group: &OperatorGroup, status: &[String]) -> GroupSurface {
        GroupSurface::new(&group.name, &group.namespace, status, group.provided_apis.as_deref().unwrap_or(""))
    }

    /// `name/namespace`.
    pub fn identifier(&self) -> String {
        format!("{}/{}", self.name, self.namespace)
    }

    /// The groups of `others` whose targets intersect this group's, in their order; the group
    /// itself (same name and namespace) is skipped.
    pub fn intersecting<'a>(&self, others: &'a [GroupSurface]) -> Vec<&'a GroupSurface> {
        others
            .iter()
            .filter(|g| (g.name.as_str(), g.namespace.as_str()) != (self.name.as_str(), self.namespace.as_str()))
            .filter(|g| namespaces_intersect(&self.targets, &g.targets))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::operator_groups::LabelSelector;

    fn strs(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn set(v: &[&str]) -> BTreeSet<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn namespaces() -> Vec<Namespace> {
        let ns = |name: &str, env: &str| Namespace {
            name: name.into(),
            labels: [("env".to_string(), env.to_string())].into_iter().collect(),
        };
        vec![ns("a", "prod"), ns("b", "dev"), ns("c", "prod")]
    }

    fn group(targets: &[&str], selector: Option<LabelSelector>) -> OperatorGroup {
        OperatorGroup {
            name: "g".into(),
            namespace: "ops".into(),
            target_namespaces: strs(targets),
            selector,
            ..Default::default()
        }
    }

    #[test]
    fn target_namespaces_win_over_the_selector() {
        let sel =
            LabelSelector { match_labels: [("env".into(), "prod".into())].into_iter().collect(), ..Default::default() };
        assert_eq!(operator_group_targets(&group(&["b"], Some(sel.clone())), &namespaces()), Ok(set(&["b"])));
        assert_eq!(operator_group_targets(&group(&[], Some(sel)), &namespaces()), Ok(set(&["a", "c"])));
    }

    #[test]
    fn no_selector_or_an_empty_one_selects_all_namespaces() {
        assert_eq!(operator_group_targets(&group(&[], None), &[]), Ok(set(&[""])));
        assert_eq!(operator_group_targets(&group(&[], Some(LabelSelector::default())), &[]), Ok(set(&[""])));
    }

    #[test]
    fn a_selector_may_select_nothing_and_namespace_all_is_refused() {
        let sel =
            LabelSelector { match_labels: [("env".into(), "qa".into())].into_iter().collect(), ..Default::default() };
        assert_eq!(operator_group_targets(&group(&[], Some(sel)), &namespaces()), Ok(set(&[])));
        let e = operator_group_targets(&group(&["a", ""], None), &[]).unwrap_err();
        assert_eq!(e.to_string(), "TargetNamespaces cannot contain NamespaceAll: [a ]");
    }

    #[test]
    fn surfaces_add_the_group_namespace_unless_all_or_empty() {
        assert_eq!(GroupSurface::new("g", "ns", &strs(&["ns-1"]), "").targets, set(&["ns", "ns-1"]));
        assert_eq!(GroupSurface::new("g", "ns", &strs(&[""]), "").targets, set(&[""]));
        assert_eq!(GroupSurface::new("g", "ns", &[], "").targets, set(&[]));
        assert_eq!(GroupSurface::new("g", "ns", &strs(&["", "x"]), "").targets, set(&["", "x"]), "not sanitized");
    }

    #[test]
    fn intersection_skips_self_and_treats_all_namespaces_specially() {
        let g = GroupSurface::new("a", "ns", &strs(&["ns-1"]), "");
        let others = [
            GroupSurface::new("a", "ns", &strs(&["ns-1"]), ""),
            GroupSurface::new("b", "ns-2", &strs(&["ns"]), ""),
            GroupSurface::new("c", "ns-3", &strs(&[""]), ""),
            GroupSurface::new("d", "ns-4", &strs(&["ns-9"]), ""),
            GroupSurface::new("e", "ns-5", &[], ""),
        ];
        let ids: Vec<String> = g.intersecting(&others).iter().map(|g| g.identifier()).collect();
        assert_eq!(ids, ["b/ns-2", "c/ns-3"]);
        assert!(GroupSurface::new("z", "x", &[], "").intersecting(&others).is_empty());
    }
}
