//! One registry+v1 bundle directory (`manifests/` + `metadata/`) rendered into one `olm.bundle`,
//! exactly as `opm render <dir>` makes it (opm's `alpha/action/render.go` and the registry bundle
//! parser of `pkg/registry`), with every problem located in the file it comes from.
//!
//! The steps, one module each: which files are read (`files`); the manifests and their rules
//! (`manifests`); the metadata files (`metadata`); provided and required APIs and the owned
//! CRD check (`apis`); the properties and their order (`properties`); related images
//! (`related_images`); the image reference template (`image_template`); the
//! `olm.csv.metadata` migration (`csv_metadata`, `migrate`). Go's JSON bytes, which decide
//! the property order and fill `olm.bundle.object`, are written by `go_json`.
//!
//! A bundle opm would refuse (no CSV, an owned CRD missing, no annotations file...) is reported
//! as an error and gives no blob; what opm only logs (an extra document, a file that does not
//! decode, a skipped dependencies file) is a warning and the bundle still renders.

mod apis;
mod csv_metadata;
mod fields;
mod files;
mod go_json;
mod image_template;
mod manifests;
mod metadata;
mod migrate;
mod properties;
mod related_images;

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::declcfg::json::JsonReader;
use crate::declcfg::property_types::{TYPE_BUNDLE_OBJECT, TYPE_CSV_METADATA, TYPE_PACKAGE};
use crate::declcfg::{self, FileInput, Node, Pos, Source, Spanned, Value};
use crate::diagnostic::{Code, Diagnostic};
use crate::render::RenderedBundle;

pub use image_template::ImageRefTemplate;
pub use migrate::migrate_to_csv_metadata;

use apis::ApiKey;
use manifests::{Manifest, Manifests};
use metadata::Metadata;
use properties::{Inputs, Prop};

/// How to render a bundle directory.
#[derive(Debug, Clone, Default)]
pub struct BundleOptions {
    /// The bundle's image reference (`None`: a directory has none, so `image` is empty).
    pub image: Option<String>,
    /// opm's `--alpha-image-ref-template` (`{{.Package}}`, `{{.Name}}`, `{{.Version}}`); when
    /// set it gives the image.
    pub image_ref_template: Option<String>,
    /// `--migrate-level bundle-object-to-csv-metadata`: with an image, the `olm.bundle.object`
    /// properties become one `olm.csv.metadata`.
    pub migrate_csv_metadata: bool,
}

/// The result of rendering one bundle directory.
#[derive(Debug, Clone)]
pub struct BundleOutcome {
    /// The bundle, unless opm would have refused the directory.
    pub bundle: Option<RenderedBundle>,
    /// Errors (why there is no bundle) and warnings, each located.
    pub diagnostics: Vec<Diagnostic>,
}

/// Render the bundle directory `root` (the path prefix as the caller names it, e.g.
/// `operators/foo/0.1.0`; empty for files named `manifests/...`) from `files` (paths include the
/// prefix) into one `olm.bundle`, as `opm render` does.
pub fn render_bundle_dir(root: &str, files: &[FileInput], options: &BundleOptions) -> BundleOutcome {
    let mut diagnostics = Vec::new();
    let bundle = render(root, files, options, &mut diagnostics);
    BundleOutcome { bundle, diagnostics }
}

