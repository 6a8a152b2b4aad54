//! Input bounds checked on the raw rule text before cel-rust's recursive parser sees it: the
//! source size (cel-go's limit), bracket nesting and the number of chain operators (ours, so
//! that no rule can exhaust the stack of cel-rust's parser and interpreter).
//!
//! The scan skips string literals and comments exactly as the CEL grammar delimits them;
//! anything that is not a valid literal is scanned as code, so the counts can only be too high,
//! never too low.

/// The deepest bracket nesting (`(`, `[`, `{`) a rule may have; deeper rules are compile errors.
///
/// cel-rust's parser, visitor and interpreter recurse once per level (and its parser stops at 96
/// levels anyway); the limit keeps every input well inside a 1 MiB stack.
pub(super) const MAX_NESTING: usize = 64;

/// The most binary operators (other than `&&` and `||`), `in`, member accesses (`.`) and index
/// brackets a rule may contain in total; rules with more are compile errors.
///
/// A chain such as `a + b + c` or `a.b.c` nests one level per operator in cel-rust's parse tree
/// and AST, which are walked recursively, at about 1 KiB of wasm stack per level in release
/// builds: about 900 levels exhaust the default 1 MiB wasm stack. 256 leaves a margin of almost
/// 3 for the caller's frames. The count is conservative: unary minus and the dot of a float
/// literal count too. `&&` and `||` are not counted: cel-rust balances them. A long list of
/// alternatives is better written with `in`: `p.value.packageName in ['a', 'b']`.
pub(super) const MAX_CHAIN: usize = 256;

/// The longest rule, in code points: cel-go's default parser limit, which OLM keeps.
pub(super) const MAX_CODE_POINTS: usize = 100_000;

/// cel-go's error for a rule longer than [`MAX_CODE_POINTS`] (no position, no excerpt).
pub(super) fn check_size(rule: &str) -> Result<(), String> {
    let size = rule.chars().count();
    if size > MAX_CODE_POINTS {
        return Err(format!("expression code point size exceeds limit: size: {size}, limit {MAX_CODE_POINTS}"));
    }
    Ok(())
}

/// Lexical bounds on the raw text: bracket nesting at most [`MAX_NESTING`], chain operators at
/// most [`MAX_CHAIN`]. Returns the byte offset and message of the first violation.
pub(super) fn precheck(src: &str) -> Result<(), (usize, String)> {
    let cs: Vec<(usize, char)> = src.char_indices().collect();
    let mut i = 0;
    let mut depth = 0usize;
    let mut chain = 0usize;
    while i < cs.len() {
        let (offset, c) = cs[i];
        let (next, counted) = scan_one(&cs, i);
        chain += counted;
        match c {
            '(' | '[' | '{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    let message = format!("expression nesting exceeds the limit of {MAX_NESTING} levels of brackets");
                    return Err((offset, message));
                }
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if chain > MAX_CHAIN {
            let message = format!("expression exceeds the limit of {MAX_CHAIN} operators, member accesses and indexes");
            return Err((offset, message));
        }
        i = next;
    }
    Ok(())
}

/// One lexical step of [`precheck`] at `i`: the index after the comment, literal, word, number
/// or single character there, and how many chain operators it counts for.
fn scan_one(cs: &[(usize, char)], i: usize) -> (usize, usize) {
    let at = |k: usize| cs.get(k).map(|c| c.1);
    let word_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut next = i + 1;
    match cs[i].1 {
        '/' if at(i + 1) == Some('/') => {
            while next < cs.len() && cs[next].1 != '\n' {
                next += 1;
            }
            (next, 0)
        }
        '\'' | '"' => (string_end(cs, i, false).unwrap_or(i + 1), 0),
        c if c.is_ascii_alphabetic() || c == '_' => {
            while at(next).is_some_and(word_char) {
                next += 1;
            }
            let word: String = cs[i..next].iter().map(|c| c.1).collect();
            if word == "in" {
                return (next, 1);
            }
            let prefix = matches!(word.as_str(), "r" | "R" | "b" | "B" | "br" | "bR" | "Br" | "BR");
            if prefix && matches!(at(next), Some('\'' | '"')) {
                if let Some(end) = string_end(cs, next, word.contains(['r', 'R'])) {
                    next = end;
                }
            }
            (next, 0)
        }
        c if c.is_ascii_digit() => {
            while at(next).is_some_and(word_char) {
                next += 1;
            }
            (next, 0)
        }
        '[' | '.' | '+' | '-' | '*' | '/' | '%' | '<' | '>' | '?' => (next, 1),
        '=' | '!' if at(i + 1) == Some('=') => (i + 2, 1),
        _ => (next, 0),
    }
}

/// The index after the string literal whose opening quote is at `i` (prefix already read),
/// as the CEL grammar's `STRING` rule and ANTLR's longest match delimit it; `None` when no
/// valid literal starts there (the lexer then reports an error and goes on with the text
/// after it, which the caller scans as code).
pub(super) fn string_end(cs: &[(usize, char)], i: usize, raw: bool) -> Option<usize> {
    let at = |k: usize| cs.get(k).map(|c| c.1);
    let quote = at(i)?;
    if at(i + 1) == Some(quote) && at(i + 2) == Some(quote) {
        let mut j = i + 3;
        loop {
            match at(j) {
                None => break,
                Some(c) if c == quote && at(j + 1) == Some(quote) && at(j + 2) == Some(quote) => return Some(j + 3),
                Some('\\') if !raw => match escape_len(cs, j) {
                    Some(n) => j += n,
                    None => break,
                },
                Some(_) => j += 1,
            }
        }
        // No valid triple-quoted literal: the longest match is the empty literal `''`.
        return Some(i + 2);
    }
    let mut j = i + 1;
    loop {
        match at(j)? {
            c if c == quote => return Some(j + 1),
            '\n' | '\r' => return None,
            '\\' if !raw => j += escape_len(cs, j)?,
            _ => j += 1,
        }
    }
}

