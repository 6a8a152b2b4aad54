//! The full YAML path: saphyr's event stream turned into a spanned [`Node`] the way go-yaml v2
//! builds its value for sigs.k8s.io/yaml. Anchors and aliases are expanded (within the node
//! budget), `<<` merge keys applied as go-yaml v2 does, scalars resolved with
//! [`scalar::resolve`] and keys named with [`scalar::key_text`]. Syntax errors are located and
//! worded `error converting YAML to JSON: yaml: line N: ...` like opm's (the parser's own text
//! after that differs from go-yaml's).

use crate::hash::{HashMap, HashMapExt};

use olm_yaml_events::{Event, Events, Relaxed, ScalarStyle, ScanError};

use super::super::json::insert_member;
use super::super::value::{go_float, Member, Node, Pos, Value};
use super::scalar;
use super::{Document, YamlError, MAX_DEPTH, MAX_NODES};

/// Parse one document with the event parser. `Ok(None)` for a document that holds no value
/// (blank or comments only).
///
/// Like go-yaml v2's `Unmarshal`, only the first YAML document of the text is read: parsing
/// stops at its end, so what follows (after a `...` marker, or a second root value such as the
/// next line of a JSON-lines file) is never parsed. Only the look-ahead that finds the end of
/// the first document is scanned, as go-yaml scans it.
///
/// When saphyr refuses the text, it is read again with the lines inside quoted scalars and flow
/// collections indented ([`Relaxed`]): go-yaml v2 does not check their indentation. That answer
/// is kept when the events honour the padding; a syntax error it meets further on is reported
/// instead of the first one.
pub fn parse_document(doc: &Document<'_>) -> Result<Option<Node>, YamlError> {
    let first = match read(doc, &mut Events::new(doc.text)) {
        Err(Failure { error, scan: true }) => error,
        other => return other.map_err(|f| f.error),
    };
    let Some(relaxed) = Relaxed::new(doc.text) else { return Err(first) };
    let mut events = Events::relaxed(&relaxed);
    match read(doc, &mut events) {
        Ok(root) if events.honoured() => Ok(root),
        Err(Failure { error, scan: true })
            if (error.pos.line, error.pos.column) > (first.pos.line, first.pos.column) =>
        {
            Err(error)
        }
        _ => Err(first),
    }
}

/// Why reading a document failed: the error, and whether saphyr's scanner or parser refused
/// the text (rather than the value built from it).
struct Failure {
    error: YamlError,
    scan: bool,
}

/// Read the first document of `events` into its value.
fn read(doc: &Document<'_>, events: &mut Events<'_>) -> Result<Option<Node>, Failure> {
    let mut builder = Builder::new(doc.first_line);
    let mut root: Option<Node> = None;
    while let Some(next) = events.next_event() {
        let (event, span) = next.map_err(|e| Failure { error: builder.scan_error(&e, doc.text), scan: true })?;
        let pos = builder.pos(span.start.line(), span.start.col());
        match event {
            Event::StreamStart | Event::Nothing | Event::DocumentStart(_) => {}
            Event::DocumentEnd | Event::StreamEnd => break,
            other => {
                if let Some(done) = builder.event(other, pos).map_err(|error| Failure { error, scan: false })? {
                    root = Some(done);
                }
            }
        }
    }
    Ok(root)
}

/// A collection being read.
enum Frame {
    Seq { pos: Pos, anchor: usize, items: Vec<Node> },
    Map { pos: Pos, anchor: usize, members: Vec<Member>, key: Option<Key> },
}

/// The key a mapping's next value goes under.
enum Key {
    Text(String, Pos),
    Merge,
}

/// Builds the document's value from its events.
struct Builder {
    first_line: u32,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Node>,
    /// Nodes produced so far, alias copies included (the budget is [`MAX_NODES`]).
    nodes: usize,
}

impl Builder {
    fn new(first_line: u32) -> Builder {
        Builder { first_line, stack: Vec::new(), anchors: HashMap::new(), nodes: 0 }
    }

    fn pos(&self, line: usize, col: usize) -> Pos {
        Pos::new(self.first_line + line.saturating_sub(1) as u32, col as u32 + 1)
    }

