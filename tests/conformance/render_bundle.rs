//! `render-bundle.json`: one bundle directory rendered as `opm render` would, compared with the
//! expected `olm.bundle` as `opm render -o json` prints it (as JSON data).

use olm_catalog::declcfg::write::{blob_value, BlobRef, RawKeys};
use olm_catalog::declcfg::FileInput;
use olm_catalog::render::bundle::{render_bundle_dir, BundleOptions};
use serde_json::Value;

/// Run one case.
pub fn run(case: &Value) -> Result<(), String> {
    let input = &case["input"];
    let files: Vec<FileInput> = input["files"]
        .as_object()
        .ok_or("case without input.files")?
        .iter()
        .map(|(path, content)| FileInput::new(path.clone(), content.as_str().unwrap_or("").as_bytes()))
        .collect();
    let options = BundleOptions { image: input["imageRef"].as_str().map(str::to_string), ..BundleOptions::default() };
    check(case, &files, &options)?;
    // The case that gives the templated image also names the template: render with it too.
    if let Some(template) = template_of(case["description"].as_str().unwrap_or("")) {
        let options = BundleOptions { image: None, image_ref_template: Some(template), ..options };
        check(case, &files, &options).map_err(|e| format!("with the image reference template: {e}"))?;
    }
    Ok(())
}

/// The `--alpha-image-ref-template '...'` a case's description quotes.
fn template_of(description: &str) -> Option<String> {
    let rest = description.split("--alpha-image-ref-template '").nth(1)?;
    Some(rest.split('\'').next()?.to_string())
}

fn check(case: &Value, files: &[FileInput], options: &BundleOptions) -> Result<(), String> {
    let outcome = render_bundle_dir("", files, options);
    let errors: Vec<String> = outcome.diagnostics.iter().filter(|d| d.is_error()).map(ToString::to_string).collect();
    let Some(rendered) = outcome.bundle else { return Err(format!("no bundle rendered: {errors:#?}")) };
    if !errors.is_empty() {
        return Err(format!("unexpected errors: {errors:#?}"));
    }
    let got = blob_json(BlobRef::Bundle(&rendered.blob));
    let want = &case["expect"]["bundle"];
    if &got != want {
        return Err(format!(
            "bundle differs:\n  want: {}\n  got:  {}",
            serde_json::to_string_pretty(want).unwrap_or_default(),
            serde_json::to_string_pretty(&got).unwrap_or_default()
        ));
    }
    Ok(())
}

/// A blob as opm's `-o json` prints it, as a JSON value (the writer's own encoding).
fn blob_json(blob: BlobRef<'_>) -> Value {
    blob_value(blob, RawKeys::AsGiven).to_json()
}
