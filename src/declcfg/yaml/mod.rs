//! Reading YAML catalog files the way opm does: split into documents at lines that begin with
//! `---` (the Kubernetes YAML reader), then turn each document into a spanned [`Node`] with
//! YAML 1.1 scalar rules (go-yaml v2, through sigs.k8s.io/yaml): anchors, aliases and `<<` merge
//! keys are expanded, non-string keys are stringified.
//!
//! Hostile input is bounded: nesting depth and the number of nodes produced by alias expansion
//! both have a budget, and exceeding one ends the document with an error, not a hang.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError};

pub mod fast;
pub mod scalar;

use super::json::insert_member;
use super::value::{Member, Node, Pos, Value};
use scalar::Scalar;

/// Deepest nesting of sequences and mappings accepted in one document.
pub const MAX_DEPTH: usize = 1000;
/// Most nodes one document may expand to (counting every alias copy).
pub const MAX_NODES: usize = 4_000_000;

/// One YAML document of a file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Document<'a> {
    /// The document text (without its separator line).
    pub text: &'a str,
    /// The file line of the document's first line (1-based).
    pub first_line: u32,
}

/// A problem with a YAML document, and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct YamlError {
    /// What is wrong, worded like opm.
    pub message: String,
    /// Where.
    pub pos: Pos,
}

/// Split a file (or the YAML rest of a file) into documents, as Kubernetes' YAML reader does:
/// a line beginning with `---` ends the current document; only spaces or a comment may follow
/// the separator on its line. Empty documents (zero bytes) are dropped, blank ones are kept.
pub fn split_documents(src: &str, first_line: u32) -> Result<Vec<Document<'_>>, YamlError> {
    let mut docs = Vec::new();
    let mut start = 0usize; // byte offset of the current document
    let mut doc_line = first_line;
    let mut line_no = first_line;
    let mut at = 0usize;
    while at < src.len() {
        let end = src[at..].find('\n').map(|i| at + i + 1).unwrap_or(src.len());
        let line = &src[at..end];
        if let Some(rest) = line.strip_prefix("---") {
            let trimmed = rest.trim();
            if !trimmed.is_empty() && !trimmed.starts_with('#') {
                return Err(YamlError {
                    message: format!("invalid Yaml document separator: {trimmed}"),
                    pos: Pos::new(line_no, 1),
                });
            }
            if at > start {
                docs.push(Document { text: &src[start..at], first_line: doc_line });
            }
            start = end;
            doc_line = line_no + 1;
        }
        at = end;
        line_no += 1;
    }
    if src.len() > start {
        docs.push(Document { text: &src[start..], first_line: doc_line });
    }
    Ok(docs)
}

/// Parse one document. `Ok(None)` for a document that holds no value (blank or comments only).
pub fn parse_document(doc: &Document<'_>) -> Result<Option<Node>, YamlError> {
    let mut builder = Builder::new(doc.first_line);
    let mut parser = Parser::new_from_str(doc.text);
    let mut root: Option<Node> = None;
    let mut documents = 0usize;
    while let Some(next) = parser.next_event() {
        let (event, span) = next.map_err(|e| builder.scan_error(&e))?;
        let pos = builder.pos(span.start.line(), span.start.col());
        match event {
            Event::StreamStart | Event::Nothing => {}
            Event::StreamEnd => break,
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    // A `---` that is not at the start of a line (the splitter took those).
                    return Err(YamlError {
                        message: "error converting YAML to JSON: yaml: expected a single document in the stream".into(),
                        pos,
                    });
                }
            }
            Event::DocumentEnd => {}
            other => {
                if let Some(done) = builder.event(other, pos)? {
                    root = Some(done);
                }
            }
        }
    }
    Ok(root)
}

enum Frame {
    Seq { pos: Pos, anchor: usize, items: Vec<Node> },
    Map { pos: Pos, anchor: usize, members: Vec<Member>, key: Option<Key> },
}

enum Key {
    Text(String, Pos),
    Merge,
}

struct Builder {
    first_line: u32,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Node>,
    nodes: usize,
}

impl Builder {
    fn new(first_line: u32) -> Builder {
        Builder { first_line, stack: Vec::new(), anchors: HashMap::new(), nodes: 0 }
    }

    fn pos(&self, line: usize, col: usize) -> Pos {
        Pos::new(self.first_line + line.saturating_sub(1) as u32, col as u32 + 1)
    }

    fn scan_error(&self, e: &ScanError) -> YamlError {
        let pos = self.pos(e.marker().line(), e.marker().col());
        YamlError { message: format!("error converting YAML to JSON: yaml: line {}: {}", pos.line, e.info()), pos }
    }

    fn err(&self, message: impl Into<String>, pos: Pos) -> YamlError {
        YamlError { message: message.into(), pos }
    }

    fn count(&mut self, n: usize, pos: Pos) -> Result<(), YamlError> {
        self.nodes += n;
        if self.nodes > MAX_NODES {
            return Err(self.err(
                format!("error converting YAML to JSON: yaml: document expands to more than {MAX_NODES} values (too many aliases)"),
                pos,
            ));
        }
        Ok(())
    }

