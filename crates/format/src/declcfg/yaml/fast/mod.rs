//! A fast path for the block YAML that catalogs are made of.
//!
//! [`parse_fast`] reads the subset of YAML that go-yaml v2, yq and opm emit — block mappings
//! and sequences (also sequences at their key's indentation), comments, plain scalars (also over
//! several lines), single- and double-quoted scalars (also over several lines), literal and
//! folded block scalars, empty values and the empty flow collections `[]` and `{}` — straight
//! from the bytes, line by line, without an event stream.
//!
//! It gives up (`None`) on anything else and on anything it is not sure about, and the caller
//! then runs [`parse_document`](super::events::parse_document) instead: anchors, aliases, tags,
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
//!
//! This file holds the entry point and the tree: the document, mappings, sequences and empty
//! flow collections. The rest is beside it: [`lines`] (finding the bytes that matter, comments
//! and blank lines), [`plain`] (plain scalars), [`quoted`] (single- and double-quoted scalars),
//! [`block_scalar`] (literal and folded scalars), [`scan`] (the same syntax read without a tree,
//! checked against a Go type: `olm.csv.metadata` values, see [`parse_fast_checking`]). Its tests
//! compare every answer with the event path's; the randomized and real-catalog comparisons are
//! in `yaml/differential.rs`.

mod block_scalar;
mod lines;
mod plain;
mod quoted;
mod scan;
#[cfg(test)]
pub(super) mod tests;

pub(crate) use lines::json_string_stop;

use std::borrow::Cow;

use super::super::go_type::{BUNDLE_OBJECT, CSV_METADATA};
use super::super::json::{collect_members, tail};
use super::super::property_types::{TYPE_BUNDLE_OBJECT, TYPE_CSV_METADATA};
use super::super::value::{Member, Node, Pos, Str, Value};
use super::scalar::{self, Scalar};
use super::{CheckedValue, Document, YamlError};

/// Deepest nesting of collections the fast path reads before giving up.
const MAX_FAST_DEPTH: usize = 200;

/// Longest simple key (bytes from the key's start to its `:`); YAML limits them to 1024
/// characters, and saphyr enforces that, so longer ones go to the slow path.
const MAX_KEY_BYTES: usize = 1000;

/// Parse one document like [`super::events::parse_document`], faster, when it is in the subset
/// this reader knows. `None` means "not sure": call `parse_document`. Never returns an error
/// itself (documents with errors always get `None`), but keeps the slow path's result type so
/// the caller can write `parse_fast(doc).unwrap_or_else(|| parse_document(doc))`.
pub(super) fn parse_fast(doc: &Document<'_>) -> Option<Result<Option<Node>, YamlError>> {
    fast(doc, None).map(|(node, _)| Ok(node))
}

/// [`parse_fast`], with the `olm.csv.metadata` values of properties checked against their Go
/// struct without their trees ([`scan`]): each one leaves a null at its `value` key's `:` in the
/// tree, and comes back as a [`CheckedValue`].
pub(super) fn parse_fast_checking(doc: &Document<'_>) -> Option<(Option<Node>, Vec<CheckedValue>)> {
    fast(doc, Some(Vec::new())).map(|(node, checked)| (node, checked.unwrap_or_default()))
}

type Checked = Option<Vec<CheckedValue>>;

fn fast(doc: &Document<'_>, checked: Checked) -> Option<(Option<Node>, Checked)> {
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
        checked,
    };
    let node = p.document().ok()?;
    Some((node, p.checked))
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

/// Where a mapping value starts ([`Fast::value_start`]).
enum ValueAt {
    /// A node at this offset, in this context.
    Node(usize, Ctx),
    /// A sequence written at its key's indentation, on the next line.
    IndentlessSequence,
    /// Nothing: the value is null, placed at the key's `:` (this position).
    Empty(Pos),
}

/// A mapping key, read up to its `:`.
struct Key<'a> {
    text: Cow<'a, str>,
    plain: bool,
    at: At,
    colon: usize,
}

