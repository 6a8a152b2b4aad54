//! Positions between the catalog's and the protocol's: our 1-based line and column (in Unicode
//! scalar values) and byte offsets, LSP's 0-based line and UTF-16 offset; findings as LSP
//! diagnostics; document URIs as catalog paths.

use std::path::Path;

use lsp_types::{DiagnosticRelatedInformation, DiagnosticSeverity, NumberOrString, Position, Range, Url};

use crate::declcfg::Pos;
use crate::diagnostic::Location;
use crate::{Diagnostic, Severity};

/// A file's text with the byte offset of each line's start.
pub struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    /// Index `text`.
    pub fn new(text: &'a str) -> Lines<'a> {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        Lines { text, starts }
    }

    /// The text.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// Line `line` (0-based) without its line break; empty past the end.
    pub fn line(&self, line: u32) -> &'a str {
        let Some(&start) = self.starts.get(line as usize) else { return "" };
        let end = self.starts.get(line as usize + 1).map_or(self.text.len(), |e| e - 1);
        self.text[start..end].trim_end_matches('\r')
    }

    /// The byte offset of an LSP position (clamped to its line and to the text).
    pub fn offset(&self, p: Position) -> usize {
        let Some(&start) = self.starts.get(p.line as usize) else { return self.text.len() };
        let line = self.line(p.line);
        let mut units = 0;
        for (i, c) in line.char_indices() {
            if units >= p.character {
                return start + i;
            }
            units += c.len_utf16() as u32;
        }
        start + line.len()
    }

    /// The LSP position of byte offset `at`.
    pub fn position(&self, at: usize) -> Position {
        let at = at.min(self.text.len());
        let line = self.starts.partition_point(|s| *s <= at) - 1;
        let mut at = at;
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        let character = self.text[self.starts[line]..at].encode_utf16().count() as u32;
        Position::new(line as u32, character)
    }

    /// The byte offset of our 1-based `pos` (column in characters).
    pub fn pos_offset(&self, pos: Pos) -> usize {
        let line = pos.line.saturating_sub(1);
        let Some(&start) = self.starts.get(line as usize) else { return self.text.len() };
        let text = self.line(line);
        let skip = pos.column.saturating_sub(1) as usize;
        start + text.char_indices().nth(skip).map_or(text.len(), |(i, _)| i)
    }

    /// The range of the scalar that starts at `pos`: its text without quotes, up to the end of
    /// a quoted string or, unquoted, to the first space, comma or bracket.
    pub fn token(&self, pos: Pos) -> Range {
        let start = self.pos_offset(pos);
        let line_end = self.text[start..].find('\n').map_or(self.text.len(), |e| start + e);
        let rest = &self.text[start..line_end];
        let (start, len) = match rest.chars().next() {
            Some(q @ ('"' | '\'')) => (start + 1, rest[1..].find(q).unwrap_or(rest.len() - 1)),
            _ => (start, rest.find([' ', ',', '}', ']', '\r', '\t', '#']).unwrap_or(rest.len())),
        };
        Range::new(self.position(start), self.position(start + len))
    }
}

/// Whether `p` is inside `r` (its end included, where a cursor after a word stands).
pub fn contains(r: &Range, p: Position) -> bool {
    r.start <= p && p <= r.end
}

/// The LSP diagnostic of finding `d`, in the file whose text `lines` holds; `text_of` gives
/// the text of a related location's file, `uri_of` its URI.
pub fn diagnostic(
    d: &Diagnostic,
    lines: &Lines<'_>,
    related: impl Fn(&Location) -> Option<lsp_types::Location>,
) -> lsp_types::Diagnostic {
    let severity = match d.severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Note => DiagnosticSeverity::INFORMATION,
    };
    let related: Vec<DiagnosticRelatedInformation> = d
        .related
        .iter()
        .filter_map(|r| {
            Some(DiagnosticRelatedInformation { location: related(&r.location)?, message: r.message.clone() })
        })
        .collect();
    lsp_types::Diagnostic {
        range: location_range(&d.location, lines),
        severity: Some(severity),
        code: Some(NumberOrString::String(d.code.as_str().to_string())),
        source: Some("olm-catalog".to_string()),
        message: d.message.clone(),
        related_information: (!related.is_empty()).then_some(related),
        data: (!d.location.pointer.is_empty()).then(|| serde_json::json!({"pointer": d.location.pointer})),
        ..lsp_types::Diagnostic::default()
    }
}

/// The range a location names: the token at its line and column; the file's start for a
/// finding about a whole file.
pub fn location_range(l: &Location, lines: &Lines<'_>) -> Range {
    if l.line == 0 {
        return Range::default();
    }
    lines.token(Pos::new(l.line, l.column))
}

/// The catalog path (relative, `/`-separated) of `uri` under `root`.
pub fn relative(root: &Path, uri: &Url) -> Option<String> {
    let path = uri.to_file_path().ok()?;
    let rel = path.strip_prefix(root).ok()?;
    let parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// The URI of catalog path `rel` under `root`.
pub fn uri(root: &Path, rel: &str) -> Option<Url> {
    Url::from_file_path(root.join(rel)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_columns_characters() {
        let lines = Lines::new("a: b\nname: \"é𝄞x\"\n");
        // `x` is after é (1 unit) and 𝄞 (2 units).
        let at = lines.text().find('x').unwrap();
        assert_eq!(lines.position(at), Position::new(1, 10));
        assert_eq!(lines.offset(Position::new(1, 10)), at);
        assert_eq!(lines.pos_offset(Pos::new(2, 10)), at);
    }

    #[test]
    fn a_token_is_the_scalar_without_its_quotes() {
        let lines = Lines::new("- name: foo.v1 # c\n  replaces: \"foo.v0\"\n{\"a\":\"b\",\"c\":1}");
        assert_eq!(lines.token(Pos::new(1, 9)), Range::new(Position::new(0, 8), Position::new(0, 14)));
        assert_eq!(lines.token(Pos::new(2, 13)), Range::new(Position::new(1, 13), Position::new(1, 19)));
        assert_eq!(lines.token(Pos::new(3, 6)), Range::new(Position::new(2, 6), Position::new(2, 7)));
    }

    #[test]
    fn offsets_past_a_line_or_the_text_are_clamped() {
        let lines = Lines::new("ab\ncd");
        assert_eq!(lines.offset(Position::new(0, 99)), 2);
        assert_eq!(lines.offset(Position::new(9, 0)), 5);
        assert_eq!(lines.position(99), Position::new(1, 2));
    }
}
