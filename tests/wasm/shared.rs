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
    // The answer alone and the installs as one text of their fields with each field's length
    // (an `Int32Array`: the name first; -1 for a null field); the picks on their own, from
    // resolving again.
    let resolve = |text: String| r.resolve_rows(text.as_bytes()).unwrap();
    let parts = resolve(problem("stable"));
    let out = js_sys::JSON::parse(&parts.get(0).as_string().unwrap()).unwrap();
    let lengths = js_sys::Int32Array::from(parts.get(2)).to_vec();
    assert_eq!(lengths.len(), 8, "one install, eight fields");
    let text = parts.get(1).as_string().unwrap();
    assert_eq!(&text[..lengths[0] as usize], "foo.v1.1.0");
    assert_eq!(lengths[7], -1, "no startingCSV");
    assert!(get(&out, "install").is_undefined(), "the installs come apart");
    assert!(get(&out, "errorType").is_null());
    assert!(get(&out, "picks").is_undefined(), "the picks come apart");
    let picks = Array::from(&js_sys::JSON::parse(&r.picks_json(problem("stable").as_bytes()).unwrap()).unwrap());
    assert_eq!(get(&picks.get(0), "name").as_string().as_deref(), Some("foo.v1.1.0"));
    let out = js_sys::JSON::parse(&resolve(problem("beta")).get(0).as_string().unwrap()).unwrap();
    assert_eq!(get(&out, "errorType").as_string().as_deref(), Some("NotSatisfiable"));
    assert!(get(&out, "explanation").is_object());
    let err = r.resolve_rows(b"3").unwrap_err();
    assert_eq!(get(&err, "code").as_string().as_deref(), Some("invalid-input"));
}

/// docs/examples/catalog-image (www/examples/community built into an OCI layout by umoci), as
/// the files of a dropped folder.
fn catalog_image_folder(tamper: bool) -> JsValue {
    macro_rules! file {
        ($p:literal) => {
            ($p, &include_bytes!(concat!("../../docs/examples/catalog-image/", $p))[..])
        };
    }
    let parts = [
        file!("index.json"),
        file!("oci-layout"),
        file!("blobs/sha256/1a5a5f64dc83dd77bd86d8a441c618840cb0752b467f396b5c9b063e119e30ce"),
        file!("blobs/sha256/2b594beaa74262e9d362f1d9a35315369b750993aab77bbca05e0e1a8985c505"),
        file!("blobs/sha256/44b786bd51141a5f624238ecef5d764b94bbd5fff7901d81840d3007bc60df73"),
        file!("blobs/sha256/7123e11b99f19b3ddf9f78aa127b10a0c981fc5a482df21be8dc1d49ef7c4802"),
        file!("blobs/sha256/721420b62c4a9c6ca8f616fc5000395f723da1b1e9bde58fd6788d83e23138bd"),
        file!("blobs/sha256/8ad8e0435aef2ce9722ae23a6234c3554513b9571d8f1c9eddb2c1af621bf804"),
        file!("blobs/sha256/d412540489d4f2d1b335096cd4d0314d4cf2583d74e5420e744b230f169f1aad"),
    ];
    let a = Array::new();
    for (path, bytes) in parts {
        let mut bytes = bytes.to_vec();
        if tamper && bytes.starts_with(&[0x1f, 0x8b]) {
            let n = bytes.len();
            bytes[n / 2] ^= 1;
        }
        let f = Object::new();
        Reflect::set(&f, &"path".into(), &path.into()).unwrap();
        Reflect::set(&f, &"content".into(), &Uint8Array::from(bytes.as_slice()).into()).unwrap();
        a.push(&f);
    }
    a.into()
}

#[wasm_bindgen_test]
fn read_image_unpacks_a_catalog_image_in_the_module() {
    let image = olm_catalog::wasm::read_image(catalog_image_folder(false), JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&image, "kind").as_string().as_deref(), Some("catalog"));
    assert_eq!(
        get(&image, "digest").as_string().as_deref(),
        Some("sha256:44b786bd51141a5f624238ecef5d764b94bbd5fff7901d81840d3007bc60df73")
    );
    let files = Array::from(&get(&image, "files"));
    let expected = include_bytes!("../../www/examples/community/aws-neuron-operator/catalog.yaml");
    let found = files.iter().find(|f| get(f, "path").as_string().as_deref() == Some("aws-neuron-operator/catalog.yaml"));
    let content = Uint8Array::new(&get(&found.expect("the package's file"), "content")).to_vec();
    assert_eq!(content, expected);
    // The files validate as the folder they were built from does.
    let report = validate(get(&image, "files"), JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&report, "valid").as_bool(), Some(true));
}

#[wasm_bindgen_test]
fn read_image_refuses_a_layer_that_is_not_its_digest() {
    let err = olm_catalog::wasm::read_image(catalog_image_folder(true), JsValue::UNDEFINED).unwrap_err();
    assert_eq!(get(&err, "code").as_string().as_deref(), Some("invalid-image"));
    assert!(get(&err, "message").as_string().unwrap().contains("digest mismatch"));
}
