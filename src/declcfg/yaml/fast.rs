//! A fast path for the block YAML that catalogs are made of.
//!
//! [`parse_fast`] reads the subset of YAML that go-yaml v2, yq and opm emit — block mappings
//! and sequences (also sequences at their key's indentation), comments, plain scalars (also over
//! several lines), single- and double-quoted scalars (also over several lines), literal and
//! folded block scalars, empty values and the empty flow collections `[]` and `{}` — straight
//! from the bytes, line by line, without an event stream.
//!
//! It gives up (`None`) on anything else and on anything it is not sure about, and the caller
//! then runs [`parse_document`](super::parse_document) instead: anchors, aliases, tags,
//! non-empty flow collections, `?` keys, directives, document markers, tabs outside of scalar
//! text, `<<` keys, keys that are not valid JSON keys, irregular indentation, line breaks other
//! than `\n`, control characters, byte order marks, and every syntax error. When it does answer,
//! the answer is the one `parse_document` gives: the same values, key order, and positions
//! (lines offset by the document's first line, 1-based columns counted in characters), including
//! saphyr's conventions: a block scalar is placed at its first content line, a sequence written
//! at its key's indentation at its first entry's content, an empty value at its `:`.
//!
//! Scalars are resolved with [`scalar::resolve`] (YAML 1.1 rules, as go-yaml v2) and keys
//! named with [`scalar::key_text`], as the slow path does.

use std::borrow::Cow;

use super::super::json::insert_member;
use super::super::value::{Member, Node, Pos, Value};
use super::scalar::{self, Scalar};
use super::{Document, YamlError};

/// Deepest nesting of collections the fast path reads before giving up.
pub const MAX_FAST_DEPTH: usize = 200;

/// Longest simple key (bytes from the key's start to its `:`); YAML limits them to 1024
/// characters, and saphyr enforces that, so longer ones go to the slow path.
const MAX_KEY_BYTES: usize = 1000;

/// Parse one document like [`super::parse_document`], faster, when it is in the subset
/// this reader knows. `None` means "not sure": call `parse_document`. Never returns an error
/// itself (documents with errors always get `None`), but keeps the slow path's result type so
/// the caller can write `parse_fast(doc).unwrap_or_else(|| parse_document(doc))`.
pub fn parse_fast(doc: &Document<'_>) -> Option<Result<Option<Node>, YamlError>> {
    let text = doc.text;
    // Only documents whose last line is complete: saphyr has special rules for a block scalar
    // that runs into the end of input without a line break.
    if !text.is_empty() && !text.ends_with('\n') {
        return None;
    }
    // Keep every line and column well inside u32.
    if text.len() as u64 + u64::from(doc.first_line) >= u64::from(u32::MAX) {
        return None;
    }
    let mut p = Fast {
        s: text,
        b: text.as_bytes(),
        i: 0,
        line: 0,
        ls: 0,
        first_line: doc.first_line,
        members: Vec::new(),
        items: Vec::new(),
    };
    p.document().ok().map(Ok)
}

/// "Not in the subset, or not sure": fall back to the slow path.
#[derive(Debug)]
struct Bail;

type R<T> = Result<T, Bail>;

/// Where a node starts, which decides what it may be.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// The document's value: a block collection (or an empty flow one).
    Root,
    /// A mapping value on the lines after `key:`.
    NextLine,
    /// The content after a sequence's `- `.
    Item,
    /// A mapping value on the same line as `key: `.
    SameLine,
}

/// How the first line of a plain scalar ended.
#[derive(Clone, Copy)]
enum Stop {
    /// At the line break at this offset.
    Newline(usize),
    /// At a comment starting at this offset.
    Comment(usize),
    /// At a `:` followed by a space or a line break, at this offset: the scalar is a key.
    Colon(usize),
}

/// A mapping key, read up to its `:`.
struct Key<'a> {
    text: Cow<'a, str>,
    plain: bool,
    pos: Pos,
    colon: usize,
}

const fn stops(tab: bool, extra: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    // Control characters (line breaks included): the caller looks at what it stopped on.
    while i < 0x20 {
        if i != b'\t' as usize || tab {
            t[i] = true;
        }
        i += 1;
    }
    t[0x7f] = true;
    // Lead bytes of the characters we must look at: C1 controls and NEL (U+0080..U+009F),
    // the line and paragraph separators (U+2028, U+2029), the byte order mark (U+FEFF) and
    // the non-characters U+FFFE, U+FFFF.
    t[0xc2] = true;
    t[0xe2] = true;
    t[0xef] = true;
    let mut j = 0;
    while j < extra.len() {
        t[extra[j] as usize] = true;
        j += 1;
    }
    t
}

/// The stop sets [`Fast::scan`] knows.
const PLAIN: u8 = 0;
const LINE: u8 = 1;
const SQ: u8 = 2;
const DQ: u8 = 3;

/// Inside a plain scalar: where a word may end.
static PLAIN_STOP: [bool; 256] = stops(true, b" :");
/// Block scalar lines and comments: the end of the line.
static LINE_STOP: [bool; 256] = stops(false, b"");
/// Single-quoted scalars.
static SQ_STOP: [bool; 256] = stops(false, b"'");
/// Double-quoted scalars.
static DQ_STOP: [bool; 256] = stops(false, b"\"\\");

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Non-zero when some byte of `x` is below `n` (`n` <= 0x80).
#[inline(always)]
fn any_below(x: u64, n: u8) -> u64 {
    x.wrapping_sub(ONES * n as u64) & !x & HIGHS
}

/// Non-zero when some byte of `x` is 0x7f or above.
#[inline(always)]
fn any_7f_or_above(x: u64) -> u64 {
    ((x & !HIGHS).wrapping_add(ONES) | x) & HIGHS
}

/// Non-zero when some byte of `x` is `c`.
#[inline(always)]
fn any_eq(x: u64, c: u8) -> u64 {
    let y = x ^ (ONES * c as u64);
    y.wrapping_sub(ONES) & !y & HIGHS
}

/// For the eight bytes `x` (little-endian), a mask whose lowest set bit falls in the first
/// byte that may belong to stop set `KIND`: a superset test (tabs and every non-ASCII byte are
/// candidates too). Borrows only ever flag bytes above a real hit, so the lowest flag is exact.
#[inline(always)]
fn candidates<const KIND: u8>(x: u64) -> u64 {
    let common = any_below(x, 0x20) | any_7f_or_above(x);
    match KIND {
        PLAIN => common | any_below(x, 0x21) | any_eq(x, b':'),
        LINE => common,
        SQ => common | any_eq(x, b'\''),
        _ => common | any_eq(x, b'"') | any_eq(x, b'\\'),
    }
}

/// Whether the multi-byte character at `k` (whose lead byte is a stop byte) is one the fast
/// path leaves to the slow one: C1 controls and NEL, U+2028, U+2029 (line breaks for go-yaml,
/// not for saphyr), the byte order mark, U+FFFE and U+FFFF.
fn bad_multibyte(b: &[u8], k: usize) -> bool {
    let at = |o: usize| b.get(k + o).copied().unwrap_or(0);
    match at(0) {
        0xc2 => at(1) < 0xa0,
        0xe2 => at(1) == 0x80 && matches!(at(2), 0xa8 | 0xa9),
        0xef => (at(1) == 0xbb && at(2) == 0xbf) || (at(1) == 0xbf && matches!(at(2), 0xbe | 0xbf)),
        _ => true,
    }
}

/// Resolve an untagged scalar as the slow path does.
fn scalar(text: &str, plain: bool) -> R<Value> {
    scalar::resolve(text, plain, None).map(super::scalar_value).map_err(|_| Bail)
}

/// The JSON key for a mapping key, as the slow path names it; merge keys and keys
/// sigs.k8s.io/yaml rejects go to the slow path.
fn key_string(key: &Key<'_>) -> R<String> {
    if key.plain && scalar::is_merge_key(&key.text, true, None) {
        return Err(Bail);
    }
    let s = scalar::resolve(&key.text, key.plain, None).map_err(|_| Bail)?;
    if scalar::key_error(&s).is_some() {
        return Err(Bail);
    }
    Ok(match s {
        Scalar::Str(t) => t,
        other => scalar::key_text(&other),
    })
}

/// Whether a plain scalar may start with `c` (followed by `next`) in block context. Stricter
/// than YAML: `?` and `:` starts go to the slow path.
fn plain_start(c: u8, next: u8) -> bool {
    match c {
        b'-' => !matches!(next, b' ' | b'\t' | b'\n' | b'\r' | 0),
        b'?' | b':' | b',' | b'[' | b']' | b'{' | b'}' | b'#' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\'' | b'"'
        | b'%' | b'@' | b'`' | b' ' => false,
        c => c >= 0x20 && c != 0x7f,
    }
}

