//! Go's `strconv.Quote` (the `%q` verb) and `%v` of a `[]string`.

/// Quotes `s` the way Go's `strconv.Quote` (and so `fmt`'s `%q` verb) does.
///
/// The result is wrapped in double quotes. `"` and `\` are backslash-escaped;
/// `\a` `\b` `\f` `\n` `\r` `\t` `\v` use their short escapes; other ASCII
/// control characters and DEL become `\xNN`; other non-printable characters
/// become `\uNNNN` or `\UNNNNNNNN` (lower-case hex). Printable Unicode
/// (letters, marks, numbers, punctuation, symbols and the ASCII space) is kept
/// as is.
pub fn quote(s: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    // Most texts (names, versions) are printable ASCII with nothing to escape: copied whole.
    if crate::FAST_PATHS && s.bytes().all(|b| matches!(b, b' '..=b'~') && b != b'"' && b != b'\\') {
        out.push_str(s);
        out.push('"');
        return out;
    }
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if is_go_print(c) => out.push(c),
            '\u{07}' => out.push_str("\\a"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{0b}' => out.push_str("\\v"),
            c if c < ' ' || c == '\u{7f}' => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// Go's `%v` of a `[]string`: `[a b c]`, items unquoted, separated by one space.
pub fn string_slice<S: AsRef<str>>(items: &[S]) -> String {
    let mut out = String::from("[");
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(item.as_ref());
    }
    out.push(']');
    out
}

/// Go's `strconv.IsPrint`: letters, marks, numbers, punctuation, symbols and
/// the ASCII space.
///
/// Outside ASCII this relies on the standard library's notion of printable
/// characters used by `str::escape_debug`, which excludes exactly the
/// separator (`Z*`, except the ASCII space) and other (`C*`, including
/// unassigned) categories, as Go does. Only the Unicode version may differ.
pub fn is_go_print(c: char) -> bool {
    if c.is_ascii() {
        return (' '..='~').contains(&c);
    }
    // A character that is not the first one of a string is escaped by
    // `escape_debug` only when it is not printable (grapheme extenders are
    // left alone there, and Go counts them, category M, as printable).
    let mut probe = String::with_capacity(8);
    probe.push('a');
    probe.push(c);
    let mut escaped = probe.escape_debug();
    escaped.next() == Some('a') && escaped.next() == Some(c) && escaped.next().is_none()
}

#[cfg(test)]
mod tests {
    use super::{quote, string_slice};

    #[test]
    fn quote_ascii() {
        assert_eq!(quote(""), r#""""#);
        assert_eq!(quote("1.0.0"), r#""1.0.0""#);
        assert_eq!(quote(r#"a"b\c"#), r#""a\"b\\c""#);
        assert_eq!(quote(">=1.0.0 <2"), r#"">=1.0.0 <2""#);
    }

    #[test]
    fn quote_control() {
        assert_eq!(quote("a\nb\tc\rd"), r#""a\nb\tc\rd""#);
        assert_eq!(quote("\u{07}\u{08}\u{0c}\u{0b}"), r#""\a\b\f\v""#);
        assert_eq!(quote("\u{00}\u{1f}\u{7f}"), r#""\x00\x1f\x7f""#);
    }

    #[test]
    fn quote_unicode() {
        // Printable letters, marks and symbols stay.
        assert_eq!(quote("é日本"), "\"é日本\"");
        assert_eq!(quote("e\u{301}"), "\"e\u{301}\"");
        assert_eq!(quote("\u{301}"), "\"\u{301}\"");
        assert_eq!(quote("😀"), "\"😀\"");
        // Non-printable: non-ASCII spaces, format characters, private use.
        assert_eq!(quote("\u{a0}"), r#""\u00a0""#);
        assert_eq!(quote("\u{ad}"), r#""\u00ad""#);
        assert_eq!(quote("\u{200b}"), r#""\u200b""#);
        assert_eq!(quote("\u{2028}"), r#""\u2028""#);
        assert_eq!(quote("\u{85}"), r#""\u0085""#);
        assert_eq!(quote("\u{e000}"), r#""\ue000""#);
        assert_eq!(quote("\u{feff}"), r#""\ufeff""#);
        assert_eq!(quote("\u{f0000}"), r#""\U000f0000""#);
        assert_eq!(quote("\u{e0001}"), r#""\U000e0001""#);
    }

    #[test]
    fn slices_print_bare_items() {
        assert_eq!(string_slice::<&str>(&[]), "[]");
        assert_eq!(string_slice(&["a", "b c"]), "[a b c]");
    }
}
