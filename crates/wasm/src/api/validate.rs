//! Validation: `validate` (its options and lint settings), the editing session
//! (`openCatalog`, `CatalogSession`) and the validation benchmark baselines (`__parseOnly`,
//! `__parseAndDecode`).

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::convert::{content_from_js, files_from_js, js_error, to_js};
#[cfg(feature = "tools")]
use crate::validate::only_new;
use crate::validate::{validate_files_with, LintConfig, Options, Report, Session, Validated};
use crate::{region, ALLOCATOR, REGION_BYTES_PER_INPUT_BYTE, REGION_MIN_BYTES};

/// The lint configuration of `validate`'s options: `config` (YAML or JSON text, or an object of
/// the same shape), then `lint` (`code=level` settings), `olmV1` and `denyWarnings` over it.
/// Reading `config` and `lint` (the configuration's reader, `BTreeMap<Code, Level>` building)
/// is in the modules with `tools` only: the browsers' core module leaves it out for size and the
/// npm façade sends a `validate` with either to the tools' module (docs/performance.md,
/// "WebAssembly size").
fn lint_config_from_js(options: &JsValue) -> Result<LintConfig, JsValue> {
    let get = |k: &str| js_sys::Reflect::get(options, &k.into()).ok().filter(|v| !v.is_undefined() && !v.is_null());
    let olm_v1 = get("olmV1").and_then(|v| v.as_bool()).unwrap_or(false);
    let mut config = read_lint_settings(get("config"), get("lint"), olm_v1)?;
    // As `merge` does with the flags (no merge here: the core module has no map to merge).
    config.olm_v1 |= olm_v1;
    config.deny_warnings |= get("denyWarnings").and_then(|v| v.as_bool()).unwrap_or(false);
    Ok(config)
}

/// `config`, then `lint` over it.
#[cfg(feature = "tools")]
fn read_lint_settings(config_value: Option<JsValue>, lint: Option<JsValue>, _: bool) -> Result<LintConfig, JsValue> {
    let mut config = LintConfig::default();
    if let Some(c) = config_value {
        let text = match c.as_string() {
            Some(t) => t,
            None => js_sys::JSON::stringify(&c).ok().and_then(|s| s.as_string()).unwrap_or_default(),
        };
        let parsed = LintConfig::from_file("config", text.as_bytes()).map_err(|ds| {
            let message = ds.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n");
            js_error("invalid-config", &message, to_js(&ds).ok().map(|v| ("diagnostics", v)))
        })?;
        config.merge(parsed);
    }
    let mut cli = LintConfig::default();
    if let Some(list) = lint {
        for s in js_sys::Array::from(&list).iter() {
            let s = s.as_string().unwrap_or_default();
            cli.set(&s).map_err(|e| js_error("invalid-config", &format!("lint {s}: {e}"), None))?;
        }
    }
    config.merge(cli);
    Ok(config)
}

/// Without `tools` (the browsers' core and resolver modules) no configuration is read, and OLM
/// v1's lints (`olmV1`) are not in the module (`olm-catalog-validate`'s feature `olm-v1-lints`):
/// the façade sends such a call to the tools' module.
#[cfg(not(feature = "tools"))]
fn read_lint_settings(
    config_value: Option<JsValue>,
    lint: Option<JsValue>,
    olm_v1: bool,
) -> Result<LintConfig, JsValue> {
    let empty = lint.as_ref().is_none_or(|l| js_sys::Array::is_array(l) && js_sys::Array::from(l).length() == 0);
    if config_value.is_some() || !empty || olm_v1 {
        return Err(js_error(
            "not-initialized",
            "validate's `config`, `lint` and `olmV1` options are read by the tools' module: call `await initTools()` first",
            None,
        ));
    }
    Ok(LintConfig::default())
}

