//! crdify's comparison of two version schemas (`CompareVersions` and the fields
//! `existingFieldRemoval` finds gone), walked over the two value trees side by side. crdify
//! flattens both schemas to their properties by path (`flatten.rs`) and compares each old
//! property with the new one at the same path; walking both trees together by the same steps
//! visits the same pairs, and a subtree equal on both sides is skipped whole (it has no finding),
//! so only what changed is read as `JSONSchemaProps`. When a key could make two paths coincide
//! (a property named `items`, or with a `.` or `[` in its name), flattening keeps only one of
//! them: the walk then answers [`WalkError::Ambiguous`] and the caller flattens.

use super::rules::{property_checks, Check};
use super::schema::{Reader, Schema, SchemaError, MAX_DEPTH, MAX_SCHEMAS};
use super::unhandled;
use crate::declcfg::{Member, Node, Value};
use crate::hash::{HashMap, HashMapExt};

/// (property, check, message, identity) for each refusal between two versions' schemas.
pub(crate) type PropertyFinding = (String, Check, String, String);

/// What differs between two versions' schemas.
#[derive(Debug, Default)]
pub(crate) struct Diff {
    /// The property refusals.
    pub findings: Vec<PropertyFinding>,
    /// The paths of the old schema that the new one lacks.
    pub removed: Vec<String>,
}

/// Why the walk did not answer.
#[derive(Debug)]
pub(crate) enum WalkError {
    /// Two paths could coincide: flatten instead.
    Ambiguous,
    /// A schema that cannot be read (a field of the wrong type, nesting or size beyond bounds).
    Schema(SchemaError),
}

/// Compare two versions' schemas (either may be absent).
pub(crate) fn compare_schemas(old: Option<&Node>, new: Option<&Node>) -> Result<Diff, WalkError> {
    let mut w = Walk { diff: Diff::default(), visited: 0 };
    if let Some(old) = old {
        w.walk(old, new, "^".to_string(), 0)?;
    }
    Ok(w.diff)
}

struct Walk {
    diff: Diff,
    visited: usize,
}

impl Walk {
    fn walk(&mut self, old: &Node, new: Option<&Node>, path: String, depth: usize) -> Result<(), WalkError> {
        if new.is_some_and(|n| same_value(old, n)) {
            return Ok(());
        }
        self.visited += 1;
        if depth > MAX_DEPTH || self.visited > MAX_SCHEMAS {
            let message = if depth > MAX_DEPTH {
                format!("the schema is nested more than {MAX_DEPTH} levels deep")
            } else {
                format!("the schema holds more than {MAX_SCHEMAS} properties")
            };
            return Err(WalkError::Schema(SchemaError { path, message }));
        }
        if ambiguous(old) || new.is_some_and(ambiguous) {
            return Err(WalkError::Ambiguous);
        }
        let read = |n: &Node| Reader::new(&path).shallow(n).map_err(WalkError::Schema);
        let a = read(old)?;
        let b = match new {
            Some(n) => read(n)?,
            None => Schema::default(),
        };
        if new.is_none() {
            self.diff.removed.push(path.clone());
        }
        if new.is_none() || !unhandled::same_without_children(&a, &b) {
            for (check, message) in property_checks(&a, &b) {
                self.diff.findings.push((path.clone(), check, message.clone(), message));
            }
            if let Some((message, key)) = unhandled::unhandled(&a, &b) {
                self.diff.findings.push((path.clone(), Check::Unhandled, message, key));
            }
        }
        for (step, child, counterpart) in children(old, new) {
            self.walk(child, counterpart, format!("{path}{step}"), depth + 1)?;
        }
        Ok(())
    }
}

/// Whether a schema has a key that could give two sub-schemas the same path.
fn ambiguous(node: &Node) -> bool {
    const STRUCTURAL: [&str; 4] = ["items", "not", "additionalProperties", "additionalItems"];
    let keys = |field: &str| members(node, field).iter().map(|m| m.key.as_str()).collect::<Vec<_>>();
    let odd = |k: &str| k.contains(['.', '[', ']']);
    keys("properties").iter().any(|k| STRUCTURAL.contains(k) || odd(k))
        || ["patternProperties", "definitions", "dependencies"].iter().any(|f| keys(f).iter().any(|k| odd(k)))
}

/// The members of `node`'s field `field` when it is an object (Go's field binding).
fn members<'n>(node: &'n Node, field: &str) -> &'n [Member] {
    node.field(field).and_then(|m| m.value.as_object()).unwrap_or(&[])
}

fn list<'n>(node: &'n Node, field: &str) -> &'n [Node] {
    node.field(field).and_then(|m| m.value.as_array()).unwrap_or(&[])
}

/// A schema child only when it is an object (a boolean `additionalProperties` has none).
fn object<'n>(node: &'n Node, field: &str) -> Option<&'n Node> {
    node.field(field).map(|m| &m.value).filter(|n| n.as_object().is_some())
}

