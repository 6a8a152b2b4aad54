//! A [`Picture`] as a standalone, accessible SVG document: what `olm-catalog graph --format svg`
//! prints, what the JS `renderGraphSvg` returns, and what the `<olm-upgrade-graph>` element shows.
//!
//! - `<title>` and `<desc>` name the package, channel and head and say the highlighted path in
//!   words; nodes are a list of focusable items (`tabindex="0"`, a `<title>` naming each, `data-node`,
//!   `part` names for `::part()`), or buttons when [`SvgStyle::interactive`]; edges are
//!   decoration (`aria-hidden`), since the description and the step list carry the path.
//! - Colours are CSS custom properties with fallbacks (`var(--olm-node-fill, #fff)`), a light and
//!   a dark set, `auto` choosing by `prefers-color-scheme`; everything is in one embedded
//!   `<style>` (and presentation attributes for renderers without CSS), so the file renders on
//!   its own.
//! - The `viewBox` is the drawing's size at 1:1 and so are `width` and `height`; `max-width:
//!   100%` lets a page scale it down, never up.
//! - Catalog text is always escaped ([`escape`]): it is never markup.

use std::fmt::Write as _;

use crate::layout::{num, Point};
use crate::picture::{
    badge_width, badges, label_width, text_width, NodeKind, Picture, PictureEdge, PictureEdgeKind, PictureNode,
    BADGE_SIZE, LABEL_SIZE, SUBLABEL_SIZE,
};
use crate::vocabulary::Semantics;

/// Light, dark, or following the reader's `prefers-color-scheme`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    /// Dark text on white.
    #[default]
    Light,
    /// Light text on a dark background.
    Dark,
    /// Light, or dark when the reader prefers it.
    Auto,
}

impl Theme {
    /// `light`, `dark` or `auto`.
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
            Theme::Auto => "auto",
        }
    }
}

/// How to draw a picture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SvgStyle {
    /// The colour theme.
    pub theme: Theme,
    /// Nodes are buttons (a page that reacts to them) rather than list items.
    pub interactive: bool,
    /// Draw the legend, the path's steps and the notes below the graph.
    pub legend: bool,
    /// The root element's id and the prefix of every other id (markers, title): unique per page
    /// when several drawings are inlined in one.
    pub id_prefix: String,
}

impl Default for SvgStyle {
    /// Light theme, list items, with the legend, ids prefixed `olm-graph`.
    fn default() -> SvgStyle {
        SvgStyle { theme: Theme::Light, interactive: false, legend: true, id_prefix: "olm-graph".into() }
    }
}

/// Escape text for XML content and attribute values; characters XML cannot hold at all (most
/// control characters, U+FFFE, U+FFFF) become U+FFFD.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// One colour: its custom property, the light and the dark fallback.
struct Colour {
    var: &'static str,
    light: &'static str,
    dark: &'static str,
}

/// Every colour the drawing uses; each is `var(--olm-…, fallback)`, so a page can override it.
const COLOURS: &[Colour] = &[
    Colour { var: "bg", light: "#ffffff", dark: "#0d1117" },
    Colour { var: "text", light: "#1f2328", dark: "#e6edf3" },
    Colour { var: "muted", light: "#59636e", dark: "#9198a1" },
    Colour { var: "node-fill", light: "#ffffff", dark: "#161b22" },
    Colour { var: "node-stroke", light: "#8c959f", dark: "#6e7681" },
    Colour { var: "head-fill", light: "#dafbe1", dark: "#0f2d1a" },
    Colour { var: "head-stroke", light: "#1a7f37", dark: "#3fb950" },
    Colour { var: "path", light: "#0969da", dark: "#4493f8" },
    Colour { var: "path-fill", light: "#ddf4ff", dark: "#0c2d6b" },
    Colour { var: "deprecated", light: "#9a6700", dark: "#d29922" },
    Colour { var: "virtual", light: "#8c959f", dark: "#6e7681" },
    Colour { var: "group-fill", light: "#f6f8fa", dark: "#21262d" },
    Colour { var: "edge", light: "#59636e", dark: "#9198a1" },
    Colour { var: "skips", light: "#8250df", dark: "#ab7df8" },
    Colour { var: "skiprange", light: "#bf8700", dark: "#d29922" },
    Colour { var: "badge-text", light: "#ffffff", dark: "#0d1117" },
    Colour { var: "focus", light: "#0969da", dark: "#4493f8" },
];

