//! The lexer for the CEL grammar's tokens as cel-go's ANTLR-generated lexer reads them: the
//! longest match at each position, and on an error, the offending text reported and skipped.

use super::*;

/// What the lexer makes of the text at one position.
enum Lexed {
    /// A token of this kind ending before this index (whitespace and comments included).
    Token(Kind, usize),
    /// No token: the longest attempt failed at this index (the text up to and including it is
    /// the error's; lexing resumes after it).
    Error(usize),
}

/// The tokens of `chars` (whitespace and comments included, `EOF` last), and the lexer's
/// errors as (code-point index, message).
pub(super) fn lex(chars: &[char]) -> (Vec<Token>, Vec<(usize, String)>) {
    let mut tokens = Vec::new();
    let mut errors = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match lex_one(chars, i) {
            Lexed::Token(kind, end) => {
                tokens.push(Token { kind, start: i, end });
                i = end;
            }
            Lexed::Error(fail) => {
                let text: String = chars[i..(fail + 1).min(chars.len())].iter().collect();
                errors.push((i, format!("token recognition error at: '{text}'")));
                i = (fail + 1).min(chars.len()).max(i + 1);
            }
        }
    }
    tokens.push(Token { kind: Kind::Eof, start: chars.len(), end: chars.len() });
    (tokens, errors)
}

/// The token (or error) starting at `i`.
fn lex_one(cs: &[char], i: usize) -> Lexed {
    use Kind::*;
    let at = |k: usize| cs.get(k).copied();
    let two = |second: char, kind: Kind, single: Option<Kind>| match (at(i + 1) == Some(second), single) {
        (true, _) => Lexed::Token(kind, i + 2),
        (false, Some(single)) => Lexed::Token(single, i + 1),
        (false, None) => Lexed::Error(i + 1),
    };
    match cs[i] {
        '\t' | ' ' | '\r' | '\n' | '\u{c}' => {
            let end = (i..cs.len()).find(|&k| !matches!(cs[k], '\t' | ' ' | '\r' | '\n' | '\u{c}')).unwrap_or(cs.len());
            Lexed::Token(Whitespace, end)
        }
        '/' if at(i + 1) == Some('/') => {
            Lexed::Token(Comment, (i..cs.len()).find(|&k| cs[k] == '\n').unwrap_or(cs.len()))
        }
        '=' => two('=', Equals, None),
        '!' => two('=', NotEquals, Some(Exclam)),
        '<' => two('=', LessEquals, Some(Less)),
        '>' => two('=', GreaterEquals, Some(Greater)),
        '&' => two('&', And, None),
        '|' => two('|', Or, None),
        '.' if at(i + 1).is_some_and(|c| c.is_ascii_digit()) => number(cs, i),
        '0'..='9' => number(cs, i),
        '\'' | '"' => match quoted(cs, i, false) {
            Ok(end) => Lexed::Token(String, end),
            Err(fail) => Lexed::Error(fail),
        },
        '`' => escaped_ident(cs, i),
        c if c.is_ascii_alphabetic() || c == '_' => word(cs, i),
        c => match single(c) {
            Some(kind) => Lexed::Token(kind, i + 1),
            None => Lexed::Error(i),
        },
    }
}

/// The one-character tokens.
fn single(c: char) -> Option<Kind> {
    use Kind::*;
    Some(match c {
        '[' => LBracket,
        ']' => RBracket,
        '{' => LBrace,
        '}' => RBrace,
        '(' => LParen,
        ')' => RParen,
        '.' => Dot,
        ',' => Comma,
        '-' => Minus,
        '?' => Question,
        ':' => Colon,
        '+' => Plus,
        '*' => Star,
        '/' => Slash,
        '%' => Percent,
        _ => return None,
    })
}

/// `NUM_INT`, `NUM_UINT` or `NUM_FLOAT` at `i`, the longest that matches.
fn number(cs: &[char], i: usize) -> Lexed {
    let at = |k: usize| cs.get(k).copied();
    let digit = |k: usize| at(k).is_some_and(|c| c.is_ascii_digit());
    let digits_end = |mut k: usize| {
        while digit(k) {
            k += 1;
        }
        k
    };
    let exponent_end = |k: usize| {
        if !matches!(at(k), Some('e' | 'E')) {
            return None;
        }
        let k = if matches!(at(k + 1), Some('+' | '-')) { k + 2 } else { k + 1 };
        digit(k).then(|| digits_end(k))
    };
    let unsigned = |k: usize| match at(k) {
        Some('u' | 'U') => Lexed::Token(Kind::Uint, k + 1),
        _ => Lexed::Token(Kind::Int, k),
    };
    if cs[i] == '.' {
        let end = digits_end(i + 1);
        return Lexed::Token(Kind::Float, exponent_end(end).unwrap_or(end));
    }
    if cs[i] == '0' && at(i + 1) == Some('x') && at(i + 2).is_some_and(|c| c.is_ascii_hexdigit()) {
        let mut k = i + 2;
        while at(k).is_some_and(|c| c.is_ascii_hexdigit()) {
            k += 1;
        }
        return unsigned(k);
    }
    let end = digits_end(i);
    if at(end) == Some('.') && digit(end + 1) {
        let fraction = digits_end(end + 1);
        return Lexed::Token(Kind::Float, exponent_end(fraction).unwrap_or(fraction));
    }
    match exponent_end(end) {
        Some(exponent) => Lexed::Token(Kind::Float, exponent),
        None => unsigned(end),
    }
}

