//! Diffs of catalogs (`diffFiles`, `Catalog.diff` and their text variants) and findings in CI
//! formats (`formatDiagnostics`).

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::catalog::Catalog;
use crate::convert::{files_from_js, js_error, known_fields, to_js};

/// `diffCatalogs` options: `{package?, format?}` (`format` only for the text variant).
#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct DiffOpts {
    package: Option<String>,
    format: Option<String>,
}

fn diff_opts(options: JsValue) -> Result<DiffOpts, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(DiffOpts::default());
    }
    known_fields(&options, &["package", "format"], "diffCatalogs options")?;
    serde_wasm_bindgen::from_value(options)
        .map_err(|e| js_error("invalid-input", &format!("diffCatalogs options: {e}"), None))
}

#[cfg(feature = "tools")]
fn diff_models(old: &crate::model::Model, new: &crate::model::Model, o: &DiffOpts) -> crate::diff::CatalogDiff {
    crate::diff::diff_with(old, new, &crate::diff::DiffOptions { package: o.package.clone() })
}

#[cfg(feature = "tools")]
/// The diff in `format`: `text`, `json` (the CLI's pretty JSON) or a `report_formats` name.
fn diff_text(d: &crate::diff::CatalogDiff, format: Option<&str>) -> Result<String, JsValue> {
    match format.unwrap_or("text") {
        "text" => Ok(crate::diff::to_text(d)),
        "json" => serde_json::to_string_pretty(d)
            .map(|s| s + "\n")
            .map_err(|e| js_error("internal", &format!("cannot convert the result: {e}"), None)),
        name => crate::report_formats::ReportFormat::from_name(name)
            .map(|f| crate::report_formats::render_diff(f, d))
            .ok_or_else(|| js_error("invalid-input", &format!("unknown diff format {name:?}"), None)),
    }
}

fn model_of(files: JsValue) -> Result<crate::model::Model, JsValue> {
    Ok(crate::model::build(&crate::declcfg::load_files(&files_from_js(&files)?).config).0)
}

/// Compare two catalogs given as file lists: the `CatalogDiff` (the CLI's `diff --format json`).
#[cfg(feature = "tools")]
#[wasm_bindgen(js_name = diffFiles)]
pub fn diff_files(old: JsValue, new: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let o = diff_opts(options)?;
    to_js(&diff_models(&model_of(old)?, &model_of(new)?, &o))
}

/// A diff as the CLI prints it, and whether the CLI fails (an update-safety error).
#[derive(Serialize)]
struct DiffText {
    text: String,
    failed: bool,
}

#[cfg(feature = "tools")]
fn diff_output(d: &crate::diff::CatalogDiff, format: Option<&str>) -> Result<JsValue, JsValue> {
    to_js(&DiffText { text: diff_text(d, format)?, failed: d.has_errors() })
}

/// [`diff_files`] printed in `options.format` as the CLI prints it: `{text, failed}`.
#[cfg(feature = "tools")]
#[wasm_bindgen(js_name = diffFilesText)]
pub fn diff_files_text(old: JsValue, new: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let o = diff_opts(options)?;
    diff_output(&diff_models(&model_of(old)?, &model_of(new)?, &o), o.format.as_deref())
}

#[cfg(feature = "tools")]
#[wasm_bindgen]
impl Catalog {
    /// Compare this (old) catalog with `new`: the `CatalogDiff`.
    pub fn diff(&self, new: &Catalog, options: JsValue) -> Result<JsValue, JsValue> {
        let o = diff_opts(options)?;
        to_js(&diff_models(&self.inner.model, &new.inner.model, &o))
    }

    /// [`Catalog::diff`] printed in `options.format`: `{text, failed}`.
    #[wasm_bindgen(js_name = diffText)]
    pub fn diff_text(&self, new: &Catalog, options: JsValue) -> Result<JsValue, JsValue> {
        let o = diff_opts(options)?;
        diff_output(&diff_models(&self.inner.model, &new.inner.model, &o), o.format.as_deref())
    }
}

/// Findings (as `validate` returns them, possibly merged from several catalogs) in a CI format:
/// `options.format` is `sarif`, `github`, `markdown` or `junit`; `options.valid` the verdict
/// shown in the Markdown summary (default: no errors).
#[cfg(feature = "tools")]
#[wasm_bindgen(js_name = formatDiagnostics)]
pub fn format_diagnostics(diagnostics: JsValue, options: JsValue) -> Result<String, JsValue> {
    #[derive(serde::Deserialize)]
    struct FormatOpts {
        format: String,
        valid: Option<bool>,
    }
    known_fields(&options, &["format", "valid"], "formatDiagnostics options")?;
    let o: FormatOpts = serde_wasm_bindgen::from_value(options)
        .map_err(|e| js_error("invalid-input", &format!("formatDiagnostics options: {e}"), None))?;
    let format = crate::report_formats::ReportFormat::from_name(&o.format)
        .ok_or_else(|| js_error("invalid-input", &format!("unknown format {:?}", o.format), None))?;
    // Through JSON: the diagnostics' own serde shape, numbers read as integers.
    let json = js_sys::JSON::stringify(&diagnostics).ok().and_then(|s| s.as_string()).unwrap_or_default();
    let diagnostics: Vec<crate::Diagnostic> = serde_json::from_str(&json)
        .map_err(|e| js_error("invalid-input", &format!("formatDiagnostics diagnostics: {e}"), None))?;
    let valid = o.valid.unwrap_or_else(|| !diagnostics.iter().any(crate::Diagnostic::is_error));
    Ok(crate::report_formats::render_diagnostics(format, &diagnostics, valid))
}
