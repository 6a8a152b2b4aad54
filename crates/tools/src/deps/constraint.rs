//! An `olm.constraint` value as a tree a reader can follow: each node with its text, and whether
//! some bundle of the catalog satisfies it. Leaves follow OLM's predicates (`gvk`: provides the
//! GVK; `package`: of the package, version in range); compound nodes follow OLM's `all`, `any`
//! and `not` (none of the children). CEL rules are shown, not evaluated: a node that depends on
//! one is `unknown` unless the rest of the tree decides it (an `any` with a satisfied sibling).

use super::bits::Tri;
use super::index::{DepsIndex, MAX_DEPTH};
use super::{ConstraintNode, ConstraintOp, Status};
use crate::property::{Constraint, ConstraintError, ConstraintValue};

/// The tree of `c` and the bundles satisfying its root, or OLM's conversion error (a range
/// that does not parse, nesting too deep, an empty constraint).
pub(crate) fn evaluate(ix: &DepsIndex, c: &ConstraintValue) -> Result<(ConstraintNode, Tri), String> {
    node(ix, c, 0)
}

/// OLM's text for a constraint it cannot use.
pub(crate) fn parse_error(e: &ConstraintError) -> String {
    match e {
        ConstraintError::Empty => convert_error(&e.to_string()),
        e => format!("parse olm.constraint: {e}"),
    }
}

fn convert_error(e: &str) -> String {
    format!("convert olm.constraint to resolver predicate: {e}")
}

fn node(ix: &DepsIndex, c: &ConstraintValue, depth: usize) -> Result<(ConstraintNode, Tri), String> {
    if depth > MAX_DEPTH {
        return Err(convert_error(&format!("constraints nested deeper than {MAX_DEPTH} levels")));
    }
    let n = ix.len();
    let (op, text, children, tri) = match &c.constraint {
        Constraint::Gvk(g) => (ConstraintOp::Gvk, super::gvk_text(g), Vec::new(), Tri::known(ix.gvk_providers(g))),
        Constraint::Package { package_name, version_range, range } => {
            let range = range.as_ref().map_err(|e| convert_error(&e.to_string()))?;
            let text = super::package_text(package_name, version_range);
            (ConstraintOp::Package, text, Vec::new(), Tri::known(ix.package_matches(package_name, range).0))
        }
        Constraint::Cel { rule } => (ConstraintOp::Cel, rule.clone(), Vec::new(), Tri::unknown(n)),
        Constraint::All(cs) | Constraint::Any(cs) | Constraint::Not(cs) => {
            let (nodes, tris): (Vec<_>, Vec<_>) =
                cs.iter().map(|c| node(ix, c, depth + 1)).collect::<Result<Vec<_>, _>>()?.into_iter().unzip();
            let (op, tri) = match &c.constraint {
                Constraint::All(_) => (ConstraintOp::All, Tri::all(n, &tris)),
                Constraint::Any(_) => (ConstraintOp::Any, Tri::any(n, &tris)),
                _ => (ConstraintOp::Not, Tri::none(n, &tris)),
            };
            let text = compound_text(op, &nodes);
            (op, text, nodes, tri)
        }
    };
    let node = ConstraintNode {
        op,
        text,
        failure_message: c.failure_message.clone(),
        status: status_of(&tri),
        matches: tri.yes.count(),
        children,
    };
    Ok((node, tri))
}

/// Satisfied when a bundle certainly satisfies it, unknown when none does but some might.
pub(crate) fn status_of(tri: &Tri) -> Status {
    if !tri.yes.is_empty() {
        Status::Satisfied
    } else if !tri.maybe.is_empty() {
        Status::Unknown
    } else {
        Status::Unsatisfied
    }
}

/// `all(a, b)`, `any(a, b)`, `not(a)`; a CEL child as `cel(…)`, its rule cut at 60 characters.
fn compound_text(op: ConstraintOp, children: &[ConstraintNode]) -> String {
    let parts: Vec<String> = children.iter().map(root_text).collect();
    format!("{}({})", op.name(), parts.join(", "))
}

pub(crate) fn root_text(c: &ConstraintNode) -> String {
    match c.op {
        ConstraintOp::Cel => {
            let cut = match c.text.char_indices().nth(60) {
                Some((at, _)) => format!("{}…", &c.text[..at]),
                None => c.text.clone(),
            };
            format!("cel({cut})")
        }
        _ => c.text.clone(),
    }
}
