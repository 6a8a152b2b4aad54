//! Reading YAML catalog files the way opm does: split into documents at lines that begin with
//! `---` (the Kubernetes YAML reader), then turn each document into a spanned [`Node`] with
//! YAML 1.1 scalar rules (go-yaml v2, through sigs.k8s.io/yaml): anchors, aliases and `<<` merge
//! keys are expanded, non-string keys are stringified. Of each document, only the first YAML
//! document is read, as go-yaml's `Unmarshal` does.
//!
//! This module owns the entry points the loader calls — [`split_documents`], [`parse`] — the
//! types they exchange ([`Document`], [`YamlError`]) and the budget every path keeps. The work
//! is done by:
//! - [`fast`]: a reader for the block YAML real catalogs are made of, straight from the bytes;
//! - [`events`]: the full parser (saphyr's event stream), for everything else;
//! - [`utf8`]: invalid UTF-8, which go-yaml refuses;
//! - [`scalar`]: YAML 1.1 scalar resolution as go-yaml v2 does it, with [`go_strconv`] (Go's
//!   number parsing) and [`go_time`] (Go's `time.Parse` for timestamps) underneath; Go's float
//!   text comes from `gotext`.
//!
//! Hostile input is bounded: nesting depth and the number of nodes produced by alias expansion
//! both have a budget, and exceeding one ends the document with an error, not a hang.

mod events;
mod fast;
mod go_strconv;
mod go_time;
mod scalar;
#[doc(hidden)]
pub mod utf8;

#[cfg(test)]
mod differential;

pub(crate) use fast::json_string_stop;

use super::value::{Node, Pos};

/// Deepest nesting of sequences and mappings accepted in one document.
pub const MAX_DEPTH: usize = 1000;
/// Most nodes one document may expand to (counting every alias copy).
pub const MAX_NODES: usize = 4_000_000;

/// One YAML document of a file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Document<'a> {
    /// The document text (without its separator line).
    pub text: &'a str,
    /// The file line of the document's first line (1-based).
    pub first_line: u32,
    /// Whether Kubernetes' reader keeps a `---` line (the line before `first_line`) as the start
    /// of this document. go-yaml reads such a document like its text alone, except that one with
    /// no text at all is still a document: an empty one, whose value is null.
    pub marker: bool,
}

impl<'a> Document<'a> {
    /// A document of `text` starting at file line `first_line`, without a `---` line.
    pub fn new(text: &'a str, first_line: u32) -> Document<'a> {
        Document { text, first_line, marker: false }
    }

    /// The line a document without a value is reported at: its `---` line when that is all
    /// there is of it, else its first line.
    pub fn line(&self) -> u32 {
        if self.marker && self.text.is_empty() {
            self.first_line - 1
        } else {
            self.first_line
        }
    }
}

/// A problem with a YAML document, and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct YamlError {
    /// What is wrong, worded like opm.
    pub message: String,
    /// Where.
    pub pos: Pos,
}

/// Split a file (or the YAML rest of a file) into documents exactly as Kubernetes'
/// `YAMLReader` does (k8s.io/apimachinery `pkg/util/yaml`): it reads line by line into a
/// buffer; a line beginning with `---` (only spaces or a comment may follow on it, else
/// `invalid Yaml document separator`) ends the buffered document and is dropped — but when
/// nothing is buffered yet it is kept as the document's first line. So a file's leading `---`
/// starts the first document, and `---` alone, `---` twice in a row or twice at the end of a
/// file make a document of nothing but `---`, which go-yaml reads as null (opm: `object '' is
/// missing root schema field`). A zero-byte file has no document.
pub fn split_documents(src: &str, first_line: u32) -> Result<Vec<Document<'_>>, YamlError> {
    let bytes = src.as_bytes();
    let mut split = Splitter { src, docs: Vec::new(), open: None };
    if memchr::memchr(b'\r', bytes).is_some() {
        // Each line counts its own breaks (a lone `\r` ends a line too): read line by line.
        let (mut at, mut line_no) = (0usize, first_line);
        while at < src.len() {
            let end = memchr::memchr(b'\n', &bytes[at..]).map(|i| at + i + 1).unwrap_or(src.len());
            let next_line = line_no + line_breaks(&src[at..end]).max(1);
            if bytes[at..end].starts_with(b"---") {
                split.separator(at, end, line_no, next_line)?;
            } else {
                split.text(at, line_no);
            }
            (at, line_no) = (end, next_line);
        }
    } else {
        // Every line ends with one `\n`: only the lines that begin with `---` matter, found with
        // one search, and the lines between them are counted, not walked.
        let starts = bytes.starts_with(b"---").then_some(0);
        let rest = memchr::memmem::find_iter(bytes, b"\n---").map(|i| i + 1);
        let (mut at, mut line_no) = (0usize, first_line);
        for sep in starts.into_iter().chain(rest) {
            if sep > at {
                split.text(at, line_no);
                line_no += count_newlines(&bytes[at..sep]);
            }
            let end = memchr::memchr(b'\n', &bytes[sep..]).map(|i| sep + i + 1).unwrap_or(src.len());
            split.separator(sep, end, line_no, line_no + 1)?;
            (at, line_no) = (end, line_no + 1);
        }
        if at < src.len() {
            split.text(at, line_no);
        }
    }
    if let Some((start, first_line, marker)) = split.open {
        split.docs.push(Document { text: &src[start..], first_line, marker });
    }
    Ok(split.docs)
}

