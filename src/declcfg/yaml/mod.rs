//! Reading YAML catalog files the way opm does: split into documents at lines that begin with
//! `---` (the Kubernetes YAML reader), then turn each document into a spanned [`Node`] with
//! YAML 1.1 scalar rules (go-yaml v2, through sigs.k8s.io/yaml): anchors, aliases and `<<` merge
//! keys are expanded, non-string keys are stringified.
//!
//! This module owns the entry points the loader calls — [`split_documents`], [`parse`] — the
//! types they exchange ([`Document`], [`YamlError`]) and the budget every path keeps. The work
//! is done by:
//! - [`fast`]: a reader for the block YAML real catalogs are made of, straight from the bytes;
//! - [`events`]: the full parser (saphyr's event stream), for everything else;
//! - [`scalar`]: YAML 1.1 scalar resolution as go-yaml v2 does it, with [`go_strconv`] (Go's
//!   number parsing), [`go_time`] (Go's `time.Parse` for timestamps) and [`go_float`] (Go's
//!   float text) underneath.
//!
//! Hostile input is bounded: nesting depth and the number of nodes produced by alias expansion
//! both have a budget, and exceeding one ends the document with an error, not a hang.

mod events;
mod fast;
mod go_float;
mod go_strconv;
mod go_time;
mod scalar;

#[cfg(test)]
mod differential;

pub(crate) use events::parse_document as parse_with_events;

use super::value::{Node, Pos};

/// Deepest nesting of sequences and mappings accepted in one document.
pub(crate) const MAX_DEPTH: usize = 1000;
/// Most nodes one document may expand to (counting every alias copy).
pub(crate) const MAX_NODES: usize = 4_000_000;

/// One YAML document of a file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Document<'a> {
    /// The document text (without its separator line).
    pub(crate) text: &'a str,
    /// The file line of the document's first line (1-based).
    pub(crate) first_line: u32,
}

/// A problem with a YAML document, and where it is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct YamlError {
    /// What is wrong, worded like opm.
    pub(crate) message: String,
    /// Where.
    pub(crate) pos: Pos,
}

/// Split a file (or the YAML rest of a file) into documents, as Kubernetes' YAML reader does:
/// a line beginning with `---` ends the current document; only spaces or a comment may follow
/// the separator on its line. Empty documents (zero bytes) are dropped, blank ones are kept.
pub(crate) fn split_documents(src: &str, first_line: u32) -> Result<Vec<Document<'_>>, YamlError> {
    let mut docs = Vec::new();
    let mut start = 0usize; // byte offset of the current document
    let mut doc_line = first_line;
    let mut line_no = first_line;
    let mut at = 0usize;
    while at < src.len() {
        let end = src[at..].find('\n').map(|i| at + i + 1).unwrap_or(src.len());
        let line = &src[at..end];
        if let Some(rest) = line.strip_prefix("---") {
            let trimmed = rest.trim();
            if !trimmed.is_empty() && !trimmed.starts_with('#') {
                return Err(YamlError {
                    message: format!("invalid Yaml document separator: {trimmed}"),
                    pos: Pos::new(line_no, 1),
                });
            }
            if at > start {
                docs.push(Document { text: &src[start..at], first_line: doc_line });
            }
            start = end;
            doc_line = line_no + 1;
        }
        at = end;
        line_no += 1;
    }
    if src.len() > start {
        docs.push(Document { text: &src[start..], first_line: doc_line });
    }
    Ok(docs)
}

/// Parse one document: the fast path when it knows the document, the event path otherwise
/// (both give the same answer wherever the fast one answers). `Ok(None)` for a document that
/// holds no value (blank or comments only).
pub(crate) fn parse(doc: &Document<'_>) -> Result<Option<Node>, YamlError> {
    fast::parse_fast(doc).unwrap_or_else(|| events::parse_document(doc))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn blank_and_comment_documents_have_no_value() {
        for src in ["# Title\n", "\n", ""] {
            let doc = Document { text: src, first_line: 1 };
            assert_eq!(parse(&doc), Ok(None), "{src:?}");
            assert_eq!(events::parse_document(&doc), Ok(None), "{src:?}");
        }
    }
}
