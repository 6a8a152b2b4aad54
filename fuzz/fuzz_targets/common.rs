//! Checks shared by the fuzz targets: every finding is located inside the file it names.

#![allow(dead_code)]

use olm_catalog::{Diagnostic, FileInput};

/// Every diagnostic that names one of `files` points inside it: line 0 (the whole file) or a
/// line that exists, with a column no further than one past that line's end (in characters of
/// the text as the loader reads it, invalid UTF-8 replaced). Lines are counted either at `\n`
/// only (the JSON reader) or at `\r\n`, `\r` and `\n` (YAML's line breaks). The end of the input
/// counts as the start of one more line, as go-yaml counts it ("yaml: line 5" for an error at
/// the end of a four-line file without a final newline).
pub fn assert_located(files: &[FileInput], diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        let Some(f) = files.iter().find(|f| f.path == d.location.file) else { continue };
        if d.location.line == 0 {
            continue;
        }
        let text = String::from_utf8_lossy(&f.content);
        let lf: Vec<&str> = text.split('\n').collect();
        let yaml: Vec<&str> = text.split("\r\n").flat_map(|l| l.split(['\r', '\n'])).collect();
        assert!(
            inside(&lf, d.location.line, d.location.column) || inside(&yaml, d.location.line, d.location.column),
            "{d:?} points outside the file ({} lines)",
            lf.len()
        );
    }
}

fn inside(lines: &[&str], line: u32, column: u32) -> bool {
    let line = line as usize;
    if line == lines.len() + 1 {
        return column == 1;
    }
    line <= lines.len() && column >= 1 && column as usize <= lines[line - 1].chars().count() + 1
}

/// Split `data` into at most `max` parts at each `sep`.
pub fn split<'a>(data: &'a [u8], sep: &[u8], max: usize) -> Vec<&'a [u8]> {
    let mut parts = Vec::new();
    let mut rest = data;
    while parts.len() + 1 < max {
        match rest.windows(sep.len()).position(|w| w == sep) {
            Some(i) => {
                parts.push(&rest[..i]);
                rest = &rest[i + sep.len()..];
            }
            None => break,
        }
    }
    parts.push(rest);
    parts
}
