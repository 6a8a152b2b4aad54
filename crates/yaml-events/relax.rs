//! What go-yaml v2 reads and saphyr refuses, made readable: free indentation inside quoted
//! scalars and flow collections, and comments right after a closing quote or bracket.
//!
//! go-yaml v2 (a port of libyaml) does not check how a line that continues a single- or
//! double-quoted scalar, or a line inside a flow collection (`[...]`, `{...}`), is indented: it
//! may start at any column, even 0, and with tabs. Only a document marker (`---` or `...` and a
//! blank) at column 0 is refused there, and a flow line at column 0 that starts with `%` is read
//! as a directive. YAML 1.2, and saphyr, want such lines indented more than the enclosing block
//! collection. (A plain scalar in block context keeps its rule in both: its lines must be
//! indented more than the block.) go-yaml also takes a `#` right after a closing quote or
//! bracket (`'x'#c`, `[1]#c`) as a comment, where YAML 1.2 wants a blank before it.
//!
//! [`Relaxed::new`] finds these places with a light scan of the text: it indents the lines
//! saphyr would refuse with spaces, up to the column where their quoted scalar or outermost flow
//! collection opens, and puts a space before such a `#`. That changes no value: white space at
//! the start of such a line is not content, nor is it before a comment. The scan is not a YAML
//! parser (it guesses the extent of plain and block scalars from indentation), so each change
//! rests on a claim — "the lines after line L up to line M are inside the quoted scalar (or flow
//! collection) that opens at line L, column C", "a quoted scalar (or flow collection) ends here"
//! — which [`Events`](super::Events) checks against the events it reads: a claim that no event
//! honours means the changed text is not the original's, and the caller keeps the original's
//! answer. Positions are mapped back to the original text.

use std::cell::Cell;

use saphyr_parser::{Event, Marker, ScalarStyle, Span};

/// Most spaces put into a text shorter than this (a longer text may grow by its own length).
const MAX_ADDED: usize = 1 << 20;

/// What a claim is about.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// A single- or double-quoted scalar.
    Quoted,
    /// A flow sequence or mapping.
    Flow,
    /// The end (`]` or `}`) of a flow sequence or mapping.
    FlowEnd,
}

/// "A construct of this kind starts at `line`, `col` and ends on line `last` or later" (`exact`:
/// on line `last`) (1-based line, 0-based character column of the changed text, as saphyr
/// counts them).
#[derive(Debug)]
struct Claim {
    kind: Kind,
    line: usize,
    col: usize,
    last: usize,
    exact: bool,
    /// Set by [`Check`] once an event honours the claim.
    honoured: Cell<bool>,
}

/// Spaces put into the text.
#[derive(Debug, Clone, Copy)]
struct Insert {
    /// Where, in the changed text (1-based line, 0-based character column).
    line: usize,
    col: usize,
    /// Where, as a byte offset of the original text.
    byte: usize,
    /// How many.
    count: usize,
    /// How many were put in before it.
    before: usize,
}

/// A text with the places go-yaml reads and saphyr refuses changed, and what was changed.
#[derive(Debug)]
pub struct Relaxed {
    text: String,
    /// In text order.
    inserts: Vec<Insert>,
    /// In text order of their positions.
    claims: Vec<Claim>,
}

