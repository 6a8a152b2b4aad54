//! WebAssembly bindings (compiled only for wasm32; on other targets this crate is empty):
//! translation between JS values and the library, no logic. Inputs are plain data (file lists of
//! `{path, content}`, option objects) and outputs plain JS objects. Validation findings come back
//! as data; unusable input throws a JS `Error` with `name`, `code` and, where relevant,
//! `diagnostics`. scripts/build-pkg.sh builds this crate's cdylib into the npm package's modules.
//!
//! Without the `tools` feature (the browsers' core module) the exports of render, templates,
//! OperatorGroup checks, RBAC previews, diffs, Mermaid and DOT output and `formatDiagnostics` are
//! left out, and so is their code (the crate `olm-catalog-tools`).
#![cfg(target_arch = "wasm32")]
#![cfg_attr(not(feature = "tools"), allow(dead_code, unused_imports))]

#[cfg(all(olm_wasm_speed, not(target_feature = "bulk-memory")))]
mod copy;
mod region;

#[allow(unused_imports)]
use olm_catalog_format::{declcfg, diagnostic, gotext, hash, sort, version, Diagnostic, Severity};
#[allow(unused_imports)]
use olm_catalog_model::{cluster, graph, model, property};
#[allow(unused_imports)]
use olm_catalog_validate::validate;
#[cfg(feature = "resolver")]
#[allow(unused_imports)]
use olm_catalog_resolve::resolve;
#[cfg(feature = "tools")]
#[allow(unused_imports)]
use olm_catalog_tools::{deps, diff, edit, operatorgroup, render, report_formats};

use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::declcfg::FileInput;
use crate::graph::{ChannelGraph, MermaidOptions, PackageGraph, Semantics, Start};
use crate::model::Package;
use crate::validate::{only_new, validate_files, validate_files_with, LintConfig, Options, Session, Validated};
use crate::version::Version;

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// A JS `Error` with `name = "OlmCatalogError"`, a stable `code`, and optional extra fields.
fn js_error(code: &str, message: &str, extra: Option<(&str, JsValue)>) -> JsValue {
    let err = js_sys::Error::new(message);
    err.set_name("OlmCatalogError");
    let _ = js_sys::Reflect::set(&err, &"code".into(), &code.into());
    if let Some((k, v)) = extra {
        let _ = js_sys::Reflect::set(&err, &k.into(), &v);
    }
    err.into()
}

/// A JSON reading error's message without its line and column: the text was written by
/// `JSON.stringify` from the caller's object, so a position in it would mean nothing to them.
#[cfg(feature = "resolver")]
fn without_position(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let position = format!(" at line {} column {}", e.line(), e.column());
    message.strip_suffix(&position).map(str::to_string).unwrap_or(message)
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let ser = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&ser).map_err(|e| js_error("internal", &format!("cannot convert the result: {e}"), None))
}

/// Read `[{path, content}]` where content is a string or a `Uint8Array`.
fn files_from_js(files: &JsValue) -> Result<Vec<FileInput>, JsValue> {
    if !js_sys::Array::is_array(files) {
        return Err(js_error("invalid-input", "expected an array of {path, content} objects", None));
    }
    let arr = js_sys::Array::from(files);
    let mut out = Vec::with_capacity(arr.length() as usize);
    for (i, item) in arr.iter().enumerate() {
        let path = js_sys::Reflect::get(&item, &"path".into()).ok().and_then(|p| p.as_string());
        let Some(path) = path else {
            return Err(js_error("invalid-input", &format!("files[{i}].path must be a string"), None));
        };
        let content = js_sys::Reflect::get(&item, &"content".into()).unwrap_or(JsValue::UNDEFINED);
        let bytes = content_from_js(&content, &format!("files[{i}].content"))?;
        out.push(FileInput::new(path.trim_start_matches("./").to_string(), bytes));
    }
    Ok(out)
}

/// A file's content: a string or a `Uint8Array` (`what` names it in the error).
fn content_from_js(content: &JsValue, what: &str) -> Result<Vec<u8>, JsValue> {
    if let Some(s) = content.as_string() {
        Ok(s.into_bytes())
    } else if let Some(bytes) = content.dyn_ref::<js_sys::Uint8Array>() {
        // Copied once, straight into WebAssembly memory (`Uint8Array::new` would copy it in JS first).
        Ok(bytes.to_vec())
    } else {
        Err(js_error("invalid-input", &format!("{what} must be a string or a Uint8Array"), None))
    }
}

/// The lint configuration of `validate`'s options: `config` (YAML or JSON text, or an object of
/// the same shape), then `lint` (`code=level` settings), `olmV1` and `denyWarnings` over it.
/// Reading `config` and `lint` (the configuration's reader, `BTreeMap<Code, Level>` building)
/// is in the modules with `tools` only: the browsers' core module leaves it out for size and the
/// npm façade sends a `validate` with either to the tools' module (docs/performance.md,
/// "WebAssembly size").
fn lint_config_from_js(options: &JsValue) -> Result<LintConfig, JsValue> {
    let get = |k: &str| js_sys::Reflect::get(options, &k.into()).ok().filter(|v| !v.is_undefined() && !v.is_null());
    let mut config = read_lint_settings(get("config"), get("lint"))?;
    // As `merge` does with the flags (no merge here: the core module has no map to merge).
    config.olm_v1 |= get("olmV1").and_then(|v| v.as_bool()).unwrap_or(false);
    config.deny_warnings |= get("denyWarnings").and_then(|v| v.as_bool()).unwrap_or(false);
    Ok(config)
}

