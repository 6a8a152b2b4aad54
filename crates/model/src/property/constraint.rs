//! `olm.constraint` values: a GVK, package, CEL, or compound (`all`/`any`/`not`) requirement,
//! parsed as OLM's `constraints.Parse` does — unknown keys rejected at every level, a size limit
//! of 131072 bytes — and reduced to the first present key in OLM's order (gvk, package, all, any,
//! not, cel).

use std::fmt;

use super::Gvk;
use crate::declcfg::value::{Node, Value};
use crate::version::{RangeError, VersionRange};

/// Largest accepted value, in bytes of compact JSON (`2 << 16`).
pub const MAX_CONSTRAINT_SIZE: usize = 131_072;

/// A generic constraint.
#[derive(Debug, Clone, PartialEq)]
pub enum Constraint {
    /// A bundle providing this GVK.
    Gvk(Gvk),
    /// A bundle of this package within a blang range.
    Package {
        /// The package.
        package_name: String,
        /// The range as written.
        version_range: String,
        /// The parsed range, or blang's error (the resolver rejects the constraint then).
        range: Result<VersionRange, RangeError>,
    },
    /// A CEL rule over the candidate's `properties`.
    Cel {
        /// The rule text.
        rule: String,
    },
    /// All children hold (true when empty).
    All(Vec<ConstraintValue>),
    /// At least one child holds (false when empty).
    Any(Vec<ConstraintValue>),
    /// No child holds (true when empty).
    Not(Vec<ConstraintValue>),
}

/// A parsed `olm.constraint` property value.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstraintValue {
    /// Shown by CEL predicates when they fail; ignored otherwise.
    pub failure_message: String,
    /// What is required.
    pub constraint: Constraint,
}

/// Why a constraint value is unusable; `Display` gives OLM's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConstraintError {
    /// The value is longer than [`MAX_CONSTRAINT_SIZE`].
    TooLarge,
    /// A key OLM does not know (strict decoding).
    UnknownField(String),
    /// A JSON type mismatch, in Go's words.
    Type(String),
    /// No constraint is given (OLM rejects this when converting it to a predicate).
    Empty,
}

impl fmt::Display for ConstraintError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConstraintError::TooLarge => {
                write!(f, "olm.constraint value is greater than max constraint size {MAX_CONSTRAINT_SIZE} bytes")
            }
            ConstraintError::UnknownField(k) => write!(f, "json: unknown field \"{k}\""),
            ConstraintError::Type(m) => f.write_str(m),
            ConstraintError::Empty => f.write_str("constraint is empty"),
        }
    }
}

impl std::error::Error for ConstraintError {}

/// Parse an `olm.constraint` value from its raw JSON text, checking the size limit first as OLM
/// does (only the first JSON value is read; trailing bytes are not checked).
pub fn parse_raw(text: &str) -> Result<ConstraintValue, ConstraintError> {
    if text.len() > MAX_CONSTRAINT_SIZE {
        return Err(ConstraintError::TooLarge);
    }
    let node =
        crate::declcfg::json::JsonReader::new(text, 1).next_value().map_err(|e| ConstraintError::Type(e.message))?;
    parse(&node)
}

/// Parse an `olm.constraint` value.
pub fn parse(value: &Node) -> Result<ConstraintValue, ConstraintError> {
    if value.to_go_json().len() > MAX_CONSTRAINT_SIZE {
        return Err(ConstraintError::TooLarge);
    }
    value_of(value)
}

fn value_of(node: &Node) -> Result<ConstraintValue, ConstraintError> {
    let failure_message = match &node.value {
        Value::Object(_) => string_of(node, "failureMessage", "Constraint")?,
        _ => String::new(),
    };
    Ok(ConstraintValue { failure_message, constraint: constraint(node)? })
}

impl ConstraintValue {
    /// The value as JSON, in the shape OLM's `Constraint` type has (only the key that counts,
    /// `failureMessage` when set).
    pub fn to_json(&self) -> serde_json::Value {
        let mut m = serde_json::Map::new();
        if !self.failure_message.is_empty() {
            m.insert("failureMessage".into(), self.failure_message.clone().into());
        }
        let list = |cs: &[ConstraintValue]| serde_json::json!({"constraints": cs.iter().map(ConstraintValue::to_json).collect::<Vec<_>>()});
        let (k, v) = match &self.constraint {
            Constraint::Gvk(g) => (
                "gvk",
                serde_json::json!({"group": g.group.as_str(), "version": g.version.as_str(), "kind": g.kind.as_str()}),
            ),
            Constraint::Package { package_name, version_range, .. } => {
                ("package", serde_json::json!({"packageName": package_name, "versionRange": version_range}))
            }
            Constraint::Cel { rule } => ("cel", serde_json::json!({"rule": rule})),
            Constraint::All(cs) => ("all", list(cs)),
            Constraint::Any(cs) => ("any", list(cs)),
            Constraint::Not(cs) => ("not", list(cs)),
        };
        m.insert(k.into(), v);
        serde_json::Value::Object(m)
    }
}

const KEYS: &[&str] = &["failureMessage", "gvk", "package", "cel", "all", "any", "not"];