impl Relaxed {
    /// The changed form of `text`, or `None` when nothing needs a change (or the text has line
    /// breaks other than `\n` and `\r\n`, which the scan does not follow).
    ///
    /// ```
    /// let r = olm_yaml_events::Relaxed::new("a:\n  b: 'x\n  y'#c\n").unwrap();
    /// assert_eq!(r.text(), "a:\n  b: 'x\n     y' #c\n");
    /// ```
    pub fn new(text: &str) -> Option<Relaxed> {
        if text.bytes().enumerate().any(|(i, c)| c == b'\r' && text.as_bytes().get(i + 1) != Some(&b'\n')) {
            return None;
        }
        let mut scan = Scan::default();
        let mut start = 0;
        for (n, raw) in text.as_bytes().split_inclusive(|&b| b == b'\n').enumerate() {
            let mut line = raw;
            while let [rest @ .., b'\n' | b'\r'] = line {
                line = rest;
            }
            scan.line(line, n + 1, start);
            start += raw.len();
        }
        // Hostile input (a bracket far to the right, then many lines at column 0) must not make
        // the text much longer.
        let added: usize = scan.inserts.iter().map(|i| i.count).sum();
        if scan.inserts.is_empty() || added > text.len().max(MAX_ADDED) {
            return None;
        }
        let mut out = Vec::with_capacity(text.len() + added);
        let (mut copied, mut added) = (0, 0);
        for insert in &mut scan.inserts {
            out.extend_from_slice(&text.as_bytes()[copied..insert.byte]);
            out.resize(out.len() + insert.count, b' ');
            copied = insert.byte;
            insert.before = added;
            added += insert.count;
        }
        out.extend_from_slice(&text.as_bytes()[copied..]);
        let mut claims = scan.claims;
        claims.retain(|c| c.exact || c.last > c.line);
        // The scan makes them in text order (no sort: it would add one to the WebAssembly modules).
        if claims.windows(2).any(|w| (w[0].line, w[0].col) > (w[1].line, w[1].col)) {
            return None;
        }
        // Spaces put in at line starts or before a `#` keep the text UTF-8.
        Some(Relaxed { text: String::from_utf8(out).ok()?, inserts: scan.inserts, claims })
    }

    /// The changed text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// `m` (a position in the changed text) in the original text.
    pub(crate) fn unpad(&self, m: Marker) -> Marker {
        let at = self.inserts.partition_point(|i| (i.line, i.col) <= (m.line(), m.col()));
        let Some(last) = at.checked_sub(1).map(|p| self.inserts[p]) else { return m };
        let (mut col, mut index) = (m.col(), m.index() - last.before - last.count);
        for insert in self.inserts[..at].iter().rev().take_while(|i| i.line == m.line()) {
            let cut = insert.count.min(m.col() - insert.col);
            col -= cut;
            index += insert.count - cut;
        }
        Marker::new(index, m.line(), col)
    }
}

/// The claims of a [`Relaxed`] text checked against its events, as they are read.
pub(crate) struct Check<'r> {
    relaxed: &'r Relaxed,
    /// Where each collection being read opened.
    open: Vec<Marker>,
    /// The start of the last event read.
    seen: (usize, usize),
}

impl<'r> Check<'r> {
    pub(crate) fn new(relaxed: &'r Relaxed) -> Check<'r> {
        Check { relaxed, open: Vec::new(), seen: (0, 0) }
    }

    /// Read one event (in the changed text's positions).
    pub(crate) fn event(&mut self, event: &Event<'_>, span: &Span) {
        match event {
            Event::Scalar(_, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted, ..) => {
                self.honour(Kind::Quoted, span.start, span.end.line());
            }
            Event::SequenceStart(..) | Event::MappingStart(..) => self.open.push(span.start),
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(start) = self.open.pop() {
                    self.honour(Kind::Flow, start, span.start.line());
                }
                self.honour(Kind::FlowEnd, span.start, span.start.line());
            }
            _ => {}
        }
        self.seen = (span.start.line(), span.start.col());
    }

    /// A construct of `kind` starts at `at` and ends on line `end_line`.
    fn honour(&self, kind: Kind, at: Marker, end_line: usize) {
        let claims = &self.relaxed.claims;
        let first = claims.partition_point(|c| (c.line, c.col) < (at.line(), at.col()));
        for c in claims[first..].iter().take_while(|c| (c.line, c.col) == (at.line(), at.col())) {
            if c.kind == kind && (end_line == c.last || (!c.exact && end_line > c.last)) {
                c.honoured.set(true);
            }
        }
    }

    /// Whether every claim about a place before the last event read was honoured.
    pub(crate) fn honoured(&self) -> bool {
        self.relaxed.claims.iter().all(|c| c.honoured.get() || (c.line, c.col) > self.seen)
    }
}