fn render(
    root: &str,
    files: &[FileInput],
    options: &BundleOptions,
    diags: &mut Vec<Diagnostic>,
) -> Option<RenderedBundle> {
    let manifests = manifests::read(root, files, diags)?;
    let csv = manifests.csv();
    let name = fields::path(&csv.node, &["metadata", "name"]).and_then(Node::as_str).unwrap_or("").to_string();
    let fail = |diags: &mut Vec<Diagnostic>, code: Code, message: String| -> Option<RenderedBundle> {
        diags.push(Diagnostic::error(code, message, fields::at(&csv.file, &csv.node)));
        None
    };
    let provided = match checked_provided_apis(&manifests, &name) {
        Ok(p) => p,
        Err(errors) => {
            errors.into_iter().for_each(|(code, m)| _ = fail(diags, code, m));
            return None;
        }
    };
    let metadata = metadata::read(root, files, diags)?;
    let (version, release, required) = match csv_facts(&csv.node) {
        Ok(f) => f,
        Err(e) => return fail(diags, Code::BundleInvalidCsv, format!("get properties for bundle {name:?}: {e}")),
    };
    let inputs = Inputs {
        package: &metadata.annotations.package,
        version: &version,
        release: &release,
        csv_properties: csv_properties(csv, diags),
        file_properties: &metadata.properties,
        dependencies: &metadata.dependencies,
        provided: &provided,
        required: &required,
        objects: &manifests.objects,
    };
    let combined = properties::bundle_properties(&inputs);
    let image = match image_of(options, &inputs, &name, &combined) {
        Ok(i) => i,
        Err(e) => {
            return fail(
                diags,
                Code::BundleImageTemplate,
                format!("failed templating image reference from bundle for {root:?}: {e}"),
            )
        }
    };
    let mut props = match properties::assemble(&inputs, &combined) {
        Ok(p) => p,
        Err(e) => {
            let message = format!("get properties for bundle {name:?}: {}", e.message);
            let Some(at) = e.at else { return fail(diags, Code::BundleInvalidCsv, message) };
            diags.push(Diagnostic::error(Code::BundleBadDependencies, message, at));
            return None;
        }
    };
    let related = match related_images::related_images(&csv.node, &image) {
        Ok(r) => r,
        Err(e) => return fail(diags, Code::BundleInvalidCsv, format!("get related images for bundle {name:?}: {e}")),
    };
    if options.migrate_csv_metadata && !image.is_empty() {
        if let Err(e) = migrate_props(&mut props, &csv.node) {
            return fail(diags, Code::CsvMetadataInvalid, format!("migrate: {e}"));
        }
    }
    Some(assemble_bundle(csv, &name, image, props, related, &manifests, metadata))
}

/// The provided APIs, once every CRD the CSV owns is among them.
fn checked_provided_apis(manifests: &Manifests, name: &str) -> Result<BTreeSet<ApiKey>, Vec<(Code, String)>> {
    let wrap = |e: String| format!("error checking provided apis in bundle {name}: {e}");
    let provided = apis::provided(manifests).map_err(|e| vec![(Code::BundleInvalidCsv, wrap(e))])?;
    let missing =
        apis::missing_owned_crds(manifests, &provided).map_err(|e| vec![(Code::BundleInvalidCsv, wrap(e))])?;
    if missing.is_empty() {
        Ok(provided)
    } else {
        Err(missing.into_iter().map(|m| (Code::BundleMissingCrd, wrap(m))).collect())
    }
}

/// `spec.version`, `spec.release` and the required APIs of the CSV.
fn csv_facts(csv: &Node) -> Result<(String, String, BTreeSet<ApiKey>), String> {
    let spec = apis::spec_of(csv).map_err(|e| format!("get version: {e}"))?;
    let version = match spec.and_then(|s| s.get("version")) {
        None => String::new(),
        Some(v) => fields::as_string(v).map_err(|e| format!("get version: {e}"))?,
    };
    let release = match spec.and_then(|s| s.get("release")).map(|r| &r.value) {
        Some(Value::String(s)) => s.to_string(),
        Some(Value::Number(n)) => crate::gotext::json_number(*n).unwrap_or_default(),
        _ => String::new(),
    };
    let required = apis::required(csv).map_err(|e| format!("get required apis: {e}"))?;
    Ok((version, release, required))
}

