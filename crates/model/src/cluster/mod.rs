//! What a cluster holds as OLM sees it, read once into checked values: the catalog sources
//! (each a checked [`Model`]), the operators installed in a namespace (their versions and typed
//! properties parsed here), their subscriptions, and the namespace's resolution settings.
//!
//! This is the resolver's one input. [`problem_json`] reads the JSON problem format (the
//! conformance cases, the CLI's `resolve PROBLEM.json`, the JS `resolve`) into it; a program
//! that already holds models builds a [`Cluster`] directly. [`v1_problem`] does the same for
//! OLM v1's single-package selection.

mod blobs;
pub mod operator_group_json;
pub mod operator_groups;
pub mod problem_json;
pub mod v1_problem;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::declcfg;
use crate::model::Model;
use crate::property::Property;
use crate::version::Version;

/// A namespace to resolve and everything OLM can see from it.
#[derive(Debug, Clone, Default)]
pub struct Cluster {
    /// The namespace being resolved (where the subscriptions and installed operators live).
    pub namespace: String,
    /// Namespaces whose catalogs are visible; `None` means `[namespace]`. OLM adds the global
    /// catalog namespace unless the OperatorGroup excludes it.
    pub resolution_namespaces: Option<Vec<String>>,
    /// Catalog sources, in the order OLM lists them.
    pub catalogs: Vec<CatalogSource>,
    /// ClusterServiceVersions present in the namespace.
    pub installed: Vec<InstalledCsv>,
    /// Subscriptions in the namespace.
    pub subscriptions: Vec<Subscription>,
    /// Downstream system constraints: each makes one catalog bundle prohibited, with a message.
    pub system_constraints: Vec<SystemConstraint>,
    /// The namespace's OperatorGroup has `upgradeStrategy: TechPreviewUnsafeFailForward`.
    pub fail_forward: bool,
}

/// A CatalogSource and the checked catalog it serves.
#[derive(Debug, Clone)]
pub struct CatalogSource {
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`.
    pub namespace: String,
    /// Higher is preferred (`spec.priority`, default 0).
    pub priority: i32,
    /// The catalog (shared: a loaded catalog is not copied per resolution).
    pub model: Arc<Model>,
}

/// An installed ClusterServiceVersion.
#[derive(Debug, Clone)]
pub struct InstalledCsv {
    /// `metadata.name`.
    pub name: String,
    /// `spec.version` as OLM reads it (`ParseTolerant`; empty or unparsable means `0.0.0`).
    pub version: Version,
    /// The properties OLM recorded (`operatorframework.io/properties`) or derived from the CSV,
    /// as written.
    pub raw_properties: Arc<[declcfg::Property]>,
    /// Each raw property parsed, with its index in `raw_properties`.
    pub properties: Vec<(usize, Property)>,
    /// `status.phase` (used by fail-forward).
    pub phase: Option<String>,
    /// `spec.replaces` (used by fail-forward).
    pub replaces: Option<String>,
}

impl InstalledCsv {
    /// An installed CSV from its `spec.version` text and raw properties, parsed as OLM does.
    pub fn new(name: &str, version: &str, raw_properties: Vec<declcfg::Property>) -> InstalledCsv {
        let version = Version::parse_tolerant(version).unwrap_or_else(|_| Version::new(0, 0, 0));
        let properties = crate::property::parse_all(&raw_properties);
        InstalledCsv {
            name: name.to_string(),
            version,
            raw_properties: raw_properties.into(),
            properties,
            phase: None,
            replaces: None,
        }
    }
}

/// A Subscription.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Subscription {
    /// `metadata.name`.
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
    /// The bundle (CSV) name.
    pub bundle: String,
    /// The message OLM reports.
    pub message: String,
}
