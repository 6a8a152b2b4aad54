//! The properties of the rendered bundle, as opm assembles them (`parse.go` `derivedProperties`,
//! `registry_to_model.go` `ObjectsAndPropertiesFromBundle`, `render.go`
//! `moveBundleObjectsToEndOfPropertySlices`):
//!
//! 1. derived: `olm.package` from the annotation package and the CSV version, then the CSV's
//!    `olm.properties` annotation, then one `olm.gvk` per provided API; deduplicated;
//! 2. the properties file's entries, then the derived ones; deduplicated by (type, raw value);
//! 3. of those, `olm.gvk`s join the provided APIs, the **last** `olm.package` wins (rebuilt from
//!    its fields), the rest pass through; dependencies give `olm.gvk.required`,
//!    `olm.package.required` (`version` becomes `versionRange`) and other types pass through;
//! 4. one `olm.bundle.object` per manifest object (base64 of its JSON: sorted keys, HTML escaped);
//! 5. everything sorted by (type, raw JSON value) — which is why the CRD's object comes before
//!    the CSV's: their base64 text is compared (`...IjoiYXBp` for `"apiextensions` sorts before
//!    `...Ijoib3Bl` for `"operators`), not the file names;
//! 6. `olm.bundle.object` and `olm.csv.metadata` moved to the end, keeping their order.
//!
//! Each property keeps the bytes Go compares (`raw`): built values as opm's property builder
//! writes them (struct field order, no HTML escaping), values from YAML metadata files as
//! `YAMLToJSON` makes them (sorted keys, HTML escaped).

use std::collections::{BTreeSet, HashSet};

use base64::Engine as _;

use super::apis::ApiKey;
use super::fields;
use super::go_json::{sort_keys, to_json, Keys};
use super::manifests::Manifest;
use super::metadata::Entry;
use crate::declcfg::property_types::{
    TYPE_BUNDLE_OBJECT, TYPE_CSV_METADATA, TYPE_GVK, TYPE_GVK_REQUIRED, TYPE_PACKAGE, TYPE_PACKAGE_REQUIRED,
};
use crate::declcfg::{Member, Node, Pos, Value};
use crate::diagnostic::Location;

/// One property with the raw JSON bytes opm sorts and deduplicates it by.
#[derive(Debug, Clone, PartialEq)]
pub struct Prop {
    /// `type`.
    pub type_: String,
    /// `value`.
    pub value: Node,
    /// The value's JSON as Go holds it.
    pub raw: String,
}

impl Prop {
    /// A property whose value opm builds from a Go struct (fields in `value`'s member order).
    pub fn built(type_: &str, value: Node) -> Prop {
        let raw = to_json(&value, Keys::AsIs, false);
        Prop { type_: type_.to_string(), value, raw }
    }

    /// A property read from a YAML or JSON metadata file (Go converted it to JSON: keys sorted,
    /// HTML escaped). A missing value is Go's nil `RawMessage`, written as `null`.
    pub fn from_file(entry: &Entry) -> Prop {
        let (value, raw) = match &entry.value {
            Some(v) => {
                let mut v = v.clone();
                sort_keys(&mut v);
                let raw = to_json(&v, Keys::Sorted, true);
                (v, raw)
            }
            None => (node(Value::Null), String::new()),
        };
        Prop { type_: entry.type_.clone(), value, raw }
    }

    /// A property whose raw value is JSON text as written (the CSV's `olm.properties`).
    pub fn as_written(type_: String, value: Option<Node>) -> Prop {
        let raw = value.as_ref().map(|v| to_json(v, Keys::AsIs, false)).unwrap_or_default();
        Prop { type_, value: value.unwrap_or_else(|| node(Value::Null)), raw }
    }
}

/// A node with no position.
pub fn node(value: Value) -> Node {
    Node::new(Pos::default(), value)
}

/// A string node.
pub fn string(s: &str) -> Node {
    node(Value::String(s.into()))
}

/// An object node with members in the given (Go struct field) order.
pub fn object(members: Vec<(&str, Node)>) -> Node {
    node(Value::Object(
        members.into_iter().map(|(k, v)| Member { key: k.into(), key_pos: Pos::default(), value: v }).collect(),
    ))
}

/// `olm.package {packageName, version, release}` (release omitted when empty).
pub fn package(name: &str, version: &str, release: &str) -> Prop {
    let mut members = vec![("packageName", string(name)), ("version", string(version))];
    if !release.is_empty() {
        members.push(("release", string(release)));
    }
    Prop::built(TYPE_PACKAGE, object(members))
}

fn gvk(type_: &str, k: &Gvk) -> Prop {
    Prop::built(type_, object(vec![("group", string(&k.0)), ("kind", string(&k.1)), ("version", string(&k.2))]))
}

/// `olm.bundle.object` for one manifest.
pub fn bundle_object(manifest: &Node) -> Prop {
    let data = base64::engine::general_purpose::STANDARD.encode(to_json(manifest, Keys::Sorted, true));
    Prop::built(TYPE_BUNDLE_OBJECT, object(vec![("data", node(Value::String(data.into())))]))
}

