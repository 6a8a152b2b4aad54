//! The APIs a bundle provides and requires, as opm's registry bundle computes them: provided from
//! the CRD manifests (`apiextensions.k8s.io/v1` served versions, `v1beta1` versions plus
//! `spec.version`) and the CSV's owned API services; required from the CSV's required CRDs
//! (group and plural taken from the `plural.group` name) and required API services. Every CRD
//! the CSV owns must be provided by a manifest.

use std::collections::BTreeSet;
use std::fmt;

use super::fields;
use super::manifests::{Manifest, Manifests};
use crate::declcfg::Node;

/// opm's `APIKey`; ordered field by field, as Go's `fmt` sorts map keys.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ApiKey {
    /// API group.
    pub group: String,
    /// API version.
    pub version: String,
    /// Kind.
    pub kind: String,
    /// Plural resource name.
    pub plural: String,
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{} ({})", self.group, self.version, self.kind, self.plural)
    }
}

/// One `DefinitionKey` of the CSV's `customresourcedefinitions` or `apiservicedefinitions`.
struct Definition {
    group: String,
    kind: String,
    name: String,
    version: String,
}

/// `spec.<section>.owned` and `.required` of the CSV (the section key matches exactly, as opm
/// looks it up in a map; the fields inside case-insensitively).
fn definitions(csv: &Node, section: &str) -> Result<(Vec<Definition>, Vec<Definition>), String> {
    let spec = spec_of(csv)?;
    let Some(block) = spec.and_then(|s| s.get(section)).filter(|b| b.value != crate::declcfg::Value::Null) else {
        return Ok((Vec::new(), Vec::new()));
    };
    if block.as_object().is_none() {
        return Err(fields::mismatch(
            block,
            "struct { Owned []*registry.DefinitionKey; Required []*registry.DefinitionKey }",
        ));
    }
    let list = |key: &str| -> Result<Vec<Definition>, String> {
        fields::array(block, key, "[]*registry.DefinitionKey")?.iter().map(definition).collect()
    };
    Ok((list("owned")?, list("required")?))
}

fn definition(node: &Node) -> Result<Definition, String> {
    if node.as_object().is_none() && node.value != crate::declcfg::Value::Null {
        return Err(fields::mismatch(node, "registry.DefinitionKey"));
    }
    Ok(Definition {
        group: fields::string(node, "group")?,
        kind: fields::string(node, "kind")?,
        name: fields::string(node, "name")?,
        version: fields::string(node, "version")?,
    })
}

/// The CSV's `spec` as opm's raw message: an error when missing or not an object.
pub fn spec_of(csv: &Node) -> Result<Option<&Node>, String> {
    match csv.field("spec").map(|m| &m.value) {
        None => Err("unexpected end of JSON input".into()),
        Some(s) if s.value == crate::declcfg::Value::Null => Ok(None),
        Some(s) if s.as_object().is_some() => Ok(Some(s)),
        Some(s) => Err(fields::mismatch(s, "map[string]*json.RawMessage")),
    }
}

/// `plural.group` split at the first dot.
fn plural_group(def: &Definition) -> Result<ApiKey, String> {
    match def.name.split_once('.') {
        Some((plural, group)) => Ok(ApiKey {
            group: group.into(),
            version: def.version.clone(),
            kind: def.kind.clone(),
            plural: plural.into(),
        }),
        None => Err(format!("couldn't parse plural.group from crd name: {}", def.name)),
    }
}

/// The version part of an `apiVersion` (`apiextensions.k8s.io/v1` → `v1`), as
/// `schema.ParseGroupVersion` splits it.
fn api_version_of(node: &Node) -> String {
    let api_version = fields::loose_string(node, "apiVersion");
    match api_version.matches('/').count() {
        0 => api_version,
        1 => api_version.split_once('/').map(|(_, v)| v.to_string()).unwrap_or_default(),
        _ => String::new(),
    }
}

/// The APIs the CRD manifests and the CSV's owned API services provide.
pub fn provided(manifests: &Manifests) -> Result<BTreeSet<ApiKey>, String> {
    let mut out = BTreeSet::new();
    for m in manifests.objects.iter().filter(|m| m.kind == "CustomResourceDefinition") {
        crd_apis(m, &mut out);
    }
    let (owned, _) = definitions(&manifests.csv().node, "apiservicedefinitions")?;
    for d in owned {
        out.insert(ApiKey { group: d.group, version: d.version, kind: d.kind, plural: d.name });
    }
    Ok(out)
}

