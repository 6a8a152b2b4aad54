//! Edits of packages maintained as templates (`../shared/catalogs/templates`, their bundles
//! looked up in the community catalog they were rendered into): each operation edits the
//! template in place (every byte outside the edits unchanged, undo gives the bytes back), and the
//! expansion of the edited template is exactly the intended change: for a basic template, the
//! same operation on the expanded catalog gives the same model; for a semver template, the
//! bundle is where the template's rules put it.

use std::path::Path;

use olm_catalog::edit::{apply_edits, plan_edit, plan_edit_with, plan_template_edit, EditPlan, Operation};
use olm_catalog::render::template::expand_template;
use olm_catalog::render::BundleSource;
use olm_catalog::{read_catalog, FileInput, Model};

const SHARED: &str = "../shared/catalogs";

fn file(rel: &str) -> FileInput {
    let path = Path::new(SHARED).join(rel);
    FileInput::new(rel, std::fs::read(&path).expect("the shared catalogs are present"))
}

fn bundles(package: &str) -> BundleSource {
    let mut source = BundleSource::new();
    let files = read_catalog(&Path::new(SHARED).join("fbc/community-v4.20").join(package)).expect("catalog");
    source.add_catalog(&olm_catalog::load_files(&files).config);
    source
}

fn op(json: &str) -> Operation {
    serde_json::from_str(json).expect("operation")
}

fn expanded(template: &FileInput, source: &BundleSource) -> Model {
    let rendered = expand_template(template, source);
    olm_catalog::model::build(&rendered.config).0
}

/// The plan, checked: the bytes outside the edits are unchanged, and the undo edits give the
/// template back.
fn checked(template: &FileInput, source: &BundleSource, o: &Operation) -> (EditPlan, FileInput) {
    let plan = plan_template_edit(template, source, o).unwrap_or_else(|e| panic!("{}: {e}", o.name()));
    // Validation errors, that is: update-safety findings are the preview's news (a renamed
    // channel strands its subscribers), not a broken result.
    let errors: Vec<_> =
        plan.findings.iter().filter(|d| d.is_error() && !d.code.as_str().starts_with("update-")).collect();
    assert!(errors.is_empty(), "{}: new errors {errors:?}", o.name());
    let after = apply_edits(std::slice::from_ref(template), &plan.edits).expect("edits apply").remove(0);
    let (old, new) = (&template.content, &after.content);
    let prefix = old.iter().zip(new.iter()).take_while(|(a, b)| a == b).count();
    let suffix = old.iter().rev().zip(new.iter().rev()).take_while(|(a, b)| a == b).count();
    let lo = plan.edits.iter().map(|e| e.range.start).min().expect("an edit");
    let hi = plan.edits.iter().map(|e| e.range.end).max().expect("an edit");
    assert!(prefix >= lo, "{}: byte {prefix} changed before the first edit ({lo})", o.name());
    assert!(old.len().saturating_sub(suffix) <= hi, "{}: bytes changed after the last edit ({hi})", o.name());
    assert_eq!(plan.files, vec![after.clone()], "{}: the plan's file is the edited template", o.name());
    let undone = apply_edits(std::slice::from_ref(&after), &plan.undo).expect("undo applies").remove(0);
    assert_eq!(undone.content, template.content, "{}: undo restores the bytes", o.name());
    (plan, after)
}

/// The model of the expanded catalog with `o` applied to it as a File-Based Catalog.
fn as_catalog_edit(template: &FileInput, source: &BundleSource, o: &Operation) -> Model {
    let rendered = expand_template(template, source);
    let text = olm_catalog::declcfg::write::write(&rendered.config, olm_catalog::declcfg::write::Format::Yaml);
    let files = vec![FileInput::new("catalog.yaml", text)];
    let plan = plan_edit(&files, o).unwrap_or_else(|e| panic!("{} on the expansion: {e}", o.name()));
    let after = apply_edits(&files, &plan.edits).expect("edits apply");
    (*olm_catalog::validate_files(&after).model).clone()
}

fn same_catalog(a: &Model, b: &Model) -> bool {
    olm_catalog::diff::diff(a, b).packages.is_empty()
}

