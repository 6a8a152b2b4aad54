//! Byte ranges of every node of a catalog file, for tools that rewrite files in place (the edit
//! layer): where each document or JSON value starts and ends, where each key is, and how each
//! collection is written (block or flow). The value tree ([`Node`](super::Node)) keeps only
//! start positions and resolved values; this keeps the text's shape. YAML is read with the same
//! event parser as [`load_files`](super::load_files), JSON with a scanner over the same grammar,
//! so the roots found here sit at the positions the loader gives its blobs.

use olm_yaml_events::{Event, Events, Relaxed, ScalarStyle};

/// Deepest nesting read (the loader refuses deeper files anyway).
const MAX_DEPTH: usize = 1000;

/// One file's roots: each YAML document's value, or each value of a JSON stream.
#[derive(Debug, Clone, PartialEq)]
pub struct SpanFile {
    /// The file is a JSON stream (its first non-blank byte is `{`), as the loader decides.
    pub json: bool,
    /// The root values in file order.
    pub roots: Vec<Span>,
}

/// A node's place in the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    /// Byte offset of the first byte (a collection's first key or dash in block YAML).
    pub start: usize,
    /// Byte offset just past the last byte of the node (its last child's end in block YAML).
    pub end: usize,
    /// 1-based line of `start`.
    pub line: u32,
    /// 1-based column of `start`, in characters.
    pub column: u32,
    /// Written in flow style (`{…}`, `[…]`), as every JSON value is.
    pub flow: bool,
    /// What the node is.
    pub kind: SpanKind,
}

/// A node's kind, with its children.
#[derive(Debug, Clone, PartialEq)]
pub enum SpanKind {
    /// A scalar (or an alias), with how it was quoted.
    Scalar(Quoting),
    /// A sequence's items.
    Seq(Vec<Span>),
    /// A mapping's members, in text order.
    Map(Vec<SpanMember>),
}

/// How a scalar was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quoting {
    /// Plain (or a JSON number, boolean or null).
    Plain,
    /// `'single'`.
    Single,
    /// `"double"` (every JSON string).
    Double,
    /// A literal or folded block scalar.
    Block,
    /// An alias (`*name`).
    Alias,
}

/// One key and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct SpanMember {
    /// The key's text, as resolved.
    pub key: String,
    /// Byte offset of the key.
    pub key_start: usize,
    /// Byte offset past the key (before the `:`).
    pub key_end: usize,
    /// The value.
    pub value: Span,
}

impl Span {
    /// The members when this is a mapping.
    pub fn members(&self) -> &[SpanMember] {
        match &self.kind {
            SpanKind::Map(m) => m,
            _ => &[],
        }
    }

    /// The items when this is a sequence.
    pub fn items(&self) -> &[Span] {
        match &self.kind {
            SpanKind::Seq(s) => s,
            _ => &[],
        }
    }

    /// The member named `key` (the last one, as the loader keeps the last of a repeated key).
    pub fn member(&self, key: &str) -> Option<&SpanMember> {
        self.members().iter().rev().find(|m| m.key == key)
    }
}

/// A file whose shape could not be read, with the 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpanError {
    /// Why.
    pub message: String,
    /// Where.
    pub line: u32,
}

/// Read the shape of one catalog file.
///
/// ```
/// let f = olm_catalog::declcfg::spans("schema: olm.package\nname: a # the name\n").unwrap();
/// let name = f.roots[0].member("name").unwrap();
/// assert_eq!((name.value.start, name.value.end), (26, 27));
/// ```
pub fn spans(text: &str) -> Result<SpanFile, SpanError> {
    let json = text.bytes().find(|b| !b.is_ascii_whitespace()) == Some(b'{');
    let roots = if json { JsonSpans::new(text).all()? } else { yaml_spans(text)? };
    Ok(SpanFile { json, roots })
}

/// Byte offsets of line starts, to turn the parser's (line, character column) into bytes.
struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        let mut starts = vec![0];
        starts.extend(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    /// Byte offset of 1-based `line`, 0-based character `col`.
    fn offset(&self, line: usize, col: usize) -> usize {
        let start = self.starts.get(line.saturating_sub(1)).copied().unwrap_or(self.text.len());
        let rest = &self.text[start..];
        let ascii = rest.as_bytes().iter().take(col).all(u8::is_ascii);
        let within =
            if ascii { col.min(rest.len()) } else { rest.char_indices().nth(col).map_or(rest.len(), |(i, _)| i) };
        start + within
    }
}