/// (group, kind, version).
type Gvk = (String, String, String);

/// Everything the property list is made from.
pub struct Inputs<'a> {
    /// The annotation package.
    pub package: &'a str,
    /// `spec.version` of the CSV.
    pub version: &'a str,
    /// `spec.release` of the CSV.
    pub release: &'a str,
    /// The CSV's `olm.properties` annotation, decoded.
    pub csv_properties: Vec<Prop>,
    /// The properties file's entries.
    pub file_properties: &'a [Entry],
    /// The dependencies file's entries.
    pub dependencies: &'a [Entry],
    /// Provided and required APIs.
    pub provided: &'a BTreeSet<ApiKey>,
    /// Required APIs.
    pub required: &'a BTreeSet<ApiKey>,
    /// The manifest objects.
    pub objects: &'a [Manifest],
}

/// The properties from the properties file and the derived ones, deduplicated (opm's
/// `bundle.Properties`), in order.
pub fn bundle_properties(inputs: &Inputs<'_>) -> Vec<Prop> {
    let mut derived = Vec::new();
    if !inputs.package.is_empty() {
        derived.push(package(inputs.package, inputs.version, inputs.release));
    }
    derived.extend(inputs.csv_properties.iter().cloned());
    for api in inputs.provided {
        derived.push(gvk(TYPE_GVK, &(api.group.clone(), api.kind.clone(), api.version.clone())));
    }
    let derived = dedup(derived);
    dedup(inputs.file_properties.iter().map(Prop::from_file).chain(derived).collect())
}

/// Keep the first of each (type, raw value).
fn dedup(props: Vec<Prop>) -> Vec<Prop> {
    let mut seen = HashSet::new();
    props.into_iter().filter(|p| seen.insert((p.type_.clone(), p.raw.clone()))).collect()
}

/// Why the property list cannot be made: opm's message, and the dependency entry it is about.
#[derive(Debug, Clone, PartialEq)]
pub struct AssembleError {
    /// The message.
    pub message: String,
    /// The dependencies file entry at fault (`None` for a property).
    pub at: Option<Location>,
}

/// The final, sorted property list (steps 3–6), or the error opm stops with.
pub fn assemble(inputs: &Inputs<'_>, props: &[Prop]) -> Result<Vec<Prop>, AssembleError> {
    let unlocated = |message: String| AssembleError { message, at: None };
    let mut provided: BTreeSet<Gvk> = BTreeSet::new();
    let mut required: BTreeSet<Gvk> = BTreeSet::new();
    let mut package_prop: Option<Prop> = None;
    let mut others = Vec::new();
    for (i, p) in props.iter().enumerate() {
        match p.type_.as_str() {
            TYPE_GVK => {
                provided.insert(decode_gvk(&p.value).map_err(|e| unlocated(parse_error(i, p, &e)))?);
            }
            TYPE_PACKAGE => {
                let v = &p.value;
                let field = |f: &str| fields::string(v, f).map_err(|e| unlocated(parse_error(i, p, &e)));
                package_prop = Some(package(&field("packageName")?, &field("version")?, &field("release")?));
            }
            _ => others.push(p.clone()),
        }
    }
    let mut package_required = Vec::new();
    for (i, d) in inputs.dependencies.iter().enumerate() {
        let p = Prop::from_file(d);
        let located = |e: String| AssembleError {
            message: parse_error(i, &p, &e),
            at: Some(Location { file: d.file.clone(), line: d.pos.line, column: d.pos.column, pointer: String::new() }),
        };
        match d.type_.as_str() {
            TYPE_GVK => {
                required.insert(decode_gvk(&p.value).map_err(located)?);
            }
            TYPE_PACKAGE => {
                let field = |f: &str| fields::string(&p.value, f).map_err(located);
                let value = object(vec![
                    ("packageName", string(&field("packageName")?)),
                    ("versionRange", string(&field("version")?)),
                ]);
                package_required.push(Prop::built(TYPE_PACKAGE_REQUIRED, value));
            }
            _ => others.push(p),
        }
    }
    provided.extend(inputs.provided.iter().map(|k| (k.group.clone(), k.kind.clone(), k.version.clone())));
    required.extend(inputs.required.iter().map(|k| (k.group.clone(), k.kind.clone(), k.version.clone())));
    let mut out: Vec<Prop> = inputs.objects.iter().map(|m| bundle_object(&m.node)).collect();
    out.push(package_prop.unwrap_or_else(|| package(inputs.package, inputs.version, inputs.release)));
    out.extend(provided.iter().map(|k| gvk(TYPE_GVK, k)));
    out.extend(required.iter().map(|k| gvk(TYPE_GVK_REQUIRED, k)));
    out.extend(package_required);
    out.extend(others);
    crate::sort::sort_by(&mut out, |a, b| (&a.type_, &a.raw).cmp(&(&b.type_, &b.raw)));
    Ok(objects_last(out))
}

fn decode_gvk(value: &Node) -> Result<Gvk, String> {
    if value.as_object().is_none() && value.value != Value::Null {
        return Err(fields::mismatch(value, "property.GVK"));
    }
    Ok((fields::string(value, "group")?, fields::string(value, "kind")?, fields::string(value, "version")?))
}

