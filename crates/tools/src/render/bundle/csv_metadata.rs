//! `olm.csv.metadata`, byte for byte as opm builds it (`property.MustBuildCSVMetadata`): the CSV
//! decoded into operator-framework/api's `v1alpha1.ClusterServiceVersion`, then the Go struct
//! `property.CSVMetadata` written in field order — `annotations`, `apiServiceDefinitions`,
//! `crdDescriptions`, `description`, `displayName`, `installModes`, `keywords`, `labels`,
//! `links`, `maintainers`, `maturity`, `minKubeVersion`, `nativeAPIs`, `provider` — with Go's
//! `omitempty` (empty strings, slices and maps left out; the three struct-valued fields always
//! written, `{}` when empty), maps with sorted keys, descriptor `value`s as raw JSON.
//!
//! The same builder canonicalizes an existing `olm.csv.metadata` value (opm's migration
//! re-encodes it through the struct). A field of the wrong JSON type is Go's decoding error.

use super::fields;
use super::go_json::sort_keys;
use super::properties::{node, object, Prop};
use crate::declcfg::property_types::TYPE_CSV_METADATA;
use crate::declcfg::{Node, Value};

type Built = Result<Option<Node>, String>;

/// The `olm.csv.metadata` property of a CSV manifest.
pub fn from_csv(csv: &Node) -> Result<Prop, String> {
    let meta = fields::get(csv, "metadata");
    let spec = fields::get(csv, "spec");
    fn at<'a>(n: Option<&'a Node>, f: &str) -> Option<&'a Node> {
        n.and_then(|n| fields::get(n, f))
    }
    check_object(meta, "v1.ObjectMeta")?;
    check_object(spec, "v1alpha1.ClusterServiceVersionSpec")?;
    build(Sources {
        annotations: at(meta, "annotations"),
        api_services: at(spec, "apiservicedefinitions"),
        crds: at(spec, "customresourcedefinitions"),
        description: at(spec, "description"),
        display_name: at(spec, "displayName"),
        install_modes: at(spec, "installModes"),
        keywords: at(spec, "keywords"),
        labels: at(meta, "labels"),
        links: at(spec, "links"),
        maintainers: at(spec, "maintainers"),
        maturity: at(spec, "maturity"),
        min_kube_version: at(spec, "minKubeVersion"),
        native_apis: at(spec, "nativeAPIs"),
        provider: at(spec, "provider"),
    })
}

/// An existing `olm.csv.metadata` value, re-encoded through opm's struct.
pub fn canonical(value: &Node) -> Result<Prop, String> {
    check_object(Some(value), "property.CSVMetadata")?;
    let at = |f: &str| fields::get(value, f);
    build(Sources {
        annotations: at("annotations"),
        api_services: at("apiServiceDefinitions"),
        crds: at("crdDescriptions"),
        description: at("description"),
        display_name: at("displayName"),
        install_modes: at("installModes"),
        keywords: at("keywords"),
        labels: at("labels"),
        links: at("links"),
        maintainers: at("maintainers"),
        maturity: at("maturity"),
        min_kube_version: at("minKubeVersion"),
        native_apis: at("nativeAPIs"),
        provider: at("provider"),
    })
}

/// Where each field of `CSVMetadata` is read from.
struct Sources<'a> {
    annotations: Option<&'a Node>,
    api_services: Option<&'a Node>,
    crds: Option<&'a Node>,
    description: Option<&'a Node>,
    display_name: Option<&'a Node>,
    install_modes: Option<&'a Node>,
    keywords: Option<&'a Node>,
    labels: Option<&'a Node>,
    links: Option<&'a Node>,
    maintainers: Option<&'a Node>,
    maturity: Option<&'a Node>,
    min_kube_version: Option<&'a Node>,
    native_apis: Option<&'a Node>,
    provider: Option<&'a Node>,
}

fn build(s: Sources<'_>) -> Result<Prop, String> {
    let members = vec![
        ("annotations", string_map(s.annotations)?),
        ("apiServiceDefinitions", Some(owned_required(s.api_services, api_service)?)),
        ("crdDescriptions", Some(owned_required(s.crds, crd_description)?)),
        ("description", opt_str(s.description)?),
        ("displayName", opt_str(s.display_name)?),
        ("installModes", list(s.install_modes, install_mode)?),
        ("keywords", list(s.keywords, |n| req_str(Some(n)))?),
        ("labels", string_map(s.labels)?),
        ("links", list(s.links, app_link)?),
        ("maintainers", list(s.maintainers, maintainer)?),
        ("maturity", opt_str(s.maturity)?),
        ("minKubeVersion", opt_str(s.min_kube_version)?),
        ("nativeAPIs", list(s.native_apis, native_api)?),
        ("provider", Some(app_link_or_empty(s.provider)?)),
    ];
    Ok(Prop::built(TYPE_CSV_METADATA, present(members)))
}

