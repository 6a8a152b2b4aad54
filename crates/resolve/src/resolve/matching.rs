//! A candidate bundle tested against a dependency predicate: the predicate's rules on the
//! bundle's facts, and CEL rules metered against the resolution's evaluation budget.

use super::cel::{CelRule, CEL_COST_LIMIT};
use super::predicate::Predicate;
use super::snapshot::Bundle;
use super::CEL_RESOLUTION_COST_LIMIT;
use crate::gotext::quote as go_quote;

/// What CEL evaluation has spent in one resolution, against [`CEL_RESOLUTION_COST_LIMIT`].
#[derive(Debug, Default)]
pub struct CelMeter {
    /// Units spent so far (each evaluation's cost and the size of the properties it was given).
    pub spent: u64,
}

/// The most a rule's text shows in an error message.
const RULE_EXCERPT: usize = 120;

/// A rule for an error message: quoted, cut at [`RULE_EXCERPT`] characters.
fn excerpt(rule: &str) -> String {
    match rule.char_indices().nth(RULE_EXCERPT) {
        Some((at, _)) => format!("{}…", go_quote(&rule[..at])),
        None => go_quote(rule),
    }
}

impl Predicate {
    /// Whether the candidate satisfies the predicate. `Err` when a CEL rule's evaluation went
    /// past [`CEL_COST_LIMIT`], or the resolution's CEL evaluations past
    /// [`CEL_RESOLUTION_COST_LIMIT`]: the message names the rule and the candidate.
    pub fn test(&self, b: &Bundle, source_package: &str, meter: &mut CelMeter) -> Result<bool, String> {
        Ok(match self {
            Predicate::Gvk(g) => b.provides().any(|x| x == g),
            Predicate::Package { name, range } => {
                let package = b.packages().any(|(n, _, _)| n == name) || source_package == name;
                let version = b.packages().any(|(_, _, v)| v.is_some_and(|v| range.contains(v)))
                    || b.version.as_ref().is_some_and(|v| range.contains(v));
                package && version
            }
            Predicate::Label(l) => b.labels().any(|x| x == l),
            Predicate::Cel { rule, .. } => return cel(rule, b, meter),
            Predicate::And(ps) => {
                for p in ps {
                    if !p.test(b, source_package, meter)? {
                        return Ok(false);
                    }
                }
                true
            }
            Predicate::Or(ps) | Predicate::Not(ps) => {
                let mut any = false;
                for p in ps {
                    if p.test(b, source_package, meter)? {
                        any = true;
                        break;
                    }
                }
                any == matches!(self, Predicate::Or(_))
            }
        })
    }
}

/// One metered evaluation of a CEL rule against candidate `b`.
fn cel(rule: &CelRule, b: &Bundle, meter: &mut CelMeter) -> Result<bool, String> {
    let remaining = CEL_RESOLUTION_COST_LIMIT.saturating_sub(meter.spent);
    let budget_spent = || {
        format!(
            "the CEL rules of this resolution exceeded their evaluation budget of {CEL_RESOLUTION_COST_LIMIT} units \
             (CEL_RESOLUTION_COST_LIMIT) while evaluating the rule {} on bundle {}",
            excerpt(rule.rule()),
            b.name
        )
    };
    if remaining == 0 {
        return Err(budget_spent());
    }
    let limit = CEL_COST_LIMIT.min(remaining);
    let owned: Vec<_> = b.properties().collect();
    let props: Vec<(&str, &crate::declcfg::Node)> =
        owned.iter().map(|p| (p.type_.as_ref(), p.value.as_ref())).collect();
    match rule.evaluate_nodes(&props, limit) {
        Ok(e) => {
            meter.spent = meter.spent.saturating_add(e.cost).saturating_add(e.input.max(1));
            Ok(e.matched)
        }
        Err(_) if limit < CEL_COST_LIMIT => {
            meter.spent = CEL_RESOLUTION_COST_LIMIT;
            Err(budget_spent())
        }
        Err(e) => Err(format!("the CEL rule {} {e} (CEL_COST_LIMIT) on bundle {}", excerpt(rule.rule()), b.name)),
    }
}
