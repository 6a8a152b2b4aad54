//! A typed, read-only view of a bundle's ClusterServiceVersion: the parts the install analyses
//! need (install modes, owned and required APIs, the operator's permissions, webhooks), read from
//! whichever flavour the catalog carries.
//!
//! A bundle carries its CSV either as one of its `olm.bundle.object` properties (the whole
//! manifest, base64-encoded) or as an `olm.csv.metadata` property (a subset of the CSV's spec,
//! written by `opm render --migrate-level bundle-object-to-csv-metadata`). [`CsvView::from_bundle`]
//! reads the first embedded manifest whose `kind` is `ClusterServiceVersion`, or else the first
//! `olm.csv.metadata`. Fields are read the way Go's `encoding/json` binds them (keys matched
//! case-insensitively); a field of the wrong JSON type reads as absent. What a flavour does not
//! carry is `None` (`olm.csv.metadata` has no permissions and no webhooks), so a caller can tell
//! "none declared" (`Some(vec![])`) from "not known".
//!
//! Nothing here decides anything: the analyses (`operatorgroup`, the RBAC preview) read this view.
//! To extend it, add a field, read it in `read_spec` (and in `read_metadata` if
//! `olm.csv.metadata` carries it), and test both flavours below. Analyses that do not read the
//! permissions ask for a view without them ([`CsvView::from_bundle_without_permissions`]).

use std::collections::BTreeMap;

use super::Bundle;
use crate::declcfg::{embedded_csv, Node, Pos, Value};
use crate::property::TYPE_CSV_METADATA;

/// The ClusterServiceVersion of a bundle, as the install analyses read it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CsvView {
    /// Where the view was read from.
    pub origin: CsvOrigin,
    /// `metadata.name` (`None` for `olm.csv.metadata`, which has no name: the bundle name is the
    /// CSV name there).
    pub name: Option<String>,
    /// `metadata.annotations` (or the `annotations` of `olm.csv.metadata`).
    pub annotations: BTreeMap<String, String>,
    /// `spec.installModes`, in order, duplicates kept (OLM refuses a list with duplicate types).
    pub install_modes: Vec<InstallMode>,
    /// `spec.customresourcedefinitions.owned`.
    pub owned_crds: Vec<CrdDescription>,
    /// `spec.customresourcedefinitions.required`.
    pub required_crds: Vec<CrdDescription>,
    /// `spec.apiservicedefinitions.owned`.
    pub owned_api_services: Vec<ApiServiceDescription>,
    /// `spec.apiservicedefinitions.required`.
    pub required_api_services: Vec<ApiServiceDescription>,
    /// `spec.install.spec.permissions`: namespaced rules, one entry per service account
    /// (`None` when the flavour does not carry the install strategy).
    pub permissions: Option<Vec<StrategyPermissions>>,
    /// `spec.install.spec.clusterPermissions`: cluster-wide rules (`None` as for `permissions`).
    pub cluster_permissions: Option<Vec<StrategyPermissions>>,
    /// `spec.webhookdefinitions` (`None` when the flavour does not carry them).
    pub webhooks: Option<Vec<WebhookDefinition>>,
}

/// Which property of the bundle the view was read from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CsvFlavour {
    /// The whole CSV manifest, from an `olm.bundle.object` property.
    #[default]
    BundleObject,
    /// The CSV subset of an `olm.csv.metadata` property.
    CsvMetadata,
}

/// Where a [`CsvView`] came from: the flavour, and the property (its index in the bundle's
/// properties and its position), to locate findings about it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CsvOrigin {
    /// The property type it was read from.
    pub flavour: CsvFlavour,
    /// The index of the property in the bundle's `properties`.
    pub property: usize,
    /// Where the property starts.
    pub pos: Pos,
}

/// One `spec.installModes` item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstallMode {
    /// `type` as written (`OwnNamespace`, `SingleNamespace`, `MultiNamespace`, `AllNamespaces`).
    pub type_: String,
    /// `supported`.
    pub supported: bool,
}