/// Where the scan is, between lines.
#[derive(Default, Debug)]
enum Mode {
    #[default]
    Block,
    /// In a quoted scalar opened in block context (`double`: with `"`).
    Quoted { double: bool },
    /// In flow collections `depth` deep; `quote`: in a quoted scalar in them (double-quoted or
    /// not, and where it opened); `plain`: in a plain scalar.
    Flow { depth: usize, quote: Option<(bool, usize, usize)>, plain: bool },
    /// In the body of a block scalar whose parent node is at column `parent`; `body`: the body's
    /// indentation, once a line has set it.
    BlockScalar { parent: isize, body: Option<usize> },
    /// After a plain scalar value whose parent node is at column `parent`: more indented lines
    /// continue it.
    Plain { parent: isize },
}

/// The light scan of [`Relaxed::new`].
#[derive(Default)]
struct Scan {
    mode: Mode,
    /// The claim of the construct the scan is in (quoted or flow), and the column its lines are
    /// padded to.
    inside: Option<(usize, usize)>,
    claims: Vec<Claim>,
    inserts: Vec<Insert>,
}

/// One line being scanned: its bytes, where it starts in the text, and character columns
/// counted forwards.
struct Line<'l> {
    bytes: &'l [u8],
    n: usize,
    start: usize,
    at: usize,
    col: usize,
    pad: usize,
}

impl Line<'_> {
    /// The changed text's column of byte `i` (never before the last one asked).
    fn col(&mut self, i: usize) -> usize {
        self.col += self.bytes[self.at..i].iter().filter(|&&c| (c & 0xc0) != 0x80).count();
        self.at = i;
        self.col + self.pad
    }

    /// The original text's column of byte `i` (never before the last one asked).
    fn raw(&mut self, i: usize) -> isize {
        (self.col(i) - self.pad) as isize
    }

    fn get(&self, i: usize) -> Option<&u8> {
        self.bytes.get(i)
    }
}

fn blank(c: Option<&u8>) -> bool {
    matches!(c, None | Some(b' ' | b'\t'))
}

/// Whether `line` starts with a document marker (`---` or `...` and a blank).
fn marker(line: &[u8]) -> bool {
    (line.starts_with(b"---") || line.starts_with(b"...")) && blank(line.get(3))
}

/// The offset after the quote that closes a quoted scalar whose text goes on at `i`, if it
/// closes on this line.
fn close_quote(line: &[u8], mut i: usize, double: bool) -> Option<usize> {
    while i < line.len() {
        match (line[i], double) {
            (b'\'', false) if line.get(i + 1) == Some(&b'\'') => i += 2,
            (b'\'', false) | (b'"', true) => return Some(i + 1),
            (b'\\', true) => i += 2,
            _ => i += 1,
        }
    }
    None
}

impl Scan {
    /// Scan line `n` (without its break), which starts at byte `start` of the text.
    fn line(&mut self, bytes: &[u8], n: usize, start: usize) {
        let spaces = bytes.iter().take_while(|&&c| c == b' ').count();
        let mut pad = 0;
        if let Some((claim, target)) = self.inside {
            let in_flow = matches!(self.mode, Mode::Flow { quote: None, .. });
            let refused = marker(bytes) || (in_flow && bytes.starts_with(b"%"));
            if spaces < target && !refused {
                pad = target - spaces;
                self.inserts.push(Insert { line: n, col: 0, byte: start, count: pad, before: 0 });
            }
            self.claims[claim].last = n;
        }
        if self.inside.is_none() && marker(bytes) {
            // A document starts or ends: block context again.
            self.mode = Mode::Block;
            return;
        }
        let mut line = Line { bytes, n, start, at: 0, col: 0, pad };
        match self.mode {
            Mode::Block => self.block_line(&mut line, spaces),
            Mode::Quoted { double } => {
                if let Some(end) = close_quote(bytes, spaces, double) {
                    self.mode = Mode::Block;
                    let opened = self.inside.take().map(|(claim, _)| (self.claims[claim].line, self.claims[claim].col));
                    self.after_scalar(&mut line, end, opened, -1);
                }
            }
            Mode::Flow { .. } => self.flow(&mut line, spaces),
            Mode::BlockScalar { parent, body } => {
                if bytes[spaces..].iter().all(|&c| c == b' ' || c == b'\t') {
                    return;
                }
                match body {
                    None if spaces as isize > parent => self.mode = Mode::BlockScalar { parent, body: Some(spaces) },
                    Some(b) if spaces >= b => {}
                    _ => self.block_line(&mut line, spaces),
                }
            }
            Mode::Plain { parent } => {
                if spaces < bytes.len() && (spaces as isize <= parent || bytes[spaces] == b'#') {
                    self.block_line(&mut line, spaces);
                }
            }
        }
    }

