//! The rules of the cross-package view, on small catalogs built through the real pipeline.

use super::*;
use crate::declcfg::{load_files, FileInput};
use crate::model;

/// A bundle: name, version, extra properties as JSON objects.
type B<'a> = (&'a str, &'a str, &'a [&'a str]);

/// A catalog of packages, each with one channel `stable` whose entries replace each other in the
/// order given (the last is the head).
fn catalog(packages: &[(&str, &[B])]) -> Model {
    let mut text = String::new();
    for (pkg, bundles) in packages {
        text.push_str(&format!("{{\"schema\":\"olm.package\",\"name\":\"{pkg}\",\"defaultChannel\":\"stable\"}}\n"));
        let entries: Vec<String> = bundles
            .iter()
            .enumerate()
            .map(|(i, (name, _, _))| match i {
                0 => format!("{{\"name\":\"{name}\"}}"),
                _ => format!("{{\"name\":\"{name}\",\"replaces\":\"{}\"}}", bundles[i - 1].0),
            })
            .collect();
        text.push_str(&format!(
            "{{\"schema\":\"olm.channel\",\"package\":\"{pkg}\",\"name\":\"stable\",\"entries\":[{}]}}\n",
            entries.join(",")
        ));
        for (name, version, props) in *bundles {
            let mut all = vec![format!(
                "{{\"type\":\"olm.package\",\"value\":{{\"packageName\":\"{pkg}\",\"version\":\"{version}\"}}}}"
            )];
            all.extend(props.iter().map(|p| p.to_string()));
            text.push_str(&format!(
                "{{\"schema\":\"olm.bundle\",\"package\":\"{pkg}\",\"name\":\"{name}\",\"image\":\"i/{name}\",\"properties\":[{}]}}\n",
                all.join(",")
            ));
        }
    }
    let loaded = load_files(&[FileInput::new("catalog.json", text.as_str())]);
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    let (m, d) = model::build(&loaded.config);
    assert!(d.is_empty(), "{d:?}");
    m
}

fn deps(m: &Model, package: &str) -> PackageDeps {
    package_deps(m, package, &DepsOptions::default()).unwrap()
}

fn versions(list: &[Provider]) -> Vec<&str> {
    list.iter().map(|p| p.version.as_deref().unwrap_or("?")).collect()
}

const NEEDS_B_1X: &str =
    r#"{"type":"olm.package.required","value":{"packageName":"b","versionRange":">=1.1.0 <2.0.0"}}"#;
const NEEDS_DB: &str = r#"{"type":"olm.gvk.required","value":{"group":"db.io","version":"v1","kind":"Db"}}"#;
const GIVES_DB: &str = r#"{"type":"olm.gvk","value":{"group":"db.io","version":"v1","kind":"Db"}}"#;

fn b_versions() -> Vec<B<'static>> {
    vec![("b.v1.0.0", "1.0.0", &[]), ("b.v1.1.0", "1.1.0", &[]), ("b.v1.5.0", "1.5.0", &[]), ("b.v2.0.0", "2.0.0", &[])]
}

#[test]
fn a_package_range_is_satisfied_by_the_versions_inside_it_newest_first() {
    let m = catalog(&[("a", &[("a.v1", "1.0.0", &[NEEDS_B_1X])]), ("b", &b_versions())]);
    let d = deps(&m, "a");
    let r = &d.requirements[0];
    assert_eq!(
        (r.kind, r.text.as_str(), r.status),
        (RequirementKind::Package, "package b >=1.1.0 <2.0.0", Status::Satisfied)
    );
    assert_eq!((r.package.as_deref(), r.range.as_deref()), (Some("b"), Some(">=1.1.0 <2.0.0")));
    assert_eq!(versions(&r.providers), vec!["1.5.0", "1.1.0"]);
    assert_eq!(r.provider_count, 2);
    assert_eq!(versions(&r.other_versions), vec!["2.0.0", "1.0.0"]);
    assert!(!d.has_unmet());
}

