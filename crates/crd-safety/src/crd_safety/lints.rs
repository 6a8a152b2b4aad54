//! The CRD checks as a lint group of `validate`: when a catalog carries CRDs
//! (`olm.bundle.object`), every upgrade edge's findings become lints located at the new bundle's
//! channel entry (the CRD's property related), with the levels of the lint configuration.
//! A catalog without CRDs adds nothing (the `crd-safety` command says so; `validate` does not).
//! Not in the browsers' core module: `validate` itself does not know this crate, the CLI and
//! the tools add these findings to its report.

use super::catalog::{check_each_edge, CatalogOptions};
use crate::diagnostic::{sort_diagnostics, Code, Diagnostic};
use crate::model::Model;
use crate::validate::{apply_levels, Options, PackageIndex, Validated};

/// The CRD findings of every upgrade edge of `model`, as lints (levels not yet applied); none
/// when the catalog carries no CRDs. Each edge's checks become findings as the edge is checked,
/// and only the findings are kept.
pub fn catalog_lints(model: &Model) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let check = check_each_edge(model, &CatalogOptions::default(), |e| e.diagnostics_into(&mut found));
    if check.bundles_with_crds == 0 {
        return Vec::new();
    }
    found.extend(check.diagnostics().into_iter().filter(|d| d.code != Code::CrdNoneInCatalog));
    found
}

/// Add the CRD lints to a validation's report, at the levels `options` configure (none when
/// `options.lints` is off), and give the report its verdict again.
pub fn add_to_report(validated: &mut Validated, options: &Options) {
    if !options.lints {
        return;
    }
    let mut found = catalog_lints(&validated.model);
    if found.is_empty() {
        return;
    }
    apply_levels(&mut found, &options.config, &PackageIndex::new(&validated.loaded.config));
    let report = &mut validated.report;
    report.diagnostics.append(&mut found);
    sort_diagnostics(&mut report.diagnostics);
    report.valid = !report.diagnostics.iter().any(Diagnostic::is_error);
}
