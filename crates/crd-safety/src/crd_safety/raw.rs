//! JSON text read one level at a time. A CRD embedded in a catalog keeps each version's schema
//! as JSON text (`SchemaSource::JsonText`): comparing two schemas reads, level by level, only the
//! objects whose texts differ, each into a shallow value tree ([`Shell`]: its members' values as
//! trees, but for the children the walk descends into, which stay text). From one release of an
//! operator to the next most of a CRD's schema is the same text, compared and never read.
//!
//! The text is valid JSON (checked when the manifest is read, [`is_one_json_object`]) and indexed
//! ([`JsonText`]), so the scanning here does not check the grammar again; on any text it ends without a panic.

use std::sync::Arc;

use crate::declcfg::json::JsonReader;
use crate::declcfg::json_brackets::{brackets, Brackets};
use crate::declcfg::json_syntax::{is_json, string_end};
use crate::declcfg::value::{field_index, key_matches};
use crate::declcfg::{Member, Node, Pos, Str, Value};
use crate::hash::HashSet;

/// JSON text (one value) and where each of its objects and arrays ends, found in one pass
/// ([`brackets`]): reading a level steps over its members' values without scanning them again. The value is a
/// span of a shared text (a decoded manifest): its parts ([`JsonText::part`], a version's
/// schema) share it rather than copy it.
pub struct JsonText {
    source: Arc<String>,
    /// Where the value is in `source`.
    start: usize,
    end: usize,
    /// The offset in the value of each `{` and `[` outside strings, in order, and of its
    /// closing bracket.
    opens: Vec<u32>,
    closes: Vec<u32>,
}

impl JsonText {
    /// The text.
    pub fn as_str(&self) -> &str {
        self.source.get(self.start..self.end).unwrap_or("")
    }
}

impl std::fmt::Debug for JsonText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("JsonText").field(&self.as_str()).finish()
    }
}

impl PartialEq for JsonText {
    fn eq(&self, other: &JsonText) -> bool {
        self.as_str() == other.as_str()
    }
}

impl JsonText {
    /// `text` (one JSON value, [`is_one_json_object`]) indexed, in a copy.
    #[cfg(test)]
    pub(crate) fn new(text: &str) -> JsonText {
        JsonText::shared(Arc::new(text.to_string()))
    }

    /// `source` (one JSON value, [`is_one_json_object`]) indexed, without a copy.
    pub(crate) fn shared(source: Arc<String>) -> JsonText {
        let start = source.len() - source.trim_start_matches(SPACE).len();
        let end = source.trim_end_matches(SPACE).len().max(start);
        let Brackets { opens, closes } = brackets(&source.as_bytes()[start..end]);
        JsonText { source, start, end, opens, closes }
    }

    /// The whole value.
    pub(crate) fn root(&self) -> Raw<'_> {
        Raw { doc: self, at: 0, end: self.end - self.start }
    }

    /// The value `raw` of this text, indexed, sharing the text.
    pub(crate) fn part(&self, raw: Raw) -> JsonText {
        let (from, to) = (raw.at as u32, raw.end as u32);
        let first = self.opens.partition_point(|&o| o < from);
        let last = self.opens.partition_point(|&o| o < to);
        JsonText {
            source: Arc::clone(&self.source),
            start: self.start + raw.at,
            end: self.start + raw.end,
            opens: self.opens[first..last].iter().map(|o| o - from).collect(),
            closes: self.closes[first..last].iter().map(|c| c.saturating_sub(from)).collect(),
        }
    }

    /// The end of the value that starts at `i`.
    fn end_of(&self, i: usize) -> usize {
        let b = self.as_str().as_bytes();
        match b.get(i) {
            Some(b'"') => string_end(b, i),
            Some(b'{' | b'[') => match self.opens.binary_search(&(i as u32)) {
                Ok(k) => (self.closes[k] as usize + 1).min(b.len()),
                Err(_) => b.len(),
            },
            _ => {
                let mut j = i;
                while b.get(j).is_some_and(|c| !matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')) {
                    j += 1;
                }
                j
            }
        }
    }
}

/// One JSON value of a [`JsonText`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Raw<'t> {
    doc: &'t JsonText,
    at: usize,
    end: usize,
}

impl PartialEq for Raw<'_> {
    /// Equal texts (the same value of the same text without comparing its bytes: a CRD's
    /// schema against itself).
    fn eq(&self, other: &Raw) -> bool {
        let (a, b) = (self.text(), other.text());
        std::ptr::eq(a, b) || a == b
    }
}

