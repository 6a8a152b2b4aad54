//! CEL rules of `olm.constraint` (resolver spec §5.3): the public surface ([`CelRule`],
//! [`CelError`]) and the compile pipeline that ties the files of this crate together. The
//! resolver names it `resolve::cel`; a crate of its own so that the WebAssembly profile compiles
//! it for size, as it does the `cel` interpreter (Cargo.toml, `[profile.wasm.package.olm-catalog-cel]`):
//! rules are compiled once per catalog and evaluated a few times per resolution.
//!
//! This crate owns everything about the `cel` kind of generic constraint:
//! - compiling a rule in OLM's environment (`NewCelEnvironment`): one variable, `properties`, of
//!   type `list(map(string, dyn))`, the CEL standard library and macros, and the custom function
//!   `semver_compare(dyn, dyn) -> int`;
//! - validating it the way cel-go's checker does where it matters for OLM: undeclared variables
//!   and functions are compile errors (cel-go's issue text, with position and source excerpt), and
//!   a rule whose static type is not `bool` is rejected with `cel expressions must have type Bool`;
//! - evaluating a compiled rule against one candidate's properties, where a runtime error or a
//!   non-bool result is "no match", never an error.
//!
//! The files:
//! - `limits.rs`: the input bounds checked on the raw text (size, nesting, operator count);
//! - `cost.rs`: the evaluation cost limit ([`CEL_COST_LIMIT`]): the compiled rule meters its
//!   own work;
//! - `syntax/`: cel-go's (ANTLR's) syntax errors, checked before cel-rust parses a rule;
//! - `checker.rs`: the type checker (bool-only inference, unknown names and functions, overloads);
//! - `texts.rs`: cel-go's issue layout (positions, excerpt and caret lines);
//! - `eval.rs`: the environment, properties as CEL values, evaluation and `semver_compare`;
//! - `go_value.rs`: Go's text for values (`fmt.Sprint`, `%v` of floats), for `semver_compare`.
//!
//! Evaluation uses the `cel` crate (cel-rust). cel-rust has no type checker, so this folder infers
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
//! - an evaluation that costs more than [`CEL_COST_LIMIT`] stops, and the resolution reports the
//!   rule; OLM has no limit (cel-go's cost tracking is off), so such a rule runs until memory or
//!   patience runs out;
//! - rules are parsed with cel-rust's hand-written (Pratt) parser rather than an ANTLR one (the
//!   ANTLR runtime would more than double the WebAssembly module). It keeps no node positions, so
//!   a checker finding about a name points at the first place that name is used (not bound by a
//!   macro), and other checker findings at the start of the rule. Syntax errors are found,
//!   worded and placed as cel-go's ANTLR parser does by `syntax/`, which follows ANTLR's error
//!   recovery for this grammar closely but not in every corner (see there). Ternaries count
//!   toward the operator limit.
//!
//! Stack use: rules at the limits need well under the default 1 MiB wasm stack.
//!
//! Without the `cel` feature the API is the same, but [`CelRule::compile`] always fails with
//! [`CelError::Unsupported`].

#![warn(missing_docs)]

use std::fmt;

#[allow(unused_imports)]
use olm_catalog_format::{declcfg, gotext, sort, version};

#[cfg(feature = "cel")]
mod checker;
#[cfg(feature = "cel")]
mod cost;
#[cfg(feature = "cel")]
mod eval;
#[cfg(feature = "cel")]
mod go_value;
#[cfg(feature = "cel")]
mod limits;
#[cfg(feature = "cel")]
mod syntax;
#[cfg(all(test, feature = "cel"))]
mod test_util;
#[cfg(feature = "cel")]
mod texts;

/// The most one evaluation of a CEL rule may cost: 1,000,000 units, where a unit is one step of
/// a comprehension's expression, one element or entry of a value copied, compared or iterated
/// over, or one byte of a string. An evaluation that reaches it stops ([`CostExceeded`]); the
/// resolver then fails with an error naming the rule rather than treating it as no match. That
/// is about a tenth of a second of work; the rules found in catalogs cost tens of units.
pub const CEL_COST_LIMIT: u64 = 1_000_000;

/// One evaluation within its limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Evaluated {
    /// The rule gave the bool true.
    pub matched: bool,
    /// What the evaluation cost, in [`CEL_COST_LIMIT`]'s units.
    pub cost: u64,
    /// The size of the properties handed to the rule, in the same units (building them is work
    /// too, done before the rule runs).
    pub input: u64,
}

/// An evaluation stopped by its cost limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CostExceeded {
    /// The limit it had.
    pub limit: u64,
    /// What it had spent when it stopped (a little past the limit).
    pub spent: u64,
}

impl fmt::Display for CostExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "evaluation exceeded the cost limit of {} units", self.limit)
    }
}

/// A compiled, validated CEL rule of an olm.constraint.
pub struct CelRule {
    /// The rule text, as written in the constraint.
    rule: String,
    /// The parsed program (macros expanded), validated by [`CelRule::compile`], rewritten to
    /// meter its evaluation (`cost.rs`).
    #[cfg(feature = "cel")]
    program: cel::common::ast::IdedExpr,
}

