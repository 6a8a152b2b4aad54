//! The fast path's plain scalars: the first line (which also tells a key from a value), then
//! the lines that continue it, folded as YAML folds them.

use super::lines::PLAIN;
use super::{scalar, Bail, Fast, Node, Stop, R};

impl Fast<'_> {
    /// Read the first line of a plain scalar starting at `j`: returns the end of its text
    /// (trailing spaces excluded) and what stopped it. Spaces are passed over by the byte scan;
    /// only a `:`, a `#` and the line break are looked at.
    pub(super) fn plain_line(&self, j: usize) -> R<(usize, Stop)> {
        let b = self.b;
        // The text ends before the spaces that precede `k` (`j` is never a space).
        let end = |k: usize| {
            let mut e = k;
            while e > j && b[e - 1] == b' ' {
                e -= 1;
            }
            e
        };
        let mut k = j;
        loop {
            k = self.scan::<PLAIN>(k)?;
            let Some(&c) = b.get(k) else { return Err(Bail) };
            match c {
                b':' => match self.at(k + 1) {
                    b' ' | b'\n' => return Ok((end(k), Stop::Colon(k))),
                    b'\t' | b'\r' => return Err(Bail),
                    _ => k += 1,
                },
                // A comment starts at a `#` after a space; elsewhere `#` is text.
                b'#' if k > j && b[k - 1] == b' ' => return Ok((end(k), Stop::Comment(k))),
                b'#' => k += 1,
                b'\n' => return Ok((end(k), Stop::Newline(k))),
                _ => return Err(Bail),
            }
        }
    }

    /// A plain scalar starting at `j` whose first line ends at `end` (text) and `stop`; more
    /// lines follow while they are indented more than `n`.
    #[inline(never)]
    pub(super) fn plain_scalar(&mut self, j: usize, end: usize, stop: Stop, n: isize) -> R<Node> {
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
                        let k = self.i + self.spaces(self.i, usize::MAX);
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
}
