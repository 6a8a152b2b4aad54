//! CRD upgrade safety: whether a new bundle's CustomResourceDefinitions may replace the old
//! bundle's on a cluster.
//!
//! - OLM v1's CRD Upgrade Safety preflight ([`preflight`]): operator-controller runs
//!   `sigs.k8s.io/crdify`'s default checks on the installed CRD and the new one and refuses the
//!   upgrade on any failure (a change no check classifies fails closed, as `unhandled`). Findings
//!   carry crdify's check names and messages, and [`Preflight::error_text`] is the preflight's
//!   error with its lines in a canonical order (upstream prints them in map order).
//! - OLM v0's rule ([`olm_v0_stored_version`]): a new CRD that drops a version the old one
//!   stores is refused ("risk of data loss").
//!
//! CRDs are read from manifests' value trees ([`read_crd`]; `declcfg::Node`, the tree every
//! catalog file and embedded `olm.bundle.object` is read into, so a CRD from any source is read
//! once the same way, Go's case-insensitive field binding included). Reading and comparing are
//! bounded: a schema nested too deep or too large is a [`CrdError`], never a stack overflow.

mod catalog;
mod compare;
mod crd;
mod flatten;
mod gocmp;
mod kube_version;
mod lints;
mod outcome;
mod path;
mod raw;
mod report;
mod rules;
mod schema;
mod sets;
mod store;
mod text;
mod unhandled;
mod walk;

pub use catalog::{check_catalog, CatalogCheck, CatalogOptions, EdgeCheck, SharedCrd};
pub use compare::MAX_VERSIONS;
pub use crd::{crd_name, into_crd, is_crd, read_crd, Crd, CrdError, CrdVersion, SchemaSource, CRD_API_VERSION};
pub use lints::{add_to_report, catalog_lints};
pub use outcome::{CrdCheck, CrdFinding, Outcome, Verdict};
pub use path::{check_path, StepCheck};
pub use raw::JsonText;
pub use report::{CatalogReport, EdgeReport};
pub use rules::Check;
pub use schema::{Schema, SchemaError, MAX_DEPTH, MAX_SCHEMAS};
pub use sets::{bundle_dir_crds, compare_crd_sets, crds_in_file, crds_of_bundle, stored_versions, FoundCrd};
pub use store::{CrdStore, StoredCrd};
pub use text::pairs_text;

use serde::Serialize;

/// Where a finding of the preflight applies.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "kind", content = "name", rename_all = "camelCase")]
pub enum Scope {
    /// The CRD as a whole (`scope`, `storedVersionRemoval`, `existingFieldRemoval`).
    Crd,
    /// A version of the old CRD against the same version of the new one.
    Version(String),
    /// A pair of the new CRD's served versions (`v1alpha1 -> v1`).
    Served(String),
}

/// One refusal of the preflight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The check that refused.
    pub check: Check,
    /// Where it applies.
    pub scope: Scope,
    /// The property's path (`^.spec.replicas`); empty for CRD-wide checks.
    pub property: String,
    /// crdify's message (`type changed : "string" -> "integer"`).
    pub message: String,
    /// What identifies the issue when the served versions' validator subtracts the old CRD's.
    #[serde(skip)]
    key: String,
    /// The position of its version in the CRD, for the canonical order.
    #[serde(skip)]
    index: usize,
}

impl Finding {
    fn new(check: Check, scope: Scope, property: String, message: String, key: String, index: usize) -> Finding {
        Finding { check, scope, property, message, key, index }
    }

    /// The finding's line in the preflight's error (`v1: ^.spec.a: type: type changed : …`).
    pub fn line(&self) -> String {
        match &self.scope {
            Scope::Crd => format!("{}: {}", self.check.name(), self.message),
            Scope::Version(v) | Scope::Served(v) => {
                format!("{v}: {}: {}: {}", self.property, self.check.name(), self.message)
            }
        }
    }

