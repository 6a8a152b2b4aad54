//! `olm-catalog graph --format svg`: one channel's picture, the path from `--from` highlighted.

use olm_catalog::graph::{render_graph_svg, PictureOptions, SvgOptions, Theme};

use super::graph::{Args, ThemeArg};
use crate::catalog::{load_built, package, start};
use crate::output::{Fail, SUCCESS};

pub fn run(a: Args, out: &mut String) -> Result<u8, Fail> {
    let m = load_built(&a.path)?;
    package(&m, &a.package, &a.path)?; // the CLI's own wording for a missing package
    let mut picture = PictureOptions::new(&a.package);
    picture.channel = a.channel;
    picture.drawing.semantics = a.semantics.into();
    picture.from = a.from.map(|f| start(&f));
    picture.drawing.expand = a.expand;
    picture.drawing.collapse = !a.no_collapse;
    picture.drawing.expand_fans = a.expand_ranges;
    let mut options = SvgOptions::new(picture);
    options.theme = match a.theme {
        ThemeArg::Light => Theme::Light,
        ThemeArg::Dark => Theme::Dark,
        ThemeArg::Auto => Theme::Auto,
    };
    out.push_str(&render_graph_svg(&m, &options).map_err(|e| Fail(e.to_string()))?);
    Ok(SUCCESS)
}
