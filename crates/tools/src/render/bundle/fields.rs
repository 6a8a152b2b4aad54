//! Reading fields of a decoded manifest the way Go's `encoding/json` binds them to struct fields:
//! keys match case-insensitively, a missing key or `null` is the zero value, and a value of the
//! wrong JSON type is an error worded as Go's.

use crate::declcfg::{Node, Value};
use crate::diagnostic::Location;

/// `node.field`, absent when missing or `null`.
pub fn get<'a>(node: &'a Node, field: &str) -> Option<&'a Node> {
    node.field(field).map(|m| &m.value).filter(|v| v.value != Value::Null)
}

/// Follow a path of fields (`["spec", "version"]`).
pub fn path<'a>(node: &'a Node, fields: &[&str]) -> Option<&'a Node> {
    fields.iter().try_fold(node, |n, f| get(n, f))
}

/// A string field: `""` when absent, an error when it holds another JSON type.
pub fn string(node: &Node, field: &str) -> Result<String, String> {
    match get(node, field) {
        None => Ok(String::new()),
        Some(v) => as_string(v),
    }
}

/// A string value, or Go's error for another JSON type.
pub fn as_string(v: &Node) -> Result<String, String> {
    match &v.value {
        Value::String(s) => Ok(s.to_string()),
        Value::Null => Ok(String::new()),
        _ => Err(mismatch(v, "string")),
    }
}

/// A string field, `""` for anything but a string (as `unstructured.NestedString` reads
/// `metadata.name` and `kind`).
pub fn loose_string(node: &Node, field: &str) -> String {
    get(node, field).and_then(Node::as_str).unwrap_or_default().to_string()
}

/// The elements of an array field (none when absent), or Go's error for another JSON type.
pub fn array<'a>(node: &'a Node, field: &str, go_type: &str) -> Result<&'a [Node], String> {
    match get(node, field) {
        None => Ok(&[]),
        Some(v) => v.as_array().ok_or_else(|| mismatch(v, go_type)),
    }
}

/// Go's `json: cannot unmarshal <kind> into Go value of type <go_type>`.
pub fn mismatch(v: &Node, go_type: &str) -> String {
    format!("json: cannot unmarshal {} into Go value of type {go_type}", v.kind_name())
}

/// A location in `file` at `node`.
pub fn at(file: &str, node: &Node) -> Location {
    Location { file: file.to_string(), line: node.pos.line, column: node.pos.column, pointer: String::new() }
}

/// The whole file `file`.
pub fn whole(file: &str) -> Location {
    Location { file: file.to_string(), ..Location::default() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::read_documents;

    #[test]
    fn fields_bind_as_go_binds_struct_fields() {
        let n = read_documents("t", b"Spec: {version: 1, name: x, none: null}\n").remove(0).unwrap().value.unwrap();
        let spec = get(&n, "spec").unwrap();
        assert_eq!(string(spec, "name").unwrap(), "x");
        assert_eq!(string(spec, "none").unwrap(), "");
        assert_eq!(string(spec, "missing").unwrap(), "");
        assert_eq!(string(spec, "version").unwrap_err(), "json: cannot unmarshal number into Go value of type string");
        assert_eq!(loose_string(spec, "version"), "");
        assert!(path(&n, &["spec", "name"]).is_some());
        assert_eq!(array(spec, "name", "[]string").unwrap_err(), mismatch(get(spec, "name").unwrap(), "[]string"));
    }
}
