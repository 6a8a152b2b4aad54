//! What a resolution is asked: the catalogs (name, namespace, priority, packages), the operators
//! installed in the namespace, and the subscriptions. The JSON shape is the `input` of the
//! conformance cases in `olm-resolver.json`; catalogs can also be built from a loaded [`Model`].

use serde::{Deserialize, Serialize};

use crate::model::Model;

/// A resolution problem (OLM v0).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    /// The namespace being resolved (where the subscriptions and installed operators live).
    pub namespace: String,
    /// Namespaces whose catalogs are visible; default `[namespace]`. OLM adds the global catalog
    /// namespace unless the OperatorGroup excludes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolution_namespaces: Option<Vec<String>>,
    #[serde(default)]
    pub catalogs: Vec<Catalog>,
    /// ClusterServiceVersions present in the namespace.
    #[serde(default)]
    pub installed: Vec<InstalledOperator>,
    #[serde(default)]
    pub subscriptions: Vec<Subscription>,
    /// Downstream system constraints: each makes one catalog bundle prohibited, with a message.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub system_constraints: Vec<SystemConstraint>,
    /// The namespace's OperatorGroup has `upgradeStrategy: TechPreviewUnsafeFailForward`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fail_forward: bool,
}

/// A catalog source.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Catalog {
    pub name: String,
    pub namespace: String,
    /// Higher is preferred (CatalogSource `spec.priority`, default 0).
    #[serde(default)]
    pub priority: i32,
    #[serde(default)]
    pub packages: Vec<CatalogPackage>,
}

/// A package of a catalog.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogPackage {
    pub name: String,
    #[serde(default)]
    pub default_channel: Option<String>,
    #[serde(default)]
    pub channels: Vec<CatalogChannel>,
    #[serde(default)]
    pub bundles: Vec<CatalogBundle>,
}

/// A channel: its entries in catalog order.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct CatalogChannel {
    pub name: String,
    #[serde(default)]
    pub entries: Vec<CatalogEntry>,
}

/// A channel entry and its upgrade edges.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogEntry {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaces: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skips: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip_range: Option<String>,
}

/// A bundle: its version and properties (values as JSON).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct CatalogBundle {
    pub name: String,
    #[serde(default)]
    pub version: String,
    #[serde(default)]
    pub properties: Vec<PropertyValue>,
}

/// One property: its type and JSON value.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PropertyValue {
    #[serde(rename = "type")]
    pub type_: String,
    #[serde(default)]
    pub value: serde_json::Value,
}

/// An installed ClusterServiceVersion.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct InstalledOperator {
    pub name: String,
    /// `spec.version` (empty means `0.0.0`).
    #[serde(default)]
    pub version: String,
    /// The properties OLM recorded (`operatorframework.io/properties`) or derived from the CSV.
    #[serde(default)]
    pub properties: Vec<PropertyValue>,
    /// `status.phase` (used by fail-forward).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// `spec.replaces` (used by fail-forward).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaces: Option<String>,
}

/// A Subscription.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Subscription {
    pub name: String,
    /// `spec.name`.
    pub package: String,
    /// `spec.channel`; empty matches every channel.
    #[serde(default)]
    pub channel: String,
    /// `spec.source`.
    #[serde(default)]
    pub catalog: String,
    /// `spec.sourceNamespace`.
    #[serde(default)]
    pub catalog_namespace: String,
    /// `status.installedCSV`.
    #[serde(default, rename = "installedCSV", skip_serializing_if = "Option::is_none")]
    pub installed_csv: Option<String>,
    /// `spec.startingCSV`.
    #[serde(default, rename = "startingCSV", skip_serializing_if = "Option::is_none")]
    pub starting_csv: Option<String>,
}

/// A downstream system constraint prohibiting one catalog bundle.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SystemConstraint {
    pub bundle: String,
    pub message: String,
}

/// Property types the registry does not serve to the resolver.
const NOT_SERVED: &[&str] = &[crate::property::TYPE_BUNDLE_OBJECT, crate::property::TYPE_CSV_METADATA];

impl Catalog {
    /// A catalog from a loaded model: packages by name, channels by name, entries and bundles in
    /// catalog order; `olm.bundle.object` and `olm.csv.metadata` are left out, as the registry
    /// leaves them out of what it serves.
    pub fn from_model(name: &str, namespace: &str, priority: i32, model: &Model) -> Catalog {
        let packages = model
            .packages
            .iter()
            .map(|p| CatalogPackage {
                name: p.name.clone(),
                default_channel: Some(p.default_channel.value.clone()).filter(|d| !d.is_empty()),
                channels: p
                    .channels
                    .iter()
                    .filter(|c| c.source.is_some())
                    .map(|c| CatalogChannel {
                        name: c.name.clone(),
                        entries: c
                            .entries
                            .iter()
                            .map(|e| CatalogEntry {
                                name: e.name.value.clone(),
                                replaces: Some(e.replaces.value.clone()).filter(|r| !r.is_empty()),
                                skips: e.skips.iter().map(|s| s.value.clone()).collect(),
                                skip_range: e.skip_range.as_ref().map(|s| s.text.value.clone()),
                            })
                            .collect(),
                    })
                    .collect(),
                bundles: p
                    .bundles
                    .iter()
                    .map(|b| {
                        let properties: Vec<PropertyValue> = b
                            .raw_properties
                            .iter()
                            .filter(|pr| !NOT_SERVED.contains(&pr.type_.value.as_str()))
                            .map(|pr| PropertyValue {
                                type_: pr.type_.value.clone(),
                                value: pr.value.as_ref().map(|v| v.to_json()).unwrap_or_default(),
                            })
                            .collect();
                        let version = properties
                            .iter()
                            .find(|pr| pr.type_ == crate::property::TYPE_PACKAGE)
                            .and_then(|pr| pr.value.get("version"))
                            .and_then(|v| v.as_str())
                            .unwrap_or("")
                            .to_string();
                        CatalogBundle { name: b.name.value.clone(), version, properties }
                    })
                    .collect(),
            })
            .collect();
        Catalog { name: name.to_string(), namespace: namespace.to_string(), priority, packages }
    }
}
