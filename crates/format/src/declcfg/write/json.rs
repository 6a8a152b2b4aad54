//! One blob as Go's `json.Encoder` writes it with `SetIndent("", "    ")` and `SetEscapeHTML(false)`:
//! members in the value's order, four spaces per level, `"key": value`, empty objects and arrays
//! as `{}` and `[]`, strings escaped as `encoding/json` escapes them without HTML escaping,
//! numbers as Go prints a float64, and a newline after each value.

use super::super::value::{go_float, write_go_string, Node, Value};

/// `value` and its trailing newline.
pub(super) fn write_value(value: &Node, out: &mut String) {
    write_node(value, 0, out);
    out.push('\n');
}

fn write_node(node: &Node, depth: usize, out: &mut String) {
    match &node.value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&go_float(*n)),
        Value::String(s) => write_go_string(s, out),
        Value::Array(items) if items.is_empty() => out.push_str("[]"),
        Value::Object(members) if members.is_empty() => out.push_str("{}"),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                separator(i, depth + 1, out);
                write_node(item, depth + 1, out);
            }
            newline(depth, out);
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, m) in members.iter().enumerate() {
                separator(i, depth + 1, out);
                write_go_string(&m.key, out);
                out.push_str(": ");
                write_node(&m.value, depth + 1, out);
            }
            newline(depth, out);
            out.push('}');
        }
    }
}

/// The comma before every item but the first, then the item's line.
fn separator(index: usize, depth: usize, out: &mut String) {
    if index > 0 {
        out.push(',');
    }
    newline(depth, out);
}

fn newline(depth: usize, out: &mut String) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("    ");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::json::JsonReader;

    fn render(src: &str) -> String {
        let mut out = String::new();
        write_value(&JsonReader::new(src, 1).next_value().unwrap(), &mut out);
        out
    }

    #[test]
    fn nests_with_four_spaces_and_a_space_after_colons() {
        assert_eq!(
            render(r#"{"a":[1,{"b":null}]}"#),
            "{\n    \"a\": [\n        1,\n        {\n            \"b\": null\n        }\n    ]\n}\n"
        );
    }

    #[test]
    fn empty_containers_stay_on_one_line() {
        assert_eq!(render(r#"{"a":[],"b":{}}"#), "{\n    \"a\": [],\n    \"b\": {}\n}\n");
    }

    #[test]
    fn no_html_escaping_and_go_numbers() {
        assert_eq!(
            render(r#"["<a&b>", 1.0, 1e21, 0.0000001]"#),
            "[\n    \"<a&b>\",\n    1,\n    1e+21,\n    1e-7\n]\n"
        );
    }

    #[test]
    fn control_characters_are_escaped_like_go() {
        assert_eq!(render(r#"["\u0001\t\u2028"]"#), "[\n    \"\\u0001\\t\\u2028\"\n]\n");
    }
}
