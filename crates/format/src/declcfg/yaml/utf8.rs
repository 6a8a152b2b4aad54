//! Invalid UTF-8 in YAML files. The loader reads a file's text with invalid sequences replaced
//! (U+FFFD), as Go's `encoding/json` does for JSON streams; go-yaml instead refuses a document
//! that holds one, with its reader's error (`yaml: invalid leading UTF-8 octet`). This module
//! finds the invalid sequences, names each as go-yaml's reader does, and turns the first one of a
//! document into that document's located error.

use super::{line_breaks, Document, YamlError};
use crate::declcfg::value::Pos;

/// An invalid UTF-8 sequence of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvalidUtf8 {
    /// Its byte offset in the file's text as the loader reads it (where its U+FFFD is).
    pub at: usize,
    /// go-yaml's reader error for it.
    pub problem: &'static str,
}

/// Every invalid sequence of `bytes`, in order, at its offset in `String::from_utf8_lossy(bytes)`.
pub fn invalid_utf8(bytes: &[u8]) -> Vec<InvalidUtf8> {
    let mut out = Vec::new();
    let (mut raw, mut text) = (0, 0);
    for chunk in bytes.utf8_chunks() {
        raw += chunk.valid().len();
        text += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            out.push(InvalidUtf8 { at: text, problem: problem(&bytes[raw..]) });
            raw += chunk.invalid().len();
            text += char::REPLACEMENT_CHARACTER.len_utf8();
        }
    }
    out
}

/// go-yaml v2's reader (`yaml_parser_update_buffer`) on the invalid sequence at the start of
/// `rest`: the leading octet, then whether the input ends first, then each trailing octet, then
/// overlong forms, then surrogates and values past U+10FFFF.
fn problem(rest: &[u8]) -> &'static str {
    let lead = rest[0];
    let width = match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => return "invalid leading UTF-8 octet",
    };
    if rest.len() < width {
        return "incomplete UTF-8 octet sequence";
    }
    if rest[1..width].iter().any(|b| b & 0xC0 != 0x80) {
        return "invalid trailing UTF-8 octet";
    }
    let value = rest[1..width].iter().fold(u32::from(lead) & (0x7F >> width), |v, b| (v << 6) | u32::from(b & 0x3F));
    let shortest = match width {
        2 => 0x80,
        3 => 0x800,
        _ => 0x10000,
    };
    if value < shortest {
        "invalid length of a UTF-8 sequence"
    } else {
        "invalid Unicode character"
    }
}

/// The error of `doc` (a document of `text`, the YAML text whose invalid sequences are
/// `invalid`, offsets relative to `text`) when it holds an invalid sequence: go-yaml's message,
/// located at the first one.
pub fn check(text: &str, doc: &Document<'_>, invalid: &[InvalidUtf8]) -> Result<(), YamlError> {
    let start = doc.text.as_ptr() as usize - text.as_ptr() as usize;
    let Some(bad) = invalid.iter().find(|i| i.at >= start && i.at < start + doc.text.len()) else {
        return Ok(());
    };
    let before = &doc.text[..bad.at - start];
    let line_start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let pos = Pos::new(doc.first_line + line_breaks(before), before[line_start..].chars().count() as u32 + 1);
    Err(YamlError { message: format!("error converting YAML to JSON: yaml: {}", bad.problem), pos })
}

#[cfg(test)]
mod tests {
    use super::super::split_documents;
    use super::*;

    fn problems(bytes: &[u8]) -> Vec<(usize, &'static str)> {
        invalid_utf8(bytes).iter().map(|i| (i.at, i.problem)).collect()
    }

    #[test]
    fn each_invalid_sequence_is_found_and_named_as_go_yaml_names_it() {
        assert!(problems(b"a: \xc3\xa9\n").is_empty());
        assert_eq!(problems(b"a: \xff"), [(3, "invalid leading UTF-8 octet")]);
        assert_eq!(
            problems(b"\x80x\xe2\x82"),
            [(0, "invalid leading UTF-8 octet"), (4, "incomplete UTF-8 octet sequence")]
        );
        assert_eq!(problems(b"\xc3x"), [(0, "invalid trailing UTF-8 octet")]);
        assert_eq!(
            problems(b"\xc0\x80"),
            [(0, "invalid length of a UTF-8 sequence"), (3, "invalid leading UTF-8 octet")]
        );
        assert_eq!(
            problems(b"\xed\xa0\x80"),
            [(0, "invalid Unicode character"), (3, "invalid leading UTF-8 octet"), (6, "invalid leading UTF-8 octet")]
        );
    }

    #[test]
    fn a_document_with_an_invalid_sequence_is_an_error_located_at_it() {
        let bytes = b"a: 1\n---\nb: \xc3\xa9\nc: x\xffy\n---\nd: \xfe\n";
        let text = String::from_utf8_lossy(bytes);
        let invalid = invalid_utf8(bytes);
        let docs = split_documents(&text, 1).unwrap();
        assert_eq!(check(&text, &docs[0], &invalid), Ok(()));
        let err = check(&text, &docs[1], &invalid).unwrap_err();
        assert_eq!(err.message, "error converting YAML to JSON: yaml: invalid leading UTF-8 octet");
        assert_eq!(err.pos, Pos::new(4, 5));
        assert_eq!(check(&text, &docs[2], &invalid).unwrap_err().pos, Pos::new(6, 4));
    }
}
