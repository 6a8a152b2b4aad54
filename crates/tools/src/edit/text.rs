//! Text edits as editors take them: a file, a byte range, LSP positions (line and UTF-16
//! character, 0-based) and the new text. [`apply_edits`] applies a set of them to in-memory
//! files, refusing overlaps; [`invert`] gives the edits that undo them.

use serde::{Deserialize, Serialize};

use crate::declcfg::FileInput;

use super::EditError;

/// A byte range `[start, end)` in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByteRange {
    /// First byte replaced.
    pub start: usize,
    /// Just past the last byte replaced (`start` for an insertion).
    pub end: usize,
}

/// An LSP position: 0-based line and UTF-16 code unit offset in that line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LspPosition {
    /// 0-based line.
    pub line: u32,
    /// 0-based UTF-16 offset in the line.
    pub character: u32,
}

/// An LSP range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LspRange {
    /// Where the replaced text starts.
    pub start: LspPosition,
    /// Where it ends.
    pub end: LspPosition,
}

/// One replacement of a byte range of a file. A file that does not exist yet is created by an
/// insertion at `0..0`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextEdit {
    /// The file, as given to the loader.
    pub file: String,
    /// The bytes replaced.
    pub range: ByteRange,
    /// The same range as LSP positions (computed against the file before the edit).
    pub lsp: LspRange,
    /// The new text.
    pub new_text: String,
}

/// The LSP position of byte `at` of `text`.
pub fn lsp_position(text: &str, at: usize) -> LspPosition {
    let at = at.min(text.len());
    let before = &text[..floor_char(text, at)];
    let line = before.bytes().filter(|b| *b == b'\n').count() as u32;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let character = before[line_start..].encode_utf16().count() as u32;
    LspPosition { line, character }
}

fn floor_char(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

impl TextEdit {
    /// Replace `start..end` of `text` (the content of `file`) with `new_text`.
    pub fn new(file: &str, text: &str, start: usize, end: usize, new_text: impl Into<String>) -> TextEdit {
        let lsp = LspRange { start: lsp_position(text, start), end: lsp_position(text, end) };
        TextEdit { file: file.to_string(), range: ByteRange { start, end }, lsp, new_text: new_text.into() }
    }
}

/// Apply `edits` to `files`: every file keeps its place, created files come last in the order
/// their edits are given. Fails on an edit outside its file or not on a character boundary, on
/// overlapping edits (two insertions at one offset apply in the order given), and on an edit of
/// a file that is not there other than an insertion at `0..0`.
///
/// ```
/// use olm_catalog::edit::{apply_edits, TextEdit};
/// use olm_catalog::FileInput;
/// let files = vec![FileInput::new("a.yaml", "name: a # keep\n")];
/// let edit = TextEdit::new("a.yaml", "name: a # keep\n", 6, 7, "b");
/// let out = apply_edits(&files, &[edit]).unwrap();
/// assert_eq!(out[0].content, b"name: b # keep\n");
/// ```
pub fn apply_edits(files: &[FileInput], edits: &[TextEdit]) -> Result<Vec<FileInput>, EditError> {
    let mut out: Vec<FileInput> = files.to_vec();
    let mut order: Vec<&str> = Vec::new();
    for e in edits {
        if !order.contains(&e.file.as_str()) {
            order.push(&e.file);
        }
    }
    for file in order {
        let mut mine: Vec<&TextEdit> = edits.iter().filter(|e| e.file == file).collect();
        mine.sort_by_key(|e| (e.range.start, e.range.end));
        let index = match out.iter().position(|f| f.path == file) {
            Some(i) => i,
            None if mine.iter().all(|e| e.range.start == 0 && e.range.end == 0) => {
                out.push(FileInput::new(file, Vec::new()));
                out.len() - 1
            }
            None => return Err(EditError::BadEdit { file: file.to_string(), reason: "no such file".into() }),
        };
        let text = String::from_utf8(out[index].content.clone())
            .map_err(|_| EditError::BadEdit { file: file.to_string(), reason: "the file is not UTF-8".into() })?;
        out[index].content = splice(file, &text, &mine)?.into_bytes();
    }
    Ok(out)
}

/// `text` with the sorted `edits` applied.
fn splice(file: &str, text: &str, edits: &[&TextEdit]) -> Result<String, EditError> {
    let bad = |reason: String| EditError::BadEdit { file: file.to_string(), reason };
    let mut result = String::with_capacity(text.len());
    let mut at = 0usize;
    for e in edits {
        let ByteRange { start, end } = e.range;
        if start > end || end > text.len() || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            return Err(bad(format!(
                "range {start}..{end} is not a character range of the file ({} bytes)",
                text.len()
            )));
        }
        if start < at {
            return Err(bad(format!("edits overlap at byte {start}")));
        }
        result.push_str(&text[at..start]);
        result.push_str(&e.new_text);
        at = end;
    }
    result.push_str(&text[at..]);
    Ok(result)
}

