//! CEL rules of `olm.constraint` (resolver spec §5.3).
//!
//! This module owns everything about the `cel` kind of generic constraint:
//! - compiling a rule in OLM's environment (`NewCelEnvironment`): one variable, `properties`, of
//!   type `list(map(string, dyn))`, the CEL standard library and macros, and the custom function
//!   `semver_compare(dyn, dyn) -> int`;
//! - validating it the way cel-go's checker does where it matters for OLM: undeclared variables
//!   and functions are compile errors (cel-go's issue text, with position and source excerpt), and
//!   a rule whose static type is not `bool` is rejected with `cel expressions must have type Bool`;
//! - evaluating a compiled rule against one candidate's properties, where a runtime error or a
//!   non-bool result is "no match", never an error.
//!
//! Evaluation uses the `cel` crate (cel-rust). cel-rust has no type checker, so this module infers
//! types over its AST itself ([`CelRule::compile`] documents what is accepted), and bounds the
//! input before handing it to cel-rust's recursive parser and interpreter so that no input can
//! exhaust the stack (1 MiB by default on wasm32).
//!
//! Known differences from OLM (cel-go), all documented where they arise:
//! - rules nested deeper than 64 brackets, or with more than 256 binary operators, member
//!   accesses and indexes in total, are compile errors (cel-go's parser allows 250 levels by
//!   default and has no operator limit);
//! - `matches` is accepted (it is standard CEL) but always fails at evaluation, so counts as no
//!   match: this build of cel-rust has no regular expressions (feature `regex` is off);
//! - type checking is limited to what decides the result type, undeclared references, field
//!   selection on non-maps, ranges of comprehensions, and the operands of `!`, `&&`, `||` and
//!   `? :`; other operand type errors cel-go reports at compile time (e.g. `1 == 'a'`) surface
//!   at evaluation, as no match;
//! - there is no evaluation cost limit (OLM has none either): a rule nesting comprehensions can
//!   take time exponential in its nesting;
//! - rules are parsed with cel-rust's hand-written (Pratt) parser rather than its ANTLR one (the
//!   ANTLR runtime would more than double the WebAssembly module). It keeps no node positions, so
//!   a checker finding about a name points at the first place that name is used (not bound by a
//!   macro), and other checker findings at the start of the rule; syntax errors keep the
//!   parser's own positions. Ternaries count toward the operator limit.
//!
//! Stack use: rules at the limits need well under the default 1 MiB wasm stack.
//!
//! Without the `cel` feature the API is the same, but [`CelRule::compile`] always fails with
//! [`CelError::Unsupported`].

use std::fmt;

/// The deepest bracket nesting (`(`, `[`, `{`) a rule may have; deeper rules are compile errors.
///
/// cel-rust's parser, visitor and interpreter recurse once per level (and its parser stops at 96
/// levels anyway); the limit keeps every input well inside a 1 MiB stack.
#[cfg(feature = "cel")]
const MAX_NESTING: usize = 64;

/// The most binary operators (other than `&&` and `||`), `in`, member accesses (`.`) and index
/// brackets a rule may contain in total; rules with more are compile errors.
///
/// A chain such as `a + b + c` or `a.b.c` nests one level per operator in cel-rust's parse tree
/// and AST, which are walked recursively, at about 1 KiB of wasm stack per level in release
/// builds: about 900 levels exhaust the default 1 MiB wasm stack. 256 leaves a margin of almost
/// 3 for the caller's frames. The count is conservative: unary minus and the dot of a float
/// literal count too. `&&` and `||` are not counted: cel-rust balances them. A long list of
/// alternatives is better written with `in`: `p.value.packageName in ['a', 'b']`.
#[cfg(feature = "cel")]
const MAX_CHAIN: usize = 256;

/// The longest rule, in code points: cel-go's default parser limit, which OLM keeps.
#[cfg(feature = "cel")]
const MAX_CODE_POINTS: usize = 100_000;

/// A compiled, validated CEL rule of an olm.constraint.
pub struct CelRule {
    /// The rule text, as written in the constraint.
    rule: String,
    /// The parsed program (macros expanded), validated by [`CelRule::compile`].
    #[cfg(feature = "cel")]
    program: cel::common::ast::IdedExpr,
}

/// Why a rule cannot be used. Display gives OLM-like messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CelError {
    /// Syntax error or reference to an undeclared variable/function; the String is a human-readable
    /// description in the spirit of cel-go's issue text, e.g.
    /// `ERROR: <input>:1:59: undeclared reference to 'doesnt_exist' (in container '')` followed by
    /// a source excerpt; several issues follow each other on separate lines, in source order.
    Compile(String),
    /// The rule's static type is not bool: Display is exactly "cel expressions must have type Bool".
    NotBool,
    /// This build has no CEL support (feature `cel` off): Display "cel constraints are not supported
    /// by this build (feature `cel` is disabled)".
    Unsupported,
}

impl fmt::Display for CelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CelError::Compile(message) => f.write_str(message),
            CelError::NotBool => f.write_str("cel expressions must have type Bool"),
            CelError::Unsupported => {
                f.write_str("cel constraints are not supported by this build (feature `cel` is disabled)")
            }
        }
    }
}

impl std::error::Error for CelError {}

impl fmt::Debug for CelRule {
    /// Shows the rule text only (the compiled program is an implementation detail).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CelRule").field("rule", &self.rule).finish_non_exhaustive()
    }
}

impl CelRule {
    /// Compile and validate: parse, reject unknown functions/variables (only the variable
    /// `properties`, CEL standard-library functions/macros/operators, and the custom
    /// `semver_compare` are known), reject rules whose static type is not bool.
    ///
    /// Known names:
    /// - variables: `properties` (also as `.properties`), the variables bound by the macros `all`,
    ///   `exists`, `exists_one`, `map` and `filter` within their bodies, and the type names
    ///   `bool`, `int`, `uint`, `double`, `string`, `bytes`, `list`, `map`, `null_type`, `type`,
    ///   `dyn`;
    /// - global functions: `size`, `int`, `uint`, `double`, `string`, `bytes`, `bool`, `dyn`,
    ///   `type`, `duration`, `timestamp`, `matches` and `semver_compare`, with their standard
    ///   argument counts;
    /// - member functions: `size`, `contains`, `startsWith`, `endsWith`, `matches` and the
    ///   timestamp/duration getters (`getFullYear`, ...).
    ///
    /// Message construction (`Foo{a: 1}`) and the optional syntax (`a.?b`, `[?x]`) are compile
    /// errors, as in OLM's environment, which declares no message types and no optionals.
    ///
    /// Static types, as far as they decide "is the rule bool": literals by kind; `properties` is
    /// `list(map(string, dyn))`; comparisons, `==`, `!=`, `in`, `!`, `&&`, `||`, `has()`, `all`,
    /// `exists`, `exists_one`, `contains`, `startsWith`, `endsWith`, `matches` and `bool()` are
    /// bool; `size`, `semver_compare` and `int()` are int; `map` and `filter` give lists; list and
    /// map literals get their element types (mixed elements: dyn); indexing or selecting from a
    /// list or map gives its element type, from dyn gives dyn; `c ? a : b` has the branches'
    /// common type, dyn when they differ. A rule whose type is dyn (e.g. `properties[0].value`) is
    /// rejected like any other non-bool rule.
    ///
    /// Rules longer than 100,000 code points (cel-go's default limit), nested deeper than 64
    /// brackets, or with more than 256 binary operators, member accesses and indexes (`&&` and
    /// `||` excepted) are compile errors: the last two bound the recursion of cel-rust's parser
    /// and interpreter. Never panics, whatever the input.
    pub fn compile(rule: &str) -> Result<CelRule, CelError> {
        #[cfg(feature = "cel")]
        {
            let program = imp::compile(rule)?;
            Ok(CelRule { rule: rule.to_string(), program })
        }
        #[cfg(not(feature = "cel"))]
        {
            let _ = rule;
            Err(CelError::Unsupported)
        }
    }

