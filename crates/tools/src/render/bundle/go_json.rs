//! Compact JSON as Go's `encoding/json` writes it, for the bytes opm compares and embeds: object
//! keys either sorted (a Go map, such as a manifest decoded as unstructured) or kept in the
//! node's member order (a Go struct, built here in field order), with or without HTML escaping.
//!
//! `json.Marshal` escapes `<`, `>` and `&` as `\u003c`, `\u003e`, `\u0026` (the
//! `olm.bundle.object` data and YAML converted to JSON); opm's property builder turns HTML
//! escaping off. Both escape U+2028 and U+2029, and since Go 1.22 write `\b` and `\f` short.

use crate::declcfg::{Node, Value};
use crate::gotext::write_json_string as write_string;

/// How object members are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keys {
    /// Sorted by key bytes, as Go writes a map.
    Sorted,
    /// In the node's member order, as Go writes a struct.
    AsIs,
}

/// `node` as compact JSON.
pub fn to_json(node: &Node, keys: Keys, escape_html: bool) -> String {
    let mut out = String::new();
    write_node(node, keys, escape_html, &mut out);
    out
}

fn write_node(node: &Node, keys: Keys, html: bool, out: &mut String) {
    match &node.value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&crate::gotext::json_number(*n).unwrap_or_else(|_| "null".into())),
        Value::String(s) => write_string(s, html, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_node(item, keys, html, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            let mut ordered: Vec<_> = members.iter().collect();
            if keys == Keys::Sorted {
                crate::sort::sort_by(&mut ordered, |a, b| a.key.cmp(&b.key));
            }
            out.push('{');
            for (i, m) in ordered.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(&m.key, html, out);
                out.push(':');
                write_node(&m.value, keys, html, out);
            }
            out.push('}');
        }
    }
}

/// Sort every object's members by key, recursively (a value that went through a Go map).
pub fn sort_keys(node: &mut Node) {
    match &mut node.value {
        Value::Array(items) => items.iter_mut().for_each(sort_keys),
        Value::Object(members) => {
            crate::sort::sort_by(members, |a, b| a.key.cmp(&b.key));
            members.iter_mut().for_each(|m| sort_keys(&mut m.value));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::read_documents;

    fn node(text: &str) -> Node {
        read_documents("t.yaml", text.as_bytes()).remove(0).unwrap().value.unwrap()
    }

    #[test]
    fn a_map_is_written_with_sorted_keys_and_html_escaping() {
        let n = node("b: <x & y>\na: [1, 2.5, true, null]\n");
        assert_eq!(to_json(&n, Keys::Sorted, true), r#"{"a":[1,2.5,true,null],"b":"\u003cx \u0026 y\u003e"}"#);
    }

    #[test]
    fn a_struct_keeps_its_field_order_and_opm_properties_do_not_escape_html() {
        let n = node("packageName: bar\nversionRange: <0.1.0\n");
        assert_eq!(to_json(&n, Keys::AsIs, false), r#"{"packageName":"bar","versionRange":"<0.1.0"}"#);
    }
}