/// Where a key starts: its byte, the first byte of its line and the line (of the document). Its
/// position is worked out only when the tree is built ([`Fast::pos_of`]): a checked value's keys
/// need none.
#[derive(Clone, Copy)]
struct At {
    k: usize,
    ls: usize,
    line: u32,
}

/// Resolve an untagged scalar as the slow path does.
fn scalar(text: &str, plain: bool) -> R<Value> {
    // Quoted scalars and most plain ones are strings; only the rest need the resolution.
    if !plain || scalar::plain_is_string(text) {
        return Ok(Value::String(Str::from(text)));
    }
    scalar::resolve(text, plain, None).map(Scalar::into_value).map_err(|_| Bail)
}

/// The JSON key for a mapping key, as the slow path names it; merge keys and keys
/// sigs.k8s.io/yaml rejects go to the slow path.
fn key_string(key: &Key<'_>) -> R<Str> {
    // Quoted keys and most plain ones are strings (a merge key `<<` is not one of them).
    if !key.plain || (scalar::plain_is_string(&key.text) && key.text != "<<") {
        return Ok(Str::from(key.text.as_ref()));
    }
    if key.plain && scalar::is_merge_key(&key.text, true, None) {
        return Err(Bail);
    }
    let s = scalar::resolve(&key.text, key.plain, None).map_err(|_| Bail)?;
    if scalar::key_error(&s).is_some() {
        return Err(Bail);
    }
    Ok(match s {
        Scalar::Str(t) => t,
        other => scalar::key_text(&other).into(),
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

/// The reader's state: the document's bytes and a cursor that moves line by line.
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
    /// Where `olm.csv.metadata` values are checked rather than built, the ones checked so far.
    checked: Checked,
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
        self.pos_of(self.here(k))
    }

    /// Byte `k` of the current line, for its position later.
    fn here(&self, k: usize) -> At {
        At { k, ls: self.ls, line: self.line }
    }

    /// The position of `at`.
    fn pos_of(&self, at: At) -> Pos {
        let prefix = self.b.get(at.ls..at.k).unwrap_or(&[]);
        let col = if prefix.is_ascii() { prefix.len() } else { prefix.iter().filter(|&&c| (c & 0xc0) != 0x80).count() };
        Pos::new(self.first_line + at.line, col as u32 + 1)
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
                let at = self.here(j);
                let line = self.line;
                let (text, after) = self.quoted(j, true)?;
                if self.line == line {
                    let mut k = after;
                    while self.at(k) == b' ' {
                        k += 1;
                    }
                    if self.at(k) == b':' && matches!(self.at(k + 1), b' ' | b'\n') {
                        if ctx == Ctx::SameLine || k - j > MAX_KEY_BYTES {
                            return Err(Bail);
                        }
                        let key = Key { text, plain: false, at, colon: k };
                        return self.mapping(j - self.ls, key, depth);
                    }
                }
                if ctx == Ctx::Root {
                    return Err(Bail);
                }
                self.finish_line(after)?;
                Ok(Node::new(self.pos_of(at), scalar(&text, false)?))
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
                        let key = Key { text: Cow::Borrowed(self.text(j, end)?), plain: true, at: self.here(j), colon };
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
            let at = self.here(j);
            let line = self.line;
            let (text, after) = self.quoted(j, false)?;
            if self.line != line {
                return Err(Bail);
            }
            let mut k = after;
            while self.at(k) == b' ' {
                k += 1;
            }
            if self.at(k) == b':' && matches!(self.at(k + 1), b' ' | b'\n') && k - j <= MAX_KEY_BYTES {
                return Ok(Key { text, plain: false, at, colon: k });
            }
            return Err(Bail);
        }
        if !plain_start(c, self.at(j + 1)) {
            return Err(Bail);
        }
        match self.plain_line(j)? {
            (end, Stop::Colon(colon)) if colon - j <= MAX_KEY_BYTES => {
                Ok(Key { text: Cow::Borrowed(self.text(j, end)?), plain: true, at: self.here(j), colon })
            }
            _ => Err(Bail),
        }
    }

    /// A block mapping at column `col` whose first key has been read.
    fn mapping(&mut self, col: usize, first: Key<'a>, depth: usize) -> R<Node> {
        if depth > MAX_FAST_DEPTH {
            return Err(Bail);
        }
        let pos = self.pos_of(first.at);
        let start = self.members.len();
        let mut key = first;
        loop {
            let name = key_string(&key)?;
            let key_pos = self.pos_of(key.at);
            // A property's `value` after its `type: olm.csv.metadata` or `olm.bundle.object`
            // (not in the browsers' modules, built for size: there the tree is read).
            let checks = crate::FAST_PATHS && self.checked.is_some() && name == "value" && self.members.len() > start;
            let property_type = match self.members.last() {
                Some(m) if checks && m.key == "type" => m.value.as_str(),
                _ => None,
            };
            let checked = match property_type {
                Some(TYPE_CSV_METADATA) => self.checked_csv_metadata(key.colon, col, depth),
                Some(TYPE_BUNDLE_OBJECT) => self.checked_bundle_object(key.colon, col),
                _ => None,
            };
            let value = match checked {
                Some(placeholder) => placeholder,
                None => self.value_after_colon(key.colon, col, depth)?,
            };
            self.members.push(Member { key: name, key_pos, value });
            match self.next_key(col)? {
                Some(next) => key = next,
                None => break,
            }
        }
        // Duplicate keys: the last wins, in the first one's place, as the slow path does.
        let members = collect_members(tail(&mut self.members, start));
        Ok(Node::new(pos, Value::Object(members)))
    }

    /// The `olm.csv.metadata` value of the key whose `:` is at `colon` (on the current line, in
    /// a mapping at column `col`), checked without its tree: kept in `checked` with its lines,
    /// a null in its place. `None`, with the cursor where it was, when the check is not sure:
    /// the tree is read.
    fn checked_csv_metadata(&mut self, colon: usize, col: usize, depth: usize) -> Option<Node> {
        let saved = (self.i, self.line, self.ls);
        let (start, first_line, pos) = (self.ls, self.first_line + self.line, self.pos_at(colon));
        if self.scan_value_after_colon(colon, col, depth, &CSV_METADATA).is_err() {
            (self.i, self.line, self.ls) = saved;
            return None;
        }
        self.keep_checked(saved, CheckedValue { pos, span: start..self.i, first_line, ty: &CSV_METADATA, string: None })
    }

    /// The `olm.bundle.object` value of the key whose `:` is at `colon` (in a mapping at column
    /// `col`), checked without its tree when it is written as most are: its one key, `data`, on
    /// the next line, and a base64 string on one plain line, which is all the value holds (kept
    /// in `checked` with where that string is). `None`, with the cursor where it was, otherwise.
    fn checked_bundle_object(&mut self, colon: usize, col: usize) -> Option<Node> {
        let saved = (self.i, self.line, self.ls);
        let (start, first_line, pos) = (self.ls, self.first_line + self.line, self.pos_at(colon));
        let Ok(string) = self.one_string_field(colon, col, &BUNDLE_OBJECT) else {
            (self.i, self.line, self.ls) = saved;
            return None;
        };
        let string = Some(string);
        self.keep_checked(saved, CheckedValue { pos, span: start..self.i, first_line, ty: &BUNDLE_OBJECT, string })
    }

    /// Keep `value`, read up to the cursor, in `checked`: a null in its place. `None`, with the
    /// cursor back at `saved`, when values are not being checked.
    fn keep_checked(&mut self, saved: (usize, u32, usize), value: CheckedValue) -> Option<Node> {
        let pos = value.pos;
        match (self.s.get(value.span.clone()), self.checked.as_mut()) {
            (Some(_), Some(checked)) => checked.push(value),
            _ => {
                (self.i, self.line, self.ls) = saved;
                return None;
            }
        }
        Some(Node::new(pos, Value::Null))
    }

    /// The value of a mapping at column `c` whose key's `:` is at `colon`.
    fn value_after_colon(&mut self, colon: usize, c: usize, depth: usize) -> R<Node> {
        match self.value_start(colon, c)? {
            ValueAt::Node(j, ctx) => self.node(j, c as isize, ctx, depth + 1),
            ValueAt::IndentlessSequence => self.sequence(c, true, depth + 1),
            ValueAt::Empty(null_pos) => Ok(Node::new(null_pos, scalar("", true)?)),
        }
    }

    /// Where the value of a mapping at column `c` whose key's `:` is at `colon` starts; the
    /// cursor is moved to its line when it is on the lines after the key.
    #[inline(always)]
    fn value_start(&mut self, colon: usize, c: usize) -> R<ValueAt> {
        let mut k = colon + 1;
        while self.at(k) == b' ' {
            k += 1;
        }
        if !matches!(self.at(k), b'\n' | b'#') {
            return Ok(ValueAt::Node(k, Ctx::SameLine));
        }
        let null_pos = self.pos_at(colon);
        self.finish_line(colon + 1)?;
        Ok(match self.skip_blank_lines()? {
            Some(ind) if ind > c => ValueAt::Node(self.ls + ind, Ctx::NextLine),
            Some(ind) if ind == c && self.at(self.ls + c) == b'-' => match self.at(self.ls + c + 1) {
                b' ' => ValueAt::IndentlessSequence,
                // `-` alone (an empty entry, or one on the next lines): not in the subset.
                b'\n' | b'\t' | b'\r' => return Err(Bail),
                // A key like `-x: 1`: the mapping goes on, this value is empty.
                _ => ValueAt::Empty(null_pos),
            },
            _ => ValueAt::Empty(null_pos),
        })
    }

    /// After a mapping member, from a line start: the mapping's next key (at column `col`), or
    /// `None` where the mapping ends.
    #[inline(always)]
    fn next_key(&mut self, col: usize) -> R<Option<Key<'a>>> {
        match self.skip_blank_lines()? {
            Some(ind) if ind == col => self.key_at(self.ls + ind).map(Some),
            Some(ind) if ind < col => Ok(None),
            None => Ok(None),
            Some(_) => Err(Bail),
        }
    }

    /// The content of a sequence entry whose `-` is at column `c` of the current line.
    #[inline(always)]
    fn entry_start(&self, c: usize) -> R<usize> {
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
        Ok(j)
    }

    /// After a sequence entry, from a line start: whether another entry (its `-` at column `c`)
    /// follows; `indentless`: the sequence is written at its key's indentation.
    #[inline(always)]
    fn next_entry(&mut self, c: usize, indentless: bool) -> R<bool> {
        match self.skip_blank_lines()? {
            Some(ind) if ind == c => {
                let d = self.ls + c;
                match (self.at(d), self.at(d + 1)) {
                    (b'-', b' ') => Ok(true),
                    (b'-', b'\n' | b'\t' | b'\r') => Err(Bail),
                    _ if indentless => Ok(false),
                    _ => Err(Bail),
                }
            }
            Some(ind) if ind < c => Ok(false),
            None => Ok(false),
            Some(_) => Err(Bail),
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
            let j = self.entry_start(c)?;
            if pos.is_none() {
                pos = Some(self.pos_at(if indentless { j } else { self.ls + c }));
            }
            let item = self.node(j, c as isize, Ctx::Item, depth + 1)?;
            self.items.push(item);
            if !self.next_entry(c, indentless)? {
                break;
            }
        }
        let pos = pos.ok_or(Bail)?;
        let items = tail(&mut self.items, start);
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
        let value = if close == b']' { Value::Array(Box::default()) } else { Value::Object(Box::default()) };
        Ok(Node::new(pos, value))
    }
}