fn crd_apis(m: &Manifest, out: &mut BTreeSet<ApiKey>) {
    let api_version = api_version_of(&m.node);
    if api_version != "v1" && api_version != "v1beta1" {
        return;
    }
    let spec = fields::get(&m.node, "spec");
    let text =
        |path: &[&str]| spec.and_then(|s| fields::path(s, path)).and_then(Node::as_str).unwrap_or("").to_string();
    let key = |version: String| ApiKey {
        group: text(&["group"]),
        version,
        kind: text(&["names", "kind"]),
        plural: text(&["names", "plural"]),
    };
    let versions = spec.and_then(|s| fields::get(s, "versions")).and_then(Node::as_array).unwrap_or_default();
    for v in versions {
        out.insert(key(fields::loose_string(v, "name")));
    }
    let single = text(&["version"]);
    if api_version == "v1beta1" && !single.is_empty() {
        out.insert(key(single));
    }
}

/// The APIs the CSV requires (CRDs and API services).
pub fn required(csv: &Node) -> Result<BTreeSet<ApiKey>, String> {
    let mut out = BTreeSet::new();
    let (_, crds) = definitions(csv, "customresourcedefinitions")?;
    for d in &crds {
        out.insert(plural_group(d)?);
    }
    let (_, services) = definitions(csv, "apiservicedefinitions")?;
    for d in services {
        out.insert(ApiKey { group: d.group, version: d.version, kind: d.kind, plural: d.name });
    }
    Ok(out)
}

/// Every CRD the CSV owns that no manifest provides, each as opm's message (opm stops at the
/// first, picked at random from a map; here every one is named).
pub fn missing_owned_crds(manifests: &Manifests, provided: &BTreeSet<ApiKey>) -> Result<Vec<String>, String> {
    let (owned, _) = definitions(&manifests.csv().node, "customresourcedefinitions")?;
    let mut missing = BTreeSet::new();
    for d in &owned {
        let key = plural_group(d)?;
        if !provided.contains(&key) {
            missing.insert(key);
        }
    }
    let found: Vec<String> = provided.iter().map(|k| format!("{k}:{{}}")).collect();
    Ok(missing.iter().map(|k| format!("couldn't find {k} in bundle. found: map[{}]", found.join(" "))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::{read_documents, FileInput};

    fn manifests(files: &[(&str, &str)]) -> Manifests {
        let files: Vec<FileInput> = files.iter().map(|(p, c)| FileInput::new(*p, *c)).collect();
        super::super::manifests::read("", &files, &mut Vec::new()).unwrap()
    }

    const CSV: &str = "kind: ClusterServiceVersion\nspec:\n  customresourcedefinitions:\n    owned:\n    \
                       - {name: foos.test.foo, version: v1, kind: Foo}\n    required:\n    \
                       - {name: bars.test.bar, version: v1alpha1, kind: Bar}\n  apiservicedefinitions:\n    owned:\n    \
                       - {group: api.x, version: v1, kind: Baz, name: bazs}\n";

    #[test]
    fn crds_and_owned_api_services_are_provided() {
        let crd_v1 =
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  group: test.foo\n  \
                      names: {kind: Foo, plural: foos}\n  versions: [{name: v1}, {name: v2}]\n";
        let crd_beta =
            "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nspec:\n  group: b.io\n  \
                        names: {kind: B, plural: bs}\n  version: v1beta1\n";
        let m = manifests(&[("manifests/a.yaml", CSV), ("manifests/b.yaml", crd_v1), ("manifests/c.yaml", crd_beta)]);
        let p: Vec<String> = provided(&m).unwrap().iter().map(ToString::to_string).collect();
        assert_eq!(
            p,
            ["api.x/v1/Baz (bazs)", "b.io/v1beta1/B (bs)", "test.foo/v1/Foo (foos)", "test.foo/v2/Foo (foos)"]
        );
        assert!(missing_owned_crds(&m, &provided(&m).unwrap()).unwrap().is_empty());
        let r: Vec<String> = required(&m.csv().node).unwrap().iter().map(ToString::to_string).collect();
        assert_eq!(r, ["test.bar/v1alpha1/Bar (bars)"]);
    }

    #[test]
    fn a_missing_owned_crd_is_named_with_what_was_found() {
        let m = manifests(&[("manifests/a.yaml", CSV)]);
        let missing = missing_owned_crds(&m, &provided(&m).unwrap()).unwrap();
        assert_eq!(missing, ["couldn't find test.foo/v1/Foo (foos) in bundle. found: map[api.x/v1/Baz (bazs):{}]"]);
    }

    #[test]
    fn a_crd_name_without_a_dot_and_a_missing_spec_are_errors() {
        let csv = read_documents(
            "c",
            b"kind: ClusterServiceVersion\nspec:\n  customresourcedefinitions:\n    required: [{name: foos}]\n",
        )
        .remove(0)
        .unwrap()
        .value
        .unwrap();
        assert_eq!(required(&csv).unwrap_err(), "couldn't parse plural.group from crd name: foos");
        let bare = read_documents("c", b"kind: ClusterServiceVersion\n").remove(0).unwrap().value.unwrap();
        assert_eq!(required(&bare).unwrap_err(), "unexpected end of JSON input");
    }
}