/// `validate`'s result: the report, and whether the run passes (`denyWarnings` counted).
#[derive(Serialize)]
struct ValidateResult<'a> {
    #[serde(flatten)]
    report: &'a crate::validate::Report,
    passed: bool,
}

/// Validate a catalog: `files` is `[{path, content}]`; `options` optionally `{lints: false}` for
/// exactly opm's checks, `config` (lint configuration as YAML/JSON text or an object), `lint`
/// (`code=level` settings over it), `olmV1`, `denyWarnings`, `baseline` (the files of an
/// older catalog: only new findings are reported) and `crdSafety` (the CRD upgrade-safety lints,
/// tools' module). Returns `{valid, passed, diagnostics}`.
#[wasm_bindgen]
pub fn validate(files: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let files = files_from_js(&files)?;
    // The trees, blobs and model are all dropped before this returns: cut them from a region.
    let input: usize = files.iter().map(|f| f.content.len()).sum();
    let _region = region::Region::enter(&ALLOCATOR, REGION_BYTES_PER_INPUT_BYTE * input + REGION_MIN_BYTES);
    let options_ = validate_options(&options)?;
    let deny_warnings = options_.config.deny_warnings;
    let mut validated = validate_files_with(&files, options_.clone());
    add_crd_lints(&mut validated, &options_, &options);
    let baseline =
        js_sys::Reflect::get(&options, &"baseline".into()).ok().filter(|v| !v.is_undefined() && !v.is_null());
    let report = match baseline {
        Some(b) => compare_with_baseline(&validated, &b, options_, &options)?,
        None => validated.report,
    };
    to_js(&ValidateResult { passed: report.passes(deny_warnings), report: &report })
}

/// The findings of `validated` that the `baseline` catalog (its files) did not have.
#[cfg(feature = "tools")]
fn compare_with_baseline(
    validated: &Validated,
    baseline: &JsValue,
    options: Options,
    js_options: &JsValue,
) -> Result<Report, JsValue> {
    let mut old = validate_files_with(&files_from_js(baseline)?, options.clone());
    add_crd_lints(&mut old, &options, js_options);
    Ok(only_new(validated, &old))
}

/// With `crdSafety: true` in the call's options, the CRD upgrade-safety lints added to the report
/// (the CLI's `validate` runs them whenever the catalog carries CRDs).
#[cfg(feature = "tools")]
fn add_crd_lints(validated: &mut Validated, options: &Options, js_options: &JsValue) {
    let crd = js_sys::Reflect::get(js_options, &"crdSafety".into()).ok().and_then(|v| v.as_bool());
    if crd == Some(true) {
        crate::crd_safety::add_to_report(validated, options);
    }
}

/// Without the tools (browsers' core module) there are no CRD checks: the JS layer sends a
/// `validate` with `crdSafety: true` to the tools' module.
#[cfg(not(feature = "tools"))]
fn add_crd_lints(_: &mut Validated, _: &Options, _: &JsValue) {}

/// Without the tools (browsers' core module), the baseline comparison is left out: the JS layer
/// sends a `validate` with a `baseline` to the tools' module (docs/performance.md, "WebAssembly
/// size").
#[cfg(not(feature = "tools"))]
fn compare_with_baseline(_: &Validated, _: &JsValue, _: Options, _: &JsValue) -> Result<Report, JsValue> {
    Err(js_error(
        "invalid-input",
        "validate's `baseline` option is read by the tools' module: call `await initTools()` first",
        None,
    ))
}

/// `validate`'s options (all but `baseline`).
fn validate_options(options: &JsValue) -> Result<Options, JsValue> {
    let lints = js_sys::Reflect::get(options, &"lints".into()).ok().and_then(|v| v.as_bool()).unwrap_or(true);
    Ok(Options { lints, config: lint_config_from_js(options)? })
}