    /// A line in block context whose text starts at byte `spaces`.
    fn block_line(&mut self, line: &mut Line<'_>, spaces: usize) {
        self.mode = Mode::Block;
        let parent = line.raw(spaces) - 1;
        self.block(line, spaces, parent);
    }

    /// Block context from byte `i` of `line`, at a place where a node may start; `parent`: the
    /// column of the key or `-` it belongs to (at the start of a line, one less than its
    /// indentation: too much, a block scalar's body or a plain scalar's next lines may be read
    /// as nodes, which can only make a claim that the events do not honour).
    fn block(&mut self, line: &mut Line<'_>, mut i: usize, mut parent: isize) {
        // Where the node's anchor or tag starts, if it has one: its events start there.
        let mut props: Option<(usize, isize)> = None;
        loop {
            while matches!(line.get(i), Some(b' ' | b'\t')) {
                i += 1;
            }
            let Some(&c) = line.get(i) else { return };
            match c {
                b'#' => return,
                b'-' | b'?' | b':' if blank(line.get(i + 1)) => {
                    if c != b':' {
                        parent = line.raw(i);
                    }
                    props = None;
                    i += 1;
                }
                b'\'' | b'"' | b'[' | b'{' => {
                    let start = props.unwrap_or_else(|| (line.col(i), line.raw(i)));
                    return self.opening(line, i, start);
                }
                b'|' | b'>' => {
                    self.mode = Mode::BlockScalar { parent, body: None };
                    return;
                }
                b'&' | b'!' | b'*' => {
                    if c != b'*' && props.is_none() {
                        props = Some((line.col(i), line.raw(i)));
                    }
                    while !blank(line.get(i)) {
                        i += 1;
                    }
                }
                _ => {
                    // A plain scalar: up to `: ` (a key), ` #` or the end of the line (a value
                    // that more indented lines continue).
                    let start = i;
                    loop {
                        match line.get(i) {
                            None => {
                                self.mode = Mode::Plain { parent };
                                return;
                            }
                            Some(b':') if blank(line.get(i + 1)) => break,
                            Some(b'#') if matches!(line.bytes[i - 1], b' ' | b'\t') => return,
                            _ => i += 1,
                        }
                    }
                    parent = line.raw(start);
                    props = None;
                    i += 1;
                }
            }
        }
    }

    /// A quoted scalar or flow collection opening at byte `i` of `line`, its node starting at
    /// `start` (the changed text's column and the original's: its anchor or tag, if any).
    fn opening(&mut self, line: &mut Line<'_>, i: usize, start: (usize, isize)) {
        let c = line.bytes[i];
        if c == b'[' || c == b'{' {
            self.open(Kind::Flow, line.n, start.0);
            self.mode = Mode::Flow { depth: 0, quote: None, plain: false };
            return self.flow(line, i);
        }
        let double = c == b'"';
        match close_quote(line.bytes, i + 1, double) {
            Some(end) => self.after_scalar(line, end, Some((line.n, start.0)), start.1),
            None => {
                self.open(Kind::Quoted, line.n, start.0);
                self.mode = Mode::Quoted { double };
            }
        }
    }

