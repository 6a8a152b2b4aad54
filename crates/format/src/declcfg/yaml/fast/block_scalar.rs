//! The fast path's literal (`|`) and folded (`>`) block scalars: the header (chomping and
//! indentation indicators), the content indentation, and the lines, folded or kept.

use super::lines::LINE;
use super::{Bail, Fast, Node, Str, Value, R};

/// What a block scalar does with its final line breaks.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Chomp {
    /// Keep one (no indicator).
    Clip,
    /// Drop them all (`-`).
    Strip,
    /// Keep them all (`+`).
    Keep,
}

impl Fast<'_> {
    /// A literal (`|`) or folded (`>`) block scalar whose indicator is at `j`, in a collection
    /// at column `n`.
    #[inline(never)]
    pub(super) fn block_scalar(&mut self, j: usize, n: isize) -> R<Node> {
        if n < 0 {
            return Err(Bail);
        }
        let n = n as usize;
        let literal = self.at(j) == b'|';
        let (chomp, increment) = self.block_header(j + 1)?;
        let indent = if increment > 0 { n + increment } else { self.block_auto_indent(n)? };
        self.block_body(literal, chomp, indent)
    }

    /// The header after the indicator, from `k`: chomping and indentation indicators in either
    /// order, then only spaces and a comment. Moves to the next line; returns the chomping and
    /// the indentation increment (0 when not given).
    pub(super) fn block_header(&mut self, mut k: usize) -> R<(Chomp, usize)> {
        let mut chomp = Chomp::Clip;
        let mut increment = 0usize;
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
        Ok((chomp, increment))
    }

    /// The content indentation when the header gives none, for a scalar in a collection at
    /// column `n`, from the line after the header (the cursor does not move). The first
    /// non-blank line sets it; blank lines before it must not be indented more (saphyr's
    /// "wrongly indented line"), and it must be indented more than the collection (else the
    /// scalar is empty): both go to the slow path.
    pub(super) fn block_auto_indent(&self, n: usize) -> R<usize> {
        let b = self.b;
        let mut k = self.i;
        let mut max = 0;
        let first = loop {
            let sp = self.spaces(k, usize::MAX);
            k += sp;
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
        Ok(indent)
    }

    /// The content lines at `indent`, from the line after the header: folded (`>`) or kept
    /// (`|`), then chomped. Leaves the cursor at the line that ended the scalar.
    fn block_body(&mut self, literal: bool, chomp: Chomp, indent: usize) -> R<Node> {
        let b = self.b;
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
        // A block scalar is a string whatever its text (as `scalar::resolve` of any scalar that is
        // neither plain nor tagged): the buffer becomes the value, without a copy.
        out.shrink_to_fit();
        Ok(Node::new(pos, Value::String(Str::from(out))))
    }

    /// Inside a block scalar, from a line start: eat up to `indent` spaces on each line,
    /// counting the lines that end there. Returns where the current line's text starts (its
    /// column is `indent` for a content line, less when the scalar has ended).
    pub(super) fn block_indent(&mut self, indent: usize, breaks: &mut usize) -> R<usize> {
        loop {
            let k = self.ls + self.spaces(self.ls, indent);
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