/// The value of a double-quoted escape `\e...`: the character and how many bytes after `e`
/// it used. Exactly saphyr's escapes; anything else goes to the slow path.
fn escape(e: u8, rest: &[u8]) -> R<(char, usize)> {
    let hex = |n: usize| -> R<(char, usize)> {
        let digits = rest.get(..n).ok_or(Bail)?;
        let mut v: u32 = 0;
        for &d in digits {
            let x = (d as char).to_digit(16).ok_or(Bail)?;
            v = (v << 4) | x;
        }
        Ok((char::from_u32(v).ok_or(Bail)?, n))
    };
    Ok(match e {
        b'0' => ('\0', 0),
        b'a' => ('\x07', 0),
        b'b' => ('\x08', 0),
        b't' | b'\t' => ('\t', 0),
        b'n' => ('\n', 0),
        b'v' => ('\x0b', 0),
        b'f' => ('\x0c', 0),
        b'r' => ('\r', 0),
        b'e' => ('\x1b', 0),
        b' ' => (' ', 0),
        b'"' => ('"', 0),
        b'/' => ('/', 0),
        b'\\' => ('\\', 0),
        b'N' => ('\u{85}', 0),
        b'_' => ('\u{a0}', 0),
        b'L' => ('\u{2028}', 0),
        b'P' => ('\u{2029}', 0),
        b'x' => return hex(2),
        b'u' => return hex(4),
        b'U' => return hex(8),
        _ => return Err(Bail),
    })
}

struct Fast<'a> {
    s: &'a str,
    b: &'a [u8],
    /// The cursor; between nodes, always at a line start (`ls`) or the end.
    i: usize,
    /// The line of `ls`, 0-based within the document.
    line: u32,
    /// Byte offset of the current line's start.
    ls: usize,
    first_line: u32,
    /// The members of the mappings being read, innermost last (so each mapping's members
    /// are gathered without regrowing its own vector).
    members: Vec<Member>,
    /// The same for sequence entries.
    items: Vec<Node>,
}

impl<'a> Fast<'a> {
    /// The byte at `k`, or 0 past the end (a real NUL never gets past the stop tables).
    #[inline]
    fn at(&self, k: usize) -> u8 {
        self.b.get(k).copied().unwrap_or(0)
    }

