//! `readImage`: a catalog or bundle image handed in by JavaScript (an oci-archive or
//! docker-archive tarball's bytes, or an OCI layout folder's files) read by `olm-catalog-image`
//! in the module: its kind, digest and files, for `validate`, `render` and the rest. No network:
//! a registry's blobs are the caller's to fetch.

use std::collections::BTreeMap;
use std::io::Cursor;

use olm_catalog_image::{Budgets, Kind, MemTree, Opened, Platform, TarTree};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::convert::{files_from_js, js_error, to_js};

#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ImageOpts {
    /// The image's tag in an OCI layout or archive (its `org.opencontainers.image.ref.name`), or
    /// a docker-archive's `RepoTags` entry.
    tag: Option<String>,
    /// `os/arch[/variant]` of a multi-arch index (default linux/amd64, else the first).
    platform: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ImageOut {
    /// `"catalog"` or `"bundle"`.
    kind: &'static str,
    /// The manifest's digest (a docker-archive's config digest).
    digest: String,
    /// The catalog's directory in the image (`/configs`), for a catalog image.
    configs: Option<String>,
    /// The platform picked from an image index.
    platform: Option<String>,
    /// Entries skipped while unpacking (absolute paths, `..`, escaping links, devices).
    findings: Vec<String>,
}

/// Read a catalog or bundle image: `image` is a tarball's bytes (`Uint8Array`: an oci-archive
/// or a docker-archive, told apart by their contents) or an OCI layout folder's files
/// (`[{path, content}]`). Options: `{tag, platform}`. Returns `{kind, digest, configs, platform,
/// files, findings}`; an unreadable image (a digest mismatch, a sqlite index image, no operator
/// label, a budget exceeded) throws an `OlmCatalogError` with code `invalid-image`.
#[wasm_bindgen(js_name = readImage)]
pub fn read_image(image: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let o: ImageOpts = if options.is_undefined() || options.is_null() {
        ImageOpts::default()
    } else {
        serde_wasm_bindgen::from_value(options)
            .map_err(|e| js_error("invalid-input", &format!("readImage options: {e}"), None))?
    };
    let bad = |e: olm_catalog_image::Error| js_error("invalid-image", &e.to_string(), None);
    let platform = o.platform.as_deref().map(Platform::parse).transpose().map_err(bad)?;
    let budgets = Budgets::default();
    let opened = if let Some(bytes) = image.dyn_ref::<js_sys::Uint8Array>() {
        read_archive(bytes.to_vec(), o.tag.as_deref(), platform.as_ref(), &budgets).map_err(bad)?
    } else {
        let files: BTreeMap<String, Vec<u8>> =
            files_from_js(&image)?.into_iter().map(|f| (f.path, f.content)).collect();
        olm_catalog_image::read_layout(MemTree(files), o.tag.as_deref(), platform.as_ref(), &budgets).map_err(bad)?
    };
    let files = js_sys::Array::new();
    for (path, content) in &opened.content.files {
        let f = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&f, &"path".into(), &path.into());
        let _ = js_sys::Reflect::set(&f, &"content".into(), &js_sys::Uint8Array::from(content.as_slice()).into());
        files.push(&f);
    }
    let out = to_js(&output(&opened))?;
    // `[{path, content: Uint8Array}]`: the catalog's files (relative to its directory), or the
    // bundle's `manifests/…` and `metadata/…`, ready for `validate`, `render` and the rest.
    js_sys::Reflect::set(&out, &"files".into(), &files)?;
    Ok(out)
}

/// An oci-archive or a docker-archive (the latter has a `manifest.json` and no `index.json`).
fn read_archive(
    bytes: Vec<u8>,
    tag: Option<&str>,
    platform: Option<&Platform>,
    budgets: &Budgets,
) -> Result<Opened, olm_catalog_image::Error> {
    let mut tree = TarTree::new(Cursor::new(bytes))?;
    use olm_catalog_image::FileTree as _;
    let is_layout = tree.open("index.json")?.is_some();
    let docker = !is_layout && tree.open("manifest.json")?.is_some();
    if docker {
        let (image, mut files) = olm_catalog_image::open_docker_archive(tree, tag, budgets)?;
        let content = olm_catalog_image::read_content(&mut files, &image, budgets)?;
        Ok(Opened { image, content })
    } else {
        olm_catalog_image::read_layout(tree, tag, platform, budgets)
    }
}

fn output(opened: &Opened) -> ImageOut {
    let (kind, configs) = match &opened.content.kind {
        Kind::Catalog { configs } => ("catalog", Some(configs.clone())),
        Kind::Bundle { .. } => ("bundle", None),
    };
    ImageOut {
        kind,
        digest: opened.image.digest.to_string(),
        configs,
        platform: opened.image.picked.as_ref().map(|(p, _)| p.to_string()),
        findings: opened.content.findings.iter().map(ToString::to_string).collect(),
    }
}