/// The length of the escape sequence starting with the backslash at `j`, `None` if invalid.
pub(super) fn escape_len(cs: &[(usize, char)], j: usize) -> Option<usize> {
    let at = |k: usize| cs.get(k).map(|c| c.1);
    let hex = |k: usize| at(k).is_some_and(|c| c.is_ascii_hexdigit());
    let octal = |k: usize| at(k).is_some_and(|c| ('0'..='7').contains(&c));
    match at(j + 1)? {
        'a' | 'b' | 'f' | 'n' | 'r' | 't' | 'v' | '"' | '\'' | '\\' | '?' | '`' => Some(2),
        'x' | 'X' if hex(j + 2) && hex(j + 3) => Some(4),
        'u' if (2..6).all(|k| hex(j + k)) => Some(6),
        'U' if (2..10).all(|k| hex(j + k)) => Some(10),
        '0'..='3' if octal(j + 2) && octal(j + 3) => Some(4),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    //! The bounds: what is rejected, where, and that rules right at the limits still work.

    use super::*;
    use crate::test_util::{compile_error, eval, with_big_stack};

    #[test]
    fn too_long_rules_are_rejected_with_cel_gos_text() {
        let rule = format!("'{}' == ''", "x".repeat(MAX_CODE_POINTS));
        let text = compile_error(&rule);
        assert_eq!(
            text,
            format!("expression code point size exceeds limit: size: {}, limit 100000", MAX_CODE_POINTS + 8)
        );
    }

    #[test]
    fn deep_nesting_and_long_chains_are_rejected_without_recursion() {
        // Run on a small stack: the rejection must not go near cel-rust's parser.
        let text = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(|| {
                let deep = "(".repeat(5000) + "true" + &")".repeat(5000);
                let chain = "1 + ".repeat(5000) + "1 == 1";
                let members = "properties".to_string() + &".a".repeat(5000) + " == 1";
                let lists = "[".repeat(5000) + &"]".repeat(5000) + " == []";
                let unclosed = "(".repeat(100_000);
                [deep, chain, members, lists, unclosed].map(|rule| compile_error(&rule))
            })
            .unwrap()
            .join()
            .unwrap();
        assert!(text[0].starts_with("ERROR: <input>:1:65: expression nesting exceeds the limit of 64"), "{}", text[0]);
        let chain = format!("expression exceeds the limit of {MAX_CHAIN} operators");
        assert!(text[1].contains(&chain), "{}", text[1]);
        assert!(text[2].contains(&chain), "{}", text[2]);
        assert!(text[3].contains("expression nesting exceeds the limit"), "{}", text[3]);
        assert!(text[4].contains("expression nesting exceeds the limit"), "{}", text[4]);
    }

    #[test]
    fn rules_at_the_limits_work() {
        with_big_stack(|| {
            let n = MAX_NESTING;
            assert!(eval(&("(".repeat(n) + "true" + &")".repeat(n)), &[]));
            compile_error(&("(".repeat(n + 1) + "true" + &")".repeat(n + 1)));
            let ops = MAX_CHAIN - 1;
            assert!(eval(&("1 + ".repeat(ops) + "1 == " + &(ops + 1).to_string()), &[]));
            compile_error(&("1 + ".repeat(ops + 1) + "1 == 1"));
            // Ternaries nest without brackets: each counts toward the operator limit.
            assert!(eval(&("false ? false : ".repeat(100) + "true"), &[]));
            let text = compile_error(&("false ? false : ".repeat(MAX_CHAIN + 1) + "true"));
            assert!(text.contains("operators"), "{text}");
            // `&&`/`||` do not count: cel-rust balances them.
            let long = vec!["false && true"; 3000].join(" || ") + " || !false";
            assert!(eval(&long, &[]));
        });
    }

    #[test]
    fn literals_in_strings_and_comments_do_not_count() {
        let parens = "(".repeat(200);
        let dots = ".".repeat(2000);
        assert!(eval(&format!("'{parens}' != '{dots}' // {parens}{dots}\n"), &[]));
        assert!(eval(&format!("r'{parens}' != b\"{dots}\" && '''{parens}\n{dots}''' != ''"), &[]));
    }

    #[test]
    fn precheck_skips_exactly_the_string_literals() {
        // Valid literals are skipped, whatever they contain.
        assert_eq!(precheck(&format!("'{}'", "(".repeat(100))), Ok(()));
        assert_eq!(precheck(&format!("'\\'{}'", "(".repeat(100))), Ok(()));
        assert_eq!(precheck(&format!("'''{}\n'''", "(".repeat(100))), Ok(()));
        // Not literals (invalid escape, newline, unterminated): scanned as code.
        assert!(precheck(&format!("'\\q{}'", "(".repeat(100))).is_err());
        assert!(precheck(&format!("'\n{}'", "(".repeat(100))).is_err());
        assert!(precheck(&format!("'''{}", "(".repeat(100))).is_err());
        // In a raw literal a backslash escapes nothing: r'\' ends at its second quote.
        assert!(precheck(&format!("r'\\'{}'", "(".repeat(100))).is_err());
        // `xr` is an identifier, not a raw prefix: the string is not raw and `\'` escapes.
        assert_eq!(precheck(&format!("xr'\\'{}'", "(".repeat(100))), Ok(()));
    }
}
