//! The part of go-yaml v2's emitter state that shapes block output (`yaml_emitter_t`: column,
//! indentation stack, the `whitespace` and `indention` flags) and its primitive writes
//! (`put`, `write`, `put_break`, `write_break`, `write_indent`, `write_indicator`,
//! `increase_indent`). The layout ([`yaml`](super::yaml)) and the scalar writers
//! ([`yaml_scalar`](super::yaml_scalar)) both drive it.

/// go-yaml's `best_indent`.
pub(super) const INDENT: isize = 2;
/// go-yaml's `best_width`.
pub(super) const WIDTH: usize = 80;

/// Where a node is emitted (go-yaml's `mapping_context` and `simple_key_context`).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Context {
    /// The node is a mapping key or value.
    pub(super) mapping: bool,
    /// The node is a simple (implicit) mapping key.
    pub(super) simple_key: bool,
}

/// The part of go-yaml's emitter state that shapes block output.
pub(super) struct Emitter<'a> {
    pub(super) out: &'a mut String,
    /// Characters on the current line.
    pub(super) column: usize,
    /// The current indentation (-1 before the root node).
    pub(super) indent: isize,
    indents: Vec<isize>,
    /// The last thing written was whitespace (or nothing).
    pub(super) whitespace: bool,
    /// Only indentation has been written on this line so far.
    pub(super) indention: bool,
}

impl<'a> Emitter<'a> {
    pub(super) fn new(out: &'a mut String) -> Emitter<'a> {
        Emitter { out, column: 0, indent: -1, indents: Vec::new(), whitespace: true, indention: true }
    }

    /// `put`: one ASCII character.
    pub(super) fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    /// `write`: one character of a scalar (any width counts as one column).
    pub(super) fn write(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    /// `put_break`.
    pub(super) fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    /// `write_break`: a line break of the scalar itself.
    pub(super) fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.write(c);
            self.column = 0;
        }
    }

    /// `yaml_emitter_write_indent`.
    pub(super) fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    /// `yaml_emitter_write_indicator`.
    pub(super) fn write_indicator(
        &mut self,
        indicator: &str,
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        for c in indicator.chars() {
            self.write(c);
        }
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    /// `yaml_emitter_increase_indent`.
    pub(super) fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { INDENT } else { 0 };
        } else if !indentless {
            self.indent += INDENT;
        }
    }

    pub(super) fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }
}
