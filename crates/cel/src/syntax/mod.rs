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

mod lexer;
mod parser;
use lexer::lex;
use parser::Parser;

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
            serde_json::from_str(include_str!("../../../../tests/conformance/own/olm-resolver.json")).unwrap();
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