#[test]
fn the_head_of_a_providing_channel_is_marked() {
    let m = catalog(&[
        (
            "a",
            &[(
                "a.v1",
                "1.0.0",
                &[r#"{"type":"olm.package.required","value":{"packageName":"b","versionRange":">=1.0.0"}}"#],
            )],
        ),
        ("b", &b_versions()),
    ]);
    let r = &deps(&m, "a").requirements[0];
    assert_eq!(r.providers[0].bundle, "b.v2.0.0");
    assert_eq!(r.providers[0].head_of, vec!["stable"]);
    assert!(r.providers[1].head_of.is_empty());
    assert_eq!(r.providers[1].channels, vec!["stable"]);
}

#[test]
fn a_package_missing_from_the_catalog_or_without_a_version_in_range_is_unsatisfied() {
    let missing = r#"{"type":"olm.package.required","value":{"packageName":"cert-manager","versionRange":">=1.12.2"}}"#;
    let too_new = r#"{"type":"olm.package.required","value":{"packageName":"b","versionRange":">=3.0.0"}}"#;
    let m = catalog(&[("a", &[("a.v1", "1.0.0", &[missing, too_new])]), ("b", &b_versions())]);
    let d = deps(&m, "a");
    let status: Vec<(&str, Status)> = d.requirements.iter().map(|r| (r.text.as_str(), r.status)).collect();
    assert_eq!(
        status,
        vec![("package b >=3.0.0", Status::Unsatisfied), ("package cert-manager >=1.12.2", Status::Unsatisfied)]
    );
    assert_eq!(versions(&d.requirements[0].other_versions).len(), 4, "the versions outside the range are listed");
    assert!(d.requirements[1].other_versions.is_empty());
    assert_eq!((d.summary.unsatisfied, d.summary.satisfied), (2, 0));
    assert!(d.has_unmet());
}

#[test]
fn a_gvk_is_provided_only_by_an_exactly_equal_olm_gvk() {
    let other_kind = r#"{"type":"olm.gvk","value":{"group":"db.io","version":"v1","kind":"db"}}"#;
    let m = catalog(&[
        ("a", &[("a.v1", "1.0.0", &[NEEDS_DB])]),
        ("db", &[("db.v1", "1.0.0", &[other_kind]), ("db.v2", "2.0.0", &[GIVES_DB])]),
        ("db2", &[("db2.v1", "1.0.0", &[GIVES_DB])]),
    ]);
    let r = &deps(&m, "a").requirements[0];
    assert_eq!((r.text.as_str(), r.status), ("GVK db.io/v1 Db", Status::Satisfied));
    let got: Vec<(&str, &str)> = r.providers.iter().map(|p| (p.package.as_str(), p.bundle.as_str())).collect();
    assert_eq!(got, vec![("db", "db.v2"), ("db2", "db2.v1")]);
    assert_eq!(r.gvk, Some(GvkRef { group: "db.io".into(), version: "v1".into(), kind: "Db".into() }));
}

#[test]
fn a_bundle_with_the_legacy_deprecated_marker_provides_nothing() {
    let m = catalog(&[
        ("a", &[("a.v1", "1.0.0", &[NEEDS_DB])]),
        ("db", &[("db.v1", "1.0.0", &[GIVES_DB, r#"{"type":"olm.deprecated","value":{}}"#])]),
    ]);
    assert_eq!(deps(&m, "a").requirements[0].status, Status::Unsatisfied);
    assert!(deps(&m, "db").provides.is_empty());
}

#[test]
fn equal_requirements_merge_and_say_which_bundles_and_heads_declare_them() {
    let m = catalog(&[
        ("a", &[("a.v1", "1.0.0", &[NEEDS_DB]), ("a.v2", "2.0.0", &[NEEDS_DB, NEEDS_B_1X])]),
        ("b", &b_versions()),
    ]);
    let d = deps(&m, "a");
    assert_eq!(d.requirements.len(), 2);
    let gvk = d.requirements.iter().find(|r| r.kind == RequirementKind::Gvk).unwrap();
    assert_eq!(gvk.declared_by, vec!["a.v1", "a.v2"]);
    assert_eq!(gvk.declared_by_heads, vec!["a.v2"]);
    let heads = package_deps(&m, "a", &DepsOptions { heads_only: true }).unwrap();
    assert_eq!(heads.summary.bundles, 1);
    assert_eq!(heads.requirements.iter().map(|r| r.declared_by.clone()).collect::<Vec<_>>(), vec![vec!["a.v2"]; 2]);
}

#[test]
fn a_range_blang_rejects_is_invalid_with_blangs_error() {
    let bad = r#"{"type":"olm.package.required","value":{"packageName":"b","versionRange":""}}"#;
    let m = catalog(&[("a", &[("a.v1", "1.0.0", &[bad])]), ("b", &b_versions())]);
    let r = &deps(&m, "a").requirements[0];
    assert_eq!(r.status, Status::Invalid);
    assert_eq!(r.error.as_deref(), Some("Last element in range is '||'"));
    assert!(deps(&m, "a").has_unmet());
}

#[test]
fn a_label_requirement_is_met_by_an_olm_label() {
    let m = catalog(&[
        ("a", &[("a.v1", "1.0.0", &[r#"{"type":"olm.label.required","value":{"label":"fast"}}"#])]),
        ("c", &[("c.v1", "1.0.0", &[r#"{"type":"olm.label","value":{"label":"fast"}}"#])]),
    ]);
    let r = &deps(&m, "a").requirements[0];
    assert_eq!((r.text.as_str(), r.status, r.providers[0].bundle.as_str()), ("label fast", Status::Satisfied, "c.v1"));
}

fn constraint(json: &str) -> String {
    format!(r#"{{"type":"olm.constraint","value":{json}}}"#)
}

#[test]
fn a_cel_rule_is_shown_with_its_failure_message_and_left_unknown() {
    let rule =
        r#"{"failureMessage":"needs a certified db","cel":{"rule":"properties.exists(p, p.type == 'certified')"}}"#;
    let c = constraint(rule);
    let m = catalog(&[("a", &[("a.v1", "1.0.0", &[c.as_str()])]), ("db", &[("db.v1", "1.0.0", &[GIVES_DB])])]);
    let d = deps(&m, "a");
    let r = &d.requirements[0];
    assert_eq!((r.kind, r.status), (RequirementKind::Constraint, Status::Unknown));
    assert_eq!(r.text, "cel(properties.exists(p, p.type == 'certified'))");
    let node = r.constraint.as_ref().unwrap();
    assert_eq!((node.op, node.text.as_str()), (ConstraintOp::Cel, "properties.exists(p, p.type == 'certified')"));
    assert_eq!(node.failure_message, "needs a certified db");
    assert!(r.providers.is_empty());
    assert_eq!(d.summary.unknown, 1);
    assert!(!d.has_unmet(), "an unevaluated rule is not reported as unmet");
    assert!(d.to_text().contains("failure message: needs a certified db"));
}

#[test]
fn compound_constraints_follow_olm_all_any_not_with_cel_unknown() {
    let cel = r#"{"cel":{"rule":"true"}}"#;
    let gvk = r#"{"gvk":{"group":"db.io","version":"v1","kind":"Db"}}"#;
    let nothing = r#"{"gvk":{"group":"no.io","version":"v1","kind":"None"}}"#;
    let any = constraint(&format!(r#"{{"any":{{"constraints":[{gvk},{cel}]}}}}"#));
    let all = constraint(&format!(r#"{{"all":{{"constraints":[{nothing},{cel}]}}}}"#));
    let not = constraint(&format!(r#"{{"not":{{"constraints":[{gvk}]}}}}"#));
    let maybe = constraint(&format!(r#"{{"all":{{"constraints":[{gvk},{cel}]}}}}"#));
    let props = [any.as_str(), all.as_str(), not.as_str(), maybe.as_str()];
    let m = catalog(&[("a", &[("a.v1", "1.0.0", &props)]), ("db", &[("db.v1", "1.0.0", &[GIVES_DB])])]);
    let d = deps(&m, "a");
    let got: Vec<(&str, Status, usize)> =
        d.requirements.iter().map(|r| (r.text.as_str(), r.status, r.provider_count)).collect();
    assert_eq!(
        got,
        vec![
            ("all(GVK db.io/v1 Db, cel(true))", Status::Unknown, 0),
            ("all(GVK no.io/v1 None, cel(true))", Status::Unsatisfied, 0),
            ("any(GVK db.io/v1 Db, cel(true))", Status::Satisfied, 1),
            // Every bundle not providing the GVK: a.v1 itself.
            ("not(GVK db.io/v1 Db)", Status::Satisfied, 1),
        ]
    );
    let tree = d.requirements[2].constraint.as_ref().unwrap();
    let kids: Vec<(ConstraintOp, Status, usize)> = tree.children.iter().map(|c| (c.op, c.status, c.matches)).collect();
    assert_eq!(kids, vec![(ConstraintOp::Gvk, Status::Satisfied, 1), (ConstraintOp::Cel, Status::Unknown, 0)]);
}

#[test]
fn a_package_constraint_fills_the_package_and_range_and_an_unreadable_one_is_invalid() {
    let pkg = constraint(r#"{"package":{"packageName":"b","versionRange":">=1.5.0"}}"#);
    let bad = constraint(r#"{"package":{"packageName":"b","versionRange":">=x"}}"#);
    let empty = constraint("{}");
    let unknown_key = constraint(r#"{"gvk":{"group":"g","version":"v","kind":"K","extra":1}}"#);
    let props = [pkg.as_str(), bad.as_str(), empty.as_str(), unknown_key.as_str()];
    let m = catalog(&[("a", &[("a.v1", "1.0.0", &props)]), ("b", &b_versions())]);
    let d = deps(&m, "a");
    let ok = d.requirements.iter().find(|r| r.text == "package b >=1.5.0").unwrap();
    assert_eq!((ok.status, versions(&ok.providers)), (Status::Satisfied, vec!["2.0.0", "1.5.0"]));
    assert_eq!(ok.range.as_deref(), Some(">=1.5.0"));
    let errors: Vec<&str> = d.requirements.iter().filter_map(|r| r.error.as_deref()).collect();
    assert_eq!(errors.len(), 3);
    assert!(errors.iter().any(|e| e.starts_with("convert olm.constraint to resolver predicate: ") && e.contains("x")));
    assert!(errors.contains(&"convert olm.constraint to resolver predicate: constraint is empty"));
    assert!(errors.contains(&"parse olm.constraint: json: unknown field \"extra\""));
    assert_eq!(d.summary.invalid, 3);
}

#[test]
fn reverse_requirers_name_the_package_or_an_api_it_provides_but_not_itself() {
    let via_constraint =
        constraint(r#"{"all":{"constraints":[{"package":{"packageName":"db","versionRange":">=1.0.0"}}]}}"#);
    let negated = constraint(r#"{"not":{"constraints":[{"package":{"packageName":"db","versionRange":">=0.0.0"}}]}}"#);
    let needs_new_db = r#"{"type":"olm.package.required","value":{"packageName":"db","versionRange":">=5.0.0"}}"#;
    let m = catalog(&[
        ("app", &[("app.v1", "1.0.0", &[NEEDS_DB]), ("app.v2", "2.0.0", &[NEEDS_DB])]),
        ("old", &[("old.v1", "1.0.0", &[needs_new_db, negated.as_str()])]),
        ("tool", &[("tool.v1", "1.0.0", &[via_constraint.as_str()])]),
        ("db", &[("db.v1", "1.0.0", &[GIVES_DB, NEEDS_DB])]),
    ]);
    let d = deps(&m, "db");
    let got: Vec<(&str, &str, &str, bool)> =
        d.required_by.iter().map(|r| (r.package.as_str(), r.property.as_str(), r.text.as_str(), r.satisfied)).collect();
    assert_eq!(
        got,
        vec![
            ("app", "olm.gvk.required", "GVK db.io/v1 Db", true),
            ("old", "olm.package.required", "package db >=5.0.0", false),
            ("tool", "olm.constraint", "package db >=1.0.0", true),
        ]
    );
    assert_eq!(d.required_by[0].bundles, vec!["app.v1", "app.v2"]);
    assert_eq!(d.required_by[0].heads, vec!["app.v2"]);
    assert_eq!(d.summary.required_by, 3);
    assert_eq!(d.provides[0].text, "GVK db.io/v1 Db");
}

#[test]
fn an_unknown_package_is_an_error() {
    let m = catalog(&[("a", &[("a.v1", "1.0.0", &[])])]);
    let e = package_deps(&m, "nope", &DepsOptions::default()).unwrap_err();
    assert_eq!(e.to_string(), "no package \"nope\" in the catalog");
}

#[test]
fn the_text_lists_status_declarers_providers_and_requirers() {
    let m = catalog(&[
        (
            "a",
            &[(
                "a.v1",
                "1.0.0",
                &[
                    NEEDS_B_1X,
                    r#"{"type":"olm.package.required","value":{"packageName":"zz","versionRange":">=1.0.0"}}"#,
                ],
            )],
        ),
        ("b", &b_versions()),
    ]);
    let text = deps(&m, "a").to_text();
    assert!(text.starts_with("Package a: 1 bundle, 1 channel head\n"), "{text}");
    assert!(text.contains("Requires: 2 requirements: 1 satisfied, 1 unsatisfied"), "{text}");
    assert!(text.contains("  [satisfied] package b >=1.1.0 <2.0.0 (olm.package.required)\n      declared by 1 bundle: a.v1; channel heads: a.v1\n      provided by 2 bundles:\n        b: 1.5.0, 1.1.0\n"), "{text}");
    assert!(text.contains("  [UNSATISFIED] package zz >=1.0.0 (olm.package.required)"), "{text}");
    assert!(text.contains("nothing in the catalog satisfies it"), "{text}");
    let b = deps(&m, "b").to_text();
    assert!(b.contains("Required by: 1 package\n  a: package b >=1.1.0 <2.0.0 (olm.package.required)\n"), "{b}");
}

#[test]
fn provider_lists_are_capped_but_counted() {
    let many: Vec<(String, String)> =
        (0..(MAX_PROVIDERS + 5)).map(|i| (format!("db.v1.0.{i}"), format!("1.0.{i}"))).collect();
    let bundles: Vec<B> = many.iter().map(|(n, v)| (n.as_str(), v.as_str(), &[GIVES_DB][..])).collect();
    let m = catalog(&[("a", &[("a.v1", "1.0.0", &[NEEDS_DB])]), ("db", &bundles)]);
    let r = &deps(&m, "a").requirements[0];
    assert_eq!((r.providers.len(), r.provider_count), (MAX_PROVIDERS, MAX_PROVIDERS + 5));
    assert_eq!(r.providers[0].version.as_deref(), Some("1.0.104"));
    assert!(deps(&m, "a").to_text().contains("… and "));
}
