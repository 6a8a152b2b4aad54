//! The JSON format of an OperatorGroup check (the CLI's `operatorgroup CHECK.json`): the shape of
//! an `installmode-supports` case `input` of the `operatorgroup` conformance suite
//! (`installModes` or `installModesList`, `operatorNamespace`, `targetNamespaces`), extended with
//! the cluster (`namespaces`, `operatorGroups`), the CSV's provided APIs (`providedAPIs`), and a
//! catalog bundle whose CSV is checked instead of the inline one (`path`, `package`, `bundle`).
//!
//! [`CheckJson::into_check`] turns it into a [`Check`]: the bundle's [`CsvView`], the namespace
//! it is installed in, and the cluster's groups. Without `operatorGroups`, `targetNamespaces`
//! stands for one OperatorGroup in the operator's namespace whose status lists them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::operator_groups::{GroupCluster, Namespace, OperatorGroup};
use crate::diagnostic::Location;
use crate::model::csv::{ApiServiceDescription, CsvView, InstallMode};
use crate::model::Model;

/// An OperatorGroup check as JSON.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckJson {
    /// An FBC directory or file holding the bundle (read by the caller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The bundle's package, with `path`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    /// The bundle's name, with `path`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bundle: Option<String>,
    /// Inline install modes, type → supported (without `path`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub install_modes: Option<BTreeMap<String, bool>>,
    /// Inline install modes as a CSV lists them, duplicates kept (without `path`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub install_modes_list: Option<Vec<InstallModeJson>>,
    /// Inline provided APIs (without `path`).
    #[serde(default, rename = "providedAPIs", skip_serializing_if = "Vec::is_empty")]
    pub provided_apis: Vec<GvkJson>,
    /// The namespace the CSV is created in.
    pub operator_namespace: String,
    /// Without `operatorGroups`: the one group's status namespaces (`""` is all namespaces).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_namespaces: Option<Vec<String>>,
    /// The cluster's namespaces (for label selectors).
    #[serde(default)]
    pub namespaces: Vec<Namespace>,
    /// The cluster's OperatorGroups.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operator_groups: Option<Vec<OperatorGroup>>,
    /// Instances of the package across tenants (bundles of the same `path` and `package`), for
    /// the multitenancy check.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instances: Vec<InstanceJson>,
}

/// One instance of the operator for one tenant.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InstanceJson {
    /// The operator namespace of the instance.
    pub namespace: String,
    /// The bundle installed there (of the check's `package`).
    pub bundle: String,
    /// Its group's target namespaces; without it, the group of `operatorGroups` in `namespace`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_namespaces: Option<Vec<String>>,
}

/// An instance ready for the analysis.
#[derive(Debug, Clone)]
pub struct TenantInstance {
    /// The operator namespace.
    pub namespace: String,
    /// The target namespaces given, if any.
    pub target_namespaces: Option<Vec<String>>,
    /// The bundle.
    pub bundle: crate::model::Bundle,
}

/// One install mode.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct InstallModeJson {
    /// `type`.
    #[serde(rename = "type")]
    pub type_: String,
    /// `supported`.
    #[serde(default)]
    pub supported: bool,
}

/// A group/version/kind.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct GvkJson {
    /// `group`.
    #[serde(default)]
    pub group: String,
    /// `version`.
    #[serde(default)]
    pub version: String,
    /// `kind`.
    #[serde(default)]
    pub kind: String,
}

/// A check ready for the analysis.
#[derive(Debug, Clone)]
pub struct Check {
    /// The CSV checked.
    pub csv: CsvView,
    /// Where the CSV was read (the bundle's property), for findings.
    pub at: Location,
    /// The bundle's name, when read from a catalog.
    pub bundle: Option<String>,
    /// The namespace the CSV is created in.
    pub namespace: String,
    /// The cluster's namespaces and groups.
    pub cluster: GroupCluster,
    /// Instances of the package across tenants (empty: no multitenancy check).
    pub instances: Vec<TenantInstance>,
}

/// Why a check cannot be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckError {
    /// `path` without `package` and `bundle`.
    MissingBundle,
    /// The caller could not load `path`.
    Load(String),
    /// No such package in the catalog.
    UnknownPackage(String),
    /// No such bundle in the package.
    UnknownBundle(String, String),
    /// The bundle has no CSV.
    NoCsv(String),
    /// `instances` without a catalog `path`.
    InstancesWithoutPath,
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckError::MissingBundle => f.write_str("a check with a catalog `path` needs `package` and `bundle`"),
            CheckError::Load(m) => f.write_str(m),
            CheckError::UnknownPackage(p) => write!(f, "no package {p:?} in the catalog"),
            CheckError::UnknownBundle(p, b) => write!(f, "package {p:?} has no bundle {b:?}"),
            CheckError::InstancesWithoutPath => {
                f.write_str("`instances` name bundles of the catalog: they need `path` and `package`")
            }
            CheckError::NoCsv(b) => {
                write!(f, "bundle {b:?} has no ClusterServiceVersion (no olm.bundle.object CSV, no olm.csv.metadata)")
            }
        }
    }
}

