//! Render and templates: `render`, `expandTemplate`, `convertToBasicTemplate`, and the reading
//! of their options and inputs (`input_from_js`, also used by `planEditWith`).

use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::convert::{files_from_js, js_error, to_js};
use crate::declcfg::FileInput;
use crate::validate::Options;

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
pub(crate) struct Input {
    pub(crate) files: Vec<FileInput>,
    pub(crate) name: Option<(String, bool)>,
}

pub(crate) fn input_from_js(value: &JsValue) -> Result<Input, JsValue> {
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
/// diagnostics, missingImages}`: the expansion's findings, then the bundle sources' (as
/// warnings); the images looked up and not found, in name order.
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
    let result = render_result("template", rendered, o.validate.unwrap_or(true), format, false, source_diags)?;
    // The bundle images the template names and no source has: a caller that can fetch images
    // (the Node CLI pulls them, as opm does) adds them as sources and expands again.
    js_sys::Reflect::set(&result, &"missingImages".into(), &to_js(&source.missing())?)?;
    Ok(result)
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
