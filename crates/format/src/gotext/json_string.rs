//! JSON string literals as Go's `encoding/json` writes them: `"` and `\` escaped, `\n`, `\r`,
//! `\t`, and since Go 1.22 `\b` and `\f` short, other control characters and U+2028/U+2029 as
//! `\u00XX`/`\u2028`, and with HTML escaping (`json.Marshal`'s default) `<`, `>`, `&` as
//! `\u003c`, `\u003e`, `\u0026`.

use std::fmt::Write as _;

/// A JSON string literal as Go's encoder writes it. Runs of bytes that need no escape are copied
/// whole (the manifests embedded in a bundle are mostly such runs).
pub fn write_json_string(s: &str, html: bool, out: &mut String) {
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        let b = bytes[i];
        if !may_escape(b, html) {
            i += 1;
            continue;
        }
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9; any other E2 sequence is copied.
        let width = match b {
            0xE2 if bytes.get(i + 1) == Some(&0x80) && matches!(bytes.get(i + 2), Some(0xA8 | 0xA9)) => 3,
            0xE2 => {
                i += 1;
                continue;
            }
            _ => 1,
        };
        // `i` is at an ASCII byte or a lead byte: a char boundary.
        out.push_str(&s[start..i]);
        let c = s[i..].chars().next().unwrap_or_default();
        escape(c, out);
        i += width;
        start = i;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Whether byte `b` may start a character Go escapes.
fn may_escape(b: u8, html: bool) -> bool {
    let table = if html { &MAY_ESCAPE_HTML } else { &MAY_ESCAPE };
    table[b as usize]
}

const MAY_ESCAPE: [bool; 256] = escape_table(false);
const MAY_ESCAPE_HTML: [bool; 256] = escape_table(true);

/// Control characters, `"`, `\`, the lead byte of U+2028/U+2029, and with `html` `<`, `>`, `&`.
const fn escape_table(html: bool) -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[0xE2] = true;
    if html {
        t[b'<' as usize] = true;
        t[b'>' as usize] = true;
        t[b'&' as usize] = true;
    }
    t
}

/// The escape of one character `may_escape` stopped at.
fn escape(c: char, out: &mut String) {
    match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        c => {
            let _ = write!(out, "\\u{:04x}", c as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_and_line_separators_are_escaped_as_go_does() {
        let mut out = String::new();
        write_json_string("a\u{8}\u{c}\u{1}\u{2028}é\u{2029}\u{2027}€\"\\\n\r\t<", false, &mut out);
        assert_eq!(out, "\"a\\b\\f\\u0001\\u2028é\\u2029\u{2027}€\\\"\\\\\\n\\r\\t<\"");
    }

    #[test]
    fn html_characters_are_escaped_only_when_asked() {
        let mut out = String::new();
        write_json_string("<a&b>", true, &mut out);
        assert_eq!(out, r#""\u003ca\u0026b\u003e""#);
    }
}
