// Binding tests shared by the Node and browser runs (included by tests/wasm_node.rs and
// tests/wasm_browser.rs): the same calls the npm package makes, through wasm-bindgen.

use js_sys::{Array, Object, Reflect, Uint8Array};
use olm_catalog::wasm::{load_catalog, validate};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

const CATALOG: &str = "schema: olm.package\nname: foo\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: foo\nname: stable\nentries:\n- name: foo.v1.0.0\n- name: foo.v1.1.0\n  replaces: foo.v1.0.0\n---\nschema: olm.bundle\npackage: foo\nname: foo.v1.0.0\nimage: quay.io/foo/b:1.0.0\nproperties:\n- type: olm.package\n  value: {packageName: foo, version: 1.0.0}\n---\nschema: olm.bundle\npackage: foo\nname: foo.v1.1.0\nimage: quay.io/foo/b:1.1.0\nproperties:\n- type: olm.package\n  value: {packageName: foo, version: 1.1.0}\n";

fn files(path: &str, content: JsValue) -> JsValue {
    let f = Object::new();
    Reflect::set(&f, &"path".into(), &path.into()).unwrap();
    Reflect::set(&f, &"content".into(), &content).unwrap();
    let a = Array::new();
    a.push(&f);
    a.into()
}

fn get(v: &JsValue, k: &str) -> JsValue {
    Reflect::get(v, &k.into()).unwrap()
}

#[wasm_bindgen_test]
fn validate_returns_findings_as_data() {
    let report = validate(files("foo/catalog.yaml", CATALOG.replace("quay.io/foo/b:1.1.0", "quay.io/Foo/b:1").into()), JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&report, "valid").as_bool(), Some(false));
    let d = Array::from(&get(&report, "diagnostics")).get(0);
    assert_eq!(get(&d, "code").as_string().as_deref(), Some("invalid-image"));
    assert_eq!(get(&d, "file").as_string().as_deref(), Some("foo/catalog.yaml"));
    assert_eq!(get(&d, "line").as_f64(), Some(24.0));
    assert_eq!(get(&d, "pointer").as_string().as_deref(), Some("/image"));
}

#[wasm_bindgen_test]
fn bytes_and_strings_are_both_accepted() {
    let bytes = Uint8Array::from(CATALOG.as_bytes());
    let report = validate(files("c.yaml", bytes.into()), JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&report, "valid").as_bool(), Some(true));
}

#[wasm_bindgen_test]
fn misuse_throws_a_structured_error() {
    let err = validate(JsValue::from(42), JsValue::UNDEFINED).unwrap_err();
    assert!(err.is_instance_of::<js_sys::Error>());
    assert_eq!(get(&err, "name").as_string().as_deref(), Some("OlmCatalogError"));
    assert_eq!(get(&err, "code").as_string().as_deref(), Some("invalid-input"));
    let err = validate(files("x", JsValue::from(1)), JsValue::UNDEFINED).unwrap_err();
    assert_eq!(get(&err, "code").as_string().as_deref(), Some("invalid-input"));
}

#[wasm_bindgen_test]
fn catalog_handle_answers_graph_and_path_queries() {
    let c = load_catalog(files("c.yaml", CATALOG.into())).unwrap();
    let pkgs = Array::from(&c.packages().unwrap());
    assert_eq!(get(&pkgs.get(0), "name").as_string().as_deref(), Some("foo"));
    let g = c.channel_graph("foo", Some("stable".into())).unwrap();
    assert_eq!(get(&g, "head").as_string().as_deref(), Some("foo.v1.1.0"));
    let opts = Object::new();
    for (k, v) in [("package", "foo"), ("channel", "stable"), ("from", "foo.v1.0.0")] {
        Reflect::set(&opts, &k.into(), &v.into()).unwrap();
    }
    let p = c.upgrade_path(opts.clone().into()).unwrap();
    assert_eq!(get(&p, "stranded").as_bool(), Some(false));
    assert_eq!(Array::from(&get(&p, "steps")).length(), 1);
    // A typed version is the bundle of that version, and the path says how it read it.
    Reflect::set(&opts, &"from".into(), &"v1.0.0".into()).unwrap();
    let p = c.upgrade_path(opts.into()).unwrap();
    assert_eq!(get(&p, "from").as_string().as_deref(), Some("foo.v1.0.0"));
    assert_eq!(get(&p, "note").as_string().as_deref(), Some("1.0.0 is the version of foo.v1.0.0"));
    assert!(c.to_mermaid(JsValue::UNDEFINED).unwrap().starts_with("graph LR\n"));
    assert!(c.to_dot("foo", None).unwrap().starts_with("digraph"));
    let err = c.channel_graph("nope", None).unwrap_err();
    assert_eq!(get(&err, "code").as_string().as_deref(), Some("unknown-package"));
    drop(c);
}

#[wasm_bindgen_test]
fn resolver_attaches_loaded_catalogs_and_explains_failures() {
    let c = load_catalog(files("c.yaml", CATALOG.into())).unwrap();
    let mut r = olm_catalog::wasm::Resolver::new();
    r.attach(&c, "cat".into(), "ns".into(), 0);
    let problem = |channel: &str| {
        format!(
            r#"{{"namespace":"ns","subscriptions":[{{"name":"s","package":"foo","channel":"{channel}","catalog":"cat","catalogNamespace":"ns"}}]}}"#
        )
    };
    let resolve = |text: String| js_sys::JSON::parse(&r.resolve_json(&text).unwrap()).unwrap();
    let out = resolve(problem("stable"));
    let install = Array::from(&get(&out, "install"));
    assert_eq!(get(&install.get(0), "name").as_string().as_deref(), Some("foo.v1.1.0"));
    assert!(get(&out, "errorType").is_null());
    let out = resolve(problem("beta"));
    assert_eq!(get(&out, "errorType").as_string().as_deref(), Some("NotSatisfiable"));
    assert!(get(&out, "explanation").is_object());
    let err = r.resolve_json("3").unwrap_err();
    assert_eq!(get(&err, "code").as_string().as_deref(), Some("invalid-input"));
}
