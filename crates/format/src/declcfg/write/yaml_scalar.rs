//! How go-yaml v2 styles and writes one scalar (`encode.go` `stringv`, `emitterc.go`
//! `analyze_scalar`, `select_scalar_style` and the four scalar writers).
//!
//! Style, in go-yaml's order of decisions:
//! 1. A string with a `\n` asks for a literal block (`|`); one that would read back as another
//!    type (`"true"`, `"1.0"`, `"null"`, `""`, a timestamp, a base-60 float such as `"1:20"`) asks
//!    for double quotes; any other asks to be plain.
//! 2. The emitter then looks at the text: plain is refused for leading or trailing spaces, line
//!    breaks, indicators (`- `, `: `, ` #`, a leading `[`, `&`, `*`, `!`, `'`...), and characters
//!    it will not print raw (tabs, control characters, characters beyond U+FFFF, U+FEFF), and
//!    falls back to single quotes; single quotes are refused for spaces next to line breaks and
//!    unprintable characters, and fall back to double quotes; a literal block is refused for
//!    trailing spaces and unprintable characters (double quotes) and in a simple key.
//! 3. Plain and quoted scalars outside keys fold at a space once the line is past 80 columns; a
//!    literal block is written as is, with `-`/`+` chomping and an indentation digit when it
//!    starts with a space or a break.
//!
//! Whether a string reads back as another type is asked of this crate's own YAML reader (one copy
//! of go-yaml v2's resolution rules): the text is read as a plain scalar, and as a `!!timestamp`.

use super::super::value::Value;
use super::super::yaml::{self as reader, Document};
use super::emitter::{Context, Emitter, INDENT, WIDTH};

/// A scalar style of go-yaml's emitter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Style {
    /// Unquoted.
    Plain,
    /// `'...'`.
    Single,
    /// `"..."`.
    Double,
    /// `|` block.
    Literal,
}

/// The style `stringv` asks for.
pub(super) fn string_style(s: &str) -> Style {
    if s.contains('\n') {
        Style::Literal
    } else if can_use_plain(s) {
        Style::Plain
    } else {
        Style::Double
    }
}

/// Whether the text holds a line break (go-yaml's `multiline`).
pub(super) fn is_multiline(s: &str) -> bool {
    s.chars().any(is_break)
}

/// Emit a scalar (`yaml_emitter_emit_scalar`).
pub(super) fn emit(e: &mut Emitter<'_>, value: &str, requested: Style, ctx: Context) {
    let style = select_style(&Analysis::of(value), value, requested, ctx.simple_key);
    e.increase_indent(true, false);
    let allow_breaks = !ctx.simple_key;
    match style {
        Style::Plain => write_plain(e, value, allow_breaks),
        Style::Single => write_single(e, value, allow_breaks),
        Style::Double => write_double(e, value, allow_breaks),
        Style::Literal => write_literal(e, value),
    }
    e.pop_indent();
}

/// `canUsePlain`: the text would read back, unquoted, as this same string.
fn can_use_plain(s: &str) -> bool {
    let Some(&first) = s.as_bytes().first() else {
        return false; // the empty scalar is null
    };
    let numeric = matches!(first, b'+' | b'-' | b'0'..=b'9');
    let word = matches!(first, b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~');
    // go-yaml resolves nothing else; the bool and null words are at most five bytes long.
    if !(numeric || first == b'.' || (word && s.len() <= 5)) {
        return true;
    }
    if !Analysis::of(s).block_plain {
        // Not a plain token, so not a number, bool, null or timestamp either.
        return true;
    }
    if numeric && (is_base60_float(s) || reads_as(&format!("!!timestamp {s}")).is_some()) {
        return false;
    }
    matches!(reads_as(s), Some(Value::String(t)) if t == s)
}

/// The value of `text` read as a one-document YAML file.
fn reads_as(text: &str) -> Option<Value> {
    match reader::parse(&Document::new(text, 1)) {
        Ok(Some(node)) => Some(node.value),
        _ => None,
    }
}

/// `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$` (YAML 1.1 base-60 floats, which go-yaml
/// quotes for other parsers' sake).
fn is_base60_float(s: &str) -> bool {
    let b = s.strip_prefix(['+', '-']).unwrap_or(s).as_bytes();
    let mut i = 0;
    if !b.first().is_some_and(u8::is_ascii_digit) {
        return false;
    }
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        i += 1;
    }
    let mut groups = 0;
    while i < b.len() && b[i] == b':' {
        let digits = b[i + 1..].iter().take(2).take_while(|c| c.is_ascii_digit()).count();
        let ok = match digits {
            1 => true,
            2 => b[i + 1] <= b'5',
            _ => false,
        };
        if !ok {
            return false;
        }
        i += 1 + digits;
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
    }
    i == b.len()
}

