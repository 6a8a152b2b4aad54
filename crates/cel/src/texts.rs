//! cel-go's issue texts: where an issue is (1-based line and column in code points) and how it
//! is laid out: `ERROR: <input>:L:C: message`, then the source line and a marker line with a
//! dot per code point before the column and a caret under it (full-width `．` and `＾` for
//! characters that take more than one byte in UTF-8, as cel-go's `Error.ToDisplayString`
//! prints them). Several issues follow each other on separate lines, in source order.

use cel::ParseErrors;

/// cel-go prints no excerpt for a source line longer than this many bytes (`maxSnippetLength`).
const MAX_SNIPPET_BYTES: usize = 16_384;

/// One issue at a 1-based line and column (code points).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Issue {
    /// 1-based line.
    pub(super) line: usize,
    /// 1-based column, in code points.
    pub(super) column: usize,
    /// cel-go's message, without location.
    pub(super) message: String,
}

impl Issue {
    /// An issue at a byte offset of `src`.
    pub(super) fn at_offset(src: &str, offset: usize, message: String) -> Issue {
        let (line, column) = line_column(src, offset);
        Issue { line, column, message }
    }
}

/// Issues as cel-go displays a list of them: sorted by position (stable, so issues at one place
/// keep their order), each with its excerpt, joined by newlines.
pub(super) fn display(src: &str, mut issues: Vec<Issue>) -> String {
    crate::sort::sort_by_key(&mut issues, |issue| (issue.line, issue.column));
    let text: Vec<String> = issues.iter().map(|i| located(src, i.line, i.column, &i.message)).collect();
    text.join("\n")
}

/// 1-based line and column (in code points) of a byte offset.
pub(super) fn line_column(src: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(src.len());
    while !src.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// One issue as cel-go displays it: `ERROR: <input>:line:column: message`, then the source
/// line and a marker under the column.
pub(super) fn located(src: &str, line: usize, column: usize, message: &str) -> String {
    let mut out = format!("ERROR: <input>:{line}:{column}: {message}");
    let Some(text) = line.checked_sub(1).and_then(|l| src.split('\n').nth(l)) else {
        return out;
    };
    let text = text.trim_end_matches('\r').replace('\t', " ");
    if text.len() > MAX_SNIPPET_BYTES {
        return out;
    }
    out.push_str("\n | ");
    out.push_str(&text);
    out.push_str("\n | ");
    let mut chars = text.chars();
    for _ in 1..column {
        match chars.next() {
            Some(c) if c.len_utf8() > 1 => out.push('．'),
            Some(_) => out.push('.'),
            None => break,
        }
    }
    out.push(if chars.next().is_some_and(|c| c.len_utf8() > 1) { '＾' } else { '^' });
    out
}

/// The checker's findings as cel-go's issue list. The Pratt parser keeps no node positions, so
/// each finding is placed by [`offset_of`].
pub(super) fn checker_issues(rule: &str, findings: Vec<(u64, String)>) -> String {
    let mut issues: Vec<(usize, String)> =
        findings.into_iter().map(|(_, message)| (offset_of(rule, &message), message)).collect();
    crate::sort::sort(&mut issues);
    issues.dedup();
    display(rule, issues.into_iter().map(|(offset, message)| Issue::at_offset(rule, offset, message)).collect())
}

/// cel-rust's parse errors in cel-go's layout, for the errors the syntax module does not word
/// itself (cel-go's own checks after parsing: reserved identifiers, macro arguments, optional
/// syntax, literals out of range). cel-rust gives byte columns; cel-go counts code points.
pub(super) fn parse_errors(src: &str, errors: &ParseErrors) -> String {
    let issues: Vec<Issue> = errors
        .errors
        .iter()
        .map(|e| {
            let message = if e.msg.contains("Recursion limit of") {
                String::from("Syntax error: expression recursion limit exceeded")
            } else if e.msg == "UNKNOWN" {
                match &e.source {
                    Some(source) => format!("Syntax error: {source}"),
                    None => String::from("Syntax error"),
                }
            } else {
                e.msg.clone()
            };
            let line = usize::try_from(e.pos.0).unwrap_or(0);
            let byte_column = usize::try_from(e.pos.1).unwrap_or(0);
            Issue { line, column: code_point_column(src, line, byte_column), message }
        })
        .collect();
    if issues.is_empty() {
        String::from("ERROR: <input>:1:1: Syntax error")
    } else {
        display(src, issues)
    }
}

/// The 1-based code-point column of a 1-based byte column on a 1-based line.
fn code_point_column(src: &str, line: usize, byte_column: usize) -> usize {
    let Some(text) = line.checked_sub(1).and_then(|l| src.split('\n').nth(l)) else {
        return byte_column;
    };
    let mut bytes = byte_column.saturating_sub(1).min(text.len());
    while !text.is_char_boundary(bytes) {
        bytes -= 1;
    }
    text[..bytes].chars().count() + 1
}

/// Where a checker finding points: the Pratt parser keeps no node positions, so a finding
/// about a name (`... '<name>' ...`) points at the first occurrence of that name as a token
/// outside string literals, and any other finding at the start of the rule.
fn offset_of(rule: &str, message: &str) -> usize {
    let Some(name) = message.split('\'').nth(1).filter(|n| !n.is_empty()) else {
        return 0;
    };
    let bytes = rule.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            q @ (b'\'' | b'"') => {
                // Skip a string literal (escapes included).
                i += 1;
                while i < bytes.len() && bytes[i] != q {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                if &rule[start..i] == name && !binds_macro_variable(rule, start) {
                    // cel-go points a call at its opening bracket.
                    let j = rule.len() - rule[i..].trim_start_matches(|c: char| c.is_ascii_whitespace()).len();
                    return if bytes.get(j) == Some(&b'(') { j } else { start };
                }
            }
            _ => i += 1,
        }
    }
    0
}

