//! The preflight's three validators on one (old, new) CRD pair, as crdify's runner runs them:
//! CRD-wide checks (`scope`, `storedVersionRemoval`, `existingFieldRemoval`), the property checks
//! between each version and the same version of the new CRD, and between the new CRD's served
//! versions (each lower version against each higher one, skipped when the new CRD converts
//! through a webhook), leaving out what the old CRD's served versions already had. Findings come
//! out in the canonical order of the preflight's lines (`super::Finding::order`).

use std::collections::{BTreeMap, BTreeSet};

use super::crd::{Crd, CrdVersion, SchemaSource};
use super::flatten::{flatten, Flat};
use super::kube_version::compare_kube_versions;
use super::rules::{property_checks, Check};
use super::schema::Schema;
use super::schema::{Reader, SchemaError};
use super::unhandled;
use super::walk::{compare_schemas, Diff, PropertyFinding, WalkError};
use super::{Finding, Scope};
use crate::gotext::{quote, string_slice};

/// The most versions a CRD may have to be compared (served versions are compared pairwise).
pub const MAX_VERSIONS: usize = 64;

/// Every refusal of the preflight for `old` → `new`; `stored` are the old CRD's stored versions.
pub(crate) fn compare(old: &Crd, new: &Crd, stored: &[String]) -> Result<Vec<Finding>, SchemaError> {
    for crd in [old, new] {
        if crd.versions.len() > MAX_VERSIONS {
            let message = format!("{} versions: more than {MAX_VERSIONS} are not compared", crd.versions.len());
            return Err(SchemaError { path: "spec.versions".into(), message });
        }
    }
    let mut out = crd_wide(old, new, stored);
    let same_schemas = old.versions.len() == new.versions.len()
        && old
            .versions
            .iter()
            .zip(&new.versions)
            .all(|(a, b)| (&a.name, a.served, a.storage) == (&b.name, b.served, b.storage) && same_schema(a, b));
    if same_schemas && old.conversion_strategy == new.conversion_strategy {
        // No property changed, and the served versions' issues are the old ones.
        return Ok(out);
    }
    for (i, v) in old.versions.iter().enumerate() {
        let Some((j, nv)) = new.versions.iter().enumerate().find(|(_, n)| n.name == v.name) else { continue };
        let diff = compare_versions(v, nv)?;
        for field in &diff.removed {
            let message = format!("removed field : {}.{field}", nv.name);
            out.push(Finding::new(Check::ExistingFieldRemoval, Scope::Crd, String::new(), message.clone(), message, j));
        }
        for (property, check, message, key) in diff.findings {
            out.push(Finding::new(check, Scope::Version(v.name.clone()), property, message, key, i));
        }
    }
    out.extend(served(old, new)?);
    out.sort_by(|a, b| a.order().cmp(&b.order()));
    Ok(out)
}

fn same_schema(a: &CrdVersion, b: &CrdVersion) -> bool {
    match (&a.schema, &b.schema) {
        (Some(x), Some(y)) => x.sub().same(y.sub()),
        (x, y) => x.is_none() && y.is_none(),
    }
}

/// `scope` and `storedVersionRemoval`.
fn crd_wide(old: &Crd, new: &Crd, stored: &[String]) -> Vec<Finding> {
    let mut out = Vec::new();
    let crd = |check, message: String| {
        let key = message.clone();
        Finding::new(check, Scope::Crd, String::new(), message, key, 0)
    };
    if old.scope != new.scope {
        out.push(crd(Check::Scope, format!("scope changed : {} -> {}", quote(&old.scope), quote(&new.scope))));
    }
    let removed: Vec<&str> = stored.iter().filter(|s| new.version(s).is_none()).map(String::as_str).collect();
    if !removed.is_empty() {
        out.push(crd(Check::StoredVersionRemoval, format!("stored versions removed : {}", string_slice(&removed))));
    }
    out
}

/// Two versions' schemas compared: walked side by side, or flattened when the walk cannot tell
/// paths apart.
fn compare_versions(a: &CrdVersion, b: &CrdVersion) -> Result<Diff, SchemaError> {
    match compare_schemas(a.schema.as_ref().map(SchemaSource::sub), b.schema.as_ref().map(SchemaSource::sub)) {
        Ok(diff) => Ok(diff),
        Err(WalkError::Schema(e)) => Err(e),
        Err(WalkError::Ambiguous) => {
            let read = |v: &CrdVersion| v.schema.as_ref().map(|n| Reader::new("^").schema(&n.tree())).transpose();
            let (x, y) = (read(a)?, read(b)?);
            let (before, after) = (flatten(x.as_ref()), flatten(y.as_ref()));
            let mut removed: Vec<String> = before.keys().filter(|k| !after.contains_key(*k)).cloned().collect();
            removed.sort();
            Ok(Diff { findings: compare_flat(&before, &after), removed })
        }
    }
}

