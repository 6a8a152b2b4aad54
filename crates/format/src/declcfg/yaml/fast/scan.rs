//! The fast path's syntax read without building a tree, checking on the way that the value
//! decodes into a Go type ([`go_type`](crate::declcfg::go_type)), as `go_type::check` of its tree
//! would find: for the `olm.csv.metadata` values that are most of a catalog's bytes, which
//! validation only needs checked.
//!
//! The scan reads exactly what [`Fast`]'s tree reader reads, with the same functions for
//! scalars, keys and lines, and gives up (`Bail`) wherever that reader would, and wherever it is
//! not sure that the value decodes (a type mismatch, two keys that may fold to one field): the
//! caller then reads the value's tree as before, and `go_type` words the error.

use super::lines::LINE;
use super::{key_string, plain_start, Bail, Ctx, Fast, Key, Stop, ValueAt, MAX_FAST_DEPTH, MAX_KEY_BYTES, R};
use crate::declcfg::go_type::{items_of, scalar_fits, GoType, ObjectScan, ScalarKind};
use crate::declcfg::value::Value;
use std::borrow::Cow;
use std::ops::Range;

/// What a scalar's value is, for the type check.
fn kind_of(value: &Value) -> ScalarKind {
    match value {
        Value::Null => ScalarKind::Null,
        Value::Bool(_) => ScalarKind::Bool,
        Value::Number(n) => ScalarKind::Number { whole: n.fract() == 0.0 },
        Value::String(_) => ScalarKind::String,
        Value::Array(_) => ScalarKind::EmptyArray,
        Value::Object(_) => ScalarKind::EmptyObject,
    }
}

/// Go on only when a scalar of `kind` decodes into `ty`.
fn fits(kind: ScalarKind, ty: &'static GoType) -> R<()> {
    if scalar_fits(kind, ty) {
        Ok(())
    } else {
        Err(Bail)
    }
}

impl<'a> Fast<'a> {
    /// [`Fast::value_after_colon`]'s reading, checked against `ty` instead of built.
    pub(super) fn scan_value_after_colon(
        &mut self,
        colon: usize,
        c: usize,
        depth: usize,
        ty: &'static GoType,
    ) -> R<()> {
        match self.value_start(colon, c)? {
            ValueAt::Node(j, ctx) => self.scan_node(j, c as isize, ctx, depth + 1, ty),
            ValueAt::IndentlessSequence => self.scan_sequence(c, true, depth + 1, ty),
            // An empty value is null, which every type takes.
            ValueAt::Empty(_) => Ok(()),
        }
    }

