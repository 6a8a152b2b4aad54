//! New text in the style of the file it goes into: [`Out`] values (ordered keys) written as block
//! YAML at a given indentation, or as JSON pretty-printed with the file's indent unit, or
//! compact for a one-line container. Scalars are quoted only when plain YAML would read them as
//! something else; a replaced scalar keeps the quoting it had.

use crate::declcfg::{Node, Quoting, Value};

/// A value to write, keys in the order they will be written.
#[derive(Debug, Clone, PartialEq)]
pub enum Out {
    /// A string.
    Str(String),
    /// A number, boolean or null, as its literal text.
    Lit(String),
    /// A sequence.
    Seq(Vec<Out>),
    /// A mapping.
    Map(Vec<(String, Out)>),
}

impl Out {
    /// A string value.
    pub fn s(text: impl Into<String>) -> Out {
        Out::Str(text.into())
    }

    /// A mapping from pairs.
    pub fn map<const N: usize>(pairs: [(&str, Out); N]) -> Out {
        Out::Map(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }

    /// The value read from a catalog node, keys in source order.
    pub fn from_node(node: &Node) -> Out {
        match &node.value {
            Value::Null => Out::Lit("null".into()),
            Value::Bool(b) => Out::Lit(b.to_string()),
            Value::Number(n) => Out::Lit(crate::gotext::json_number(*n).unwrap_or_else(|_| n.to_string())),
            Value::String(s) => Out::Str(s.to_string()),
            Value::Array(a) => Out::Seq(a.iter().map(Out::from_node).collect()),
            Value::Object(m) => Out::Map(m.iter().map(|m| (m.key.to_string(), Out::from_node(&m.value))).collect()),
        }
    }

    /// The same value with every mapping's keys sorted (as opm writes YAML).
    pub fn sorted(self) -> Out {
        match self {
            Out::Map(mut m) => {
                m.sort_by(|a, b| a.0.cmp(&b.0));
                Out::Map(m.into_iter().map(|(k, v)| (k, v.sorted())).collect())
            }
            Out::Seq(s) => Out::Seq(s.into_iter().map(Out::sorted).collect()),
            other => other,
        }
    }

    fn is_collection(&self) -> bool {
        matches!(self, Out::Seq(s) if !s.is_empty()) || matches!(self, Out::Map(m) if !m.is_empty())
    }
}

/// How a file writes nested values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// JSON rather than YAML.
    pub json: bool,
    /// Spaces per nesting level.
    pub unit: usize,
    /// YAML block sequences under a key start at the key's column (`key:\n- a`), as opm writes.
    pub indentless: bool,
    /// Mappings keep their keys sorted (opm's YAML).
    pub sorted: bool,
}

/// A string as a JSON (and YAML double-quoted) literal.
pub fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{}\"", s.escape_default()))
}

/// Whether plain YAML (1.1, as go-yaml v2 reads it) gives back exactly this string.
pub fn plain_ok(s: &str) -> bool {
    let Some(first) = s.chars().next() else { return false };
    if s.trim() != s || "-?:,[]{}#&*!|>'\"%@`".contains(first) || s.contains(": ") || s.contains(" #") {
        return false;
    }
    if s.ends_with(':') || s.chars().any(|c| c.is_control() || c == '\u{feff}') {
        return false;
    }
    let lower = s.to_ascii_lowercase();
    let special = ["y", "n", "yes", "no", "on", "off", "true", "false", "null", "~", ".inf", "-.inf", ".nan"];
    if special.contains(&lower.as_str()) || lower.starts_with("<<") {
        return false;
    }
    // Anything that starts like a number, a date or a sexagesimal could resolve to one.
    let numeric = s.chars().all(|c| c.is_ascii_digit() || "+-._:eExXoObB".contains(c) || c.is_ascii_hexdigit());
    !(numeric && s.chars().any(|c| c.is_ascii_digit()))
}

/// A scalar string in YAML, keeping `quoting` where it can.
pub fn yaml_scalar(s: &str, quoting: Quoting) -> String {
    match quoting {
        Quoting::Single if !s.contains('\n') => format!("'{}'", s.replace('\'', "''")),
        Quoting::Double => json_string(s),
        _ if plain_ok(s) => s.to_string(),
        _ => json_string(s),
    }
}

/// A scalar in the file's syntax.
pub fn scalar(v: &Out, style: &Style, quoting: Quoting) -> String {
    match v {
        Out::Str(s) if style.json => json_string(s),
        Out::Str(s) => yaml_scalar(s, quoting),
        Out::Lit(l) => l.clone(),
        other => flow(other),
    }
}