/// A YAML collection being read.
struct Open {
    span: Span,
    children: Vec<Span>,
    keys: Vec<(String, usize, usize)>,
}

/// The roots of a YAML file. Like the loader, it reads the lines inside quoted scalars and flow
/// collections at any column, as go-yaml does ([`Relaxed`]).
fn yaml_spans(text: &str) -> Result<Vec<Span>, SpanError> {
    let first = match read_yaml_spans(text, &mut Events::new(text)) {
        Err(e) => e,
        ok => return ok,
    };
    let Some(relaxed) = Relaxed::new(text) else { return Err(first) };
    let mut events = Events::relaxed(&relaxed);
    match read_yaml_spans(text, &mut events) {
        Ok(roots) if events.honoured() => Ok(roots),
        _ => Err(first),
    }
}

fn read_yaml_spans(text: &str, parser: &mut Events<'_>) -> Result<Vec<Span>, SpanError> {
    let lines = Lines::new(text);
    let mut stack: Vec<Open> = Vec::new();
    let mut roots = Vec::new();
    while let Some(next) = parser.next_event() {
        let (event, sp) = next.map_err(|e| SpanError { message: e.to_string(), line: e.marker().line() as u32 })?;
        let start = lines.offset(sp.start.line(), sp.start.col());
        let end = lines.offset(sp.end.line(), sp.end.col()).max(start);
        let at = |flow: bool, kind: SpanKind| Span {
            start,
            end,
            line: sp.start.line() as u32,
            column: sp.start.col() as u32 + 1,
            flow,
            kind,
        };
        let done = match event {
            Event::Scalar(value, style, _, _) => {
                let quoting = match style {
                    ScalarStyle::Plain => Quoting::Plain,
                    ScalarStyle::SingleQuoted => Quoting::Single,
                    ScalarStyle::DoubleQuoted => Quoting::Double,
                    _ => Quoting::Block,
                };
                let mut node = at(false, SpanKind::Scalar(quoting));
                match quoting {
                    Quoting::Block => {
                        node.start = block_indicator(text, node.start);
                        node.end = trim_block_end(text, node.start, node.end);
                    }
                    Quoting::Single | Quoting::Double => node.end = quoted_end(text, node.start),
                    _ => {}
                }
                if let Some(open) = stack.last_mut() {
                    if matches!(open.span.kind, SpanKind::Map(_)) && open.keys.len() == open.children.len() {
                        open.keys.push((value.into_owned(), node.start, node.end));
                        continue;
                    }
                }
                node
            }
            Event::Alias(_) => at(false, SpanKind::Scalar(Quoting::Alias)),
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(SpanError { message: "nesting too deep".into(), line: sp.start.line() as u32 });
                }
                let flow = matches!(text.as_bytes().get(start), Some(b'[' | b'{'));
                let kind = if matches!(event, Event::MappingStart(..)) {
                    SpanKind::Map(vec![])
                } else {
                    SpanKind::Seq(vec![])
                };
                stack.push(Open { span: at(flow, kind), children: vec![], keys: vec![] });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(open) = stack.pop() else { continue };
                close(open, end)
            }
            _ => continue,
        };
        match stack.last_mut() {
            Some(open) => open.children.push(done),
            None => roots.push(done),
        }
    }
    Ok(roots)
}

/// A collection's span once its end event is read: flow collections end at their bracket, block
/// ones at their last child.
fn close(open: Open, end_event: usize) -> Span {
    let Open { mut span, children, keys } = open;
    span.end = if span.flow { end_event } else { children.last().map_or(span.start, |c| c.end) };
    if !span.flow {
        if let Some((_, key_start, _)) = keys.first() {
            span.start = span.start.min(*key_start);
        }
    }
    span.kind = match span.kind {
        SpanKind::Map(_) => SpanKind::Map(
            keys.into_iter()
                .zip(children)
                .map(|((key, key_start, key_end), value)| SpanMember { key, key_start, key_end, value })
                .collect(),
        ),
        _ => SpanKind::Seq(children),
    };
    span
}

/// A block scalar's end: its last non-blank line's end (trailing blank lines and the line
/// break belong to the text around it).
fn trim_block_end(text: &str, start: usize, end: usize) -> usize {
    let body = &text[start..end];
    start + body.trim_end_matches(['\n', '\r', ' ', '\t']).len()
}

