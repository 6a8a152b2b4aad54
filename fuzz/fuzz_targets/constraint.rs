//! `olm.constraint` values and CEL rules over fuzzed text: never a panic.
//!
//! Text starting with `{` is an `olm.constraint` value: it is parsed as OLM does, its canonical
//! JSON must parse back to the same value, and every CEL rule in it is compiled and evaluated.
//! Any other text is one CEL rule, compiled and (when it compiles) evaluated against a fixed
//! candidate's properties.
#![no_main]

use libfuzzer_sys::fuzz_target;
use olm_catalog::internals::CelRule;
use olm_catalog::property::{parse_constraint, Constraint, ConstraintValue};
use serde_json::{json, Value};

fn candidate() -> Vec<(&'static str, Value)> {
    vec![
        ("olm.package", json!({"packageName": "etcd", "version": "0.9.4-beta.1+build"})),
        ("olm.gvk", json!({"group": "etcd.database.coreos.com", "kind": "EtcdCluster", "version": "v1beta2"})),
        ("olm.label", json!({"label": "stable"})),
        ("olm.maxOpenShiftVersion", json!("4.12")),
        ("n", json!(3)),
        ("l", json!([1, 2.5, "a", null, true, {"k": [1]}])),
    ]
}

fn eval(rule: &str) {
    if let Ok(compiled) = CelRule::compile(rule) {
        let props = candidate();
        let refs: Vec<(&str, &Value)> = props.iter().map(|(t, v)| (*t, v)).collect();
        let _ = compiled.matches(&refs);
    }
}

fn rules(c: &ConstraintValue, out: &mut Vec<String>) {
    match &c.constraint {
        Constraint::Cel { rule } => out.push(rule.clone()),
        Constraint::All(cs) | Constraint::Any(cs) | Constraint::Not(cs) => cs.iter().for_each(|c| rules(c, out)),
        Constraint::Gvk(_) | Constraint::Package { .. } => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if !text.starts_with('{') {
        eval(text);
        return;
    }
    let Ok(value) = parse_constraint(text) else { return };
    let canonical = value.to_json().to_string();
    let again = parse_constraint(&canonical).unwrap_or_else(|e| panic!("{canonical} does not parse back: {e}"));
    assert_eq!(again, value, "{canonical}");
    let mut found = Vec::new();
    rules(&value, &mut found);
    found.iter().take(8).for_each(|r| eval(r));
});