/// An object of the members that are present (omitempty).
fn present(members: Vec<(&str, Option<Node>)>) -> Node {
    object(members.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))).collect())
}

fn check_object(n: Option<&Node>, go_type: &str) -> Result<(), String> {
    match n {
        Some(n) if n.as_object().is_none() => Err(fields::mismatch(n, go_type)),
        _ => Ok(()),
    }
}

/// A string field that is always written.
fn req_str(n: Option<&Node>) -> Result<Node, String> {
    Ok(node(Value::String(n.map(fields::as_string).transpose()?.unwrap_or_default().into())))
}

/// A string field with `omitempty`.
fn opt_str(n: Option<&Node>) -> Built {
    let s = req_str(n)?;
    Ok((s.as_str() != Some("")).then_some(s))
}

/// A `map[string]string` with `omitempty`, keys sorted.
fn string_map(n: Option<&Node>) -> Built {
    let Some(n) = n else { return Ok(None) };
    let members = n.as_object().ok_or_else(|| fields::mismatch(n, "map[string]string"))?;
    let mut out: Vec<(&str, Node)> = Vec::new();
    for m in members {
        out.push((m.key.as_str(), req_str(Some(&m.value))?));
    }
    crate::sort::sort_by(&mut out, |a, b| a.0.cmp(b.0));
    Ok((!out.is_empty()).then(|| object(out)))
}

/// A slice with `omitempty`, each element converted by `item`.
fn list(n: Option<&Node>, item: fn(&Node) -> Result<Node, String>) -> Built {
    let Some(n) = n else { return Ok(None) };
    let items = n.as_array().ok_or_else(|| fields::mismatch(n, "a slice"))?;
    let out = items.iter().map(item).collect::<Result<Vec<Node>, String>>()?;
    Ok((!out.is_empty()).then(|| node(Value::Array(out.into()))))
}

/// The element `n` as a struct (null is the zero struct).
fn each_field<'a>(n: &'a Node, go_type: &str) -> Result<impl Fn(&str) -> Option<&'a Node>, String> {
    if n.value != Value::Null && n.as_object().is_none() {
        return Err(fields::mismatch(n, go_type));
    }
    Ok(move |f: &str| fields::get(n, f))
}

/// `{owned, required}` (`CustomResourceDefinitions` / `APIServiceDefinitions`), always written.
fn owned_required(n: Option<&Node>, item: fn(&Node) -> Result<Node, String>) -> Result<Node, String> {
    let Some(n) = n else { return Ok(object(vec![])) };
    let f = each_field(n, "v1alpha1.CustomResourceDefinitions")?;
    Ok(present(vec![("owned", list(f("owned"), item)?), ("required", list(f("required"), item)?)]))
}

fn crd_description(n: &Node) -> Result<Node, String> {
    let f = each_field(n, "v1alpha1.CRDDescription")?;
    let mut members = vec![
        ("name", Some(req_str(f("name"))?)),
        ("version", Some(req_str(f("version"))?)),
        ("kind", Some(req_str(f("kind"))?)),
    ];
    members.extend(descriptions(&f)?);
    Ok(present(members))
}

fn api_service(n: &Node) -> Result<Node, String> {
    let f = each_field(n, "v1alpha1.APIServiceDescription")?;
    let mut members = vec![
        ("name", Some(req_str(f("name"))?)),
        ("group", Some(req_str(f("group"))?)),
        ("version", Some(req_str(f("version"))?)),
        ("kind", Some(req_str(f("kind"))?)),
        ("deploymentName", opt_str(f("deploymentName"))?),
        ("containerPort", int32(f("containerPort"))?),
    ];
    members.extend(descriptions(&f)?);
    Ok(present(members))
}

/// `displayName`, `description`, `resources` and the three descriptor lists.
fn descriptions<'a>(f: &impl Fn(&str) -> Option<&'a Node>) -> Result<Vec<(&'static str, Option<Node>)>, String> {
    Ok(vec![
        ("displayName", opt_str(f("displayName"))?),
        ("description", opt_str(f("description"))?),
        ("resources", list(f("resources"), resource)?),
        ("statusDescriptors", list(f("statusDescriptors"), descriptor)?),
        ("specDescriptors", list(f("specDescriptors"), descriptor)?),
        ("actionDescriptors", list(f("actionDescriptors"), descriptor)?),
    ])
}

fn int32(n: Option<&Node>) -> Built {
    match n {
        None => Ok(None),
        Some(v) => match v.value {
            Value::Number(x) if x.fract() == 0.0 && x >= i32::MIN as f64 && x <= i32::MAX as f64 => {
                Ok((x != 0.0).then(|| node(Value::Number(x))))
            }
            _ => Err(fields::mismatch(v, "int32")),
        },
    }
}