/// The fallback of colour `var` in `theme` (light for `auto`).
fn fallback(var: &str, theme: Theme) -> &'static str {
    let c = COLOURS.iter().find(|c| c.var == var).expect("a known colour");
    if theme == Theme::Dark {
        c.dark
    } else {
        c.light
    }
}

/// `--_name: var(--olm-name, value);` for every colour of one theme.
fn colour_vars(dark: bool) -> String {
    COLOURS.iter().map(|c| format!("--_{0}:var(--olm-{0},{1});", c.var, if dark { c.dark } else { c.light })).collect()
}

/// The embedded stylesheet, every rule scoped to the root's id.
fn stylesheet(id: &str, theme: Theme) -> String {
    let r = format!("#{id}");
    let mut css = String::new();
    let _ = write!(css, "{r}{{{}}}", colour_vars(theme == Theme::Dark));
    if theme == Theme::Auto {
        let _ = write!(css, "@media (prefers-color-scheme: dark){{{r}{{{}}}}}", colour_vars(true));
    }
    let rules = [
        "{r}{font-family:var(--olm-font,system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif);color-scheme:light dark}",
        "{r} .bg{fill:var(--_bg)}",
        "{r} text{fill:var(--_text)}",
        "{r} .sublabel,{r} .note,{r} .legend text{fill:var(--_muted)}",
        "{r} .label{font-weight:600}",
        "{r} .box{fill:var(--_node-fill);stroke:var(--_node-stroke);stroke-width:1.5}",
        "{r} .node.head .box{fill:var(--_head-fill);stroke:var(--_head-stroke);stroke-width:2}",
        "{r} .node.virtual .box{stroke:var(--_virtual);stroke-dasharray:4 3}",
        "{r} .node.virtual text{fill:var(--_muted)}",
        "{r} .node.deprecated .box{stroke:var(--_deprecated);stroke-dasharray:6 3}",
        "{r} .node.group .box,{r} .node.group .stack{fill:var(--_group-fill);stroke:var(--_node-stroke);stroke-width:1.5}",
        "{r} .node.on-path .box{fill:var(--_path-fill);stroke:var(--_path);stroke-width:2.5}",
        "{r} .node.start .box{stroke-width:3.5}",
        "{r} .node:focus{outline:none}",
        "{r} .node:focus .box,{r} .node:focus-visible .box{stroke:var(--_focus);stroke-width:3.5}",
        "{r} .badge rect{fill:var(--_head-stroke)}",
        "{r} .badge.deprecated rect{fill:var(--_deprecated)}",
        "{r} .badge text{fill:var(--_badge-text);font-weight:600}",
        "{r} .edge{fill:none;stroke:var(--_edge);stroke-width:1.5}",
        "{r} .edge.skips{stroke:var(--_skips);stroke-dasharray:5 3}",
        "{r} .edge.skipRange,{r} .edge.fan{stroke:var(--_skiprange);stroke-dasharray:2 3}",
        "{r} .edge.fan{stroke-width:4;stroke-opacity:.55;stroke-linecap:round}",
        "{r} .edge.on-path{stroke:var(--_path);stroke-width:3;stroke-dasharray:none;stroke-opacity:1}",
        "{r} .arrow{fill:var(--_edge)}",
        "{r} .arrow.skips{fill:var(--_skips)}",
        "{r} .arrow.range{fill:var(--_skiprange)}",
        "{r} .arrow.on-path{fill:var(--_path)}",
        "{r} .edge-label{fill:var(--_skiprange);stroke:var(--_bg);stroke-width:4;paint-order:stroke;stroke-linejoin:round}",
        "{r} .path-title{font-weight:600}",
    ];
    for rule in rules {
        css.push_str(&rule.replace("{r}", &r));
    }
    css
}

