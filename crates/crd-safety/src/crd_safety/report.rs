//! The checks of a catalog's edges as plain serialisable data: the CLI's `crd-safety --format
//! json` and the JS API's `crdSafety` result, one shape for both.

use std::collections::BTreeMap;

use serde::Serialize;

use super::catalog::{CatalogCheck, SharedCrd};
use super::outcome::{CrdCheck, CrdFinding};
use crate::diagnostic::{Diagnostic, Location};

/// `{safe, bundles, bundlesWithCrds, comparedPairs, unsafeEdgesByRule, edges, shared, findings}`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogReport<'a> {
    /// Whether every edge is safe.
    pub safe: bool,
    /// Bundles looked at.
    pub bundles: usize,
    /// Those that carry CRDs.
    pub bundles_with_crds: usize,
    /// Distinct CRD pairs compared.
    pub compared_pairs: usize,
    /// Unsafe edges counted by rule.
    pub unsafe_edges_by_rule: BTreeMap<&'static str, usize>,
    /// Every edge with CRDs.
    pub edges: Vec<EdgeReport<'a>>,
    /// CRDs provided by several packages.
    pub shared: &'a [SharedCrd],
    /// Every finding as a diagnostic at the new bundle's channel entry.
    pub findings: Vec<Diagnostic>,
}

/// One edge: `{package, channel, from, to, via, safe, location, findings}`.
#[derive(Debug, Serialize)]
pub struct EdgeReport<'a> {
    /// The package.
    pub package: &'a str,
    /// The channel.
    pub channel: &'a str,
    /// The bundle upgraded from.
    pub from: &'a str,
    /// The bundle upgraded to.
    pub to: &'a str,
    /// `replaces`, `skips`, `skipRange`.
    pub via: &'a [&'static str],
    /// Whether OLM v0 and v1 take it.
    pub safe: bool,
    /// The new bundle's channel entry.
    pub location: &'a Location,
    /// Its CRDs' findings.
    pub findings: Vec<CrdFinding>,
}

impl CatalogCheck {
    /// The checks as plain data.
    pub fn report(&self) -> CatalogReport<'_> {
        let edges = self
            .edges
            .iter()
            .map(|e| EdgeReport {
                package: &e.package,
                channel: &e.channel,
                from: &e.from,
                to: &e.to,
                via: &e.via,
                safe: e.safe(),
                location: &e.location,
                findings: e.crds.iter().flat_map(CrdCheck::findings).collect(),
            })
            .collect();
        CatalogReport {
            safe: self.safe(),
            bundles: self.bundles,
            bundles_with_crds: self.bundles_with_crds,
            compared_pairs: self.compared_pairs,
            unsafe_edges_by_rule: self.unsafe_edges_by_rule(),
            edges,
            shared: &self.shared,
            findings: self.diagnostics(),
        }
    }
}
