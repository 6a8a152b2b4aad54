//! CRD upgrade safety (`crdSafety`): every upgrade edge of a catalog checked as OLM v1's CRD
//! Upgrade Safety preflight and OLM v0 judge it. In the tools' module (the crate
//! `olm-catalog-crd-safety` is not in the browsers' core module).

use wasm_bindgen::prelude::*;

use crate::convert::{files_from_js, js_error, known_fields, to_js};
use crate::crd_safety::{check_catalog, CatalogOptions};
use crate::graph::Start;

/// `crdSafety` options: `{package?, from?}`.
#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct Opts {
    package: Option<String>,
    from: Option<String>,
}

/// Check every upgrade edge of a catalog (`files`: `[{path, content}]`) with the CRDs of its
/// `olm.bundle.object` properties: the CLI's `crd-safety --format json` (`{safe, bundles,
/// bundlesWithCrds, comparedPairs, unsafeEdgesByRule, edges, shared, findings}`).
#[wasm_bindgen(js_name = crdSafety)]
pub fn crd_safety(files: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let o: Opts = if options.is_undefined() || options.is_null() {
        Opts::default()
    } else {
        known_fields(&options, &["package", "from"], "crdSafety options")?;
        serde_wasm_bindgen::from_value(options)
            .map_err(|e| js_error("invalid-input", &format!("crdSafety options: {e}"), None))?
    };
    let model = crate::model::build(&crate::declcfg::load_files(&files_from_js(&files)?).config).0;
    if let Some(p) = o.package.as_deref().filter(|p| model.package(p).is_none()) {
        return Err(js_error("invalid-input", &format!("no package {p:?} in the catalog"), None));
    }
    let options = CatalogOptions {
        package: o.package,
        from: o.from.as_deref().map(Start::from_input),
        ..CatalogOptions::default()
    };
    to_js(&check_catalog(&model, &options).report())
}
