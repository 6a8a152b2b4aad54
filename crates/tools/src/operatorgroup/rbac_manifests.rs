//! An RBAC preview as Kubernetes manifests: the ServiceAccounts, ClusterRoles, ClusterRoleBindings,
//! Roles and RoleBindings OLM creates, each a document of a multi-document YAML stream (keys in the
//! order `kubectl get -o yaml` prints them, values as sigs.k8s.io/yaml writes them), ready for
//! `kubectl apply --dry-run=server` or a diff against a cluster's objects. What the preview cannot
//! know is left out: owner references (they name the CSV's and CRDs' UIDs), and the rules the
//! aggregation controller fills into the OperatorGroup's ClusterRoles.

use serde_json::{json, Value};

use super::rbac::{GeneratedBinding, GeneratedRole, RbacPreview};
use super::rbac_names::RBAC_API_GROUP;

const RBAC_API_VERSION: &str = "rbac.authorization.k8s.io/v1";

impl RbacPreview {
    /// The objects as Kubernetes manifests: ServiceAccounts, the group's, the APIs' and the
    /// generated ClusterRoles, ClusterRoleBindings, Roles, RoleBindings.
    pub fn manifests(&self) -> Vec<Value> {
        let ns = &self.target.operator_namespace;
        let mut out: Vec<Value> = self
            .service_accounts
            .iter()
            .map(|sa| json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": sa, "namespace": ns}}))
            .collect();
        let roles = [&self.group_cluster_roles, &self.api_cluster_roles, &self.cluster_roles];
        out.extend(roles.into_iter().flatten().map(|r| role("ClusterRole", r)));
        out.extend(self.cluster_role_bindings.iter().map(|b| binding("ClusterRoleBinding", b)));
        out.extend(self.roles.iter().map(|r| role("Role", r)));
        out.extend(self.role_bindings.iter().map(|b| binding("RoleBinding", b)));
        out
    }

    /// [`RbacPreview::manifests`] as a YAML stream, `---` between documents, after comment lines
    /// naming the CSV and the group and carrying the preview's notes.
    pub fn to_manifest_yaml(&self) -> String {
        let t = &self.target;
        let targets: Vec<&str> =
            t.target_namespaces.iter().map(|n| if n.is_empty() { "all namespaces" } else { n.as_str() }).collect();
        let mut out = format!(
            "# {} as {}: OperatorGroup {} in namespace {}, targeting {}\n",
            self.csv_name,
            t.install_mode,
            t.operator_group,
            t.operator_namespace,
            targets.join(", ")
        );
        for note in &self.notes {
            out.push_str(&format!("# note: {}\n", note.replace('\n', " ")));
        }
        for (i, manifest) in self.manifests().iter().enumerate() {
            if i > 0 {
                out.push_str("---\n");
            }
            out.push_str(&yaml(manifest));
        }
        out
    }
}

/// A Role or ClusterRole: an aggregated one has its selectors and no rules of its own.
fn role(kind: &str, r: &GeneratedRole) -> Value {
    let mut v =
        json!({"apiVersion": RBAC_API_VERSION, "kind": kind, "metadata": metadata(&r.name, &r.namespace, &r.labels)});
    if r.aggregation_selectors.is_empty() {
        v["rules"] = json!(r.rules.iter().map(rule).collect::<Vec<_>>());
    } else {
        let selectors: Vec<Value> = r.aggregation_selectors.iter().map(|s| json!({"matchLabels": s})).collect();
        v["aggregationRule"] = json!({ "clusterRoleSelectors": selectors });
    }
    v
}

/// A rule with Kubernetes' field names, empty lists left out (`verbs` always written).
fn rule(r: &super::rbac::Rule) -> Value {
    let mut v = json!({ "verbs": r.verbs });
    let lists = [
        ("apiGroups", &r.api_groups),
        ("resources", &r.resources),
        ("resourceNames", &r.resource_names),
        ("nonResourceURLs", &r.non_resource_urls),
    ];
    for (key, items) in lists.into_iter().filter(|(_, items)| !items.is_empty()) {
        v[key] = json!(items);
    }
    v
}

fn binding(kind: &str, b: &GeneratedBinding) -> Value {
    json!({
        "apiVersion": RBAC_API_VERSION,
        "kind": kind,
        "metadata": metadata(&b.name, &b.namespace, &b.labels),
        "roleRef": {"apiGroup": RBAC_API_GROUP, "kind": b.role_kind, "name": b.role_name},
        "subjects": [{"kind": "ServiceAccount", "name": b.service_account, "namespace": b.service_account_namespace}],
    })
}

fn metadata(name: &str, namespace: &Option<String>, labels: &std::collections::BTreeMap<String, String>) -> Value {
    let mut v = json!({ "name": name, "labels": labels });
    if let Some(ns) = namespace {
        v["namespace"] = json!(ns);
    }
    v
}

/// One document as sigs.k8s.io/yaml writes it (keys sorted, as `serde_json` keeps them).
fn yaml(value: &Value) -> String {
    let text = value.to_string();
    let doc = crate::declcfg::read_documents("manifest.json", text.as_bytes()).into_iter().next();
    match doc.and_then(|d| d.ok()).and_then(|d| d.value) {
        Some(node) => crate::declcfg::write::yaml_document(&node),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::install_modes::InstallModeType;
    use super::super::rbac::{preview_rbac, RbacTarget};
    use crate::model::csv::{CrdDescription, CsvView, InstallMode, PolicyRule, StrategyPermissions};

    fn preview(mode: InstallModeType) -> super::RbacPreview {
        let rule = PolicyRule {
            api_groups: vec!["".into()],
            resources: vec!["pods".into()],
            verbs: vec!["*".into()],
            ..PolicyRule::default()
        };
        let perm = StrategyPermissions { service_account_name: "op".into(), rules: vec![rule], rules_null: false };
        let csv = CsvView {
            name: Some("op.v1".into()),
            install_modes: vec![InstallMode { type_: mode.to_string(), supported: true }],
            owned_crds: vec![CrdDescription {
                name: "widgets.example.com".into(),
                version: "v1".into(),
                kind: "Widget".into(),
            }],
            permissions: Some(vec![perm]),
            cluster_permissions: Some(vec![]),
            ..CsvView::default()
        };
        preview_rbac(&csv, "op.v1", &RbacTarget::for_mode(mode, "operators", "og", None).unwrap())
    }

    #[test]
    fn every_object_is_a_kubernetes_manifest() {
        let p = preview(InstallModeType::OwnNamespace);
        let manifests = p.manifests();
        let kinds: Vec<&str> = manifests.iter().map(|m| m["kind"].as_str().unwrap()).collect();
        assert_eq!(kinds[0], "ServiceAccount");
        assert_eq!(kinds.iter().filter(|k| **k == "ClusterRole").count(), 3 + 4, "the group's three, the CRD's four");
        assert_eq!(kinds[kinds.len() - 2..], ["Role", "RoleBinding"]);
        let binding = p.manifests().pop().unwrap();
        assert_eq!(binding["roleRef"]["apiGroup"], "rbac.authorization.k8s.io");
        assert_eq!(binding["subjects"][0]["namespace"], "operators");
        let group = &p.manifests()[1];
        assert!(
            group.get("rules").is_none()
                && group["aggregationRule"]["clusterRoleSelectors"][0]["matchLabels"].is_object()
        );
    }

    #[test]
    fn the_stream_is_yaml_documents_with_kubectls_key_order() {
        let yaml = preview(InstallModeType::OwnNamespace).to_manifest_yaml();
        assert!(
            yaml.starts_with("# op.v1 as OwnNamespace: OperatorGroup og in namespace operators, targeting operators\n"),
            "{yaml}"
        );
        assert!(
            yaml.contains("---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  labels:\n"),
            "{yaml}"
        );
        assert!(yaml.contains("rules:\n- apiGroups:\n  - \"\"\n  resources:\n  - pods\n  verbs:\n  - '*'\n"), "{yaml}");
        assert!(yaml.contains("    olm.managed: \"true\"\n"), "label values stay strings: {yaml}");
        assert_eq!(yaml.matches("\n---\n").count() + 1, preview(InstallModeType::OwnNamespace).manifests().len());
    }
}