/// Compact JSON (also valid flow YAML), `", "` and `": "` between parts.
pub fn flow(v: &Out) -> String {
    match v {
        Out::Str(s) => json_string(s),
        Out::Lit(l) => l.clone(),
        Out::Seq(items) => format!("[{}]", items.iter().map(flow).collect::<Vec<_>>().join(", ")),
        Out::Map(m) => {
            let parts: Vec<String> = m.iter().map(|(k, v)| format!("{}: {}", json_string(k), flow(v))).collect();
            format!("{{{}}}", parts.join(", "))
        }
    }
}

/// A value written where a value starts at column `indent` (0-based); the first line is not
/// indented (the caller's text already is), later lines are.
pub fn value(v: &Out, style: &Style, indent: usize) -> String {
    if style.json {
        json(v, style.unit, indent)
    } else {
        yaml_block(v, style, indent)
    }
}

/// Pretty JSON whose nested lines are indented from `indent` by `unit`.
pub fn json(v: &Out, unit: usize, indent: usize) -> String {
    let pad = |n: usize| " ".repeat(n);
    match v {
        Out::Seq(items) if !items.is_empty() => {
            let inner: Vec<String> =
                items.iter().map(|i| format!("{}{}", pad(indent + unit), json(i, unit, indent + unit))).collect();
            format!("[\n{}\n{}]", inner.join(",\n"), pad(indent))
        }
        Out::Map(m) if !m.is_empty() => {
            let inner: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}{}: {}", pad(indent + unit), json_string(k), json(v, unit, indent + unit)))
                .collect();
            format!("{{\n{}\n{}}}", inner.join(",\n"), pad(indent))
        }
        other => flow(other),
    }
}

/// Block YAML for a value starting at column `indent`: a mapping's first key or a sequence's
/// first dash on the current line, the rest below it.
pub fn yaml_block(v: &Out, style: &Style, indent: usize) -> String {
    let pad = " ".repeat(indent);
    match v {
        Out::Map(m) if !m.is_empty() => {
            let lines: Vec<String> = m.iter().map(|(k, v)| member(k, v, style, indent)).collect();
            lines.join(&format!("\n{pad}"))
        }
        Out::Seq(items) if !items.is_empty() => {
            let lines: Vec<String> = items.iter().map(|i| format!("- {}", yaml_block(i, style, indent + 2))).collect();
            lines.join(&format!("\n{pad}"))
        }
        other => scalar(other, style, Quoting::Plain),
    }
}

/// `key: value` in block YAML, the key at column `indent`.
pub fn member(key: &str, v: &Out, style: &Style, indent: usize) -> String {
    let k = yaml_scalar(key, Quoting::Plain);
    match v {
        Out::Seq(_) if v.is_collection() => {
            let at = if style.indentless { indent } else { indent + style.unit };
            format!("{k}:\n{}{}", " ".repeat(at), yaml_block(v, style, at))
        }
        Out::Map(_) if v.is_collection() => {
            let at = indent + style.unit;
            format!("{k}:\n{}{}", " ".repeat(at), yaml_block(v, style, at))
        }
        _ => format!("{k}: {}", scalar(v, style, Quoting::Plain)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const YAML: Style = Style { json: false, unit: 2, indentless: true, sorted: true };

    #[test]
    fn plain_scalars_only_when_they_read_back_as_the_same_string() {
        for s in ["stable", "v1.2.3", "foo.v0.1.0", ">=1.0.0 <2.0.0 x", "quay.io/a/b@sha256:00"] {
            assert_eq!(plain_ok(s), !s.starts_with('>'), "{s}");
        }
        for s in ["", "true", "No", "1.0", "0x1F", "a: b", " x", "x #y", "null", "*a", "1e3", "2024-01-01"] {
            assert!(!plain_ok(s), "{s}");
        }
        assert_eq!(yaml_scalar("it's", Quoting::Single), "'it''s'");
        assert_eq!(yaml_scalar("yes", Quoting::Plain), "\"yes\"");
    }

    #[test]
    fn block_yaml_nests_sequences_at_the_key_column_when_the_file_does() {
        let v = Out::map([
            ("entries", Out::Seq(vec![Out::map([("name", Out::s("a")), ("skips", Out::Seq(vec![Out::s("b")]))])])),
            ("name", Out::s("stable")),
        ]);
        assert_eq!(yaml_block(&v, &YAML, 0), "entries:\n- name: a\n  skips:\n  - b\nname: stable");
        let indented = Style { indentless: false, ..YAML };
        assert_eq!(yaml_block(&v, &indented, 0), "entries:\n  - name: a\n    skips:\n      - b\nname: stable");
    }

    #[test]
    fn json_follows_the_indent_unit_and_base_indentation() {
        let v = Out::map([("a", Out::Seq(vec![Out::s("x")])), ("b", Out::Map(vec![]))]);
        assert_eq!(json(&v, 4, 4), "{\n        \"a\": [\n            \"x\"\n        ],\n        \"b\": {}\n    }");
        assert_eq!(flow(&v), "{\"a\": [\"x\"], \"b\": {}}");
    }
}