    /// Feed one event; returns the root node when the document's value is complete.
    fn event(&mut self, event: Event<'_>, pos: Pos) -> Result<Option<Node>, YamlError> {
        match event {
            Event::Scalar(text, style, anchor, tag) => {
                self.count(1, pos)?;
                let plain = style == ScalarStyle::Plain;
                let tag_suffix =
                    tag.as_ref().map(|t| if t.is_yaml_core_schema() { t.suffix.clone() } else { t.to_string() });
                // `<<` in key position is a merge key.
                if self.expecting_key() && scalar::is_merge_key(&text, plain, tag_suffix.as_deref()) {
                    if let Some(Frame::Map { key, .. }) = self.stack.last_mut() {
                        *key = Some(Key::Merge);
                    }
                    return Ok(None);
                }
                let scalar = scalar::resolve(&text, plain, tag_suffix.as_deref())
                    .map_err(|m| self.err(format!("error converting YAML to JSON: yaml: {m}"), pos))?;
                if self.expecting_key() {
                    if let Some(m) = scalar::key_error(&scalar) {
                        return Err(self.err(format!("error converting YAML to JSON: {m}"), pos));
                    }
                    let key = scalar::key_text(&scalar);
                    if anchor > 0 {
                        self.anchors.insert(anchor, Node::new(pos, Value::String(key.clone())));
                    }
                    if let Some(Frame::Map { key: k, .. }) = self.stack.last_mut() {
                        *k = Some(Key::Text(key, pos));
                    }
                    return Ok(None);
                }
                let node = Node::new(pos, scalar_value(scalar));
                if anchor > 0 {
                    self.anchors.insert(anchor, node.clone());
                }
                self.finish(node)
            }
            Event::Alias(id) => {
                let Some(node) = self.anchors.get(&id).cloned() else {
                    return Err(self.err(
                        format!("error converting YAML to JSON: yaml: line {}: unknown anchor referenced", pos.line),
                        pos,
                    ));
                };
                self.count(node_count(&node), pos)?;
                if self.expecting_key() {
                    let key = match &node.value {
                        Value::String(s) => s.clone(),
                        Value::Bool(b) => b.to_string(),
                        Value::Null => "null".to_string(),
                        Value::Number(n) => super::value::go_float(*n),
                        _ => {
                            return Err(
                                self.err("error converting YAML to JSON: yaml: invalid map key: a collection", pos)
                            )
                        }
                    };
                    if let Some(Frame::Map { key: k, .. }) = self.stack.last_mut() {
                        *k = Some(Key::Text(key, pos));
                    }
                    return Ok(None);
                }
                self.finish(Node::new(pos, node.value))
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) if self.expecting_key() => {
                let _ = anchor;
                Err(self.err("error converting YAML to JSON: yaml: invalid map key: a collection", pos))
            }
            Event::SequenceStart(anchor, _) => {
                self.count(1, pos)?;
                self.push(Frame::Seq { pos, anchor, items: Vec::new() }, pos)?;
                Ok(None)
            }
            Event::MappingStart(anchor, _) => {
                self.count(1, pos)?;
                self.push(Frame::Map { pos, anchor, members: Vec::new(), key: None }, pos)?;
                Ok(None)
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = self.stack.pop() else { return Ok(None) };
                let (node, anchor) = match frame {
                    Frame::Seq { pos, anchor, items } => (Node::new(pos, Value::Array(items)), anchor),
                    Frame::Map { pos, anchor, members, .. } => (Node::new(pos, Value::Object(members)), anchor),
                };
                if anchor > 0 {
                    self.anchors.insert(anchor, node.clone());
                }
                self.finish(node)
            }
            _ => Ok(None),
        }
    }

    fn push(&mut self, frame: Frame, pos: Pos) -> Result<(), YamlError> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(
                self.err(format!("error converting YAML to JSON: yaml: nesting deeper than {MAX_DEPTH} levels"), pos)
            );
        }
        self.stack.push(frame);
        Ok(())
    }

    fn expecting_key(&self) -> bool {
        matches!(self.stack.last(), Some(Frame::Map { key: None, .. }))
    }

    /// A value is complete: put it into its parent, or return it as the root.
    fn finish(&mut self, node: Node) -> Result<Option<Node>, YamlError> {
        match self.stack.last_mut() {
            None => Ok(Some(node)),
            Some(Frame::Seq { items, .. }) => {
                items.push(node);
                Ok(None)
            }
            Some(Frame::Map { members, key, .. }) => match key.take() {
                Some(Key::Text(k, key_pos)) => {
                    insert_member(members, Member { key: k, key_pos, value: node });
                    Ok(None)
                }
                Some(Key::Merge) => {
                    let pos = node.pos;
                    merge(members, node).map_err(|m| YamlError { message: m, pos })?;
                    Ok(None)
                }
                None => Ok(None),
            },
        }
    }
}