/// The CSV's `olm.properties` annotation (a JSON list of properties); one that does not decode
/// is logged and ignored by opm, a warning here.
fn csv_properties(csv: &Manifest, diags: &mut Vec<Diagnostic>) -> Vec<Prop> {
    let annotation = fields::path(&csv.node, &["metadata", "annotations"]).and_then(|a| a.get("olm.properties"));
    let Some(annotation) = annotation else { return Vec::new() };
    match decode_property_list(annotation) {
        Ok(props) => props,
        Err(e) => {
            let message = format!(
                "failed to unmarshal csv annotation properties: {e} (opm ignores the olm.properties annotation)"
            );
            diags.push(Diagnostic::warning(Code::BundleBadProperties, message, fields::at(&csv.file, annotation)));
            Vec::new()
        }
    }
}

fn decode_property_list(annotation: &Node) -> Result<Vec<Prop>, String> {
    let text = fields::as_string(annotation)?;
    let mut reader = JsonReader::new(&text, 1);
    let list = reader.next_value().map_err(|e| e.message)?;
    if !reader.at_end() {
        return Err("invalid character after top-level value".into());
    }
    let items = list.as_array().ok_or_else(|| fields::mismatch(&list, "[]registry.Property"))?;
    items
        .iter()
        .map(|item| {
            if item.as_object().is_none() && item.value != Value::Null {
                return Err(fields::mismatch(item, "registry.Property"));
            }
            Ok(Prop::as_written(fields::string(item, "type")?, item.field("value").map(|m| m.value.clone())))
        })
        .collect()
}

/// The image: the template's expansion when a template is given, else the given image.
fn image_of(options: &BundleOptions, inputs: &Inputs<'_>, name: &str, combined: &[Prop]) -> Result<String, String> {
    let Some(text) = &options.image_ref_template else { return Ok(options.image.clone().unwrap_or_default()) };
    let template = ImageRefTemplate::compile(text)?;
    let version = match combined.iter().find(|p| p.type_ == TYPE_PACKAGE) {
        Some(p) => fields::string(&p.value, "version")?,
        None => String::new(),
    };
    Ok(template.execute(inputs.package, name, &version))
}

/// `--migrate-level bundle-object-to-csv-metadata` on a freshly rendered bundle.
fn migrate_props(props: &mut Vec<Prop>, csv: &Node) -> Result<(), String> {
    if props.iter().any(|p| p.type_ == TYPE_CSV_METADATA) {
        for p in props.iter_mut().filter(|p| p.type_ == TYPE_CSV_METADATA) {
            *p = csv_metadata::canonical(&p.value)?;
        }
        return Ok(());
    }
    let metadata = csv_metadata::from_csv(csv)?;
    props.retain(|p| p.type_ != TYPE_BUNDLE_OBJECT);
    props.push(metadata);
    Ok(())
}

fn assemble_bundle(
    csv: &Manifest,
    name: &str,
    image: String,
    props: Vec<Prop>,
    related: Vec<related_images::Related>,
    manifests: &Manifests,
    metadata: Metadata,
) -> RenderedBundle {
    let none = Pos::default();
    let object_count = props.iter().filter(|p| p.type_ == TYPE_BUNDLE_OBJECT).count().min(manifests.objects.len());
    let properties: Vec<declcfg::Property> = props
        .into_iter()
        .map(|p| declcfg::Property {
            pos: none,
            type_: Spanned::new(p.type_.into(), none),
            value: Some(p.value.into()),
        })
        .collect();
    let related_images = related
        .into_iter()
        .map(|r| declcfg::RelatedImage {
            pos: none,
            name: Spanned::new(r.name, none),
            image: Spanned::new(r.image, none),
        })
        .collect();
    let blob = declcfg::Bundle {
        source: Source { file: Arc::from(csv.file.as_str()), pos: csv.node.pos },
        package: Spanned::new(metadata.annotations.package.clone(), none),
        name: Spanned::new(name.to_string(), none),
        image: Spanned::new(image, none),
        properties: properties.into(),
        related_images,
        object_count,
        properties_fit: false,
    };
    RenderedBundle { blob, csv: Some(csv.node.clone()), annotations: metadata.annotations }
}

#[cfg(test)]
mod tests;