/// The edits that undo `edits` once they are applied to `files` (the files before them).
pub fn invert(files: &[FileInput], edits: &[TextEdit]) -> Result<Vec<TextEdit>, EditError> {
    let after = apply_edits(files, edits)?;
    let mut undo = Vec::new();
    let mut sorted: Vec<&TextEdit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.file.clone(), e.range.start, e.range.end));
    let mut shift: (String, isize) = (String::new(), 0);
    for e in sorted {
        if shift.0 != e.file {
            shift = (e.file.clone(), 0);
        }
        let before = files.iter().find(|f| f.path == e.file).map_or(&[][..], |f| &f.content[..]);
        let new_text = String::from_utf8_lossy(&before[e.range.start..e.range.end]).into_owned();
        let start = (e.range.start as isize + shift.1) as usize;
        let end = start + e.new_text.len();
        let after_text = after.iter().find(|f| f.path == e.file).map_or(String::new(), |f| text_of(&f.content));
        undo.push(TextEdit::new(&e.file, &after_text, start, end, new_text));
        shift.1 += e.new_text.len() as isize - (e.range.end - e.range.start) as isize;
    }
    Ok(undo)
}

fn text_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files() -> Vec<FileInput> {
        vec![FileInput::new("a", "héllo wörld\n")]
    }

    #[test]
    fn edits_apply_from_the_end_and_keep_the_rest() {
        let t = "héllo wörld\n";
        let edits = [TextEdit::new("a", t, 0, 6, "bye"), TextEdit::new("a", t, 13, 13, "!")];
        let out = apply_edits(&files(), &edits).unwrap();
        assert_eq!(out[0].content, "bye wörld!\n".as_bytes());
    }

    #[test]
    fn lsp_positions_count_utf16_units() {
        let t = "a\n😀b\n";
        assert_eq!(lsp_position(t, 6), LspPosition { line: 1, character: 2 });
        assert_eq!(TextEdit::new("a", t, 2, 7, "").lsp.end, LspPosition { line: 1, character: 3 });
    }

    #[test]
    fn overlapping_or_out_of_range_edits_are_refused() {
        let t = "héllo wörld\n";
        let overlap = [TextEdit::new("a", t, 0, 4, "x"), TextEdit::new("a", t, 3, 5, "y")];
        assert!(matches!(apply_edits(&files(), &overlap), Err(EditError::BadEdit { .. })));
        let inside_char = [TextEdit::new("a", t, 2, 2, "x")];
        assert!(apply_edits(&files(), &inside_char).unwrap_err().to_string().contains("not a character range"));
        let missing = [TextEdit::new("b", "", 1, 1, "x")];
        assert!(apply_edits(&files(), &missing).is_err());
    }

    #[test]
    fn new_files_are_created_and_inverse_edits_restore_the_bytes() {
        let t = "héllo wörld\n";
        let edits = [
            TextEdit::new("a", t, 0, 6, "bye"),
            TextEdit::new("a", t, 7, 13, "there, everyone"),
            TextEdit::new("n", "", 0, 0, "new"),
        ];
        let after = apply_edits(&files(), &edits).unwrap();
        assert_eq!(after[1].content, b"new");
        let undo = invert(&files(), &edits).unwrap();
        let back = apply_edits(&after, &undo).unwrap();
        assert_eq!(back[0].content, files()[0].content);
        assert_eq!(back[1].content, b"");
    }
}