/// crdify's `CompareVersions` over flattened schemas: each property of `before` against the same
/// path in `after` (an empty schema when gone), children dropped; the property checks, then
/// `unhandled`.
fn compare_flat(before: &Flat, after: &Flat) -> Vec<PropertyFinding> {
    let empty = Schema::default();
    let mut out = Vec::new();
    for (path, old) in before {
        let new = after.get(path).copied();
        let (old, new) = (without_children(old), new.map(without_children));
        if new.as_ref().is_some_and(|n| unhandled::same_without_children(&old, n)) {
            continue;
        }
        let new = new.unwrap_or_else(|| empty.clone());
        for (check, message) in property_checks(&old, &new) {
            out.push((path.clone(), check, message.clone(), message));
        }
        if let Some((message, key)) = unhandled::unhandled(&old, &new) {
            out.push((path.clone(), Check::Unhandled, message, key));
        }
    }
    out
}

fn without_children(s: &Schema) -> Schema {
    Schema { properties: Vec::new(), items: None, ..s.clone() }
}

/// The served-version validator: the new CRD's served version pairs, minus the refusals the old
/// CRD's pairs already had (same pair, property, check and message).
fn served(old: &Crd, new: &Crd) -> Result<Vec<Finding>, SchemaError> {
    if new.conversion_strategy == "Webhook" {
        return Ok(Vec::new());
    }
    let known: BTreeSet<(String, String, Check, String)> = version_pairs(old)?
        .into_iter()
        .flat_map(|(pair, findings)| findings.into_iter().map(move |(p, c, _, k)| (pair.clone(), p, c, k)))
        .collect();
    let mut out = Vec::new();
    for (pair, findings) in version_pairs(new)? {
        for (property, check, message, key) in findings {
            if !known.contains(&(pair.clone(), property.clone(), check, key.clone())) {
                out.push(Finding::new(check, Scope::Served(pair.clone()), property, message, key, 0));
            }
        }
    }
    Ok(out)
}