/// An owned or required CRD of the CSV (`CRDDescription`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CrdDescription {
    /// `name`: `<plural>.<group>`.
    pub name: String,
    /// `version`.
    pub version: String,
    /// `kind`.
    pub kind: String,
}

impl CrdDescription {
    /// The plural and the group, split at the first dot of `name` as OLM does; `None` when the
    /// name has no dot (OLM then cannot read the CSV's API surface).
    pub fn plural_and_group(&self) -> Option<(&str, &str)> {
        self.name.split_once('.')
    }
}

/// An owned or required API service of the CSV (`APIServiceDescription`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ApiServiceDescription {
    /// `name` (the plural).
    pub name: String,
    /// `group`.
    pub group: String,
    /// `version`.
    pub version: String,
    /// `kind`.
    pub kind: String,
}

/// The rules granted to one service account (`StrategyDeploymentPermissions`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StrategyPermissions {
    /// `serviceAccountName`.
    pub service_account_name: String,
    /// `rules`.
    pub rules: Vec<PolicyRule>,
    /// Whether `rules` is absent or null: a Go nil slice, which `encoding/json` writes as `null`
    /// where an empty list is `[]` (OLM hashes the encoding into the generated names).
    pub rules_null: bool,
}

/// A Kubernetes RBAC `PolicyRule`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PolicyRule {
    /// `apiGroups`.
    pub api_groups: Vec<String>,
    /// `resources`.
    pub resources: Vec<String>,
    /// `resourceNames`.
    pub resource_names: Vec<String>,
    /// `verbs`.
    pub verbs: Vec<String>,
    /// `nonResourceURLs`.
    pub non_resource_urls: Vec<String>,
    /// Whether `verbs` is absent or null (a Go nil slice, encoded `null`; the other lists are
    /// `omitempty`).
    pub verbs_null: bool,
}

/// One `spec.webhookdefinitions` item (`WebhookDescription`), the fields the analyses need.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WebhookDefinition {
    /// `type`: `ValidatingAdmissionWebhook`, `MutatingAdmissionWebhook` or `ConversionWebhook`.
    pub type_: String,
    /// `generateName`.
    pub generate_name: String,
    /// `deploymentName`.
    pub deployment_name: String,
    /// `conversionCRDs`: the CRDs a conversion webhook converts.
    pub conversion_crds: Vec<String>,
}

impl CsvView {
    /// The bundle's CSV: its first `olm.bundle.object` manifest of kind `ClusterServiceVersion`,
    /// or else its first `olm.csv.metadata`; `None` when it has neither (or neither decodes).
    pub fn from_bundle(bundle: &Bundle) -> Option<CsvView> {
        CsvView::read_bundle(bundle, read_permissions)
    }

    /// [`CsvView::from_bundle`] without the install strategy's permissions (`None`), for the
    /// analyses that do not read them (install modes, APIs, webhooks): the browsers' core module,
    /// which has no RBAC preview, then holds no code to read permissions.
    pub fn from_bundle_without_permissions(bundle: &Bundle) -> Option<CsvView> {
        CsvView::read_bundle(bundle, |_, _| {})
    }

    /// `strategy`: what to read besides, from the manifest's `spec`.
    fn read_bundle(bundle: &Bundle, strategy: impl Fn(Option<&Node>, &mut CsvView)) -> Option<CsvView> {
        if let Some((i, csv)) = embedded_csv(&bundle.raw_properties) {
            let origin =
                CsvOrigin { flavour: CsvFlavour::BundleObject, property: i, pos: bundle.raw_properties[i].pos };
            let mut view = read_manifest(&csv, origin);
            strategy(child(Some(&csv), "spec"), &mut view);
            return Some(view);
        }
        let (i, p) = bundle.raw_properties.iter().enumerate().find(|(_, p)| p.type_.value == TYPE_CSV_METADATA)?;
        let value = p.value.as_ref().filter(|v| v.as_object().is_some())?;
        Some(read_metadata(value, CsvOrigin { flavour: CsvFlavour::CsvMetadata, property: i, pos: p.pos }))
    }

