//! Lints: problems `opm validate` accepts but that break installs later. They are warnings and do
//! not change the verdict.
//!
//! - `invalid-required-range`: an `olm.package.required` range that OLM's resolver cannot parse
//!   (opm never parses it; the resolver fails the whole resolution on it).
//! - `invalid-constraint`: an `olm.constraint` value the resolver rejects (unknown keys, wrong
//!   types, empty, too large, unparseable package range).

use crate::diagnostic::{Code, Diagnostic};
use crate::gotext::quote as q;
use crate::model::Package;
use crate::property::{Constraint, ConstraintError, ConstraintValue, Property};

/// What OLM v0's resolver does with a dependency it cannot read (`resolver.md` §2.3).
const RESOLUTION_FAILS: &str =
    "OLM v0 fails every resolution that considers this bundle, even one that would choose another";

/// The lints of one package.
pub fn package(p: &Package) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    {
        for b in &p.bundles {
            for (i, prop) in &b.properties {
                // Located only when there is something to report: most properties are fine.
                let loc = || property_value_at(b, *i);
                match prop {
                    Property::PackageRequired(r) => {
                        if let Err(e) = &r.range {
                            out.push(Diagnostic::warning(
                                Code::InvalidRequiredRange,
                                format!(
                                    "bundle {} requires package {} with version range {}, which OLM cannot parse: {e}; {RESOLUTION_FAILS}; write a range such as \">=1.0.0 <2.0.0\"",
                                    q(&b.name.value),
                                    q(&r.package_name),
                                    q(&r.version_range)
                                ),
                                loc(),
                            ));
                        }
                    }
                    Property::Constraint(parsed) => {
                        if let Some(msg) = constraint_problem(parsed) {
                            out.push(Diagnostic::warning(
                                Code::InvalidConstraint,
                                format!(
                                    "bundle {} has an olm.constraint OLM will reject: {msg}; {RESOLUTION_FAILS}",
                                    q(&b.name.value)
                                ),
                                loc(),
                            ));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// Where bundle `b`'s property `i` has its value (the property itself when it has none).
#[inline(never)]
fn property_value_at(b: &crate::model::Bundle, i: usize) -> crate::diagnostic::Location {
    let raw = &b.raw_properties[i];
    let pos = raw.value.as_ref().map(|v| v.pos).unwrap_or(raw.pos);
    b.source.at(pos, format!("/properties/{i}/value"))
}

fn constraint_problem(parsed: &Result<ConstraintValue, ConstraintError>) -> Option<String> {
    match parsed {
        // OLM's parser accepts an empty constraint; its conversion to a predicate rejects it.
        Err(ConstraintError::Empty) => {
            Some(format!("convert olm.constraint to resolver predicate: {}", ConstraintError::Empty))
        }
        Err(e) => Some(format!("parse olm.constraint: {e}")),
        Ok(c) => bad_range(&c.constraint).map(|e| format!("convert olm.constraint to resolver predicate: {e}")),
    }
}

fn bad_range(c: &Constraint) -> Option<String> {
    match c {
        Constraint::Package { range, .. } => range.as_ref().err().map(|e| e.to_string()),
        Constraint::All(cs) | Constraint::Any(cs) | Constraint::Not(cs) => {
            cs.iter().find_map(|c| bad_range(&c.constraint))
        }
        Constraint::Gvk(_) | Constraint::Cel { .. } => None,
    }
}
