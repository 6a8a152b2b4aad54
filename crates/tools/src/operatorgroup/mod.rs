//! OperatorGroups and install modes: where an operator may run and what OLM does with its CSV,
//! answered from the catalog before anything is installed (spec: resolver.md §9).
//!
//! - [`install_modes`]: the install mode set and `Supports` with OLM's messages (no inference).
//! - [`provided_apis`]: the `olm.providedAPIs` annotation (parse, render) and a CSV's APIs.
//! - [`targets`]: a group's target namespaces and the sets OLM intersects.
//! - [`reconcile`]: provided-API reconciliation and what one CSV sync does with it.
//! - [`mod@membership`]: a CSV's outcome in a cluster's OperatorGroups, and the annotations OLM writes.
//! - [`mod@install_plan`]: a bundle's install modes, what it would watch under each kind of group, and
//!   lints about its install modes.
//! - [`rbac`]: the RBAC OLM generates for a CSV ([`rbac_names`]: its names and hash labels,
//!   [`rbac_check`]: OLM's permission check, [`rbac_text`]: the text rendering,
//!   [`rbac_manifests`]: the Kubernetes manifests).
//! - [`rbac_bundle`]: the RBAC previews of one catalog bundle, as the surfaces ask for them.
//! - [`mod@check`]: one check (membership and install summary) with a text rendering, for the surfaces.
//!
//! Reads the model's CSV view ([`crate::model::csv::CsvView`]) and the cluster description
//! ([`crate::cluster::operator_groups`]); decides, and never writes to either.

pub mod check;
pub mod install_modes;
pub mod install_plan;
pub mod membership;
pub mod multitenancy;
pub mod provided_apis;
pub mod rbac;
pub mod rbac_bundle;
pub mod rbac_check;
pub mod rbac_manifests;
pub mod rbac_names;
pub mod rbac_rule;
pub mod rbac_text;
pub mod reconcile;
pub mod targets;

pub use check::{check, CheckReport};
pub use install_modes::{InstallModeSet, InstallModeType, Unsupported};
pub use install_plan::{install_plan, install_plan_of, InstallPlan};
pub use membership::{membership, Membership};
pub use provided_apis::{parse_provided_apis, render_provided_apis, ApiSet};
pub use reconcile::{reconcile_api_intersection, ApiReconciliation};
pub use targets::{operator_group_targets, GroupSurface};

/// The status reasons OLM gives a CSV that its OperatorGroup checks fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Reason {
    /// No OperatorGroup in the CSV's namespace.
    NoOperatorGroup,
    /// More than one OperatorGroup in the CSV's namespace.
    TooManyOperatorGroups,
    /// The group selects no namespace.
    NoTargetNamespaces,
    /// The CSV lists an install mode type twice.
    InvalidInstallModes,
    /// The CSV's install modes do not allow the group's target namespaces.
    UnsupportedOperatorGroup,
    /// An intersecting group provides some of the CSV's APIs.
    InterOperatorGroupOwnerConflict,
    /// The CSV would change a static group's provided APIs.
    #[serde(rename = "CannotModifyStaticOperatorGroupProvidedAPIs")]
    CannotModifyStaticProvidedApis,
}

impl Reason {
    /// The reason as OLM writes it in `status.reason`.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::NoOperatorGroup => "NoOperatorGroup",
            Reason::TooManyOperatorGroups => "TooManyOperatorGroups",
            Reason::NoTargetNamespaces => "NoTargetNamespaces",
            Reason::InvalidInstallModes => "InvalidInstallModes",
            Reason::UnsupportedOperatorGroup => "UnsupportedOperatorGroup",
            Reason::InterOperatorGroupOwnerConflict => "InterOperatorGroupOwnerConflict",
            Reason::CannotModifyStaticProvidedApis => "CannotModifyStaticOperatorGroupProvidedAPIs",
        }
    }
}

/// A failed CSV: phase `Failed` with this reason and message (never terminal: OLM retries when
/// the cause goes away).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Failure {
    /// `status.reason`.
    pub reason: Reason,
    /// `status.message`, OLM's text.
    pub message: String,
}

impl Failure {
    /// A failure with `reason` and `message`.
    pub fn new(reason: Reason, message: impl Into<String>) -> Failure {
        Failure { reason, message: message.into() }
    }
}

/// Where OLM's syncs leave a CSV.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "outcome", rename_all = "camelCase")]
pub enum Outcome {
    /// The group checks pass: the CSV goes on to `Pending` (requirements not yet checked).
    Supported,
    /// Phase `Failed` with a reason.
    Failed(Failure),
    /// OLM stops syncing the CSV without a reason (it logs and leaves the CSV as it is).
    Stalled {
        /// Why.
        message: String,
    },
    /// The OperatorGroup itself is invalid: OLM cannot compute its namespaces.
    InvalidGroup {
        /// Why.
        message: String,
    },
}

impl Outcome {
    /// Whether the CSV passes the group checks.
    pub fn is_supported(&self) -> bool {
        matches!(self, Outcome::Supported)
    }
}