fn constraint(node: &Node) -> Result<Constraint, ConstraintError> {
    let members = match &node.value {
        Value::Object(m) => m,
        Value::Null => return Err(ConstraintError::Empty),
        _ => return Err(mismatch(node, "", "constraints.Constraint")),
    };
    reject_unknown(members, KEYS)?;
    let present = |k: &str| node.field(k).map(|m| &m.value).filter(|v| v.value != Value::Null);
    // Decode everything first (Go decodes the whole struct), then pick by precedence.
    let gvk = present("gvk").map(|n| -> Result<Gvk, ConstraintError> {
        object(n, "Constraint.gvk", "constraints.GVKConstraint", &["group", "version", "kind"])?;
        Ok(Gvk {
            group: string_of(n, "group", "GVKConstraint")?.into(),
            version: string_of(n, "version", "GVKConstraint")?.into(),
            kind: string_of(n, "kind", "GVKConstraint")?.into(),
        })
    });
    let gvk = gvk.transpose()?;
    let package = present("package")
        .map(|n| -> Result<(String, String), ConstraintError> {
            object(n, "Constraint.package", "constraints.PackageConstraint", &["packageName", "versionRange"])?;
            Ok((string_of(n, "packageName", "PackageConstraint")?, string_of(n, "versionRange", "PackageConstraint")?))
        })
        .transpose()?;
    let cel = present("cel")
        .map(|n| -> Result<String, ConstraintError> {
            object(n, "Constraint.cel", "constraints.Cel", &["rule"])?;
            string_of(n, "rule", "Cel")
        })
        .transpose()?;
    let compound = |k: &str| -> Result<Option<Vec<ConstraintValue>>, ConstraintError> {
        let Some(n) = present(k) else { return Ok(None) };
        object(n, &format!("Constraint.{k}"), "constraints.CompoundConstraint", &["constraints"])?;
        let items = match n.field("constraints").map(|m| &m.value) {
            None | Some(Node { value: Value::Null, .. }) => Vec::new(),
            Some(Node { value: Value::Array(items), .. }) => items.iter().map(value_of).collect::<Result<_, _>>()?,
            Some(other) => {
                return Err(mismatch(other, &format!("CompoundConstraint.{k}.constraints"), "[]constraints.Constraint"))
            }
        };
        Ok(Some(items))
    };
    let all = compound("all")?;
    let any = compound("any")?;
    let not = compound("not")?;
    if let Some(g) = gvk {
        return Ok(Constraint::Gvk(g));
    }
    if let Some((package_name, version_range)) = package {
        let range = VersionRange::parse(&version_range);
        return Ok(Constraint::Package { package_name, version_range, range });
    }
    if let Some(c) = all {
        return Ok(Constraint::All(c));
    }
    if let Some(c) = any {
        return Ok(Constraint::Any(c));
    }
    if let Some(c) = not {
        return Ok(Constraint::Not(c));
    }
    if let Some(rule) = cel {
        return Ok(Constraint::Cel { rule });
    }
    Err(ConstraintError::Empty)
}

fn reject_unknown(members: &[crate::declcfg::Member], known: &[&str]) -> Result<(), ConstraintError> {
    for m in members {
        if !known.iter().any(|k| crate::declcfg::value::fold_eq(k, &m.key)) {
            return Err(ConstraintError::UnknownField(m.key.to_string()));
        }
    }
    Ok(())
}

fn object(n: &Node, field: &str, go_type: &str, known: &[&str]) -> Result<(), ConstraintError> {
    match &n.value {
        Value::Object(m) => reject_unknown(m, known),
        _ => Err(mismatch(n, field, go_type)),
    }
}

fn string_of(n: &Node, key: &str, go_struct: &str) -> Result<String, ConstraintError> {
    match n.field(key).map(|m| &m.value) {
        None => Ok(String::new()),
        Some(Node { value: Value::Null, .. }) => Ok(String::new()),
        Some(Node { value: Value::String(s), .. }) => Ok(s.to_string()),
        Some(other) => Err(mismatch(other, &format!("{go_struct}.{key}"), "string")),
    }
}

fn mismatch(n: &Node, field: &str, go_type: &str) -> ConstraintError {
    ConstraintError::Type(if field.is_empty() {
        format!("json: cannot unmarshal {} into Go value of type {}", n.kind_name(), go_type)
    } else {
        format!("json: cannot unmarshal {} into Go struct field {} of type {}", n.kind_name(), field, go_type)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::json::JsonReader;

    fn p(src: &str) -> Result<ConstraintValue, ConstraintError> {
        parse(&JsonReader::new(src, 1).next_value().unwrap())
    }

    #[test]
    fn parses_each_kind_with_precedence() {
        let c = p(r#"{"failureMessage":"m","gvk":{"group":"g","version":"v","kind":"k"}}"#).unwrap();
        assert_eq!(c.failure_message, "m");
        assert!(matches!(c.constraint, Constraint::Gvk(_)));
        let c = p(r#"{"cel":{"rule":"true"},"package":{"packageName":"x","versionRange":">=1.0.0"}}"#).unwrap();
        assert!(matches!(c.constraint, Constraint::Package { .. }));
        let c = p(r#"{"all":{"constraints":[{"not":{"constraints":[]}},{"any":{}}]}}"#).unwrap();
        let v = |c| ConstraintValue { failure_message: String::new(), constraint: c };
        assert_eq!(c.constraint, Constraint::All(vec![v(Constraint::Not(vec![])), v(Constraint::Any(vec![]))]));
    }

    #[test]
    fn errors() {
        assert_eq!(p(r#"{}"#).unwrap_err().to_string(), "constraint is empty");
        assert_eq!(p(r#"{"foo":1}"#).unwrap_err().to_string(), "json: unknown field \"foo\"");
        assert_eq!(p(r#"{"gvk":{"group":"g","extra":1}}"#).unwrap_err().to_string(), "json: unknown field \"extra\"");
        let big = format!(r#"{{"cel":{{"rule":"{}"}}}}"#, "a".repeat(MAX_CONSTRAINT_SIZE));
        assert_eq!(p(&big).unwrap_err(), ConstraintError::TooLarge);
    }
}