    /// The rule text.
    pub fn rule(&self) -> &str {
        &self.rule
    }

    /// Evaluate against one candidate's properties, given as (type, decoded JSON value) pairs in
    /// order (value `serde_json::Value::Null` when the value failed to decode). Returns true only
    /// when the result is the bool true; a runtime error or non-bool result is false (never an
    /// error).
    ///
    /// `properties[i]` is the map `{"type": <type>, "value": <value>}`. JSON objects become maps
    /// with string keys, arrays lists, numbers doubles, strings strings, booleans bools and null
    /// null. A value nested more than 128 levels deep is passed as null.
    ///
    /// Numbers being doubles does not get in the way of integer literals: cel-rust compares
    /// numbers across types by value, so `p.value.replicas == 3` matches the JSON number `3`, and
    /// `{'a': 1} == {'a': 1.0}` holds (cel-go's heterogeneous equality does the same at runtime).
    ///
    /// `&&` and `||` absorb errors as CEL specifies (`error || true` and `true || error` are
    /// true, `error && false` and `false && error` are false), also across the elements of
    /// `exists` and `all`: cel-rust implements this.
    pub fn matches(&self, properties: &[(&str, &serde_json::Value)]) -> bool {
        #[cfg(feature = "cel")]
        {
            imp::matches(&self.program, properties)
        }
        #[cfg(not(feature = "cel"))]
        {
            let _ = properties;
            false
        }
    }
}

/// The implementation over cel-rust: input bounds, compile-time checks and evaluation.
#[cfg(feature = "cel")]
mod imp {
    use std::cmp::Ordering;
    use std::collections::HashMap;
    use std::sync::{Arc, OnceLock};

    use cel::common::ast::{operators, CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedExpr, LiteralValue};
    use cel::common::types::{self, CelBool, CelDouble, CelInt, CelList, CelMap, CelMapKey, CelNull, CelString};
    use cel::common::value::{CowVal, Val};
    use cel::objects::Key;
    use cel::{Context, Env, ExecutionError, ParseErrors, Value};

    use super::{CelError, MAX_CHAIN, MAX_CODE_POINTS, MAX_NESTING};
    use crate::version::Version;

    /// Backstop for the type inference's own recursion; the input bounds keep real ASTs far
    /// below it.
    const MAX_CHECK_DEPTH: usize = 1024;

    /// JSON values nested deeper than this are passed to the rule as null, which bounds the
    /// recursion of cel-rust's equality, conversions and drops over them.
    const MAX_JSON_DEPTH: usize = 128;

    /// Global functions of the environment and the argument count of their overloads.
    const GLOBAL_FUNCTIONS: &[(&str, usize)] = &[
        ("size", 1),
        ("int", 1),
        ("uint", 1),
        ("double", 1),
        ("string", 1),
        ("bytes", 1),
        ("bool", 1),
        ("dyn", 1),
        ("type", 1),
        ("duration", 1),
        ("timestamp", 1),
        ("matches", 2),
        ("semver_compare", 2),
    ];

    /// Member functions of the environment and the argument counts (receiver not counted) of
    /// their overloads.
    const MEMBER_FUNCTIONS: &[(&str, &[usize])] = &[
        ("size", &[0]),
        ("contains", &[1]),
        ("startsWith", &[1]),
        ("endsWith", &[1]),
        ("matches", &[1]),
        ("getFullYear", &[0, 1]),
        ("getMonth", &[0, 1]),
        ("getDate", &[0, 1]),
        ("getDayOfMonth", &[0, 1]),
        ("getDayOfWeek", &[0, 1]),
        ("getDayOfYear", &[0, 1]),
        ("getHours", &[0, 1]),
        ("getMinutes", &[0, 1]),
        ("getSeconds", &[0, 1]),
        ("getMilliseconds", &[0, 1]),
    ];

    /// Identifiers that name types in CEL's standard environment.
    const TYPE_NAMES: &[&str] =
        &["bool", "int", "uint", "double", "string", "bytes", "list", "map", "null_type", "type", "dyn"];