/// Whether the text before `start` ends with a macro call's opening bracket: `x` in
/// `.exists(x, ...)` is the macro's own variable, not a reference.
fn binds_macro_variable(rule: &str, start: usize) -> bool {
    let before = rule[..start].trim_end();
    before
        .strip_suffix('(')
        .is_some_and(|b| ["exists", "all", "exists_one", "existsOne", "map", "filter"].iter().any(|m| b.ends_with(m)))
}

#[cfg(test)]
mod tests {
    //! The layout of issues: positions in code points and lines, the excerpt and its marker,
    //! and the order of several issues.

    use super::*;
    use crate::test_util::compile_error;

    #[test]
    fn an_issue_shows_its_line_and_a_caret_under_the_column() {
        assert_eq!(located("a + b", 1, 5, "m"), "ERROR: <input>:1:5: m\n | a + b\n | ....^");
        // Past the end of the line (the end of the input): dots up to the end, then the caret.
        assert_eq!(located("a +", 1, 4, "m"), "ERROR: <input>:1:4: m\n | a +\n | ...^");
        // Tabs are shown as spaces.
        assert_eq!(located("\ta", 1, 2, "m"), "ERROR: <input>:1:2: m\n |  a\n | .^");
    }

    #[test]
    fn wide_characters_get_full_width_markers() {
        // As cel-go: a character of more than one UTF-8 byte before the column is marked `．`,
        // one under the column `＾`.
        assert_eq!(located("'é' == x", 1, 8, "m"), "ERROR: <input>:1:8: m\n | 'é' == x\n | .．.....^");
        assert_eq!(located("a && 😁", 1, 6, "m"), "ERROR: <input>:1:6: m\n | a && 😁\n | .....＾");
    }

    #[test]
    fn very_long_lines_get_no_excerpt() {
        let long = "x".repeat(MAX_SNIPPET_BYTES + 1);
        assert_eq!(located(&long, 1, 1, "m"), "ERROR: <input>:1:1: m");
    }

    #[test]
    fn positions_count_code_points_and_lines() {
        assert_eq!(line_column("'é' == x", "'é' == ".len()), (1, 8));
        let text = compile_error("'é' == x");
        assert!(text.starts_with("ERROR: <input>:1:8: undeclared reference to 'x'"), "{text}");
        let text = compile_error("true &&\n  y");
        assert!(text.starts_with("ERROR: <input>:2:3: undeclared reference to 'y'"), "{text}");
        assert!(text.ends_with("\n |   y\n | ..^"), "{text}");
    }

    #[test]
    fn several_issues_come_in_source_order() {
        let text = compile_error("b == 1 || a == 2");
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("ERROR")).collect();
        assert_eq!(
            lines,
            [
                "ERROR: <input>:1:1: undeclared reference to 'b' (in container '')",
                "ERROR: <input>:1:11: undeclared reference to 'a' (in container '')"
            ]
        );
    }

    #[test]
    fn a_call_is_pointed_at_its_opening_bracket_and_macro_variables_are_skipped() {
        assert_eq!(offset_of("x.exists(foo, foo(1))", "undeclared reference to 'foo'"), 17);
        assert_eq!(offset_of("'foo' == foo", "undeclared reference to 'foo'"), 9);
        assert_eq!(offset_of("1 == 1", "found no matching overload"), 0);
    }
}
