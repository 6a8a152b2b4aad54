//! `olm-catalog operatorgroup`: a CSV checked against a cluster's OperatorGroups as OLM does.

use std::path::{Path, PathBuf};

use olm_catalog::cluster::operator_group_json::CheckJson;
use olm_catalog::model;

use crate::args::TextOrJson;
use crate::catalog::load;
use crate::output::{answer, push_json, Fail};

pub const EXIT_CODES: &str = "Exit codes:
- 0: supported
- 1: a failure reason (or a CSV or group OLM cannot process)
- 2: usage or I/O error";

#[derive(clap::Args)]
pub struct Args {
    /// The check as JSON: `operatorNamespace`, `namespaces`, `operatorGroups` (or
    /// `targetNamespaces`), and a catalog bundle (`path` relative to this file, `package`,
    /// `bundle`) or inline `installModes` / `installModesList` and `providedAPIs`.
    ///
    /// A group takes `targetNamespaces`, or a `selector` (`matchLabels`, `matchExpressions`) over
    /// `namespaces`, `staticProvidedAPIs`, `providedAPIsAnnotation`, `upgradeStrategy` and
    /// `statusNamespaces`. With `instances` (one bundle per tenant), the limits of the
    /// one-instance-per-tenant pattern are reported too (`multitenancy-*` warnings).
    check: PathBuf,
    /// Output format: the outcome, the syncs OLM goes through, the CSV annotations and the
    /// bundle's install modes; or JSON (`{bundle, namespace, membership, installPlan}`).
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    format: TextOrJson,
}

/// Read a check file (a catalog `path`, or an image's file, is relative to it; a registry
/// reference is read as it is), run it; exit 1 unless supported.
pub fn run(a: &Args, out: &mut String) -> Result<u8, Fail> {
    let file = &a.check;
    let text = std::fs::read_to_string(file).map_err(|e| Fail::at(file, e))?;
    let json: CheckJson =
        serde_json::from_str(&text).map_err(|e| Fail::at(file, format!("not an operatorgroup check: {e}")))?;
    let base = file.parent().unwrap_or(Path::new("."));
    let check = json
        .into_check(&mut |p| {
            load(&super::resolve::catalog_path(base, p)).map(|cfg| model::build(&cfg).0).map_err(|Fail(m)| m)
        })
        .map_err(|e| Fail::at(file, e))?;
    let report = olm_catalog::operatorgroup::check(&check);
    match a.format {
        TextOrJson::Json => push_json(out, &report)?,
        TextOrJson::Text => out.push_str(&report.to_text()),
    }
    Ok(answer(!report.membership.outcome.is_supported()))
}
