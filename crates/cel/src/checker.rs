//! The type checker: what cel-go's checker decides for OLM's environment, over cel-rust's AST
//! (cel-rust has none of its own).
//!
//! It infers static types as far as they decide whether a rule is `bool`, and reports with
//! cel-go's wording: references to undeclared variables and functions, calls with no matching
//! overload (wrong argument count or call style, non-bool operands of `!`, `&&`, `||` and the
//! condition of `? :`, indexing a non-container), field selection on non-maps, and ranges of
//! comprehensions that are not lists or maps. Other operand type errors cel-go reports at
//! compile time (e.g. `1 == 'a'`) are left to evaluation, where they are no match.
//!
//! Findings carry the id of the node they are about; the texts module places them in the rule.

use cel::common::ast::{operators, CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedExpr, LiteralValue};

/// Backstop for the inference's own recursion; the input bounds keep real ASTs far below it.
const MAX_CHECK_DEPTH: usize = 1024;

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

/// A static type, as far as the checks need it.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Ty {
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

    /// The type of `properties`: `list(map(string, dyn))`.
    fn properties() -> Ty {
        Ty::List(Box::new(Ty::Map(Box::new(Ty::String), Box::new(Ty::Dyn))))
    }

    /// The element type of an index into this list or value type of this map (`None` when
    /// it cannot be indexed); elements of unknown type are dyn.
    fn indexed(&self) -> Option<Ty> {
        let element = match self {
            Ty::List(element) | Ty::Map(_, element) => (**element).clone(),
            Ty::Dyn | Ty::Unknown => Ty::Dyn,
            _ => return None,
        };
        Some(if element == Ty::Unknown { Ty::Dyn } else { element })
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

/// The static type of `program`, or the issues found in it: (node id, cel-go's message).
pub(super) fn check(program: &IdedExpr) -> Result<Ty, Vec<(u64, String)>> {
    let mut checker = Checker { scopes: Vec::new(), errors: Vec::new(), too_deep: false };
    let ty = checker.check(program, 0);
    if checker.errors.is_empty() {
        Ok(ty)
    } else {
        Err(checker.errors)
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
            Expr::Literal(literal) => literal_type(literal),
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
                let element = list.elements.iter().fold(Ty::Unknown, |t, x| join(t, self.check(x, depth)));
                Ty::List(Box::new(element))
            }
            Expr::Map(map) => self.map(&map.entries, depth),
            Expr::Struct(message) => {
                // OLM's environment declares no message types. Not descending into the fields:
                // one issue is enough.
                self.errors.push((e.id, format!("undeclared reference to '{}' (in container '')", message.type_name)));
                Ty::Dyn
            }
            Expr::Comprehension(comprehension) => self.comprehension(comprehension, depth),
            Expr::Call(call) => self.call(e.id, call, depth),
        }
    }

    /// A map literal: its key and value types joined over the entries.
    fn map(&mut self, entries: &'a [cel::common::ast::IdedEntryExpr], depth: usize) -> Ty {
        let (mut key, mut value) = (Ty::Unknown, Ty::Unknown);
        for entry in entries {
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
            Ty::properties()
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
                let message = format!(
                    "expression of type '{}' cannot be range of a comprehension (must be list, map, or dynamic)",
                    other.name()
                );
                self.errors.push((c.iter_range.id, message));
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
        match target {
            None => self.global_call(id, name, args),
            Some(target) => self.member_call(id, name, &target, &args),
        }
    }

    /// A call with a receiver: `x.size()`, `s.startsWith(p)`, ...
    fn member_call(&mut self, id: u64, name: &str, target: &Ty, args: &[Ty]) -> Ty {
        let counts = MEMBER_FUNCTIONS.iter().find(|(n, _)| *n == name).map(|(_, counts)| *counts);
        match counts {
            Some(counts) if counts.contains(&args.len()) => match name {
                "contains" | "startsWith" | "endsWith" | "matches" => Ty::Bool,
                _ => Ty::Int,
            },
            _ if counts.is_some() || GLOBAL_FUNCTIONS.iter().any(|(n, _)| *n == name) => {
                let args: Vec<String> = args.iter().map(Ty::name).collect();
                let message = format!(
                    "found no matching overload for '{name}' applied to '{}.({})'",
                    target.name(),
                    args.join(", ")
                );
                self.errors.push((id, message));
                Ty::Dyn
            }
            _ => {
                self.errors.push((id, format!("undeclared reference to '{name}' (in container '')")));
                Ty::Dyn
            }
        }
    }

    /// A call without a receiver: operators, then global functions.
    fn global_call(&mut self, id: u64, name: &str, args: Vec<Ty>) -> Ty {
        if let Some(ty) = self.operator(id, name, &args) {
            return ty;
        }
        match GLOBAL_FUNCTIONS.iter().find(|(n, _)| *n == name) {
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
            None if name.starts_with(['_', '@', '!', '-']) || MEMBER_FUNCTIONS.iter().any(|(n, _)| *n == name) => {
                self.no_overload(id, name, &args);
                Ty::Dyn
            }
            None => {
                self.errors.push((id, format!("undeclared reference to '{name}' (in container '')")));
                Ty::Dyn
            }
        }
    }

    /// The result type of an operator applied to `args`, recording a no-overload issue where
    /// the operands rule every overload out; `None` when `name` with this many arguments is no
    /// operator.
    fn operator(&mut self, id: u64, name: &str, args: &[Ty]) -> Option<Ty> {
        let ty = match (name, args) {
            (operators::LOGICAL_AND | operators::LOGICAL_OR, [a, b]) => {
                if !a.may_be_bool() || !b.may_be_bool() {
                    self.no_overload(id, name, args);
                }
                Ty::Bool
            }
            (operators::LOGICAL_NOT, [a]) => {
                if !a.may_be_bool() {
                    self.no_overload(id, name, args);
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
            (operators::SUBSTRACT | operators::MULTIPLY | operators::DIVIDE | operators::MODULO, [a, b]) => match a {
                Ty::Int | Ty::Uint | Ty::Double if a == b => a.clone(),
                _ => Ty::Dyn,
            },
            (operators::NEGATE, [a]) => match a {
                Ty::Int | Ty::Double => a.clone(),
                _ => Ty::Dyn,
            },
            (operators::INDEX, [operand, _]) => operand.indexed().unwrap_or_else(|| {
                self.no_overload(id, name, args);
                Ty::Dyn
            }),
            (operators::CONDITIONAL, [condition, a, b]) => {
                if !condition.may_be_bool() {
                    self.no_overload(id, name, args);
                }
                join(a.clone(), b.clone())
            }
            _ => return None,
        };
        Some(ty)
    }

    /// cel-go's issue for a call no overload accepts.
    fn no_overload(&mut self, id: u64, name: &str, args: &[Ty]) {
        let args: Vec<String> = args.iter().map(Ty::name).collect();
        self.errors.push((id, format!("found no matching overload for '{name}' applied to '({})'", args.join(", "))));
    }
}

/// The type of a literal.
fn literal_type(literal: &LiteralValue) -> Ty {
    match literal {
        LiteralValue::Boolean(_) => Ty::Bool,
        LiteralValue::Bytes(_) => Ty::Bytes,
        LiteralValue::Double(_) => Ty::Double,
        LiteralValue::Int(_) => Ty::Int,
        LiteralValue::Null => Ty::Null,
        LiteralValue::String(_) => Ty::String,
        LiteralValue::UInt(_) => Ty::Uint,
    }
}

#[cfg(test)]
mod tests {
    //! The checker's rules, as OLM users meet them: which rules are bool, which names and
    //! overloads exist, and cel-go's wording for each finding.

    use crate::test_util::{compile_error, eval};
    use crate::{CelError, CelRule};

    #[test]
    fn rules_whose_type_is_not_bool_are_rejected() {
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
    fn an_unknown_variable_is_an_undeclared_reference() {
        let text = compile_error("x == 1");
        assert_eq!(text, "ERROR: <input>:1:1: undeclared reference to 'x' (in container '')\n | x == 1\n | ^");
        // A macro's variable is only bound within the macro.
        let text = compile_error("properties.exists(p, true) && p.type == 'x'");
        assert!(text.contains("undeclared reference to 'p' (in container '')"), "{text}");
        assert!(text.starts_with("ERROR: <input>:1:31:"), "{text}");
    }

    #[test]
    fn macro_variables_are_known_within_the_macro() {
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
    fn unknown_functions_and_wrong_overloads() {
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
}