    /// [`Fast::node`]'s reading, checked against `ty`.
    fn scan_node(&mut self, j: usize, n: isize, ctx: Ctx, depth: usize, ty: &'static GoType) -> R<()> {
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
                self.scan_sequence(j - self.ls, false, depth, ty)
            }
            b'[' | b'{' => fits(kind_of(&self.flow_empty(j)?.value), ty),
            b'|' | b'>' => match ctx {
                Ctx::Item | Ctx::SameLine => {
                    fits(ScalarKind::String, ty)?;
                    self.scan_block_scalar(j, n)
                }
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
                        return self.scan_mapping(j - self.ls, key, depth, ty);
                    }
                }
                if ctx == Ctx::Root {
                    return Err(Bail);
                }
                self.finish_line(after)?;
                fits(ScalarKind::String, ty)
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
                        self.scan_mapping(j - self.ls, key, depth, ty)
                    }
                    _ if ctx == Ctx::Root => Err(Bail),
                    // Most values: one line of plain text that is a string.
                    Stop::Newline(nl)
                        if super::scalar::plain_is_string(self.text(j, end)?) && self.plain_ends(nl, n) =>
                    {
                        self.newline(nl);
                        fits(ScalarKind::String, ty)
                    }
                    _ => {
                        let node = self.plain_scalar(j, end, stop, n)?;
                        fits(kind_of(&node.value), ty)
                    }
                }
            }
        }
    }

    /// The value of the key whose `:` is at `colon` (in a mapping at column `c`), when it is a
    /// mapping on the next lines of one key, a string field of the struct `ty`, whose value is a
    /// string on one plain line after it: where that string is. The cursor ends after the
    /// mapping.
    pub(super) fn one_string_field(&mut self, colon: usize, c: usize, ty: &'static GoType) -> R<Range<usize>> {
        let ValueAt::Node(j, Ctx::NextLine) = self.value_start(colon, c)? else { return Err(Bail) };
        let col = j - self.ls;
        let key = self.key_at(j)?;
        let field = ObjectScan::of(ty).ok_or(Bail)?.value_of(&key_string(&key)?).ok_or(Bail)?;
        // A field of the struct that holds a string (not a key Go passes over).
        if !matches!(field, GoType::Str | GoType::Bytes) {
            return Err(Bail);
        }
        let mut k = key.colon + 1;
        while self.at(k) == b' ' {
            k += 1;
        }
        if !plain_start(self.at(k), self.at(k + 1)) {
            return Err(Bail);
        }
        let (end, Stop::Newline(nl)) = self.plain_line(k)? else { return Err(Bail) };
        let text = self.text(k, end)?;
        let string = super::scalar::plain_is_string(text) || matches!(super::scalar(text, true)?, Value::String(_));
        if !string || !self.plain_ends(nl, col as isize) {
            return Err(Bail);
        }
        fits(ScalarKind::String, field)?;
        self.newline(nl);
        match self.next_key(col)? {
            None => Ok(k..end),
            Some(_) => Err(Bail),
        }
    }

    /// Whether a plain scalar's first line, ending at the line break `nl`, is all of it: the
    /// next line that is not blank is indented no more than `n` (or there is none). A blank line
    /// may be part of a scalar, so one before the next text leaves the answer to `plain_scalar`.
    fn plain_ends(&self, nl: usize, n: isize) -> bool {
        let k = nl + 1;
        let sp = self.spaces(k, usize::MAX);
        match self.b.get(k + sp) {
            None => true,
            // A tab there makes `plain_scalar` give up: let it.
            Some(b'\n' | b'\t') => false,
            Some(_) => (sp as isize) <= n,
        }
    }

    /// [`Fast::mapping`]'s reading, each member's value checked against the type the object
    /// `ty` gives it.
    fn scan_mapping(&mut self, col: usize, first: Key<'a>, depth: usize, ty: &'static GoType) -> R<()> {
        if depth > MAX_FAST_DEPTH {
            return Err(Bail);
        }
        let mut object = ObjectScan::of(ty).ok_or(Bail)?;
        let mut key = first;
        loop {
            let name = key_string(&key)?;
            let value_ty = object.value_of(&name).ok_or(Bail)?;
            self.scan_value_after_colon(key.colon, col, depth, value_ty)?;
            match self.next_key(col)? {
                Some(next) => key = next,
                None => break,
            }
        }
        Ok(())
    }

    /// [`Fast::sequence`]'s reading, each entry checked against the type of the slice `ty`'s
    /// items.
    fn scan_sequence(&mut self, c: usize, indentless: bool, depth: usize, ty: &'static GoType) -> R<()> {
        if depth > MAX_FAST_DEPTH {
            return Err(Bail);
        }
        let item = items_of(ty).ok_or(Bail)?;
        loop {
            let j = self.entry_start(c)?;
            self.scan_node(j, c as isize, Ctx::Item, depth + 1, item)?;
            if !self.next_entry(c, indentless)? {
                return Ok(());
            }
        }
    }

    /// [`Fast::block_scalar`]'s reading of the lines, without gathering the text (a block scalar
    /// is a string whatever its text).
    fn scan_block_scalar(&mut self, j: usize, n: isize) -> R<()> {
        if n < 0 {
            return Err(Bail);
        }
        let n = n as usize;
        let (_, increment) = self.block_header(j + 1)?;
        let indent = if increment > 0 { n + increment } else { self.block_auto_indent(n)? };
        let b = self.b;
        let mut breaks = 0;
        let mut k = self.block_indent(indent, &mut breaks)?;
        if k >= b.len() || k - self.ls != indent {
            return Err(Bail);
        }
        loop {
            let nl = self.scan::<LINE>(k)?;
            if nl >= b.len() || b[nl] != b'\n' {
                return Err(Bail);
            }
            self.newline(nl);
            k = self.block_indent(indent, &mut breaks)?;
            if k >= b.len() || k - self.ls != indent {
                break;
            }
        }
        self.i = if k >= b.len() { b.len() } else { self.ls };
        Ok(())
    }
}
