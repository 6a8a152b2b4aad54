//! The namespaces and OperatorGroups of a cluster, as OLM's operator-group controller reads them:
//! namespaces with their labels, OperatorGroups with their target selection (`targetNamespaces`
//! or a label selector), `staticProvidedAPIs`, the `olm.providedAPIs` annotation, the upgrade
//! strategy and, when known, `status.namespaces`. Label selectors match as Kubernetes'
//! `metav1.LabelSelectorAsSelector` makes them match.
//!
//! The JSON field names are the ones of the `operatorgroup` conformance cases and of the CLI's
//! `operatorgroup CHECK.json` (`statusNamespaces`, `providedAPIsAnnotation`). This describes a
//! cluster; deciding what OLM does with it is the `operatorgroup` analysis.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A namespace and its labels.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Namespace {
    /// `metadata.name`.
    pub name: String,
    /// `metadata.labels`.
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
}

/// The namespaces and OperatorGroups of a cluster.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GroupCluster {
    /// Every namespace (what label selectors choose from).
    #[serde(default)]
    pub namespaces: Vec<Namespace>,
    /// Every OperatorGroup, in any namespace.
    #[serde(default, rename = "operatorGroups")]
    pub groups: Vec<OperatorGroup>,
}

impl GroupCluster {
    /// The OperatorGroups in `namespace`, in the order given.
    pub fn groups_in<'a>(&'a self, namespace: &'a str) -> impl Iterator<Item = &'a OperatorGroup> + 'a {
        self.groups.iter().filter(move |g| g.namespace == namespace)
    }
}