/// Which arrowhead an edge ends with.
fn marker(e: &PictureEdge) -> &'static str {
    if e.on_path {
        "arrow-path"
    } else {
        match e.kind {
            PictureEdgeKind::Replaces => "arrow",
            PictureEdgeKind::Skips => "arrow-skips",
            PictureEdgeKind::SkipRange | PictureEdgeKind::Fan => "arrow-range",
        }
    }
}

/// Arrowhead markers, one per colour.
fn markers(id: &str, theme: Theme) -> String {
    let mut s = String::from("<defs>");
    for (name, class, colour) in [
        ("arrow", "arrow", "edge"),
        ("arrow-skips", "arrow skips", "skips"),
        ("arrow-range", "arrow range", "skiprange"),
        ("arrow-path", "arrow on-path", "path"),
    ] {
        let _ = write!(
            s,
            "<marker id=\"{id}-{name}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" markerUnits=\"userSpaceOnUse\" orient=\"auto\"><path class=\"{class}\" d=\"M0 0L10 5L0 10z\" fill=\"{}\"/></marker>",
            fallback(colour, theme)
        );
    }
    s.push_str("</defs>");
    s
}

/// Lines of the footer: the legend, the path's steps, the notes.
struct Footer {
    lines: Vec<(String, &'static str)>,
}

const LINE: f64 = 18.0;
/// The most path steps listed below the graph (the description has them all).
const FOOTER_STEPS: usize = 12;

impl Footer {
    fn new(p: &Picture) -> Footer {
        let mut lines = Vec::new();
        if let Some(path) = &p.path {
            let rules = match p.semantics {
                Semantics::V0 => "OLM v0",
                Semantics::V1 => "OLM v1",
            };
            lines.push((format!("Upgrade path from {} ({rules} rules): {}", path.from, path.summary), "path-title"));
            for (i, l) in path.lines.iter().enumerate().take(FOOTER_STEPS) {
                lines.push((format!("{}. {l}", i + 1), "path-step"));
            }
            if path.lines.len() > FOOTER_STEPS {
                lines.push((format!("and {} more steps", path.lines.len() - FOOTER_STEPS), "path-step"));
            }
        }
        for n in &p.notes {
            lines.push((n.clone(), "note"));
        }
        Footer { lines }
    }

    /// Height: the legend row and every line.
    fn height(&self) -> f64 {
        16.0 + LINE * (1 + self.lines.len()) as f64
    }

    fn width(&self) -> f64 {
        self.lines.iter().map(|(l, _)| text_width(l, 12.0)).fold(460.0, f64::max) + 48.0
    }
}

/// `picture` as an SVG document.
pub fn picture_svg(p: &Picture, options: &SvgStyle) -> String {
    let id = escape(&options.id_prefix);
    let theme = options.theme;
    let footer = options.legend.then(|| Footer::new(p));
    let width = p.width.max(footer.as_ref().map_or(0.0, Footer::width)).ceil();
    let height = (p.height + footer.as_ref().map_or(0.0, Footer::height)).ceil();
    let (w, h) = (num(width), num(height));
    let mut s = String::with_capacity(1024 + 700 * p.nodes.len() + 250 * p.edges.len());
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"{id}\" class=\"olm-graph {}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"graphics-document\" aria-roledescription=\"upgrade graph\" aria-labelledby=\"{id}-title\" aria-describedby=\"{id}-desc\" data-package=\"{}\" data-channel=\"{}\" style=\"max-width:100%;height:auto\" font-family=\"sans-serif\">",
        theme.as_str(),
        escape(&p.package),
        escape(&p.channel)
    );
    let _ = write!(s, "<title id=\"{id}-title\">{}</title>", escape(&p.title));
    let _ = write!(s, "<desc id=\"{id}-desc\">{}</desc>", escape(&p.description));
    let _ = write!(s, "<style>{}</style>", stylesheet(&id, theme));
    s.push_str(&markers(&id, theme));
    let _ = write!(s, "<rect class=\"bg\" width=\"100%\" height=\"100%\" fill=\"{}\"/>", fallback("bg", theme));
    s.push_str("<g class=\"edges\" aria-hidden=\"true\">");
    // Edges on the path last, so they are drawn on top.
    for e in p.edges.iter().filter(|e| !e.on_path).chain(p.edges.iter().filter(|e| e.on_path)) {
        edge(&mut s, &id, e, theme);
    }
    s.push_str("</g>");
    let (list, item) = if options.interactive { ("group", "button") } else { ("list", "listitem") };
    let _ = write!(s, "<g class=\"nodes\" role=\"{list}\" aria-label=\"Versions, oldest first\">");
    for n in &p.nodes {
        node(&mut s, n, item, theme);
    }
    s.push_str("</g>");
    if let Some(f) = &footer {
        legend(&mut s, &id, p, f, theme);
    }
    s.push_str("</svg>\n");
    s
}

