//! Plans in an [`EditSession`] (incremental validation, one package's model rebuilt) equal
//! [`plan_edit`]'s full ones on a real catalog: the same edits, undo, catalog diff, findings and
//! graphs; and after applying a plan the session's report and model equal a full validation's.

use std::path::Path;

use olm_catalog::edit::{apply_edits, plan_edit, EditSession, Operation};
use olm_catalog::validate::Options;
use olm_catalog::{read_catalog, validate_files, FileInput};

fn catalog() -> Vec<FileInput> {
    read_catalog(Path::new("../shared/catalogs/fbc/community-v4.20")).expect("the shared catalogs are present")
}

fn op(json: &str) -> Operation {
    serde_json::from_str(json).expect("operation")
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap()
}

#[test]
fn session_plans_equal_full_plans_and_applying_keeps_the_session_exact() {
    let mut files = catalog();
    let mut editor = EditSession::open(files.clone(), Options::default());
    let ops = [
        r#"{"op":"deprecate","package":"kube-green","bundle":"kube-green.v0.5.0","message":"old"}"#,
        r#"{"op":"promote","package":"clusterpulse","bundle":"clusterpulse.v0.3.0","channel":"candidate"}"#,
        r#"{"op":"removeBundle","package":"cat-facts-operator","bundle":"cat-facts-operator.v1.1.0"}"#,
        r#"{"op":"setEdges","package":"kube-green","channel":"alpha","bundle":"kube-green.v0.5.1","skipRange":">=0.4.0 <0.5.1"}"#,
        r#"{"op":"addBundle","package":"cat-facts-operator","bundle":{"image":"q/cat:9","name":"cat-facts-operator.v9.0.0","version":"9.0.0"},"channels":["stable"]}"#,
        r#"{"op":"setDefaultChannel","package":"kubevirt-wol","channel":"fast-v0"}"#,
    ];
    for j in ops {
        let o = op(j);
        let full = plan_edit(&files, &o);
        let inc = editor.plan(&o);
        let (full, inc) = match (full, inc) {
            (Ok(f), Ok(i)) => (f, i),
            (Err(f), Err(i)) => {
                assert_eq!(f, i, "{j}");
                continue;
            }
            (f, i) => panic!("{j}: full {:?} vs session {:?}", f.err(), i.err()),
        };
        assert_eq!(json(&full.edits), json(&inc.edits), "{j}: edits");
        assert_eq!(json(&full.undo), json(&inc.undo), "{j}: undo");
        assert_eq!(json(&full.diff), json(&inc.diff), "{j}: diff");
        assert_eq!(json(&full.findings), json(&inc.findings), "{j}: findings");
        assert_eq!(json(&full.graphs), json(&inc.graphs), "{j}: graphs");
        // The plan left the session as it was.
        assert_eq!(editor.report(), &validate_files(&files).report, "{j}: the session is unchanged");
        editor.apply(&inc.edits).unwrap();
        files = apply_edits(&files, &full.edits).unwrap();
        let v = validate_files(&files);
        assert_eq!(editor.report(), &v.report, "{j}: the report after applying");
        let package = o.package();
        assert_eq!(
            json(&olm_catalog::diff::diff(&v.model, editor.model()).packages),
            "[]",
            "{j}: the model after applying"
        );
        assert_same_model(editor.model(), &v.model);
        assert!(v.model.package(package).is_some());
    }
}

#[test]
fn the_model_an_edit_session_opens_with_equals_a_full_validations() {
    let broken = vec![
        FileInput::new(
            "a/catalog.yaml",
            "schema: olm.package\nname: a\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: a\nname: stable\n\
             entries:\n- name: a.v1\n- name: a.v2\n  replaces: a.v1\n---\nschema: olm.bundle\npackage: a\nname: a.v1\n\
             image: r/a:1\nproperties:\n- {type: olm.package, value: {packageName: a, version: 1.0.0}}\n---\n\
             schema: olm.bundle\nname: nameless.v1\nimage: r/n:1\n---\nschema: olm.deprecations\nentries: []\n",
        ),
        FileInput::new("b/catalog.json", r#"{"schema":"olm.package","name":"b"}{"schema":"olm.bundle","package":"b","name":"b.v1"}"#),
    ];
    let catalogs = ["community-v4.16", "kube-descheduler", "openshift-optional-v4.17"]
        .map(|c| read_catalog(Path::new("../shared/catalogs/fbc").join(c).as_path()).expect("shared catalog"));
    for files in catalogs.into_iter().chain([broken]) {
        let full = validate_files(&files).model;
        let editor = EditSession::open(files, Options::default());
        assert_same_model(editor.model(), &full);
    }
}

/// The two models are equal, read positions included (compared as their debug text, whose
/// first difference is shown).
fn assert_same_model(ours: &olm_catalog::model::Model, full: &olm_catalog::model::Model) {
    let (ours, full) = (format!("{ours:?}"), format!("{full:?}"));
    let at = ours.bytes().zip(full.bytes()).position(|(a, b)| a != b).unwrap_or(ours.len().min(full.len()));
    let near = |s: &str| s.get(at.saturating_sub(200)..(at + 200).min(s.len())).unwrap_or("").to_string();
    assert!(ours == full, "the models differ at byte {at}:\n{}\n{}", near(&ours), near(&full));
}