    /// The view of a CSV manifest (a whole `ClusterServiceVersion` object).
    pub fn from_manifest(csv: &Node) -> CsvView {
        let mut view = read_manifest(csv, CsvOrigin::default());
        read_permissions(child(Some(csv), "spec"), &mut view);
        view
    }
}

fn read_manifest(csv: &Node, origin: CsvOrigin) -> CsvView {
    let metadata = csv.field("metadata").map(|m| &m.value);
    let mut view = CsvView {
        origin,
        name: metadata.map(|m| text(m, "name")),
        annotations: metadata.map(string_map_of("annotations")).unwrap_or_default(),
        ..CsvView::default()
    };
    read_spec(child(csv, "spec"), &mut view);
    view
}

/// The CSV's `spec` into `view`.
fn read_spec(spec: Option<&Node>, view: &mut CsvView) {
    view.install_modes = install_modes(spec);
    let crds = child(spec, "customresourcedefinitions");
    (view.owned_crds, view.required_crds) = (crd_list(crds, "owned"), crd_list(crds, "required"));
    let apis = child(spec, "apiservicedefinitions");
    (view.owned_api_services, view.required_api_services) = (api_list(apis, "owned"), api_list(apis, "required"));
    view.webhooks = Some(items(spec, "webhookdefinitions").iter().map(webhook).collect());
}

/// The install strategy's `permissions` and `clusterPermissions` of the CSV's `spec` into `view`.
fn read_permissions(spec: Option<&Node>, view: &mut CsvView) {
    let strategy = child(child(spec, "install"), "spec");
    view.permissions = Some(items(strategy, "permissions").iter().map(permissions).collect());
    view.cluster_permissions = Some(items(strategy, "clusterPermissions").iter().map(permissions).collect());
}

/// An `olm.csv.metadata` value (opm's `CSVMetadata`): install modes, CRD and API service
/// descriptions, annotations; no install strategy and no webhooks.
fn read_metadata(value: &Node, origin: CsvOrigin) -> CsvView {
    let crds = child(value, "crdDescriptions");
    let apis = child(value, "apiServiceDefinitions");
    CsvView {
        origin,
        name: None,
        annotations: string_map_of("annotations")(value),
        install_modes: install_modes(Some(value)),
        owned_crds: crd_list(crds, "owned"),
        required_crds: crd_list(crds, "required"),
        owned_api_services: api_list(apis, "owned"),
        required_api_services: api_list(apis, "required"),
        permissions: None,
        cluster_permissions: None,
        webhooks: None,
    }
}

fn install_modes(owner: Option<&Node>) -> Vec<InstallMode> {
    items(owner, "installModes")
        .iter()
        .map(|m| InstallMode {
            type_: text(m, "type"),
            supported: matches!(child(m, "supported").map(|s| &s.value), Some(Value::Bool(true))),
        })
        .collect()
}

fn crd_list(owner: Option<&Node>, field: &str) -> Vec<CrdDescription> {
    items(owner, field)
        .iter()
        .map(|c| CrdDescription { name: text(c, "name"), version: text(c, "version"), kind: text(c, "kind") })
        .collect()
}

fn api_list(owner: Option<&Node>, field: &str) -> Vec<ApiServiceDescription> {
    items(owner, field)
        .iter()
        .map(|a| ApiServiceDescription {
            name: text(a, "name"),
            group: text(a, "group"),
            version: text(a, "version"),
            kind: text(a, "kind"),
        })
        .collect()
}

fn permissions(p: &Node) -> StrategyPermissions {
    StrategyPermissions {
        service_account_name: text(p, "serviceAccountName"),
        rules: items(Some(p), "rules").iter().map(rule).collect(),
        rules_null: is_null(p, "rules"),
    }
}

fn rule(r: &Node) -> PolicyRule {
    PolicyRule {
        api_groups: strings(r, "apiGroups"),
        resources: strings(r, "resources"),
        resource_names: strings(r, "resourceNames"),
        verbs: strings(r, "verbs"),
        non_resource_urls: strings(r, "nonResourceURLs"),
        verbs_null: is_null(r, "verbs"),
    }
}

