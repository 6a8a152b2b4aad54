//! The picture module's JS exports (feature `bindings`, wasm32 only): `pictureOptions` checks
//! the pictures' options, `drawPicture` and `drawSvg` draw a channel from the graph and path the core module computes
//! (`channelGraph`, `upgradePath`), `layoutGraph` lays out any graph. Translation only; errors are JS `Error`s with `name = "OlmCatalogError"` and a `code`,
//! as the core module's.

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::layout::{layout, path_d, Direction, LayoutEdge, LayoutNode, LayoutOptions, NodeBox, Point};
use crate::{
    channel_draft, draw, picture_svg, DraftOptions, GraphData, PathData, Picture, Semantics, SvgStyle, Theme,
    FAN_EXPANSION_BUDGET,
};

/// A JS `Error` with `name = "OlmCatalogError"` and a stable `code`.
fn js_error(code: &str, message: &str) -> JsValue {
    let err = js_sys::Error::new(message);
    err.set_name("OlmCatalogError");
    let _ = js_sys::Reflect::set(&err, &"code".into(), &code.into());
    err.into()
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let ser = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&ser).map_err(|e| js_error("internal", &format!("cannot convert the result: {e}")))
}

/// The draft of channel graph `graph` (the core module's `channelGraph`, one channel) with
/// `path` (its `upgradePath`, or `null`), for the options `pictureOptions` returned, drawn.
fn drawn(graph: JsValue, path: JsValue, args: JsValue) -> Result<Picture, JsValue> {
    let invalid = |what: &str, e: serde_wasm_bindgen::Error| js_error("invalid-input", &format!("picture {what}: {e}"));
    let g: GraphData = serde_wasm_bindgen::from_value(graph).map_err(|e| invalid("graph", e))?;
    let path: Option<PathData> = serde_wasm_bindgen::from_value(path).map_err(|e| invalid("path", e))?;
    let a: DraftArgs = serde_wasm_bindgen::from_value(args).map_err(|e| invalid("options", e))?;
    let o = DraftOptions {
        semantics: if a.v1 { Semantics::V1 } else { Semantics::V0 },
        expand_fans: a.fans,
        fan_budget: a.fan_budget.unwrap_or(FAN_EXPANSION_BUDGET),
        collapse: a.collapse,
        expand: a.expand,
        direction: if a.top_to_bottom { Direction::TopToBottom } else { Direction::LeftToRight },
    };
    let d = channel_draft(g, path, o);
    d.check().map_err(|e| js_error("invalid-input", &format!("picture graph: {e}")))?;
    draw(&d).map_err(|e| js_error("too-large", &e.to_string()))
}

/// A channel's picture (`graphPicture`): `graph` is the core module's `channelGraph` of one
/// channel, `path` its `upgradePath` (or `null`), `args` what `pictureOptions` returned.
#[wasm_bindgen(js_name = drawPicture)]
pub fn draw_picture(graph: JsValue, path: JsValue, args: JsValue) -> Result<JsValue, JsValue> {
    to_js(&drawn(graph, path, args)?)
}

/// The fields of `graphPicture` / `renderGraphSvg` options.
const PICTURE_FIELDS: [&str; 13] = [
    "package",
    "channel",
    "from",
    "semantics",
    "fans",
    "fanBudget",
    "expand",
    "collapse",
    "direction",
    "theme",
    "interactive",
    "legend",
    "idPrefix",
];

/// `graphPicture` / `renderGraphSvg` options as given.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct PictureOpts {
    package: String,
    channel: Option<String>,
    from: Option<String>,
    semantics: Option<String>,
    fans: bool,
    fan_budget: Option<usize>,
    expand: Vec<String>,
    collapse: Option<bool>,
    direction: Option<String>,
    theme: Option<String>,
    interactive: bool,
    legend: Option<bool>,
    id_prefix: Option<String>,
}

/// The options checked: what the façade needs to ask the core module for the channel's graph and
/// path, and what [`drawn`] reads.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DraftArgs {
    package: String,
    channel: Option<String>,
    from: Option<String>,
    v1: bool,
    fans: bool,
    fan_budget: Option<usize>,
    top_to_bottom: bool,
    collapse: bool,
    expand: Vec<String>,
}

