//! A CustomResourceDefinition as the preflight reads it: name, scope, versions with their
//! schemas, conversion strategy and stored versions, decoded from a manifest's value tree.
//! Only `apiextensions.k8s.io/v1` CRDs are read (what OLM v1 applies); anything else is a
//! [`CrdError`] the caller reports as a CRD that cannot be compared.

use std::fmt;

use super::schema::SchemaError;
use crate::declcfg::{Node, Value};

/// The API version of the CRDs compared.
pub const CRD_API_VERSION: &str = "apiextensions.k8s.io/v1";

/// One CRD.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Crd {
    /// `metadata.name`.
    pub name: String,
    /// `spec.scope` (`Namespaced` or `Cluster`).
    pub scope: String,
    /// `spec.versions`, in order.
    pub versions: Vec<CrdVersion>,
    /// `spec.conversion.strategy` (`None`, `Webhook`, or empty).
    pub conversion_strategy: String,
    /// `status.storedVersions`.
    pub stored_versions: Vec<String>,
}

/// One of `spec.versions`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CrdVersion {
    /// `name`.
    pub name: String,
    /// `served`.
    pub served: bool,
    /// `storage`.
    pub storage: bool,
    /// `schema.openAPIV3Schema` as written (`None` when the version has none): read as
    /// `JSONSchemaProps` only where it differs from what it is compared with.
    pub schema: Option<Node>,
}

impl Crd {
    /// The version objects are stored in (the first with `storage: true`).
    pub fn storage_version(&self) -> Option<&str> {
        self.versions.iter().find(|v| v.storage).map(|v| v.name.as_str())
    }

    /// The version named `name`.
    pub fn version(&self, name: &str) -> Option<&CrdVersion> {
        self.versions.iter().find(|v| v.name == name)
    }
}

/// Why a manifest is not a CRD that can be compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CrdError {
    /// The manifest is not a `CustomResourceDefinition`.
    NotACrd,
    /// A CRD of another API version (`apiextensions.k8s.io/v1beta1`).
    ApiVersion(String),
    /// A field of the wrong type, or a schema beyond the reading budget.
    Schema(SchemaError),
}

impl fmt::Display for CrdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CrdError::NotACrd => write!(f, "not a CustomResourceDefinition"),
            CrdError::ApiVersion(v) => {
                write!(f, "apiVersion {v:?}: only {CRD_API_VERSION} CustomResourceDefinitions are compared")
            }
            CrdError::Schema(e) => write!(f, "cannot read the CRD: {e}"),
        }
    }
}

impl std::error::Error for CrdError {}

/// Whether a manifest is a `CustomResourceDefinition` (of any API version).
pub fn is_crd(manifest: &Node) -> bool {
    manifest.get("kind").and_then(Node::as_str) == Some("CustomResourceDefinition")
}

/// The name of a CRD manifest (`metadata.name`), whatever its API version.
pub fn crd_name(manifest: &Node) -> Option<&str> {
    manifest.get("metadata")?.get("name")?.as_str()
}

/// Read a CRD manifest.
pub fn read_crd(manifest: &Node) -> Result<Crd, CrdError> {
    into_crd(manifest.clone())
}

/// Read a CRD manifest, its versions' schemas moved out of it.
pub fn into_crd(mut manifest: Node) -> Result<Crd, CrdError> {
    if !is_crd(&manifest) {
        return Err(CrdError::NotACrd);
    }
    let api_version = manifest.get("apiVersion").and_then(Node::as_str).unwrap_or("");
    if api_version != CRD_API_VERSION {
        return Err(CrdError::ApiVersion(api_version.to_string()));
    }
    let text = |n: Option<&Node>| n.and_then(Node::as_str).unwrap_or("").to_string();
    let spec = field(Some(&manifest), "spec");
    let mut crd = Crd {
        name: text(field(field(Some(&manifest), "metadata"), "name")),
        scope: text(field(spec, "scope")),
        conversion_strategy: text(field(field(spec, "conversion"), "strategy")),
        stored_versions: strings(field(field(Some(&manifest), "status"), "storedVersions")),
        versions: Vec::new(),
    };
    let versions = field_mut(field_mut(Some(&mut manifest), "spec"), "versions");
    let Some(Value::Array(versions)) = versions.map(|n| &mut n.value) else { return Ok(crd) };
    for v in versions {
        let (name, served, storage) = (
            text(field(Some(v), "name")),
            matches!(field(Some(v), "served").map(|n| &n.value), Some(Value::Bool(true))),
            matches!(field(Some(v), "storage").map(|n| &n.value), Some(Value::Bool(true))),
        );
        let schema = field_mut(field_mut(Some(v), "schema"), "openAPIV3Schema")
            .map(|n| std::mem::replace(n, Node::new(Default::default(), Value::Null)))
            .filter(|n| !matches!(n.value, Value::Null));
        crd.versions.push(CrdVersion { name, served, storage, schema });
    }
    Ok(crd)
}

fn field_mut<'a>(n: Option<&'a mut Node>, name: &str) -> Option<&'a mut Node> {
    let n = n?;
    let Value::Object(members) = &mut n.value else { return None };
    let i = crate::declcfg::value::field_index(members, name)?;
    Some(&mut members[i].value)
}

fn field<'a>(n: Option<&'a Node>, name: &str) -> Option<&'a Node> {
    n.and_then(|n| n.field(name)).map(|m| &m.value)
}

fn strings(node: Option<&Node>) -> Vec<String> {
    node.and_then(Node::as_array)
        .map(|a| a.iter().filter_map(Node::as_str).map(str::to_string).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::read_documents;

    fn manifest(yaml: &str) -> Node {
        read_documents("crd.yaml", yaml.as_bytes()).remove(0).unwrap().value.unwrap()
    }

    #[test]
    fn a_v1_crd_gives_its_versions_schemas_and_storage() {
        let crd = read_crd(&manifest(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.example.com}\n\
             spec:\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    \
             schema: {openAPIV3Schema: {type: object, properties: {spec: {type: string}}}}\n",
        ))
        .unwrap();
        assert_eq!(crd.name, "a.example.com");
        assert_eq!(crd.storage_version(), Some("v1"));
        let schema = crd.versions[0].schema.as_ref().unwrap();
        assert_eq!(
            schema.get("properties").and_then(|p| p.get("spec")).and_then(|s| s.get("type")).and_then(Node::as_str),
            Some("string")
        );
    }

    #[test]
    fn a_v1beta1_crd_is_not_compared() {
        let err = read_crd(&manifest("apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\n"));
        assert_eq!(err, Err(CrdError::ApiVersion("apiextensions.k8s.io/v1beta1".into())));
    }
}