fn version_pairs(crd: &Crd) -> Result<BTreeMap<String, Vec<PropertyFinding>>, SchemaError> {
    let mut served: Vec<&CrdVersion> = crd.versions.iter().filter(|v| v.served).collect();
    served.sort_by(|a, b| compare_kube_versions(&a.name, &b.name));
    let mut out = BTreeMap::new();
    for (i, low) in served.iter().enumerate() {
        for high in &served[i + 1..] {
            out.insert(format!("{} -> {}", low.name, high.name), compare_versions(low, high)?.findings);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use crate::crd_safety::{preflight, read_crd, Crd};
    use crate::declcfg::read_documents;

    /// A CRD `a.example.com` with the given `scope` and `versions` (YAML flow list items).
    fn crd(scope: &str, versions: &str) -> Crd {
        let yaml = format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: a.example.com}}\n\
             spec:\n  scope: {scope}\n  versions: {versions}\n"
        );
        read_crd(&read_documents("crd.yaml", yaml.as_bytes()).remove(0).unwrap().value.unwrap()).unwrap()
    }

    /// A served storage version `v1` with this schema.
    fn v1(schema: &str) -> Crd {
        crd(
            "Namespaced",
            &format!("[{{name: v1, served: true, storage: true, schema: {{openAPIV3Schema: {schema}}}}}]"),
        )
    }

    fn error(old: &Crd, new: &Crd) -> Option<String> {
        preflight(old, new, None).unwrap().error_text()
    }

    #[test]
    fn an_unchanged_crd_and_a_description_change_are_safe() {
        let old = v1("{type: object, description: a, properties: {spec: {type: string}}}");
        assert_eq!(error(&old, &old), None);
        assert_eq!(error(&old, &v1("{type: object, description: b, properties: {spec: {type: string}}}")), None);
    }

    #[test]
    fn a_scope_change_is_refused() {
        let old = crd("Namespaced", "[{name: v1, served: true, storage: true}]");
        let new = crd("Cluster", "[{name: v1, served: true, storage: true}]");
        let want = r#"validating upgrade for CRD "a.example.com": scope: scope changed : "Namespaced" -> "Cluster""#;
        assert_eq!(error(&old, &new).as_deref(), Some(want));
    }

    #[test]
    fn a_stored_version_removed_is_refused_and_a_new_version_allowed() {
        let old = crd("Namespaced", "[{name: v1alpha1, served: true, storage: true}]");
        let new = crd("Namespaced", "[{name: v1, served: true, storage: true}]");
        let want =
            r#"validating upgrade for CRD "a.example.com": storedVersionRemoval: stored versions removed : [v1alpha1]"#;
        assert_eq!(error(&old, &new).as_deref(), Some(want));
        let both = crd(
            "Namespaced",
            "[{name: v1alpha1, served: true, storage: false}, {name: v1, served: true, storage: true}]",
        );
        assert_eq!(error(&old, &both), None);
        assert!(preflight(&old, &new, Some(&[])).unwrap().safe(), "nothing stored: nothing lost");
    }

    #[test]
    fn a_removed_field_is_refused_with_its_type_now_empty() {
        let old = v1("{type: object, properties: {a: {type: string}, b: {type: string}}}");
        let new = v1("{type: object, properties: {b: {type: string}}}");
        let want = "validating upgrade for CRD \"a.example.com\": existingFieldRemoval: removed field : v1.^.a\n\
                    v1: ^.a: type: type changed : \"string\" -> \"\"";
        assert_eq!(error(&old, &new).as_deref(), Some(want));
    }

    #[test]
    fn a_new_optional_field_is_allowed_and_a_new_required_one_refused() {
        let old = v1("{type: object, properties: {a: {type: string}}}");
        assert_eq!(error(&old, &v1("{type: object, properties: {a: {type: string}, b: {type: string}}}")), None);
        let new = v1("{type: object, required: [b], properties: {a: {type: string}, b: {type: string}}}");
        let want = r#"validating upgrade for CRD "a.example.com": v1: ^: required: new required fields: [b]"#;
        assert_eq!(error(&old, &new).as_deref(), Some(want));
    }

    #[test]
    fn an_unclassified_change_fails_closed_with_its_details() {
        let old = v1("{type: object, properties: {a: {type: array, items: {type: string}}}}");
        let new =
            v1("{type: object, properties: {a: {type: array, x-kubernetes-list-type: atomic, items: {type: string}}}}");
        let want = "validating upgrade for CRD \"a.example.com\": v1: ^.a: unhandled: unhandled changes found (XListType nil -> &\"atomic\")";
        assert_eq!(error(&old, &new).as_deref(), Some(want));
    }

    #[test]
    fn served_versions_are_compared_unless_a_webhook_converts() {
        let versions = "[{name: v1alpha1, served: true, storage: false, schema: {openAPIV3Schema: {type: object, properties: {a: {type: string}}}}}, \
                        {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, properties: {a: {type: integer}}}}}]";
        let old = crd("Namespaced", "[{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, properties: {a: {type: integer}}}}}]");
        let new = crd("Namespaced", versions);
        let want = "validating upgrade for CRD \"a.example.com\": v1alpha1 -> v1: ^.a: type: type changed : \"string\" -> \"integer\"";
        assert_eq!(error(&old, &new).as_deref(), Some(want));
        let mut webhook = new.clone();
        webhook.conversion_strategy = "Webhook".into();
        assert_eq!(error(&old, &webhook), None);
    }

    #[test]
    fn an_issue_the_old_crd_already_had_between_served_versions_is_not_reported_again() {
        let versions = "[{name: v1alpha1, served: true, storage: false, schema: {openAPIV3Schema: {type: object, properties: {a: {type: string}}}}}, \
                        {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, properties: {a: {type: integer}}}}}]";
        let old = crd("Namespaced", versions);
        assert_eq!(error(&old, &crd("Namespaced", versions)), None);
    }

    #[test]
    fn lines_come_out_in_canonical_order() {
        let old = v1("{type: object, properties: {b: {type: string}, a: {type: string}}}");
        let new = v1(
            "{type: object, properties: {b: {type: string, pattern: x, minLength: 1}, a: {type: string, enum: [x]}}}",
        );
        let got = preflight(&old, &new, None).unwrap();
        let lines: Vec<String> = got.findings.iter().map(|f| f.line()).collect();
        assert_eq!(
            lines,
            [
                r#"v1: ^.a: enum: enum constraint added when there was none previously : ["x"]"#,
                "v1: ^.b: minLength: minimum constraint added when there was none previously : 1",
                r#"v1: ^.b: pattern: pattern added : "" -> "x""#,
            ]
        );
    }

    #[test]
    fn a_huge_enum_losing_one_value_is_found_quickly() {
        let values: Vec<String> = (0..100_000).map(|i| format!("v{i}")).collect();
        let fewer = &values[1..];
        let old = v1(&format!("{{type: object, properties: {{a: {{type: string, enum: [{}]}}}}}}", values.join(", ")));
        let new = v1(&format!("{{type: object, properties: {{a: {{type: string, enum: [{}]}}}}}}", fewer.join(", ")));
        let start = std::time::Instant::now();
        let text = error(&old, &new).unwrap();
        assert!(text.ends_with("v1: ^.a: enum: allowed enum values removed : [\"v0\"]"), "{text}");
        assert!(start.elapsed().as_secs() < 5);
    }

    #[test]
    fn a_one_of_added_is_unhandled_and_fails_closed() {
        let old = v1("{type: object, properties: {a: {type: object}}}");
        let new = v1("{type: object, properties: {a: {type: object, oneOf: [{required: [p]}, {required: [q]}]}}}");
        let text = error(&old, &new).unwrap();
        assert!(text.contains("v1: ^.a: unhandled: unhandled changes found"), "{text}");
    }

    #[test]
    fn a_crd_with_too_many_versions_cannot_be_compared() {
        let many: Vec<String> = (0..65).map(|i| format!("{{name: v{i}, served: true, storage: {}}}", i == 0)).collect();
        let old = crd("Namespaced", &format!("[{}]", many.join(", ")));
        let err = preflight(&old, &old, None).unwrap_err();
        assert_eq!(err.to_string(), "cannot read the CRD: spec.versions: 65 versions: more than 64 are not compared");
    }
}