/// One edge: its curve and, for a fan, its label.
fn edge(s: &mut String, id: &str, e: &PictureEdge, theme: Theme) {
    let kind = e.kind.as_str();
    let mut class = format!("edge {kind}");
    if e.on_path {
        class.push_str(" on-path");
    }
    let colour = match (e.on_path, e.kind) {
        (true, _) => "path",
        (_, PictureEdgeKind::Replaces) => "edge",
        (_, PictureEdgeKind::Skips) => "skips",
        _ => "skiprange",
    };
    let _ = write!(
        s,
        "<path class=\"{class}\" part=\"{class}\" d=\"{}\" data-from=\"{}\" data-to=\"{}\" data-kind=\"{kind}\" fill=\"none\" stroke=\"{}\" marker-end=\"url(#{id}-{})\"/>",
        e.d,
        escape(&e.from),
        escape(&e.to),
        fallback(colour, theme),
        marker(e)
    );
    if let Some(label) = &e.label {
        let at = midpoint(&e.points);
        let _ = write!(
            s,
            "<text class=\"edge-label\" x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\" fill=\"{}\">{}</text>",
            num(at.x),
            num(at.y - 5.0),
            fallback("skiprange", theme),
            escape(label)
        );
    }
}

/// The middle of a route (of its middle segment).
fn midpoint(points: &[Point]) -> Point {
    match points.len() {
        0 => Point { x: 0.0, y: 0.0 },
        1 => points[0],
        n => {
            let (a, b) = (points[(n - 1) / 2], points[n / 2]);
            if n % 2 == 1 {
                a
            } else {
                Point { x: (a.x + b.x) / 2.0, y: (a.y + b.y) / 2.0 }
            }
        }
    }
}

/// The classes (and `part` names) of a node.
fn node_classes(n: &PictureNode) -> String {
    let mut c = vec![
        "node",
        match n.kind {
            NodeKind::Bundle => "bundle",
            NodeKind::Virtual => "virtual",
            NodeKind::Group => "group",
        },
    ];
    for (on, name) in [
        (n.head, "head"),
        (n.deprecated.is_some(), "deprecated"),
        (n.skipped, "skipped"),
        (n.stranded, "stranded"),
        (n.on_path, "on-path"),
        (n.path_start, "start"),
    ] {
        if on {
            c.push(name);
        }
    }
    c.join(" ")
}

