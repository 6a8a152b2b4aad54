//! A property's value: its tree, or, for a value the YAML reader checked against its property
//! type's Go struct without building a tree (the `olm.csv.metadata` values that are most of a
//! catalog's bytes, which validation only needs checked), its text, read into the same tree,
//! with the same positions, the first time the tree is asked for.

use std::ops::{Deref, Range};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use super::file_bytes::FileBytes;
use super::value::{Node, Pos, Value};
use super::yaml;

/// A property's value; it dereferences to its tree ([`Node`]).
pub struct PropertyValue(Repr);

enum Repr {
    Tree(Node),
    Text(Box<Text>),
}

/// The lines of a `value:` key and its block, as they are in the file: a span of bytes, which
/// the values checked in one file share when it is mapped from disk.
struct Text {
    file: Arc<FileBytes>,
    span: Range<usize>,
    /// The file line of the `value:` line.
    first_line: u32,
    /// Where the string is, for a value of one field holding a string on one plain line.
    string: Option<Range<usize>>,
    /// The loader found that the string is base64 of JSON (an `olm.bundle.object`'s payload).
    payload_json: AtomicBool,
    tree: OnceLock<Node>,
}

impl PropertyValue {
    /// A value known by its text: the `value:` line and the lines of its block, starting at file
    /// line `first_line`, whose tree decodes into its property type's Go struct.
    /// `string`: for a value of one field holding a string on one plain line (an
    /// `olm.bundle.object`), where that string is in `text`.
    pub(crate) fn checked_text(text: &str, first_line: u32, string: Option<Range<usize>>) -> PropertyValue {
        let file = Arc::new(FileBytes::Copied(text.as_bytes().into()));
        PropertyValue::checked_in(file, 0..text.len(), first_line, string)
    }

    /// [`PropertyValue::checked_text`] for the text at `span` of `file` (UTF-8, and the spans on
    /// character boundaries); `string` is a span of `file` too.
    pub(crate) fn checked_in(
        file: Arc<FileBytes>,
        span: Range<usize>,
        first_line: u32,
        string: Option<Range<usize>>,
    ) -> PropertyValue {
        let payload_json = AtomicBool::new(false);
        PropertyValue(Repr::Text(Box::new(Text {
            file,
            span,
            first_line,
            string,
            payload_json,
            tree: OnceLock::new(),
        })))
    }

    /// Record that the checked string is base64 of a JSON document (the loader decoded and
    /// parsed it); nothing for a value known by its tree.
    pub(crate) fn mark_payload_json(&self) {
        if let Repr::Text(t) = &self.0 {
            t.payload_json.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the loader found [`PropertyValue::checked_string`] to be base64 of a JSON
    /// document (an `olm.bundle.object`'s payload), so that its readers need not check the JSON
    /// again; `false` when it does not know.
    pub fn payload_is_json(&self) -> bool {
        matches!(&self.0, Repr::Text(t) if t.payload_json.load(Ordering::Relaxed))
    }

    /// For a value checked as an object of one field holding a string written on one plain line
    /// (an `olm.bundle.object`'s base64 `data`), that string, read from the file without
    /// building the tree; `None` for any other value.
    pub fn checked_string(&self) -> Option<&str> {
        match &self.0 {
            Repr::Text(t) => t.string.clone().and_then(|span| simdutf8::basic::from_utf8(t.file.get(span)?).ok()),
            Repr::Tree(_) => None,
        }
    }

    /// The tree, when it is built (always, but for a value checked from its text and not asked
    /// for since).
    pub fn built(&self) -> Option<&Node> {
        match &self.0 {
            Repr::Tree(node) => Some(node),
            Repr::Text(t) => t.tree.get(),
        }
    }

    /// Whether both values are checked texts kept in the same bytes.
    #[cfg(test)]
    pub(crate) fn shares_text_with(&self, other: &PropertyValue) -> bool {
        match (&self.0, &other.0) {
            (Repr::Text(a), Repr::Text(b)) => Arc::ptr_eq(&a.file, &b.file),
            _ => false,
        }
    }

    /// Whether the reader found that the value decodes into its property type's Go struct
    /// without building its tree.
    pub fn checked_unread(&self) -> bool {
        matches!(self.0, Repr::Text(_))
    }
}

impl Text {
    /// The tree of the block: the value of the one key of the text read as a YAML document.
    fn read(&self) -> Node {
        // The span holds whole lines of text checked as UTF-8 when the file was read (checked
        // again: a mapped file may have been written since).
        let text =
            self.file.get(self.span.clone()).and_then(|b| simdutf8::basic::from_utf8(b).ok()).unwrap_or_default();
        let doc = yaml::Document::new(text, self.first_line);
        let value = match yaml::parse(&doc) {
            Ok(Some(Node { value: Value::Object(members), .. })) => members.into_vec().pop().map(|m| m.value),
            _ => None,
        };
        // The reader scanned this text as the value of a `value:` key: it reads back as one.
        value.unwrap_or_else(|| Node::new(Pos::new(self.first_line, 1), Value::Null))
    }
}

impl Deref for PropertyValue {
    type Target = Node;

    fn deref(&self) -> &Node {
        match &self.0 {
            Repr::Tree(node) => node,
            Repr::Text(t) => t.tree.get_or_init(|| t.read()),
        }
    }
}

impl From<Node> for PropertyValue {
    fn from(node: Node) -> PropertyValue {
        PropertyValue(Repr::Tree(node))
    }
}

impl Clone for PropertyValue {
    fn clone(&self) -> PropertyValue {
        PropertyValue(match &self.0 {
            Repr::Tree(node) => Repr::Tree(node.clone()),
            Repr::Text(t) => {
                let (file, span, string) = (t.file.clone(), t.span.clone(), t.string.clone());
                let payload_json = AtomicBool::new(t.payload_json.load(Ordering::Relaxed));
                let first_line = t.first_line;
                Repr::Text(Box::new(Text { file, span, first_line, string, payload_json, tree: t.tree.clone() }))
            }
        })
    }
}

/// Values are equal when their trees are.
impl PartialEq for PropertyValue {
    fn eq(&self, other: &PropertyValue) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for PropertyValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value known by its text reads into the tree its lines hold, at their file positions.
    #[test]
    fn a_text_value_reads_into_its_tree_at_its_lines() {
        let v = PropertyValue::checked_text("  value:\n    displayName: x\n    keywords:\n    - a\n", 7, None);
        assert!(v.checked_unread() && v.built().is_none());
        assert_eq!(v.get("displayName").and_then(Node::as_str), Some("x"));
        assert_eq!(v.pos, Pos::new(8, 5));
        // A sequence at its key's indentation is placed at its first entry's content (saphyr).
        assert_eq!(v.get("keywords").unwrap().pos, Pos::new(10, 7));
        assert!(v.built().is_some());
        let tree = PropertyValue::from((*v).clone());
        assert_eq!(tree, v);
        assert!(!tree.checked_unread());
    }
}