/// go-yaml v2 merge: the merged mapping's keys are set in order (overwriting keys already
/// present); for a sequence of mappings, later ones are applied first so earlier ones win.
fn merge(members: &mut Vec<Member>, node: Node) -> Result<(), String> {
    const WANT_MAP: &str =
        "error converting YAML to JSON: yaml: map merge requires map or sequence of maps as the value";
    match node.value {
        Value::Object(from) => {
            for m in from {
                insert_member(members, m);
            }
            Ok(())
        }
        Value::Array(items) => {
            for item in items.into_iter().rev() {
                match item.value {
                    Value::Object(from) => {
                        for m in from {
                            insert_member(members, m);
                        }
                    }
                    _ => return Err(WANT_MAP.into()),
                }
            }
            Ok(())
        }
        _ => Err(WANT_MAP.into()),
    }
}

fn node_count(node: &Node) -> usize {
    match &node.value {
        Value::Array(a) => 1 + a.iter().map(node_count).sum::<usize>(),
        Value::Object(m) => 1 + m.iter().map(|m| node_count(&m.value)).sum::<usize>(),
        _ => 1,
    }
}

/// The JSON value of a resolved scalar.
pub(crate) fn scalar_value(s: Scalar) -> Value {
    match s {
        Scalar::Null => Value::Null,
        Scalar::Bool(b) => Value::Bool(b),
        Scalar::Int(i) => Value::Number(i as f64),
        Scalar::Uint(u) => Value::Number(u as f64),
        Scalar::Float(f) => Value::Number(f),
        Scalar::Str(s) => Value::String(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &str) -> Result<Vec<Option<Node>>, YamlError> {
        split_documents(src, 1)?.iter().map(parse_document).collect()
    }

    #[test]
    fn splits_like_kubernetes() {
        let docs = split_documents("---\na: 1\n---\nb: 2\n---\n", 1).unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0].first_line, 2);
        assert_eq!(docs[1].first_line, 4);
        let docs = split_documents("a: 1\n---\n\n", 1).unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[1].text, "\n");
        let err = split_documents("a: 1\n--- b\n", 1).unwrap_err();
        assert_eq!(err.message, "invalid Yaml document separator: b");
        assert!(split_documents("---  # comment\na: 1\n", 1).is_ok());
    }

    #[test]
    fn blank_and_comment_documents_have_no_value() {
        assert_eq!(parse("# Title\n").unwrap(), vec![None]);
        assert_eq!(parse("\n").unwrap(), vec![None]);
    }

    #[test]
    fn yaml_1_1_scalars_and_positions() {
        let v = parse("a: yes\nb: 'yes'\nc: 1.0\nd: ~\non: x\n").unwrap();
        let n = v[0].as_ref().unwrap();
        assert_eq!(n.get("a").unwrap().value, Value::Bool(true));
        assert_eq!(n.get("b").unwrap().as_str(), Some("yes"));
        assert_eq!(n.get("c").unwrap().value, Value::Number(1.0));
        assert_eq!(n.get("d").unwrap().value, Value::Null);
        assert_eq!(n.get("true").unwrap().as_str(), Some("x"));
        assert_eq!(n.field("c").unwrap().key_pos, Pos::new(3, 1));
        assert_eq!(n.get("c").unwrap().pos, Pos::new(3, 4));
    }

    #[test]
    fn positions_are_file_lines() {
        let v = parse("a: 1\n---\nb:\n  - x\n").unwrap();
        let n = v[1].as_ref().unwrap();
        assert_eq!(n.get("b").unwrap().as_array().unwrap()[0].pos, Pos::new(4, 5));
    }

    #[test]
    fn anchors_aliases_and_merge_keys() {
        let v = parse("base: &b {x: 1, z: 2}\nc:\n  <<: *b\n  z: 3\nd: *b\n").unwrap();
        let n = v[0].as_ref().unwrap();
        let c = n.get("c").unwrap();
        assert_eq!(c.get("x").unwrap().value, Value::Number(1.0));
        assert_eq!(c.get("z").unwrap().value, Value::Number(3.0));
        assert_eq!(n.get("d").unwrap().get("z").unwrap().value, Value::Number(2.0));
    }

    #[test]
    fn alias_bombs_end_with_an_error() {
        let mut src = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let prev = i - 1;
            src.push_str(&format!("a{i}: &a{i} [*a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}]\n"));
        }
        let err = parse(&src).unwrap_err();
        assert!(err.message.contains("too many aliases"), "{}", err.message);
    }

    #[test]
    fn deep_nesting_ends_with_an_error() {
        let src = "[".repeat(MAX_DEPTH + 10);
        assert!(parse(&src).is_err());
    }

    #[test]
    fn syntax_errors_are_located() {
        let err = parse("a: [1, 2\n").unwrap_err();
        assert!(err.message.starts_with("error converting YAML to JSON: yaml: line"), "{}", err.message);
    }
}