/// What `yaml_emitter_analyze_scalar` finds out about a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Analysis {
    multiline: bool,
    block_plain: bool,
    single_quoted: bool,
    block: bool,
}

impl Analysis {
    fn of(value: &str) -> Analysis {
        if value.is_empty() {
            return Analysis { multiline: false, block_plain: true, single_quoted: true, block: false };
        }
        let chars: Vec<char> = value.chars().collect();
        let mut block_indicators = value.starts_with("---") || value.starts_with("...");
        let (mut line_breaks, mut special) = (false, false);
        let (mut leading_space, mut leading_break, mut trailing_space, mut trailing_break) =
            (false, false, false, false);
        let (mut break_space, mut space_break) = (false, false);
        let (mut previous_space, mut previous_break) = (false, false);
        let mut preceded_by_whitespace = true;
        let last = chars.len() - 1;
        for (i, &c) in chars.iter().enumerate() {
            let followed_by_whitespace = i == last || matches!(chars[i + 1], ' ' | '\t');
            if i == 0 {
                match c {
                    '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"' | '%' | '@' | '`' => {
                        block_indicators = true
                    }
                    '?' | ':' | '-' if followed_by_whitespace => block_indicators = true,
                    _ => {}
                }
            } else {
                match c {
                    ':' if followed_by_whitespace => block_indicators = true,
                    '#' if preceded_by_whitespace => block_indicators = true,
                    _ => {}
                }
            }
            special |= !is_printable(c);
            if c == ' ' {
                leading_space |= i == 0;
                trailing_space |= i == last;
                break_space |= previous_break;
                (previous_space, previous_break) = (true, false);
            } else if is_break(c) {
                line_breaks = true;
                leading_break |= i == 0;
                trailing_break |= i == last;
                space_break |= previous_space;
                (previous_space, previous_break) = (false, true);
            } else {
                (previous_space, previous_break) = (false, false);
            }
            preceded_by_whitespace = matches!(c, ' ' | '\t' | '\0') || is_break(c);
        }
        let edges = leading_space || leading_break || trailing_space || trailing_break;
        Analysis {
            multiline: line_breaks,
            block_plain: !(edges || break_space || space_break || special || line_breaks || block_indicators),
            single_quoted: !(break_space || space_break || special),
            block: !(trailing_space || space_break || special),
        }
    }
}

/// `yaml_emitter_select_scalar_style` in block context, for untagged scalars.
fn select_style(a: &Analysis, value: &str, requested: Style, simple_key: bool) -> Style {
    let mut style = requested;
    if simple_key && a.multiline {
        style = Style::Double;
    }
    if style == Style::Plain && (!a.block_plain || (value.is_empty() && simple_key)) {
        style = Style::Single;
    }
    if style == Style::Single && !a.single_quoted {
        style = Style::Double;
    }
    if style == Style::Literal && (!a.block || simple_key) {
        style = Style::Double;
    }
    style
}

/// libyaml's `is_printable` on a whole character.
fn is_printable(c: char) -> bool {
    matches!(c as u32, 0x0A | 0x20..=0x7E | 0xA0..=0xD7FF | 0xE000..=0xFFFD) && c != '\u{FEFF}'
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn write_plain(e: &mut Emitter<'_>, value: &str, allow_breaks: bool) {
    if !e.whitespace {
        e.put(' ');
    }
    let chars: Vec<char> = value.chars().collect();
    let (mut spaces, mut breaks) = (false, false);
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            if allow_breaks && !spaces && e.column > WIDTH && chars.get(i + 1) != Some(&' ') {
                e.write_indent();
            } else {
                e.write(c);
            }
            spaces = true;
        } else if is_break(c) {
            if !breaks && c == '\n' {
                e.put_break();
            }
            e.write_break(c);
            e.indention = true;
            breaks = true;
        } else {
            if breaks {
                e.write_indent();
            }
            e.write(c);
            e.indention = false;
            (spaces, breaks) = (false, false);
        }
    }
    e.whitespace = false;
    e.indention = false;
}