    /// The sort key of the canonical order: CRD-wide lines by check (removed fields by the new
    /// CRD's version order, then text), then same-version lines by the old CRD's version order,
    /// property and check, then served-version lines by pair, property and check; `unhandled`
    /// (last in [`Check`]'s order) last among a property's checks.
    fn order(&self) -> (u8, Check, usize, &str, &str, Check, &str) {
        match &self.scope {
            Scope::Crd => (0, self.check, self.index, "", "", self.check, &self.message),
            Scope::Version(_) => (1, Check::Default, self.index, "", &self.property, self.check, &self.message),
            Scope::Served(pair) => (2, Check::Default, 0, pair, &self.property, self.check, &self.message),
        }
    }
}

/// The preflight's verdict on one CRD: its refusals in canonical order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Preflight {
    /// The CRD's name.
    pub crd: String,
    /// Every refusal; none when the upgrade is safe.
    pub findings: Vec<Finding>,
}

impl Preflight {
    /// Whether the preflight lets the upgrade through.
    pub fn safe(&self) -> bool {
        self.findings.is_empty()
    }

    /// The preflight's error, as operator-controller words it, lines in canonical order:
    /// `validating upgrade for CRD "<name>": <line>` then one line per further refusal.
    pub fn error_text(&self) -> Option<String> {
        if self.findings.is_empty() {
            return None;
        }
        let lines: Vec<String> = self.findings.iter().map(Finding::line).collect();
        Some(format!("validating upgrade for CRD {}: {}", crate::gotext::quote(&self.crd), lines.join("\n")))
    }

    /// The names of the checks that refused, sorted, once each.
    pub fn checks(&self) -> Vec<Check> {
        let mut c: Vec<Check> = self.findings.iter().map(|f| f.check).collect();
        c.sort();
        c.dedup();
        c
    }
}

/// OLM v1's preflight on an installed CRD (`old`) and the new bundle's (`new`). `stored` are
/// the versions objects are stored in on the cluster; `None` takes the old CRD's
/// `status.storedVersions`, or when it has none (a CRD file as a bundle ships it) its storage
/// version, as a cluster that ran it would list. A schema that cannot be read where the two CRDs
/// differ (a field of the wrong type, beyond the nesting or size bounds) is an error: the pair
/// cannot be judged.
pub fn preflight(old: &Crd, new: &Crd, stored: Option<&[String]>) -> Result<Preflight, CrdError> {
    let fallback = if stored.is_none() { sets::stored_versions(old) } else { Vec::new() };
    let stored = stored.unwrap_or(&fallback);
    let findings = compare::compare(old, new, stored).map_err(CrdError::Schema)?;
    Ok(Preflight { crd: new.name.clone(), findings })
}

/// OLM v0's refusal of a new CRD that drops a stored version (the first of `stored` the new CRD
/// does not list), worded as OLM v0 words it.
pub fn olm_v0_stored_version(new: &Crd, stored: &[String]) -> Option<String> {
    let gone = stored.iter().find(|s| new.version(s).is_none())?;
    Some(format!(
        "risk of data loss updating {}: new CRD removes version {gone} that is listed as a stored version on the existing CRD",
        crate::gotext::quote(&new.name)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn olm_v0_refuses_a_new_crd_without_a_stored_version_in_its_words() {
        let new = Crd {
            name: "a.example.com".into(),
            versions: vec![CrdVersion { name: "v1".into(), served: true, storage: true, schema: None }],
            ..Crd::default()
        };
        assert_eq!(olm_v0_stored_version(&new, &["v1".into()]), None);
        assert_eq!(
            olm_v0_stored_version(&new, &["v1".into(), "v1alpha1".into()]).as_deref(),
            Some(
                "risk of data loss updating \"a.example.com\": new CRD removes version v1alpha1 that is listed as a \
                 stored version on the existing CRD"
            )
        );
    }
}
