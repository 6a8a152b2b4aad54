//! What the checks say about one CRD of an upgrade: the preflight's verdict and OLM v0's, or
//! that the CRD is gone from the new bundle, or that it cannot be compared; and the same as
//! findings, each with its stable diagnostic code, crdify's rule name and the preflight's words.

use std::sync::Arc;

use serde::Serialize;

use super::{olm_v0_stored_version, preflight, Check, Crd, CrdError, Preflight, Scope};
use crate::diagnostic::{Code, Diagnostic, Location, Severity};

/// The verdict on one (old, new) CRD pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// OLM v1's preflight.
    pub preflight: Preflight,
    /// OLM v0's refusal, when it refuses (a stored version dropped).
    pub olm_v0: Option<String>,
}

impl Verdict {
    /// Both checks on `old` → `new`, with the versions objects are stored in on the cluster.
    pub fn of(old: &Crd, new: &Crd, stored: &[String]) -> Result<Verdict, CrdError> {
        Ok(Verdict { preflight: preflight(old, new, Some(stored))?, olm_v0: olm_v0_stored_version(new, stored) })
    }

    /// The outcome of comparing `old` with `new`: the verdict, or why they cannot be compared.
    pub(crate) fn outcome(old: &Crd, new: &Crd, stored: &[String]) -> Outcome {
        match Verdict::of(old, new, stored) {
            Ok(v) => Outcome::Compared { verdict: Arc::new(v) },
            Err(e) => Outcome::NotComparable { reason: format!("the schemas: {e}") },
        }
    }

    /// Whether both OLM v0 and OLM v1 let the upgrade through.
    pub fn safe(&self) -> bool {
        self.preflight.safe() && self.olm_v0.is_none()
    }
}

/// What happens to one CRD the old bundle provides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Outcome {
    /// The new bundle provides it too; the checks' verdict (shared by every edge with the same
    /// pair of CRDs).
    Compared {
        /// The verdict.
        verdict: Arc<Verdict>,
    },
    /// The new bundle no longer provides it: its objects are left without an owner.
    Removed,
    /// One of the two CRDs cannot be read, so the pair cannot be compared.
    NotComparable {
        /// Which side and why.
        reason: String,
    },
}

/// One CRD of an upgrade and what happens to it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CrdCheck {
    /// The CRD's name.
    pub crd: String,
    /// Where the old CRD is (file, or bundle property).
    pub old: Location,
    /// Where the new CRD is, when the new bundle has it.
    pub new: Option<Location>,
    /// What happens.
    pub outcome: Outcome,
}

/// One finding, as the CLI and the JS API show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CrdFinding {
    /// The stable diagnostic code (`crd-type`).
    pub code: Code,
    /// `error` (OLM refuses the upgrade, or it cannot be judged) or `warning`.
    pub severity: Severity,
    /// The rule: crdify's check name, or `olmV0StoredVersion`, `removed`, `notComparable`.
    pub rule: &'static str,
    /// The CRD's name.
    pub crd: String,
    /// The version (`v1`) or served pair (`v1alpha1 -> v1`), when the rule is about one.
    pub version: Option<String>,
    /// The property's path (`^.spec.replicas`), when the rule is about one.
    pub path: Option<String>,
    /// The refusal as OLM words it (`validating upgrade for CRD "…": …` for OLM v1's checks).
    pub message: String,
    /// Where: the new CRD (the old one when it is gone).
    pub location: Location,
}

impl Check {
    /// The diagnostic code of the check's findings.
    pub fn code(self) -> Code {
        match self {
            Check::Default => Code::CrdDefault,
            Check::Enum => Code::CrdEnum,
            Check::ExistingFieldRemoval => Code::CrdExistingFieldRemoval,
            Check::MaxItems => Code::CrdMaxItems,
            Check::MaxLength => Code::CrdMaxLength,
            Check::MaxProperties => Code::CrdMaxProperties,
            Check::Maximum => Code::CrdMaximum,
            Check::MinItems => Code::CrdMinItems,
            Check::MinLength => Code::CrdMinLength,
            Check::MinProperties => Code::CrdMinProperties,
            Check::Minimum => Code::CrdMinimum,
            Check::Nullable => Code::CrdNullable,
            Check::Pattern => Code::CrdPattern,
            Check::Required => Code::CrdRequired,
            Check::Scope => Code::CrdScope,
            Check::StoredVersionRemoval => Code::CrdStoredVersionRemoval,
            Check::Type => Code::CrdType,
            Check::Unhandled => Code::CrdUnhandled,
        }
    }
}

impl CrdCheck {
    /// Whether OLM v0 and v1 both take this CRD's change (a removed CRD is taken: its objects
    /// are only left without an owner).
    pub fn safe(&self) -> bool {
        match &self.outcome {
            Outcome::Compared { verdict } => verdict.safe(),
            Outcome::Removed => true,
            Outcome::NotComparable { .. } => false,
        }
    }

    /// The findings, one per refusal.
    pub fn findings(&self) -> Vec<CrdFinding> {
        let at = self.new.clone().unwrap_or_else(|| self.old.clone());
        let finding = |code: Code, rule, version, path, message| CrdFinding {
            code,
            severity: if code == Code::CrdRemoved { Severity::Warning } else { Severity::Error },
            rule,
            crd: self.crd.clone(),
            version,
            path,
            message,
            location: at.clone(),
        };
        match &self.outcome {
            Outcome::Removed => vec![finding(
                Code::CrdRemoved,
                "removed",
                None,
                None,
                format!(
                    "the new bundle no longer provides CRD {}: its objects are left without an owner",
                    quoted(&self.crd)
                ),
            )],
            Outcome::NotComparable { reason } => vec![finding(
                Code::CrdNotComparable,
                "notComparable",
                None,
                None,
                format!("CRD {} cannot be compared: {reason}", quoted(&self.crd)),
            )],
            Outcome::Compared { verdict } => {
                let prefix = format!("validating upgrade for CRD {}: ", quoted(&self.crd));
                let mut out: Vec<CrdFinding> = verdict
                    .preflight
                    .findings
                    .iter()
                    .map(|f| {
                        let (version, path) = match &f.scope {
                            Scope::Crd => (None, None),
                            Scope::Version(v) | Scope::Served(v) => (Some(v.clone()), Some(f.property.clone())),
                        };
                        finding(f.check.code(), f.check.name(), version, path, format!("{prefix}{}", f.line()))
                    })
                    .collect();
                if let Some(v0) = &verdict.olm_v0 {
                    out.push(finding(Code::CrdOlmV0StoredVersion, "olmV0StoredVersion", None, None, v0.clone()));
                }
                out
            }
        }
    }
}

impl CrdFinding {
    /// The finding as a [`Diagnostic`], `context` (which upgrade) before its message.
    pub fn diagnostic(&self, context: &str) -> Diagnostic {
        let message = if context.is_empty() { self.message.clone() } else { format!("{context}: {}", self.message) };
        let mut d = Diagnostic::error(self.code, message, self.location.clone());
        d.severity = self.severity;
        d
    }
}

/// The outcome for a pair when one side could not be read.
pub(crate) fn not_comparable(old: &Result<Crd, CrdError>, new: &Result<Crd, CrdError>) -> Option<Outcome> {
    let reason = match (old, new) {
        (Err(e), _) => format!("the old CRD: {e}"),
        (_, Err(e)) => format!("the new CRD: {e}"),
        _ => return None,
    };
    Some(Outcome::NotComparable { reason })
}

fn quoted(s: &str) -> String {
    crate::gotext::quote(s)
}