/// The state of [`split_documents`]: Kubernetes' buffer, fed line by line (or, for a run of
/// lines without a separator, with the run's first line only: the rest change nothing).
struct Splitter<'a> {
    src: &'a str,
    docs: Vec<Document<'a>>,
    /// The document being buffered: where its text starts, its first line, and whether a `---`
    /// line started it. `None` while Kubernetes' buffer is empty.
    open: Option<(usize, u32, bool)>,
}

impl<'a> Splitter<'a> {
    /// A line of text at byte `at`, line `line_no`.
    fn text(&mut self, at: usize, line_no: u32) {
        if self.open.is_none() {
            self.open = Some((at, line_no, false));
        }
    }

    /// A line `at..end` beginning with `---`, at line `line_no`, the next line being `next_line`.
    fn separator(&mut self, at: usize, end: usize, line_no: u32, next_line: u32) -> Result<(), YamlError> {
        let trimmed = self.src[at + 3..end].trim();
        if !trimmed.is_empty() && !trimmed.starts_with('#') {
            return Err(YamlError {
                message: format!("invalid Yaml document separator: {trimmed}"),
                pos: Pos::new(line_no, 1),
            });
        }
        match self.open.take() {
            Some((start, first_line, marker)) => {
                self.docs.push(Document { text: &self.src[start..at], first_line, marker });
            }
            None => self.open = Some((end, next_line, true)),
        }
        Ok(())
    }
}

/// How many `\n` bytes `b` holds: 64 bytes at a time into a byte-wide count, which the compiler
/// turns into vector compares (a count per byte straight into a `u32` is not vectorized as well).
fn count_newlines(b: &[u8]) -> u32 {
    // The browsers' modules, built for size, count byte by byte.
    if !crate::FAST_PATHS {
        return b.iter().map(|&c| u32::from(c == b'\n')).sum();
    }
    let chunks = b.chunks_exact(64);
    let tail = chunks.remainder().iter().map(|&c| u32::from(c == b'\n')).sum::<u32>();
    chunks.map(|c| u32::from(c.iter().map(|&c| u8::from(c == b'\n')).fold(0u8, u8::wrapping_add))).sum::<u32>() + tail
}

/// How many lines `s` ends, as YAML (and an editor) counts them: `\r\n`, a lone `\r` and `\n`
/// each end one. Documents are split at `\n` as Kubernetes does, but their lines are counted
/// this way, so that a document's first line agrees with the parser's positions inside it.
pub fn line_breaks(s: &str) -> u32 {
    let b = s.as_bytes();
    let newlines = b.iter().filter(|&&c| c == b'\n').count();
    if !b.contains(&b'\r') {
        return newlines as u32;
    }
    let lone_cr = b.iter().enumerate().filter(|&(i, &c)| c == b'\r' && b.get(i + 1) != Some(&b'\n')).count();
    (newlines + lone_cr) as u32
}

/// Parse one document: the fast path when it knows the document, the event path otherwise
/// (both give the same answer wherever the fast one answers). `Ok(None)` for a document that
/// holds no value (blank, comments only, or nothing but its `---` line).
pub fn parse(doc: &Document<'_>) -> Result<Option<Node>, YamlError> {
    fast::parse_fast(doc).unwrap_or_else(|| events::parse_document(doc))
}

/// A property value ([`parse_checking`]: `olm.csv.metadata`, `olm.bundle.object`) checked against
/// its Go struct without building its tree: a null is in its place in the tree, at `pos`.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedValue {
    /// The position of the null in its place (its `value` key's `:`).
    pub pos: Pos,
    /// Where the `value:` line and the lines of its block are in the document's text.
    pub span: std::ops::Range<usize>,
    /// The Go type the value was checked against.
    pub ty: &'static super::go_type::GoType,
    /// For a value of one field holding a string on one plain line (an `olm.bundle.object`'s
    /// `data`): where that string is in the document's text.
    pub string: Option<std::ops::Range<usize>>,
    /// The file line of the `value:` line.
    pub first_line: u32,
}