/// An OperatorGroup (`operators.coreos.com/v1`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OperatorGroup {
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`.
    pub namespace: String,
    /// `spec.targetNamespaces` (when non-empty, the selector is ignored).
    #[serde(default)]
    pub target_namespaces: Vec<String>,
    /// `spec.selector`; `None` (or an empty selector) selects all namespaces.
    #[serde(default)]
    pub selector: Option<LabelSelector>,
    /// `spec.staticProvidedAPIs`: OLM never changes the `olm.providedAPIs` annotation.
    #[serde(default, rename = "staticProvidedAPIs")]
    pub static_provided_apis: bool,
    /// The `olm.providedAPIs` annotation (`None` when the group has none).
    #[serde(default, rename = "providedAPIsAnnotation")]
    pub provided_apis: Option<String>,
    /// `spec.upgradeStrategy` (`Default` or `TechPreviewUnsafeFailForward`).
    #[serde(default)]
    pub upgrade_strategy: UpgradeStrategy,
    /// `status.namespaces`, when known; `None` means "as OLM would compute it from the spec".
    #[serde(default)]
    pub status_namespaces: Option<Vec<String>>,
}

impl OperatorGroup {
    /// `name/namespace`, OLM's identifier of a group.
    pub fn identifier(&self) -> String {
        format!("{}/{}", self.name, self.namespace)
    }
}

/// `spec.upgradeStrategy`: anything but `TechPreviewUnsafeFailForward` counts as `Default`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum UpgradeStrategy {
    /// `Default`.
    #[default]
    Default,
    /// `TechPreviewUnsafeFailForward`: failed installs and upgrades may be replaced.
    UnsafeFailForward,
}

impl From<String> for UpgradeStrategy {
    fn from(s: String) -> UpgradeStrategy {
        if s == "TechPreviewUnsafeFailForward" {
            UpgradeStrategy::UnsafeFailForward
        } else {
            UpgradeStrategy::Default
        }
    }
}

impl From<UpgradeStrategy> for String {
    fn from(s: UpgradeStrategy) -> String {
        match s {
            UpgradeStrategy::Default => "Default".into(),
            UpgradeStrategy::UnsafeFailForward => "TechPreviewUnsafeFailForward".into(),
        }
    }
}

/// A Kubernetes `LabelSelector`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelector {
    /// `matchLabels`: each key must have exactly this value.
    #[serde(default)]
    pub match_labels: BTreeMap<String, String>,
    /// `matchExpressions`: each must hold.
    #[serde(default)]
    pub match_expressions: Vec<SelectorRequirement>,
}

/// One `matchExpressions` item.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelectorRequirement {
    /// `key`.
    pub key: String,
    /// `operator`: `In`, `NotIn`, `Exists` or `DoesNotExist`.
    pub operator: String,
    /// `values`.
    #[serde(default)]
    pub values: Vec<String>,
}

/// A selector Kubernetes refuses to turn into a `labels.Selector`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SelectorError {
    /// An operator other than the four.
    UnknownOperator(String),
    /// `In` or `NotIn` with no values.
    NoValues(String),
    /// `Exists` or `DoesNotExist` with values.
    UnexpectedValues(String),
}

impl std::fmt::Display for SelectorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SelectorError::UnknownOperator(op) => {
                write!(f, "{} is not a valid label selector operator", crate::gotext::quote(op))
            }
            SelectorError::NoValues(key) => {
                write!(f, "key {key}: for 'in', 'notin' operators, values set can't be empty")
            }
            SelectorError::UnexpectedValues(key) => {
                write!(f, "key {key}: values set must be empty for exists and does not exist")
            }
        }
    }
}

impl std::error::Error for SelectorError {}

impl LabelSelector {
    /// Whether the selector has no requirement at all (it then selects everything).
    pub fn is_empty(&self) -> bool {
        self.match_labels.is_empty() && self.match_expressions.is_empty()
    }

    /// Check the expressions as Kubernetes does before matching.
    pub fn check(&self) -> Result<(), SelectorError> {
        for r in &self.match_expressions {
            match r.operator.as_str() {
                "In" | "NotIn" if r.values.is_empty() => return Err(SelectorError::NoValues(r.key.clone())),
                "Exists" | "DoesNotExist" if !r.values.is_empty() => {
                    return Err(SelectorError::UnexpectedValues(r.key.clone()))
                }
                "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
                other => return Err(SelectorError::UnknownOperator(other.to_string())),
            }
        }
        Ok(())
    }

    /// Whether `labels` satisfy every requirement (call [`LabelSelector::check`] first: an
    /// invalid expression matches nothing here).
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        let labels_ok = self.match_labels.iter().all(|(k, v)| labels.get(k) == Some(v));
        labels_ok && self.match_expressions.iter().all(|r| r.matches(labels))
    }
}

impl SelectorRequirement {
    /// Whether `labels` satisfy this requirement (`NotIn` holds when the key is absent).
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        let value = labels.get(&self.key);
        match self.operator.as_str() {
            "In" => value.is_some_and(|v| self.values.contains(v)),
            "NotIn" => value.is_none_or(|v| !self.values.contains(v)),
            "Exists" => value.is_some(),
            "DoesNotExist" => value.is_none(),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    fn req(key: &str, operator: &str, values: &[&str]) -> SelectorRequirement {
        SelectorRequirement {
            key: key.into(),
            operator: operator.into(),
            values: values.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn match_labels_need_every_pair() {
        let s = LabelSelector { match_labels: labels(&[("env", "prod"), ("team", "a")]), ..Default::default() };
        assert!(s.matches(&labels(&[("env", "prod"), ("team", "a"), ("x", "y")])));
        assert!(!s.matches(&labels(&[("env", "prod")])));
        assert!(!s.matches(&labels(&[("env", "dev"), ("team", "a")])));
    }

    #[test]
    fn expressions_match_as_kubernetes_does() {
        let l = labels(&[("env", "prod")]);
        assert!(req("env", "In", &["prod", "qa"]).matches(&l));
        assert!(!req("env", "In", &["qa"]).matches(&l));
        assert!(!req("env", "NotIn", &["prod"]).matches(&l));
        assert!(req("tier", "NotIn", &["web"]).matches(&l), "NotIn holds when the key is absent");
        assert!(req("env", "Exists", &[]).matches(&l));
        assert!(req("tier", "DoesNotExist", &[]).matches(&l));
        assert!(!req("env", "DoesNotExist", &[]).matches(&l));
    }

    #[test]
    fn invalid_expressions_are_refused() {
        let sel = |r| LabelSelector { match_expressions: vec![r], ..Default::default() };
        assert_eq!(sel(req("k", "In", &[])).check(), Err(SelectorError::NoValues("k".into())));
        assert_eq!(sel(req("k", "Exists", &["v"])).check(), Err(SelectorError::UnexpectedValues("k".into())));
        let e = sel(req("k", "Equals", &["v"])).check().unwrap_err();
        assert_eq!(e.to_string(), "\"Equals\" is not a valid label selector operator");
        assert!(LabelSelector::default().is_empty());
    }

    #[test]
    fn groups_read_from_json() {
        let g: OperatorGroup = serde_json::from_str(
            r#"{"name":"g","namespace":"ns","selector":{"matchLabels":{"a":"b"}},"staticProvidedAPIs":true,
                "providedAPIsAnnotation":"Goose.v1.birds.com","upgradeStrategy":"TechPreviewUnsafeFailForward"}"#,
        )
        .unwrap();
        assert_eq!(g.identifier(), "g/ns");
        assert!(g.static_provided_apis);
        assert_eq!(g.upgrade_strategy, UpgradeStrategy::UnsafeFailForward);
        assert_eq!(g.status_namespaces, None);
        assert_eq!(g.selector.unwrap().match_labels["a"], "b");
    }
}