/// Why a rule cannot be used. Display gives OLM-like messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CelError {
    /// Syntax error or reference to an undeclared variable/function; the String is cel-go's issue
    /// text, e.g. `ERROR: <input>:1:59: undeclared reference to 'doesnt_exist' (in container '')`
    /// or `ERROR: <input>:1:21: Syntax error: missing ')' at '<EOF>'`, each followed by a source
    /// excerpt; several issues follow each other on separate lines, in source order.
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
    /// Syntax errors are cel-go's: e.g. `Syntax error: missing ')' at '<EOF>'`,
    /// `Syntax error: mismatched input '<EOF>' expecting {...}`, `Syntax error: extraneous input
    /// ...`, `Syntax error: token recognition error at: '...'`.
    ///
    /// Rules longer than 100,000 code points (cel-go's default limit), nested deeper than 64
    /// brackets, or with more than 256 binary operators, member accesses and indexes (`&&` and
    /// `||` excepted) are compile errors: the last two bound the recursion of cel-rust's parser
    /// and interpreter. Never panics, whatever the input.
    pub fn compile(rule: &str) -> Result<CelRule, CelError> {
        #[cfg(feature = "cel")]
        {
            let program = cost::meter(&compile_program(rule)?);
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
    ///
    /// An evaluation that reaches [`CEL_COST_LIMIT`] is no match here; [`CelRule::evaluate`]
    /// tells it apart.
    pub fn matches(&self, properties: &[(&str, &serde_json::Value)]) -> bool {
        self.evaluate(properties, CEL_COST_LIMIT).is_ok_and(|e| e.matched)
    }

    /// [`CelRule::matches`] with its cost: the result and what it cost, or [`CostExceeded`]
    /// when the evaluation reached `limit` (at most [`CEL_COST_LIMIT`] is sensible).
    pub fn evaluate(&self, properties: &[(&str, &serde_json::Value)], limit: u64) -> Result<Evaluated, CostExceeded> {
        #[cfg(feature = "cel")]
        {
            eval::evaluate(&self.program, properties, limit)
        }
        #[cfg(not(feature = "cel"))]
        {
            let _ = (properties, limit);
            Ok(Evaluated { matched: false, cost: 0, input: 0 })
        }
    }

    /// [`CelRule::matches`] over the crate's own spanned JSON tree, without going through
    /// serde_json: the same values and the same result (`Value::Null` for a value that failed to
    /// decode; positions are ignored).
    pub fn matches_nodes(&self, properties: &[(&str, &crate::declcfg::Node)]) -> bool {
        self.evaluate_nodes(properties, CEL_COST_LIMIT).is_ok_and(|e| e.matched)
    }

    /// [`CelRule::evaluate`] over the crate's own spanned JSON tree.
    pub fn evaluate_nodes(
        &self,
        properties: &[(&str, &crate::declcfg::Node)],
        limit: u64,
    ) -> Result<Evaluated, CostExceeded> {
        #[cfg(feature = "cel")]
        {
            eval::evaluate(&self.program, properties, limit)
        }
        #[cfg(not(feature = "cel"))]
        {
            let _ = (properties, limit);
            Ok(Evaluated { matched: false, cost: 0, input: 0 })
        }
    }
}

/// [`CelRule::compile`] before metering: bounds, cel-go's syntax errors, parse, checks, bool
/// result.
#[cfg(feature = "cel")]
pub(crate) fn compile_program(rule: &str) -> Result<cel::common::ast::IdedExpr, CelError> {
    limits::check_size(rule).map_err(CelError::Compile)?;
    if let Err((offset, message)) = limits::precheck(rule) {
        let (line, column) = texts::line_column(rule, offset);
        return Err(CelError::Compile(texts::located(rule, line, column, &message)));
    }
    eval::env()?;
    // cel-go's syntax errors first: cel-rust's parser words them differently, and accepts a few
    // rules cel-go's grammar rejects (`!-x`, a line break in a single-quoted string).
    let issues = syntax::diagnose(rule);
    if !issues.is_empty() {
        return Err(CelError::Compile(texts::display(rule, issues)));
    }
    // cel-rust's hand-written (Pratt) parser: the same AST and macros as its ANTLR parser,
    // without the ANTLR runtime, which would triple the size of the WebAssembly module. What it
    // still rejects are cel-go's checks after parsing (reserved words, macro arguments, optional
    // syntax, literals out of range), which it words as cel-go does.
    let parsed = cel::parser::PrattParser::default().enable_optional_syntax(false).parse(rule);
    let program = parsed.map_err(|errors| CelError::Compile(texts::parse_errors(rule, &errors)))?;
    match checker::check(&program) {
        Ok(checker::Ty::Bool) => Ok(program),
        Ok(_) => Err(CelError::NotBool),
        Err(findings) => Err(CelError::Compile(texts::checker_issues(rule, findings))),
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
    //! The public surface against OLM's own cases: the `cel` conformance cases and the rules of
    //! `res/cel-*` (olm-resolver.json), the spec's examples, and robustness.

    use super::test_util::{compile_error, eval, with_big_stack};
    use super::*;
    use serde_json::{json, Value as Json};

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

    /// Pieces of rules, valid and not, that [`no_panic_on_token_soup`] strings together.
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
        "=",
        "|",
        "&",
        "$",
    ];

    #[test]
    fn no_panic_on_token_soup() {
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
                match CelRule::compile(&rule) {
                    Ok(rule) => {
                        compiled += 1;
                        rule.matches(&props);
                    }
                    Err(CelError::Compile(text)) => assert!(text.starts_with("ERROR: <input>:"), "{rule}: {text}"),
                    Err(_) => {}
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
