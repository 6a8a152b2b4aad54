//! The fast path's single- and double-quoted scalars: escapes (exactly saphyr's), doubled
//! quotes, and line folding over several lines.

use std::borrow::Cow;

use super::lines::{DQ, SQ};
use super::{Bail, Fast, R};

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

impl<'a> Fast<'a> {
    /// After a line break inside a quoted scalar: pass the next lines' leading spaces and
    /// blank lines. Returns how many blank lines there were and where the text goes on. As in
    /// go-yaml v2, the text may go on at any column (the slow path reads it so too, see
    /// `olm_yaml_events::Relaxed`), but not after a document marker at column 0, which is an
    /// error there.
    fn quoted_fold(&mut self) -> R<(usize, usize)> {
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
                    let line = &self.b[self.ls..];
                    let marker = line.starts_with(b"...") || line.starts_with(b"---");
                    if marker && matches!(self.at(self.ls + 3), b' ' | b'\t' | b'\n' | b'\r' | 0) {
                        return Err(Bail);
                    }
                    return Ok((breaks, k));
                }
            }
        }
    }

    /// A single- or double-quoted scalar whose opening quote is at `j`; `multiline`: whether it
    /// may go on over several lines (a key may not). Returns the text and the offset after the
    /// closing quote.
    #[inline(never)]
    pub(super) fn quoted(&mut self, j: usize, multiline: bool) -> R<(Cow<'a, str>, usize)> {
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
                    if e == b'\n' && k + 1 < self.b.len() && multiline {
                        // An escaped line break: the lines join without a space.
                        self.newline(k + 1);
                        let (breaks, at) = self.quoted_fold()?;
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
                b'\n' if multiline => {
                    let o = out.get_or_insert_with(String::new);
                    let mut e = k;
                    while e > seg && matches!(self.b[e - 1], b' ' | b'\t') {
                        e -= 1;
                    }
                    o.push_str(self.text(seg, e)?);
                    self.newline(k);
                    let (breaks, at) = self.quoted_fold()?;
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
}
