//! Dependency predicates: what a bundle's `olm.gvk.required`, `olm.package.required`,
//! `olm.label.required` and `olm.constraint` properties ask of a candidate, and the descriptions
//! OLM puts in its messages. How a candidate is tested against them is `matching`'s.

use std::fmt;
use std::sync::Arc;

use super::cel::CelRule;
use crate::gotext::quote as go_quote;
use crate::property::{Constraint, ConstraintError, ConstraintValue};
use crate::property::{Gvk, Property, TYPE_GVK_REQUIRED, TYPE_PACKAGE_REQUIRED};
use crate::version::VersionRange;

/// A requirement on a candidate entry.
#[derive(Debug)]
pub enum Predicate {
    /// Provides exactly this GVK (`olm.gvk`).
    Gvk(Gvk),
    /// Belongs to the package and has a version in range.
    Package {
        name: String,
        range: VersionRange,
    },
    /// Has an `olm.label` with this label.
    Label(String),
    /// A CEL rule over the candidate's properties, with the constraint's failure message.
    Cel {
        rule: Box<CelRule>,
        message: String,
    },
    And(Vec<Predicate>),
    Or(Vec<Predicate>),
    /// None of the children holds.
    Not(Vec<Predicate>),
}

/// Why a dependency property cannot become a predicate; fails the whole resolution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PredicateError {
    /// `olm.constraint` value rejected by the parser.
    Parse(String),
    /// `olm.constraint` parsed but a part of it (range, CEL rule) is unusable.
    Convert(String),
    /// `olm.package.required` range that blang rejects.
    Range(String),
    /// A legacy dependency property whose value is not the expected JSON.
    Decode(String),
}

impl fmt::Display for PredicateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PredicateError::Parse(e) => write!(f, "parse olm.constraint: {e}"),
            PredicateError::Convert(e) => write!(f, "convert olm.constraint to resolver predicate: {e}"),
            PredicateError::Range(e) | PredicateError::Decode(e) => f.write_str(e),
        }
    }
}

impl Predicate {
    /// Package names that every match must carry (as `olm.package` or source package), when
    /// the predicate pins one; used to avoid scanning every entry.
    pub fn package_hint(&self) -> Option<&str> {
        match self {
            Predicate::Package { name, .. } => Some(name),
            Predicate::And(ps) => ps.iter().find_map(Predicate::package_hint),
            _ => None,
        }
    }

    /// Writes into `out` (cleared first, so that one buffer serves every predicate) bytes two
    /// predicates share exactly when they are the same requirement, so that they match the same
    /// candidates: the bundles of a package often repeat one dependency, whose candidates a
    /// resolution then finds once. `false` (and `out` no key) for a predicate holding a CEL rule,
    /// whose every evaluation counts against the resolution's budget.
    pub fn memo_key(&self, out: &mut Vec<u8>) -> bool {
        out.clear();
        self.write_key(out)
    }

    /// Appends [`Predicate::memo_key`]'s bytes to `out` (each name after its length, so that no
    /// two predicates give the same bytes); `false` when there is a CEL rule.
    fn write_key(&self, out: &mut Vec<u8>) -> bool {
        let text = |out: &mut Vec<u8>, tag: u8, parts: &[&str]| {
            out.push(tag);
            for p in parts {
                out.extend_from_slice(&(p.len() as u64).to_le_bytes());
                out.extend_from_slice(p.as_bytes());
            }
        };
        let children = |out: &mut Vec<u8>, tag: u8, ps: &[Predicate]| {
            out.push(tag);
            out.extend_from_slice(&(ps.len() as u64).to_le_bytes());
            ps.iter().all(|p| p.write_key(out))
        };
        match self {
            Predicate::Gvk(g) => text(out, b'g', &[&g.group, &g.version, &g.kind]),
            Predicate::Package { name, range } => text(out, b'p', &[name, range.as_str()]),
            Predicate::Label(l) => text(out, b'l', &[l]),
            Predicate::Cel { .. } => return false,
            Predicate::And(ps) => return children(out, b'&', ps),
            Predicate::Or(ps) => return children(out, b'|', ps),
            Predicate::Not(ps) => return children(out, b'!', ps),
        }
        true
    }

    /// A GVK every match must provide, when the predicate pins one.
    pub fn gvk_hint(&self) -> Option<&Gvk> {
        match self {
            Predicate::Gvk(g) => Some(g),
            Predicate::And(ps) => ps.iter().find_map(Predicate::gvk_hint),
            _ => None,
        }
    }
}