    /// A scanner error at its line and column. saphyr counts the columns of a directive line
    /// (`%...`) in bytes, not characters: those are converted, so that the error stays on its line.
    fn scan_error(&self, e: &ScanError, text: &str) -> YamlError {
        let (line, mut col) = (e.marker().line(), e.marker().col());
        let line_text = text.split("\r\n").flat_map(|l| l.split(['\r', '\n'])).nth(line.saturating_sub(1));
        if let Some(directive) = line_text.filter(|l| l.starts_with('%')) {
            col = directive.get(..col).map_or(directive.chars().count(), |before| before.chars().count());
        }
        let pos = self.pos(line, col);
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
                let tag_suffix =
                    tag.as_ref().map(|t| if t.is_yaml_core_schema() { t.suffix.clone() } else { t.to_string() });
                self.scalar(&text, style == ScalarStyle::Plain, anchor, tag_suffix.as_deref(), pos)
            }
            Event::Alias(id) => self.alias(id, pos),
            Event::SequenceStart(..) | Event::MappingStart(..) if self.expecting_key() => {
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
                    Frame::Seq { pos, anchor, items } => (Node::new(pos, Value::Array(items.into())), anchor),
                    Frame::Map { pos, anchor, members, .. } => (Node::new(pos, Value::Object(members.into())), anchor),
                };
                if anchor > 0 {
                    self.anchors.insert(anchor, node.clone());
                }
                self.finish(node)
            }
            _ => Ok(None),
        }
    }

    /// A scalar: a merge key, a mapping key, or a value.
    fn scalar(&mut self, text: &str, plain: bool, anchor: usize, tag: Option<&str>, pos: Pos) -> R {
        self.count(1, pos)?;
        // `<<` in key position is a merge key.
        if self.expecting_key() && scalar::is_merge_key(text, plain, tag) {
            self.set_key(Key::Merge);
            return Ok(None);
        }
        let scalar = scalar::resolve(text, plain, tag)
            .map_err(|m| self.err(format!("error converting YAML to JSON: yaml: {m}"), pos))?;
        if self.expecting_key() {
            if let Some(m) = scalar::key_error(&scalar) {
                return Err(self.err(format!("error converting YAML to JSON: {m}"), pos));
            }
            let key = scalar::key_text(&scalar);
            if anchor > 0 {
                self.anchors.insert(anchor, Node::new(pos, Value::String(key.as_str().into())));
            }
            self.set_key(Key::Text(key, pos));
            return Ok(None);
        }
        let node = Node::new(pos, scalar.into_value());
        if anchor > 0 {
            self.anchors.insert(anchor, node.clone());
        }
        self.finish(node)
    }

    /// An alias: a copy of the anchored node (counted against the budget), as a value or a key.
    fn alias(&mut self, id: usize, pos: Pos) -> R {
        let Some(node) = self.anchors.get(&id).cloned() else {
            return Err(self.err(
                format!("error converting YAML to JSON: yaml: line {}: unknown anchor referenced", pos.line),
                pos,
            ));
        };
        self.count(node_count(&node), pos)?;
        if self.expecting_key() {
            let key = match &node.value {
                Value::String(s) => s.to_string(),
                Value::Bool(b) => b.to_string(),
                Value::Null => "null".to_string(),
                Value::Number(n) => go_float(*n),
                _ => return Err(self.err("error converting YAML to JSON: yaml: invalid map key: a collection", pos)),
            };
            self.set_key(Key::Text(key, pos));
            return Ok(None);
        }
        self.finish(Node::new(pos, node.value))
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

    /// The innermost mapping's next value goes under `key`.
    fn set_key(&mut self, key: Key) {
        if let Some(Frame::Map { key: k, .. }) = self.stack.last_mut() {
            *k = Some(key);
        }
    }

    /// A value is complete: put it into its parent, or return it as the root.
    fn finish(&mut self, node: Node) -> R {
        match self.stack.last_mut() {
            None => Ok(Some(node)),
            Some(Frame::Seq { items, .. }) => {
                items.push(node);
                Ok(None)
            }
            Some(Frame::Map { members, key, .. }) => match key.take() {
                Some(Key::Text(k, key_pos)) => {
                    insert_member(members, Member { key: k.into(), key_pos, value: node });
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

/// What feeding an event gives: the root node once the document's value is complete.
type R = Result<Option<Node>, YamlError>;

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
            for item in items.into_vec().into_iter().rev() {
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

/// How many nodes a copy of `node` adds.
fn node_count(node: &Node) -> usize {
    match &node.value {
        Value::Array(a) => 1 + a.iter().map(node_count).sum::<usize>(),
        Value::Object(m) => 1 + m.iter().map(|m| node_count(&m.value)).sum::<usize>(),
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::super::split_documents;
    use super::*;

    fn parse(src: &str) -> Result<Vec<Option<Node>>, YamlError> {
        split_documents(src, 1)?.iter().map(parse_document).collect()
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
    fn only_the_first_document_is_read() {
        let one = |src: &str| parse_document(&Document::new(src, 1));
        let a = |n: Option<Node>| n.unwrap().get("a").map(|v| v.value.clone());
        // What follows the first document is never parsed, errors included (go-yaml's Unmarshal).
        assert_eq!(a(one("a: 1\n...\nb: [\n").unwrap()), Some(Value::Number(1.0)));
        assert_eq!(a(one("a: 1\n---\nb: 2\n").unwrap()), Some(Value::Number(1.0)));
        // JSON lines read as YAML (a byte order mark sends them there): the first line only.
        assert_eq!(a(one("{\"a\": 1}\n{\"b\": 2}\n").unwrap()), Some(Value::Number(1.0)));
        assert_eq!(a(one("\u{feff}{\"a\": 1}\n{\"b\": 2}\n{\"c\": 3}\n").unwrap()), Some(Value::Number(1.0)));
        let n = one("{\n  \"a\": 1\n}\n{\n  \"b\": 2\n}\n").unwrap().unwrap();
        assert_eq!(n.as_object().map(|m| m.len()), Some(1));
        // The look-ahead that ends the first document is still scanned.
        assert!(one("{\"a\": 1}\n{\"b\": \"\\q\"}\n").is_err());
        assert_eq!(one("...\n"), Ok(None));
    }

    #[test]
    fn binary_scalars_are_base64_decoded() {
        let v = parse("a: !!binary aGVsbG8=\nb: !!binary |\n  aGVs\n  bG8=\n").unwrap();
        let n = v[0].as_ref().unwrap();
        assert_eq!(n.get("a").unwrap().as_str(), Some("hello"));
        assert_eq!(n.get("b").unwrap().as_str(), Some("hello"));
        let err = parse("a: !!binary aGVsbG8\n").unwrap_err();
        assert_eq!(err.message, "error converting YAML to JSON: yaml: !!binary value contains invalid base64 data");
        assert_eq!(err.pos, Pos::new(1, 4));
    }

    #[test]
    fn errors_on_a_directive_line_are_located_in_characters() {
        // Found by fuzzing: saphyr counts a directive's columns in bytes (`é` is two).
        let err = parse("%éé \0\n").unwrap_err();
        assert!(err.message.ends_with("found unprintable character"), "{}", err.message);
        assert_eq!(err.pos, Pos::new(1, 5));
    }

    #[test]
    fn lines_go_yaml_reads_at_any_column_are_read() {
        // Inside quoted scalars and flow collections (saphyr reads the text padded; positions
        // are the original's), and a comment right after a closing quote or bracket.
        let doc = Document::new("a:\n  b: 'x\n  y'\n  c: [1,\n2]#c\n  d: \"z\"#c\n", 5);
        let n = parse_document(&doc).unwrap().unwrap();
        let a = n.get("a").unwrap();
        assert_eq!(a.get("b").unwrap().as_str(), Some("x y"));
        let c = a.get("c").unwrap().as_array().unwrap();
        assert_eq!(c[1].pos, Pos::new(9, 1));
        assert_eq!(a.get("d").unwrap().pos, Pos::new(10, 6));
    }

    #[test]
    fn an_error_after_a_padded_line_is_the_one_reported() {
        // go-yaml passes the quoted scalar and stops at the bracket: so do we.
        let err = parse("a:\n  b: 'x\n  y'\n  c: [}\n").unwrap_err();
        assert_eq!(err.pos.line, 4, "{}", err.message);
        // A document marker inside a quoted scalar stays an error.
        let err = parse("a:\n  b: 'x\n...\n  y'\n").unwrap_err();
        assert!(err.message.ends_with("found unexpected document indicator"), "{}", err.message);
    }

    #[test]
    fn syntax_errors_are_located() {
        let err = parse("a: [1, 2\n").unwrap_err();
        assert!(err.message.starts_with("error converting YAML to JSON: yaml: line"), "{}", err.message);
    }
}