/// `config`, then `lint` over it.
#[cfg(feature = "tools")]
fn read_lint_settings(config_value: Option<JsValue>, lint: Option<JsValue>) -> Result<LintConfig, JsValue> {
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

/// Without `tools` (the browsers' core and resolver modules) no configuration is read: the
/// façade sends such a call to the tools' module.
#[cfg(not(feature = "tools"))]
fn read_lint_settings(config_value: Option<JsValue>, lint: Option<JsValue>) -> Result<LintConfig, JsValue> {
    let empty = lint.as_ref().is_none_or(|l| js_sys::Array::is_array(l) && js_sys::Array::from(l).length() == 0);
    if config_value.is_some() || !empty {
        return Err(js_error(
            "not-initialized",
            "validate's `config` and `lint` options are read by the tools' module: call `await initTools()` first",
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
/// (`code=level` settings over it), `olmV1`, `denyWarnings`, and `baseline` (the files of an
/// older catalog: only new findings are reported). Returns `{valid, passed, diagnostics}`.
#[wasm_bindgen]
pub fn validate(files: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let files = files_from_js(&files)?;
    // The trees, blobs and model are all dropped before this returns: cut them from a region.
    let input: usize = files.iter().map(|f| f.content.len()).sum();
    let _region = region::Region::enter(&ALLOCATOR, REGION_BYTES_PER_INPUT_BYTE * input + REGION_MIN_BYTES);
    let options_ = validate_options(&options)?;
    let deny_warnings = options_.config.deny_warnings;
    let validated = validate_files_with(&files, options_.clone());
    let baseline =
        js_sys::Reflect::get(&options, &"baseline".into()).ok().filter(|v| !v.is_undefined() && !v.is_null());
    let report = match baseline {
        Some(b) => only_new(&validated, &validate_files_with(&files_from_js(&b)?, options_)),
        None => validated.report,
    };
    to_js(&ValidateResult { passed: report.passes(deny_warnings), report: &report })
}

/// The global allocator: dlmalloc, with a region for `validate` (`region`'s documentation).
#[global_allocator]
static ALLOCATOR: region::Allocator = region::Allocator::new();

/// How much a validation's region may take from dlmalloc, per byte of input and at the least: a
/// validation of community-v4.20 (15 MB) takes about 40 MB of pages (the instance's memory grows
/// to 53 MB, against 40 MB with dlmalloc alone); beyond the budget, small blocks go to dlmalloc.
const REGION_BYTES_PER_INPUT_BYTE: usize = 4;
const REGION_MIN_BYTES: usize = 16 << 20;

/// How much a resolution's region may take from dlmalloc (pages whose blocks are all freed are
/// reused first, and handed back when the call ends). Beyond the budget, small blocks go to
/// dlmalloc, so a larger resolution is slower, never refused.
#[cfg(feature = "resolver")]
const RESOLVE_REGION_BYTES: usize = 16 << 20;

/// How much a graph, path or drawing call's region may take from dlmalloc: the channels' orders,
/// successor tables and steps it builds are all dropped before it returns (in the graphs phase of
/// the benchmark, dlmalloc's `malloc` and `free` were a sixth of the wasm time; docs/performance.md,
/// "(twelfth session)").
const GRAPH_REGION_BYTES: usize = 16 << 20;

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

/// A loaded, validated catalog kept inside WebAssembly so it is parsed once. Free it with
/// `free()` (the package façade also registers it with a `FinalizationRegistry`).
#[wasm_bindgen]
pub struct Catalog {
    inner: Validated,
}

/// Load and validate a catalog, keeping it for graph and path queries.
#[wasm_bindgen(js_name = loadCatalog)]
pub fn load_catalog(files: JsValue) -> Result<Catalog, JsValue> {
    let files = files_from_js(&files)?;
    Ok(Catalog { inner: validate_files(&files) })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChannelSummary<'a> {
    name: &'a str,
    head: Option<String>,
    entries: usize,
    deprecated: Option<&'a str>,
    versions: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PackageSummary<'a> {
    name: &'a str,
    default_channel: Option<&'a str>,
    description: &'a str,
    deprecated: Option<&'a str>,
    bundles: usize,
    /// The icon as a `data:` URL for an `<img>` (raster or SVG media types only).
    icon: Option<String>,
    channels: Vec<ChannelSummary<'a>>,
}

/// A `data:` URL for a package icon whose media type an `<img>` may show.
fn icon_url(icon: &crate::declcfg::Icon) -> Option<String> {
    use base64::Engine as _;
    const OK: &[&str] = &["image/png", "image/jpeg", "image/gif", "image/svg+xml", "image/webp"];
    let mt = icon.media_type.trim().to_ascii_lowercase();
    (OK.contains(&mt.as_str()) && !icon.data.is_empty())
        .then(|| format!("data:{mt};base64,{}", base64::engine::general_purpose::STANDARD.encode(&icon.data)))
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct PathOptions {
    package: String,
    channel: String,
    from: String,
    #[serde(default)]
    semantics: Option<String>,
}

#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct MermaidOpts {
    package: Option<String>,
    channel: Option<String>,
    minimum_edge: Option<String>,
    v0_semantics: bool,
}

impl Catalog {
    fn package(&self, name: &str) -> Result<&Package, JsValue> {
        self.inner
            .model
            .package(name)
            .ok_or_else(|| js_error("unknown-package", &format!("no package {name:?} in the catalog"), None))
    }
}

#[wasm_bindgen]
impl Catalog {
    /// The validation report, `{valid, diagnostics}`.
    pub fn report(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.report)
    }

    /// Packages with their default channel, channels (head, versions) and deprecations.
    pub fn packages(&self) -> Result<JsValue, JsValue> {
        let list: Vec<PackageSummary<'_>> = self
            .inner
            .model
            .packages
            .iter()
            .map(|p| PackageSummary {
                name: &p.name,
                default_channel: (!p.default_channel.value.is_empty()).then_some(p.default_channel.value.as_str()),
                description: &p.description,
                deprecated: p.deprecation.as_ref().map(|d| d.message.value.as_str()),
                bundles: p.bundles.len(),
                icon: p.icon.as_ref().and_then(icon_url),
                channels: p
                    .channels
                    .iter()
                    .map(|c| ChannelSummary {
                        name: &c.name,
                        head: c.head().ok().map(|e| e.name.value.clone()),
                        entries: c.entries.len(),
                        deprecated: c.deprecation.as_ref().map(|d| d.message.value.as_str()),
                        versions: c
                            .entries
                            .iter()
                            .filter_map(|e| e.bundle.and_then(|b| p.bundles.get(b)).and_then(|b| b.version_string()))
                            .collect(),
                    })
                    .collect(),
            })
            .collect();
        to_js(&list)
    }

    /// The upgrade graph of one channel (`ChannelGraph`), or of every channel of the package
    /// (`PackageGraph`) when `channel` is omitted.
    #[wasm_bindgen(js_name = channelGraph)]
    pub fn channel_graph(&self, package: &str, channel: Option<String>) -> Result<JsValue, JsValue> {
        let _region = region::Region::enter(&ALLOCATOR, GRAPH_REGION_BYTES);
        let p = self.package(package)?;
        match channel {
            Some(c) => {
                let ch = p.channel(&c).ok_or_else(|| {
                    js_error("unknown-channel", &format!("package {package:?} has no channel {c:?}"), None)
                })?;
                to_js(&ChannelGraph::new(p, ch))
            }
            None => to_js(&PackageGraph::new(p)),
        }
    }

    /// The channel a package's picture draws when its options name none: the default channel,
    /// else the first (`graphPicture`, `renderGraphSvg`); `no-channels` when there is none.
    #[wasm_bindgen(js_name = pictureChannel)]
    pub fn picture_channel(&self, package: &str) -> Result<String, JsValue> {
        let p = self.package(package)?;
        // The message is `PictureError::NoChannels`'s, written here: its `Display` would bring
        // every picture error's text into the core module.
        graph::default_picture_channel(p).map(|c| c.name.clone()).ok_or_else(|| {
            js_error("no-channels", &format!("package {} has no channels", crate::gotext::quote(&p.name)), None)
        })
    }

    /// The upgrades OLM takes: `{package, channel, from, semantics: "v0" | "v1"}` →
    /// `{from, to, steps, stranded, reason}`.
    #[wasm_bindgen(js_name = upgradePath)]
    pub fn upgrade_path(&self, options: JsValue) -> Result<JsValue, JsValue> {
        let _region = region::Region::enter(&ALLOCATOR, GRAPH_REGION_BYTES);
        let o: PathOptions = serde_wasm_bindgen::from_value(options)
            .map_err(|e| js_error("invalid-input", &format!("upgradePath options: {e}"), None))?;
        let semantics = match o.semantics.as_deref().unwrap_or("v0") {
            "v0" => Semantics::V0,
            "v1" => Semantics::V1,
            other => {
                return Err(js_error(
                    "invalid-input",
                    &format!("semantics must be \"v0\" or \"v1\", not {other:?}"),
                    None,
                ))
            }
        };
        let p = self.package(&o.package)?;
        let c = p.channel(&o.channel).ok_or_else(|| {
            js_error("unknown-channel", &format!("package {:?} has no channel {:?}", o.package, o.channel), None)
        })?;
        // `from` names a bundle, or else may be a version (`1.2.0`, `v1.2.0`).
        let version = Version::parse(o.from.strip_prefix('v').unwrap_or(&o.from)).ok();
        let start = Start::from_input(p, &o.from, version);
        let path = graph::upgrade_path(p, c, &start, semantics).map_err(|e| {
            // A channel OLM v0 cannot order strands every start: `stranded` names the start, as a
            // stranded path's `from` would (the pictures draw such a path, with the message as reason).
            let stranded = matches!(e, graph::PathError::Order(_)).then(|| ("stranded", JsValue::from(start.name())));
            js_error("no-path", &e.to_string(), stranded)
        })?;
        to_js(&path)
    }

    /// Mermaid as `opm alpha render-graph`: `{package?, channel?, minimumEdge?, v0Semantics?}`.
    #[cfg(feature = "tools")]
    #[wasm_bindgen(js_name = toMermaid)]
    pub fn to_mermaid(&self, options: JsValue) -> Result<String, JsValue> {
        let _region = region::Region::enter(&ALLOCATOR, GRAPH_REGION_BYTES);
        let o: MermaidOpts = if options.is_undefined() || options.is_null() {
            MermaidOpts::default()
        } else {
            serde_wasm_bindgen::from_value(options)
                .map_err(|e| js_error("invalid-input", &format!("toMermaid options: {e}"), None))?
        };
        let opts = MermaidOptions {
            minimum_edge: o.minimum_edge,
            package: o.package,
            channel: o.channel,
            v0_semantics: o.v0_semantics,
        };
        graph::to_mermaid(&self.inner.model, &opts).map_err(|e| js_error("render-failed", &e.to_string(), None))
    }

    /// Graphviz DOT of a package (or one channel).
    #[cfg(feature = "tools")]
    #[wasm_bindgen(js_name = toDot)]
    pub fn to_dot(&self, package: &str, channel: Option<String>) -> Result<String, JsValue> {
        let _region = region::Region::enter(&ALLOCATOR, GRAPH_REGION_BYTES);
        let p = self.package(package)?;
        let graphs: Vec<ChannelGraph> = p
            .channels
            .iter()
            .filter(|c| channel.as_ref().is_none_or(|n| &c.name == n))
            .map(|c| ChannelGraph::new(p, c))
            .collect();
        if graphs.is_empty() {
            return Err(js_error("unknown-channel", &format!("package {package:?} has no channel {channel:?}"), None));
        }
        Ok(graph::to_dot(&graphs))
    }
}

/// Resolution over attached catalogs (loaded `Catalog`s, shared, not copied) and the problem's
/// own inline catalogs.
#[cfg(feature = "resolver")]
#[wasm_bindgen]
pub struct Resolver {
    attached: Vec<crate::cluster::CatalogSource>,
}

#[cfg(feature = "resolver")]
impl Default for Resolver {
    fn default() -> Self {
        Resolver::new()
    }
}

#[cfg(feature = "resolver")]
#[wasm_bindgen]
impl Resolver {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Resolver {
        Resolver { attached: Vec::new() }
    }

    /// Make a loaded catalog visible as catalog source `name` in `namespace` with `priority`.
    pub fn attach(&mut self, catalog: &Catalog, name: String, namespace: String, priority: i32) {
        self.attached.push(crate::cluster::CatalogSource {
            name,
            namespace,
            priority,
            model: catalog.inner.model.clone(),
        });
    }

    /// Resolve a problem the façade wrote as JSON text (`JSON.stringify`): read in one pass, not
    /// one property at a time across the boundary (docs/performance.md, "(eleventh session)").
    fn run(&self, problem: &str) -> Result<resolve::Outcome, JsValue> {
        let problem: crate::cluster::problem_json::ProblemJson = serde_json::from_str(problem)
            .map_err(|e| js_error("invalid-input", &format!("resolution problem: {}", without_position(&e)), None))?;
        let mut cluster =
            problem.into_cluster().map_err(|e| js_error("invalid-input", &format!("resolution problem: {e}"), None))?;
        cluster.catalogs.extend(self.attached.iter().cloned());
        Ok(resolve::resolve(&cluster).into())
    }

    /// Resolve a problem given as JSON text: the outcome (`{install, errors, errorType,
    /// explanation, picks}`) as JSON text, which the npm façade hands to `JSON.parse` (the engine
    /// builds the objects faster than one property at a time across the boundary;
    /// docs/performance.md, "sixth session"). The picks' requirement texts are left out: the
    /// façade asks for them when they are read (`requiredByJson`).
    #[wasm_bindgen(js_name = resolveJson)]
    pub fn resolve_json(&self, problem: &str) -> Result<String, JsValue> {
        // The snapshot, the variables and the outcome are dropped before this returns.
        let _region = region::Region::enter(&ALLOCATOR, RESOLVE_REGION_BYTES);
        serde_json::to_string(&self.run(problem)?)
            .map_err(|e| js_error("internal", &format!("cannot convert the result: {e}"), None))
    }

    /// Resolve a problem given as JSON text again and format its picks' requirement texts (OLM's
    /// constraint messages, which list the candidates): a JSON array with one text (or `null`,
    /// for a pick that was mandatory on its own) per pick of `resolveJson`'s outcome, in order.
    #[wasm_bindgen(js_name = requiredByJson)]
    pub fn required_by_json(&self, problem: &str) -> Result<String, JsValue> {
        let _region = region::Region::enter(&ALLOCATOR, RESOLVE_REGION_BYTES);
        let texts: Vec<Option<String>> =
            self.run(problem)?.picks.iter().map(|p| p.required_by.as_ref().map(resolve::Requirement::text)).collect();
        serde_json::to_string(&texts)
            .map_err(|e| js_error("internal", &format!("cannot convert the result: {e}"), None))
    }

    /// Resolve a problem given as JSON text and render the outcome as the CLI's text.
    #[wasm_bindgen(js_name = resolveText)]
    pub fn resolve_text(&self, problem: &str) -> Result<String, JsValue> {
        let _region = region::Region::enter(&ALLOCATOR, RESOLVE_REGION_BYTES);
        Ok(self.run(problem)?.to_text())
    }
}

/// OLM v1's choice for one package (`{packageName, channels, versionRange,
/// upgradeConstraintPolicy, installedBundle, catalogs}`): `{bundle, version, catalog, ...}`;
/// throws `code: "no-bundle"` with OLM v1's message when nothing (or more than one) qualifies.
#[cfg(feature = "resolver")]
#[wasm_bindgen(js_name = resolveV1)]
pub fn resolve_v1(problem: JsValue) -> Result<JsValue, JsValue> {
    let problem: resolve::v1::V1Problem = serde_wasm_bindgen::from_value(problem)
        .map_err(|e| js_error("invalid-input", &format!("v1 resolution problem: {e}"), None))?;
    let pick = resolve::v1::resolve_v1(&problem).map_err(|e| js_error("no-bundle", &e.to_string(), None))?;
    to_js(&pick)
}

/// Whether this build has the resolver (the npm package ships a build without it for browsers,
/// and loads the full one on demand).
#[wasm_bindgen(js_name = hasResolver)]
pub fn has_resolver() -> bool {
    cfg!(feature = "resolver")
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

/// Benchmark hook: every channel's graph and every entry's v0 and v1 path of a loaded catalog
/// (`internals::graphs_and_paths`, the function the native benchmark times); returns the number
/// of nodes and paths. Not part of the API.
#[cfg(all(feature = "resolver", feature = "tools"))]
#[wasm_bindgen]
impl Catalog {
    #[wasm_bindgen(js_name = __graphsAndPaths)]
    pub fn graphs_and_paths(&self) -> usize {
        let _region = region::Region::enter(&ALLOCATOR, GRAPH_REGION_BYTES);
        crate::graph::graphs_and_paths(&self.inner.model)
    }
}

/// Benchmark hook: the resolution alone (`resolve::resolve`, the function the native benchmark
/// times) of a problem given as JSON text, on the attached catalogs; returns the number of
/// installs. The outcome stays in the module: the like-for-like figure beside `__graphsAndPaths`
/// (docs/performance.md, "(thirteenth session)"). Not part of the API.
#[cfg(all(feature = "resolver", feature = "tools"))]
#[wasm_bindgen]
impl Resolver {
    #[wasm_bindgen(js_name = __resolveCount)]
    pub fn resolve_count(&self, problem: &str) -> Result<usize, JsValue> {
        let _region = region::Region::enter(&ALLOCATOR, RESOLVE_REGION_BYTES);
        Ok(self.run(problem)?.install.len())
    }
}

/// Test hook: panics on purpose, so tests can check that the façade recovers. Only in builds
/// with the `test-hooks` feature (the Node tests' build), never in the published package.
#[cfg(feature = "test-hooks")]
#[wasm_bindgen(js_name = __panicForTesting)]
pub fn panic_for_testing() {
    panic!("deliberate panic for testing");
}

// ---- render and templates

/// Options of `render` and `expandTemplate`.
#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RenderOpts {
    /// `"json"` (default) or `"yaml"`.
    format: Option<String>,
    /// `"bundle-object-to-csv-metadata"`.
    migrate_level: Option<String>,
    image_ref_template: Option<String>,
    /// Check the result as `validate` does (default: false for render, true for templates).
    validate: Option<bool>,
    /// `render` of a template kind whatever its schema says (`expandTemplate` only).
    kind: Option<String>,
}

fn render_opts(options: &JsValue, what: &str) -> Result<RenderOpts, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(RenderOpts::default());
    }
    // serde-wasm-bindgen reads only the fields a struct names, so `deny_unknown_fields` alone
    // lets a misspelt option pass silently: check the keys here.
    const KNOWN: [&str; 5] = ["format", "migrateLevel", "imageRefTemplate", "validate", "kind"];
    if let Some(obj) = options.dyn_ref::<js_sys::Object>() {
        let keys = js_sys::Object::keys(obj);
        if let Some(k) = keys.iter().filter_map(|k| k.as_string()).find(|k| !KNOWN.contains(&k.as_str())) {
            return Err(js_error("invalid-input", &format!("{what} options: unknown field `{k}`"), None));
        }
    }
    serde_wasm_bindgen::from_value(options.clone())
        .map_err(|e| js_error("invalid-input", &format!("{what} options: {e}"), None))
}

fn output_format(o: &RenderOpts) -> Result<crate::declcfg::write::Format, JsValue> {
    o.format
        .as_deref()
        .unwrap_or("json")
        .parse()
        .map_err(|e: crate::declcfg::write::UnknownFormat| js_error("invalid-input", &e.to_string(), None))
}

#[cfg(feature = "tools")]
fn bundle_options(o: &RenderOpts) -> Result<crate::render::bundle::BundleOptions, JsValue> {
    let migrate = match o.migrate_level.as_deref() {
        None => false,
        Some("bundle-object-to-csv-metadata") => true,
        Some(other) => {
            let m = format!("unknown migrate level {other:?} (known: \"bundle-object-to-csv-metadata\")");
            return Err(js_error("invalid-input", &m, None));
        }
    };
    Ok(crate::render::bundle::BundleOptions {
        image: None,
        image_ref_template: o.image_ref_template.clone(),
        migrate_csv_metadata: migrate,
    })
}

#[derive(Serialize)]
struct PackageText {
    package: String,
    content: String,
}

#[derive(Serialize)]
struct RenderResult {
    /// `"catalog"`, `"bundle-directory"`, `"tree"` or `"template"`.
    kind: &'static str,
    /// The whole result as one stream.
    catalog: String,
    /// One text per package (opm's `<package>/catalog.<format>` layout).
    packages: Vec<PackageText>,
    /// Whether nothing is an error (rendering problems, and validation when asked).
    valid: bool,
    diagnostics: Vec<crate::Diagnostic>,
}

#[cfg(feature = "tools")]
fn render_result(
    kind: &'static str,
    rendered: crate::render::Rendered,
    check: bool,
    format: crate::declcfg::write::Format,
    loaded_only: bool,
    after: Vec<crate::Diagnostic>,
) -> Result<JsValue, JsValue> {
    use crate::declcfg::write;
    let (config, mut diagnostics) = if check {
        let v = rendered.validate(Options::default());
        (v.loaded.config, v.report.diagnostics)
    } else {
        (rendered.config, rendered.diagnostics)
    };
    let catalog = if loaded_only { write::write_loaded(&config, format) } else { write::write(&config, format) };
    let packages = write::write_by_package(&config, format)
        .into_iter()
        .map(|(package, content)| PackageText { package, content })
        .collect();
    diagnostics.extend(after);
    let valid = !diagnostics.iter().any(crate::Diagnostic::is_error);
    to_js(&RenderResult { kind, catalog, packages, valid, diagnostics })
}

/// One input of `render` (or bundle source of `expandTemplate`): a bare file list, or
/// `{name, file?, files}` whose findings are named as the CLIs print them — `name/<file>` (Rust's
/// `Path::join`), or `name` itself for a one-file input (`file: true`).
struct Input {
    files: Vec<FileInput>,
    name: Option<(String, bool)>,
}

fn input_from_js(value: &JsValue) -> Result<Input, JsValue> {
    if js_sys::Array::is_array(value) {
        return Ok(Input { files: files_from_js(value)?, name: None });
    }
    let get = |k: &str| js_sys::Reflect::get(value, &k.into()).unwrap_or(JsValue::UNDEFINED);
    let name = get("name")
        .as_string()
        .ok_or_else(|| js_error("invalid-input", "an input is a file list or a {name, files} object", None))?;
    Ok(Input { files: files_from_js(&get("files"))?, name: Some((name, get("file").is_truthy())) })
}

#[cfg(feature = "tools")]
/// An input's findings with their files named as the native CLI names them.
fn named(input: &Input, diagnostics: Vec<crate::Diagnostic>) -> Vec<crate::Diagnostic> {
    let mut rendered = crate::render::Rendered { diagnostics, ..Default::default() };
    if let Some((name, is_file)) = &input.name {
        rendered.name_files(name, *is_file);
    }
    rendered.diagnostics
}

/// `opm render`, offline. `files` is one input (`[{path, content}]`: a bundle directory, a tree of
/// bundle directories or package manifests, or a File-Based Catalog), or several inputs rendered
/// into one catalog (`opm render A B`), each `{name, file?, files}` (findings named
/// `name/<file>`). Options: `{format, migrateLevel, imageRefTemplate, validate}`. Returns
/// `{kind, catalog, packages, valid, diagnostics}`; problems come back as diagnostics, only
/// unusable options throw.
#[cfg(feature = "tools")]
#[wasm_bindgen]
pub fn render(files: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    use crate::render::InputKind;
    let o = render_opts(&options, "render")?;
    let (format, bundle) = (output_format(&o)?, bundle_options(&o)?);
    let named_inputs = js_sys::Array::is_array(&files)
        && js_sys::Array::from(&files)
            .iter()
            .next()
            .is_some_and(|f| !f.is_undefined() && !js_sys::Reflect::has(&f, &"path".into()).unwrap_or(false));
    let inputs = if named_inputs {
        js_sys::Array::from(&files).iter().map(|i| input_from_js(&i)).collect::<Result<Vec<_>, _>>()?
    } else {
        vec![Input { files: files_from_js(&files)?, name: None }]
    };
    let mut all = crate::render::Rendered::default();
    let mut kinds = Vec::new();
    for input in &inputs {
        let (kind, mut rendered) = crate::render::render_input(&input.files, &bundle);
        kinds.push(kind);
        if let Some((name, is_file)) = &input.name {
            rendered.name_files(name, *is_file);
        }
        all.config.extend(rendered.config);
        all.diagnostics.extend(rendered.diagnostics);
    }
    let only_catalogs = kinds.iter().all(|k| *k == InputKind::Catalog);
    // Several inputs: the kind of them all when they agree, else "tree" (whole packages).
    let name = match kinds.first() {
        Some(first) if kinds.iter().any(|k| k != first) => "tree",
        Some(InputKind::BundleDirectory) => "bundle-directory",
        Some(InputKind::Tree) => "tree",
        _ => "catalog",
    };
    render_result(name, all, o.validate.unwrap_or(false), format, only_catalogs, Vec::new())
}

/// Expand a catalog template (`{path, content}`) offline; its bundle images are looked up in
/// `bundleSources`, each an input as `render` takes it (a file list, or `{name, file?, files}`).
/// Options: `{format, kind, imageRefTemplate, validate}` (validation on by default, findings
/// located in the template's lines). Returns `{kind: "template", catalog, packages, valid,
/// diagnostics}`: the expansion's findings, then the bundle sources' (as warnings).
#[cfg(feature = "tools")]
#[wasm_bindgen(js_name = expandTemplate)]
pub fn expand_template(template: JsValue, bundle_sources: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    use crate::render::template::{self, TemplateKind};
    let o = render_opts(&options, "expandTemplate")?;
    let (format, bundle) = (output_format(&o)?, bundle_options(&o)?);
    let file = files_from_js(&js_sys::Array::of1(&template).into())
        .map_err(|_| js_error("invalid-input", "the template must be a {path, content} object", None))?
        .remove(0);
    if !js_sys::Array::is_array(&bundle_sources) {
        return Err(js_error("invalid-input", "bundleSources must be an array of file lists", None));
    }
    let mut source = crate::render::BundleSource::new();
    let mut source_diags = Vec::new();
    for files in js_sys::Array::from(&bundle_sources).iter() {
        let input = input_from_js(&files)?;
        let diags = source.add_input(&input.files, &bundle);
        source_diags.extend(named(&input, diags));
    }
    let rendered = match o.kind.as_deref() {
        None => template::expand_template(&file, &source),
        Some(k) => {
            let kind = TemplateKind::from_name(k).ok_or_else(|| {
                js_error("invalid-input", &format!("unknown template kind {k:?} (basic, semver, substitutes)"), None)
            })?;
            template::expand_template_as(kind, &file, &source)
        }
    };
    // Problems of the bundle sources are reported as warnings: they do not fail the expansion.
    let source_diags = source_diags
        .into_iter()
        .map(|mut d| {
            d.severity = crate::Severity::Warning;
            d
        })
        .collect();
    render_result("template", rendered, o.validate.unwrap_or(true), format, false, source_diags)
}

/// `opm alpha convert-template basic`: a catalog (`[{path, content}]`) as a basic template in
/// `format` (`"json"` default, `"yaml"`). Throws `invalid-catalog` (with `diagnostics`) when the
/// catalog does not load.
#[cfg(feature = "tools")]
#[wasm_bindgen(js_name = convertToBasicTemplate)]
pub fn convert_to_basic_template(files: JsValue, options: JsValue) -> Result<String, JsValue> {
    use crate::render::convert;
    let o = render_opts(&options, "convertToBasicTemplate")?;
    let format = output_format(&o)?;
    let loaded = crate::declcfg::load_files(&files_from_js(&files)?);
    let errors: Vec<&crate::Diagnostic> = loaded.diagnostics.iter().filter(|d| d.is_error()).collect();
    if let Some(first) = errors.first() {
        let message = format!("the catalog does not load: {first}");
        return Err(js_error("invalid-catalog", &message, Some(("diagnostics", to_js(&errors)?))));
    }
    Ok(convert::write_basic_template(&convert::to_basic_template(&loaded.config), format))
}

// ---- operator groups and RBAC

/// The fields of a JS OperatorGroup check (`catalog`, the loaded catalog, is taken out by the
/// package façade before the check reaches here).
const CHECK_FIELDS: [&str; 10] = [
    "package",
    "bundle",
    "installModes",
    "installModesList",
    "providedAPIs",
    "operatorNamespace",
    "targetNamespaces",
    "namespaces",
    "operatorGroups",
    "instances",
];

/// The fields of `previewRbac` options.
const RBAC_FIELDS: [&str; 6] = ["package", "bundle", "installMode", "namespace", "targetNamespaces", "operatorGroup"];

/// `value` as an object whose keys are all `known`, or an `invalid-input` error naming `what`.
fn known_fields(value: &JsValue, known: &[&str], what: &str) -> Result<(), JsValue> {
    let Some(obj) = value.dyn_ref::<js_sys::Object>().filter(|_| value.is_object() && !js_sys::Array::is_array(value))
    else {
        return Err(js_error("invalid-input", &format!("{what} must be an object"), None));
    };
    let keys = js_sys::Object::keys(obj);
    if let Some(k) = keys.iter().filter_map(|k| k.as_string()).find(|k| !known.contains(&k.as_str())) {
        let hint = if k == "path" { " (pass a loaded catalog as `catalog`)" } else { "" };
        return Err(js_error("invalid-input", &format!("{what}: unknown field `{k}`{hint}"), None));
    }
    Ok(())
}

#[cfg(feature = "tools")]
/// A check as the CLI's CHECK file describes it, its bundle read from `catalog` when given.
fn operator_group_check(
    check: JsValue,
    catalog: Option<&crate::model::Model>,
) -> Result<crate::operatorgroup::CheckReport, JsValue> {
    use crate::cluster::operator_group_json::{CheckError, CheckJson};
    known_fields(&check, &CHECK_FIELDS, "checkOperatorGroups check")?;
    let json: CheckJson = serde_wasm_bindgen::from_value(check)
        .map_err(|e| js_error("invalid-input", &format!("checkOperatorGroups check: {e}"), None))?;
    if catalog.is_none() && (json.package.is_some() || json.bundle.is_some()) {
        let m = "checkOperatorGroups check: `package` and `bundle` name a bundle of `catalog`, which is missing";
        return Err(js_error("invalid-input", m, None));
    }
    let c = json.into_check_in(catalog).map_err(|e| {
        let code = match e {
            CheckError::UnknownPackage(_) => "unknown-package",
            CheckError::UnknownBundle(..) => "unknown-bundle",
            CheckError::NoCsv(_) => "no-csv",
            CheckError::MissingBundle | CheckError::Load(_) | CheckError::InstancesWithoutPath => "invalid-input",
        };
        js_error(code, &e.to_string(), None)
    })?;
    Ok(crate::operatorgroup::check(&c))
}

/// Check a CSV given inline (`installModes` or `installModesList`, `providedAPIs`) against a
/// cluster's OperatorGroups: the CLI's `operatorgroup --format json` object.
#[cfg(feature = "tools")]
#[wasm_bindgen(js_name = checkOperatorGroups)]
pub fn check_operator_groups(check: JsValue) -> Result<JsValue, JsValue> {
    to_js(&operator_group_check(check, None)?)
}

/// `checkOperatorGroups`, rendered as the CLI's text report.
#[cfg(feature = "tools")]
#[wasm_bindgen(js_name = checkOperatorGroupsText)]
pub fn check_operator_groups_text(check: JsValue) -> Result<String, JsValue> {
    Ok(operator_group_check(check, None)?.to_text())
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct RbacOpts {
    package: String,
    #[serde(default)]
    bundle: Option<String>,
    #[serde(default)]
    install_mode: Option<String>,
    #[serde(default)]
    namespace: Option<String>,
    #[serde(default)]
    target_namespaces: Option<Vec<String>>,
    #[serde(default)]
    operator_group: Option<String>,
}

#[cfg(feature = "tools")]
impl Catalog {
    fn rbac(&self, options: JsValue) -> Result<crate::operatorgroup::rbac_bundle::BundleRbac, JsValue> {
        use crate::operatorgroup::rbac_bundle::{preview_bundle_rbac, RbacRequest, RbacRequestError};
        use crate::operatorgroup::InstallModeType;
        known_fields(&options, &RBAC_FIELDS, "previewRbac options")?;
        let o: RbacOpts = serde_wasm_bindgen::from_value(options)
            .map_err(|e| js_error("invalid-input", &format!("previewRbac options: {e}"), None))?;
        let install_mode = match o.install_mode.as_deref() {
            None => None,
            Some(m) => Some(InstallModeType::from_name(m).ok_or_else(|| {
                let m = format!(
                    "unknown install mode {m:?} (OwnNamespace, SingleNamespace, MultiNamespace, AllNamespaces)"
                );
                js_error("invalid-input", &m, None)
            })?),
        };
        let defaults = RbacRequest::new(o.package);
        let request = RbacRequest {
            bundle: o.bundle,
            install_mode,
            namespace: o.namespace.unwrap_or(defaults.namespace.clone()),
            operator_group: o.operator_group.unwrap_or(defaults.operator_group.clone()),
            target_namespaces: o.target_namespaces,
            ..defaults
        };
        preview_bundle_rbac(&self.inner.model, &request).map_err(|e| {
            let code = match e {
                RbacRequestError::UnknownPackage(_) => "unknown-package",
                RbacRequestError::NoDefaultChannel(_) | RbacRequestError::NoHead(..) => "unknown-channel",
                RbacRequestError::UnknownBundle(..) => "unknown-bundle",
                RbacRequestError::NoCsv(_) => "no-csv",
                RbacRequestError::Target(_) => "invalid-input",
            };
            js_error(code, &e.to_string(), None)
        })
    }
}

#[cfg(feature = "tools")]
#[wasm_bindgen]
impl Catalog {
    /// `checkOperatorGroups` of one of this catalog's bundles (`package`, `bundle`).
    #[wasm_bindgen(js_name = checkOperatorGroups)]
    pub fn check_operator_groups(&self, check: JsValue) -> Result<JsValue, JsValue> {
        to_js(&operator_group_check(check, Some(&self.inner.model))?)
    }

    /// `checkOperatorGroups` of one of this catalog's bundles, as the CLI's text report.
    #[wasm_bindgen(js_name = checkOperatorGroupsText)]
    pub fn check_operator_groups_text(&self, check: JsValue) -> Result<String, JsValue> {
        Ok(operator_group_check(check, Some(&self.inner.model))?.to_text())
    }

    /// The RBAC OLM generates for a bundle (`{package, bundle?, installMode?, namespace?,
    /// targetNamespaces?, operatorGroup?}`): one preview per install mode asked for, or per mode
    /// the CSV supports; the CLI's `rbac --format json` list.
    #[wasm_bindgen(js_name = previewRbac)]
    pub fn preview_rbac(&self, options: JsValue) -> Result<JsValue, JsValue> {
        to_js(&self.rbac(options)?.previews)
    }

    /// `previewRbac` as the CLI prints it: `format` `"text"` (default) or `"yaml"`.
    #[wasm_bindgen(js_name = previewRbacText)]
    pub fn preview_rbac_text(&self, options: JsValue, format: Option<String>) -> Result<String, JsValue> {
        let rbac = self.rbac(options)?;
        match format.as_deref().unwrap_or("text") {
            "text" => Ok(rbac.to_text()),
            "yaml" => Ok(rbac.to_yaml()),
            other => {
                Err(js_error("invalid-input", &format!("format must be \"text\" or \"yaml\", not {other:?}"), None))
            }
        }
    }
}

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

/// `memcmp` (and `bcmp`) for the WebAssembly build, eight bytes at a time (Node's module also has
/// its own `memcpy`, `memmove` and `memset`: src/wasm/copy.rs). The toolchain's own (compiler-builtins,
/// linked weakly, so this definition replaces it) compares one byte per iteration, which made
/// string comparisons and equality (name indexes, sorting, a session's check that a document is
/// unchanged) several times slower than natively, where the C library's is vectorized:
/// docs/performance.md, "wasm against native".
mod mem {
    use core::ffi::c_void;

    /// # Safety
    /// `a` and `b` are valid for reads of `n` bytes (the C contract).
    #[no_mangle]
    pub unsafe extern "C" fn memcmp(a: *const c_void, b: *const c_void, n: usize) -> i32 {
        let (a, b) = (a.cast::<u8>(), b.cast::<u8>());
        let mut i = 0;
        // SAFETY: every read is below `n`, which the caller guarantees readable; unaligned reads
        // are allowed in WebAssembly and done with `read_unaligned`.
        unsafe {
            while i + 8 <= n && a.add(i).cast::<u64>().read_unaligned() == b.add(i).cast::<u64>().read_unaligned() {
                i += 8;
            }
            while i < n {
                let (x, y) = (*a.add(i), *b.add(i));
                if x != y {
                    return i32::from(x) - i32::from(y);
                }
                i += 1;
            }
        }
        0
    }

    /// # Safety
    /// As [`memcmp`].
    #[no_mangle]
    pub unsafe extern "C" fn bcmp(a: *const c_void, b: *const c_void, n: usize) -> i32 {
        // SAFETY: the same contract.
        unsafe { memcmp(a, b, n) }
    }
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
