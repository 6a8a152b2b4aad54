//! Edits: `planEdit`, `applyEdits`, and `planEditWith` for packages maintained as templates.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::render::input_from_js;
use crate::convert::{files_from_js, js_error, to_js};

/// An edit failure as a JS `Error`: `code` (`no-bundle`, `stranded`, …), `op`, and the error's
/// other fields under `detail`.
#[cfg(feature = "tools")]
fn edit_error(e: &crate::edit::EditError, op: &str) -> JsValue {
    let err = js_error(e.code(), &e.to_string(), Some(("op", op.into())));
    if let Ok(detail) = to_js(e) {
        let _ = js_sys::Reflect::set(&err, &"detail".into(), &detail);
    }
    err
}

/// `planEdit(files, operation)`: the operation's edits, their undo, the catalog diff, the new
/// findings and the touched channels' graphs before and after.
#[cfg(feature = "tools")]
#[wasm_bindgen(js_name = planEdit)]
pub fn plan_edit_js(files: JsValue, operation: JsValue) -> Result<JsValue, JsValue> {
    let files = files_from_js(&files)?;
    let op: crate::edit::Operation = serde_wasm_bindgen::from_value(operation)
        .map_err(|e| js_error("invalid-operation", &format!("the operation is not valid: {e}"), None))?;
    let plan = crate::edit::plan_edit(&files, &op).map_err(|e| edit_error(&e, op.name()))?;
    to_js(&plan)
}

/// `applyEdits(files, edits)`: the files with the edits applied (contents as strings).
#[cfg(feature = "tools")]
#[wasm_bindgen(js_name = applyEdits)]
pub fn apply_edits_js(files: JsValue, edits: JsValue) -> Result<JsValue, JsValue> {
    let files = files_from_js(&files)?;
    let edits: Vec<crate::edit::TextEdit> = serde_wasm_bindgen::from_value(edits)
        .map_err(|e| js_error("invalid-input", &format!("the edits are not valid: {e}"), None))?;
    let out = crate::edit::apply_edits(&files, &edits).map_err(|e| edit_error(&e, "applyEdits"))?;
    #[derive(Serialize)]
    struct File {
        path: String,
        content: String,
    }
    let out: Vec<File> = out
        .into_iter()
        .map(|f| File { path: f.path, content: String::from_utf8_lossy(&f.content).into_owned() })
        .collect();
    to_js(&out)
}

// ---- edits of packages maintained as templates (issue 17)

/// `planEdit(files, operation, {bundles})`: as `planEdit`, where a basic or semver template among
/// `files` that expands to the operation's package is edited instead, its bundle images looked
/// up in `bundles` (file lists, as `expandTemplate`'s bundle sources) and the catalog files
/// beside it; the preview is the expansion's.
#[cfg(feature = "tools")]
#[wasm_bindgen(js_name = planEditWith)]
pub fn plan_edit_with_js(files: JsValue, operation: JsValue, bundle_sources: JsValue) -> Result<JsValue, JsValue> {
    let files = files_from_js(&files)?;
    let op: crate::edit::Operation = serde_wasm_bindgen::from_value(operation)
        .map_err(|e| js_error("invalid-operation", &format!("the operation is not valid: {e}"), None))?;
    let mut source = crate::render::BundleSource::new();
    if !bundle_sources.is_undefined() && !bundle_sources.is_null() {
        if !js_sys::Array::is_array(&bundle_sources) {
            return Err(js_error("invalid-input", "bundles must be an array of file lists", None));
        }
        for list in js_sys::Array::from(&bundle_sources).iter() {
            let input = input_from_js(&list)?;
            source.add_input(&input.files, &crate::render::bundle::BundleOptions::default());
        }
    }
    let plan = crate::edit::plan_edit_with(&files, &source, &op).map_err(|e| edit_error(&e, op.name()))?;
    to_js(&plan)
}