fn resource(n: &Node) -> Result<Node, String> {
    let f = each_field(n, "v1alpha1.APIResourceReference")?;
    Ok(object(vec![("name", req_str(f("name"))?), ("kind", req_str(f("kind"))?), ("version", req_str(f("version"))?)]))
}

fn descriptor(n: &Node) -> Result<Node, String> {
    let f = each_field(n, "v1alpha1.SpecDescriptor")?;
    let value = n.field("value").map(|m| {
        let mut v = m.value.clone();
        sort_keys(&mut v);
        v
    });
    Ok(present(vec![
        ("path", Some(req_str(f("path"))?)),
        ("displayName", opt_str(f("displayName"))?),
        ("description", opt_str(f("description"))?),
        ("x-descriptors", list(f("x-descriptors"), |n| req_str(Some(n)))?),
        ("value", value),
    ]))
}

fn install_mode(n: &Node) -> Result<Node, String> {
    let f = each_field(n, "v1alpha1.InstallMode")?;
    let supported = match f("supported") {
        None => false,
        Some(Node { value: Value::Bool(b), .. }) => *b,
        Some(other) => return Err(fields::mismatch(other, "bool")),
    };
    Ok(object(vec![("type", req_str(f("type"))?), ("supported", node(Value::Bool(supported)))]))
}

fn app_link(n: &Node) -> Result<Node, String> {
    let f = each_field(n, "v1alpha1.AppLink")?;
    Ok(present(vec![("name", opt_str(f("name"))?), ("url", opt_str(f("url"))?)]))
}

fn app_link_or_empty(n: Option<&Node>) -> Result<Node, String> {
    n.map_or_else(|| Ok(object(vec![])), app_link)
}

fn maintainer(n: &Node) -> Result<Node, String> {
    let f = each_field(n, "v1alpha1.Maintainer")?;
    Ok(present(vec![("name", opt_str(f("name"))?), ("email", opt_str(f("email"))?)]))
}

fn native_api(n: &Node) -> Result<Node, String> {
    let f = each_field(n, "v1.GroupVersionKind")?;
    Ok(object(vec![
        ("group", req_str(f("group"))?),
        ("version", req_str(f("version"))?),
        ("kind", req_str(f("kind"))?),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::read_documents;

    fn yaml(text: &str) -> Node {
        read_documents("t", text.as_bytes()).remove(0).unwrap().value.unwrap()
    }

    #[test]
    fn an_empty_csv_gives_the_always_written_struct_fields() {
        let p = from_csv(&yaml("kind: ClusterServiceVersion\nmetadata: {name: x}\nspec: {}\n")).unwrap();
        assert_eq!(p.raw, r#"{"apiServiceDefinitions":{},"crdDescriptions":{},"provider":{}}"#);
    }

    #[test]
    fn fields_come_in_go_struct_order_with_omitempty() {
        let csv = yaml(
            "metadata:\n  annotations: {z: '1', a: <b>}\n  labels: {l: v}\nspec:\n  displayName: Foo\n  \
             keywords: [a]\n  maturity: ''\n  provider: {name: Acme}\n  installModes: [{type: OwnNamespace, supported: true}]\n  \
             customresourcedefinitions:\n    owned:\n    - name: foos.x\n      kind: Foo\n      version: v1\n      \
             specDescriptors: [{path: size, x-descriptors: [a], value: {b: 1, a: 2}}]\n  \
             apiservicedefinitions:\n    required: [{name: nn, group: g, version: v, kind: K, containerPort: 0}]\n",
        );
        let p = from_csv(&csv).unwrap();
        assert_eq!(
            p.raw,
            concat!(
                r#"{"annotations":{"a":"<b>","z":"1"},"#,
                r#""apiServiceDefinitions":{"required":[{"name":"nn","group":"g","version":"v","kind":"K"}]},"#,
                r#""crdDescriptions":{"owned":[{"name":"foos.x","version":"v1","kind":"Foo","specDescriptors":[{"path":"size","x-descriptors":["a"],"value":{"a":2,"b":1}}]}]},"#,
                r#""displayName":"Foo","installModes":[{"type":"OwnNamespace","supported":true}],"keywords":["a"],"#,
                r#""labels":{"l":"v"},"provider":{"name":"Acme"}}"#
            )
        );
        assert_eq!(canonical(&p.value).unwrap().raw, p.raw);
    }

    #[test]
    fn a_wrong_type_is_gos_decoding_error() {
        let e = from_csv(&yaml("spec:\n  installModes: [{type: A, supported: 'yes'}]\n")).unwrap_err();
        assert_eq!(e, "json: cannot unmarshal string into Go value of type bool");
        assert!(from_csv(&yaml("metadata:\n  annotations: {a: 1}\n")).is_err());
    }
}