#[test]
fn every_operation_on_a_basic_template_expands_to_the_same_change_as_on_the_catalog() {
    let template = file("templates/cat-facts-operator/basic.yaml");
    let source = bundles("cat-facts-operator");
    let before = expanded(&template, &source);
    assert!(before.package("cat-facts-operator").is_some_and(|p| p.bundles.len() == 4));
    let p = r#""package":"cat-facts-operator""#;
    let ops = [
        format!(r#"{{"op":"deprecate",{p},"bundle":"cat-facts-operator.v1.0.0","message":"use 1.1"}}"#),
        format!(r#"{{"op":"deprecate",{p},"channel":"stable","message":"moving"}}"#),
        format!(r#"{{"op":"promote",{p},"bundle":"cat-facts-operator.v1.1.2","channel":"fast"}}"#),
        format!(
            r#"{{"op":"createChannel",{p},"channel":"candidate","bundles":["cat-facts-operator.v1.1.1","cat-facts-operator.v1.1.2"]}}"#
        ),
        format!(r#"{{"op":"renameChannel",{p},"channel":"stable","to":"stable-v1"}}"#),
        format!(
            r#"{{"op":"setEdges",{p},"channel":"stable","bundle":"cat-facts-operator.v1.1.2","skipRange":">=1.0.0 <1.1.2"}}"#
        ),
        format!(r#"{{"op":"removeBundle",{p},"bundle":"cat-facts-operator.v1.1.1"}}"#),
    ];
    for o in ops.iter().map(|j| op(j)) {
        let (_, after) = checked(&template, &source, &o);
        let got = expanded(&after, &source);
        assert!(!same_catalog(&before, &got), "{}: the expansion changed", o.name());
        assert!(
            same_catalog(&as_catalog_edit(&template, &source, &o), &got),
            "{}: same change as on the catalog",
            o.name()
        );
    }
}

#[test]
fn adding_a_bundle_to_a_basic_template_writes_an_image_reference() {
    let template = file("templates/cat-facts-operator/basic.yaml");
    let source = bundles("cat-facts-operator");
    let image = "quay.io/community-operator-pipeline-prod/cat-facts-operator:1.2.0";
    let o = op(&format!(
        r#"{{"op":"addBundle","package":"cat-facts-operator","bundle":{{"image":"{image}","name":"cat-facts-operator.v1.2.0","version":"1.2.0"}},"channels":["stable"]}}"#
    ));
    let (plan, after) = checked(&template, &source, &o);
    let text = String::from_utf8(after.content.clone()).unwrap();
    assert!(text.ends_with(&format!("- schema: olm.bundle\n  image: {image}\n")), "{text}");
    assert!(text.contains("  - name: cat-facts-operator.v1.2.0\n    replaces: cat-facts-operator.v1.1.2\n"), "{text}");
    // The preview's expansion has the new bundle at the head of stable.
    let stable = plan.graphs.iter().find(|g| g.channel == "stable").and_then(|g| g.after.as_ref()).expect("graph");
    assert!(serde_json::to_string(stable).unwrap().contains("cat-facts-operator.v1.2.0"));
    let added: Vec<_> = plan.diff.packages.iter().flat_map(|p| &p.bundles).map(|b| b.name.as_str()).collect();
    assert_eq!(added, ["cat-facts-operator.v1.2.0"]);
    // A bundle without an image cannot be named by a template.
    let blob = r#"{"op":"addBundle","package":"cat-facts-operator","bundle":{"blob":{"schema":"olm.bundle","name":"x.v9","properties":[]}},"channels":["stable"]}"#;
    let err = plan_template_edit(&template, &source, &op(blob)).unwrap_err();
    assert!(err.to_string().contains("by image"), "{err}");
}

#[test]
fn a_json_basic_template_with_anchors_is_edited_in_place() {
    for rel in ["templates/rhacs-basic-template.json", "templates/rhacs-basic-template.yaml"] {
        let template = file(rel);
        let source = BundleSource::new();
        let o = op(r#"{"op":"setDefaultChannel","package":"rhacs-operator","channel":"rhacs-3.64"}"#);
        let (plan, after) = checked(&template, &source, &o);
        let p = expanded(&after, &source);
        assert_eq!(p.package("rhacs-operator").unwrap().default_channel.value, "rhacs-3.64", "{rel}");
        assert_eq!(plan.edits.len(), 1);
        if rel.ends_with(".yaml") {
            // The message is an anchor other entries alias: the entry goes, the anchor's text stays.
            let o = op(r#"{"op":"undeprecate","package":"rhacs-operator","channel":"rhacs-3.64"}"#);
            let (_, after) = checked(&template, &source, &o);
            let m = expanded(&after, &source);
            let p = m.package("rhacs-operator").unwrap();
            assert!(p.channel("rhacs-3.64").unwrap().deprecation.is_none());
            assert!(p.channel("rhacs-3.65").is_none_or(|c| c.deprecation.is_some()));
        } else {
            // The JSON file has no deprecations: the blob is added to its entries, in JSON.
            let o = op(r#"{"op":"deprecate","package":"rhacs-operator","channel":"rhacs-3.62","message":"old"}"#);
            let (_, after) = checked(&template, &source, &o);
            let text = String::from_utf8(after.content.clone()).unwrap();
            assert!(text.contains("\"schema\": \"olm.deprecations\""), "{text}");
            let m = expanded(&after, &source);
            assert!(m.package("rhacs-operator").unwrap().channel("rhacs-3.62").unwrap().deprecation.is_some());
        }
    }
}

#[test]
fn semver_operations_edit_the_maturity_lists() {
    let template = file("templates/clusterpulse/semver.yaml");
    let source = bundles("clusterpulse");
    let before = expanded(&template, &source);
    let pkg = before.package("clusterpulse").expect("expands");
    assert!(pkg.channel("fast-v1").is_some());
    let image = "quay.io/community-operator-pipeline-prod/clusterpulse";

    // Promote: the image goes into a new Stable list (keys capitalised as the template's).
    let o = op(r#"{"op":"promote","package":"clusterpulse","bundle":"clusterpulse.v1.0.2","channel":"stable-v1"}"#);
    let (_, after) = checked(&template, &source, &o);
    let text = String::from_utf8(after.content.clone()).unwrap();
    assert!(text.ends_with(&format!("Stable:\n  Bundles:\n  - Image: {image}:1.0.2\n")), "{text}");
    let m = expanded(&after, &source);
    let p = m.package("clusterpulse").unwrap();
    assert_eq!(p.channel("stable-v1").unwrap().head().unwrap().name.value, "clusterpulse.v1.0.2");
    assert_eq!(p.default_channel.value, "stable-v1");

    // Add: appended to Fast; the template links it.
    let o = op(&format!(
        r#"{{"op":"addBundle","package":"clusterpulse","bundle":{{"image":"{image}:1.0.3","name":"clusterpulse.v1.0.3","version":"1.0.3"}},"channels":["fast"]}}"#
    ));
    let (plan, after) = checked(&template, &source, &o);
    assert!(String::from_utf8(after.content).unwrap().contains(&format!("1.0.2\n  - Image: {image}:1.0.3\n")));
    let fast = plan.graphs.iter().find(|g| g.channel == "fast-v1").and_then(|g| g.after.as_ref()).expect("graph");
    assert!(serde_json::to_string(fast).unwrap().contains("clusterpulse.v1.0.3"));
    // Named into a channel its version does not go to: refused.
    let wrong = o.clone();
    let wrong = match wrong {
        Operation::AddBundle { package, bundle, edge, .. } => {
            Operation::AddBundle { package, bundle, channels: vec!["fast-v0".into()], edge }
        }
        _ => unreachable!(),
    };
    let err = plan_template_edit(&template, &source, &wrong).unwrap_err();
    assert!(err.to_string().contains("into fast-v1, not \"fast-v0\""), "{err}");

    // Remove: taken out of the list; the template re-links its neighbours.
    let o = op(r#"{"op":"removeBundle","package":"clusterpulse","bundle":"clusterpulse.v0.2.1"}"#);
    let (_, after) = checked(&template, &source, &o);
    assert!(!String::from_utf8(after.content.clone()).unwrap().contains(":0.2.1\n"));
    let p = expanded(&after, &source);
    assert!(p.package("clusterpulse").unwrap().bundle("clusterpulse.v0.2.1").is_none());

    // What the template generates is refused, with the reason.
    for (json, why) in [
        (
            r#"{"op":"setEdges","package":"clusterpulse","channel":"fast-v1","bundle":"clusterpulse.v1.0.2","replaces":""}"#,
            "generates every edge",
        ),
        (
            r#"{"op":"deprecate","package":"clusterpulse","bundle":"clusterpulse.v1.0.0","message":"x"}"#,
            "no place for deprecations",
        ),
        (r#"{"op":"setDefaultChannel","package":"clusterpulse","channel":"fast-v0"}"#, "chooses the default channel"),
        (r#"{"op":"renameChannel","package":"clusterpulse","channel":"fast-v0","to":"x"}"#, "generates its channels"),
        (
            r#"{"op":"promote","package":"clusterpulse","bundle":"clusterpulse.v1.0.2","channel":"alpha"}"#,
            "none of them",
        ),
        (
            r#"{"op":"promote","package":"clusterpulse","bundle":"clusterpulse.v1.0.2","channel":"fast","edge":{"kind":"skipRange"}}"#,
            "only the semver edge policy",
        ),
        (r#"{"op":"removeBundle","package":"clusterpulse","bundle":"clusterpulse.v1.0.2"}"#, "is the head"),
    ] {
        let err = plan_template_edit(&template, &source, &op(json)).unwrap_err();
        assert!(err.to_string().contains(why), "{json}: {err}");
    }
}

#[test]
fn a_directory_with_a_template_and_its_catalog_edits_the_template() {
    let files = read_catalog(&Path::new(SHARED).join("fbc/kube-descheduler/v4.16")).expect("catalog");
    let template = files.iter().position(|f| f.path.ends_with("catalog-template.yaml")).expect("template");
    let model = olm_catalog::validate_files(&files).model;
    let p = model.package("cluster-kube-descheduler-operator").expect("package");
    let oldest = p.bundles.iter().min_by(|a, b| a.version.cmp(&b.version)).unwrap().name.value.clone();
    let o = op(&format!(
        r#"{{"op":"deprecate","package":"cluster-kube-descheduler-operator","bundle":"{oldest}","message":"unsupported"}}"#
    ));
    let plan = plan_edit_with(&files, &BundleSource::new(), &o).expect("plan");
    assert!(plan.edits.iter().all(|e| e.file == files[template].path), "only the template is edited");
    let text = String::from_utf8(plan.files[0].content.clone()).unwrap();
    assert!(text.contains("schema: olm.deprecations") && text.contains("unsupported"), "{text}");
    let dep = plan.diff.packages.iter().flat_map(|p| &p.bundles).find(|b| b.name == oldest);
    assert!(dep.is_some(), "the diff shows the deprecated bundle");
}
