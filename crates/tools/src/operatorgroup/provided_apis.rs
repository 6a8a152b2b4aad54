//! The `olm.providedAPIs` annotation of an OperatorGroup and the API sets OLM compares with it.
//!
//! An API is a group/version/kind ([`Gvk`]); OLM's keys also carry the plural, which it strips
//! (`StripPlural`) before every comparison, so sets here never hold one. The annotation is
//! `Kind.version.group` items, comma-separated: [`parse_provided_apis`] reads it as
//! `GVKStringToProvidedAPISet` does, [`render_provided_apis`] writes it as `APISet.String` does.

use std::collections::BTreeSet;

use crate::model::csv::CsvView;
use crate::property::Gvk;

/// A set of APIs (plurals stripped).
pub type ApiSet = BTreeSet<Gvk>;

/// The annotation's APIs: spaces removed, split at commas; an item with at least two dots is
/// `Kind.version.group` (split at its first two dots, so the group may hold dots); any other
/// item is ignored.
pub fn parse_provided_apis(annotation: &str) -> ApiSet {
    let compact: String = annotation.chars().filter(|&c| c != ' ').collect();
    compact
        .split(',')
        .filter_map(|item| {
            let mut parts = item.splitn(3, '.');
            let (kind, version, group) = (parts.next()?, parts.next()?, parts.next()?);
            Some(Gvk::new(group, version, kind))
        })
        .collect()
}

/// The annotation text of `apis`: each `Kind.version.group`, the texts sorted and joined with
/// commas (`""` for no APIs).
pub fn render_provided_apis(apis: &ApiSet) -> String {
    let mut items: Vec<String> = apis.iter().map(|a| format!("{}.{}.{}", a.kind, a.version, a.group)).collect();
    crate::sort::sort(&mut items);
    items.join(",")
}

/// Why OLM cannot read a CSV's API surface (`apiSurfaceOfCSV`): a CRD name without a dot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrdNameError(pub String);

impl std::fmt::Display for CrdNameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "error parsing crd name: {}", self.0)
    }
}

impl std::error::Error for CrdNameError {}

/// The APIs a CSV provides, plurals stripped: its owned CRDs (the group from the CRD name after
/// its first dot, version and kind from the description) and its owned API services. OLM refuses
/// the CSV when an owned or required CRD name has no dot.
pub fn csv_provided_apis(csv: &CsvView) -> Result<ApiSet, CrdNameError> {
    let mut apis = ApiSet::new();
    for crd in &csv.owned_crds {
        let (_, group) = crd.plural_and_group().ok_or_else(|| CrdNameError(crd.name.clone()))?;
        apis.insert(Gvk::new(group, &crd.version, &crd.kind));
    }
    for api in &csv.owned_api_services {
        apis.insert(Gvk::new(&api.group, &api.version, &api.kind));
    }
    if let Some(bad) = csv.required_crds.iter().find(|c| c.plural_and_group().is_none()) {
        return Err(CrdNameError(bad.name.clone()));
    }
    Ok(apis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::csv::{ApiServiceDescription, CrdDescription};

    fn gvk(kind: &str, version: &str, group: &str) -> Gvk {
        Gvk::new(group, version, kind)
    }

    #[test]
    fn parse_keeps_items_with_two_dots() {
        let apis = parse_provided_apis(" Goose.v1alpha1.birds.com , Moose.v1alpha1,Goat,Egret.v1beta1.birds.com");
        assert_eq!(apis, ApiSet::from([gvk("Goose", "v1alpha1", "birds.com"), gvk("Egret", "v1beta1", "birds.com")]));
        assert!(parse_provided_apis("").is_empty());
        assert!(parse_provided_apis(",,,,,alkjahsdfjlh!@#$%").is_empty());
    }

    #[test]
    fn render_sorts_the_texts() {
        let apis = ApiSet::from([
            gvk("Goose", "v1alpha1", "birds.com"),
            gvk("", "v1alpha1", "birds.com"),
            gvk("Egret", "v1", "z.io"),
        ]);
        assert_eq!(render_provided_apis(&apis), ".v1alpha1.birds.com,Egret.v1.z.io,Goose.v1alpha1.birds.com");
        assert_eq!(render_provided_apis(&ApiSet::new()), "");
    }

    #[test]
    fn a_csv_provides_its_owned_crds_and_api_services() {
        let mut csv = CsvView::default();
        csv.owned_crds.push(CrdDescription {
            name: "geese.birds.com".into(),
            version: "v1".into(),
            kind: "Goose".into(),
        });
        csv.owned_api_services.push(ApiServiceDescription {
            name: "ducks".into(),
            group: "birds.io".into(),
            version: "v2".into(),
            kind: "Duck".into(),
        });
        let apis = csv_provided_apis(&csv).unwrap();
        assert_eq!(render_provided_apis(&apis), "Duck.v2.birds.io,Goose.v1.birds.com");
        csv.required_crds.push(CrdDescription { name: "nodot".into(), ..Default::default() });
        assert_eq!(csv_provided_apis(&csv).unwrap_err().to_string(), "error parsing crd name: nodot");
    }
}
