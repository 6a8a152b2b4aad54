//! `olm-catalog rbac --format yaml`: the objects OLM creates as Kubernetes manifests, one YAML
//! document each, with the names and labels OLM's own code gives them (checked here on a real
//! bundle of the shared community catalog against values OLM's code produced for it).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use olm_catalog::declcfg::{read_documents, Node};

fn catalog(package: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc/community-v4.16").join(package)
}

fn rbac(args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_olm-catalog"));
    cmd.arg("rbac").args(args).arg(catalog("ecr-secret-operator"));
    cmd.output().unwrap()
}

fn field<'a>(node: &'a Node, path: &[&str]) -> Option<&'a str> {
    let mut n = node;
    for key in path {
        n = &n.field(key)?.value;
    }
    n.as_str()
}

/// The documents of a YAML stream as (kind, namespace, name) and the nodes.
fn documents(text: &str) -> Vec<Node> {
    read_documents("rbac.yaml", text.as_bytes()).into_iter().map(|d| d.unwrap().value.unwrap()).collect()
}

#[test]
fn yaml_is_a_stream_of_manifests_named_as_olm_names_them() {
    let out = rbac(&["--package", "ecr-secret-operator", "--format", "yaml", "--install-mode", "AllNamespaces"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("# ecr-secret-operator.v0.5.0 as AllNamespaces: OperatorGroup operator-group in namespace operators, targeting all namespaces\n"), "{text}");
    let docs = documents(&text);
    for d in &docs {
        assert!(field(d, &["apiVersion"]).is_some() && field(d, &["metadata", "name"]).is_some(), "{d:?}");
    }
    let kinds: Vec<&str> = docs.iter().map(|d| field(d, &["kind"]).unwrap()).collect();
    assert_eq!(kinds[0], "ServiceAccount");
    assert_eq!(field(&docs[0], &["metadata", "name"]), Some("ecr-secret-operator-controller-manager"));
    // OLM's code, run offline on this CSV under an AllNamespaces group "operator-group" in
    // "operators", makes the Role, lifts it to a ClusterRole of the same name, and names the
    // ClusterRole of its clusterPermissions; labels carry the hashes of the rules and bindings.
    let role = "ecr-secret-operator.v0.5-1e5S4DonNXkwmbiXKHmqMtZvRqxEwLmOdUhy8j";
    let cluster_role = "ecr-secret-operator.v0.5-815nX2lX9eGtZ0xJDqSm5KqkigKkAzn06YxMv0";
    let named = |kind: &str, name: &str| {
        docs.iter()
            .find(|d| field(d, &["kind"]) == Some(kind) && field(d, &["metadata", "name"]) == Some(name))
            .unwrap_or_else(|| panic!("no {kind} {name} in {text}"))
    };
    let hash = |d: &Node| field(d, &["metadata", "labels", "olm.permissions.hash"]).map(str::to_string);
    assert_eq!(hash(named("Role", role)).as_deref(), Some("jFynzryran0Td5CUgJ3rwrkK6ZdYd35f5iILp"));
    assert_eq!(hash(named("ClusterRole", role)), hash(named("Role", role)), "the lifted role keeps its labels");
    assert_eq!(hash(named("ClusterRole", cluster_role)).as_deref(), Some("2db5OuSh4ewu1VH9GhgoXjorU6CyaZduwQwDLL"));
    let binding = named("ClusterRoleBinding", cluster_role);
    assert_eq!(hash(binding).as_deref(), Some("6IH04EEMMNCiiiaC5VHtIOuhEj8MHpCCGVANhZ"));
    assert_eq!(field(binding, &["roleRef", "apiGroup"]), Some("rbac.authorization.k8s.io"));
    assert_eq!(field(binding, &["roleRef", "name"]), Some(cluster_role));
    assert!(text.contains("\nsubjects:\n- kind: ServiceAccount\n  name: ecr-secret-operator-controller-manager\n  namespace: operators\n"), "{text}");
    let group = named(
        "ClusterRole",
        docs.iter()
            .filter_map(|d| field(d, &["metadata", "name"]))
            .find(|n| n.starts_with("olm.og.operator-group.admin-"))
            .unwrap(),
    );
    assert!(group.field("aggregationRule").is_some() && group.field("rules").is_none());
}

#[test]
fn yaml_copies_roles_into_each_target_namespace() {
    let out = rbac(&[
        "--package",
        "ecr-secret-operator",
        "--format",
        "yaml",
        "--install-mode",
        "MultiNamespace",
        "--target-namespaces",
        "team-a,team-b",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let docs = documents(&String::from_utf8(out.stdout).unwrap());
    let roles: Vec<(&str, &str)> = docs
        .iter()
        .filter(|d| field(d, &["kind"]) == Some("Role"))
        .map(|d| {
            (
                field(d, &["metadata", "namespace"]).unwrap(),
                field(d, &["metadata", "labels", "olm.copiedFrom"]).unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(roles, [("operators", ""), ("team-a", "operators"), ("team-b", "operators")]);
}

#[test]
fn yaml_for_several_modes_is_a_usage_error() {
    let out = rbac(&["--package", "ecr-secret-operator", "--format", "yaml"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "olm-catalog: --format yaml: manifests are for one install mode and the CSV supports OwnNamespace, SingleNamespace, MultiNamespace, AllNamespaces: name one\n"
    );
    assert!(out.stdout.is_empty());
}
