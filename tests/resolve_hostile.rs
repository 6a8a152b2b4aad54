//! The resolver on hostile problems (issue 15): thousands of mutually exclusive candidates, and
//! CEL rules written to blow up evaluation. Each must end with a result or a clear error; the
//! time and memory they take are measured by `benches/scale.rs` (hostile section), not here.

use olm_catalog::cluster::problem_json::ProblemJson;
use olm_catalog::resolve::{resolve, ResolveError};
use olm_catalog::Cluster;
use serde_json::{json, Value};

/// How many mutually exclusive candidates the hostile problems have.
const N: usize = 2_000;

const GVK: &str = r#"{"group": "g.example.com", "version": "v1", "kind": "Thing"}"#;

fn gvk() -> Value {
    serde_json::from_str(GVK).unwrap()
}

fn package(name: &str, entries: Value, bundles: Value) -> Value {
    json!({"name": name, "defaultChannel": "stable", "channels": [{"name": "stable", "entries": entries}], "bundles": bundles})
}

fn bundle(name: &str, version: &str, properties: Value) -> Value {
    json!({"name": name, "version": version, "properties": properties})
}

fn requires_absent() -> Value {
    json!({"type": "olm.package.required", "value": {"packageName": "absent", "versionRange": ">=1.0.0"}})
}

fn cluster(packages: Vec<Value>, subscribe_to: &str) -> Cluster {
    let problem = json!({
        "namespace": "ns",
        "catalogs": [{"name": "cat", "namespace": "ns", "packages": packages}],
        "subscriptions": [{"name": "sub", "package": subscribe_to, "channel": "stable", "catalog": "cat", "catalogNamespace": "ns"}],
    });
    serde_json::from_value::<ProblemJson>(problem).unwrap().into_cluster().unwrap()
}

/// `app` requires an API that `N` packages provide; each provider requires a package that does
/// not exist, except the last one when `one_installable`.
fn providers(one_installable: bool) -> Cluster {
    let mut packages = vec![package(
        "app",
        json!([{"name": "app.v1"}]),
        json!([bundle("app.v1", "1.0.0", json!([{"type": "olm.gvk.required", "value": gvk()}]))]),
    )];
    for i in 0..N {
        let name = format!("p{i:04}");
        let mut properties = vec![json!({"type": "olm.gvk", "value": gvk()})];
        if !(one_installable && i == N - 1) {
            properties.push(requires_absent());
        }
        let b = format!("{name}.v1");
        packages.push(package(&name, json!([{"name": b}]), json!([bundle(&b, "1.0.0", json!(properties))])));
    }
    cluster(packages, "app")
}

#[test]
fn of_two_thousand_providers_of_an_api_the_only_installable_one_is_picked() {
    let resolution = resolve(&providers(true)).unwrap();
    let names: Vec<&str> = resolution.install.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["app.v1", &*format!("p{:04}.v1", N - 1)]);
}

#[test]
fn two_thousand_providers_none_installable_is_not_satisfiable_with_a_bounded_message() {
    let err = resolve(&providers(false)).unwrap_err();
    let ResolveError::NotSatisfiable { constraints, explanation } = &err else { panic!("{err}") };
    assert!(constraints.iter().any(|c| c.contains("app.v1 requires an operator providing an API")), "{constraints:?}");
    let text = err.to_string();
    assert!(text.len() < 20_000, "the message lists {} bytes", text.len());
    assert!(text.contains("more"), "{}", &text[..text.len().min(2_000)]);
    assert!(!explanation.children.is_empty());
}