impl std::error::Error for CheckError {}

impl CheckJson {
    /// The check this JSON describes; `load` reads the catalog at `path` (it may refuse).
    pub fn into_check(self, load: &mut dyn FnMut(&str) -> Result<Model, String>) -> Result<Check, CheckError> {
        match &self.path {
            Some(path) => {
                if self.package.is_none() || self.bundle.is_none() {
                    return Err(CheckError::MissingBundle);
                }
                let model = load(path).map_err(CheckError::Load)?;
                self.into_check_in(Some(&model))
            }
            None => self.into_check_in(None),
        }
    }

    /// The check this JSON describes, its bundle (`package`, `bundle`) read from `catalog`, a
    /// catalog already loaded (`path` is then ignored); without a catalog, the inline CSV.
    pub fn into_check_in(self, catalog: Option<&Model>) -> Result<Check, CheckError> {
        let (csv, at, bundle, instances) = match catalog {
            Some(model) => {
                let (package, name) =
                    self.package.as_deref().zip(self.bundle.as_deref()).ok_or(CheckError::MissingBundle)?;
                let p = model.package(package).ok_or_else(|| CheckError::UnknownPackage(package.into()))?;
                let find =
                    |name: &str| p.bundle(name).ok_or_else(|| CheckError::UnknownBundle(package.into(), name.into()));
                let b = find(name)?;
                let csv = CsvView::from_bundle_without_permissions(b).ok_or_else(|| CheckError::NoCsv(name.into()))?;
                let at = b.source.at(csv.origin.pos, format!("/properties/{}", csv.origin.property));
                let instances = self
                    .instances
                    .iter()
                    .map(|i| {
                        Ok(TenantInstance {
                            namespace: i.namespace.clone(),
                            target_namespaces: i.target_namespaces.clone(),
                            bundle: find(&i.bundle)?.clone(),
                        })
                    })
                    .collect::<Result<Vec<_>, CheckError>>()?;
                (csv, at, Some(name.to_string()), instances)
            }
            None if !self.instances.is_empty() => return Err(CheckError::InstancesWithoutPath),
            None => (self.inline_csv(), Location::default(), None, Vec::new()),
        };
        let groups = match self.operator_groups {
            Some(groups) => groups,
            None => vec![OperatorGroup {
                name: "operator-group".into(),
                namespace: self.operator_namespace.clone(),
                status_namespaces: Some(self.target_namespaces.unwrap_or_default()),
                ..OperatorGroup::default()
            }],
        };
        let cluster = GroupCluster { namespaces: self.namespaces, groups };
        Ok(Check { csv, at, bundle, namespace: self.operator_namespace, cluster, instances })
    }

    /// The CSV written inline: its install modes and provided APIs (as API services, which carry
    /// group, version and kind as they are).
    fn inline_csv(&self) -> CsvView {
        let install_modes = match (&self.install_modes_list, &self.install_modes) {
            (Some(list), _) => {
                list.iter().map(|m| InstallMode { type_: m.type_.clone(), supported: m.supported }).collect()
            }
            (None, Some(map)) => map.iter().map(|(t, s)| InstallMode { type_: t.clone(), supported: *s }).collect(),
            (None, None) => Vec::new(),
        };
        let owned_api_services = self
            .provided_apis
            .iter()
            .map(|g| ApiServiceDescription {
                name: String::new(),
                group: g.group.clone(),
                version: g.version.clone(),
                kind: g.kind.clone(),
            })
            .collect();
        CsvView { install_modes, owned_api_services, ..CsvView::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(json: &str) -> Result<Check, CheckError> {
        let c: CheckJson = serde_json::from_str(json).unwrap();
        c.into_check(&mut |_| Err("no catalogs here".into()))
    }

    #[test]
    fn a_case_input_is_a_check_with_one_group() {
        let c = check(r#"{"installModes":{"OwnNamespace":true},"operatorNamespace":"ops","targetNamespaces":["ops"]}"#)
            .unwrap();
        assert_eq!(c.cluster.groups.len(), 1);
        assert_eq!(c.cluster.groups[0].namespace, "ops");
        assert_eq!(c.cluster.groups[0].status_namespaces.as_deref(), Some(&["ops".to_string()][..]));
        assert_eq!(c.csv.install_modes[0].type_, "OwnNamespace");
    }

    #[test]
    fn a_catalog_bundle_needs_its_names_and_a_loader() {
        let e = check(r#"{"path":"c","operatorNamespace":"ops"}"#).unwrap_err();
        assert_eq!(e, CheckError::MissingBundle);
        let e = check(r#"{"path":"c","package":"p","bundle":"b","operatorNamespace":"ops"}"#).unwrap_err();
        assert_eq!(e.to_string(), "no catalogs here");
    }
}