/// An error for `{what} options: {field} must be {allowed}, not {got:?}`.
fn bad_option(what: &str, field: &str, allowed: &str, got: &str) -> JsValue {
    js_error("invalid-input", &format!("{what} options: {field} must be {allowed}, not {got:?}"))
}

/// `graphPicture` / `renderGraphSvg` options (`what` names the function in errors) checked
/// (known fields, types, the values of `semantics`, `direction` and `theme`) and returned as
/// `{package, channel, from, v1, fans, fanBudget, topToBottom, collapse, expand}`: the façade
/// asks the core module for the channel's graph and path and passes the three to `drawPicture`
/// or `drawSvg`.
#[wasm_bindgen(js_name = pictureOptions)]
pub fn picture_options(options: JsValue, what: &str) -> Result<JsValue, JsValue> {
    let obj = options.dyn_ref::<js_sys::Object>().filter(|_| options.is_object() && !js_sys::Array::is_array(&options));
    let Some(obj) = obj else {
        return Err(js_error("invalid-input", &format!("{what} options must be an object")));
    };
    let keys = js_sys::Object::keys(obj);
    if let Some(k) = keys.iter().filter_map(|k| k.as_string()).find(|k| !PICTURE_FIELDS.contains(&k.as_str())) {
        let hint = if k == "path" { " (pass a loaded catalog as `catalog`)" } else { "" };
        return Err(js_error("invalid-input", &format!("{what} options: unknown field `{k}`{hint}")));
    }
    let o: PictureOpts = serde_wasm_bindgen::from_value(options)
        .map_err(|e| js_error("invalid-input", &format!("{what} options: {e}")))?;
    let v1 = match o.semantics.as_deref().unwrap_or("v0") {
        "v0" => false,
        "v1" => true,
        other => return Err(bad_option(what, "semantics", "\"v0\" or \"v1\"", other)),
    };
    let top_to_bottom = match o.direction.as_deref().unwrap_or("lr") {
        "lr" | "left-to-right" => false,
        "tb" | "top-to-bottom" => true,
        other => return Err(bad_option(what, "direction", "\"lr\" or \"tb\"", other)),
    };
    if let Some(other) = o.theme.as_deref().filter(|t| !matches!(*t, "light" | "dark" | "auto")) {
        return Err(bad_option(what, "theme", "\"light\", \"dark\" or \"auto\"", other));
    }
    to_js(&DraftArgs {
        package: o.package,
        channel: o.channel,
        from: o.from,
        v1,
        fans: o.fans,
        fan_budget: o.fan_budget,
        top_to_bottom,
        collapse: o.collapse.unwrap_or(true),
        expand: o.expand,
    })
}

/// `renderGraphSvg`'s drawing options (`pictureOptions` has checked them).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct StyleOpts {
    theme: Option<String>,
    interactive: bool,
    legend: Option<bool>,
    id_prefix: Option<String>,
}

/// A channel's picture as a standalone SVG document (`renderGraphSvg`): `graph`, `path` and
/// `args` as for `drawPicture`; of `options`, `renderGraphSvg`'s own, `theme?`, `interactive?`,
/// `legend?` and `idPrefix?` are read here.
#[wasm_bindgen(js_name = drawSvg)]
pub fn draw_svg(graph: JsValue, path: JsValue, args: JsValue, options: JsValue) -> Result<String, JsValue> {
    let o: StyleOpts = if options.is_undefined() || options.is_null() {
        StyleOpts::default()
    } else {
        serde_wasm_bindgen::from_value(options)
            .map_err(|e| js_error("invalid-input", &format!("renderGraphSvg options: {e}")))?
    };
    let theme = match o.theme.as_deref().unwrap_or("light") {
        "light" => Theme::Light,
        "dark" => Theme::Dark,
        "auto" => Theme::Auto,
        other => {
            return Err(js_error(
                "invalid-input",
                &format!("renderGraphSvg options: theme must be \"light\", \"dark\" or \"auto\", not {other:?}"),
            ))
        }
    };
    let mut style =
        SvgStyle { theme, interactive: o.interactive, legend: o.legend.unwrap_or(true), ..SvgStyle::default() };
    if let Some(id) = o.id_prefix {
        style.id_prefix = id;
    }
    Ok(picture_svg(&drawn(graph, path, args)?, &style))
}