/// A block scalar's `|` or `>` indicator, before its content at `content`.
fn block_indicator(text: &str, content: usize) -> usize {
    let b = text.as_bytes();
    let mut i = content.min(b.len());
    while i > 0 && matches!(b[i - 1], b' ' | b'\t' | b'\n' | b'\r') {
        i -= 1;
    }
    while i > 0 && matches!(b[i - 1], b'0'..=b'9' | b'+' | b'-') {
        i -= 1;
    }
    if i > 0 && matches!(b[i - 1], b'|' | b'>') {
        i - 1
    } else {
        content
    }
}

/// The end of a quoted scalar starting at its quote (`''` escapes a single quote, `\\` escapes
/// in double quotes).
fn quoted_end(text: &str, start: usize) -> usize {
    let b = text.as_bytes();
    let Some(&q) = b.get(start) else { return start };
    let mut i = start + 1;
    while i < b.len() {
        match b[i] {
            b'\\' if q == b'"' => i += 2,
            c if c == q => {
                if q == b'\'' && b.get(i + 1) == Some(&b'\'') {
                    i += 2;
                } else {
                    return i + 1;
                }
            }
            _ => i += 1,
        }
    }
    b.len()
}

/// A scanner over a stream of JSON values that records their spans.
struct JsonSpans<'a> {
    text: &'a str,
    at: usize,
    lines: Lines<'a>,
}

impl<'a> JsonSpans<'a> {
    fn new(text: &'a str) -> JsonSpans<'a> {
        JsonSpans { text, at: 0, lines: Lines::new(text) }
    }

    fn all(mut self) -> Result<Vec<Span>, SpanError> {
        let mut roots = Vec::new();
        loop {
            self.ws();
            if self.at >= self.text.len() {
                return Ok(roots);
            }
            roots.push(self.value(0)?);
        }
    }

    fn ws(&mut self) {
        let b = self.text.as_bytes();
        while self.at < b.len() && matches!(b[self.at], b' ' | b'\t' | b'\n' | b'\r') {
            self.at += 1;
        }
    }

    fn err(&self, message: &str) -> SpanError {
        let line = self.lines.starts.partition_point(|&s| s <= self.at) as u32;
        SpanError { message: message.to_string(), line }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn node(&self, start: usize, kind: SpanKind) -> Span {
        let line = self.lines.starts.partition_point(|&s| s <= start);
        let line_start = self.lines.starts[line - 1];
        let column = self.text[line_start..start].chars().count() as u32 + 1;
        Span { start, end: self.at, line: line as u32, column, flow: true, kind }
    }

    fn value(&mut self, depth: usize) -> Result<Span, SpanError> {
        if depth > MAX_DEPTH {
            return Err(self.err("nesting too deep"));
        }
        self.ws();
        let start = self.at;
        match self.peek() {
            Some(b'{') => self.object(start, depth),
            Some(b'[') => self.array(start, depth),
            Some(b'"') => {
                self.string()?;
                Ok(self.node(start, SpanKind::Scalar(Quoting::Double)))
            }
            Some(_) => {
                let b = self.text.as_bytes();
                while self.at < b.len() && !matches!(b[self.at], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    self.at += 1;
                }
                if self.at == start {
                    return Err(self.err("unexpected character"));
                }
                Ok(self.node(start, SpanKind::Scalar(Quoting::Plain)))
            }
            None => Err(self.err("unexpected end of input")),
        }
    }

    /// Skips a string; returns its decoded text.
    fn string(&mut self) -> Result<String, SpanError> {
        let start = self.at;
        let b = self.text.as_bytes();
        self.at += 1;
        while self.at < b.len() {
            match b[self.at] {
                b'\\' => self.at += 2,
                b'"' => {
                    self.at += 1;
                    let raw = &self.text[start..self.at.min(self.text.len())];
                    return serde_json::from_str(raw).map_err(|_| self.err("invalid string"));
                }
                _ => self.at += 1,
            }
        }
        Err(self.err("unterminated string"))
    }

    fn expect(&mut self, c: u8) -> Result<(), SpanError> {
        self.ws();
        if self.peek() == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.err(&format!("expected '{}'", c as char)))
        }
    }