/// One package whose channel has `N` versions; all but the oldest require a package that does
/// not exist.
#[test]
fn of_two_thousand_versions_of_a_subscribed_package_the_only_installable_one_is_picked() {
    let names: Vec<String> = (0..N).map(|i| format!("a.v{i}")).collect();
    let entries: Vec<Value> = (0..N)
        .map(|i| match i {
            0 => json!({"name": names[0]}),
            _ => json!({"name": names[i], "replaces": names[i - 1]}),
        })
        .collect();
    let bundles: Vec<Value> = (0..N)
        .map(|i| {
            let properties = if i == 0 { json!([]) } else { json!([requires_absent()]) };
            bundle(&names[i], &format!("1.0.{i}"), properties)
        })
        .collect();
    let resolution = resolve(&cluster(vec![package("a", json!(entries), json!(bundles))], "a")).unwrap();
    let installed: Vec<&str> = resolution.install.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(installed, ["a.v0"]);
    let pick = resolution.picks.iter().find(|p| p.name == "a.v0").unwrap();
    assert_eq!(pick.rejected.len(), N - 1);
}

/// An `olm.constraint` with a CEL rule.
fn cel_constraint(rule: &str) -> Value {
    json!({"type": "olm.constraint", "value": {"failureMessage": "needs a thing", "cel": {"rule": rule}}})
}

/// `depth` nested `map`s over a list of ten: 10^depth steps.
fn nested_maps(depth: usize) -> String {
    let ten = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]";
    let mut rule = String::from("1");
    for i in 0..depth {
        rule = format!("{ten}.map(x{i}, {rule})");
    }
    format!("size({rule}) > 0")
}

/// Package `a` with `n` versions, each with `properties`.
fn one_package(n: usize, properties: Value) -> Cluster {
    let names: Vec<String> = (0..n).map(|i| format!("a.v{i}")).collect();
    let entries: Vec<Value> = (0..n)
        .map(|i| match i {
            0 => json!({"name": names[0]}),
            _ => json!({"name": names[i], "replaces": names[i - 1]}),
        })
        .collect();
    let bundles: Vec<Value> = (0..n).map(|i| bundle(&names[i], &format!("1.0.{i}"), properties.clone())).collect();
    cluster(vec![package("a", json!(entries), json!(bundles))], "a")
}

#[test]
fn a_cel_rule_that_blows_up_ends_the_resolution_with_an_error_naming_it() {
    for rule in [
        nested_maps(12),
        // Doubling a string 40 times.
        {
            let mut s = String::from("'0123456789abcdef'");
            for i in 0..30 {
                s = format!("[{s}].map(y{i}, y{i} + y{i})[0]");
            }
            format!("size({s}) > 0")
        },
        // exists over every pair, triple, ... of the candidate's properties.
        "properties.exists(a, properties.exists(b, properties.exists(c, properties.exists(d, \
         properties.exists(e, properties.exists(f, properties.exists(g, properties.exists(h, \
         a == h && false))))))))"
            .to_string(),
    ] {
        let extra: Vec<Value> =
            (0..20).map(|i| json!({"type": "olm.label", "value": {"label": format!("l{i}")}})).collect();
        let mut properties = vec![cel_constraint(&rule)];
        properties.extend(extra);
        let err = resolve(&one_package(1, json!(properties))).unwrap_err();
        let ResolveError::Invalid(messages) = &err else { panic!("{err}") };
        let text = err.to_string();
        assert!(text.contains("bundle a.v0: the CEL rule"), "{text}");
        assert!(text.contains("exceeded the cost limit of 1000000 units (CEL_COST_LIMIT)"), "{text}");
        assert!(text.len() < 1_000, "{text}");
        assert_eq!(messages.len(), 1);
    }
}

#[test]
fn costly_cel_rules_on_many_bundles_exhaust_the_resolution_budget() {
    // Each evaluation costs about 100,000 units, under the limit of one evaluation; 40
    // dependents tested against 40 candidates each would cost 160 million.
    let err = resolve(&one_package(40, json!([cel_constraint(&nested_maps(4))]))).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("evaluation budget of 50000000 units (CEL_RESOLUTION_COST_LIMIT)"), "{text}");
    // The same rule on a few bundles resolves.
    let resolution = resolve(&one_package(3, json!([cel_constraint(&nested_maps(4))]))).unwrap();
    assert_eq!(resolution.install.len(), 1);
}
