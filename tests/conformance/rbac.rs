//! The `rbac.json` suite: what OLM v0's own code creates for a real CSV of the community catalog
//! under one OperatorGroup (service accounts, the group's and the provided APIs' ClusterRoles,
//! Roles, ClusterRoles and bindings with their generated names, labels, rules and subjects, and
//! the Roles lifted to ClusterRoles), compared field by field with `preview_rbac`.
//!
//! OLM's lists come from a cluster's listers, so each list is compared in (namespace, name)
//! order; the rules inside an object keep their order.

use std::path::Path;

use olm_catalog::model::csv::CsvView;
use olm_catalog::operatorgroup::rbac::{preview_rbac, GeneratedBinding, GeneratedRole, RbacPreview, RbacTarget};
use olm_catalog::operatorgroup::InstallModeType;
use serde_json::{json, Value};

/// Run one case.
pub fn run(case: &Value) -> Result<(), String> {
    let input = &case["input"];
    let expect = &case["expect"];
    let preview = preview_case(input)?;
    same("csvName", &json!(preview.csv_name), &expect["csvName"])?;
    same("modeSupported", &json!(preview.unsupported.is_none()), &expect["modeSupported"])?;
    let olm = &expect["olm"];
    if olm["errors"].as_object().is_some_and(|e| !e.is_empty()) {
        return Err(format!("OLM's code failed ({}); the preview has no such outcome", olm["errors"]));
    }
    let got = olm_shape(&preview);
    for (field, want) in olm.as_object().into_iter().flatten().filter(|(k, _)| *k != "errors") {
        same(field, &sorted(&got[field.as_str()]), &sorted(want))?;
    }
    Ok(())
}

/// The preview the case asks for: the bundle's CSV from its package's catalog directory, under
/// the group the case names.
fn preview_case(input: &Value) -> Result<RbacPreview, String> {
    let text = |k: &str| input[k].as_str().unwrap_or("").to_string();
    let shared = super::conformance_dir().join("..");
    let files = olm_catalog::declcfg::read_catalog(&shared.join(Path::new(&text("catalog"))))
        .map_err(|e| format!("cannot read {}: {e}", text("catalog")))?;
    let (model, _) = olm_catalog::model::build(&olm_catalog::declcfg::load_files(&files).config);
    let bundle = model
        .package(&text("package"))
        .and_then(|p| p.bundles.iter().find(|b| b.name.value == text("bundle")))
        .ok_or_else(|| format!("no bundle {} in {}", text("bundle"), text("catalog")))?;
    let csv = CsvView::from_bundle(bundle).ok_or("the bundle has no CSV")?;
    let mode = InstallModeType::ALL
        .into_iter()
        .find(|m| m.to_string() == text("installMode"))
        .ok_or_else(|| format!("install mode {:?} is unknown", text("installMode")))?;
    let mut targets: Vec<String> = input["targetNamespaces"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t.as_str().map(str::to_string))
        .collect();
    if targets.is_empty() {
        targets.push(String::new());
    }
    let target = RbacTarget::for_mode(mode, &text("namespace"), &text("operatorGroup"), Some(targets))?;
    Ok(preview_rbac(&csv, &bundle.name.value, &target))
}

/// The preview in the suite's shape.
fn olm_shape(p: &RbacPreview) -> Value {
    let roles = |rs: &[GeneratedRole]| -> Value { rs.iter().map(role).collect() };
    let bindings = |bs: &[GeneratedBinding]| -> Value { bs.iter().map(binding).collect() };
    let lifted: Vec<&str> = p.cluster_roles.iter().filter(|r| r.lifted).map(|r| r.name.as_str()).collect();
    json!({
        "serviceAccounts": p.service_accounts,
        "groupClusterRoles": roles(&p.group_cluster_roles),
        "apiClusterRoles": roles(&p.api_cluster_roles),
        "roles": roles(&p.roles),
        "roleBindings": bindings(&p.role_bindings),
        "clusterRoles": roles(&p.cluster_roles),
        "clusterRoleBindings": bindings(&p.cluster_role_bindings),
        "liftedClusterRoles": lifted,
    })
}

fn role(r: &GeneratedRole) -> Value {
    let mut v = json!({ "name": r.name, "labels": r.labels, "rules": r.rules });
    if let Some(ns) = &r.namespace {
        v["namespace"] = json!(ns);
    }
    if !r.aggregation_selectors.is_empty() {
        v["aggregationSelectors"] = json!(r.aggregation_selectors);
    }
    v
}

fn binding(b: &GeneratedBinding) -> Value {
    json!({
        "name": b.name,
        "namespace": b.namespace.clone().unwrap_or_default(),
        "labels": b.labels,
        "roleRef": { "kind": b.role_kind, "name": b.role_name },
        "subjects": [{ "kind": "ServiceAccount", "name": b.service_account, "namespace": b.service_account_namespace }],
    })
}

/// A list in (namespace, name) order (strings by themselves); anything else as it is.
fn sorted(v: &Value) -> Value {
    let Some(items) = v.as_array() else { return v.clone() };
    let key = |x: &Value| match x {
        Value::String(s) => (String::new(), s.clone()),
        _ => (x["namespace"].as_str().unwrap_or("").to_string(), x["name"].as_str().unwrap_or("").to_string()),
    };
    let mut items = items.clone();
    items.sort_by_key(key);
    Value::Array(items)
}

fn same(field: &str, got: &Value, want: &Value) -> Result<(), String> {
    if got == want {
        return Ok(());
    }
    let (g, w) = (got.as_array(), want.as_array());
    if let (Some(g), Some(w)) = (g, w) {
        for (i, (a, b)) in g.iter().zip(w).enumerate() {
            if a != b {
                return Err(format!("{field}[{i}]: got {a}, want {b}"));
            }
        }
        return Err(format!("{field}: got {} items, want {}", g.len(), w.len()));
    }
    Err(format!("{field}: got {got}, want {want}"))
}
