//! Evaluation: OLM's environment (the standard library and macros, no optionals, and
//! `semver_compare`), candidate properties as CEL values (from serde_json values or from the
//! crate's own spanned JSON tree, with the same result), and running a compiled rule, where a
//! runtime error or a non-bool result is "no match".

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use cel::common::ast::IdedExpr;
use cel::common::types::{self, CelBool, CelDouble, CelInt, CelList, CelMap, CelMapKey, CelNull, CelString};
use cel::common::value::{CowVal, Val};
use cel::{Context, Env, ExecutionError, Value};

use super::cost;
use super::go_value::go_sprint;
use super::CelError;
use crate::declcfg::{Node, Value as NodeValue};
use crate::version::Version;

/// JSON values nested deeper than this are passed to the rule as null, which bounds the
/// recursion of cel-rust's equality, conversions and drops over them.
const MAX_JSON_DEPTH: usize = 128;

/// The shared environment: standard library and macros, optional syntax off (OLM's cel-go
/// environment has no optionals), and `semver_compare`.
pub(super) fn env() -> Result<&'static Arc<Env>, CelError> {
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
        // The meters of `cost.rs`: names starting with `@` cannot be written in a rule.
        env.add_overload(cost::TICK, "cost_tick_dyn", vec![types::DYN_TYPE], cost::tick).map_err(|e| e.to_string())?;
        env.add_overload(cost::CHARGE, "cost_charge_dyn", vec![types::DYN_TYPE], cost::charge)
            .map_err(|e| e.to_string())?;
        Ok(Arc::new(env))
    })
    .as_ref()
    .map_err(|e| CelError::Compile(format!("internal error: cannot build the CEL environment: {e}")))
}

/// A decoded JSON value that can be handed to a rule: numbers become doubles, objects maps
/// with string keys, arrays lists; strings are borrowed.
pub(super) trait JsonValue {
    /// The value as a CEL value; `None` when nested deeper than [`MAX_JSON_DEPTH`].
    fn to_val(&self, depth: usize) -> Option<Box<dyn Val + '_>>;
}

impl JsonValue for serde_json::Value {
    fn to_val(&self, depth: usize) -> Option<Box<dyn Val + '_>> {
        if depth > MAX_JSON_DEPTH {
            return None;
        }
        Some(match self {
            serde_json::Value::Null => Box::new(CelNull),
            serde_json::Value::Bool(b) => Box::new(CelBool::from(*b)),
            serde_json::Value::Number(n) => Box::new(CelDouble::from(n.as_f64().unwrap_or(f64::NAN))),
            serde_json::Value::String(s) => Box::new(CelString::from(s.as_str())),
            serde_json::Value::Array(items) => list(items.iter(), depth)?,
            serde_json::Value::Object(fields) => map(fields.iter().map(|(k, v)| (k.as_str(), v)), depth)?,
        })
    }
}

impl JsonValue for Node {
    fn to_val(&self, depth: usize) -> Option<Box<dyn Val + '_>> {
        if depth > MAX_JSON_DEPTH {
            return None;
        }
        Some(match &self.value {
            NodeValue::Null => Box::new(CelNull),
            NodeValue::Bool(b) => Box::new(CelBool::from(*b)),
            NodeValue::Number(n) => Box::new(CelDouble::from(*n)),
            NodeValue::String(s) => Box::new(CelString::from(s.as_str())),
            NodeValue::Array(items) => list(items.iter(), depth)?,
            NodeValue::Object(members) => map(members.iter().map(|m| (m.key.as_str(), &m.value)), depth)?,
        })
    }
}

/// A JSON array as a CEL list.
fn list<'a, T: JsonValue + 'a>(items: impl Iterator<Item = &'a T>, depth: usize) -> Option<Box<dyn Val + 'a>> {
    let items = items.map(|x| x.to_val(depth + 1)).collect::<Option<Vec<_>>>()?;
    Some(Box::new(CelList::from(items)))
}

/// A JSON object as a CEL map with string keys.
fn map<'a, T: JsonValue + 'a>(
    fields: impl ExactSizeIterator<Item = (&'a str, &'a T)>,
    depth: usize,
) -> Option<Box<dyn Val + 'a>> {
    let mut map: HashMap<CelMapKey<'_>, Box<dyn Val + '_>> = HashMap::with_capacity(fields.len());
    for (key, x) in fields {
        map.insert(CelMapKey::String(CelString::from(key)), x.to_val(depth + 1)?);
    }
    Some(Box::new(CelMap::from(map)))
}