    fn object(&mut self, start: usize, depth: usize) -> Result<Span, SpanError> {
        self.at += 1;
        let mut members = Vec::new();
        self.ws();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(self.node(start, SpanKind::Map(members)));
        }
        loop {
            self.ws();
            let key_start = self.at;
            if self.peek() != Some(b'"') {
                return Err(self.err("expected a key"));
            }
            let key = self.string()?;
            let key_end = self.at;
            self.expect(b':')?;
            let value = self.value(depth + 1)?;
            members.push(SpanMember { key, key_start, key_end, value });
            self.ws();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(self.node(start, SpanKind::Map(members)));
                }
                _ => return Err(self.err("expected ',' or '}'")),
            }
        }
    }

    fn array(&mut self, start: usize, depth: usize) -> Result<Span, SpanError> {
        self.at += 1;
        let mut items = Vec::new();
        self.ws();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(self.node(start, SpanKind::Seq(items)));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.ws();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(self.node(start, SpanKind::Seq(items)));
                }
                _ => return Err(self.err("expected ',' or ']'")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of<'a>(t: &'a str, s: &Span) -> &'a str {
        &t[s.start..s.end]
    }

    #[test]
    fn block_yaml_nodes_end_at_their_last_child() {
        let t = "---\nschema: olm.channel # c\nentries:\n  - name: a\n    replaces: 'b'\n\n  - name: c\nname: x\n";
        let f = spans(t).unwrap();
        assert!(!f.json);
        let root = &f.roots[0];
        assert_eq!((root.line, root.column), (2, 1));
        let entries = &root.member("entries").unwrap().value;
        assert!(!entries.flow);
        assert_eq!(text_of(t, entries), "- name: a\n    replaces: 'b'\n\n  - name: c");
        assert_eq!(text_of(t, &entries.items()[0]), "name: a\n    replaces: 'b'");
        let replaces = &entries.items()[0].member("replaces").unwrap().value;
        assert_eq!((text_of(t, replaces), replaces.kind.clone()), ("'b'", SpanKind::Scalar(Quoting::Single)));
        assert_eq!(text_of(t, &root.member("schema").unwrap().value), "olm.channel");
    }

    #[test]
    fn documents_flow_collections_and_multibyte_text() {
        let t = "a: {x: [1, 2]}\n---\nb: \"é\" \nc: é2\n";
        let f = spans(t).unwrap();
        assert_eq!(f.roots.len(), 2);
        let a = &f.roots[0].member("a").unwrap().value;
        assert!(a.flow);
        assert_eq!(text_of(t, a), "{x: [1, 2]}");
        assert_eq!(text_of(t, &f.roots[1].member("b").unwrap().value), "\"é\"");
        assert_eq!(text_of(t, &f.roots[1].member("c").unwrap().value), "é2");
    }

    #[test]
    fn lines_inside_quoted_scalars_and_flow_collections_may_go_on_at_any_column() {
        // go-yaml reads them (the loader too); the spans are the original text's.
        let t = "a:\n  b: 'x\n  y'\n  c: [1,\n2]\n---\nd: \"é\nz\"\n";
        let f = spans(t).unwrap();
        let a = &f.roots[0].member("a").unwrap().value;
        assert_eq!(text_of(t, &a.member("b").unwrap().value), "'x\n  y'");
        let c = &a.member("c").unwrap().value;
        assert_eq!((text_of(t, c), c.flow), ("[1,\n2]", true));
        assert_eq!(text_of(t, &c.items()[1]), "2");
        let d = &f.roots[1].member("d").unwrap().value;
        assert_eq!((text_of(t, d), d.line, d.column), ("\"é\nz\"", 7, 4));
    }

    #[test]
    fn block_scalars_end_at_their_last_line() {
        let t = "description: |\n  one\n  two\n\nname: x\n";
        let f = spans(t).unwrap();
        assert_eq!(text_of(t, &f.roots[0].member("description").unwrap().value), "|\n  one\n  two");
    }

    #[test]
    fn json_streams_keep_every_value() {
        let t = "{\n    \"a\": [1, {\"b\": \"x\\\"y\"}],\n    \"c\": {}\n}\n{\"d\": null}\n";
        let f = spans(t).unwrap();
        assert!(f.json);
        assert_eq!(f.roots.len(), 2);
        let a = &f.roots[0].member("a").unwrap().value;
        assert_eq!(text_of(t, a), "[1, {\"b\": \"x\\\"y\"}]");
        assert_eq!(a.items()[1].member("b").unwrap().key, "b");
        assert_eq!((f.roots[1].line, f.roots[1].column), (5, 1));
        assert!(spans("{\"a\": ").is_err());
    }
}