fn parse_error(i: usize, p: &Prop, err: &str) -> String {
    format!("parse property[{i}] of type {:?}: {err}", p.type_)
}

/// `olm.bundle.object` and `olm.csv.metadata` moved to the end, each group keeping its order.
pub fn objects_last(props: Vec<Prop>) -> Vec<Prop> {
    let (objects, mut others): (Vec<Prop>, Vec<Prop>) =
        props.into_iter().partition(|p| p.type_ == TYPE_BUNDLE_OBJECT || p.type_ == TYPE_CSV_METADATA);
    others.extend(objects);
    others
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::read_documents;

    /// A YAML value (flow style allowed: it is read as the value of a key).
    fn yaml(text: &str) -> Node {
        let doc = read_documents("t", format!("v: {text}").as_bytes()).remove(0).unwrap().value.unwrap();
        doc.get("v").unwrap().clone()
    }

    fn entry(type_: &str, value: &str) -> Entry {
        Entry { type_: type_.into(), value: Some(yaml(value)), file: "f".into(), pos: Pos::default() }
    }

    fn key(g: &str, v: &str, k: &str, p: &str) -> ApiKey {
        ApiKey { group: g.into(), version: v.into(), kind: k.into(), plural: p.into() }
    }

    #[test]
    fn built_values_follow_the_go_struct_and_raw_values_the_yaml_conversion() {
        assert_eq!(package("foo", "0.2.0", "").raw, r#"{"packageName":"foo","version":"0.2.0"}"#);
        assert_eq!(package("foo", "0.2.0", "2").raw, r#"{"packageName":"foo","version":"0.2.0","release":"2"}"#);
        let p = Prop::from_file(&entry("olm.label", "{z: 1, a: <b>}"));
        assert_eq!(p.raw, r#"{"a":"\u003cb\u003e","z":1}"#);
        assert_eq!(p.value.as_object().unwrap()[0].key, "a");
    }

    #[test]
    fn properties_are_sorted_by_type_then_raw_value_with_objects_last() {
        let provided = BTreeSet::from([key("test.foo", "v1", "Foo", "foos")]);
        let required = BTreeSet::new();
        let objects = [
            Manifest {
                file: "m/b".into(),
                node: yaml("{kind: ClusterServiceVersion, apiVersion: operators.coreos.com/v1alpha1}"),
                kind: "ClusterServiceVersion".into(),
            },
            Manifest {
                file: "m/c".into(),
                node: yaml("{kind: CustomResourceDefinition, apiVersion: apiextensions.k8s.io/v1}"),
                kind: "CustomResourceDefinition".into(),
            },
        ];
        let deps = [
            entry("olm.package", "{packageName: bar, version: <0.1.0}"),
            entry("olm.gvk", "{group: test.bar, kind: Bar, version: v1alpha1}"),
            entry("olm.label", "{label: x}"),
        ];
        let inputs = Inputs {
            package: "foo",
            version: "0.2.0",
            release: "",
            csv_properties: vec![],
            file_properties: &[],
            dependencies: &deps,
            provided: &provided,
            required: &required,
            objects: &objects,
        };
        let props = assemble(&inputs, &bundle_properties(&inputs)).unwrap();
        let types: Vec<&str> = props.iter().map(|p| p.type_.as_str()).collect();
        assert_eq!(
            types,
            [
                "olm.gvk",
                "olm.gvk.required",
                "olm.label",
                "olm.package",
                "olm.package.required",
                "olm.bundle.object",
                "olm.bundle.object"
            ]
        );
        assert_eq!(props[4].raw, r#"{"packageName":"bar","versionRange":"<0.1.0"}"#);
        // The CRD's object sorts first: its base64 text is smaller, whatever the file order.
        assert!(props[5].raw.contains("eyJhcGlWZXJzaW9uIjoiYXBpZXh0"), "{}", props[5].raw);
    }

    #[test]
    fn the_last_package_property_wins_and_a_bad_one_stops_the_render() {
        let provided = BTreeSet::new();
        let inputs = Inputs {
            package: "foo",
            version: "1.0.0",
            release: "",
            csv_properties: vec![Prop::as_written(
                "olm.package".into(),
                Some(yaml("{packageName: other, version: 9.9.9}")),
            )],
            file_properties: &[],
            dependencies: &[],
            provided: &provided,
            required: &provided,
            objects: &[],
        };
        let props = assemble(&inputs, &bundle_properties(&inputs)).unwrap();
        assert_eq!(props[0].raw, r#"{"packageName":"other","version":"9.9.9"}"#);
        let bad = [entry("olm.gvk", "{group: 1}")];
        let inputs = Inputs { dependencies: &bad, ..inputs };
        let err = assemble(&inputs, &[]).unwrap_err();
        assert_eq!(
            err.message,
            "parse property[0] of type \"olm.gvk\": json: cannot unmarshal number into Go value of type string"
        );
        assert_eq!(err.at.unwrap().file, "f");
    }
}
