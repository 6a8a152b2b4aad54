//! cel-go's syntax errors. cel-go parses with an ANTLR-generated parser, and its syntax errors
//! are ANTLR's: `token recognition error at: '...'` from the lexer, and `extraneous input ...
//! expecting ...`, `missing ... at ...`, `mismatched input ... expecting ...` and `no viable
//! alternative at input ...` from the parser's default error strategy, each prefixed with
//! `Syntax error: ` and placed at the offending token.
//!
//! cel-rust's hand-written parser words its errors differently (and accepts a few rules the
//! grammar does not, such as `!-x`), so every rule is first read here the way cel-go reads it:
//! a lexer for the CEL grammar's tokens with ANTLR's longest-match and error recovery (skip the
//! offending character), and a recursive descent over the grammar's rules that reports and
//! recovers as ANTLR's `DefaultErrorStrategy` does: `sync` before optional blocks and at the start of `unary` (delete one extraneous token,
//! or report a mismatch), `match` of a token (delete one extraneous token, insert a missing one
//! when the next token could follow it, or report a mismatch), no viable alternative where a
//! prediction fails, error recovery mode (no new report until a token is matched), and recovery
//! by skipping to a token that can follow one of the rules being parsed.
//!
//! It follows ANTLR for this grammar closely but not in every corner: its predictions look
//! ahead at most as far as the grammar needs for well-formed rules, where ANTLR's adaptive
//! prediction may decide otherwise after an error (cel-go reports `self.true == 1` as
//! `mismatched input 'true' expecting IDENTIFIER`, this module as `no viable alternative at
//! input '.true'`), and it does not count toward cel-go's error recovery and reporting limits.

use super::texts::Issue;

/// Declares [`Kind`] and [`KINDS`] (every kind, by number) from one list.
macro_rules! kinds {
    ($($kind:ident,)*) => {
        /// Token types, numbered as cel-go's generated lexer numbers them (`EOF` is ANTLR's -1,
        /// kept first); expected-token sets are listed in this order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[repr(u8)]
        enum Kind {
            $($kind,)*
        }

        /// All kinds, by number.
        const KINDS: &[Kind] = &[$(Kind::$kind,)*];
    };
}

kinds! {
    Eof,
    Equals,
    NotEquals,
    In,
    Less,
    LessEquals,
    GreaterEquals,
    Greater,
    And,
    Or,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    LParen,
    RParen,
    Dot,
    Comma,
    Minus,
    Exclam,
    Question,
    Colon,
    Plus,
    Star,
    Slash,
    Percent,
    True,
    False,
    Null,
    Whitespace,
    Comment,
    Float,
    Int,
    Uint,
    String,
    Bytes,
    Ident,
    EscIdent,
}

impl Kind {
    /// The name ANTLR shows in an expected-token set: the literal, or the symbolic name.
    fn display(self) -> &'static str {
        use Kind::*;
        match self {
            Eof => "<EOF>",
            Equals => "'=='",
            NotEquals => "'!='",
            In => "'in'",
            Less => "'<'",
            LessEquals => "'<='",
            GreaterEquals => "'>='",
            Greater => "'>'",
            And => "'&&'",
            Or => "'||'",
            LBracket => "'['",
            RBracket => "']'",
            LBrace => "'{'",
            RBrace => "'}'",
            LParen => "'('",
            RParen => "')'",
            Dot => "'.'",
            Comma => "','",
            Minus => "'-'",
            Exclam => "'!'",
            Question => "'?'",
            Colon => "':'",
            Plus => "'+'",
            Star => "'*'",
            Slash => "'/'",
            Percent => "'%'",
            True => "'true'",
            False => "'false'",
            Null => "'null'",
            Whitespace => "WHITESPACE",
            Comment => "COMMENT",
            Float => "NUM_FLOAT",
            Int => "NUM_INT",
            Uint => "NUM_UINT",
            String => "STRING",
            Bytes => "BYTES",
            Ident => "IDENTIFIER",
            EscIdent => "ESC_IDENTIFIER",
        }
    }
}

/// A set of token kinds.
type Set = u64;

/// The set holding only `kind`.
const fn bit(kind: Kind) -> Set {
    1 << kind as u8
}

/// The set of `kinds`.
const fn set(kinds: &[Kind]) -> Set {
    let mut s = 0;
    let mut i = 0;
    while i < kinds.len() {
        s |= bit(kinds[i]);
        i += 1;
    }
    s
}

/// Whether `s` holds `kind`.
fn has(s: Set, kind: Kind) -> bool {
    s & bit(kind) != 0
}

/// How ANTLR lists a set: one name alone, several in braces.
fn set_text(s: Set) -> String {
    let names: Vec<&str> = KINDS.iter().filter(|k| has(s, **k)).map(|k| k.display()).collect();
    match names.as_slice() {
        [one] => (*one).to_string(),
        _ => format!("{{{}}}", names.join(", ")),
    }
}

