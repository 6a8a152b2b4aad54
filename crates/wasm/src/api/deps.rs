//! The cross-package view of a loaded `Catalog` (`packageDeps`, `packageDepsText`).

use wasm_bindgen::prelude::*;

use super::catalog::Catalog;
use crate::convert::{js_error, to_js};

/// `packageDeps` options: `{package, headsOnly?}`.
// The cross-package view is in the full module (`tools`): the browsers' core module leaves it
// out for size (docs/performance.md, "WebAssembly size").
#[cfg(feature = "tools")]
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct DepsOpts {
    package: String,
    #[serde(default)]
    heads_only: bool,
}

#[cfg(feature = "tools")]
#[wasm_bindgen]
impl Catalog {
    /// The cross-package view of a package (`{package, headsOnly?}`): what it requires, who
    /// provides it, what is unsatisfied, who requires it (`PackageDeps`, as the CLI's `deps
    /// --format json`).
    #[wasm_bindgen(js_name = packageDeps)]
    pub fn package_deps(&self, options: JsValue) -> Result<JsValue, JsValue> {
        to_js(&self.deps(options)?)
    }

    /// `packageDeps` as the CLI's `deps` text: `{text, failed}` (`failed`: the CLI exits 1).
    #[wasm_bindgen(js_name = packageDepsText)]
    pub fn package_deps_text(&self, options: JsValue) -> Result<JsValue, JsValue> {
        let deps = self.deps(options)?;
        to_js(&serde_json::json!({"text": deps.to_text(), "failed": deps.has_unmet()}))
    }
}

#[cfg(feature = "tools")]
impl Catalog {
    fn deps(&self, options: JsValue) -> Result<crate::deps::PackageDeps, JsValue> {
        let o: DepsOpts = serde_wasm_bindgen::from_value(options)
            .map_err(|e| js_error("invalid-input", &format!("packageDeps options: {e}"), None))?;
        let options = crate::deps::DepsOptions { heads_only: o.heads_only };
        crate::deps::package_deps(&self.inner.model, &o.package, &options)
            .map_err(|e| js_error("unknown-package", &e.to_string(), None))
    }
}