impl<'t> Raw<'t> {
    /// The value's text.
    pub(crate) fn text(self) -> &'t str {
        self.doc.as_str().get(self.at..self.end).unwrap_or("")
    }

    pub(crate) fn is_object(self) -> bool {
        self.text().starts_with('{')
    }

    pub(crate) fn is_array(self) -> bool {
        self.text().starts_with('[')
    }

    /// The value as a tree, as `declcfg::json` reads it.
    pub(crate) fn node(self) -> Node {
        tree(self.text())
    }

    /// An array's elements (none for another kind).
    pub(crate) fn elements(self) -> Vec<Raw<'t>> {
        let mut out = Vec::new();
        if self.is_array() {
            self.each(|_, value| out.push(value));
        }
        out
    }

    /// An object's members (none for another kind). A repeated key keeps its first place and
    /// its last value, as `declcfg::json` reads it (and Go decodes it).
    pub(crate) fn members(self) -> Vec<(Str, Raw<'t>)> {
        let mut out: Vec<(Str, Raw)> = Vec::new();
        if self.is_object() {
            self.each(|key, value| out.push((unescape(key), value)));
        }
        if !has_repeats(&out) {
            return out;
        }
        let mut merged: Vec<(Str, Raw)> = Vec::with_capacity(out.len());
        for (key, value) in out {
            match merged.iter_mut().find(|(k, _)| *k == key) {
                Some(m) => m.1 = value,
                None => merged.push((key, value)),
            }
        }
        merged
    }

    /// Each entry of the container: `(key, value)` for an object's members (the key as written,
    /// quotes included), `("", value)` for an array's elements.
    fn each(self, mut f: impl FnMut(&'t str, Raw<'t>)) {
        let (doc, object) = (self.doc, self.is_object());
        let text = doc.as_str();
        let b = text.as_bytes();
        let mut i = skip_ws(b, self.at + 1);
        while i < self.end && !matches!(b[i], b'}' | b']') {
            let mut key = "";
            if object {
                let end = string_end(b, i);
                key = text.get(i..end).unwrap_or("");
                i = skip_ws(b, end);
                i = skip_ws(b, i + usize::from(b.get(i) == Some(&b':')));
            }
            let end = doc.end_of(i).min(self.end);
            f(key, Raw { doc, at: i, end });
            i = skip_ws(b, end);
            if b.get(i) != Some(&b',') {
                break;
            }
            i = skip_ws(b, i + 1);
        }
    }
}

/// Whether a key appears twice among `members`: compared pairwise for the few members of most
/// objects, hashed for more.
fn has_repeats(members: &[(Str, Raw)]) -> bool {
    if members.len() <= 16 {
        return members.iter().enumerate().any(|(i, (k, _))| members[..i].iter().any(|(e, _)| e == k));
    }
    let mut seen = HashSet::default();
    !members.iter().all(|(k, _)| seen.insert(k.as_str()))
}

/// Whether `text` is one JSON object (whitespace around it aside), which `declcfg::json` reads
/// as one document: the text may then be read as [`Raw`] values.
pub(crate) fn is_one_json_object(text: &str) -> bool {
    opens_an_object(text) && is_json(text.as_bytes())
}

/// Whether `text`'s first byte past whitespace opens an object (all that is left to check of a
/// text known to be JSON).
pub(crate) fn opens_an_object(text: &str) -> bool {
    text.trim_start_matches(SPACE).starts_with('{')
}

/// JSON's whitespace.
const SPACE: [char; 4] = [' ', '\t', '\n', '\r'];

/// An object read one level: its members' values as trees, but those of the members named in
/// `lazy` (case folded, as Go binds fields), which are `null` in the tree and read as text.
pub(crate) struct Shell<'t> {
    pub(crate) node: Node,
    raws: Vec<Raw<'t>>,
}