fn write_single(e: &mut Emitter<'_>, value: &str, allow_breaks: bool) {
    e.write_indicator("'", true, false, false);
    let chars: Vec<char> = value.chars().collect();
    let (mut spaces, mut breaks) = (false, false);
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let inner = i > 0 && i + 1 < chars.len() && chars[i + 1] != ' ';
            if allow_breaks && !spaces && e.column > WIDTH && inner {
                e.write_indent();
            } else {
                e.write(c);
            }
            spaces = true;
        } else if is_break(c) {
            if !breaks && c == '\n' {
                e.put_break();
            }
            e.write_break(c);
            e.indention = true;
            breaks = true;
        } else {
            if breaks {
                e.write_indent();
            }
            if c == '\'' {
                e.put('\'');
            }
            e.write(c);
            e.indention = false;
            (spaces, breaks) = (false, false);
        }
    }
    e.write_indicator("'", false, false, false);
    e.whitespace = false;
    e.indention = false;
}

fn write_double(e: &mut Emitter<'_>, value: &str, allow_breaks: bool) {
    e.write_indicator("\"", true, false, false);
    let chars: Vec<char> = value.chars().collect();
    let mut spaces = false;
    for (i, &c) in chars.iter().enumerate() {
        if !is_printable(c) || c == '\u{FEFF}' || is_break(c) || c == '"' || c == '\\' {
            for p in escape(c).chars() {
                e.put(p);
            }
            spaces = false;
        } else if c == ' ' {
            if allow_breaks && !spaces && e.column > WIDTH && i > 0 && i + 1 < chars.len() {
                e.write_indent();
                if chars[i + 1] == ' ' {
                    e.put('\\');
                }
            } else {
                e.write(c);
            }
            spaces = true;
        } else {
            e.write(c);
            spaces = false;
        }
    }
    e.write_indicator("\"", false, false, false);
    e.whitespace = false;
    e.indention = false;
}

/// A double-quoted escape as libyaml writes it (upper-case hex).
fn escape(c: char) -> String {
    let short = match c {
        '\0' => "0",
        '\u{7}' => "a",
        '\u{8}' => "b",
        '\t' => "t",
        '\n' => "n",
        '\u{b}' => "v",
        '\u{c}' => "f",
        '\r' => "r",
        '\u{1b}' => "e",
        '"' => "\"",
        '\\' => "\\",
        '\u{85}' => "N",
        '\u{a0}' => "_",
        '\u{2028}' => "L",
        '\u{2029}' => "P",
        _ => "",
    };
    if !short.is_empty() {
        return format!("\\{short}");
    }
    match c as u32 {
        v @ 0..=0xFF => format!("\\x{v:02X}"),
        v @ 0x100..=0xFFFF => format!("\\u{v:04X}"),
        v => format!("\\U{v:08X}"),
    }
}

fn write_literal(e: &mut Emitter<'_>, value: &str) {
    e.write_indicator("|", true, false, false);
    if value.starts_with(|c: char| c == ' ' || is_break(c)) {
        e.write_indicator(&INDENT.to_string(), false, false, false);
    }
    if let Some(chomp) = chomping(value) {
        e.write_indicator(chomp, false, false, false);
    }
    e.put_break();
    e.indention = true;
    e.whitespace = true;
    let mut breaks = true;
    for c in value.chars() {
        if is_break(c) {
            e.write_break(c);
            e.indention = true;
            breaks = true;
        } else {
            if breaks {
                e.write_indent();
                breaks = false;
            }
            e.write(c);
            e.indention = false;
        }
    }
}