/// A catalog being edited: validated once, then re-validated file by file (only the changed
/// file is read again, only the packages it touches are checked again). Each report equals
/// `validate` of the catalog as edited. In the full module (`tools`): the editor's, not what
/// browsers load first (docs/performance.md, "WebAssembly size").
#[cfg(feature = "tools")]
#[wasm_bindgen]
pub struct CatalogSession {
    inner: Session,
}

/// Open an editing session on a catalog: `files` and `options` as for `validate` (no `baseline`).
#[cfg(feature = "tools")]
#[wasm_bindgen(js_name = openCatalog)]
pub fn open_catalog(files: JsValue, options: JsValue) -> Result<CatalogSession, JsValue> {
    let files = files_from_js(&files)?;
    let baseline =
        js_sys::Reflect::get(&options, &"baseline".into()).ok().filter(|v| !v.is_undefined() && !v.is_null());
    if baseline.is_some() {
        return Err(js_error("invalid-input", "openCatalog takes no baseline (validate does)", None));
    }
    Ok(CatalogSession { inner: Session::open(files, validate_options(&options)?) })
}

#[cfg(feature = "tools")]
impl CatalogSession {
    /// The report as `validate` returns it. Built as JSON text and parsed by the engine: for the
    /// hundreds of findings of a real catalog, faster than building the objects one by one.
    fn result(&self) -> Result<JsValue, JsValue> {
        let report = self.inner.report();
        let result = ValidateResult { passed: report.passes(self.inner.options().config.deny_warnings), report };
        let json = serde_json::to_string(&result)
            .map_err(|e| js_error("internal", &format!("cannot convert the result: {e}"), None))?;
        js_sys::JSON::parse(&json)
    }
}

#[cfg(feature = "tools")]
#[wasm_bindgen]
impl CatalogSession {
    /// The report of the catalog as it is now, as `validate` returns it.
    pub fn report(&self) -> Result<JsValue, JsValue> {
        self.result()
    }

    /// Add the file `path` or replace its content (a string or a `Uint8Array`); the new report.
    pub fn update(&mut self, path: &str, content: JsValue) -> Result<JsValue, JsValue> {
        let bytes = content_from_js(&content, "content")?;
        self.inner.update(path.trim_start_matches("./"), bytes);
        self.result()
    }

    /// Remove the file `path` (nothing happens when there is none); the new report.
    pub fn remove(&mut self, path: &str) -> Result<JsValue, JsValue> {
        self.inner.remove(path.trim_start_matches("./"));
        self.result()
    }
}

/// Benchmark baseline: parse the files into value trees only (no checks); returns the number of
/// documents. Not part of the API. Like `__graphsAndPaths`, only in Node's module (the `resolver`
/// and `tools` features), which tests/node/bench.mjs runs: the browsers' modules leave both out.
#[cfg(all(feature = "resolver", feature = "tools"))]
#[wasm_bindgen(js_name = __parseOnly)]
pub fn parse_only(files: JsValue) -> Result<usize, JsValue> {
    Ok(crate::declcfg::load::parse_only(&files_from_js(&files)?))
}

/// Benchmark baseline of validation: parse the files into value trees that are kept, and decode
/// every `olm.bundle.object` payload into a tree too (`internals::parse_and_decode`, the work any
/// validator must do); returns the number of documents and manifests. Not part of the API; only
/// in Node's module, as `__parseOnly`.
#[cfg(all(feature = "resolver", feature = "tools"))]
#[wasm_bindgen(js_name = __parseAndDecode)]
pub fn parse_and_decode(files: JsValue) -> Result<usize, JsValue> {
    let files = files_from_js(&files)?;
    // The trees are dropped before this returns, as validate's are: in a region like validate's.
    let input: usize = files.iter().map(|f| f.content.len()).sum();
    let _region = region::Region::enter(&ALLOCATOR, REGION_BYTES_PER_INPUT_BYTE * input + REGION_MIN_BYTES);
    let trees = crate::declcfg::load::parse_and_decode(&files);
    Ok(trees.documents.len() + trees.manifests.len())
}
