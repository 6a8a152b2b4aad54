//! A loaded catalog (`Catalog`, `loadCatalog`): its report, package summaries, channel graphs,
//! upgrade paths, Mermaid and DOT output, and the graphs benchmark hook (`__graphsAndPaths`).
//! Other areas add their methods to `Catalog` in their own modules.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::convert::{files_from_js, js_error, to_js};
use crate::graph::{ChannelGraph, MermaidOptions, PackageGraph, Semantics, Start};
use crate::model::Package;
use crate::validate::{validate_files, Validated};
use crate::{graph, region, ALLOCATOR, GRAPH_REGION_BYTES};

/// A loaded, validated catalog kept inside WebAssembly so it is parsed once. Free it with
/// `free()` (the package façade also registers it with a `FinalizationRegistry`).
#[wasm_bindgen]
pub struct Catalog {
    pub(crate) inner: Validated,
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
    /// The icon, for an `<img>` (raster or SVG media types only): its media type and bytes,
    /// which the npm package turns into a `data:` URL (the browsers' core module has no base64
    /// encoder: docs/performance.md, "WebAssembly size").
    icon: Option<IconBytes<'a>>,
    channels: Vec<ChannelSummary<'a>>,
}

/// A package icon an `<img>` may show: `{mediaType, data}`, the bytes as a `Uint8Array`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct IconBytes<'a> {
    media_type: String,
    data: Bytes<'a>,
}

/// Bytes serialized as bytes (a `Uint8Array` in JS), not as a list of numbers.
struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

/// The icon of a package if its media type is one an `<img>` may show.
fn icon_bytes(icon: &crate::declcfg::Icon) -> Option<IconBytes<'_>> {
    const OK: &[&str] = &["image/png", "image/jpeg", "image/gif", "image/svg+xml", "image/webp"];
    let mt = icon.media_type.trim().to_ascii_lowercase();
    (OK.contains(&mt.as_str()) && !icon.data.is_empty()).then(|| IconBytes { media_type: mt, data: Bytes(&icon.data) })
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
                icon: p.icon.as_ref().and_then(icon_bytes),
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
        // `from` names a bundle, or is a version (`1.2.0`, `v1.2.0`): the library reads it.
        let start = Start::from_input(&o.from);
        let path = graph::upgrade_path(p, c, &start, semantics).map_err(|e| {
            // A channel OLM v0 cannot order strands every start: `stranded` names the start, as a
            // stranded path's `from` would (the pictures draw such a path, with the message as
            // reason). A version several bundles have: `bundles` names them, to choose from.
            let extra = match &e {
                graph::PathError::Order(_) => Some(("stranded", JsValue::from(start.name()))),
                graph::PathError::SeveralBundles { bundles, .. } => {
                    Some(("bundles", bundles.iter().map(JsValue::from).collect::<js_sys::Array>().into()))
                }
                graph::PathError::UnknownBundle(_) => None,
            };
            js_error("no-path", &e.to_string(), extra)
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
