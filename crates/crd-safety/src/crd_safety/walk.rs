//! crdify's comparison of two version schemas (`CompareVersions` and the fields
//! `existingFieldRemoval` finds gone), walked over the two value trees side by side. crdify
//! flattens both schemas to their properties by path (`flatten.rs`) and compares each old
//! property with the new one at the same path; walking both trees together by the same steps
//! visits the same pairs, and a subtree equal on both sides is skipped whole (it has no finding),
//! so only what changed is read as `JSONSchemaProps`. A schema kept as JSON text (an embedded
//! manifest's) is read one level at a time, and only where its text differs from the other's
//! ([`Sub`], `raw.rs`): a level whose members are the same text but for its children is not
//! read at all, only its children that differ. When a key could make two paths coincide
//! (a property named `items`, or with a `.` or `[` in its name), flattening keeps only one of
//! them: the walk then answers [`WalkError::Ambiguous`] and the caller flattens.

use std::borrow::Cow;

use super::raw::{Raw, Shell};
use super::rules::{property_checks, Check};
use super::schema::{Reader, Schema, SchemaError, MAX_DEPTH, MAX_SCHEMAS};
use super::unhandled;
use crate::declcfg::value::{key_index, key_matches};
use crate::declcfg::{Node, Str, Value};
use crate::hash::HashMap;

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

/// A schema to compare: a value tree, or JSON text read only as far as it differs.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Sub<'a> {
    Tree(&'a Node),
    Text(Raw<'a>),
}

impl<'a> Sub<'a> {
    /// Whether the two are equal: equal texts are equal values (texts are not compared as
    /// values: one that differs in its spelling only is walked, and has no finding).
    pub(crate) fn same(self, other: Sub) -> bool {
        match (self, other) {
            (Sub::Tree(a), Sub::Tree(b)) => same_value(a, b),
            (Sub::Text(a), Sub::Text(b)) => a == b,
            (Sub::Tree(a), Sub::Text(b)) | (Sub::Text(b), Sub::Tree(a)) => same_value(a, &b.node()),
        }
    }

    fn is_object(self) -> bool {
        match self {
            Sub::Tree(n) => n.as_object().is_some(),
            Sub::Text(r) => r.is_object(),
        }
    }
}

/// The fields the walk descends into, which a level's tree leaves out (case folded, as Go binds
/// fields).
const CHILDREN: [&str; 2] = ["properties", "items"];

/// One schema of the walk: a tree, or JSON text with its members (none for a value of another
/// kind than an object).
enum Level<'a> {
    Tree(&'a Node),
    Text(Raw<'a>, Vec<(Str, Raw<'a>)>),
}

impl<'a> Level<'a> {
    fn of(sub: Sub<'a>) -> Level<'a> {
        match sub {
            Sub::Tree(n) => Level::Tree(n),
            Sub::Text(r) => Level::Text(r, if r.is_object() { r.members() } else { Vec::new() }),
        }
    }

    /// The tree [`Reader::shallow`] reads (for text, without the [`CHILDREN`] it does not read).
    fn node(&self) -> Cow<'a, Node> {
        match self {
            Level::Tree(n) => Cow::Borrowed(*n),
            Level::Text(r, _) if !r.is_object() => Cow::Owned(r.node()),
            Level::Text(_, members) => Cow::Owned(Shell::of(members, &CHILDREN).node),
        }
    }

    /// Whether both are the same text but for their [`CHILDREN`]: then, read, they differ only
    /// in their children, and the level itself has no finding.
    fn same_but_children(&self, other: &Level) -> bool {
        let (Level::Text(x, a), Level::Text(y, b)) = (self, other) else { return false };
        let child = |k: &str| CHILDREN.iter().any(|f| key_matches(k, f));
        x.is_object()
            && y.is_object()
            && a.len() == b.len()
            && a.iter().zip(b).all(|((ka, va), (kb, vb))| ka == kb && (child(ka) || va == vb))
    }