/// One node: box, texts, badges, tooltip.
fn node(s: &mut String, n: &PictureNode, role: &str, theme: Theme) {
    let classes = node_classes(n);
    let _ = write!(
        s,
        "<g class=\"{classes}\" part=\"{classes}\" data-node=\"{}\" data-kind=\"{}\" tabindex=\"0\" role=\"{role}\" transform=\"translate({} {})\">",
        escape(&n.id),
        match n.kind {
            NodeKind::Bundle => "bundle",
            NodeKind::Virtual => "virtual",
            NodeKind::Group => "group",
        },
        num(n.x),
        num(n.y)
    );
    // The title is the node's accessible name and its tooltip (SVG-AAM: a `<title>` child names
    // its element). An `aria-label` would have to contain the node's visible text, titles
    // included (WCAG 2.5.3, label in name), which repeats every name.
    let mut tip = n.aria_label.clone();
    if let Some(d) = n.deprecated.as_deref().filter(|d| !d.is_empty()) {
        tip.push_str("\nDeprecated: ");
        tip.push_str(d);
    }
    let _ = write!(s, "<title>{}</title>", escape(&tip));
    let (w, h) = (num(n.width), num(n.height));
    if n.kind == NodeKind::Group {
        let _ = write!(
            s,
            "<rect class=\"stack\" x=\"4\" y=\"-4\" width=\"{w}\" height=\"{h}\" rx=\"6\" fill=\"{}\" stroke=\"{}\"/>",
            fallback("group-fill", theme),
            fallback("node-stroke", theme)
        );
    }
    let fill = match (n.on_path, n.head, n.kind) {
        (true, _, _) => "path-fill",
        (_, true, _) => "head-fill",
        (_, _, NodeKind::Group) => "group-fill",
        _ => "node-fill",
    };
    let _ = write!(
        s,
        "<rect class=\"box\" width=\"{w}\" height=\"{h}\" rx=\"6\" fill=\"{}\" stroke=\"{}\"/>",
        fallback(fill, theme),
        fallback("node-stroke", theme)
    );
    let baseline = if n.sublabel.is_some() { 18.0 } else { 19.5 };
    let _ = write!(
        s,
        "<text class=\"label\" x=\"12\" y=\"{}\" font-size=\"{}\" fill=\"{}\">{}</text>",
        num(baseline),
        num(LABEL_SIZE),
        fallback("text", theme),
        escape(&n.label)
    );
    let mut bx = 12.0 + label_width(&n.label) + 6.0;
    for b in badges(n) {
        let bw = badge_width(b);
        let _ = write!(
            s,
            "<g class=\"badge {b}\" transform=\"translate({} {})\"><rect width=\"{}\" height=\"14\" rx=\"7\" fill=\"{}\"/><text x=\"{}\" y=\"10.5\" font-size=\"{}\" text-anchor=\"middle\" fill=\"{}\">{b}</text></g>",
            num(bx),
            num(baseline - 11.0),
            num(bw),
            fallback(if b == "head" { "head-stroke" } else { "deprecated" }, theme),
            num(bw / 2.0),
            num(BADGE_SIZE),
            fallback("badge-text", theme)
        );
        bx += bw + 4.0;
    }
    if let Some(sub) = &n.sublabel {
        let _ = write!(
            s,
            "<text class=\"sublabel\" x=\"12\" y=\"34\" font-size=\"{}\" fill=\"{}\">{}</text>",
            num(SUBLABEL_SIZE),
            fallback("muted", theme),
            escape(sub)
        );
    }
    s.push_str("</g>");
}

/// The legend row, the path's steps and the notes, below the graph.
fn legend(s: &mut String, id: &str, p: &Picture, f: &Footer, theme: Theme) {
    let top = p.height;
    let _ = write!(s, "<g class=\"legend\" transform=\"translate(24 {})\">", num(top));
    let mut x = 0.0;
    let mut items = vec![
        ("replaces", "edge replaces", "arrow", "edge"),
        ("skips", "edge skips", "arrow-skips", "skips"),
        ("skipRange", "edge skipRange", "arrow-range", "skiprange"),
    ];
    if p.path.is_some() {
        items.push(("upgrade path", "edge on-path", "arrow-path", "path"));
    }
    s.push_str("<g aria-hidden=\"true\">");
    for (label, class, m, colour) in items {
        let _ = write!(
            s,
            "<path class=\"{class}\" d=\"M{} 4H{}\" fill=\"none\" stroke=\"{}\" marker-end=\"url(#{id}-{m})\"/><text x=\"{}\" y=\"8\" font-size=\"11\" fill=\"{}\">{label}</text>",
            num(x),
            num(x + 28.0),
            fallback(colour, theme),
            num(x + 34.0),
            fallback("muted", theme)
        );
        x += 34.0 + text_width(label, 11.0) + 20.0;
    }
    s.push_str("</g>");
    for (i, (line, class)) in f.lines.iter().enumerate() {
        let colour = if *class == "note" { "muted" } else { "text" };
        let _ = write!(
            s,
            "<text class=\"{class}\" x=\"0\" y=\"{}\" font-size=\"12\" fill=\"{}\">{}</text>",
            num(8.0 + LINE * (i + 1) as f64),
            fallback(colour, theme),
            escape(line)
        );
    }
    s.push_str("</g>");
}