/// The chomping indicator: `-` without a final break, none for exactly one, `+` for more (or a
/// text that is a single break).
fn chomping(value: &str) -> Option<&'static str> {
    let mut rev = value.chars().rev();
    match (rev.next(), rev.next()) {
        (None, _) => Some("-"),
        (Some(last), _) if !is_break(last) => Some("-"),
        (Some(_), None) => Some("+"),
        (Some(_), Some(before)) if is_break(before) => Some("+"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::yaml::write_document;
    use super::*;
    use crate::declcfg::value::{Member, Node, Pos};

    /// `k: <value>`, as go-yaml writes a one-member mapping.
    fn entry(value: &str) -> String {
        let value = Node::new(Pos::default(), Value::String(value.into()));
        let member = Member { key: "k".into(), key_pos: Pos::default(), value };
        let mut out = String::new();
        write_document(&Node::new(Pos::default(), Value::Object(Box::new([member]))), &mut out);
        out
    }

    #[test]
    fn strings_that_read_back_as_other_types_are_double_quoted() {
        let typed = ["true", "no", "On", "~", "null", "", "1", "-1.5", "0x1F", ".inf", "1e3", "2023-01-02", "1:20"];
        for s in typed {
            assert_eq!(entry(s), format!("k: \"{s}\"\n"), "{s:?}");
        }
        for s in ["1.2.3", "v1", "nope", "truex", "0.1.0-alpha", "1:60"] {
            assert_eq!(entry(s), format!("k: {s}\n"), "{s:?}");
        }
    }

    #[test]
    fn indicators_and_edge_spaces_take_single_quotes() {
        assert_eq!(entry(">=4.1.0 <4.2.0"), "k: '>=4.1.0 <4.2.0'\n");
        assert_eq!(entry("a: b"), "k: 'a: b'\n");
        assert_eq!(entry(" lead"), "k: ' lead'\n");
        assert_eq!(entry("it's"), "k: it's\n");
        assert_eq!(entry("it's #1"), "k: 'it''s #1'\n");
        assert_eq!(entry("- x"), "k: '- x'\n");
        assert_eq!(entry("-"), "k: '-'\n");
        assert_eq!(entry("a #b"), "k: 'a #b'\n");
        assert_eq!(entry("'q'"), "k: '''q'''\n");
    }

    #[test]
    fn unprintable_characters_take_double_quotes_with_libyaml_escapes() {
        assert_eq!(entry("a\tb"), "k: \"a\\tb\"\n");
        assert_eq!(entry("cat \u{1F431}"), "k: \"cat \\U0001F431\"\n");
        assert_eq!(entry("\u{1}"), "k: \"\\x01\"\n");
        assert_eq!(entry("\u{feff}"), "k: \"\\uFEFF\"\n");
        assert_eq!(entry("é ü"), "k: é ü\n");
    }

    #[test]
    fn multi_line_strings_are_literal_blocks_with_chomping() {
        assert_eq!(entry("a\nb"), "k: |-\n  a\n  b\n");
        assert_eq!(entry("a\n\nb\n"), "k: |\n  a\n\n  b\n");
        assert_eq!(entry("a\n\n"), "k: |+\n  a\n\n");
        assert_eq!(entry(" a\nb"), "k: |2-\n   a\n  b\n");
        // A space before a break rules the block out.
        assert_eq!(entry("a \nb"), "k: \"a \\nb\"\n");
    }

    #[test]
    fn long_plain_and_quoted_strings_fold_at_a_space_past_80_columns() {
        let text = ["word"; 30].join(" ");
        let got = entry(&text);
        let lines: Vec<&str> = got.lines().collect();
        // The first space once the line is past column 80 ("k: " + 16 words = 82) breaks it.
        assert_eq!(lines[0].len(), 82, "{got}");
        assert!(lines[1].starts_with("  word"), "{got}");
        let quoted = entry(&format!("{text}:"));
        assert!(quoted.starts_with("k: 'word") && quoted.lines().count() == 2, "{quoted}");
    }

    #[test]
    fn base60_floats() {
        assert!(is_base60_float("1:20"));
        assert!(is_base60_float("-190:20:30.15"));
        assert!(!is_base60_float("1:60"));
        assert!(!is_base60_float("a:1"));
        assert!(!is_base60_float("1"));
    }
}