    /// The member Go binds to `field`.
    fn field(&self, field: &str) -> Option<Sub<'a>> {
        match self {
            Level::Tree(n) => n.field(field).map(|m| Sub::Tree(&m.value)),
            Level::Text(_, members) => {
                key_index(members.iter().map(|(k, _)| k.as_str()), field).map(|i| Sub::Text(members[i].1))
            }
        }
    }

    /// The elements of the field `field` when it is an array.
    fn list(&self, field: &str) -> Vec<Sub<'a>> {
        match self.field(field) {
            Some(Sub::Tree(n)) => n.as_array().unwrap_or(&[]).iter().map(Sub::Tree).collect(),
            Some(Sub::Text(r)) => r.elements().into_iter().map(Sub::Text).collect(),
            None => Vec::new(),
        }
    }

    /// The members of the field `field` when it is an object.
    fn members(&self, field: &str) -> Members<'a> {
        match self.field(field) {
            Some(Sub::Tree(n)) => {
                n.as_object().unwrap_or(&[]).iter().map(|m| (m.key.clone(), Sub::Tree(&m.value))).collect()
            }
            Some(Sub::Text(r)) => r.members().into_iter().map(|(k, v)| (k, Sub::Text(v))).collect(),
            None => Vec::new(),
        }
    }
}

/// Compare two versions' schemas (either may be absent).
pub(crate) fn compare_schemas(old: Option<Sub>, new: Option<Sub>) -> Result<Diff, WalkError> {
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
    fn walk(&mut self, old: Sub, new: Option<Sub>, path: String, depth: usize) -> Result<(), WalkError> {
        if new.is_some_and(|n| old.same(n)) {
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
        let (old, new) = (Level::of(old), new.map(Level::of));
        let properties = (old.members("properties"), new.as_ref().map(|n| n.members("properties")).unwrap_or_default());
        if ambiguous(&old, &properties.0) || new.as_ref().is_some_and(|n| ambiguous(n, &properties.1)) {
            return Err(WalkError::Ambiguous);
        }
        if new.is_none() {
            self.diff.removed.push(path.clone());
        }
        if !new.as_ref().is_some_and(|n| old.same_but_children(n)) {
            self.compare_level(&old, new.as_ref(), &path)?;
        }
        for (step, child, counterpart) in children(&old, new.as_ref(), properties) {
            self.walk(child, counterpart, format!("{path}{step}"), depth + 1)?;
        }
        Ok(())
    }

    /// The property checks and `unhandled` of one level (`new`: `None` when it is gone).
    fn compare_level(&mut self, old: &Level, new: Option<&Level>, path: &str) -> Result<(), WalkError> {
        let read = |n: &Node| Reader::new(path).shallow(n).map_err(WalkError::Schema);
        let a = read(&old.node())?;
        let b = match new {
            Some(n) => read(&n.node())?,
            None => Schema::default(),
        };
        if new.is_none() || !unhandled::same_without_children(&a, &b) {
            for (check, message) in property_checks(&a, &b) {
                self.diff.findings.push((path.to_string(), check, message.clone(), message));
            }
            if let Some((message, key)) = unhandled::unhandled(&a, &b) {
                self.diff.findings.push((path.to_string(), Check::Unhandled, message, key));
            }
        }
        Ok(())
    }
}

/// Whether a schema has a key that could give two sub-schemas the same path (`properties`: its
/// properties).
fn ambiguous(level: &Level, properties: &[(Str, Sub)]) -> bool {
    const STRUCTURAL: [&str; 4] = ["items", "not", "additionalProperties", "additionalItems"];
    let odd = |k: &str| k.contains(['.', '[', ']']);
    properties.iter().any(|(k, _)| STRUCTURAL.contains(&k.as_str()) || odd(k))
        || ["patternProperties", "definitions", "dependencies"]
            .iter()
            .any(|f| level.members(f).iter().any(|(k, _)| odd(k)))
}

/// An object's members.
type Members<'a> = Vec<(Str, Sub<'a>)>;

/// A sub-schema, its path step and its counterpart in the new schema.
type Child<'a> = (String, Sub<'a>, Option<Sub<'a>>);