fn webhook(w: &Node) -> WebhookDefinition {
    WebhookDefinition {
        type_: text(w, "type"),
        generate_name: text(w, "generateName"),
        deployment_name: text(w, "deploymentName"),
        conversion_crds: strings(w, "conversionCRDs"),
    }
}

// Reading Go-bound fields of a value tree: absent or mistyped fields read as empty.

fn child<'a>(owner: impl Into<Option<&'a Node>>, field: &str) -> Option<&'a Node> {
    owner.into()?.field(field).map(|m| &m.value)
}

fn items<'a>(owner: impl Into<Option<&'a Node>>, field: &str) -> &'a [Node] {
    child(owner, field).and_then(Node::as_array).unwrap_or(&[])
}

/// Whether `field` is absent or null: what Go decodes into a nil slice or map.
fn is_null(owner: &Node, field: &str) -> bool {
    matches!(child(owner, field).map(|n| &n.value), None | Some(Value::Null))
}

fn text(owner: &Node, field: &str) -> String {
    child(owner, field).and_then(Node::as_str).unwrap_or("").to_string()
}

fn strings(owner: &Node, field: &str) -> Vec<String> {
    items(owner, field).iter().filter_map(|s| s.as_str().map(str::to_string)).collect()
}

fn string_map_of(field: &str) -> impl Fn(&Node) -> BTreeMap<String, String> + '_ {
    move |owner| {
        child(owner, field)
            .and_then(Node::as_object)
            .map(|ms| {
                crate::sort::btree_map(
                    ms.iter().filter_map(|m| Some((m.key.to_string(), m.value.as_str()?.to_string()))),
                )
            })
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::{load_files, FileInput};

    fn bundle_with(properties: &str) -> Bundle {
        let text = format!(
            r#"{{"schema":"olm.package","name":"p","defaultChannel":"c"}}
{{"schema":"olm.channel","package":"p","name":"c","entries":[{{"name":"p.v1"}}]}}
{{"schema":"olm.bundle","package":"p","name":"p.v1","image":"x/p:1","properties":[{{"type":"olm.package","value":{{"packageName":"p","version":"1.0.0"}}}},{properties}]}}"#
        );
        let (model, _) = crate::model::build(&load_files(&[FileInput::new("c.json", text)]).config);
        model.packages[0].bundles[0].clone()
    }

    fn object(manifest: &str) -> String {
        use ::base64::Engine as _;
        let data = ::base64::engine::general_purpose::STANDARD.encode(manifest);
        format!(r#"{{"type":"olm.bundle.object","value":{{"data":"{data}"}}}}"#)
    }

    const CSV: &str = r#"
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: p.v1
  annotations: {olm.properties: "[]"}
spec:
  installModes:
  - {type: OwnNamespace, supported: true}
  - {type: AllNamespaces, supported: false}
  - {type: OwnNamespace, supported: false}
  customresourcedefinitions:
    owned: [{name: geese.birds.com, version: v1alpha1, kind: Goose}]
    required: [{name: moose.mammals.com, version: v1, kind: Moose}]
  apiservicedefinitions:
    owned: [{name: ducks, group: birds.com, version: v1, kind: Duck}]
  install:
    strategy: deployment
    spec:
      permissions:
      - serviceAccountName: op
        rules: [{apiGroups: [""], resources: [configmaps], verbs: [get, list]}]
      clusterPermissions:
      - serviceAccountName: op
        rules: [{nonResourceURLs: [/metrics], verbs: [get]}]
  webhookdefinitions:
  - {type: ConversionWebhook, generateName: c.birds.com, deploymentName: op, conversionCRDs: [geese.birds.com]}
"#;

    #[test]
    fn a_bundle_object_csv_gives_every_field() {
        let other = object("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");
        let b = bundle_with(&format!("{other},{}", object(CSV)));
        assert_eq!(CsvView::from_bundle_without_permissions(&b).expect("a CSV").permissions, None);
        let v = CsvView::from_bundle(&b).expect("a CSV");
        assert_eq!(v.origin.flavour, CsvFlavour::BundleObject);
        assert_eq!(v.origin.property, 2, "the ConfigMap before it is skipped");
        assert_eq!(v.name.as_deref(), Some("p.v1"));
        assert_eq!(v.annotations["olm.properties"], "[]");
        let modes: Vec<(&str, bool)> = v.install_modes.iter().map(|m| (m.type_.as_str(), m.supported)).collect();
        assert_eq!(modes, [("OwnNamespace", true), ("AllNamespaces", false), ("OwnNamespace", false)]);
        assert_eq!(v.owned_crds[0].plural_and_group(), Some(("geese", "birds.com")));
        assert_eq!(v.required_crds[0].kind, "Moose");
        assert_eq!(v.owned_api_services[0].group, "birds.com");
        let perms = v.permissions.as_ref().unwrap();
        assert_eq!(perms[0].service_account_name, "op");
        assert_eq!(perms[0].rules[0].api_groups, [""]);
        assert_eq!(perms[0].rules[0].verbs, ["get", "list"]);
        assert_eq!(v.cluster_permissions.as_ref().unwrap()[0].rules[0].non_resource_urls, ["/metrics"]);
        let hooks = v.webhooks.as_ref().unwrap();
        assert_eq!(
            (hooks[0].type_.as_str(), hooks[0].conversion_crds.as_slice()),
            ("ConversionWebhook", &["geese.birds.com".to_string()][..])
        );
    }

    #[test]
    fn csv_metadata_carries_no_permissions_or_webhooks() {
        let meta = r#"{"type":"olm.csv.metadata","value":{"installModes":[{"type":"AllNamespaces","supported":true}],
            "crdDescriptions":{"owned":[{"name":"geese.birds.com","version":"v1","kind":"Goose"}]},
            "apiServiceDefinitions":{},"annotations":{"a":"b"}}}"#;
        let v = CsvView::from_bundle(&bundle_with(meta)).expect("a CSV");
        assert_eq!(v.origin.flavour, CsvFlavour::CsvMetadata);
        assert_eq!(v.install_modes, [InstallMode { type_: "AllNamespaces".into(), supported: true }]);
        assert_eq!(v.owned_crds[0].kind, "Goose");
        assert_eq!(v.annotations["a"], "b");
        assert_eq!((v.permissions, v.cluster_permissions, v.webhooks), (None, None, None));
    }

    #[test]
    fn a_bundle_object_csv_wins_over_csv_metadata() {
        let meta = r#"{"type":"olm.csv.metadata","value":{"installModes":[]}}"#;
        let v = CsvView::from_bundle(&bundle_with(&format!("{meta},{}", object(CSV)))).unwrap();
        assert_eq!(v.origin.flavour, CsvFlavour::BundleObject);
    }

    #[test]
    fn absent_or_null_rules_and_verbs_are_told_from_empty_lists() {
        // Go decodes an absent or null list into a nil slice, which encoding/json writes as null.
        let csv = "kind: ClusterServiceVersion\nspec:\n  install:\n    spec:\n      permissions:\n      - {serviceAccountName: a}\n      - {serviceAccountName: b, rules: [{resources: [x]}, {verbs: []}]}\n";
        let v = CsvView::from_bundle(&bundle_with(&object(csv))).unwrap();
        let perms = v.permissions.unwrap();
        assert!(perms[0].rules_null && !perms[1].rules_null);
        assert!(perms[1].rules[0].verbs_null && !perms[1].rules[1].verbs_null);
    }

    #[test]
    fn no_csv_and_mistyped_fields() {
        assert_eq!(
            CsvView::from_bundle(&bundle_with(r#"{"type":"olm.gvk","value":{"group":"g","version":"v","kind":"K"}}"#)),
            None
        );
        let csv = "kind: ClusterServiceVersion\nspec:\n  installModes: {type: OwnNamespace}\n  install: {spec: {permissions: 3}}\n";
        let v = CsvView::from_bundle(&bundle_with(&object(csv))).unwrap();
        assert!(v.install_modes.is_empty());
        assert_eq!(v.permissions, Some(vec![]), "declared by the flavour, none readable");
        assert_eq!(v.name, None, "no metadata");
    }
}