    /// The shared environment: standard library and macros, optional syntax off (OLM's cel-go
    /// environment has no optionals), and `semver_compare`.
    fn env() -> Result<&'static Arc<Env>, CelError> {
        static ENV: OnceLock<Result<Arc<Env>, String>> = OnceLock::new();
        ENV.get_or_init(|| {
            let mut env = Env::stdlib().with_optional_support(false);
            env.add_overload(
                "semver_compare",
                "semver_compare_dyn_dyn",
                vec![types::DYN_TYPE, types::DYN_TYPE],
                semver_compare,
            )
            .map_err(|e| e.to_string())?;
            Ok(Arc::new(env))
        })
        .as_ref()
        .map_err(|e| CelError::Compile(format!("internal error: cannot build the CEL environment: {e}")))
    }

    /// [`super::CelRule::compile`]: bounds, parse, checks, bool result.
    pub(super) fn compile(rule: &str) -> Result<IdedExpr, CelError> {
        let size = rule.chars().count();
        if size > MAX_CODE_POINTS {
            return Err(CelError::Compile(format!(
                "expression code point size exceeds limit: size: {size}, limit {MAX_CODE_POINTS}"
            )));
        }
        if let Err((offset, message)) = precheck(rule) {
            let (line, column) = line_column(rule, offset);
            return Err(CelError::Compile(located(rule, line, column, &message)));
        }
        env()?;
        // cel-rust's hand-written (Pratt) parser: the same AST and macros as its ANTLR parser,
        // without the ANTLR runtime, which would triple the size of the WebAssembly module.
        let program = cel::parser::PrattParser::default()
            .enable_optional_syntax(false)
            .parse(rule)
            .map_err(|e| CelError::Compile(parse_errors(rule, &e)))?;
        let mut checker = Checker { scopes: Vec::new(), errors: Vec::new(), too_deep: false };
        let ty = checker.check(&program, 0);
        if !checker.errors.is_empty() {
            let mut issues: Vec<(usize, String)> =
                checker.errors.into_iter().map(|(_, message)| (offset_of(rule, &message), message)).collect();
            issues.sort();
            issues.dedup();
            let text: Vec<String> = issues
                .iter()
                .map(|(offset, message)| {
                    let (line, column) = line_column(rule, *offset);
                    located(rule, line, column, message)
                })
                .collect();
            return Err(CelError::Compile(text.join("\n")));
        }
        if ty != Ty::Bool {
            return Err(CelError::NotBool);
        }
        Ok(program)
    }

    /// [`super::CelRule::matches`]: binds `properties` and evaluates; only the bool true matches.
    pub(super) fn matches(program: &IdedExpr, properties: &[(&str, &serde_json::Value)]) -> bool {
        let Ok(env) = env() else {
            return false;
        };
        let mut list: Vec<Box<dyn Val + '_>> = Vec::with_capacity(properties.len());
        for (type_, value) in properties {
            let value: Box<dyn Val + '_> = json_val(value, 0).unwrap_or_else(|| Box::new(CelNull));
            let mut entry: HashMap<CelMapKey<'_>, Box<dyn Val + '_>> = HashMap::with_capacity(2);
            entry.insert(CelMapKey::String(CelString::from("type")), Box::new(CelString::from(*type_)));
            entry.insert(CelMapKey::String(CelString::from("value")), value);
            list.push(Box::new(CelMap::from(entry)));
        }
        let mut context = Context::with_env(Arc::clone(env));
        context.add_variable_as_val("properties", Box::new(CelList::from(list)));
        match Value::resolve_val(program, &context) {
            Ok(result) => result.downcast_ref::<CelBool>().is_some_and(|b| *b.inner()),
            Err(_) => false,
        }
    }

    /// A decoded JSON value as a CEL value borrowing its strings; `None` when nested deeper than
    /// [`MAX_JSON_DEPTH`].
    fn json_val(value: &serde_json::Value, depth: usize) -> Option<Box<dyn Val + '_>> {
        if depth > MAX_JSON_DEPTH {
            return None;
        }
        Some(match value {
            serde_json::Value::Null => Box::new(CelNull),
            serde_json::Value::Bool(b) => Box::new(CelBool::from(*b)),
            serde_json::Value::Number(n) => Box::new(CelDouble::from(n.as_f64().unwrap_or(f64::NAN))),
            serde_json::Value::String(s) => Box::new(CelString::from(s.as_str())),
            serde_json::Value::Array(items) => {
                let items = items.iter().map(|x| json_val(x, depth + 1)).collect::<Option<Vec<_>>>()?;
                Box::new(CelList::from(items))
            }
            serde_json::Value::Object(fields) => {
                let mut map: HashMap<CelMapKey<'_>, Box<dyn Val + '_>> = HashMap::with_capacity(fields.len());
                for (key, x) in fields {
                    map.insert(CelMapKey::String(CelString::from(key.as_str())), json_val(x, depth + 1)?);
                }
                Box::new(CelMap::from(map))
            }
        })
    }

    /// `semver_compare(a, b)`: both arguments as text (Go `fmt.Sprint`), parsed with blang
    /// `ParseTolerant`, compared: -1, 0 or 1. A parse failure is an evaluation error.
    fn semver_compare<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
        let [a, b] = args.as_slice() else {
            return Err(ExecutionError::invalid_argument_count(2, args.len()));
        };
        let a = semver_arg(a.as_ref())?;
        let b = semver_arg(b.as_ref())?;
        let result = match a.compare(&b) {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        };
        Ok(CowVal::owned(CelInt::from(result)))
    }

    /// One `semver_compare` argument as a version.
    fn semver_arg(value: &dyn Val) -> Result<Version, ExecutionError> {
        let text = match Value::try_from(value) {
            Ok(value) => go_sprint(&value, 0),
            Err(_) => String::from("<unprintable>"),
        };
        Version::parse_tolerant(&text).map_err(|_| {
            ExecutionError::function_error("semver_compare", format!("unable to parse '{text}' to semver format"))
        })
    }

    /// The text Go's `fmt.Sprint` gives for the Go value cel-go holds for `value`.
    ///
    /// Only strings and numbers can become versions; the other forms only need to fail parsing
    /// (and read sensibly in the error).
    fn go_sprint(value: &Value, depth: usize) -> String {
        if depth > MAX_JSON_DEPTH {
            return String::from("...");
        }
        match value {
            Value::String(s) => s.to_string(),
            Value::Float(f) => go_float(*f),
            Value::Int(i) => i.to_string(),
            Value::UInt(u) => u.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Null => String::from("NULL_VALUE"),
            Value::Bytes(bytes) => {
                let parts: Vec<String> = bytes.iter().map(u8::to_string).collect();
                format!("[{}]", parts.join(" "))
            }
            Value::List(items) => {
                let parts: Vec<String> = items.iter().map(|x| go_sprint(x, depth + 1)).collect();
                format!("[{}]", parts.join(" "))
            }
            Value::Map(map) => {
                let mut parts: Vec<String> = map
                    .map
                    .iter()
                    .map(|(k, v)| {
                        let key = match k {
                            Key::Int(i) => i.to_string(),
                            Key::Uint(u) => u.to_string(),
                            Key::Bool(b) => b.to_string(),
                            Key::String(s) => s.to_string(),
                        };
                        format!("{key}:{}", go_sprint(v, depth + 1))
                    })
                    .collect();
                parts.sort();
                format!("map[{}]", parts.join(" "))
            }
            other => format!("{other:?}"),
        }
    }

    /// Go's `%v` of a float64 (`strconv.FormatFloat(f, 'g', -1, 64)`): shortest digits, `%e` form
    /// when the exponent is below -4 or at least 6 (`1e+06`, `1e-05`), plain otherwise (`1`,
    /// `1.5`, `100000`, `0.0001`).
    pub(super) fn go_float(f: f64) -> String {
        if f.is_nan() {
            return String::from("NaN");
        }
        if f.is_infinite() {
            return String::from(if f > 0.0 { "+Inf" } else { "-Inf" });
        }
        let sign = if f.is_sign_negative() { "-" } else { "" };
        if f == 0.0 {
            return format!("{sign}0");
        }
        // Rust's `{:e}` gives the shortest round-trip digits, as Go's shortest formatting does.
        let scientific = format!("{:e}", f.abs());
        let Some((mantissa, exponent)) = scientific.split_once('e') else {
            return scientific;
        };
        let Ok(exponent) = exponent.parse::<i64>() else {
            return scientific;
        };
        let digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
        let nd = digits.len() as i64;
        let mut out = String::from(sign);
        if !(-4..6).contains(&exponent) {
            out.push(digits[0] as char);
            if nd > 1 {
                out.push('.');
                out.extend(digits[1..].iter().map(|&d| d as char));
            }
            out.push('e');
            out.push(if exponent < 0 { '-' } else { '+' });
            out.push_str(&format!("{:02}", exponent.abs()));
        } else {
            // `dp` digits before the decimal point.
            let dp = exponent + 1;
            let text = |digits: &[u8]| digits.iter().map(|&d| d as char).collect::<String>();
            if dp <= 0 {
                out.push_str("0.");
                out.push_str(&"0".repeat(dp.unsigned_abs() as usize));
                out.push_str(&text(&digits));
            } else if dp >= nd {
                out.push_str(&text(&digits));
                out.push_str(&"0".repeat((dp - nd) as usize));
            } else {
                out.push_str(&text(&digits[..dp as usize]));
                out.push('.');
                out.push_str(&text(&digits[dp as usize..]));
            }
        }
        out
    }

    /// Lexical bounds on the raw text, checked before cel-rust's recursive parser sees it:
    /// bracket nesting at most [`MAX_NESTING`], chain operators at most [`MAX_CHAIN`]. Returns
    /// the byte offset and message of the first violation.
    ///
    /// String literals and comments are skipped exactly as cel-rust's lexer (the CEL grammar)
    /// delimits them; anything that is not a valid string is scanned as code, so the counts can
    /// only be too high, never too low.
    pub(super) fn precheck(src: &str) -> Result<(), (usize, String)> {
        let cs: Vec<(usize, char)> = src.char_indices().collect();
        let at = |k: usize| cs.get(k).map(|c| c.1);
        let mut i = 0;
        let mut depth = 0usize;
        let mut chain = 0usize;
        while i < cs.len() {
            let (offset, c) = cs[i];
            let mut next = i + 1;
            match c {
                '/' if at(i + 1) == Some('/') => {
                    while next < cs.len() && cs[next].1 != '\n' {
                        next += 1;
                    }
                }
                '\'' | '"' => next = string_end(&cs, i, false).unwrap_or(i + 1),
                c if c.is_ascii_alphabetic() || c == '_' => {
                    while at(next).is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                        next += 1;
                    }
                    let word: String = cs[i..next].iter().map(|c| c.1).collect();
                    if word == "in" {
                        chain += 1;
                    } else if matches!(word.as_str(), "r" | "R" | "b" | "B" | "br" | "bR" | "Br" | "BR")
                        && matches!(at(next), Some('\'' | '"'))
                    {
                        if let Some(end) = string_end(&cs, next, word.contains(['r', 'R'])) {
                            next = end;
                        }
                    }
                }
                c if c.is_ascii_digit() => {
                    while at(next).is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                        next += 1;
                    }
                }
                '(' | '[' | '{' => {
                    depth += 1;
                    if c == '[' {
                        chain += 1;
                    }
                    if depth > MAX_NESTING {
                        return Err((
                            offset,
                            format!("expression nesting exceeds the limit of {MAX_NESTING} levels of brackets"),
                        ));
                    }
                }
                ')' | ']' | '}' => depth = depth.saturating_sub(1),
                '.' | '+' | '-' | '*' | '/' | '%' | '<' | '>' | '?' => chain += 1,
                '=' | '!' if at(i + 1) == Some('=') => {
                    chain += 1;
                    next = i + 2;
                }
                _ => {}
            }
            if chain > MAX_CHAIN {
                return Err((
                    offset,
                    format!("expression exceeds the limit of {MAX_CHAIN} operators, member accesses and indexes"),
                ));
            }
            i = next;
        }
        Ok(())
    }

    /// The index after the string literal whose opening quote is at `i` (prefix already read),
    /// as the CEL grammar's `STRING` rule and ANTLR's longest match delimit it; `None` when no
    /// valid literal starts there (the lexer then reports an error and goes on with the text
    /// after it, which the caller scans as code).
    fn string_end(cs: &[(usize, char)], i: usize, raw: bool) -> Option<usize> {
        let at = |k: usize| cs.get(k).map(|c| c.1);
        let quote = at(i)?;
        if at(i + 1) == Some(quote) && at(i + 2) == Some(quote) {
            let mut j = i + 3;
            loop {
                match at(j) {
                    None => break,
                    Some(c) if c == quote && at(j + 1) == Some(quote) && at(j + 2) == Some(quote) => {
                        return Some(j + 3)
                    }
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
    fn escape_len(cs: &[(usize, char)], j: usize) -> Option<usize> {
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

    /// cel-rust's parse errors in cel-go's format.
    fn parse_errors(src: &str, errors: &ParseErrors) -> String {
        let text: Vec<String> = errors
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
                let column = usize::try_from(e.pos.1).unwrap_or(0);
                located(src, line, column, &message)
            })
            .collect();
        if text.is_empty() {
            String::from("ERROR: <input>:1:1: Syntax error")
        } else {
            text.join("\n")
        }
    }

    /// Where a checker finding points: the Pratt parser keeps no node positions, so a finding
    /// about a name (`... '<name>' ...`) points at the first occurrence of that name as a token
    /// outside string literals, and any other finding at the start of the rule.
    fn offset_of(rule: &str, message: &str) -> usize {
        let Some(name) = message.split('\'').nth(1).filter(|n| !n.is_empty()) else {
            return 0;
        };
        let bytes = rule.as_bytes();
        let next_significant = |mut j: usize| {
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            j
        };
        // The text before `start` ends with a macro call's opening bracket: `x` in `.exists(x, ...)`
        // is the macro's own variable, not a reference.
        let binds = |start: usize| {
            let before = rule[..start].trim_end();
            before.strip_suffix('(').is_some_and(|b| {
                ["exists", "all", "exists_one", "existsOne", "map", "filter"].iter().any(|m| b.ends_with(m))
            })
        };
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
                    if &rule[start..i] == name && !binds(start) {
                        // cel-go points a call at its opening bracket.
                        let j = next_significant(i);
                        return if bytes.get(j) == Some(&b'(') { j } else { start };
                    }
                }
                _ => i += 1,
            }
        }
        0
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
    /// line and a caret under the column.
    fn located(src: &str, line: usize, column: usize, message: &str) -> String {
        let mut out = format!("ERROR: <input>:{line}:{column}: {message}");
        if line >= 1 {
            if let Some(text) = src.split('\n').nth(line - 1) {
                let text = text.trim_end_matches('\r').replace('\t', " ");
                out.push_str("\n | ");
                out.push_str(&text);
                out.push_str("\n | ");
                out.push_str(&".".repeat(column.saturating_sub(1)));
                out.push('^');
            }
        }
        out
    }

    /// A static type, as far as the checks need it.
    #[derive(Clone, Debug, PartialEq)]
    enum Ty {
        /// Not known yet: the elements of an empty list or map literal. Joins with anything.
        Unknown,
        /// Any value: properties' contents, and mixed or unknown results.
        Dyn,
        /// `bool`.
        Bool,
        /// `int`.
        Int,
        /// `uint`.
        Uint,
        /// `double`.
        Double,
        /// `string`.
        String,
        /// `bytes`.
        Bytes,
        /// `null_type`.
        Null,
        /// `type` (type names such as `int`, and `type(x)`).
        Type,
        /// `list(element)`.
        List(Box<Ty>),
        /// `map(key, value)`.
        Map(Box<Ty>, Box<Ty>),
    }

    impl Ty {
        /// The type's name in cel-go's messages.
        fn name(&self) -> String {
            match self {
                Ty::Unknown | Ty::Dyn => String::from("dyn"),
                Ty::Bool => String::from("bool"),
                Ty::Int => String::from("int"),
                Ty::Uint => String::from("uint"),
                Ty::Double => String::from("double"),
                Ty::String => String::from("string"),
                Ty::Bytes => String::from("bytes"),
                Ty::Null => String::from("null_type"),
                Ty::Type => String::from("type"),
                Ty::List(e) => format!("list({})", e.name()),
                Ty::Map(k, v) => format!("map({}, {})", k.name(), v.name()),
            }
        }

        /// Whether a value of this type may be a bool.
        fn may_be_bool(&self) -> bool {
            matches!(self, Ty::Bool | Ty::Dyn | Ty::Unknown)
        }

        /// Whether the type is dynamic (checks on it are left to evaluation).
        fn is_dyn(&self) -> bool {
            matches!(self, Ty::Dyn | Ty::Unknown)
        }
    }

    /// The common type of two values of one expression (list elements, map keys or values, the
    /// branches of `? :`, a comprehension's accumulator): the type if equal, else dyn (element
    /// types joined inside lists and maps).
    fn join(a: Ty, b: Ty) -> Ty {
        match (a, b) {
            (a, b) if a == b => a,
            (Ty::Unknown, t) | (t, Ty::Unknown) => t,
            (Ty::List(x), Ty::List(y)) => Ty::List(Box::new(join(*x, *y))),
            (Ty::Map(k1, v1), Ty::Map(k2, v2)) => Ty::Map(Box::new(join(*k1, *k2)), Box::new(join(*v1, *v2))),
            _ => Ty::Dyn,
        }
    }

    /// Undeclared-reference and type checks with type inference, over cel-rust's AST.
    struct Checker<'a> {
        /// Variables bound by enclosing comprehensions, innermost last.
        scopes: Vec<(&'a str, Ty)>,
        /// Issues found: the node they are about and the message.
        errors: Vec<(u64, String)>,
        /// Whether [`MAX_CHECK_DEPTH`] was hit (reported once).
        too_deep: bool,
    }

    impl<'a> Checker<'a> {
        /// The type of `e`, recording issues in it.
        fn check(&mut self, e: &'a IdedExpr, depth: usize) -> Ty {
            if depth > MAX_CHECK_DEPTH {
                if !self.too_deep {
                    self.too_deep = true;
                    self.errors.push((e.id, String::from("expression nesting exceeds the supported depth")));
                }
                return Ty::Dyn;
            }
            let depth = depth + 1;
            match &e.expr {
                Expr::Unspecified => {
                    self.errors.push((e.id, String::from("invalid expression")));
                    Ty::Dyn
                }
                Expr::Literal(literal) => match literal {
                    LiteralValue::Boolean(_) => Ty::Bool,
                    LiteralValue::Bytes(_) => Ty::Bytes,
                    LiteralValue::Double(_) => Ty::Double,
                    LiteralValue::Int(_) => Ty::Int,
                    LiteralValue::Null => Ty::Null,
                    LiteralValue::String(_) => Ty::String,
                    LiteralValue::UInt(_) => Ty::Uint,
                },
                Expr::Ident(name) => self.ident(e.id, name),
                Expr::Select(select) => {
                    let operand = self.check(&select.operand, depth);
                    if !matches!(operand, Ty::Map(..)) && !operand.is_dyn() {
                        self.errors.push((e.id, format!("type '{}' does not support field selection", operand.name())));
                    }
                    match operand {
                        _ if select.test => Ty::Bool,
                        Ty::Map(_, value) => *value,
                        _ => Ty::Dyn,
                    }
                }
                Expr::List(list) => {
                    if !list.optional_indices.is_empty() {
                        self.errors.push((e.id, String::from("unsupported syntax '?'")));
                    }
                    let mut element = Ty::Unknown;
                    for x in &list.elements {
                        let t = self.check(x, depth);
                        element = join(element, t);
                    }
                    Ty::List(Box::new(element))
                }
                Expr::Map(map) => {
                    let (mut key, mut value) = (Ty::Unknown, Ty::Unknown);
                    for entry in &map.entries {
                        match &entry.expr {
                            EntryExpr::MapEntry(m) => {
                                if m.optional {
                                    self.errors.push((entry.id, String::from("unsupported syntax '?'")));
                                }
                                let k = self.check(&m.key, depth);
                                key = join(key, k);
                                let v = self.check(&m.value, depth);
                                value = join(value, v);
                            }
                            EntryExpr::StructField(_) => {
                                self.errors.push((entry.id, String::from("invalid map entry")));
                            }
                        }
                    }
                    Ty::Map(Box::new(key), Box::new(value))
                }
                Expr::Struct(message) => {
                    // OLM's environment declares no message types. Not descending into the fields:
                    // one issue is enough.
                    self.errors
                        .push((e.id, format!("undeclared reference to '{}' (in container '')", message.type_name)));
                    Ty::Dyn
                }
                Expr::Comprehension(comprehension) => self.comprehension(comprehension, depth),
                Expr::Call(call) => self.call(e.id, call, depth),
            }
        }

        /// A variable: bound by a comprehension, `properties`, or a type name.
        fn ident(&mut self, id: u64, name: &'a str) -> Ty {
            // `.x` names the global `x`, skipping comprehension variables.
            let global = match name.strip_prefix('.') {
                Some(global) => global,
                None => {
                    if let Some((_, t)) = self.scopes.iter().rev().find(|(n, _)| *n == name) {
                        return t.clone();
                    }
                    name
                }
            };
            if global == "properties" {
                Ty::List(Box::new(Ty::Map(Box::new(Ty::String), Box::new(Ty::Dyn))))
            } else if TYPE_NAMES.contains(&global) {
                Ty::Type
            } else {
                self.errors.push((id, format!("undeclared reference to '{global}' (in container '')")));
                Ty::Dyn
            }
        }

        /// A macro expansion: the range's elements bound to the iteration variable, the
        /// accumulator's type from its initial value and its step.
        fn comprehension(&mut self, c: &'a ComprehensionExpr, depth: usize) -> Ty {
            let range = self.check(&c.iter_range, depth);
            let element = match range {
                Ty::List(element) if *element != Ty::Unknown => *element,
                Ty::Map(key, _) if *key != Ty::Unknown => *key,
                Ty::List(_) | Ty::Map(..) | Ty::Dyn | Ty::Unknown => Ty::Dyn,
                other => {
                    self.errors.push((
                        c.iter_range.id,
                        format!(
                            "expression of type '{}' cannot be range of a comprehension (must be list, map, or dynamic)",
                            other.name()
                        ),
                    ));
                    Ty::Dyn
                }
            };
            let init = self.check(&c.accu_init, depth);
            let bound = self.scopes.len();
            self.scopes.push((&c.accu_var, init.clone()));
            self.scopes.push((&c.iter_var, element));
            if let Some(second) = &c.iter_var2 {
                self.scopes.push((second, Ty::Dyn));
            }
            self.check(&c.loop_cond, depth);
            let step = self.check(&c.loop_step, depth);
            self.scopes.truncate(bound);
            self.scopes.push((&c.accu_var, join(init, step)));
            let result = self.check(&c.result, depth);
            self.scopes.truncate(bound);
            result
        }

        /// An operator or function call.
        fn call(&mut self, id: u64, call: &'a CallExpr, depth: usize) -> Ty {
            let target = call.target.as_ref().map(|t| self.check(t, depth));
            let args: Vec<Ty> = call.args.iter().map(|a| self.check(a, depth)).collect();
            let name = call.func_name.as_str();
            let Some(target) = target else {
                return self.global_call(id, name, args);
            };
            let counts = MEMBER_FUNCTIONS.iter().find(|(n, _)| *n == name).map(|(_, counts)| *counts);
            match counts {
                Some(counts) if counts.contains(&args.len()) => match name {
                    "size" => Ty::Int,
                    "contains" | "startsWith" | "endsWith" | "matches" => Ty::Bool,
                    _ => Ty::Int,
                },
                _ if counts.is_some() || GLOBAL_FUNCTIONS.iter().any(|(n, _)| *n == name) => {
                    let args: Vec<String> = args.iter().map(Ty::name).collect();
                    self.errors.push((
                        id,
                        format!(
                            "found no matching overload for '{name}' applied to '{}.({})'",
                            target.name(),
                            args.join(", ")
                        ),
                    ));
                    Ty::Dyn
                }
                _ => {
                    self.errors.push((id, format!("undeclared reference to '{name}' (in container '')")));
                    Ty::Dyn
                }
            }
        }

        /// A call without a receiver: operators and global functions.
        fn global_call(&mut self, id: u64, name: &str, args: Vec<Ty>) -> Ty {
            match (name, args.as_slice()) {
                (operators::LOGICAL_AND | operators::LOGICAL_OR, [a, b]) => {
                    if !a.may_be_bool() || !b.may_be_bool() {
                        self.no_overload(id, name, &args);
                    }
                    Ty::Bool
                }
                (operators::LOGICAL_NOT, [a]) => {
                    if !a.may_be_bool() {
                        self.no_overload(id, name, &args);
                    }
                    Ty::Bool
                }
                (operators::NOT_STRICTLY_FALSE, [_]) => Ty::Bool,
                (
                    operators::EQUALS
                    | operators::NOT_EQUALS
                    | operators::LESS
                    | operators::LESS_EQUALS
                    | operators::GREATER
                    | operators::GREATER_EQUALS
                    | operators::IN,
                    [_, _],
                ) => Ty::Bool,
                (operators::ADD, [a, b]) => match (a, b) {
                    (Ty::List(_), Ty::List(_)) => join(a.clone(), b.clone()),
                    (Ty::Int | Ty::Uint | Ty::Double | Ty::String | Ty::Bytes, _) if a == b => a.clone(),
                    _ => Ty::Dyn,
                },
                (operators::SUBSTRACT | operators::MULTIPLY | operators::DIVIDE | operators::MODULO, [a, b]) => match a
                {
                    Ty::Int | Ty::Uint | Ty::Double if a == b => a.clone(),
                    _ => Ty::Dyn,
                },
                (operators::NEGATE, [a]) => match a {
                    Ty::Int | Ty::Double => a.clone(),
                    _ => Ty::Dyn,
                },
                (operators::INDEX, [operand, _]) => match operand {
                    Ty::List(element) => match **element {
                        Ty::Unknown => Ty::Dyn,
                        ref t => t.clone(),
                    },
                    Ty::Map(_, value) => match **value {
                        Ty::Unknown => Ty::Dyn,
                        ref t => t.clone(),
                    },
                    Ty::Dyn | Ty::Unknown => Ty::Dyn,
                    _ => {
                        self.no_overload(id, name, &args);
                        Ty::Dyn
                    }
                },
                (operators::CONDITIONAL, [condition, a, b]) => {
                    if !condition.may_be_bool() {
                        self.no_overload(id, name, &args);
                    }
                    join(a.clone(), b.clone())
                }
                _ => match GLOBAL_FUNCTIONS.iter().find(|(n, _)| *n == name) {
                    Some((_, count)) if *count == args.len() => match name {
                        "size" | "int" | "semver_compare" => Ty::Int,
                        "uint" => Ty::Uint,
                        "double" => Ty::Double,
                        "string" => Ty::String,
                        "bytes" => Ty::Bytes,
                        "bool" | "matches" => Ty::Bool,
                        "type" => Ty::Type,
                        _ => Ty::Dyn,
                    },
                    Some(_) => {
                        self.no_overload(id, name, &args);
                        Ty::Dyn
                    }
                    None if name.starts_with(['_', '@', '!', '-'])
                        || MEMBER_FUNCTIONS.iter().any(|(n, _)| *n == name) =>
                    {
                        self.no_overload(id, name, &args);
                        Ty::Dyn
                    }
                    None => {
                        self.errors.push((id, format!("undeclared reference to '{name}' (in container '')")));
                        Ty::Dyn
                    }
                },
            }
        }

        /// cel-go's issue for a call no overload accepts.
        fn no_overload(&mut self, id: u64, name: &str, args: &[Ty]) {
            let args: Vec<String> = args.iter().map(Ty::name).collect();
            self.errors
                .push((id, format!("found no matching overload for '{name}' applied to '({})'", args.join(", "))));
        }
    }
}