/// One evaluation of a metered program (see `cost.rs`): binds `properties` (the list of
/// `{"type": <type>, "value": <value>}` maps) and evaluates with a meter allowing `limit`; only
/// the bool true matches. `Err` is what was spent when the limit stopped it.
pub(super) fn evaluate<T: JsonValue>(
    program: &IdedExpr,
    properties: &[(&str, &T)],
    limit: u64,
) -> Result<super::Evaluated, super::CostExceeded> {
    let Ok(env) = env() else {
        return Ok(super::Evaluated { matched: false, cost: 0, input: 0 });
    };
    let mut list: Vec<Box<dyn Val + '_>> = Vec::with_capacity(properties.len());
    for (type_, value) in properties {
        let value: Box<dyn Val + '_> = value.to_val(0).unwrap_or_else(|| Box::new(CelNull));
        let mut entry: HashMap<CelMapKey<'_>, Box<dyn Val + '_>> = HashMap::with_capacity(2);
        entry.insert(CelMapKey::String(CelString::from("type")), Box::new(CelString::from(*type_)));
        entry.insert(CelMapKey::String(CelString::from("value")), value);
        list.push(Box::new(CelMap::from(entry)));
    }
    let input = CelList::from(list);
    let input_size = cost::size(&input, u64::MAX);
    let mut context = Context::with_env(Arc::clone(env));
    context.add_variable_as_val("properties", Box::new(input));
    let (result, spent) = cost::metered(limit, || match Value::resolve_val(program, &context) {
        Ok(result) => result.downcast_ref::<CelBool>().is_some_and(|b| *b.inner()),
        Err(_) => false,
    });
    if spent > limit {
        return Err(super::CostExceeded { limit, spent });
    }
    Ok(super::Evaluated { matched: result, cost: spent, input: input_size })
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

#[cfg(test)]
mod tests {
    //! Evaluation semantics: what the rule sees of the properties, numbers, runtime errors
    //! as no match, CEL's error-absorbing `&&`/`||`, and `semver_compare`.

    use serde_json::json;

    use crate::declcfg::Node;
    use crate::test_util::eval;
    use crate::CelRule;

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
    fn spanned_nodes_and_serde_json_values_give_the_same_result() {
        let mut deep = json!("x");
        for _ in 0..200 {
            deep = json!({ "d": deep });
        }
        let values = [
            ("olm.package", json!({"packageName": "x", "version": "1.0.1"})),
            ("olm.gvk", json!({"group": "g", "kind": "k", "version": "v"})),
            ("olm.test", json!([1, 2.5, "s", true, null, {"a": []}])),
            ("olm.deep", deep),
            ("olm.null", json!(null)),
        ];
        let nodes: Vec<(&str, Node)> = values.iter().map(|(t, v)| (*t, Node::from_json(v))).collect();
        let json_props: Vec<(&str, &serde_json::Value)> = values.iter().map(|(t, v)| (*t, v)).collect();
        let node_props: Vec<(&str, &Node)> = nodes.iter().map(|(t, n)| (*t, n)).collect();
        for (rule, want) in [
            ("properties.exists(p, p.type == 'olm.package' && semver_compare(p.value.version, '1.0.1') == 0)", true),
            ("properties.exists(p, p.value == {'group': 'g', 'version': 'v', 'kind': 'k'})", true),
            ("properties[2].value == [1, 2.5, 's', true, null, {'a': []}]", true),
            ("properties[2].value[0] == 1 && type(properties[2].value[1]) == double", true),
            ("properties[3].value == null && properties[1].value.kind == 'k'", true),
            ("properties[4].value == null && size(properties) == 5", true),
            ("properties.exists(p, p.value.missing == 1)", false),
            ("properties[0].value.version > 1", false),
        ] {
            let rule_ = CelRule::compile(rule).unwrap_or_else(|e| panic!("{rule}: {e}"));
            assert_eq!(rule_.matches(&json_props), want, "matches: {rule}");
            assert_eq!(rule_.matches_nodes(&node_props), want, "matches_nodes: {rule}");
        }
    }
}