/// The sub-schemas of `old` in crdify's order that differ from `new`'s (an equal one has no
/// finding), each with its path step and the sub-schema of `new` at the same step.
fn children<'n>(old: &'n Node, new: Option<&'n Node>) -> Vec<(String, &'n Node, Option<&'n Node>)> {
    let mut out = Vec::new();
    let single = |out: &mut Vec<_>, field: &str, step: &str| {
        if let Some(child) = object(old, field) {
            let counterpart = new.and_then(|n| object(n, field));
            if !counterpart.is_some_and(|c| same_value(child, c)) {
                out.push((step.to_string(), child, counterpart));
            }
        }
    };
    let indexed = |out: &mut Vec<_>, field: &str, step: &str| {
        let theirs = new.map(|n| list(n, field)).unwrap_or(&[]);
        for (i, child) in list(old, field).iter().enumerate().filter(|(_, c)| c.as_object().is_some()) {
            let counterpart = theirs.get(i).filter(|c| c.as_object().is_some());
            if !counterpart.is_some_and(|c| same_value(child, c)) {
                out.push((format!("{step}[{i}]"), child, counterpart));
            }
        }
    };
    let keyed = |out: &mut Vec<_>, field: &str, step: &dyn Fn(&str) -> String| {
        let theirs: HashMap<&str, &Node> = match new {
            Some(n) => members(n, field).iter().map(|m| (m.key.as_str(), &m.value)).collect(),
            None => HashMap::new(),
        };
        for m in members(old, field).iter().filter(|m| m.value.as_object().is_some()) {
            let counterpart = theirs.get(m.key.as_str()).copied().filter(|c| c.as_object().is_some());
            if !counterpart.is_some_and(|c| same_value(&m.value, c)) {
                out.push((step(&m.key), &m.value, counterpart));
            }
        }
    };
    single(&mut out, "items", ".items");
    indexed(&mut out, "items", ".items");
    indexed(&mut out, "allOf", ".allOf");
    indexed(&mut out, "anyOf", ".anyOf");
    indexed(&mut out, "oneOf", ".oneOf");
    single(&mut out, "not", ".not");
    keyed(&mut out, "properties", &|k| format!(".{k}"));
    single(&mut out, "additionalProperties", ".additionalProperties");
    keyed(&mut out, "patternProperties", &|k| format!(".patternProperties[{k}]"));
    single(&mut out, "additionalItems", ".additionalItems");
    keyed(&mut out, "definitions", &|k| format!(".definitions[{k}]"));
    keyed(&mut out, "dependencies", &|k| format!(".dependencies[{k}]"));
    out
}

/// Whether two values are equal (positions aside; object members in order). A value is equal
/// to itself without a walk (a CRD compared with the same decoded CRD).
pub(crate) fn same_value(a: &Node, b: &Node) -> bool {
    if std::ptr::eq(a, b) {
        return true;
    }
    match (&a.value, &b.value) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_value(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| a.key == b.key && same_value(&a.value, &b.value))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(json: serde_json::Value) -> Node {
        Node::from_json(&json)
    }

    #[test]
    fn an_unchanged_subtree_is_skipped_and_a_changed_leaf_found() {
        let old = node(
            serde_json::json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}),
        );
        let new = node(
            serde_json::json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer", "minimum": 1}}}),
        );
        let diff = compare_schemas(Some(&old), Some(&new)).unwrap();
        let got: Vec<(&str, Check)> = diff.findings.iter().map(|(p, c, _, _)| (p.as_str(), *c)).collect();
        assert_eq!(got, [("^.b", Check::Minimum)]);
        assert!(diff.removed.is_empty());
    }

    #[test]
    fn a_removed_subtree_lists_every_path_under_it() {
        let old =
            node(serde_json::json!({"properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}}}}));
        let new = node(serde_json::json!({"properties": {}}));
        let diff = compare_schemas(Some(&old), Some(&new)).unwrap();
        assert_eq!(diff.removed, ["^.a", "^.a.b"]);
    }

    #[test]
    fn a_property_named_like_a_child_makes_the_walk_give_way_to_flattening() {
        let old = node(serde_json::json!({"properties": {"items": {"type": "string"}}, "items": {"type": "integer"}}));
        let new = node(serde_json::json!({"properties": {"items": {"type": "integer"}}, "items": {"type": "integer"}}));
        assert!(matches!(compare_schemas(Some(&old), Some(&new)), Err(WalkError::Ambiguous)));
    }

    #[test]
    fn a_field_of_the_wrong_type_is_located_where_it_changed() {
        let old = node(serde_json::json!({"properties": {"a": {"maxLength": 1}}}));
        let new = node(serde_json::json!({"properties": {"a": {"maxLength": "x"}}}));
        let Err(WalkError::Schema(e)) = compare_schemas(Some(&old), Some(&new)) else { panic!("not an error") };
        assert_eq!(e.to_string(), "^.a.maxLength: cannot read a JSON string as an integer");
    }

    #[test]
    fn a_schema_nested_too_deep_is_refused_not_overflowed() {
        let (mut old, mut new) = (serde_json::json!({"type": "string"}), serde_json::json!({"type": "integer"}));
        for _ in 0..150 {
            old = serde_json::json!({"properties": {"a": old}});
            new = serde_json::json!({"properties": {"a": new}});
        }
        let Err(WalkError::Schema(e)) = compare_schemas(Some(&node(old)), Some(&node(new))) else {
            panic!("not an error")
        };
        assert!(e.message.contains("nested more than 100 levels"), "{e}");
    }
}
