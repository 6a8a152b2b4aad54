//! The recursive descent over cel-go's grammar with ANTLR's default error strategy: what may
//! follow each rule, where an error is reported, and how the parser recovers from it.

use super::*;

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
pub(super) struct Parser<'a> {
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
    pub(super) issues: Vec<(usize, String)>,
}

impl<'a> Parser<'a> {
    pub(super) fn new(chars: &'a [char], all: Vec<Token>) -> Parser<'a> {
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
    pub(super) fn start(&mut self) {
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