/// What can start a `member` (and so a `primary`): `.`, identifiers, brackets, literals
/// (with the sign of a number).
const MEMBER_START: Set = set(&[
    Kind::LBracket,
    Kind::LBrace,
    Kind::LParen,
    Kind::Dot,
    Kind::Minus,
    Kind::True,
    Kind::False,
    Kind::Null,
    Kind::Float,
    Kind::Int,
    Kind::Uint,
    Kind::String,
    Kind::Bytes,
    Kind::Ident,
]);

/// What can start an expression (`unary`): a member, `!` or `-`. cel-go lists it as
/// `{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT,
/// STRING, BYTES, IDENTIFIER}`.
const EXPR_START: Set = MEMBER_START | bit(Kind::Exclam);

/// The relational operators (one precedence level, left-associative).
const RELATIONS: Set =
    set(&[Kind::Less, Kind::LessEquals, Kind::GreaterEquals, Kind::Greater, Kind::Equals, Kind::NotEquals, Kind::In]);

/// The arithmetic operators.
const ARITHMETIC: Set = set(&[Kind::Star, Kind::Slash, Kind::Percent, Kind::Plus, Kind::Minus]);

/// Identifiers a field name may be.
const NAMES: Set = set(&[Kind::Ident, Kind::EscIdent]);

/// One token: its kind, its code-point range in the source and whether the parser sees it.
#[derive(Debug, Clone, Copy)]
struct Token {
    kind: Kind,
    start: usize,
    end: usize,
}

/// The syntax errors cel-go reports for `src`, in the order found (the caller sorts them by
/// position); empty when cel-go's parser would accept it.
pub(super) fn diagnose(src: &str) -> Vec<Issue> {
    let chars: Vec<char> = src.chars().collect();
    let (tokens, lexer_errors) = lex(&chars);
    let mut parser = Parser::new(&chars, tokens);
    parser.issues = lexer_errors;
    parser.start();
    let positions = Positions::new(&chars);
    parser
        .issues
        .into_iter()
        .map(|(at, message)| {
            let (line, column) = positions.at(at);
            Issue { line, column, message: format!("Syntax error: {message}") }
        })
        .collect()
}

/// 1-based line and column of every code-point index (and of the end).
struct Positions(Vec<(usize, usize)>);

impl Positions {
    fn new(chars: &[char]) -> Positions {
        let mut out = Vec::with_capacity(chars.len() + 1);
        let (mut line, mut column) = (1, 1);
        for c in chars {
            out.push((line, column));
            if *c == '\n' {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
        }
        out.push((line, column));
        Positions(out)
    }

    fn at(&self, index: usize) -> (usize, usize) {
        self.0[index.min(self.0.len() - 1)]
    }
}

// The lexer.

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
fn lex(chars: &[char]) -> (Vec<Token>, Vec<(usize, String)>) {
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

// The parser.

/// Why a rule stopped: ANTLR's recognition exceptions.
enum Fail {
    /// The next token is not in the expected set.
    Mismatch(Set),
    /// No alternative fits the tokens from the first index to the second (offending) one.
    NoViable(usize, usize),
}

/// What may follow the rule being parsed: through the rules that invoked it as far as they can
/// end (`next`: ANTLR's follow with the real context, for inserting a missing token), and the
/// union of what may follow each invocation on the way (`recovery`: ANTLR's error recovery set).
#[derive(Debug, Clone, Copy)]
struct Follow {
    next: Set,
    recovery: Set,
}

impl Follow {
    /// The follow of a rule invoked here, where `local` may come next in the invoking rule and
    /// `then_end` says whether the invoking rule may end right after the invocation.
    fn call(self, local: Set, then_end: bool) -> Follow {
        Follow { next: local | if then_end { self.next } else { 0 }, recovery: self.recovery | local }
    }
}

/// Error sites (ANTLR's states where recovery starts), for the no-progress guard of recovery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Site {
    Start,
    Expr,
    Unary,
    Member,
    Primary,
    MapInit,
    FieldInit,
    OptField,
    OptExpr,
    EscapeIdent,
}

/// A recursive descent over cel-go's grammar with ANTLR's default error strategy.
struct Parser<'a> {
    chars: &'a [char],
    /// All tokens, whitespace and comments included (for the text of a no-viable input).
    all: Vec<Token>,
    /// Indexes in `all` of the tokens the parser sees, `EOF` last.
    visible: Vec<usize>,
    /// The current index in `visible`.
    p: usize,
    /// ANTLR's error recovery mode: no report until a token is matched.
    recovering: bool,
    /// Where the last error was recovered from, and every site recovered from so far.
    last_error: Option<usize>,
    error_sites: Vec<Site>,
    /// The errors found, lexer's first, as (code-point index, message).
    issues: Vec<(usize, String)>,
}