impl<'t> Shell<'t> {
    /// `raw` one level deep (a value of another kind is read whole).
    pub(crate) fn read(raw: Raw<'t>, lazy: &[&str]) -> Shell<'t> {
        match raw.is_object() {
            true => Shell::of(&raw.members(), lazy),
            false => Shell { node: raw.node(), raws: Vec::new() },
        }
    }

    /// An object's members ([`Raw::members`]) one level deep.
    pub(crate) fn of(members: &[(Str, Raw<'t>)], lazy: &[&str]) -> Shell<'t> {
        let (mut tree, mut raws) = (Vec::with_capacity(members.len()), Vec::with_capacity(members.len()));
        for (key, value) in members {
            let node = if lazy.iter().any(|f| key_matches(key, f)) { null() } else { value.node() };
            tree.push(Member { key: key.clone(), key_pos: Pos::default(), value: node });
            raws.push(*value);
        }
        Shell { node: Node::new(Pos::default(), Value::Object(tree.into())), raws }
    }

    /// The text of the member Go binds to `field`.
    pub(crate) fn field(&self, field: &str) -> Option<Raw<'t>> {
        self.raws.get(field_index(self.node.as_object()?, field)?).copied()
    }

    /// Put `value` in the tree as the member Go binds to `field`.
    pub(crate) fn set(&mut self, field: &str, value: Node) {
        if let Value::Object(members) = &mut self.node.value {
            if let Some(i) = field_index(members, field) {
                members[i].value = value;
            }
        }
    }
}

/// JSON text read as a tree, as `declcfg::json` reads it.
pub(crate) fn tree(text: &str) -> Node {
    JsonReader::new(text, 1).next_value().unwrap_or_else(|_| null())
}

fn null() -> Node {
    Node::new(Pos::default(), Value::Null)
}

/// A key as written (quotes included), decoded.
fn unescape(key: &str) -> Str {
    let inner = key.get(1..key.len().saturating_sub(1)).unwrap_or("");
    if !inner.contains('\\') {
        return Str::from(inner);
    }
    match tree(key).value {
        Value::String(s) => s,
        _ => Str::from(inner),
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crd_safety::walk::same_value;

    fn texts(raws: Vec<Raw<'_>>) -> Vec<&str> {
        raws.into_iter().map(Raw::text).collect()
    }

    #[test]
    fn members_and_elements_are_read_one_level_with_their_text() {
        let doc = JsonText::new(r#" {"a" : {"x":[1,"}"]}, "b\"c":[true , null,"\\"], "d":-1.5e3} "#);
        let got: Vec<(String, &str)> =
            doc.root().members().into_iter().map(|(k, v)| (k.to_string(), v.text())).collect();
        assert_eq!(
            got,
            [("a".into(), r#"{"x":[1,"}"]}"#), ("b\"c".into(), r#"[true , null,"\\"]"#), ("d".into(), "-1.5e3")]
        );
        let b = doc.root().members()[1].1;
        assert_eq!(texts(b.elements()), ["true", "null", r#""\\""#]);
        let part = doc.part(doc.root().members()[0].1);
        assert_eq!(texts(part.root().members()[0].1.elements()), ["1", r#""}""#]);
        assert!(JsonText::new("[]").root().elements().is_empty() && JsonText::new("{ }").root().members().is_empty());
    }

    #[test]
    fn a_repeated_key_keeps_its_first_place_and_last_value_as_the_tree_does() {
        let text = r#"{"a":1,"b":2,"a":3}"#;
        let doc = JsonText::new(text);
        let got: Vec<(String, &str)> =
            doc.root().members().into_iter().map(|(k, v)| (k.to_string(), v.text())).collect();
        assert_eq!(got, [("a".into(), "3"), ("b".into(), "2")]);
        let shell = Shell::read(doc.root(), &[]);
        assert!(same_value(&shell.node, &tree(text)));
        // Past 16 members, repeats are found by hashing: the same answer.
        let many: Vec<String> = (0..20).map(|i| format!(r#""k{}":{i}"#, i % 19)).collect();
        let many = format!("{{{}}}", many.join(","));
        let many = JsonText::new(&many);
        let members: Vec<String> = many.root().members().iter().map(|(k, v)| format!("{k}={}", v.text())).collect();
        assert_eq!((members.len(), &members[..2]), (19, &["k0=19".to_string(), "k1=1".to_string()][..]));
    }

    #[test]
    fn a_shell_keeps_lazy_members_as_text_and_binds_fields_as_go_does() {
        let doc = JsonText::new(r#"{"type":"object","Properties":{"a":{"type":"string"}},"description":"d"}"#);
        let shell = Shell::read(doc.root(), &["properties"]);
        assert_eq!(shell.field("properties").map(Raw::text), Some(r#"{"a":{"type":"string"}}"#));
        assert_eq!(shell.node.field("properties").map(|m| m.value.kind_name()), Some("null"));
        assert_eq!(shell.node.field("type").and_then(|m| m.value.as_str()), Some("object"));
        assert!(Shell::read(JsonText::new("\"x\"").root(), &[]).node.as_str() == Some("x"));
    }

    #[test]
    fn only_one_valid_json_object_is_read_as_text() {
        assert!(is_one_json_object(" {\"a\":[1]}\n"));
        assert!(!is_one_json_object("{\"a\":[1]} {}"));
        assert!(!is_one_json_object("{\"a\":"));
        assert!(!is_one_json_object("[1]"));
        assert!(!is_one_json_object("a: 1"));
    }

    #[test]
    fn truncated_text_ends_without_a_panic() {
        for text in ["{\"a", "{\"a\":", "{\"a\":[1,", "[\"\\", "{\"a\":{\"b\":\"\\\"}", "}]", "{]"] {
            let doc = JsonText::new(text);
            let _ = doc.root().members();
            let _ = doc.root().elements();
            let _ = doc.part(doc.root());
        }
    }
}
