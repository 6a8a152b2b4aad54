//! The `rbac.json` suite: what OLM v0's own code creates for a real CSV of the community catalog
//! under one OperatorGroup (service accounts, the group's and the provided APIs' ClusterRoles,
//! Roles, ClusterRoles and bindings with their generated names, labels, rules and subjects, and
//! the Roles lifted to ClusterRoles), compared field by field with `preview_rbac`.
//!
//! OLM's lists come from a cluster's listers, so each list is compared in (namespace, name)
//! order; the rules inside an object keep their order. A rule without verbs (a nil list, which
//! OLM's objects carry as `null`) is `verbs: []` in the preview. `expect.olm.errors` holds OLM's
//! errors by step: a permission check's must be the preview's `permission_check_error`; the
//! install plan's "already exists" (a permission listed twice) is the harness creating what OLM's
//! step creates or updates, and makes no difference.

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
    same("errors", &json!(preview.permission_check_error), &permission_check_error(&olm["errors"])?)?;
    let got = olm_shape(&preview);
    for (field, want) in olm.as_object().into_iter().flatten().filter(|(k, _)| *k != "errors") {
        same(field, &sorted(&got[field.as_str()]), &sorted(&with_verbs(want)))?;
    }
    Ok(())
}

/// The permission check's error among OLM's errors by step (`null` when none).
fn permission_check_error(errors: &Value) -> Result<Value, String> {
    let mut found = Value::Null;
    for (step, message) in errors.as_object().into_iter().flatten() {
        match step.as_str() {
            "ensureCSVsInNamespaces" | "ensureRBACInTargetNamespace" => found = message.clone(),
            s if s.starts_with("create") && message.as_str().is_some_and(|m| m.ends_with("already exists")) => {}
            _ => return Err(format!("OLM's step {step} failed ({message}); the preview has no such outcome")),
        }
    }
    Ok(found)
}

/// `value` with every rule lacking `verbs` given an empty list.
fn with_verbs(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(with_verbs).collect()),
        Value::Object(members) => {
            let mut out: serde_json::Map<String, Value> =
                members.iter().map(|(k, v)| (k.clone(), with_verbs(v))).collect();
            if let Some(Value::Array(rules)) = out.get_mut("rules") {
                for rule in rules.iter_mut().filter_map(Value::as_object_mut) {
                    rule.entry("verbs").or_insert_with(|| json!([]));
                }
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

/// The preview the case asks for: the bundle's CSV from its package's catalog directory (or
/// `input.csv`, a CSV manifest, in our own cases), under the group the case names.
fn preview_case(input: &Value) -> Result<RbacPreview, String> {
    let text = |k: &str| input[k].as_str().unwrap_or("").to_string();
    let target = target(input)?;
    if input["csv"].is_object() {
        let json = input["csv"].to_string();
        let doc = olm_catalog::declcfg::read_documents("csv.json", json.as_bytes()).into_iter().next();
        let node = doc.and_then(|d| d.ok()).and_then(|d| d.value).ok_or("input.csv does not read")?;
        return Ok(preview_rbac(&CsvView::from_manifest(&node), "", &target));
    }
    let shared = super::conformance_dir().join("..");
    let files = olm_catalog::declcfg::read_catalog(&shared.join(Path::new(&text("catalog"))))
        .map_err(|e| format!("cannot read {}: {e}", text("catalog")))?;
    let (model, _) = olm_catalog::model::build(&olm_catalog::declcfg::load_files(&files).config);
    let bundle = model
        .package(&text("package"))
        .and_then(|p| p.bundles.iter().find(|b| b.name.value == text("bundle")))
        .ok_or_else(|| format!("no bundle {} in {}", text("bundle"), text("catalog")))?;
    let csv = CsvView::from_bundle(bundle).ok_or("the bundle has no CSV")?;
    Ok(preview_rbac(&csv, &bundle.name.value, &target))
}

/// The group of `input`: `targetNamespaces` [] means all namespaces.
fn target(input: &Value) -> Result<RbacTarget, String> {
    let text = |k: &str| input[k].as_str().unwrap_or("").to_string();
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
    RbacTarget::for_mode(mode, &text("namespace"), &text("operatorGroup"), Some(targets))
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