impl fmt::Display for Predicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |f: &mut fmt::Formatter<'_>, ps: &[Predicate], sep: &str| -> fmt::Result {
            for (i, p) in ps.iter().enumerate() {
                if i > 0 {
                    f.write_str(sep)?;
                }
                write!(f, "{p}")?;
            }
            Ok(())
        };
        match self {
            Predicate::Gvk(g) => {
                write!(f, "providing an API with group: {}, version: {}, kind: {}", g.group, g.version, g.kind)
            }
            Predicate::Package { name, range } => {
                write!(f, "with package: {name} and with version in range: {}", range.as_str())
            }
            Predicate::Label(l) => write!(f, "with label: {l}"),
            Predicate::Cel { rule, message } => {
                write!(f, "with constraint: {} and message: {}", go_quote(rule.rule()), go_quote(message))
            }
            Predicate::And(ps) => join(f, ps, " and "),
            Predicate::Or(ps) => join(f, ps, " or "),
            // OLM renders NOT without a prefix before its first child.
            Predicate::Not(ps) => join(f, ps, " and not "),
        }
    }
}

/// A bundle's dependency predicates, in the order of its served properties, each with its
/// [memo key](Predicate::memo_key) (`None` for one no other predicate shares). Read once per
/// catalog index and kept with it (`Snapshot::predicates`).
#[derive(Debug)]
pub struct BundlePredicates {
    /// The predicates.
    pub predicates: Arc<[Predicate]>,
    /// Each one's memo key.
    pub keys: Box<[Option<Box<[u8]>>]>,
}

impl BundlePredicates {
    /// The dependency predicates of a bundle's served properties (the ensured `olm.package`, no
    /// predicate, left out); the first property that cannot become one fails with its reason.
    pub fn of<'a>(served: impl IntoIterator<Item = &'a Property>) -> Result<BundlePredicates, String> {
        let mut predicates = Vec::new();
        for p in served {
            if let Some(pred) = for_property(p) {
                predicates.push(pred.map_err(|err| err.to_string())?);
            }
        }
        let mut key = Vec::new();
        let keys = predicates.iter().map(|p| p.memo_key(&mut key).then(|| key.as_slice().into())).collect();
        Ok(BundlePredicates { predicates: predicates.into(), keys })
    }
}

/// The predicate for one property of a dependent bundle, or `None` when the type is not a
/// dependency ([`Property::is_dependency`] tells which without building it).
pub fn for_property(p: &Property) -> Option<Result<Predicate, PredicateError>> {
    Some(match p {
        Property::Constraint(parsed) => constraint(parsed),
        Property::GvkRequired(g) => Ok(Predicate::Gvk(g.clone())),
        Property::PackageRequired(r) => match &r.range {
            Ok(range) => Ok(Predicate::Package { name: r.package_name.clone(), range: range.clone() }),
            Err(e) => Err(PredicateError::Range(e.to_string())),
        },
        Property::LabelRequired(Ok(l)) => Ok(Predicate::Label(l.clone())),
        Property::LabelRequired(Err(e)) => Err(PredicateError::Decode(e.clone())),
        Property::Invalid { type_, error } if type_ == TYPE_GVK_REQUIRED || type_ == TYPE_PACKAGE_REQUIRED => {
            Err(PredicateError::Decode(error.clone()))
        }
        _ => return None,
    })
}

/// An `olm.constraint` value as a predicate. OLM's parser accepts an empty constraint; its
/// conversion to a predicate is what rejects it.
pub fn constraint(parsed: &Result<ConstraintValue, ConstraintError>) -> Result<Predicate, PredicateError> {
    match parsed {
        Ok(c) => convert(&c.constraint, &c.failure_message, 0),
        Err(ConstraintError::Empty) => Err(PredicateError::Convert(ConstraintError::Empty.to_string())),
        Err(e) => Err(PredicateError::Parse(e.to_string())),
    }
}

/// Deepest nesting of compound constraints accepted (the value is at most 128 KiB anyway).
const MAX_DEPTH: usize = 64;

