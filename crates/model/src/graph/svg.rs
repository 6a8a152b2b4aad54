//! A [`Picture`] as a standalone, accessible SVG document: what `olm-catalog graph --format svg`
//! prints, what the JS `renderGraphSvg` returns, and what the `<olm-upgrade-graph>` element shows.
//! The drawing is `olm_graph_picture::picture_svg` (`crates/graph-picture`: accessible, themed,
//! every catalog string escaped); this module adds what to draw from a catalog ([`SvgOptions`],
//! [`render_graph_svg`]).

use super::picture::{graph_picture, Picture, PictureError, PictureOptions};
use crate::model::Model;
pub use olm_graph_picture::{escape, SvgStyle, Theme};

/// What to draw and how.
#[derive(Debug, Clone, PartialEq)]
pub struct SvgOptions {
    /// What to draw.
    pub picture: PictureOptions,
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

impl SvgOptions {
    /// Light theme, list items, with the legend, ids prefixed `olm-graph`.
    pub fn new(picture: PictureOptions) -> SvgOptions {
        SvgOptions { picture, theme: Theme::Light, interactive: false, legend: true, id_prefix: "olm-graph".into() }
    }

    /// How to draw (all but what to draw).
    pub fn style(&self) -> SvgStyle {
        SvgStyle {
            theme: self.theme,
            interactive: self.interactive,
            legend: self.legend,
            id_prefix: self.id_prefix.clone(),
        }
    }
}

/// The picture of one channel of `model` as a standalone SVG document.
///
/// ```
/// use olm_catalog::graph::{render_graph_svg, PictureOptions, Start, SvgOptions, Theme};
/// use olm_catalog::{build_model, load_files, FileInput};
///
/// let yaml = "\
/// schema: olm.package\nname: foo\ndefaultChannel: stable\n---\n\
/// schema: olm.channel\npackage: foo\nname: stable\nentries:\n\
/// - {name: foo.v2, replaces: foo.v1}\n- {name: foo.v1}\n\
/// ---\nschema: olm.bundle\npackage: foo\nname: foo.v1\nimage: example.com/foo:1\nproperties:\n\
/// - {type: olm.package, value: {packageName: foo, version: 1.0.0}}\n\
/// ---\nschema: olm.bundle\npackage: foo\nname: foo.v2\nimage: example.com/foo:2\nproperties:\n\
/// - {type: olm.package, value: {packageName: foo, version: 2.0.0}}\n";
/// let (model, _) = build_model(&load_files(&[FileInput::new("catalog.yaml", yaml)]).config);
/// let mut options = SvgOptions::new(PictureOptions::new("foo"));
/// options.picture.from = Some(Start::Bundle("foo.v1".into()));
/// options.theme = Theme::Auto;
/// let svg = render_graph_svg(&model, &options).unwrap();
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
/// assert!(svg.contains("<title id=\"olm-graph-title\">Upgrade graph of foo, channel stable</title>"));
/// assert!(svg.contains("data-node=\"foo.v2\""));
/// ```
pub fn render_graph_svg(model: &Model, options: &SvgOptions) -> Result<String, PictureError> {
    Ok(picture_svg(&graph_picture(model, &options.picture)?, options))
}

/// `picture` as an SVG document.
pub fn picture_svg(p: &Picture, options: &SvgOptions) -> String {
    olm_graph_picture::picture_svg(p, &options.style())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::testing::TestCatalog;
    use crate::graph::Start;

    fn svg(m: &Model, o: &SvgOptions) -> String {
        render_graph_svg(m, o).expect("an svg")
    }

    fn small() -> Model {
        TestCatalog::new()
            .channel(
                "stable",
                "
                - {name: foo.v1.0.2, replaces: foo.v1.0.1, skipRange: '<1.0.2'}
                - {name: foo.v1.0.1, replaces: foo.v1.0.0}
                - {name: foo.v1.0.0}",
            )
            .build()
    }

    #[test]
    fn text_is_escaped_and_xml_cannot_hold_control_characters() {
        assert_eq!(escape("<script>&\"'"), "&lt;script&gt;&amp;&quot;&#39;");
        assert_eq!(escape("a\u{1}b\u{FFFF}"), "a\u{FFFD}b\u{FFFD}");
        assert_eq!(escape("مرحبا 🚀"), "مرحبا 🚀");
    }

    #[test]
    fn the_document_has_a_title_a_description_and_one_item_per_node() {
        let mut o = SvgOptions::new(PictureOptions::new("foo"));
        o.picture.from = Some(Start::Bundle("foo.v1.0.0".into()));
        let s = svg(&small(), &o);
        assert!(s.contains("<title id=\"olm-graph-title\">Upgrade graph of foo, channel stable</title>"));
        assert!(s.contains("Path from") || s.contains("1 upgrade from foo.v1.0.0 to reach foo.v1.0.2"), "{s}");
        assert_eq!(s.matches("role=\"listitem\"").count(), 3);
        assert_eq!(s.matches("tabindex=\"0\"").count(), 3);
        assert!(s.contains("part=\"node bundle head on-path\""), "{s}");
        assert!(s.contains("class=\"edge skipRange on-path\""), "{s}");
        assert!(s.contains("Upgrade path from foo.v1.0.0 (OLM v0 rules)"));
    }

    #[test]
    fn the_view_box_is_the_size_at_one_to_one() {
        let s = svg(&small(), &SvgOptions::new(PictureOptions::new("foo")));
        let attr = |name: &str| {
            let start = s.find(&format!(" {name}=\"")).expect(name) + name.len() + 3;
            s[start..].split('"').next().expect("a value").to_string()
        };
        assert_eq!(attr("viewBox"), format!("0 0 {} {}", attr("width"), attr("height")));
        assert!(s.contains("max-width:100%;height:auto"));
    }

    #[test]
    fn themes_set_the_fallback_colours() {
        let mut o = SvgOptions::new(PictureOptions::new("foo"));
        o.theme = Theme::Dark;
        let dark = svg(&small(), &o);
        assert!(dark.contains("--_bg:var(--olm-bg,#0d1117)") && !dark.contains("prefers-color-scheme"));
        o.theme = Theme::Auto;
        let auto = svg(&small(), &o);
        assert!(auto.contains("--_bg:var(--olm-bg,#ffffff)") && auto.contains("@media (prefers-color-scheme: dark)"));
    }

    #[test]
    fn interactive_nodes_are_buttons_and_ids_take_the_prefix() {
        let mut o = SvgOptions::new(PictureOptions::new("foo"));
        o.interactive = true;
        o.id_prefix = "g2".into();
        let s = svg(&small(), &o);
        assert_eq!(s.matches("role=\"button\"").count(), 3);
        assert!(s.contains("id=\"g2\"") && s.contains("url(#g2-arrow)") && !s.contains("olm-graph-"));
    }
}