/// The most nodes and edges `layoutGraph` takes (its work is `n log n` per sweep).
const LAYOUT_MAX_NODES: usize = 100_000;
const LAYOUT_MAX_EDGES: usize = 500_000;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct LayoutInput {
    nodes: Vec<LayoutNodeInput>,
    #[serde(default)]
    edges: Vec<LayoutEdgeInput>,
    #[serde(default)]
    direction: Option<String>,
    #[serde(default)]
    rank_gap: Option<f64>,
    #[serde(default)]
    node_gap: Option<f64>,
}

#[derive(Deserialize)]
struct LayoutNodeInput {
    width: f64,
    height: f64,
}

#[derive(Deserialize)]
struct LayoutEdgeInput {
    from: usize,
    to: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LayoutEdgeOutput {
    points: Vec<Point>,
    reversed: bool,
    d: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LayoutOutput {
    nodes: Vec<NodeBox>,
    edges: Vec<LayoutEdgeOutput>,
    width: f64,
    height: f64,
    crossings: usize,
}

/// The generic layered layout the pictures use, for any graph a page draws (package
/// dependencies, diffs): `{nodes: [{width, height}], edges: [{from, to}] (node indexes, listed
/// oldest first), direction?: "lr" | "tb", rankGap?, nodeGap?}` → boxes, routes (`points`, SVG
/// `d`) and the canvas size.
#[wasm_bindgen(js_name = layoutGraph)]
pub fn layout_graph(input: JsValue) -> Result<JsValue, JsValue> {
    let i: LayoutInput = serde_wasm_bindgen::from_value(input)
        .map_err(|e| js_error("invalid-input", &format!("layoutGraph input: {e}")))?;
    if i.nodes.len() > LAYOUT_MAX_NODES || i.edges.len() > LAYOUT_MAX_EDGES {
        return Err(js_error(
            "too-large",
            &format!(
                "layoutGraph takes at most {LAYOUT_MAX_NODES} nodes and {LAYOUT_MAX_EDGES} edges, not {} and {}",
                i.nodes.len(),
                i.edges.len()
            ),
        ));
    }
    let n = i.nodes.len();
    if let Some((k, e)) = i.edges.iter().enumerate().find(|(_, e)| e.from >= n || e.to >= n) {
        return Err(js_error(
            "invalid-input",
            &format!("layoutGraph input: edges[{k}] joins {} and {}, but there are {n} nodes", e.from, e.to),
        ));
    }
    let size = |v: f64| if v.is_finite() && v >= 0.0 { v.min(10_000.0) } else { 0.0 };
    let nodes: Vec<LayoutNode> =
        i.nodes.iter().map(|b| LayoutNode { width: size(b.width), height: size(b.height) }).collect();
    let edges: Vec<LayoutEdge> = i.edges.iter().map(|e| LayoutEdge { from: e.from, to: e.to }).collect();
    let direction = match i.direction.as_deref().unwrap_or("lr") {
        "lr" | "left-to-right" => Direction::LeftToRight,
        "tb" | "top-to-bottom" => Direction::TopToBottom,
        other => {
            return Err(js_error(
                "invalid-input",
                &format!("layoutGraph input: direction must be \"lr\" or \"tb\", not {other:?}"),
            ))
        }
    };
    let mut o = LayoutOptions { direction, ..LayoutOptions::default() };
    if let Some(g) = i.rank_gap {
        o.rank_gap = size(g);
    }
    if let Some(g) = i.node_gap {
        o.node_gap = size(g);
    }
    let l = layout(&nodes, &edges, &o);
    let edges = l
        .edges
        .into_iter()
        .map(|r| LayoutEdgeOutput { d: path_d(&r.points, o.direction), points: r.points, reversed: r.reversed })
        .collect();
    to_js(&LayoutOutput { nodes: l.nodes, edges, width: l.width, height: l.height, crossings: l.crossings })
}
