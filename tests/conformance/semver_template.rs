//! The `semver-template.json` suite: each case's template expanded as an `olm.semver` template
//! against the bundles the case lists (each loaded as an FBC blob); the package and channels
//! compared as data, or the expected error substrings found among the diagnostics.

use olm_catalog::declcfg::write::{blob_value, BlobRef, RawKeys};
use olm_catalog::declcfg::{load_files, FileInput};
use olm_catalog::render::template::{expand_template_as, TemplateKind};
use olm_catalog::render::BundleSource;
use serde_json::Value;

/// Run one case.
pub fn run(case: &Value) -> Result<(), String> {
    let input = &case["input"];
    let expect = &case["expect"];
    let source = bundle_source(&input["bundles"])?;
    let template = FileInput::new("template.yaml", input["template"].as_str().unwrap_or(""));
    let out = expand_template_as(TemplateKind::Semver, &template, &source);
    let errors: Vec<String> = out.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect();
    if expect["ok"].as_bool() == Some(false) {
        let wanted: Vec<&str> = expect["errors"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        if wanted.is_empty() && errors.is_empty() {
            return Err("expected an error".into());
        }
        for want in wanted {
            if !errors.iter().any(|e| e.contains(want)) {
                return Err(format!("no error contains {want:?}; got {errors:#?}"));
            }
        }
        return Ok(());
    }
    if !errors.is_empty() {
        return Err(format!("unexpected errors {errors:#?}"));
    }
    let package = out.config.packages.first().map(|p| blob_json(BlobRef::Package(p))).unwrap_or(Value::Null);
    if package != expect["package"] {
        return Err(format!("package differs:\n  want: {}\n  got:  {package}", expect["package"]));
    }
    let channels: Vec<Value> = out.config.channels.iter().map(|c| blob_json(BlobRef::Channel(c))).collect();
    let want = expect["channels"].as_array().cloned().unwrap_or_default();
    if channels != want {
        return Err(format!("channels differ:\n  want: {}\n  got:  {}", Value::from(want), Value::from(channels)));
    }
    Ok(())
}

/// The case's bundles, each loaded as an FBC blob.
fn bundle_source(bundles: &Value) -> Result<BundleSource, String> {
    let mut source = BundleSource::new();
    for (image, blob) in bundles.as_object().into_iter().flatten() {
        let loaded = load_files(&[FileInput::new(format!("bundles/{image}.json"), blob.to_string())]);
        if let Some(d) = loaded.diagnostics.first() {
            return Err(format!("bundle {image} does not load: {}", d.message));
        }
        source.add_catalog(&loaded.config);
    }
    Ok(source)
}

/// A blob as opm's `-o json` prints it, as a JSON value (the writer's own encoding).
fn blob_json(blob: BlobRef<'_>) -> Value {
    blob_value(blob, RawKeys::AsGiven).to_json()
}
