//! A CustomResourceDefinition as the preflight reads it: name, scope, versions with their
//! schemas, conversion strategy and stored versions, decoded from a manifest's value tree.
//! Only `apiextensions.k8s.io/v1` CRDs are read (what OLM v1 applies); anything else is a
//! [`CrdError`] the caller reports as a CRD that cannot be compared.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use super::raw::{is_one_json_object, opens_an_object, tree, JsonText, Raw, Shell};
use super::schema::SchemaError;
use super::walk::Sub;
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
    pub schema: Option<SchemaSource>,
}

/// A version's schema as written.
#[derive(Debug, Clone, PartialEq)]
pub enum SchemaSource {
    /// A value tree (a CRD read from a manifest's tree: a file, a bundle directory).
    Tree(Node),
    /// JSON text (a CRD embedded in a catalog): only the parts that differ from what it is
    /// compared with are read into trees.
    Text(Arc<JsonText>),
}

impl SchemaSource {
    /// The schema as a tree.
    pub fn tree(&self) -> Cow<'_, Node> {
        match self {
            SchemaSource::Tree(n) => Cow::Borrowed(n),
            SchemaSource::Text(t) => Cow::Owned(tree(t.as_str())),
        }
    }

    pub(crate) fn sub(&self) -> Sub<'_> {
        match self {
            SchemaSource::Tree(n) => Sub::Tree(n),
            SchemaSource::Text(t) => Sub::Text(t.root()),
        }
    }
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
            .filter(|n| !matches!(n.value, Value::Null))
            .map(SchemaSource::Tree);
        crd.versions.push(CrdVersion { name, served, storage, schema });
    }
    Ok(crd)
}

/// An embedded manifest's JSON text read as [`into_crd`] reads its tree, each version's schema
/// kept as text: the manifest's tree without the schemas (each `null`) and the schemas in the
/// order of `spec.versions`. `None` when the text is not one valid JSON object (read it as a
/// tree); `json`: the text is known to be valid JSON (only that it is an object is checked).
pub(crate) fn read_json_manifest(text: &Arc<String>, json: bool) -> Option<(Node, Vec<Option<Arc<JsonText>>>)> {
    let object = if json { opens_an_object(text) } else { is_one_json_object(text) };
    if !object {
        return None;
    }
    let doc = JsonText::shared(Arc::clone(text));
    let mut top = Shell::read(doc.root(), &["spec"]);
    let mut schemas = Vec::new();
    if let Some(spec) = top.field("spec") {
        let mut shell = Shell::read(spec, &["versions"]);
        if let Some(versions) = shell.field("versions") {
            let tree = match versions.is_array() {
                true => {
                    let items = versions.elements().into_iter().map(|v| version_of(&doc, v, &mut schemas)).collect();
                    Node::new(Default::default(), Value::Array(items))
                }
                false => versions.node(),
            };
            shell.set("versions", tree);
        }
        top.set("spec", shell.node);
    }
    Some((top.node, schemas))
}

/// One of `spec.versions` as a tree without its schema, which is pushed to `schemas` as text.
fn version_of(doc: &JsonText, version: Raw, schemas: &mut Vec<Option<Arc<JsonText>>>) -> Node {
    let mut shell = Shell::read(version, &["schema"]);
    let mut text = None;
    if let Some(schema) = shell.field("schema") {
        let mut inner = Shell::read(schema, &["openAPIV3Schema"]);
        text = inner.field("openAPIV3Schema").filter(|r| r.text() != "null").map(|r| Arc::new(doc.part(r)));
        inner.set("openAPIV3Schema", Node::new(Default::default(), Value::Null));
        shell.set("schema", inner.node);
    }
    schemas.push(text);
    shell.node
}

/// A CRD read from a manifest's tree without its schemas and its schemas' texts
/// ([`read_json_manifest`]).
pub(crate) fn into_crd_with(manifest: Node, schemas: Vec<Option<Arc<JsonText>>>) -> Result<Crd, CrdError> {
    let mut crd = into_crd(manifest)?;
    for (v, text) in crd.versions.iter_mut().zip(schemas) {
        v.schema = text.map(SchemaSource::Text);
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
        let schema = crd.versions[0].schema.as_ref().unwrap().tree();
        assert_eq!(
            schema.get("properties").and_then(|p| p.get("spec")).and_then(|s| s.get("type")).and_then(Node::as_str),
            Some("string")
        );
    }

    /// `crd` with each schema read into a tree.
    fn as_trees(mut crd: Crd) -> Crd {
        for v in &mut crd.versions {
            v.schema = v.schema.take().map(|s| SchemaSource::Tree(s.tree().into_owned()));
        }
        crd
    }

    #[test]
    fn a_manifest_read_from_its_json_text_is_the_crd_its_tree_gives() {
        let texts = [
            r#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"a.example.com"},"spec":{"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"string"}}}}},{"name":"v2","schema":{"openAPIV3Schema":null}},{"name":"v3","schema":"x"},7]},"status":{"storedVersions":["v1"]}}"#,
            r#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","Spec":{"scope":"Cluster","Versions":[{"Name":"v1","SCHEMA":{"openapiv3schema":{"type":"string"}}}]},"spec":{"versions":{"a":1}}}"#,
            r#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","spec":[1]}"#,
        ];
        for text in texts {
            let shared = Arc::new(text.to_string());
            let (tree, schemas) = read_json_manifest(&shared, false).expect("one JSON object");
            // Known to be JSON (the loader parsed it), the text reads the same unchecked.
            let known = read_json_manifest(&shared, true).expect("one JSON object");
            assert_eq!((&known.0, known.1.len()), (&tree, schemas.len()));
            let from_text = as_trees(into_crd_with(tree, schemas).unwrap());
            let from_tree = as_trees(read_crd(&manifest(text)).unwrap());
            assert_eq!(from_text.versions.len(), from_tree.versions.len(), "{text}");
            for (a, b) in from_text.versions.iter().zip(&from_tree.versions) {
                let (x, y) = (
                    a.schema.as_ref().map(|s| s.tree().into_owned()),
                    b.schema.as_ref().map(|s| s.tree().into_owned()),
                );
                assert!(
                    x.zip(y.clone()).map_or(y.is_none(), |(x, y)| crate::crd_safety::walk::same_value(&x, &y)),
                    "{text}"
                );
                assert_eq!((&a.name, a.served, a.storage), (&b.name, b.served, b.storage));
            }
            assert_eq!(
                (&from_text.name, &from_text.scope, &from_text.stored_versions),
                (&from_tree.name, &from_tree.scope, &from_tree.stored_versions)
            );
        }
        let yaml = Arc::new("apiVersion: v1\nkind: CustomResourceDefinition\n".to_string());
        assert!(read_json_manifest(&yaml, false).is_none());
        // Only that it is an object is checked of a text known to be JSON.
        assert!(read_json_manifest(&Arc::new("[1]".to_string()), true).is_none());
    }

    #[test]
    fn a_v1beta1_crd_is_not_compared() {
        let err = read_crd(&manifest("apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\n"));
        assert_eq!(err, Err(CrdError::ApiVersion("apiextensions.k8s.io/v1beta1".into())));
    }
}