    /// After a quoted scalar (`quoted`: where it opened) or a flow collection that ended at
    /// byte `i`: a `#` right after it gets a space before it; a `:` makes it a key (`key`: the
    /// column it opened at, if on this line, else -1), and a value may follow.
    fn after_scalar(&mut self, line: &mut Line<'_>, mut i: usize, quoted: Option<(usize, usize)>, key: isize) {
        if line.get(i) == Some(&b'#') {
            self.glued_comment(line, i, quoted);
            return;
        }
        while matches!(line.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        if line.get(i) == Some(&b':') && blank(line.get(i + 1)) {
            self.block(line, i + 1, key);
        }
    }

    /// A `#` at byte `i`, right after a quoted scalar that opened at `quoted` (line, column), or
    /// (`None`) after the `]` or `}` of a flow collection: a space goes before it, on the claim
    /// that the scalar ends on this line (or that a collection ends at that bracket).
    fn glued_comment(&mut self, line: &mut Line<'_>, i: usize, quoted: Option<(usize, usize)>) {
        let col = line.col(i);
        self.inserts.push(Insert { line: line.n, col, byte: line.start + i, count: 1, before: 0 });
        let (kind, (at_line, at_col)) = match quoted {
            Some(start) => (Kind::Quoted, start),
            None => (Kind::FlowEnd, (line.n, col - 1)),
        };
        match self.claims.last_mut() {
            // The scalar's own claim (it opened on an earlier line): it must end on this one.
            Some(c) if c.kind == kind && (c.line, c.col) == (at_line, at_col) => c.exact = true,
            _ => self.claims.push(Claim {
                kind,
                line: at_line,
                col: at_col,
                last: line.n,
                exact: true,
                honoured: Cell::new(false),
            }),
        }
    }

    /// Flow context from byte `i` of `line`.
    fn flow(&mut self, line: &mut Line<'_>, mut i: usize) {
        let Mode::Flow { mut depth, mut quote, mut plain } = self.mode else { return };
        loop {
            if let Some((double, at_line, at_col)) = quote {
                let Some(end) = close_quote(line.bytes, i, double) else { break };
                (i, quote) = (end, None);
                if line.get(i) == Some(&b'#') {
                    self.glued_comment(line, i, Some((at_line, at_col)));
                    break;
                }
            }
            let Some(&c) = line.get(i) else { break };
            match c {
                b' ' | b'\t' => {}
                b'#' if i == 0 || matches!(line.bytes[i - 1], b' ' | b'\t') => {
                    plain = false;
                    break;
                }
                b'[' | b'{' => (depth, plain) = (depth + 1, false),
                b']' | b'}' => {
                    (depth, plain) = (depth.saturating_sub(1), false);
                    if depth == 0 {
                        self.mode = Mode::Block;
                        self.inside = None;
                        return self.after_scalar(line, i + 1, None, -1);
                    }
                    if line.get(i + 1) == Some(&b'#') {
                        self.glued_comment(line, i + 1, None);
                        break;
                    }
                }
                b',' => plain = false,
                b':' | b'?'
                    if blank(line.get(i + 1)) || matches!(line.get(i + 1), Some(b',' | b'[' | b']' | b'{' | b'}')) =>
                {
                    plain = false
                }
                b'\'' | b'"' if !plain => quote = Some((c == b'"', line.n, line.col(i))),
                _ => plain = true,
            }
            i += 1;
        }
        self.mode = Mode::Flow { depth, quote, plain };
    }

    /// A quoted scalar or flow collection opens at line `n`, column `col`, and does not close
    /// on this line.
    fn open(&mut self, kind: Kind, n: usize, col: usize) {
        self.inside = Some((self.claims.len(), col));
        self.claims.push(Claim { kind, line: n, col, last: n, exact: false, honoured: Cell::new(false) });
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Event, Events};
    use super::Relaxed;

    /// Text and (line, column) of each scalar read, or of the error.
    type Read = Result<Vec<(String, usize, usize)>, (String, usize, usize)>;

    /// What reading `text` gives: its scalars (with the line and column each starts at), or
    /// the error (with its position). The text is read as it is, and when saphyr refuses it,
    /// padded, as olm-catalog's YAML reader does.
    fn read(text: &str) -> Read {
        fn all(mut events: Events<'_>) -> Read {
            let mut out = Vec::new();
            while let Some(next) = events.next_event() {
                match next {
                    Ok((Event::Scalar(s, ..), span)) => out.push((s.to_string(), span.start.line(), span.start.col())),
                    Ok((Event::DocumentEnd, _)) => break,
                    Ok(_) => {}
                    Err(e) => return Err((e.info().to_string(), e.marker().line(), e.marker().col())),
                }
            }
            if !events.honoured() {
                return Err(("not honoured".into(), 0, 0));
            }
            Ok(out)
        }
        let strict = all(Events::new(text));
        match (&strict, Relaxed::new(text)) {
            // An error further on than the first is the one go-yaml meets too.
            (Err(first), Some(relaxed)) => match all(Events::relaxed(&relaxed)) {
                Err(e) if (e.1, e.2) > (first.1, first.2) => Err(e),
                Err(_) => strict,
                ok => ok,
            },
            _ => strict,
        }
    }

    /// The scalars of `text`, which must be read.
    #[track_caller]
    fn values(text: &str) -> Vec<String> {
        read(text).unwrap_or_else(|e| panic!("{text:?}: {e:?}")).into_iter().map(|v| v.0).collect()
    }

    #[test]
    fn a_quoted_scalar_goes_on_at_any_column() {
        // The real case (a CRD's descriptions, opendatahub-operator 1.4.1): the lines go on at
        // the key's column. YAML 1.2 wants them indented more.
        assert_eq!(values("a:\n  b: 'x\n  y'\n  c: 1\n"), ["a", "b", "x y", "c", "1"]);
        // Less indented than the key, at column 0, after blank lines, in a sequence.
        assert_eq!(values("a:\n  b: 'x\n y'\n"), ["a", "b", "x y"]);
        assert_eq!(values("a:\n  b: \"x\ny\"\n"), ["a", "b", "x y"]);
        assert_eq!(values("a:\n  b: 'x\n\n\ny'\n"), ["a", "b", "x\n\ny"]);
        assert_eq!(values("- a: 'x\n  y'\n  b: 1\n"), ["a", "x y", "b", "1"]);
        // An escaped line break joins the lines; `''` is a quote; `#` is text.
        assert_eq!(values("a:\n  b: \"x\\\ny\"\n"), ["a", "b", "xy"]);
        assert_eq!(values("a:\n  b: 'it''s\n# not a comment'\n"), ["a", "b", "it's # not a comment"]);
        // A tab in the indentation is white space like a space.
        assert_eq!(values("a:\n  b: 'x\n\ty'\n"), ["a", "b", "x y"]);
        // Text that looks like YAML structure is text.
        assert_eq!(values("a:\n  b: 'x\nc: [1\n- d'\n"), ["a", "b", "x c: [1 - d"]);
    }

    #[test]
    fn a_flow_collection_goes_on_at_any_column() {
        assert_eq!(values("a:\n  b: [x,\ny]\n"), ["a", "b", "x", "y"]);
        assert_eq!(values("a:\n  b: [x,\n y\n]\n  c: 1\n"), ["a", "b", "x", "y", "c", "1"]);
        assert_eq!(values("a:\n  b: {c: 'x\ny', d: [1,\n2]}\n"), ["a", "b", "c", "x y", "d", "1", "2"]);
        // A plain scalar in a flow collection goes on at any column too.
        assert_eq!(values("a:\n  b: [x\ny]\n"), ["a", "b", "x y"]);
        // `#` after a blank starts a comment; brackets in quotes or comments do not count.
        assert_eq!(values("a:\n  b: [x, # ]\n'],'\n]\n"), ["a", "b", "x", "],"]);
    }

    #[test]
    fn an_anchor_or_a_tag_may_come_first() {
        assert_eq!(values("a:\n  b: &n 'x\n y'\n  c: *n\n"), ["a", "b", "x y", "c"]);
        assert_eq!(values("a:\n  b: !!str 'x\n y'\n"), ["a", "b", "x y"]);
        assert_eq!(values("a:\n  b: &l [1,\n2]\n"), ["a", "b", "1", "2"]);
    }

    #[test]
    fn positions_are_the_original_texts() {
        let got = read("a:\n  b: [x,\ny, z]\n  c: 1\n").unwrap();
        assert_eq!(got[3], ("y".into(), 3, 0));
        assert_eq!(got[4], ("z".into(), 3, 3));
        let err = read("a:\n  b: [x,\ny, z: [}\n").unwrap_err();
        assert_eq!((err.1, err.2), (3, 7), "{err:?}");
    }

    #[test]
    fn what_go_yaml_refuses_stays_refused() {
        // A document marker at column 0 inside a quoted scalar or a flow collection.
        assert!(read("a:\n  b: 'x\n...\ny'\n").is_err());
        assert!(read("a:\n  b: [x,\n...\n]\n").is_err());
        // A plain scalar in block context must go on more indented than its block.
        assert!(read("a:\n  b: x\n y\n").is_err());
        assert!(read("a: x\ny\n").is_err());
        // A quoted key cannot span lines, a quoted scalar must end.
        assert!(read("a:\n  'b\nc': 1\n").is_err());
        assert!(read("a:\n  b: 'x\ny\n").is_err());
    }

    #[test]
    fn a_wrong_guess_keeps_the_original_answer() {
        // The scan guesses a block scalar's body from its first line: here it is wrong (the body
        // is indented 1, as `|1` says), takes `'y` for a quoted scalar and pads `b: 'z`, which
        // then reads as body. No quoted scalar starts at `'y`: the padded reading is not kept.
        let text = "a: |1\n  x\n 'y\nb: 'z\n";
        let relaxed = Relaxed::new(text).unwrap();
        assert_eq!(relaxed.text(), "a: |1\n  x\n 'y\n b: 'z\n");
        let mut events = Events::relaxed(&relaxed);
        while let Some(Ok(_)) = events.next_event() {}
        assert!(!events.honoured());
        assert!(read(text).is_err());
    }

    #[test]
    fn a_comment_may_follow_a_closing_quote_or_bracket() {
        assert_eq!(values("a: 'x'#c\nb: \"y\"#c\n"), ["a", "x", "b", "y"]);
        assert_eq!(values("a: [1]#c\nb: {c: [2]#c\n  }#c\n"), ["a", "1", "b", "c", "2"]);
        assert_eq!(values("a: [x, 'y'#c\n  ]\n"), ["a", "x", "y"]);
        assert_eq!(values("a:\n  b: 'x\n  y'#c\n  c: 1\n"), ["a", "b", "x y", "c", "1"]);
        // Anywhere else, `#` without a blank before it is text (in a plain scalar) or an error.
        assert_eq!(values("a: x#c\n"), ["a", "x#c"]);
        let got = read("a: [1]#c\nb: 2\n").unwrap();
        assert_eq!(got[2], ("b".into(), 2, 0));
        let err = read("a: [1]#c\nb: [}\n").unwrap_err();
        assert_eq!((err.1, err.2), (2, 4), "{err:?}");
    }

    #[test]
    fn documents_after_the_first_are_scanned_too() {
        // A block scalar's body, then a document marker, then a quoted scalar to pad.
        let text = "a: |\n  x\n---\nb: 'y\nz'\n";
        assert_eq!(Relaxed::new(text).unwrap().text(), "a: |\n  x\n---\nb: 'y\n   z'\n");
    }

    #[test]
    fn the_text_grows_by_its_length_at_most() {
        let mut text = format!("a: {}[\n", " ".repeat(5000));
        text.push_str(&"1,\n".repeat(1000));
        text.push_str("]\n");
        assert!(Relaxed::new(&text).is_none());
        let text = format!("a: {}[\n1,\n]\n", " ".repeat(5000));
        assert!(Relaxed::new(&text).is_some());
    }

    #[test]
    fn nothing_to_pad_is_none() {
        assert!(Relaxed::new("a: 'x'\nb: [1, 2]\n").is_none());
        assert!(Relaxed::new("a:\r  b: 'x\r  y'\r").is_none());
    }
}
