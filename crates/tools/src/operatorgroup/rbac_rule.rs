//! The policy rule of a generated Role or ClusterRole: a Kubernetes `PolicyRule` as the preview
//! serialises it (empty lists omitted), read from the CSV's rules.

use serde::Serialize;

use crate::model::csv::PolicyRule;

/// A `PolicyRule`, serialisable (empty lists omitted).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rule {
    /// `verbs`.
    pub verbs: Vec<String>,
    /// `apiGroups`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub api_groups: Vec<String>,
    /// `resources`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
    /// `resourceNames`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resource_names: Vec<String>,
    /// `nonResourceURLs`.
    #[serde(rename = "nonResourceURLs", skip_serializing_if = "Vec::is_empty")]
    pub non_resource_urls: Vec<String>,
}

impl From<&PolicyRule> for Rule {
    fn from(r: &PolicyRule) -> Rule {
        Rule {
            verbs: r.verbs.clone(),
            api_groups: r.api_groups.clone(),
            resources: r.resources.clone(),
            resource_names: r.resource_names.clone(),
            non_resource_urls: r.non_resource_urls.clone(),
        }
    }
}