    #[inline]
    fn text(&self, from: usize, to: usize) -> R<&'a str> {
        self.s.get(from..to).ok_or(Bail)
    }

    /// Move past the line break at `nl`.
    #[inline]
    fn newline(&mut self, nl: usize) {
        self.i = nl + 1;
        self.ls = nl + 1;
        self.line += 1;
    }

    /// The position of byte `k` of the current line.
    fn pos_at(&self, k: usize) -> Pos {
        let prefix = self.b.get(self.ls..k).unwrap_or(&[]);
        let col = if prefix.is_ascii() { prefix.len() } else { prefix.iter().filter(|&&c| (c & 0xc0) != 0x80).count() };
        Pos::new(self.first_line + self.line, col as u32 + 1)
    }

    /// The first byte at or after `k` that stop set `KIND` stops on and that needs a look
    /// (checked multi-byte characters are passed over), or the end. Looks at eight bytes at
    /// a time.
    #[inline]
    fn scan<const KIND: u8>(&self, mut k: usize) -> R<usize> {
        let table = match KIND {
            PLAIN => &PLAIN_STOP,
            LINE => &LINE_STOP,
            SQ => &SQ_STOP,
            _ => &DQ_STOP,
        };
        let b = self.b;
        loop {
            // The next candidate byte.
            loop {
                match b.get(k..k + 8) {
                    Some(chunk) => {
                        let mut word = [0u8; 8];
                        word.copy_from_slice(chunk);
                        let m = candidates::<KIND>(u64::from_le_bytes(word));
                        if m != 0 {
                            k += (m.trailing_zeros() / 8) as usize;
                            break;
                        }
                        k += 8;
                    }
                    None => {
                        while k < b.len() && !table[b[k] as usize] {
                            k += 1;
                        }
                        break;
                    }
                }
            }
            let Some(&c) = b.get(k) else { return Ok(k) };
            if !table[c as usize] {
                // A candidate that does not stop: a tab or a non-ASCII byte.
                k += 1;
                continue;
            }
            if matches!(c, 0xc2 | 0xe2 | 0xef) {
                if bad_multibyte(b, k) {
                    return Err(Bail);
                }
                k += 1;
                continue;
            }
            return Ok(k);
        }
    }

    /// The line break ending the comment that starts at `k`.
    fn comment_end(&self, k: usize) -> R<usize> {
        let nl = self.scan::<LINE>(k)?;
        if self.at(nl) == b'\n' && nl < self.b.len() {
            Ok(nl)
        } else {
            Err(Bail)
        }
    }

    /// After a token ending at `k`: only spaces and a comment may follow on the line. Moves to
    /// the next line.
    fn finish_line(&mut self, k: usize) -> R<()> {
        let mut j = k;
        while self.at(j) == b' ' {
            j += 1;
        }
        match self.at(j) {
            b'\n' if j < self.b.len() => {
                self.newline(j);
                Ok(())
            }
            b'#' if j > k => {
                let nl = self.comment_end(j)?;
                self.newline(nl);
                Ok(())
            }
            _ => Err(Bail),
        }
    }

    /// From a line start, pass blank and comment lines. Returns the indentation of the next
    /// content line (the cursor stays at its start), or `None` at the end.
    fn skip_blank_lines(&mut self) -> R<Option<usize>> {
        loop {
            let start = self.i;
            let mut k = start;
            while self.at(k) == b' ' {
                k += 1;
            }
            if k >= self.b.len() {
                self.i = self.b.len();
                return Ok(None);
            }
            match self.b[k] {
                b'\n' => self.newline(k),
                b'#' => {
                    let nl = self.comment_end(k)?;
                    self.newline(nl);
                }
                c => {
                    let ind = k - start;
                    // Document markers and directives are for the slow path.
                    if ind == 0 && (c == b'%' || self.b[k..].starts_with(b"---") || self.b[k..].starts_with(b"...")) {
                        return Err(Bail);
                    }
                    return Ok(Some(ind));
                }
            }
        }
    }

    fn document(&mut self) -> R<Option<Node>> {
        let Some(ind) = self.skip_blank_lines()? else { return Ok(None) };
        let node = self.node(self.ls + ind, -1, Ctx::Root, 0)?;
        if self.skip_blank_lines()?.is_some() {
            return Err(Bail);
        }
        Ok(Some(node))
    }

    /// The node starting at byte `j` of the current line. `n` is the column of the innermost
    /// enclosing block collection (saphyr's `indent`; -1 at the root): lines that continue a
    /// scalar must be indented more. Returns with the cursor at the start of the line after
    /// the node.
    fn node(&mut self, j: usize, n: isize, ctx: Ctx, depth: usize) -> R<Node> {
        if depth > MAX_FAST_DEPTH {
            return Err(Bail);
        }
        let c = self.at(j);
        let next = self.at(j + 1);
        match c {
            b'-' if next == b' ' => {
                if ctx == Ctx::SameLine {
                    return Err(Bail);
                }
                self.sequence(j - self.ls, false, depth)
            }
            b'[' | b'{' => self.flow_empty(j),
            b'|' | b'>' => match ctx {
                Ctx::Item | Ctx::SameLine => self.block_scalar(j, n),
                _ => Err(Bail),
            },
            b'\'' | b'"' => {
                let pos = self.pos_at(j);
                let line = self.line;
                let (text, after) = self.quoted(j, n)?;
                if self.line == line {
                    let mut k = after;
                    while self.at(k) == b' ' {
                        k += 1;
                    }
                    if self.at(k) == b':' && matches!(self.at(k + 1), b' ' | b'\n') {
                        if ctx == Ctx::SameLine || k - j > MAX_KEY_BYTES {
                            return Err(Bail);
                        }
                        let key = Key { text, plain: false, pos, colon: k };
                        return self.mapping(j - self.ls, key, depth);
                    }
                }
                if ctx == Ctx::Root {
                    return Err(Bail);
                }
                self.finish_line(after)?;
                Ok(Node::new(pos, scalar(&text, false)?))
            }
            _ => {
                if !plain_start(c, next) {
                    return Err(Bail);
                }
                let (end, stop) = self.plain_line(j)?;
                match stop {
                    Stop::Colon(colon) => {
                        if ctx == Ctx::SameLine || colon - j > MAX_KEY_BYTES {
                            return Err(Bail);
                        }
                        let key =
                            Key { text: Cow::Borrowed(self.text(j, end)?), plain: true, pos: self.pos_at(j), colon };
                        self.mapping(j - self.ls, key, depth)
                    }
                    _ if ctx == Ctx::Root => Err(Bail),
                    _ => self.plain_scalar(j, end, stop, n),
                }
            }
        }
    }

    /// The key starting at byte `j` of the current line (a mapping's later keys).
    #[inline(never)]
    fn key_at(&mut self, j: usize) -> R<Key<'a>> {
        let c = self.at(j);
        if c == b'\'' || c == b'"' {
            let pos = self.pos_at(j);
            let line = self.line;
            let (text, after) = self.quoted(j, isize::MAX)?;
            if self.line != line {
                return Err(Bail);
            }
            let mut k = after;
            while self.at(k) == b' ' {
                k += 1;
            }
            if self.at(k) == b':' && matches!(self.at(k + 1), b' ' | b'\n') && k - j <= MAX_KEY_BYTES {
                return Ok(Key { text, plain: false, pos, colon: k });
            }
            return Err(Bail);
        }
        if !plain_start(c, self.at(j + 1)) {
            return Err(Bail);
        }
        match self.plain_line(j)? {
            (end, Stop::Colon(colon)) if colon - j <= MAX_KEY_BYTES => {
                Ok(Key { text: Cow::Borrowed(self.text(j, end)?), plain: true, pos: self.pos_at(j), colon })
            }
            _ => Err(Bail),
        }
    }

    /// A block mapping at column `col` whose first key has been read.
    fn mapping(&mut self, col: usize, first: Key<'a>, depth: usize) -> R<Node> {
        if depth > MAX_FAST_DEPTH {
            return Err(Bail);
        }
        let pos = first.pos;
        let start = self.members.len();
        let mut key = first;
        loop {
            let name = key_string(&key)?;
            let key_pos = key.pos;
            let value = self.value_after_colon(key.colon, col, depth)?;
            self.members.push(Member { key: name, key_pos, value });
            match self.skip_blank_lines()? {
                Some(ind) if ind == col => {
                    let j = self.ls + ind;
                    key = self.key_at(j)?;
                }
                Some(ind) if ind < col => break,
                None => break,
                Some(_) => return Err(Bail),
            }
        }
        // Duplicate keys: the last wins, in the first one's place, as the slow path does.
        let mut members = Vec::with_capacity(self.members.len() - start);
        for m in self.members.drain(start..) {
            insert_member(&mut members, m);
        }
        Ok(Node::new(pos, Value::Object(members)))
    }

    /// The value of a mapping at column `c` whose key's `:` is at `colon`.
    fn value_after_colon(&mut self, colon: usize, c: usize, depth: usize) -> R<Node> {
        let mut k = colon + 1;
        while self.at(k) == b' ' {
            k += 1;
        }
        match self.at(k) {
            b'\n' | b'#' => {
                let null_pos = self.pos_at(colon);
                self.finish_line(colon + 1)?;
                match self.skip_blank_lines()? {
                    Some(ind) if ind > c => self.node(self.ls + ind, c as isize, Ctx::NextLine, depth + 1),
                    Some(ind) if ind == c && self.at(self.ls + c) == b'-' => match self.at(self.ls + c + 1) {
                        b' ' => self.sequence(c, true, depth + 1),
                        // `-` alone (an empty entry, or one on the next lines): not in the subset.
                        b'\n' | b'\t' | b'\r' => Err(Bail),
                        // A key like `-x: 1`: the mapping goes on, this value is empty.
                        _ => Ok(Node::new(null_pos, scalar("", true)?)),
                    },
                    _ => Ok(Node::new(null_pos, scalar("", true)?)),
                }
            }
            _ => self.node(k, c as isize, Ctx::SameLine, depth + 1),
        }
    }

    /// A block sequence whose entries' `-` are at column `c` (the first on the current line).
    /// `indentless`: written at its key's indentation (saphyr then places it at its first
    /// entry's content, not at the `-`).
    fn sequence(&mut self, c: usize, indentless: bool, depth: usize) -> R<Node> {
        if depth > MAX_FAST_DEPTH {
            return Err(Bail);
        }
        let start = self.items.len();
        let mut pos = None;
        loop {
            let dash = self.ls + c;
            if self.at(dash) != b'-' || self.at(dash + 1) != b' ' {
                return Err(Bail);
            }
            let mut j = dash + 1;
            while self.at(j) == b' ' {
                j += 1;
            }
            // Entries that are empty or start on the next line are not in the subset.
            if matches!(self.at(j), b'\n' | b'#' | b'\t' | b'\r') || j >= self.b.len() {
                return Err(Bail);
            }
            if pos.is_none() {
                pos = Some(self.pos_at(if indentless { j } else { dash }));
            }
            let item = self.node(j, c as isize, Ctx::Item, depth + 1)?;
            self.items.push(item);
            match self.skip_blank_lines()? {
                Some(ind) if ind == c => {
                    let d = self.ls + c;
                    if self.at(d) == b'-' && self.at(d + 1) == b' ' {
                        continue;
                    }
                    if self.at(d) == b'-' && matches!(self.at(d + 1), b'\n' | b'\t' | b'\r') {
                        return Err(Bail);
                    }
                    if indentless {
                        break;
                    }
                    return Err(Bail);
                }
                Some(ind) if ind < c => break,
                None => break,
                Some(_) => return Err(Bail),
            }
        }
        let pos = pos.ok_or(Bail)?;
        let items: Vec<Node> = self.items.drain(start..).collect();
        Ok(Node::new(pos, Value::Array(items)))
    }

    /// `[]` or `{}` (spaces allowed inside) at `j`, alone on its line but for a comment.
    #[inline(never)]
    fn flow_empty(&mut self, j: usize) -> R<Node> {
        let close = if self.at(j) == b'[' { b']' } else { b'}' };
        let pos = self.pos_at(j);
        let mut k = j + 1;
        while self.at(k) == b' ' {
            k += 1;
        }
        if self.at(k) != close {
            return Err(Bail);
        }
        self.finish_line(k + 1)?;
        let value = if close == b']' { Value::Array(Vec::new()) } else { Value::Object(Vec::new()) };
        Ok(Node::new(pos, value))
    }

    /// Read the first line of a plain scalar starting at `j`: returns the end of its text
    /// (trailing spaces excluded) and what stopped it.
    fn plain_line(&self, j: usize) -> R<(usize, Stop)> {
        let mut k = j;
        let mut end = j;
        loop {
            let word = k;
            loop {
                k = self.scan::<PLAIN>(k)?;
                if self.at(k) == b':' && k < self.b.len() {
                    match self.at(k + 1) {
                        b' ' | b'\n' => {
                            let end = if k > word { k } else { end };
                            return Ok((end, Stop::Colon(k)));
                        }
                        b'\t' | b'\r' => return Err(Bail),
                        _ => k += 1,
                    }
                } else {
                    break;
                }
            }
            if k > word {
                end = k;
            }
            if k >= self.b.len() {
                return Err(Bail);
            }
            match self.b[k] {
                b'\n' => return Ok((end, Stop::Newline(k))),
                b' ' => {
                    while self.at(k) == b' ' {
                        k += 1;
                    }
                    match self.at(k) {
                        b'\n' if k < self.b.len() => return Ok((end, Stop::Newline(k))),
                        b'#' => return Ok((end, Stop::Comment(k))),
                        _ => {}
                    }
                }
                _ => return Err(Bail),
            }
        }
    }

    /// A plain scalar starting at `j` whose first line ends at `end` (text) and `stop`; more
    /// lines follow while they are indented more than `n`.
    #[inline(never)]
    fn plain_scalar(&mut self, j: usize, end: usize, stop: Stop, n: isize) -> R<Node> {
        let pos = self.pos_at(j);
        let first = self.text(j, end)?;
        let mut owned: Option<String> = None;
        match stop {
            Stop::Colon(_) => return Err(Bail),
            Stop::Comment(h) => {
                let nl = self.comment_end(h)?;
                self.newline(nl);
            }
            Stop::Newline(nl) => {
                self.newline(nl);
                loop {
                    let saved = (self.i, self.line, self.ls);
                    let mut breaks = 0usize;
                    let ind = loop {
                        let mut k = self.i;
                        while self.at(k) == b' ' {
                            k += 1;
                        }
                        if k >= self.b.len() {
                            break None;
                        }
                        match self.b[k] {
                            b'\n' => {
                                breaks += 1;
                                self.newline(k);
                            }
                            b'\t' => return Err(Bail),
                            _ => break Some(k - self.i),
                        }
                    };
                    let Some(ind) = ind.filter(|&x| x as isize > n) else {
                        (self.i, self.line, self.ls) = saved;
                        break;
                    };
                    let cj = self.ls + ind;
                    if self.at(cj) == b'#' {
                        return Err(Bail);
                    }
                    let (ce, st) = self.plain_line(cj)?;
                    let Stop::Newline(nl) = st else { return Err(Bail) };
                    let buf = owned.get_or_insert_with(|| first.to_string());
                    if breaks == 0 {
                        buf.push(' ');
                    } else {
                        for _ in 0..breaks {
                            buf.push('\n');
                        }
                    }
                    buf.push_str(self.text(cj, ce)?);
                    self.newline(nl);
                }
            }
        }
        let text = owned.as_deref().unwrap_or(first);
        Ok(Node::new(pos, scalar(text, true)?))
    }

    /// After a line break inside a quoted scalar: pass the next lines' leading spaces and
    /// blank lines. Returns how many blank lines there were and where the text goes on, which
    /// must be indented more than `n` (and not at column 0).
    fn quoted_fold(&mut self, n: isize) -> R<(usize, usize)> {
        let mut breaks = 0;
        loop {
            let mut k = self.i;
            while self.at(k) == b' ' {
                k += 1;
            }
            if k >= self.b.len() {
                return Err(Bail);
            }
            match self.b[k] {
                b'\n' => {
                    breaks += 1;
                    self.newline(k);
                }
                b'\t' => return Err(Bail),
                _ => {
                    let col = k - self.ls;
                    if col == 0 || col as isize <= n {
                        return Err(Bail);
                    }
                    return Ok((breaks, k));
                }
            }
        }
    }

    /// A single- or double-quoted scalar whose opening quote is at `j`; continuation lines
    /// must be indented more than `n`. Returns the text and the offset after the closing quote.
    #[inline(never)]
    fn quoted(&mut self, j: usize, n: isize) -> R<(Cow<'a, str>, usize)> {
        let single = self.at(j) == b'\'';
        let quote = if single { b'\'' } else { b'"' };
        let mut k = j + 1;
        let mut seg = k;
        let mut out: Option<String> = None;
        loop {
            k = if single { self.scan::<SQ>(k)? } else { self.scan::<DQ>(k)? };
            if k >= self.b.len() {
                return Err(Bail);
            }
            let c = self.b[k];
            if c == quote {
                if single && self.at(k + 1) == b'\'' {
                    let o = out.get_or_insert_with(String::new);
                    o.push_str(self.text(seg, k + 1)?);
                    k += 2;
                    seg = k;
                    continue;
                }
                let text = match out {
                    None => Cow::Borrowed(self.text(seg, k)?),
                    Some(mut o) => {
                        o.push_str(self.text(seg, k)?);
                        Cow::Owned(o)
                    }
                };
                return Ok((text, k + 1));
            }
            match c {
                b'\\' => {
                    let o = out.get_or_insert_with(String::new);
                    o.push_str(self.text(seg, k)?);
                    let e = self.at(k + 1);
                    if e == b'\n' && k + 1 < self.b.len() {
                        // An escaped line break: the lines join without a space.
                        self.newline(k + 1);
                        let (breaks, at) = self.quoted_fold(n)?;
                        for _ in 0..breaks {
                            o.push('\n');
                        }
                        k = at;
                    } else {
                        let (ch, used) = escape(e, self.b.get(k + 2..).unwrap_or(&[]))?;
                        o.push(ch);
                        k += 2 + used;
                    }
                    seg = k;
                }
                b'\n' => {
                    let o = out.get_or_insert_with(String::new);
                    let mut e = k;
                    while e > seg && matches!(self.b[e - 1], b' ' | b'\t') {
                        e -= 1;
                    }
                    o.push_str(self.text(seg, e)?);
                    self.newline(k);
                    let (breaks, at) = self.quoted_fold(n)?;
                    if breaks == 0 {
                        o.push(' ');
                    } else {
                        for _ in 0..breaks {
                            o.push('\n');
                        }
                    }
                    k = at;
                    seg = k;
                }
                _ => return Err(Bail),
            }
        }
    }

    /// A literal (`|`) or folded (`>`) block scalar whose indicator is at `j`, in a collection
    /// at column `n`.
    #[inline(never)]
    fn block_scalar(&mut self, j: usize, n: isize) -> R<Node> {
        if n < 0 {
            return Err(Bail);
        }
        let n = n as usize;
        let literal = self.at(j) == b'|';
        #[derive(PartialEq)]
        enum Chomp {
            Clip,
            Strip,
            Keep,
        }
        let mut chomp = Chomp::Clip;
        let mut increment = 0usize;
        let mut k = j + 1;
        let chomping = |c: u8| match c {
            b'+' => Some(Chomp::Keep),
            b'-' => Some(Chomp::Strip),
            _ => None,
        };
        if let Some(ch) = chomping(self.at(k)) {
            chomp = ch;
            k += 1;
            if let d @ b'1'..=b'9' = self.at(k) {
                increment = (d - b'0') as usize;
                k += 1;
            }
        } else if let d @ b'1'..=b'9' = self.at(k) {
            increment = (d - b'0') as usize;
            k += 1;
            if let Some(ch) = chomping(self.at(k)) {
                chomp = ch;
                k += 1;
            }
        }
        // Only spaces and a comment may follow the header.
        let mut h = k;
        while self.at(h) == b' ' {
            h += 1;
        }
        match self.at(h) {
            b'\n' if h < self.b.len() => {}
            b'#' if h > k => h = self.comment_end(h)?,
            _ => return Err(Bail),
        }
        self.newline(h);

        let b = self.b;
        let indent = if increment > 0 {
            n + increment
        } else {
            // The first non-blank line sets the indentation; blank lines before it must not
            // be indented more (saphyr's "wrongly indented line"), and it must be indented more
            // than the collection (else the scalar is empty): both go to the slow path.
            let mut k = self.i;
            let mut max = 0;
            let first = loop {
                let start = k;
                while self.at(k) == b' ' {
                    k += 1;
                }
                let sp = k - start;
                max = max.max(sp);
                if k >= b.len() {
                    return Err(Bail);
                }
                match b[k] {
                    b'\n' => k += 1,
                    b'\t' => return Err(Bail),
                    _ => break sp,
                }
            };
            let indent = max.max(n + 1);
            if first != indent {
                return Err(Bail);
            }
            indent
        };

        let mut out = String::new();
        let mut breaks = 0usize;
        let mut leading_break = false;
        let mut leading_blank = false;
        let mut k = self.block_indent(indent, &mut breaks)?;
        if k >= b.len() || k - self.ls != indent {
            return Err(Bail);
        }
        let pos = self.pos_at(k);
        loop {
            let trailing_blank = matches!(b[k], b' ' | b'\t');
            if !literal && leading_break && !leading_blank && !trailing_blank {
                if breaks == 0 {
                    out.push(' ');
                }
                for _ in 0..breaks {
                    out.push('\n');
                }
            } else {
                if leading_break {
                    out.push('\n');
                }
                for _ in 0..breaks {
                    out.push('\n');
                }
            }
            breaks = 0;
            leading_blank = trailing_blank;
            let nl = self.scan::<LINE>(k)?;
            if nl >= b.len() || b[nl] != b'\n' {
                return Err(Bail);
            }
            out.push_str(self.text(k, nl)?);
            self.newline(nl);
            leading_break = true;
            k = self.block_indent(indent, &mut breaks)?;
            if k >= b.len() || k - self.ls != indent {
                break;
            }
        }
        if chomp != Chomp::Strip && leading_break {
            out.push('\n');
        }
        if chomp == Chomp::Keep {
            for _ in 0..breaks {
                out.push('\n');
            }
        }
        // The line that ended the scalar belongs to the parent.
        self.i = if k >= b.len() { b.len() } else { self.ls };
        Ok(Node::new(pos, scalar(&out, false)?))
    }

    /// Inside a block scalar, from a line start: eat up to `indent` spaces on each line,
    /// counting the lines that end there. Returns where the current line's text starts (its
    /// column is `indent` for a content line, less when the scalar has ended).
    fn block_indent(&mut self, indent: usize, breaks: &mut usize) -> R<usize> {
        loop {
            let mut k = self.ls;
            while k - self.ls < indent && self.at(k) == b' ' {
                k += 1;
            }
            if k < self.b.len() && self.b[k] == b'\n' {
                *breaks += 1;
                self.newline(k);
                continue;
            }
            if k - self.ls < indent && self.at(k) == b'\t' {
                return Err(Bail);
            }
            return Ok(k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse_document, split_documents};
    use super::*;

    fn same(a: &Result<Option<Node>, YamlError>, b: &Result<Option<Node>, YamlError>) -> bool {
        // NaN != NaN: fall back to the debug text.
        a == b || format!("{a:?}") == format!("{b:?}")
    }

    #[track_caller]
    fn assert_same(src: &str) {
        for first_line in [1, 7] {
            let doc = Document { text: src, first_line };
            let slow = parse_document(&doc);
            let Some(fast) = parse_fast(&doc) else {
                panic!("fast path bailed on {src:?} (slow path: {slow:?})");
            };
            assert!(same(&fast, &slow), "different results for {src:?}\nfast: {fast:#?}\nslow: {slow:#?}");
        }
    }

    #[track_caller]
    fn assert_bails(src: &str) {
        let doc = Document { text: src, first_line: 1 };
        assert!(parse_fast(&doc).is_none(), "fast path did not bail on {src:?}: {:?}", parse_fast(&doc));
    }

    /// Either bails or agrees with the slow path.
    #[track_caller]
    fn assert_consistent(src: &str) -> bool {
        let doc = Document { text: src, first_line: 3 };
        match parse_fast(&doc) {
            None => false,
            Some(fast) => {
                let slow = parse_document(&doc);
                assert!(same(&fast, &slow), "different results for {src:?}\nfast: {fast:#?}\nslow: {slow:#?}");
                true
            }
        }
    }

    #[test]
    fn empty_and_comment_documents() {
        assert_same("");
        assert_same("\n");
        assert_same("   \n\n");
        assert_same("# only a comment\n");
        assert_same("  # indented comment\n\n# another\n");
    }

    #[test]
    fn block_mappings() {
        assert_same("a: 1\n");
        assert_same("a: 1\nb: two\nc: three words here\n");
        assert_same("a:\n  b: 1\n  c:\n    d: x\ne: y\n");
        assert_same("  a: 1\n  b: 2\n");
        assert_same("a : 1\nb   :   2\n");
        assert_same("a:    spaced   \n");
        assert_same("url: quay.io/x/y@sha256:0123abc\nk:v: z\n");
        assert_same("a#b: c\n");
        assert_same("-x: 1\n");
        assert_same("a: -1\nb: -x\n");
        assert_same("a: x,y[0]{1}\n");
        assert_same("a[0]: x\n");
        assert_same("a: \"#x\"\n");
        assert_same("a: x#y\n");
        assert_same("é: ü\nkey ä: value ö\n");
        assert_same("a:\n  \"é\": 1\n  'ö': x\n");
    }

    #[test]
    fn duplicate_keys_last_wins() {
        assert_same("a: 1\nb: 2\na: 3\n");
        assert_same("a:\n  x: 1\nb: 2\na: [] \n");
        assert_same("1: a\n'1': b\n");
    }

    #[test]
    fn yaml_1_1_scalars_and_keys() {
        assert_same(
            "a: yes\nb: No\nc: on\nd: ~\ne: null\nf: 1.0\ng: 0x1F\nh: 0777\ni: 1e3\nj: .inf\nk: -.Inf\nl: 1_000\n",
        );
        assert_same("m: 2001-12-14\nn: +5\no: 08\np: 123456789012345678901234567890\n");
        assert_same("a: .nan\n");
        assert_same("yes: 1\n1.5: x\n10: y\ntrue: z\n0x10: w\n");
        assert_same("a: 'yes'\nb: \"1.0\"\nc: |\n  1\n");
        assert_same("1e3: x\n");
    }

    #[test]
    fn empty_values() {
        assert_same("a:\nb: 1\n");
        assert_same("a:\n");
        assert_same("a:   \n");
        assert_same("a: # comment\nb:\n");
        assert_same("a:\n  # comment\nb: 1\n");
        assert_same("x:\n  a:\n  b:\n");
        assert_same("- a:\n  b:\n- c:\n");
        assert_same("a:\n-x: 1\n");
    }

    #[test]
    fn block_sequences() {
        assert_same("- a\n- b\n");
        assert_same("a:\n  - x\n  - y\nb: 1\n");
        assert_same("a:\n- x\n- y\nb: 1\n");
        assert_same("a:\n- x\n- y\n");
        assert_same("entries:\n- name: x\n  replaces: y\n  skips:\n  - a\n  - b\n- name: z\nname: c\n");
        assert_same("a:\n    - x\n    -   y\n");
        assert_same("-   name: x\n    v: 1\n-   name: y\n");
        assert_same("- - a\n  - b\n- - c\n");
        assert_same("- - - deep\n");
        assert_same("a:\n- - x\n  - y\n- z\n");
        assert_same("- a: 1\n  b:\n  - x\n  c:\n    d: e\n- f\n");
        assert_same("- 'q'\n- \"d\"\n- 'k': v\n- \"k2\": v2\n  other: 1\n");
        assert_same("- x # c\n- y\n");
        assert_same("- x\n\n# c\n\n- y\n");
        assert_same("a:\n- x\n# c\nb: 1\n");
        // Sequences at their key's indentation inside entries of such sequences.
        assert_same("a:\n- b:\n  - x\n  - y\n  c: 1\n- d\ne: 2\n");
        assert_same("- a:\n  - x\n- b:\n- c\n");
        assert_same("a:\n- |1\n  x\n- |\n x\n- >-\n  y\n");
        assert_same("- k: |\n   x\n  j: 1\n");
    }

    #[test]
    fn empty_flow_collections() {
        assert_same("a: []\nb: {}\nc: [ ]\nd: {  }\ne: [] # c\n");
        assert_same("- []\n- {}\n- x\n");
        assert_same("a:\n- []\n- {}\nb: 1\n");
        assert_same("a:\n  []\nb:\n  {}\n");
        assert_same("[]\n");
        assert_same("{}\n");
        assert_same("- [] \n- {}  # c\n");
    }

    #[test]
    fn comments_and_blank_lines() {
        assert_same("# head\na: 1 # tail\n\n  # indented\nb:   'x'   # q\nc: |  # block\n  t\n# end\n");
        assert_same("a:\n\n  b: 1\n\n\n  c: 2\n\n");
        assert_same("a: x\n   \n  \nb: y\n");
    }

    #[test]
    fn multi_line_plain_scalars() {
        assert_same("description: This is a long\n  description that goes on\n  and on.\nnext: 1\n");
        assert_same("a: one\n\n  two\n\n\n  three\nb: x\n");
        assert_same("a: one   \n     two   \n  three\n");
        assert_same("a:\n  one\n  two\nb: 1\n");
        assert_same("a:\n    one\n  two\n");
        assert_same("- one\n  two\n- three\n");
        assert_same("a:\n- one\n  two\n- three\n");
        assert_same("- name: one\n   two\n  next: x\n");
        assert_same("a: one\n  - two\n  [x] {y} \"z\" 'w' |v >u &t *s !r %q @p\n");
        assert_same("a: one\n  two  three\n");
        assert_same("a: 1\n  2\n");
        assert_same("a: yes\n  no\n");
        assert_same("a: x\n \n  y\n");
        assert_same("a: x#y\n  z#w\n");
    }

    #[test]
    fn single_quoted_scalars() {
        assert_same("a: 'it''s'\nb: ''\nc: ''''\nd: '  padded  '\n");
        assert_same("a: 'one\n  two'\n");
        assert_same("a: 'one   \n     two'\n");
        assert_same("a: 'one\n\n  two\n\n\n  three'\n");
        assert_same("a: 'x '' \n  y'\n");
        assert_same("a: '# not a comment'\nb: 'x: y'\nc: '\\n'\n");
        assert_same("- 'one\n  two'\n- x\n");
        assert_same("a: 'tab\there'\n");
        assert_same("a: 'tab\t\n  here'\n");
        assert_same("a: 'x' # c\n");
        assert_same("a: 'é\n  ü'\n");
    }

    #[test]
    fn double_quoted_scalars() {
        assert_same("a: \"x\\ny\\tz\\\\ \\\" \\/ \\0 \\a \\b \\v \\f \\r \\e \\  \\N \\_ \\L \\P\"\n");
        assert_same("a: \"\\x41\\u00e9\\U0001F600\"\n");
        assert_same("a: \"one\n  two\"\n");
        assert_same("a: \"one   \n  two\"\n");
        assert_same("a: \"one\\\n  two\"\n");
        assert_same("a: \"one \\\n  two\"\n");
        assert_same("a: \"one\\\n\n  two\"\n");
        assert_same("a: \"one\n\n\n  two\"\n");
        assert_same("a: \"x\\t \n  y\"\n");
        assert_same("a: \"\\  \n  y\"\n");
        assert_same("a: \"\\\t\"\n");
        assert_same("a: \"\" # c\n");
        assert_same("\"k\": \"v\"\n'k2' : v2\n");
        assert_same("a: \"{\\\"x\\\": 1}\"\n");
    }

    #[test]
    fn literal_block_scalars() {
        assert_same("a: |\n  one\n  two\nb: 1\n");
        assert_same("a: |-\n  one\n  two\nb: 1\n");
        assert_same("a: |+\n  one\n  two\n\n\nb: 1\n");
        assert_same("a: |\n  one\n\n\nb: 1\n");
        assert_same("a: |-\n  one\n\n\n");
        assert_same("a: |\n\n  one\n    more\n  two\n");
        assert_same("a: |\n  \n  one\n");
        assert_same("a: |\n  one\n      \n  two\n     \n");
        assert_same("a: |\n    deep\n    deeper\n");
        assert_same("a: |\n  # not a comment\n  x: y\n  - z\n");
        assert_same("a: |\n  tab\there\n  \tleading tab\n");
        assert_same("- |\n  item\n- |-\n  item2\n");
        assert_same("- a: |\n    x\n  b: y\n");
        assert_same("a:\n- |\n  x\n- y\n");
        assert_same("a: |2\n   x\n  y\n");
        assert_same("a: |2-\n    x\n  y\n");
        assert_same("a: |-2\n  x\n");
        assert_same("a: |+2\n  x\n\n");
        assert_same("- |1\n  x\n");
        assert_same("a: |\n  é\n  ü\nb: é\n");
        assert_same("a: |\n  x\n# comment\nb: 1\n");
        assert_same("a: |\n  x\n  # indented comment is text\nb: 1\n");
        assert_same("a: |\n  x\n\n   \nb: 1\n");
        assert_same("a: |+\n  x\n\n   \nb: 1\n");
    }

    #[test]
    fn folded_block_scalars() {
        assert_same("a: >\n  one\n  two\n\n  three\nb: 1\n");
        assert_same("a: >-\n  one\n  two\n");
        assert_same("a: >+\n  one\n  two\n\n");
        assert_same("a: >\n  one\n    more\n  two\n\n    more2\n\n  three\n");
        assert_same("a: >\n\n  one\n\n\n  two\n");
        assert_same("a: >\n  one\n   \n  two\n");
        assert_same("a: >\n  one\n  \ttab\n  two\n");
        assert_same("a: >2\n    one\n  two\n");
    }

    #[test]
    fn positions_follow_saphyr() {
        // Block scalars sit at their first content line; indentless sequences at their first
        // entry's content; empty values at their colon.
        let src = "a:\n- x\nb: |\n\n  text\nc:\nd: 'q'\n";
        assert_same(src);
        let doc = Document { text: src, first_line: 10 };
        let n = parse_fast(&doc).unwrap().unwrap().unwrap();
        assert_eq!(n.get("a").unwrap().pos, Pos::new(11, 3));
        assert_eq!(n.get("b").unwrap().pos, Pos::new(14, 3));
        assert_eq!(n.get("c").unwrap().pos, Pos::new(15, 2));
        assert_eq!(n.get("d").unwrap().pos, Pos::new(16, 4));
        assert_same("é: []\n");
        assert_same("ééé: x\n\"ü\": y\nü: |\n  z\n");
    }

    #[test]
    fn catalog_like_documents() {
        assert_same(concat!(
            "defaultChannel: stable\n",
            "icon:\n",
            "  base64data: iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAYAAACqaXHeAAAACXBIWXMAAACxAAAAsQHGLUmNAAAEOklEQVR4nO1bTUhUURQ+ZSioGAyNTFAmNBCjUEHSShRaTRs3tWlR61q3KciVC1e1rV3QOjduciUo0iIUpqARYQI1QVGZSHRASYrv8e7wmnz33vfmnjPPZj54zCjv3nfvd8/fO+fMmQdvP/6mJsbZZt480CIgAWtoKFoEJGANDYU1AVdSXTSQ6aHO9nOJ3QzWhjVirbaw3s2j2/2Uy/RU/97dP6S18gEVt/a8C98loQ5EbfhCd0f16ctbezQx89VqNbGPEw/EdasvVSVkrrRD86Vt2tk/ZKEi3d1BI9leGs2m/9pwPXAmz1jQvZuXvGu+tENThe/OiEh7c1+mkWzayXxBsCg0FoprqrBBH4qbVDn6FWse6PTdgYseqVxgtWhYOMT15exKZBsBvX5655ozUQ8DuxvEBibHrkcSX9yLMdybB8TigMfDWc+TmIB7cK8UYr0NKteDT+UFbAED+WahFEpSVEO3tF6uumF8RkUsG6B8PwwcDBX0HMbKRmSxQSwWY2v/b7t5uFyMh9uNa2AVnOYD4KpARGd7m/HeV7MrtLhe9r5Dkl7kB41jKkfH3sbhYl3BqQ3Awp5Pf7ay+BB3FVaDOBMwJ+Z2uXnAuRFE8DMxU/R0XQdIyZPhq94dpk1hLszJEWGyeAHoJQydiQQYUIg/7MlyiAFTRrNeXQ8DqxvEwsM2pqBc3klSgLFhHsMV2OMARIEwXmGA5xjqS/0jBRiDsdxgJ0Cpgw7wHMBcabt6F6fYByESCcLd6VQBeQa88S2u//BOHvcqF8kNsVDYZOmhBjjx5a2fzl2dDmIEmLJGQ35I/b6wESukjQvRpKjOLap0m3RqTZQAk15HSWa6gigBiOR0LrHL4h3CNcTrAjoRz2XOi64FECeAK2McFy0CErCGhiJRBKQFkqC1aBEg/UCdF/jv4wAyGEFkiaSlIFESQIF3AimIEqBEXPdqzFEA1UGMAOT+7vtFTt07gSq4SEGMAKS+VahreimySZO7gggB0Ouc117T5ok4DKEpQyRlC9gJQPEjWOwczfZ6n7WlsVoECyecYCcANf5gqSzn9/VADXYNLhFjTzUBOMXcCQZN6bgpW4yx3KVyFgKU2Ie5NCUFyP0tGQwi5uBUB+cEIJIbzw8Y/bmSgtcL37RZIvJJwJwcUaJTArCpybEbVjG9Sn3bFE7Ijw8wt2sXWXd/QNQGCfJ1vzZDjPEPLVpoKAkNEk3ZIjOeHzzRokfBTHGT3n1aDR2h6oF5v1ZoAxxA7SFEaZUVC4WxOd3mFXAPd0k8CPZQC/oatVESarJWrog0SrISUE+rLAh7Nv3ldLbKumqWBnGYBx3oiW+W5myXx3ywCyAjMe3yjfjBBIgACbh0P5iIAus4AA9B8XK1XBFpXYkDBGX9qU46ODq2PhBrCZCu28cBDiZqMNQqjSVgDQ1Fi4AErKGhaG4CiOgPK6Ej+g5fAyMAAAAASUVORK5CYII=\n",
            "  mediatype: image/png\n",
            "name: infinispan\n",
            "schema: olm.package\n",
        ));
        assert_same(concat!(
            "image: quay.io/x/y@sha256:abc\n",
            "name: op.v1.0.0\n",
            "package: op\n",
            "properties:\n",
            "- type: olm.gvk\n",
            "  value:\n",
            "    group: example.com\n",
            "    kind: Thing\n",
            "    version: v1\n",
            "- type: olm.csv.metadata\n",
            "  value:\n",
            "    annotations:\n",
            "      alm-examples: |-\n",
            "        [\n",
            "          {\n",
            "            \"apiVersion\": \"x/v1\",\n",
            "            \"kind\": \"Thing\"\n",
            "          }\n",
            "        ]\n",
            "      capabilities: Basic Install\n",
            "      createdAt: \"2024-01-01T00:00:00Z\"\n",
            "      description: A long description that go-yaml folded over\n",
            "        several lines, as it does past eighty columns.\n",
            "    description: |\n",
            "      # Title\n",
            "\n",
            "      Text.\n",
            "    keywords:\n",
            "    - a\n",
            "    - b\n",
            "    links:\n",
            "    - name: Docs\n",
            "      url: https://example.com\n",
            "    maintainers:\n",
            "    - email: a@b.c\n",
            "      name: A\n",
            "    maturity: alpha\n",
            "    minKubeVersion: 1.21.0\n",
            "relatedImages:\n",
            "- image: quay.io/x/y@sha256:abc\n",
            "  name: \"\"\n",
            "schema: olm.bundle\n",
        ));
    }

    #[test]
    fn bails_outside_the_subset() {
        // Anchors, aliases, tags, merge keys.
        assert_bails("a: &x 1\nb: *x\n");
        assert_bails("a: !!str 1\n");
        assert_bails("a: !foo x\n");
        assert_bails("<<: {a: 1}\n");
        assert_bails("b:\n  <<: x\n");
        // Flow collections with content, complex keys, directives, markers.
        assert_bails("a: [1, 2]\n");
        assert_bails("a: {b: 1}\n");
        assert_bails("[a]\n");
        assert_bails("? a\n: b\n");
        assert_bails("%YAML 1.1\n---\na: 1\n");
        assert_bails("a: 1\n...\n");
        assert_bails("a: 1\n--- \nb: 2\n");
        // Tabs, CR, BOM, NEL, line separators, control characters.
        assert_bails("a:\t1\n");
        assert_bails("a:\n\tb: 1\n");
        assert_bails("a: x\t\n");
        assert_bails("a: 1\r\n");
        assert_bails("\u{feff}a: 1\n");
        assert_bails("a: x\u{85}y\n");
        assert_bails("a: x\u{2028}y\n");
        assert_bails("a: 'x\u{2029}y'\n");
        assert_bails("a: |\n  x\u{1}y\n");
        assert_bails("a: x\0y\n");
        assert_bails("# c\u{2028}a: 1\n");
        // Keys sigs.k8s.io/yaml rejects, or that are not keys.
        assert_bails("~: x\n");
        assert_bails("null: x\n");
        assert_bails("18446744073709551615: x\n");
        assert_bails("a: b: c\n");
        assert_bails("a: 1\nb\n");
        assert_bails("'a\n  b': 1\n");
        // Irregular indentation and errors.
        assert_bails("a: 1\n  b: 2\n");
        assert_bails("a:\n  b: 1\n c: 2\n");
        assert_bails("a:\n  - x\n  b: 1\n");
        assert_bails("a: x # c\n  y\n");
        assert_bails("a: 'x\ny'\n");
        assert_bails("a: 'unterminated\n");
        assert_bails("a: \"\\q\"\n");
        assert_bails("a: \"\\uD800\"\n");
        assert_bails("a: 'x' y\n");
        assert_bails("a: 'x'# c\n");
        assert_bails("a: x\n  # c\n  y\n");
        assert_bails("a: x\n  y: z\n");
        // Empty entries and block scalars, header variants.
        assert_bails("-\n- x\n");
        assert_bails("- # c\n  x\n");
        assert_bails("a:\n-\n");
        assert_bails("a: |\nb: 1\n");
        assert_bails("a: |\n\n");
        assert_bails("a: |0\n  x\n");
        assert_bails("a: |x\n  x\n");
        assert_bails("a: |# c\n  x\n");
        assert_bails("a: |\n    \n  x\n");
        assert_bails("a: |2\n x\n");
        // Root scalars, no final line break.
        assert_bails("just text\n");
        assert_bails("'quoted'\n");
        assert_bails("a: 1");
        // Over-long keys.
        assert_bails(&format!("{}: x\n", "k".repeat(MAX_KEY_BYTES + 1)));
    }

    #[test]
    fn deep_nesting_bails_without_overflow() {
        let mut src = String::new();
        for i in 0..(MAX_FAST_DEPTH + 20) {
            src.push_str(&" ".repeat(i));
            src.push_str("a:\n");
        }
        assert_bails(&src);
        let src = format!("{}x\n", "- ".repeat(MAX_FAST_DEPTH + 20));
        assert_bails(&src);
        // Shallower nesting is fine.
        let src = format!("{}x\n", "- ".repeat(50));
        assert_same(&src);
    }

    /// A small deterministic generator (xorshift).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            let mut x = self.0;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.0 = x;
            x
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn pick<'b>(&mut self, xs: &[&'b str]) -> &'b str {
            xs[self.below(xs.len())]
        }
    }

    const WORDS: &[&str] = &[
        "a",
        "b",
        "name",
        "x y",
        "yes",
        "no",
        "~",
        "null",
        "1",
        "-2",
        "0x1F",
        "1.5",
        "1e3",
        ".inf",
        "é",
        "ü x",
        "a:b",
        "a#b",
        "-x",
        "2001-12-14",
        "<<",
        "'",
        "\"",
        "#",
        "|",
        ">",
        "-",
        "[]",
        "{}",
        "[",
        "}",
        "&a",
        "*a",
        "!t",
        "%",
        "@",
        "`",
        "?",
        ":",
        "x ",
        " x",
        "",
        "a'b",
        "a\"b",
        "\\",
        "\\n",
        "\\x41",
        "\\u00e9",
        "\\",
        "''",
        "\t",
    ];

    fn gen_scalar(r: &mut Rng, ind: usize) -> String {
        let pad = " ".repeat(ind + 1 + r.below(3));
        match r.below(10) {
            0..=2 => (0..1 + r.below(3)).map(|_| r.pick(WORDS)).collect::<Vec<_>>().join(" "),
            3 => {
                let mut s = r.pick(WORDS).to_string();
                for _ in 0..1 + r.below(3) {
                    s.push('\n');
                    for _ in 0..r.below(2) {
                        s.push_str(&" ".repeat(r.below(ind + 3)));
                        s.push('\n');
                    }
                    s.push_str(&pad);
                    s.push_str(r.pick(WORDS));
                }
                s
            }
            4 | 5 => {
                let q = if r.below(2) == 0 { '\'' } else { '"' };
                let mut s = String::new();
                s.push(q);
                for _ in 0..1 + r.below(4) {
                    match r.below(6) {
                        0 => {
                            s.push_str(&" ".repeat(r.below(3)));
                            s.push('\n');
                            if r.below(3) == 0 {
                                s.push_str(&" ".repeat(r.below(4)));
                                s.push('\n');
                            }
                            s.push_str(&pad);
                        }
                        1 if q == '"' => s.push_str(r.pick(&["\\\n", "\\t", "\\\"", "\\\\", "\\u0041", "\\ ", "\\N"])),
                        1 => s.push_str("''"),
                        _ => s.push_str(r.pick(WORDS)),
                    }
                }
                s.push(q);
                s
            }
            6 | 7 => {
                let mut s = r.pick(&["|", ">", "|-", ">-", "|+", ">+", "|2", ">1-", "|-1"]).to_string();
                if r.below(4) == 0 {
                    s.push_str(" # c");
                }
                for _ in 0..1 + r.below(4) {
                    s.push('\n');
                    match r.below(5) {
                        0 => s.push_str(&" ".repeat(r.below(ind + 6))),
                        1 => {
                            s.push_str(&pad);
                            s.push_str("  ");
                            s.push_str(r.pick(WORDS));
                        }
                        _ => {
                            s.push_str(&pad);
                            s.push_str(r.pick(WORDS));
                        }
                    }
                }
                s
            }
            8 => r.pick(&["[]", "{}", "[ ]", "''", "\"\""]).to_string(),
            _ => String::new(),
        }
    }

    fn gen_node(r: &mut Rng, ind: usize, depth: usize, out: &mut String) {
        let pad = " ".repeat(ind);
        let entries = 1 + r.below(3);
        if depth > 3 || r.below(3) == 0 {
            // sequence
            for _ in 0..entries {
                out.push_str(&pad);
                out.push_str("- ");
                if r.below(3) == 0 && depth < 4 {
                    let mut inner = String::new();
                    gen_node(r, ind + 2, depth + 1, &mut inner);
                    out.push_str(inner.trim_start_matches(' '));
                } else {
                    out.push_str(&gen_scalar(r, ind));
                    out.push('\n');
                }
                if r.below(8) == 0 {
                    out.push_str(&" ".repeat(r.below(6)));
                    out.push_str(r.pick(&["# c\n", "\n"]));
                }
            }
        } else {
            for _ in 0..entries {
                out.push_str(&pad);
                let key = r.pick(&["a", "b", "key", "'q'", "\"d\"", "1", "yes", "é", "k k"]);
                out.push_str(key);
                out.push(':');
                match r.below(5) {
                    0 if depth < 4 => {
                        out.push('\n');
                        let child = if r.below(3) == 0 { ind } else { ind + 1 + r.below(3) };
                        gen_node(r, child, depth + 1, out);
                    }
                    1 => out.push_str(r.pick(&["\n", " # c\n"])),
                    _ => {
                        out.push(' ');
                        out.push_str(&gen_scalar(r, ind));
                        out.push('\n');
                    }
                }
            }
        }
    }

    const MUTATIONS: &[&str] = &[
        " ", "  ", "\n", ":", "- ", "-", "#", "'", "\"", "|", ">", "a", "\t", "[", "]", "{", "}", "\\", "&", "*", "!",
        "?", "é", ",", "\n  ", ": ",
    ];

    /// The tests that read whole catalogs or time things run one at a time.
    static HEAVY: std::sync::Mutex<()> = std::sync::Mutex::new(());

    fn heavy() -> std::sync::MutexGuard<'static, ()> {
        HEAVY.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Apply a few random edits at character boundaries: insert a token, delete a character,
    /// re-indent a line, or duplicate a line.
    fn mutate(r: &mut Rng, src: &mut String) {
        for _ in 0..1 + r.below(3) {
            let bounds: Vec<usize> = (0..=src.len()).filter(|&i| src.is_char_boundary(i)).collect();
            let at = bounds[r.below(bounds.len())];
            match r.below(6) {
                0 => {
                    let end = bounds.iter().copied().find(|&b| b > at).unwrap_or(at);
                    src.replace_range(at..end, "");
                }
                1 => {
                    // Re-indent the line holding `at`.
                    let ls = src[..at].rfind('\n').map_or(0, |i| i + 1);
                    if r.below(2) == 0 {
                        src.insert_str(ls, &" ".repeat(1 + r.below(2)));
                    } else if src[ls..].starts_with(' ') {
                        src.remove(ls);
                    }
                }
                2 => {
                    let ls = src[..at].rfind('\n').map_or(0, |i| i + 1);
                    let le = src[at..].find('\n').map_or(src.len(), |i| at + i + 1);
                    let line = src[ls..le].to_string();
                    src.insert_str(le, &line);
                }
                _ => src.insert_str(at, r.pick(MUTATIONS)),
            }
        }
        if !src.ends_with('\n') {
            src.push('\n');
        }
    }

    #[test]
    fn random_documents_agree_or_bail() {
        let _g = heavy();
        let mut r = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut fast, mut total) = (0, 0);
        for round in 0..30_000 {
            let mut src = String::new();
            gen_node(&mut r, 0, 0, &mut src);
            if round % 2 == 1 {
                mutate(&mut r, &mut src);
            }
            total += 1;
            if assert_consistent(&src) {
                fast += 1;
            }
        }
        println!("random documents: {fast} of {total} on the fast path");
        assert!(fast * 5 > total, "the generator should mostly stay in the subset ({fast} of {total})");
    }

    const LINES: &[&str] = &[
        "a: 1",
        "b: two words",
        "key:",
        "k2: |",
        "k3: >-",
        "k4: |+",
        "k5: |2",
        "- x",
        "- a: 1",
        "- - y",
        "-",
        "- |",
        "text",
        "more text",
        "# comment",
        "",
        "   ",
        "'single",
        "quoted'",
        "\"double \\",
        "end\"",
        "k6: 'multi",
        "line'",
        "k7: \"open",
        "k8: []",
        "- {}",
        "x: y: z",
        "k9: a # c",
        "k10: 'q' # c",
        "\"qk\": v",
        "'sk': v",
        "é: ü",
        "k11: yes",
        "k12: ~",
        "k13: -1",
        "  deeper: 1",
        "k14: \"a\\\"\"",
        "k15: ''''",
        "...x",
        "k16: ':'",
        "- 'a': b",
        "- \"b\"",
        "k17:   ",
        "  - z",
        "    w",
        "k18: >",
        "k19: |-",
        "- >+",
    ];

    #[test]
    fn random_line_soup_agrees_or_bails() {
        let _g = heavy();
        let mut r = Rng(0x2545_f491_4f6c_dd1d);
        let (mut fast, mut total) = (0, 0);
        for round in 0..60_000 {
            let mut src = String::new();
            let mut ind = 0usize;
            for _ in 0..1 + r.below(8) {
                match r.below(6) {
                    0 => ind += 2,
                    1 => ind = ind.saturating_sub(2),
                    2 => ind = r.below(5),
                    _ => {}
                }
                src.push_str(&" ".repeat(ind));
                src.push_str(r.pick(LINES));
                src.push('\n');
            }
            if round % 3 == 2 {
                mutate(&mut r, &mut src);
            }
            total += 1;
            if assert_consistent(&src) {
                fast += 1;
            }
        }
        println!("line soup: {fast} of {total} on the fast path");
        assert!(fast * 20 > total, "the generator should reach the fast path ({fast} of {total})");
    }

    #[test]
    fn mutated_catalog_documents_agree_or_bail() {
        let _g = heavy();
        let dir = catalog_root().join("fbc/community-v4.20");
        assert!(dir.is_dir(), "missing {}", dir.display());
        let mut files = Vec::new();
        files_under(&dir, &mut files);
        let mut samples: Vec<String> = Vec::new();
        for f in files.iter().take(12) {
            let text = std::fs::read_to_string(f).expect("utf-8 catalog");
            for doc in split_documents(&text, 1).expect("documents").iter().take(6) {
                // Keep the samples small so that every edit matters.
                let cut = doc.text.char_indices().map(|(i, _)| i).find(|&i| i >= 3000).unwrap_or(doc.text.len());
                let head = &doc.text[..cut];
                let head = &head[..head.rfind('\n').map_or(0, |i| i + 1)];
                samples.push(head.to_string());
            }
        }
        let mut r = Rng(0xdead_beef_cafe_f00d);
        let (mut fast, mut total) = (0, 0);
        for round in 0..20_000 {
            let mut src = samples[round % samples.len()].clone();
            mutate(&mut r, &mut src);
            total += 1;
            if assert_consistent(&src) {
                fast += 1;
            }
        }
        println!("mutated catalog documents: {fast} of {total} on the fast path");
        assert!(fast * 4 > total, "most edits should stay in the subset ({fast} of {total})");
    }

    #[test]
    fn arbitrary_text_agrees_or_bails() {
        const CHARS: &[char] = &[
            ' ', ' ', ' ', '\n', '\n', 'a', 'b', '1', ':', '-', '#', '\'', '"', '\\', '|', '>', '[', ']', '{', '}',
            ',', '?', '&', '*', '!', '%', '@', '`', '.', '~', '\t', '\r', '\0', '\u{1}', '\u{7f}', '\u{85}', '\u{a0}',
            'é', '\u{2028}', '\u{feff}', '\u{ffff}', '😀', '+', '<', 'x', 'n', 'u', 'U',
        ];
        let mut r = Rng(0x0123_4567_89ab_cdef);
        for _ in 0..20_000 {
            let len = r.below(60);
            let mut src: String = (0..len).map(|_| CHARS[r.below(CHARS.len())]).collect();
            if r.below(4) != 0 {
                src.push('\n');
            }
            assert_consistent(&src);
        }
    }

    fn catalog_root() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs")
    }

    fn files_under(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                files_under(&p, out);
            } else {
                out.push(p);
            }
        }
    }

    /// (document bytes, bytes on the fast path) for every file under `dir`, checking that
    /// every fast answer is the slow one.
    fn differential(dir: &std::path::Path) -> (usize, usize) {
        assert!(dir.is_dir(), "missing catalog directory {}", dir.display());
        let mut files = Vec::new();
        files_under(dir, &mut files);
        assert!(!files.is_empty(), "no files under {}", dir.display());
        let (mut total, mut fast) = (0usize, 0usize);
        for f in files {
            let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("cannot read {}: {e}", f.display()));
            let text = String::from_utf8_lossy(&bytes);
            let docs = match split_documents(&text, 1) {
                Ok(docs) => docs,
                Err(e) => {
                    // The loader reports these before any document is parsed.
                    println!("{}: not split into documents: {}", f.display(), e.message);
                    continue;
                }
            };
            for doc in &docs {
                total += doc.text.len();
                if let Some(got) = parse_fast(doc) {
                    let want = parse_document(doc);
                    assert!(same(&got, &want), "{} line {}: fast path differs", f.display(), doc.first_line);
                    fast += doc.text.len();
                }
            }
        }
        (total, fast)
    }

    #[test]
    fn real_catalogs_agree_and_mostly_take_the_fast_path() {
        let _g = heavy();
        let root = catalog_root();
        let fbc = root.join("fbc");
        assert!(fbc.is_dir(), "missing catalog directory {}", fbc.display());
        // Every catalog under fbc, and the templates; the two community catalogs must be there.
        let mut dirs: Vec<String> = std::fs::read_dir(&fbc)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", fbc.display()))
            .map(|e| format!("fbc/{}", e.expect("directory entry").file_name().to_string_lossy()))
            .collect();
        dirs.sort();
        dirs.push("templates".to_string());
        for must in ["fbc/community-v4.20", "fbc/community-v4.16"] {
            assert!(dirs.iter().any(|d| d == must), "missing {must}");
        }
        for sub in &dirs {
            let (total, fast) = differential(&root.join(sub));
            let share = if total == 0 { 1.0 } else { fast as f64 / total as f64 };
            println!("{sub}: {fast} of {total} document bytes on the fast path ({:.2}%)", share * 100.0);
            if sub.starts_with("fbc/community-") {
                assert!(share >= 0.95, "{sub}: only {:.2}% on the fast path", share * 100.0);
            }
        }
    }

    #[test]
    fn timing_community_v4_20() {
        let _g = heavy();
        let dir = catalog_root().join("fbc/community-v4.20");
        assert!(dir.is_dir(), "missing {}", dir.display());
        let mut files = Vec::new();
        files_under(&dir, &mut files);
        let texts: Vec<String> = files.iter().map(|f| std::fs::read_to_string(f).expect("utf-8 catalog")).collect();
        let docs: Vec<Document<'_>> = texts.iter().flat_map(|t| split_documents(t, 1).expect("documents")).collect();
        let bytes: usize = docs.iter().map(|d| d.text.len()).sum();
        let mb = bytes as f64 / 1e6;
        let time = |f: &dyn Fn(&Document<'_>) -> usize| {
            let mut best = f64::MAX;
            for _ in 0..5 {
                let t = std::time::Instant::now();
                let n: usize = docs.iter().map(f).sum();
                std::hint::black_box(n);
                best = best.min(t.elapsed().as_secs_f64());
            }
            best
        };
        let fast = time(&|d| match parse_fast(d) {
            Some(Ok(Some(_))) => 1,
            _ => 0,
        });
        let slow = time(&|d| usize::from(parse_document(d).is_ok()));
        let combined = time(&|d| usize::from(parse_fast(d).unwrap_or_else(|| parse_document(d)).is_ok()));
        println!(
            "community-v4.20, {mb:.1} MB: parse_fast {:.0} MB/s ({:.1} ms), parse_document {:.0} MB/s ({:.1} ms), fast with fallback {:.0} MB/s ({:.1} ms)",
            mb / fast,
            fast * 1e3,
            mb / slow,
            slow * 1e3,
            mb / combined,
            combined * 1e3
        );
    }
}