/// [`parse`], with the `olm.csv.metadata` and `olm.bundle.object` values of properties checked
/// against their Go structs without building their trees, where the fast path reads the
/// document ([`CheckedValue`]).
pub fn parse_checking(doc: &Document<'_>) -> (Result<Option<Node>, YamlError>, Vec<CheckedValue>) {
    match fast::parse_fast_checking(doc) {
        Some((node, checked)) => (Ok(node), checked),
        None => (events::parse_document(doc), Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newlines_are_counted_across_and_after_whole_chunks() {
        for len in [0, 1, 63, 64, 65, 127, 128, 200] {
            let text: Vec<u8> = (0..len).map(|i| if i % 3 == 0 { b'\n' } else { b'a' }).collect();
            assert_eq!(count_newlines(&text), text.iter().filter(|&&c| c == b'\n').count() as u32, "{len}");
        }
        assert_eq!(count_newlines(&[b'\n'; 64 * 5]), 320);
    }

    #[test]
    fn lone_carriage_returns_end_lines() {
        // Found by fuzzing: the parser counts a lone `\r` as a line break, so document lines must.
        assert_eq!(line_breaks("a\r\nb\rc\n\r"), 4);
        let docs = split_documents("a: 1\rb: 2\n---\r\nc: [\n", 1).unwrap();
        assert_eq!(docs[1].first_line, 4);
        let err = parse(&docs[1]).unwrap_err();
        assert_eq!(err.pos.line, 5, "{}", err.message);
    }

    #[test]
    fn splits_like_kubernetes() {
        let docs = split_documents("---\na: 1\n---\nb: 2\n---\n", 1).unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0].first_line, 2);
        assert_eq!(docs[1].first_line, 4);
        let docs = split_documents("a: 1\n---\n\n", 1).unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[1].text, "\n");
        let err = split_documents("a: 1\n--- b\n", 1).unwrap_err();
        assert_eq!(err.message, "invalid Yaml document separator: b");
        assert!(split_documents("---  # comment\na: 1\n", 1).is_ok());
        assert!(split_documents("", 1).unwrap().is_empty());
    }

    /// (text, first line, marker) of each document.
    fn split(src: &str) -> Vec<(&str, u32, bool)> {
        split_documents(src, 1).unwrap().iter().map(|d| (d.text, d.first_line, d.marker)).collect()
    }

    #[test]
    fn a_separator_read_into_an_empty_buffer_starts_the_document() {
        // Kubernetes keeps the `---` when nothing is buffered; go-yaml then reads the document
        // like its text alone, but `---` with no text is still a (null) document.
        assert_eq!(split("---\na: 1\n"), [("a: 1\n", 2, true)]);
        assert_eq!(split("---"), [("", 2, true)]);
        assert_eq!(split("---\n"), [("", 2, true)]);
        assert_eq!(split("---\n---\n"), [("", 2, true)]);
        assert_eq!(split("---\n---\na: 1\n"), [("", 2, true), ("a: 1\n", 3, false)]);
        assert_eq!(split("a: 1\n---\n"), [("a: 1\n", 1, false)]);
        assert_eq!(split("a: 1\n---\n---\n"), [("a: 1\n", 1, false), ("", 4, true)]);
        assert_eq!(split("a\n---\n---\nb\n"), [("a\n", 1, false), ("b\n", 4, true)]);
        assert_eq!(split("a\n---\n---\n---\nb\n"), [("a\n", 1, false), ("", 4, true), ("b\n", 5, false)]);
        assert_eq!(split("---\n# c\n"), [("# c\n", 2, true)]);
        // A document that is only its `---` line is reported there.
        let docs = split_documents("a: 1\n---\n---\n", 1).unwrap();
        assert_eq!((docs[0].line(), docs[1].line()), (1, 3));
        assert_eq!(split_documents("---\n\n", 1).unwrap()[0].line(), 2);
    }

    #[test]
    fn blank_and_comment_documents_have_no_value() {
        for src in ["# Title\n", "\n", ""] {
            let doc = Document::new(src, 1);
            assert_eq!(parse(&doc), Ok(None), "{src:?}");
            assert_eq!(events::parse_document(&doc), Ok(None), "{src:?}");
        }
    }
}