/// The sub-schemas of `old` in crdify's order that differ from `new`'s (an equal one has no
/// finding), each with its path step and the sub-schema of `new` at the same step; `properties`
/// are both schemas' properties.
fn children<'a>(old: &Level<'a>, new: Option<&Level<'a>>, properties: (Members<'a>, Members<'a>)) -> Vec<Child<'a>> {
    let mut out = Vec::new();
    let single = |out: &mut Vec<Child<'a>>, field: &str, step: &str| {
        if let Some(child) = old.field(field).filter(|c| c.is_object()) {
            let counterpart = new.and_then(|n| n.field(field)).filter(|c| c.is_object());
            if !counterpart.is_some_and(|c| child.same(c)) {
                out.push((step.to_string(), child, counterpart));
            }
        }
    };
    let indexed = |out: &mut Vec<Child<'a>>, field: &str, step: &str| {
        let theirs = new.map(|n| n.list(field)).unwrap_or_default();
        for (i, child) in old.list(field).into_iter().enumerate().filter(|(_, c)| c.is_object()) {
            let counterpart = theirs.get(i).copied().filter(|c| c.is_object());
            if !counterpart.is_some_and(|c| child.same(c)) {
                out.push((format!("{step}[{i}]"), child, counterpart));
            }
        }
    };
    let keyed = |out: &mut Vec<Child<'a>>,
                 ours: Vec<(Str, Sub<'a>)>,
                 theirs: Vec<(Str, Sub<'a>)>,
                 step: &dyn Fn(&str) -> String| {
        let theirs: HashMap<Str, Sub> = theirs.into_iter().collect();
        for (key, child) in ours.into_iter().filter(|(_, c)| c.is_object()) {
            let counterpart = theirs.get(&key).copied().filter(|c| c.is_object());
            if !counterpart.is_some_and(|c| child.same(c)) {
                out.push((step(&key), child, counterpart));
            }
        }
    };
    let both = |field: &str| (old.members(field), new.map(|n| n.members(field)).unwrap_or_default());
    single(&mut out, "items", ".items");
    indexed(&mut out, "items", ".items");
    indexed(&mut out, "allOf", ".allOf");
    indexed(&mut out, "anyOf", ".anyOf");
    indexed(&mut out, "oneOf", ".oneOf");
    single(&mut out, "not", ".not");
    keyed(&mut out, properties.0, properties.1, &|k| format!(".{k}"));
    single(&mut out, "additionalProperties", ".additionalProperties");
    let (ours, theirs) = both("patternProperties");
    keyed(&mut out, ours, theirs, &|k| format!(".patternProperties[{k}]"));
    single(&mut out, "additionalItems", ".additionalItems");
    let (ours, theirs) = both("definitions");
    keyed(&mut out, ours, theirs, &|k| format!(".definitions[{k}]"));
    let (ours, theirs) = both("dependencies");
    keyed(&mut out, ours, theirs, &|k| format!(".dependencies[{k}]"));
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
    use crate::crd_safety::raw::{tree, JsonText};

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
        let diff = compare_schemas(Some(Sub::Tree(&old)), Some(Sub::Tree(&new))).unwrap();
        let got: Vec<(&str, Check)> = diff.findings.iter().map(|(p, c, _, _)| (p.as_str(), *c)).collect();
        assert_eq!(got, [("^.b", Check::Minimum)]);
        assert!(diff.removed.is_empty());
    }

    #[test]
    fn schemas_walked_as_text_give_what_their_trees_give() {
        let old = r#"{"type":"object","properties":{"a":{"type":"string","enum":["x","y"]},"b":{"type":"object","properties":{"c":{"type":"integer"},"d":{"type":"string"}}},"e":{"items":{"type":"string"}}},"required":["a"]}"#;
        let new = r#"{"type":"object","properties":{"a":{"type":"string","enum":["x"]},"b":{"type":"object","properties":{"c":{"type":"integer","minimum":2}}},"e":{"items":{"type":"integer"}}},"required":["a","b"]}"#;
        let (old_tree, new_tree) = (tree(old), tree(new));
        let (old, new) = (JsonText::new(old), JsonText::new(new));
        let text = compare_schemas(Some(Sub::Text(old.root())), Some(Sub::Text(new.root()))).unwrap();
        let tree = compare_schemas(Some(Sub::Tree(&old_tree)), Some(Sub::Tree(&new_tree))).unwrap();
        let mixed = compare_schemas(Some(Sub::Tree(&old_tree)), Some(Sub::Text(new.root()))).unwrap();
        assert_eq!((format!("{text:?}"), format!("{mixed:?}")), (format!("{tree:?}"), format!("{tree:?}")));
        assert_eq!(text.removed, ["^.b.d"]);
        assert_eq!(text.findings.len(), 5, "{:?}", text.findings);
        let ambiguous = JsonText::new(r#"{"properties":{"items":{"type":"string"}}}"#);
        assert!(matches!(
            compare_schemas(Some(Sub::Text(ambiguous.root())), Some(Sub::Text(old.root()))),
            Err(WalkError::Ambiguous)
        ));
    }

    #[test]
    fn a_level_whose_own_text_is_unchanged_is_not_read_only_its_changed_children() {
        // `maxLength` does not read, but it is the same text on both sides: as for an unchanged
        // subtree, only what changed is read (the property `a`).
        let old = JsonText::new(r#"{"maxLength":"x","properties":{"a":{"type":"string"}}}"#);
        let new = JsonText::new(r#"{"maxLength":"x","properties":{"a":{"type":"integer"}}}"#);
        let diff = compare_schemas(Some(Sub::Text(old.root())), Some(Sub::Text(new.root()))).unwrap();
        let got: Vec<(&str, Check)> = diff.findings.iter().map(|(p, c, _, _)| (p.as_str(), *c)).collect();
        assert_eq!(got, [("^.a", Check::Type)]);
        let changed = JsonText::new(r#"{"maxLength":"y","properties":{"a":{"type":"integer"}}}"#);
        assert!(matches!(
            compare_schemas(Some(Sub::Text(old.root())), Some(Sub::Text(changed.root()))),
            Err(WalkError::Schema(_))
        ));
    }

    #[test]
    fn a_removed_subtree_lists_every_path_under_it() {
        let old =
            node(serde_json::json!({"properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}}}}));
        let new = node(serde_json::json!({"properties": {}}));
        let diff = compare_schemas(Some(Sub::Tree(&old)), Some(Sub::Tree(&new))).unwrap();
        assert_eq!(diff.removed, ["^.a", "^.a.b"]);
    }

    #[test]
    fn a_property_named_like_a_child_makes_the_walk_give_way_to_flattening() {
        let old = node(serde_json::json!({"properties": {"items": {"type": "string"}}, "items": {"type": "integer"}}));
        let new = node(serde_json::json!({"properties": {"items": {"type": "integer"}}, "items": {"type": "integer"}}));
        assert!(matches!(compare_schemas(Some(Sub::Tree(&old)), Some(Sub::Tree(&new))), Err(WalkError::Ambiguous)));
    }

    #[test]
    fn a_field_of_the_wrong_type_is_located_where_it_changed() {
        let old = node(serde_json::json!({"properties": {"a": {"maxLength": 1}}}));
        let new = node(serde_json::json!({"properties": {"a": {"maxLength": "x"}}}));
        let Err(WalkError::Schema(e)) = compare_schemas(Some(Sub::Tree(&old)), Some(Sub::Tree(&new))) else {
            panic!("not an error")
        };
        assert_eq!(e.to_string(), "^.a.maxLength: cannot read a JSON string as an integer");
    }

    #[test]
    fn a_schema_nested_too_deep_is_refused_not_overflowed() {
        let (mut old, mut new) = (serde_json::json!({"type": "string"}), serde_json::json!({"type": "integer"}));
        for _ in 0..150 {
            old = serde_json::json!({"properties": {"a": old}});
            new = serde_json::json!({"properties": {"a": new}});
        }
        let Err(WalkError::Schema(e)) = compare_schemas(Some(Sub::Tree(&node(old))), Some(Sub::Tree(&node(new))))
        else {
            panic!("not an error")
        };
        assert!(e.message.contains("nested more than 100 levels"), "{e}");
    }
}