fn convert(c: &Constraint, failure_message: &str, depth: usize) -> Result<Predicate, PredicateError> {
    if depth > MAX_DEPTH {
        return Err(PredicateError::Convert(format!("constraints nested deeper than {MAX_DEPTH} levels")));
    }
    let children = |cs: &[ConstraintValue]| -> Result<Vec<Predicate>, PredicateError> {
        // A CEL predicate shows the failure message of the constraint object it is in.
        cs.iter().map(|c| convert(&c.constraint, &c.failure_message, depth + 1)).collect()
    };
    Ok(match c {
        Constraint::Gvk(g) => Predicate::Gvk(g.clone()),
        Constraint::Package { package_name, range, .. } => Predicate::Package {
            name: package_name.clone(),
            range: range.clone().map_err(|e| PredicateError::Convert(e.to_string()))?,
        },
        Constraint::Cel { rule } => {
            let rule = CelRule::compile(rule).map_err(|e| PredicateError::Convert(e.to_string()))?;
            Predicate::Cel { rule: Box::new(rule), message: failure_message.to_string() }
        }
        Constraint::All(cs) => Predicate::And(children(cs)?),
        Constraint::Any(cs) => Predicate::Or(children(cs)?),
        Constraint::Not(cs) => Predicate::Not(children(cs)?),
    })
}

#[cfg(test)]
mod tests {
    //! When two dependencies count as the same requirement (their candidates are found once).

    use super::*;

    fn gvk(group: &str, version: &str, kind: &str) -> Predicate {
        Predicate::Gvk(Gvk { group: group.into(), version: version.into(), kind: kind.into() })
    }

    fn package(name: &str, range: &str) -> Predicate {
        Predicate::Package { name: name.into(), range: VersionRange::parse(range).unwrap() }
    }

    /// [`Predicate::memo_key`] into a buffer of its own.
    fn key(p: &Predicate) -> Option<Vec<u8>> {
        let mut out = vec![b'x'; 3];
        p.memo_key(&mut out).then_some(out)
    }

    #[test]
    fn the_same_requirement_has_the_same_key_and_another_a_different_one() {
        assert_eq!(key(&gvk("g", "v1", "K")), key(&gvk("g", "v1", "K")));
        assert_eq!(key(&package("p", ">=1.0.0")), key(&package("p", ">=1.0.0")));
        let different = [
            gvk("g", "v1", "K"),
            gvk("g", "v1", "L"),
            gvk("g", "v1K", ""),
            gvk("gv", "1", "K"),
            package("p", ">=1.0.0"),
            package("p", ">=1.0.1"),
            package("q", ">=1.0.0"),
            Predicate::Label("p".into()),
            Predicate::And(vec![gvk("g", "v1", "K")]),
            Predicate::Or(vec![gvk("g", "v1", "K")]),
            Predicate::Not(vec![gvk("g", "v1", "K")]),
            Predicate::And(vec![gvk("g", "v1", "K"), package("p", ">=1.0.0")]),
            Predicate::And(vec![package("p", ">=1.0.0"), gvk("g", "v1", "K")]),
        ];
        let keys: Vec<Vec<u8>> = different.iter().map(|p| key(p).unwrap()).collect();
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn a_dependency_is_a_property_that_makes_a_predicate_or_an_error() {
        let properties = [
            ("olm.gvk.required", r#"{"group":"g","version":"v1","kind":"K"}"#),
            ("olm.gvk.required", r#""not an object""#),
            ("olm.package.required", r#"{"packageName":"p","versionRange":">=1.0.0"}"#),
            ("olm.package.required", r#"{"packageName":"p","versionRange":"not a range"}"#),
            ("olm.package.required", "[]"),
            ("olm.label.required", r#"{"label":"l"}"#),
            ("olm.label.required", "1"),
            ("olm.constraint", r#"{"failureMessage":"m","package":{"packageName":"p","versionRange":">=1"}}"#),
            ("olm.constraint", "{}"),
            ("olm.constraint", "1"),
            ("olm.gvk", r#"{"group":"g","version":"v1","kind":"K"}"#),
            ("olm.package", r#"{"packageName":"p","version":"1.0.0"}"#),
            ("olm.label", r#"{"label":"l"}"#),
            ("olm.deprecated", "{}"),
            ("example.com/other", "{}"),
        ];
        for (type_, value) in properties {
            let value = crate::declcfg::json::JsonReader::new(value, 1).next_value().unwrap();
            let p = crate::property::parse(type_, Some(&value))
                .unwrap_or_else(|e| Property::Invalid { type_: type_.into(), error: e.to_string() });
            assert_eq!(p.is_dependency(), for_property(&p).is_some(), "{type_} {value:?}");
        }
    }

    #[test]
    #[cfg(feature = "cel")]
    fn a_cel_rule_is_never_shared_since_each_evaluation_is_metered() {
        let cel = || Predicate::Cel {
            rule: Box::new(CelRule::compile("properties.exists(p, p.type == 'x')").unwrap()),
            message: String::new(),
        };
        assert_eq!(key(&cel()), None);
        assert_eq!(key(&Predicate::Or(vec![gvk("g", "v1", "K"), cel()])), None);
    }
}