#[cfg(all(test, not(feature = "cel")))]
mod tests_without_cel {
    use super::*;

    #[test]
    fn compile_is_unsupported() {
        let err = CelRule::compile("true").unwrap_err();
        assert_eq!(err, CelError::Unsupported);
        assert_eq!(err.to_string(), "cel constraints are not supported by this build (feature `cel` is disabled)");
    }
}

#[cfg(all(test, feature = "cel"))]
mod tests {
    use super::*;
    use serde_json::{json, Value as Json};

    /// Evaluates `rule` against `(type, value)` properties.
    fn eval(rule: &str, properties: &[(&str, Json)]) -> bool {
        let rule = CelRule::compile(rule).unwrap_or_else(|e| panic!("{rule}: {e}"));
        let props: Vec<(&str, &Json)> = properties.iter().map(|(t, v)| (*t, v)).collect();
        rule.matches(&props)
    }

    /// The compile error text of `rule`.
    fn compile_error(rule: &str) -> String {
        match CelRule::compile(rule) {
            Err(CelError::Compile(text)) => text,
            Err(other) => panic!("{rule}: expected a compile error, got {other:?}"),
            Ok(_) => panic!("{rule}: expected a compile error, compiled"),
        }
    }

    /// Runs `f` on a thread with a large stack: unoptimized builds have large frames, so
    /// deep-but-allowed rules may need more than the 2 MiB test threads have.
    fn with_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::Builder::new().stack_size(256 << 20).spawn(f).unwrap().join().unwrap()
    }

    // Conformance cases of kind `cel` (olm-resolver.json).

    #[test]
    fn conformance_equal_true() {
        let rule = "properties.exists(p, p.type == 'olm.test' && (semver_compare(p.value, '1.0.0') == 0))";
        assert!(eval(rule, &[("olm.test", json!("1.0.0"))]));
    }

    #[test]
    fn conformance_not_equal_false() {
        let rule = "properties.exists(p, p.type == 'olm.test' && (semver_compare(p.value, '1.0.1') == 0))";
        assert!(!eval(rule, &[("olm.test", json!("1.0.0"))]));
    }

    #[test]
    fn conformance_larger_false() {
        let rule = "properties.exists(p, p.type == 'olm.test' && (semver_compare(p.value, '1.0.0') > 0))";
        assert!(!eval(rule, &[("olm.test", json!("1.0.0"))]));
    }

    #[test]
    fn conformance_unknown_function() {
        let rule = "properties.exists(p, p.type == 'olm.test' && (doesnt_exist(p.value, '1.0.0') == 0))";
        let text = compile_error(rule);
        let expected = format!(
            "ERROR: <input>:1:59: undeclared reference to 'doesnt_exist' (in container '')\n | {rule}\n | {}^",
            ".".repeat(58)
        );
        assert_eq!(text, expected);
    }

    // Rules of res/cel-* (olm-resolver.json).

    /// The properties of opB.v1.0.0 in `res/cel-constraint-gvk`.
    fn provider() -> Vec<(&'static str, Json)> {
        vec![
            ("olm.gvk", json!({"group": "g", "kind": "k", "version": "v"})),
            ("olm.package", json!({"packageName": "another-package", "version": "1.0.0"})),
        ]
    }

    #[test]
    fn res_cel_constraint_gvk() {
        let rule =
            "properties.exists(p, p.type == 'olm.gvk' && p.value == {'group': 'g', 'version': 'v', 'kind': 'k'})";
        assert!(eval(rule, &provider()));
        // opA's own properties have no olm.gvk.
        let own = [
            ("olm.constraint", json!({"failureMessage": "gvk-constraint", "cel": {"rule": rule}})),
            ("olm.package", json!({"packageName": "test-package", "version": "1.0.0"})),
        ];
        assert!(!eval(rule, &own));
    }

    #[test]
    fn res_cel_constraint_unsatisfiable() {
        let rule =
            "properties.exists(p, p.type == 'olm.gvk' && p.value == {'group': 'g2', 'version': 'v', 'kind': 'k'})";
        assert!(!eval(rule, &provider()));
    }

    #[test]
    fn spec_examples() {
        let rule = "properties.exists(p, p.type == 'olm.package' && p.value.packageName == 'x' && \
                    semver_compare(p.value.version, '1.0.1') == 0)";
        assert!(eval(rule, &[("olm.package", json!({"packageName": "x", "version": "1.0.1"}))]));
        assert!(eval(rule, &[("olm.package", json!({"packageName": "x", "version": "v1.0.1"}))]));
        assert!(!eval(rule, &[("olm.package", json!({"packageName": "x", "version": "1.0.2"}))]));
        assert!(!eval(rule, &[("olm.package", json!({"packageName": "y", "version": "1.0.1"}))]));
    }

    // Static type checks.

    #[test]
    fn non_bool_rules_are_rejected() {
        for rule in [
            "properties[0].value",
            "1 + 1",
            "properties",
            "properties[0]",
            "dyn(true)",
            "'a'",
            "size(properties)",
            "semver_compare('1.0.0', '1.0.0')",
            "properties.map(p, p.type)",
            "true ? true : properties[0].value",
            "[][0]",
        ] {
            assert_eq!(CelRule::compile(rule).unwrap_err(), CelError::NotBool, "{rule}");
        }
        assert_eq!(CelError::NotBool.to_string(), "cel expressions must have type Bool");
    }

    #[test]
    fn bool_rules_are_accepted() {
        for rule in [
            "true",
            "false || true",
            "!false",
            "[true][0]",
            "{'a': true}.a",
            "{'a': true}['a']",
            "bool('true')",
            "has(properties[0].value)",
            "size(properties) > 0",
            "properties.size() >= 0",
            "'x' in ['x']",
            "properties.all(p, p.type != '')",
            "properties.exists_one(p, p.type == 'olm.gvk')",
            "properties.map(p, p.type).exists(t, t == 'olm.gvk')",
            "properties.filter(p, p.type == 'x').size() == 0",
            "properties.map(p, p.type == 'olm.gvk')[0]",
            "properties.exists(p, p.value.startsWith('1') || p.value.contains('x') || p.value.endsWith('y'))",
            "true ? true : false",
            "properties[0].type == 'olm.gvk' ? true : false",
            "1 == 1.0",
            "type(1) == int",
            ".properties == []",
            "properties.exists(p, p.value.matches('^1'))",
        ] {
            if let Err(e) = CelRule::compile(rule) {
                panic!("{rule}: {e}");
            }
        }
    }

    #[test]
    fn unknown_variable() {
        let text = compile_error("x == 1");
        assert_eq!(text, "ERROR: <input>:1:1: undeclared reference to 'x' (in container '')\n | x == 1\n | ^");
        // A macro's variable is only bound within the macro.
        let text = compile_error("properties.exists(p, true) && p.type == 'x'");
        assert!(text.contains("undeclared reference to 'p' (in container '')"), "{text}");
        assert!(text.starts_with("ERROR: <input>:1:31:"), "{text}");
    }

    #[test]
    fn macro_variables_are_known() {
        for rule in [
            "properties.exists(p, properties.all(q, p.type == q.type || q.type != p.type))",
            "properties.exists(properties, properties.type == 'x')",
            "[1, 2].map(x, x * 2).exists(y, y == 4)",
            "[1, 2].map(x, x > 1, x * 2).exists(y, y == 4)",
            "{'a': 1}.all(k, k == 'a')",
        ] {
            if let Err(e) = CelRule::compile(rule) {
                panic!("{rule}: {e}");
            }
        }
        assert!(eval("[1, 2].map(x, x > 1, x * 2).exists(y, y == 4)", &[]));
        assert!(!eval("[1, 2].map(x, x > 1, x * 2).exists(y, y == 2)", &[]));
    }

    #[test]
    fn unknown_functions() {
        let text = compile_error("properties.exists(p, p.value.foo())");
        assert!(text.contains("undeclared reference to 'foo' (in container '')"), "{text}");
        // Standard functions with the wrong call style or argument count.
        for (rule, message) in [
            (
                "size(properties, 1) == 1",
                "found no matching overload for 'size' applied to '(list(map(string, dyn)), int)'",
            ),
            ("contains('a', 'b')", "found no matching overload for 'contains' applied to '(string, string)'"),
            (
                "'1.0.0'.semver_compare('1.0.0') == 0",
                "found no matching overload for 'semver_compare' applied to 'string.(string)'",
            ),
            ("semver_compare('1.0.0') == 0", "found no matching overload for 'semver_compare' applied to '(string)'"),
            ("optional.of(1) == 1", "undeclared reference to 'optional' (in container '')"),
            ("max(1, 2) == 2", "undeclared reference to 'max' (in container '')"),
        ] {
            let text = compile_error(rule);
            assert!(text.contains(message), "{rule}: {text}");
        }
    }

    #[test]
    fn type_errors_cel_go_reports() {
        for (rule, message) in [
            ("properties.all(p, p)", "found no matching overload for '_&&_' applied to '(bool, map(string, dyn))'"),
            ("properties.exists(p, 1)", "found no matching overload for '_||_' applied to '(bool, int)'"),
            ("!1", "found no matching overload for '!_' applied to '(int)'"),
            ("1 ? true : false", "found no matching overload for '_?_:_' applied to '(int, bool, bool)'"),
            ("properties.type == 'x'", "type 'list(map(string, dyn))' does not support field selection"),
            ("'abc'[0] == 'a'", "found no matching overload for '_[_]' applied to '(string, int)'"),
            (
                "1.exists(x, true)",
                "expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)",
            ),
            ("Foo{a: 1} == 1", "undeclared reference to 'Foo' (in container '')"),
        ] {
            let text = compile_error(rule);
            assert!(text.contains(message), "{rule}: {text}");
        }
    }

    #[test]
    fn syntax_errors() {
        let text = compile_error("properties.exists(p,");
        assert!(text.starts_with("ERROR: <input>:1:21: Syntax error: mismatched input '<EOF>'"), "{text}");
        assert!(text.contains("\n | properties.exists(p,\n | ....................^"), "{text}");
        for rule in
            ["", "1 +", ")", "'unterminated", "\"\\q\"", "properties[?0] == 1", "{?'a': 1} == {}", "a.?b", "`a`"]
        {
            compile_error(rule);
        }
    }

    #[test]
    fn positions_count_code_points_and_lines() {
        let text = compile_error("'é' == x");
        assert!(text.starts_with("ERROR: <input>:1:8: undeclared reference to 'x'"), "{text}");
        let text = compile_error("true &&\n  y");
        assert!(text.starts_with("ERROR: <input>:2:3: undeclared reference to 'y'"), "{text}");
        assert!(text.ends_with("\n |   y\n | ..^"), "{text}");
    }

    #[test]
    fn several_issues_in_source_order() {
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

    // Evaluation.

    #[test]
    fn semver_compare_parse_failure_is_no_match() {
        let rule = "properties.exists(p, p.type == 'olm.test' && semver_compare(p.value, '1.0.0') == 0)";
        assert!(!eval(rule, &[("olm.test", json!("not-a-version"))]));
        assert!(!eval(rule, &[("olm.test", json!({"a": 1}))]));
        assert!(!eval(rule, &[("olm.test", json!(null))]));
        // The error propagates through `!` rather than becoming true.
        assert!(!eval("!(semver_compare('x', '1.0.0') == 0)", &[]));
        // ... and is absorbed by `||`.
        assert!(eval("semver_compare('x', '1.0.0') == 0 || true", &[]));
    }

    #[test]
    fn semver_compare_formats_numbers_like_go() {
        let rule = "properties.exists(p, semver_compare(p.value, '1.0.0') == 0)";
        assert!(eval(rule, &[("olm.test", json!(1))]));
        assert!(eval(rule, &[("olm.test", json!(1.0))]));
        assert!(!eval(rule, &[("olm.test", json!(1.5))]));
        assert!(eval("semver_compare(1.5, '1.5.0') == 0", &[]));
        assert!(eval("semver_compare(2, 'v2') == 0", &[]));
        assert!(eval("semver_compare('1.0.0', '1.0.1') == -1 && semver_compare('1.0.1', '1.0.0') == 1", &[]));
        assert!(eval("semver_compare('1.0.0-alpha', '1.0.0') < 0", &[]));
        assert!(eval("semver_compare('1.0.0+build', '1.0.0') == 0", &[]));
        // 1e6 prints as 1e+06 in Go, which is not a version.
        assert!(!eval("semver_compare(1000000.0, '1000000.0.0') == 0", &[]));
    }

    #[test]
    fn go_float_formatting() {
        for (f, text) in [
            (1.0, "1"),
            (1.5, "1.5"),
            (-2.5, "-2.5"),
            (0.0, "0"),
            (-0.0, "-0"),
            (100000.0, "100000"),
            (123456.0, "123456"),
            (1e6, "1e+06"),
            (1234567.0, "1.234567e+06"),
            (12345.678, "12345.678"),
            (0.0001, "0.0001"),
            (0.00012, "0.00012"),
            (0.00001, "1e-05"),
            (0.1, "0.1"),
            (1e100, "1e+100"),
            (1.25e-7, "1.25e-07"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "+Inf"),
            (f64::NEG_INFINITY, "-Inf"),
        ] {
            assert_eq!(imp::go_float(f), text, "{f}");
        }
    }

    #[test]
    fn runtime_errors_are_no_match() {
        let props = [("olm.test", json!("1.0.0"))];
        for rule in [
            "properties[5].type == 'x'",
            "properties[0].value.missing == 1",
            "1 / 0 == 1",
            "properties[0].value > 1",
            "properties.exists(p, p.value.matches('1'))",
            "properties[0].value == 1 && properties[0].value.x",
        ] {
            assert!(!eval(rule, &props), "{rule}");
        }
        // Negation of an error is still an error, so still no match.
        assert!(!eval("!(properties[0].value.missing == 1)", &props));
    }

    #[test]
    fn errors_are_absorbed_by_logical_operators() {
        let props = [("olm.test", json!("1.0.0"))];
        assert!(eval("properties[0].value.missing == 1 || true", &props));
        assert!(eval("true || properties[0].value.missing == 1", &props));
        assert!(!eval("properties[0].value.missing == 1 && false", &props));
        assert!(!eval("false && properties[0].value.missing == 1", &props));
        assert!(!eval("properties[0].value.missing == 1 || false", &props));
        // Across the elements of exists/all too.
        let props = [("a", json!({})), ("b", json!({"x": 1}))];
        assert!(eval("properties.exists(p, p.value.x == 1)", &props));
        assert!(!eval("properties.all(p, p.value.x == 2)", &props));
        assert!(!eval("properties.all(p, p.value.x == 1)", &props));
    }

    #[test]
    fn numbers_are_doubles_and_compare_with_ints() {
        let props = [("olm.test", json!({"replicas": 3, "ratio": 0.5, "list": [1, 2]}))];
        assert!(eval("properties[0].value.replicas == 3", &props));
        assert!(eval("properties[0].value.replicas == 3.0", &props));
        assert!(eval("properties[0].value.replicas > 2", &props));
        assert!(eval("properties[0].value.ratio < 1", &props));
        assert!(eval("properties[0].value.list == [1, 2]", &props));
        assert!(eval("2 in properties[0].value.list", &props));
        assert!(eval("type(properties[0].value.replicas) == double", &props));
        assert!(eval("properties[0].value == {'replicas': 3, 'ratio': 0.5, 'list': [1.0, 2.0]}", &props));
    }

    #[test]
    fn json_values_map_to_cel_values() {
        let props = [
            ("s", json!("text")),
            ("b", json!(true)),
            ("n", json!(null)),
            ("o", json!({"k": {"nested": ["x", false, null]}})),
        ];
        assert!(eval("properties[0].value == 'text' && properties[0].type == 's'", &props));
        assert!(eval("properties[1].value == true", &props));
        assert!(eval("properties[2].value == null", &props));
        assert!(eval("properties[3].value.k.nested[0] == 'x' && !properties[3].value.k.nested[1]", &props));
        assert!(eval("properties[3].value.k.nested[2] == null && has(properties[3].value.k)", &props));
        assert!(eval("size(properties) == 4 && properties.map(p, p.type) == ['s', 'b', 'n', 'o']", &props));
        // No properties at all.
        assert!(eval("size(properties) == 0 && !properties.exists(p, true)", &[]));
    }

    #[test]
    fn deeply_nested_json_is_passed_as_null() {
        let mut value = json!(1);
        for _ in 0..200 {
            value = json!([value]);
        }
        let props = [("deep", value), ("flat", json!(1))];
        assert!(eval("properties[0].value == null && properties[1].value == 1", &props));
    }

    #[test]
    fn literals_in_strings_and_comments_do_not_count() {
        let parens = "(".repeat(200);
        let dots = ".".repeat(2000);
        assert!(eval(&format!("'{parens}' != '{dots}' // {parens}{dots}\n"), &[]));
        assert!(eval(&format!("r'{parens}' != b\"{dots}\" && '''{parens}\n{dots}''' != ''"), &[]));
    }

    #[test]
    fn deep_nesting_is_rejected_without_recursion() {
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
    fn too_long_rules_are_rejected() {
        let rule = format!("'{}' == ''", "x".repeat(MAX_CODE_POINTS));
        let text = compile_error(&rule);
        assert_eq!(
            text,
            format!("expression code point size exceeds limit: size: {}, limit 100000", MAX_CODE_POINTS + 8)
        );
    }

    #[test]
    fn precheck_skips_exactly_the_string_literals() {
        // Valid literals are skipped, whatever they contain.
        assert_eq!(imp::precheck(&format!("'{}'", "(".repeat(100))), Ok(()));
        assert_eq!(imp::precheck(&format!("'\\'{}'", "(".repeat(100))), Ok(()));
        assert_eq!(imp::precheck(&format!("'''{}\n'''", "(".repeat(100))), Ok(()));
        // Not literals (invalid escape, newline, unterminated): scanned as code.
        assert!(imp::precheck(&format!("'\\q{}'", "(".repeat(100))).is_err());
        assert!(imp::precheck(&format!("'\n{}'", "(".repeat(100))).is_err());
        assert!(imp::precheck(&format!("'''{}", "(".repeat(100))).is_err());
        // In a raw literal a backslash escapes nothing: r'\' ends at its second quote.
        assert!(imp::precheck(&format!("r'\\'{}'", "(".repeat(100))).is_err());
        // `xr` is an identifier, not a raw prefix: the string is not raw and `\'` escapes.
        assert_eq!(imp::precheck(&format!("xr'\\'{}'", "(".repeat(100))), Ok(()));
    }

    #[test]
    fn no_panic_on_token_soup() {
        const TOKENS: &[&str] = &[
            "properties",
            "p",
            "x",
            ".",
            "exists",
            "all",
            "map",
            "filter",
            "exists_one",
            "has",
            "(",
            ")",
            "[",
            "]",
            "{",
            "}",
            ",",
            ":",
            "?",
            "!",
            "-",
            "+",
            "*",
            "/",
            "%",
            "==",
            "!=",
            "<",
            "<=",
            ">",
            ">=",
            "&&",
            "||",
            "in",
            "1",
            "1u",
            "1.5",
            "-9223372036854775808",
            "'s'",
            "\"t\"",
            "b'\\xff'",
            "r'\\'",
            "'''m'''",
            "true",
            "false",
            "null",
            "size",
            "semver_compare",
            "type",
            "value",
            "'1.0.0'",
            "int",
            "dyn",
            "Foo",
            "`a`",
            ".?",
            "[?",
            "//c\n",
            "\\",
            "'",
            "é",
            " ",
        ];
        with_big_stack(|| {
            let props_data = [("olm.test", json!("1.0.0")), ("olm.gvk", json!({"group": "g", "n": [1, 2.5]}))];
            let props: Vec<(&str, &Json)> = props_data.iter().map(|(t, v)| (*t, v)).collect();
            let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
            let mut next = move || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed
            };
            let mut compiled = 0;
            for _ in 0..600 {
                let len = (next() % 24) as usize + 1;
                let rule: String = (0..len).map(|_| TOKENS[(next() % TOKENS.len() as u64) as usize]).collect();
                if let Ok(rule) = CelRule::compile(&rule) {
                    compiled += 1;
                    rule.matches(&props);
                }
            }
            assert!(compiled > 0);
        });
    }

    #[test]
    fn rule_text_and_debug() {
        let rule = CelRule::compile("true").unwrap();
        assert_eq!(rule.rule(), "true");
        assert!(format!("{rule:?}").contains("\"true\""));
        fn send_sync<T: Send + Sync>() {}
        send_sync::<CelRule>();
    }
}