/// An identifier or keyword at `i`, or a string or bytes literal with a prefix (`r`, `b`, `br`
/// ...) when one follows; the identifier when the literal fails.
fn word(cs: &[char], i: usize) -> Lexed {
    let mut end = i;
    while cs.get(end).is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_') {
        end += 1;
    }
    let word: std::string::String = cs[i..end].iter().collect();
    if matches!(cs.get(end), Some('\'' | '"')) {
        let lower = word.to_ascii_lowercase();
        let (raw, bytes) = match lower.as_str() {
            "r" => (true, false),
            "b" => (false, true),
            "br" => (true, true),
            _ => (false, false),
        };
        if raw || bytes {
            if let Ok(literal_end) = quoted(cs, end, raw) {
                return Lexed::Token(if bytes { Kind::Bytes } else { Kind::String }, literal_end);
            }
        }
    }
    let kind = match word.as_str() {
        "true" => Kind::True,
        "false" => Kind::False,
        "null" => Kind::Null,
        "in" => Kind::In,
        _ => Kind::Ident,
    };
    Lexed::Token(kind, end)
}

/// The end of the quoted literal whose opening quote is at `i`, or the index where it fails.
/// A triple quote that is never closed leaves the empty literal of its first two quotes.
fn quoted(cs: &[char], i: usize, raw: bool) -> Result<usize, usize> {
    let quote = cs[i];
    let at = |k: usize| cs.get(k).copied();
    if at(i + 1) == Some(quote) && at(i + 2) == Some(quote) {
        let mut j = i + 3;
        while j < cs.len() {
            if cs[j] == quote && at(j + 1) == Some(quote) && at(j + 2) == Some(quote) {
                return Ok(j + 3);
            }
            j = if cs[j] == '\\' && !raw {
                match escape(cs, j) {
                    Ok(next) => next,
                    Err(_) => break,
                }
            } else {
                j + 1
            };
        }
        return Ok(i + 2);
    }
    let mut j = i + 1;
    loop {
        match at(j) {
            Some(c) if c == quote => return Ok(j + 1),
            None | Some('\n' | '\r') => return Err(j),
            Some('\\') if !raw => j = escape(cs, j)?,
            Some(_) => j += 1,
        }
    }
}

/// The index after the escape sequence whose backslash is at `j`, or where it fails.
fn escape(cs: &[char], j: usize) -> Result<usize, usize> {
    let digits = |from: usize, n: usize, ok: fn(char) -> bool| {
        (from..from + n).find(|&k| !cs.get(k).is_some_and(|c| ok(*c))).map_or(Ok(from + n), Err)
    };
    match cs.get(j + 1) {
        Some('a' | 'b' | 'f' | 'n' | 'r' | 't' | 'v' | '"' | '\'' | '\\' | '?' | '`') => Ok(j + 2),
        Some('x' | 'X') => digits(j + 2, 2, |c| c.is_ascii_hexdigit()),
        Some('u') => digits(j + 2, 4, |c| c.is_ascii_hexdigit()),
        Some('U') => digits(j + 2, 8, |c| c.is_ascii_hexdigit()),
        Some('0'..='3') => digits(j + 2, 2, |c| ('0'..='7').contains(&c)),
        _ => Err(j + 1),
    }
}

/// `ESC_IDENTIFIER`: a backquoted name of letters, digits and `_.-/ `.
fn escaped_ident(cs: &[char], i: usize) -> Lexed {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/' | ' ');
    let mut j = i + 1;
    while cs.get(j).is_some_and(|c| allowed(*c)) {
        j += 1;
    }
    if j > i + 1 && cs.get(j) == Some(&'`') {
        Lexed::Token(Kind::EscIdent, j + 1)
    } else {
        Lexed::Error(j)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lexer_takes_the_longest_match_and_falls_back() {
        let kinds = |src: &str| -> Vec<Kind> {
            let chars: Vec<char> = src.chars().collect();
            let (tokens, errors) = lex(&chars);
            assert!(errors.is_empty(), "{src}: {errors:?}");
            tokens.iter().map(|t| t.kind).filter(|k| !matches!(k, Kind::Whitespace | Kind::Comment)).collect()
        };
        use Kind::*;
        assert_eq!(kinds("1e"), [Int, Ident, Eof]);
        assert_eq!(kinds("1.5e-3 .5 1u 0x1F 0xu"), [Float, Float, Uint, Int, Int, Ident, Eof]);
        assert_eq!(kinds("1.a"), [Int, Dot, Ident, Eof]);
        assert_eq!(kinds("r'x' b\"y\" bR'z' rb'w'"), [String, Bytes, Bytes, Ident, String, Eof]);
        assert_eq!(kinds("true in null falsey"), [True, In, Null, Ident, Eof]);
        assert_eq!(
            kinds("a<=b!=c>d!e // x"),
            [Ident, LessEquals, Ident, NotEquals, Ident, Greater, Ident, Exclam, Ident, Eof]
        );
        // An unterminated triple quote leaves the empty string of its first two quotes.
        let chars: Vec<char> = "'''x'''".chars().collect();
        assert_eq!(lex(&chars).0.len(), 2);
        let chars: Vec<char> = "'''x".chars().collect();
        let (tokens, errors) = lex(&chars);
        assert_eq!((tokens[0].kind, tokens[0].end), (String, 2));
        assert_eq!(errors, [(2, "token recognition error at: ''x'".to_string())]);
    }
}