impl<'a> Parser<'a> {
    fn new(chars: &'a [char], all: Vec<Token>) -> Parser<'a> {
        let visible = (0..all.len()).filter(|&i| !matches!(all[i].kind, Kind::Whitespace | Kind::Comment)).collect();
        Parser {
            chars,
            all,
            visible,
            p: 0,
            recovering: false,
            last_error: None,
            error_sites: Vec::new(),
            issues: Vec::new(),
        }
    }

    // Tokens.

    /// The `k`-th visible token from the current one (`EOF` past the end).
    fn token(&self, k: usize) -> Token {
        let i = (self.p + k).min(self.visible.len() - 1);
        self.all[self.visible[i]]
    }

    fn la(&self, k: usize) -> Kind {
        self.token(k).kind
    }

    fn consume(&mut self) {
        if self.la(0) != Kind::Eof {
            self.p += 1;
        }
    }

    /// ANTLR's display of a token: its text, quoted, with tabs and line ends escaped.
    fn token_text(&self, t: Token) -> std::string::String {
        if t.kind == Kind::Eof {
            return "'<EOF>'".into();
        }
        let text: std::string::String = self.chars[t.start..t.end].iter().collect();
        quote(&text)
    }

    // Reports.

    /// Reports at the current token, unless in error recovery mode; enters it.
    fn report(&mut self, message: std::string::String) {
        self.report_at(self.token(0).start, message);
    }

    fn report_at(&mut self, at: usize, message: std::string::String) {
        if !self.recovering {
            self.recovering = true;
            self.issues.push((at, message));
        }
    }

    /// A recognition exception caught by a rule: reported, then recovered from by skipping to a
    /// token that may follow one of the rules being parsed.
    fn fail(&mut self, fail: Fail, follow: Follow, site: Site) {
        match fail {
            Fail::Mismatch(expected) => {
                let message =
                    format!("mismatched input {} expecting {}", self.token_text(self.token(0)), set_text(expected));
                self.report(message);
            }
            Fail::NoViable(first, offending) => {
                let last = self.visible.len() - 1;
                let (first, offending) = (self.visible[first.min(last)], self.visible[offending.min(last)]);
                let text: std::string::String = if self.all[first].kind == Kind::Eof {
                    "<EOF>".into()
                } else {
                    // The tokens' texts (whitespace and comments included, skipped characters not).
                    self.all[first..=offending].iter().flat_map(|t| &self.chars[t.start..t.end]).collect()
                };
                self.report_at(self.all[offending].start, format!("no viable alternative at input {}", quote(&text)));
            }
        }
        if self.last_error == Some(self.p) && self.error_sites.contains(&site) {
            self.consume();
        }
        self.last_error = Some(self.p);
        self.error_sites.push(site);
        while self.la(0) != Kind::Eof && !has(follow.recovery, self.la(0)) {
            self.consume();
        }
    }

    /// ANTLR's `sync` before an optional block or at a rule's first decision: fine if the next
    /// token is `expected`; else one extraneous token is deleted if the one after it is
    /// expected, or the mismatch is an error.
    fn sync(&mut self, expected: Set) -> Result<(), Fail> {
        if self.recovering || has(expected, self.la(0)) {
            return Ok(());
        }
        if has(expected, self.la(1)) {
            let message =
                format!("extraneous input {} expecting {}", self.token_text(self.token(0)), set_text(expected));
            self.report(message);
            self.consume();
            self.recovering = false;
            return Ok(());
        }
        Err(Fail::Mismatch(expected))
    }

    /// ANTLR's `match` of `kind`: a missing token is inserted when the next one could follow
    /// it (`then` is what may come after `kind` here).
    fn expect(&mut self, kind: Kind, then: Set) -> Result<(), Fail> {
        if self.la(0) == kind {
            self.consume();
            self.recovering = false;
            return Ok(());
        }
        if self.la(1) == kind {
            let message =
                format!("extraneous input {} expecting {}", self.token_text(self.token(0)), set_text(bit(kind)));
            self.report(message);
            self.consume();
            self.consume();
            self.recovering = false;
            return Ok(());
        }
        if has(then, self.la(0)) {
            let message = format!("missing {} at {}", set_text(bit(kind)), self.token_text(self.token(0)));
            self.report(message);
            return Ok(());
        }
        Err(Fail::Mismatch(bit(kind)))
    }

    /// Consumes a token known to be there.
    fn take(&mut self) {
        self.consume();
        self.recovering = false;
    }

    // Rules.

    /// `start: expr EOF`.
    fn start(&mut self) {
        let eof = Follow { next: bit(Kind::Eof), recovery: bit(Kind::Eof) };
        self.expr(eof);
        if let Err(fail) = self.expect(Kind::Eof, 0) {
            self.fail(fail, Follow { next: 0, recovery: 0 }, Site::Start);
        }
    }

    /// `expr: conditionalOr ('?' conditionalOr ':' expr)?`.
    fn expr(&mut self, f: Follow) {
        self.binary(f.call(bit(Kind::Question), true), 0);
        if self.la(0) != Kind::Question {
            return;
        }
        self.take();
        self.binary(f.call(bit(Kind::Colon), false), 0);
        match self.expect(Kind::Colon, EXPR_START) {
            Ok(()) => self.expr(f.call(0, true)),
            Err(fail) => self.fail(fail, f, Site::Expr),
        }
    }

    /// The binary operator levels, loosest first: `||`, `&&`, relations, arithmetic; their
    /// operands are `unary`.
    fn binary(&mut self, f: Follow, level: usize) {
        const LEVELS: [Set; 4] = [bit(Kind::Or), bit(Kind::And), RELATIONS, ARITHMETIC];
        let Some(&operators) = LEVELS.get(level) else {
            return self.unary(f);
        };
        let inner = f.call(operators, true);
        self.binary(inner, level + 1);
        while has(operators, self.la(0)) {
            self.take();
            self.binary(inner, level + 1);
        }
    }

    /// `unary: member | '!'+ member | '-'+ member`.
    fn unary(&mut self, f: Follow) {
        if let Err(fail) = self.sync(EXPR_START).and_then(|()| self.unary_body(f)) {
            self.fail(fail, f, Site::Unary);
        }
    }

    fn unary_body(&mut self, f: Follow) -> Result<(), Fail> {
        let member = f.call(0, true);
        match self.la(0) {
            Kind::Exclam => {
                while self.la(0) == Kind::Exclam {
                    self.take();
                }
                if !has(MEMBER_START, self.la(0)) && !self.recovering {
                    // The sync at the loop's end: report the token and skip to one that fits.
                    let message = format!(
                        "extraneous input {} expecting {}",
                        self.token_text(self.token(0)),
                        set_text(EXPR_START)
                    );
                    self.report(message);
                    while self.la(0) != Kind::Eof && !has(EXPR_START | f.recovery, self.la(0)) {
                        self.consume();
                    }
                }
                self.member(member);
                Ok(())
            }
            Kind::Minus if matches!(self.la(1), Kind::Int | Kind::Float) => {
                self.member(member);
                Ok(())
            }
            Kind::Minus => {
                // `'-'+ member`; after each `-`, another `-` needs something to negate.
                while self.la(0) == Kind::Minus {
                    if !has(MEMBER_START, self.la(1)) {
                        return Err(Fail::NoViable(self.p, self.p + 1));
                    }
                    if matches!(self.la(1), Kind::Int | Kind::Float) {
                        break;
                    }
                    self.take();
                }
                self.member(member);
                Ok(())
            }
            k if has(MEMBER_START, k) => {
                self.member(member);
                Ok(())
            }
            _ => Err(Fail::NoViable(self.p, self.p)),
        }
    }

    /// `member: primary ('.' '?'? escapeIdent | '.' IDENTIFIER '(' exprList? ')' | '[' '?'? expr ']')*`.
    fn member(&mut self, f: Follow) {
        let suffix = set(&[Kind::Dot, Kind::LBracket]);
        self.primary(f.call(suffix, true));
        loop {
            match self.member_suffix(f, suffix) {
                Ok(true) => {}
                Ok(false) => return,
                Err(fail) => return self.fail(fail, f, Site::Member),
            }
        }
    }

    /// One `.name`, `.name(...)` or `[...]` after a member; false when none follows.
    fn member_suffix(&mut self, f: Follow, suffix: Set) -> Result<bool, Fail> {
        let after = suffix | f.next;
        match (self.la(0), self.la(1), self.la(2)) {
            (Kind::Dot, Kind::Ident, Kind::LParen) => {
                self.take();
                self.take();
                self.take();
                self.sync(EXPR_START | bit(Kind::RParen))?;
                if has(EXPR_START, self.la(0)) {
                    self.expr_list(f.call(bit(Kind::RParen), false));
                }
                self.expect(Kind::RParen, after)?;
            }
            (Kind::Dot, Kind::Question | Kind::Ident | Kind::EscIdent, _) => {
                self.take();
                if self.la(0) == Kind::Question {
                    self.take();
                }
                self.escape_ident(f.call(suffix, true));
            }
            (Kind::Dot, _, _) => return Err(Fail::NoViable(self.p, self.p + 1)),
            (Kind::LBracket, _, _) => {
                self.take();
                self.sync(bit(Kind::Question) | EXPR_START)?;
                if self.la(0) == Kind::Question {
                    self.take();
                }
                self.expr(f.call(bit(Kind::RBracket), false));
                self.expect(Kind::RBracket, after)?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// `primary`: a name, call or message, `( expr )`, a list, a map or a literal.
    fn primary(&mut self, f: Follow) {
        if let Err(fail) = self.primary_body(f) {
            self.fail(fail, f, Site::Primary);
        }
    }

    fn primary_body(&mut self, f: Follow) -> Result<(), Fail> {
        use Kind::*;
        match self.la(0) {
            Dot | Ident => self.named(f),
            LParen => {
                self.take();
                self.expr(f.call(bit(RParen), false));
                self.expect(RParen, f.next)
            }
            LBracket => self.aggregate(f, RBracket, Site::Primary),
            LBrace => self.aggregate(f, RBrace, Site::MapInit),
            Minus if matches!(self.la(1), Int | Float) => {
                self.take();
                self.take();
                Ok(())
            }
            Minus => Err(Fail::NoViable(self.p, self.p + 1)),
            True | False | Null | Float | Int | Uint | String | Bytes => {
                self.take();
                Ok(())
            }
            _ => Err(Fail::NoViable(self.p, self.p)),
        }
    }

    /// `'.'? IDENTIFIER` as a variable, a global call `f(...)` or a message `a.b.C{...}`.
    fn named(&mut self, f: Follow) -> Result<(), Fail> {
        let name = usize::from(self.la(0) == Kind::Dot);
        if self.la(name) != Kind::Ident {
            return Err(Fail::NoViable(self.p, self.p + name));
        }
        if self.la(name + 1) == Kind::LParen {
            for _ in 0..name + 2 {
                self.take();
            }
            self.sync(EXPR_START | bit(Kind::RParen))?;
            if has(EXPR_START, self.la(0)) {
                self.expr_list(f.call(bit(Kind::RParen), false));
            }
            return self.expect(Kind::RParen, f.next);
        }
        let mut end = name + 1;
        while self.la(end) == Kind::Dot && self.la(end + 1) == Kind::Ident {
            end += 2;
        }
        if self.la(end) != Kind::LBrace {
            for _ in 0..name + 1 {
                self.take();
            }
            return Ok(());
        }
        for _ in 0..=end {
            self.take();
        }
        let fields = set(&[Kind::Question, Kind::Ident, Kind::EscIdent]);
        let closing = set(&[Kind::Comma, Kind::RBrace]);
        self.sync(fields | closing)?;
        if has(fields, self.la(0)) {
            self.entries(f.call(closing, false), fields, Site::FieldInit);
        }
        self.sync(closing)?;
        if self.la(0) == Kind::Comma {
            self.take();
        }
        self.expect(Kind::RBrace, f.next)
    }

    /// `'[' listInit? ','? ']'` or `'{' mapInitializerList? ','? '}'`.
    fn aggregate(&mut self, f: Follow, close: Kind, site: Site) -> Result<(), Fail> {
        self.take();
        let elements = bit(Kind::Question) | EXPR_START;
        let end = bit(Kind::Comma) | bit(close);
        self.sync(elements | end)?;
        if has(elements, self.la(0)) {
            if close == Kind::RBracket {
                self.list_init(f.call(end, false));
            } else {
                self.entries(f.call(end, false), elements, site);
            }
        }
        self.sync(end)?;
        if self.la(0) == Kind::Comma {
            self.take();
        }
        self.expect(close, f.next)
    }

    /// `listInit: optExpr (',' optExpr)*`; a comma not followed by an element is left to the
    /// list.
    fn list_init(&mut self, f: Follow) {
        let elements = bit(Kind::Question) | EXPR_START;
        self.opt_expr(f.call(bit(Kind::Comma), true));
        while self.la(0) == Kind::Comma && has(elements, self.la(1)) {
            self.take();
            self.opt_expr(f.call(bit(Kind::Comma), true));
        }
    }

    /// `mapInitializerList: optExpr ':' expr (',' optExpr ':' expr)*` (`starts` are the
    /// elements' first tokens), or with `fields` the message's `optField ':' expr` list.
    fn entries(&mut self, f: Follow, starts: Set, site: Site) {
        loop {
            if site == Site::FieldInit {
                self.opt_field(f.call(bit(Kind::Colon), false));
            } else {
                self.opt_expr(f.call(bit(Kind::Colon), false));
            }
            if let Err(fail) = self.expect(Kind::Colon, EXPR_START) {
                return self.fail(fail, f, site);
            }
            self.expr(f.call(bit(Kind::Comma), true));
            if !(self.la(0) == Kind::Comma && has(starts, self.la(1))) {
                return;
            }
            self.take();
        }
    }

    /// `exprList: expr (',' expr)*`.
    fn expr_list(&mut self, f: Follow) {
        self.expr(f.call(bit(Kind::Comma), true));
        while self.la(0) == Kind::Comma {
            self.take();
            self.expr(f.call(bit(Kind::Comma), true));
        }
    }

    /// `optExpr: '?'? expr`.
    fn opt_expr(&mut self, f: Follow) {
        match self.sync(bit(Kind::Question) | EXPR_START) {
            Ok(()) => {
                if self.la(0) == Kind::Question {
                    self.take();
                }
                self.expr(f.call(0, true));
            }
            Err(fail) => self.fail(fail, f, Site::OptExpr),
        }
    }

    /// `optField: '?'? escapeIdent`.
    fn opt_field(&mut self, f: Follow) {
        match self.sync(bit(Kind::Question) | NAMES) {
            Ok(()) => {
                if self.la(0) == Kind::Question {
                    self.take();
                }
                self.escape_ident(f.call(0, true));
            }
            Err(fail) => self.fail(fail, f, Site::OptField),
        }
    }

    /// `escapeIdent: IDENTIFIER | ESC_IDENTIFIER`.
    fn escape_ident(&mut self, f: Follow) {
        let result = self.sync(NAMES).and_then(|()| {
            if has(NAMES, self.la(0)) {
                self.take();
                Ok(())
            } else {
                Err(Fail::NoViable(self.p, self.p))
            }
        });
        if let Err(fail) = result {
            self.fail(fail, f, Site::EscapeIdent);
        }
    }
}

/// ANTLR's quoting of a token or input text: in single quotes, tabs and line ends escaped.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\t', "\\t").replace('\n', "\\n").replace('\r', "\\r"))
}

#[cfg(test)]
mod tests {
    //! cel-go's syntax errors, as exact texts. The first table holds inputs and outputs of
    //! cel-go's own parser tests (`parser/parser_test.go`, the ANTLR parser's expected errors);
    //! the other tests, the common mistakes in OLM rules, whose texts follow from the same ANTLR
    //! mechanics (each names the cel-go case it mirrors).

    use super::*;
    use crate::test_util::compile_error;
    use crate::texts::{display, located};

    /// The syntax errors of `rule` as cel-go displays them.
    fn syntax_errors(rule: &str) -> String {
        display(rule, diagnose(rule))
    }

    /// The display of issues given as (line, column, message without `Syntax error: `).
    fn expected(rule: &str, issues: &[(usize, usize, &str)]) -> String {
        let text: Vec<String> =
            issues.iter().map(|(l, c, m)| located(rule, *l, *c, &format!("Syntax error: {m}"))).collect();
        text.join("\n")
    }

    /// cel-go's set of tokens that can start an expression.
    const E: &str =
        "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";

    /// cel-go's set of tokens that can follow `{` in a map literal.
    const MAP_START: &str =
        "{'[', '{', '}', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, \
                             NUM_UINT, STRING, BYTES, IDENTIFIER}";

    /// An input and its errors as (line, column, message without `Syntax error: `).
    type Case = (&'static str, Vec<(usize, usize, String)>);

    /// Inputs of cel-go's parser tests and the errors cel-go's ANTLR parser gives for them. A
    /// table of data: long because every case is written out in full.
    fn cel_go_cases() -> Vec<Case> {
        let fields = "{'}', ',', '?', IDENTIFIER, ESC_IDENTIFIER}";
        let eof = format!("mismatched input '<EOF>' expecting {E}");
        vec![
            ("1 + $", vec![(1, 5, "token recognition error at: '$'".into()), (1, 6, eof.clone())]),
            ("1 + +", vec![(1, 5, format!("mismatched input '+' expecting {E}")), (1, 6, eof.clone())]),
            (
                "a | b",
                vec![
                    (1, 3, "token recognition error at: '| '".into()),
                    (1, 5, "extraneous input 'b' expecting <EOF>".into()),
                ],
            ),
            (
                "*@a | b",
                vec![
                    (1, 1, format!("extraneous input '*' expecting {E}")),
                    (1, 2, "token recognition error at: '@'".into()),
                    (1, 5, "token recognition error at: '| '".into()),
                    (1, 7, "extraneous input 'b' expecting <EOF>".into()),
                ],
            ),
            ("1 + 2\n3 +", vec![(2, 1, "mismatched input '3' expecting <EOF>".into())]),
            ("{", vec![(1, 2, format!("mismatched input '<EOF>' expecting {MAP_START}"))]),
            ("foo(a,b,)", vec![(1, 9, format!("mismatched input ')' expecting {E}"))]),
            ("--", vec![(1, 3, "no viable alternative at input '-'".into()), (1, 3, eof.clone())]),
            ("?", vec![(1, 1, format!("mismatched input '?' expecting {E}")), (1, 2, eof.clone())]),
            ("in", vec![(1, 1, format!("mismatched input 'in' expecting {E}")), (1, 3, eof.clone())]),
            ("a.in", vec![(1, 3, "no viable alternative at input '.in'".into()), (1, 5, eof.clone())]),
            ("{a}", vec![(1, 3, "mismatched input '}' expecting ':'".into())]),
            (
                "{:a}",
                vec![
                    (1, 2, format!("extraneous input ':' expecting {MAP_START}")),
                    (1, 4, "mismatched input '}' expecting ':'".into()),
                ],
            ),
            (
                "msg{:a}",
                vec![
                    (1, 5, format!("extraneous input ':' expecting {fields}")),
                    (1, 7, "mismatched input '}' expecting ':'".into()),
                ],
            ),
            (
                "func{{a}}",
                vec![
                    (1, 6, format!("extraneous input '{{' expecting {fields}")),
                    (1, 8, "mismatched input '}' expecting ':'".into()),
                    (1, 9, "extraneous input '}' expecting <EOF>".into()),
                ],
            ),
            ("x{.", vec![(1, 3, format!("mismatched input '.' expecting {fields}"))]),
            ("(a){}", vec![(1, 4, "mismatched input '{' expecting <EOF>".into())]),
            ("TestAllTypes{}()", vec![(1, 15, "mismatched input '(' expecting <EOF>".into())]),
            ("-!x", vec![(1, 2, "no viable alternative at input '-!'".into())]),
            ("!-x", vec![(1, 3, "no viable alternative at input '-x'".into())]),
            ("{\"a\": 1}.\"a\"", vec![(1, 10, "no viable alternative at input '.\"a\"'".into())]),
            ("`b-c`", vec![(1, 1, format!("mismatched input '`b-c`' expecting {E}"))]),
            (
                "\"\\xFh\"",
                vec![
                    (1, 1, "token recognition error at: '\"\\xFh'".into()),
                    (1, 6, "token recognition error at: '\"'".into()),
                    (1, 7, eof.clone()),
                ],
            ),
            (
                "'''hello\nworld",
                vec![
                    (1, 3, "token recognition error at: ''hello\n'".into()),
                    (2, 1, "extraneous input 'world' expecting <EOF>".into()),
                ],
            ),
            (
                "'hello\nworld'",
                vec![
                    (1, 1, "token recognition error at: ''hello\n'".into()),
                    (2, 6, "token recognition error at: '''".into()),
                ],
            ),
            (
                "r\"hello\nworld\"",
                vec![
                    (1, 2, "token recognition error at: '\"hello\n'".into()),
                    (2, 1, "extraneous input 'world' expecting <EOF>".into()),
                    (2, 6, "token recognition error at: '\"'".into()),
                ],
            ),
            (
                "has(a.`$b`)",
                vec![
                    (1, 7, "token recognition error at: '`$'".into()),
                    (1, 10, "token recognition error at: '`)'".into()),
                    (1, 12, "missing ')' at '<EOF>'".into()),
                ],
            ),
            (
                "Msg{`$b`: 1}",
                vec![
                    (1, 5, "token recognition error at: '`$'".into()),
                    (1, 8, "token recognition error at: '`:'".into()),
                    (1, 11, "missing ':' at '1'".into()),
                ],
            ),
            // From Kubernetes' CEL tests (cel-go's text, checked there as a prefix).
            ("'asdf'.contains('x'", vec![(1, 20, "missing ')' at '<EOF>'".into())]),
        ]
    }

    #[test]
    fn cel_gos_own_parser_test_outputs() {
        for (rule, issues) in cel_go_cases() {
            let issues: Vec<(usize, usize, &str)> = issues.iter().map(|(l, c, m)| (*l, *c, m.as_str())).collect();
            assert_eq!(syntax_errors(rule), expected(rule, &issues), "{rule:?}");
            // The whole pipeline gives the same text.
            assert_eq!(compile_error(rule), expected(rule, &issues), "{rule:?}");
        }
    }

    #[test]
    fn an_unclosed_bracket_is_missing_at_the_end() {
        // As cel-go's `has(a.`$b`)` and Kubernetes' `'asdf'.contains('x'`.
        let rule = "properties.exists(p, p.type == 'olm.gvk'";
        assert_eq!(
            compile_error(rule),
            "ERROR: <input>:1:41: Syntax error: missing ')' at '<EOF>'\n \
             | properties.exists(p, p.type == 'olm.gvk'\n \
             | ........................................^"
        );
        assert_eq!(compile_error("properties[0"), expected("properties[0", &[(1, 13, "missing ']' at '<EOF>'")]));
        // A list or map literal left open: the sync before its optional comma or entries
        // reports (as cel-go's `{`).
        assert_eq!(
            compile_error("[1, 2"),
            expected("[1, 2", &[(1, 6, "mismatched input '<EOF>' expecting {']', ','}")])
        );
        let rule = "properties.exists(p, p.value == {";
        let message = format!("mismatched input '<EOF>' expecting {MAP_START}");
        assert_eq!(compile_error(rule), expected(rule, &[(1, 34, &message)]));
    }

    #[test]
    fn a_missing_operand_is_a_mismatch_or_an_extraneous_operator() {
        let eof = format!("mismatched input '<EOF>' expecting {E}");
        // At the end (as cel-go's `1 + +`, second error).
        let rule = "size(properties) >";
        assert_eq!(compile_error(rule), expected(rule, &[(1, 19, &eof)]));
        // Before a closing bracket (as cel-go's `foo(a,b,)`).
        let rule = "properties.exists(p, p.type == 'x' && )";
        let message = format!("mismatched input ')' expecting {E}");
        assert_eq!(compile_error(rule), expected(rule, &[(1, 39, &message)]));
        // At the start, followed by an operand (as cel-go's `*@a | b`, first error).
        let rule = "&& properties.exists(p, true)";
        let message = format!("extraneous input '&&' expecting {E}");
        assert_eq!(compile_error(rule), expected(rule, &[(1, 1, &message)]));
    }

    #[test]
    fn an_unterminated_string_is_a_token_recognition_error() {
        // The lexer's error takes the rest of the line; the parser then misses an operand (as
        // cel-go's `"\xFh"`).
        let rule = "properties.exists(p, p.type == 'olm.gvk)";
        let eof = format!("mismatched input '<EOF>' expecting {E}");
        let issues = [(1, 32, "token recognition error at: ''olm.gvk)'"), (1, 41, eof.as_str())];
        assert_eq!(compile_error(rule), expected(rule, &issues));
    }

    #[test]
    fn a_stray_token_or_character() {
        // A token after a complete rule (as cel-go's `a | b`, second error).
        let rule = "properties.exists(p, true) true";
        assert_eq!(compile_error(rule), expected(rule, &[(1, 28, "extraneous input 'true' expecting <EOF>")]));
        // A lone `&`, `|` or `=`: the lexer's error takes the next character too (as cel-go's
        // `a | b`, first error).
        let rule = "properties.exists(p, p.type == 'olm.gvk') & true";
        let issues = [(1, 43, "token recognition error at: '& '"), (1, 45, "extraneous input 'true' expecting <EOF>")];
        assert_eq!(compile_error(rule), expected(rule, &issues));
        let rule = "properties.exists(p, p.type = 'olm.gvk')";
        let issues =
            [(1, 29, "token recognition error at: '= '"), (1, 31, "extraneous input ''olm.gvk'' expecting ')'")];
        assert_eq!(compile_error(rule), expected(rule, &issues));
        // A character no token starts with (as cel-go's `1 + $`).
        let rule = "size(properties) > 0 # comment";
        let issues =
            [(1, 22, "token recognition error at: '#'"), (1, 24, "extraneous input 'comment' expecting <EOF>")];
        assert_eq!(compile_error(rule), expected(rule, &issues));
    }

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

    #[test]
    fn well_formed_rules_have_no_syntax_error() {
        for rule in [
            "properties.exists(p, p.type == 'olm.gvk' && p.value == {'group': 'g', 'version': 'v', 'kind': 'k'})",
            "properties.exists(p, p.type == 'olm.package' && semver_compare(p.value.version, '1.0.1') >= 0)",
            "[1, 2,].size() == 2 && {'a': 1,}.a == 1 && -1 < - -1 && !!true",
            "a ? b : c ? d : e",
            ".properties[0].value.?x",
            "Msg{a: 1, ?b: 2,} == x[?0]",
            "a.b.c{d: 1}.e(f, g) in [h]",
            "'''multi\nline''' + r\"\\d\" + b'\\x00' + \"\\u00e9\\303\\251\"",
            "x // comment\n  == 1",
        ] {
            assert_eq!(diagnose(rule), [], "{rule}");
        }
    }
}

#[cfg(test)]
mod own_conformance_cases {
    //! The `cel` cases of our own conformance suite (`tests/conformance/own/olm-resolver.json`)
    //! are the common mistakes above, with cel-go's full text: each gives exactly that text.

    use crate::test_util::compile_error;

    #[test]
    fn each_case_gives_its_error_text() {
        let cases: serde_json::Value =
            serde_json::from_str(include_str!("../../../tests/conformance/own/olm-resolver.json")).unwrap();
        let mut checked = 0;
        for case in cases.as_array().unwrap().iter().filter(|c| c["kind"] == "cel") {
            let rule = case["input"]["rule"].as_str().unwrap();
            if let Some(want) = case["expect"]["errorText"].as_str() {
                assert_eq!(compile_error(rule), want, "{}", case["id"]);
                checked += 1;
            }
        }
        assert!(checked >= 10, "{checked}");
    }
}
