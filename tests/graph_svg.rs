//! The SVG picture of upgrade graphs (issue 16), read back as XML: `olm-catalog graph --format
//! svg` draws the same nodes and edges as `graph --format json` for real packages, highlights
//! the path `path` computes, shows hostile catalog text as text, and stays bounded on the
//! hostile catalogs of issue 15.

#[path = "hostile/catalogs.rs"]
mod catalogs;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use olm_catalog::declcfg::{load_files, FileInput};
use olm_catalog::graph::{
    graph_picture, render_graph_svg, upgrade_path, NodeKind, PictureError, PictureOptions, Semantics, Start,
    SvgOptions, MAX_PICTURE_NODES,
};
use olm_catalog::{model, read_catalog, Model};

fn fbc() -> PathBuf {
    std::env::var_os("CATALOGS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc"))
}

/// Real packages (one `catalog.yaml` each): replaces chains, skips, skipRange-only graphs.
const PACKAGES: &[(&str, &str)] = &[
    ("community-v4.20", "kube-green"),
    ("community-v4.20", "infinispan"),
    ("community-v4.20", "project-quay"),
    ("community-v4.20", "sailoperator"),
    ("community-v4.20", "rabbitmq-cluster-operator"),
    ("openshift-optional-v4.17", "local-storage-operator"),
    ("openshift-optional-v4.17", "metallb-operator"),
];

fn cli(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_olm-catalog")).args(args).output().expect("the CLI runs");
    assert!(out.status.success(), "olm-catalog {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn model_of(file: &Path) -> Model {
    model::build(&load_files(&read_catalog(file).expect("readable")).config).0
}

/// What an SVG document draws: its channel, nodes (by `data-node`) with their classes, and
/// edges `(from, kind, to, on path)`.
struct Drawn {
    channel: String,
    nodes: Vec<(String, String)>,
    edges: Vec<(String, String, String, bool)>,
}

fn read_svg(svg: &str) -> Drawn {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    let mut d =
        Drawn { channel: root.attribute("data-channel").expect("data-channel").into(), nodes: vec![], edges: vec![] };
    for n in doc.descendants().filter(|n| n.is_element()) {
        if let Some(id) = n.attribute("data-node") {
            d.nodes.push((id.to_string(), n.attribute("class").unwrap_or_default().to_string()));
        }
        if let (Some(from), Some(to), Some(kind)) =
            (n.attribute("data-from"), n.attribute("data-to"), n.attribute("data-kind"))
        {
            let on = n.attribute("class").unwrap_or_default().split(' ').any(|c| c == "on-path");
            d.edges.push((from.into(), kind.into(), to.into(), on));
        }
    }
    d
}

fn strs(v: &serde_json::Value) -> &str {
    v.as_str().unwrap_or_default()
}

#[test]
fn the_svg_draws_the_nodes_and_edges_of_the_json_graph() {
    for &(catalog, package) in PACKAGES {
        let file = fbc().join(catalog).join(package).join("catalog.yaml");
        let f = file.to_str().expect("a UTF-8 path");
        let drawn = read_svg(&cli(&["graph", f, "--package", package, "--format", "svg", "--no-collapse"]));
        let json: serde_json::Value = serde_json::from_str(&cli(&[
            "graph",
            f,
            "--package",
            package,
            "--channel",
            &drawn.channel,
            "--format",
            "json",
        ]))
        .expect("JSON");
        let names: BTreeSet<&str> = json["nodes"].as_array().expect("nodes").iter().map(|n| strs(&n["name"])).collect();
        let ids: BTreeSet<&str> = drawn.nodes.iter().map(|n| n.0.as_str()).collect();
        assert_eq!(ids, names, "{package}: nodes");
        assert_eq!(drawn.nodes.len(), names.len(), "{package}: each node once");
        let mut edges: Vec<(String, String, String)> = json["edges"]
            .as_array()
            .expect("edges")
            .iter()
            .map(|e| (strs(&e["from"]).into(), strs(&e["kind"]).into(), strs(&e["to"]).into()))
            .collect();
        edges.sort();
        let mut svg_edges: Vec<(String, String, String)> =
            drawn.edges.iter().filter(|e| e.1 != "fan").map(|e| (e.0.clone(), e.1.clone(), e.2.clone())).collect();
        svg_edges.sort();
        assert_eq!(svg_edges, edges, "{package}: edges");
        let mut fans: Vec<&str> = json["fans"].as_array().expect("fans").iter().map(|f| strs(&f["to"])).collect();
        fans.sort();
        let mut svg_fans: Vec<&str> = drawn.edges.iter().filter(|e| e.1 == "fan").map(|e| e.2.as_str()).collect();
        svg_fans.sort();
        assert_eq!(svg_fans, fans, "{package}: one fan per skipRange");
    }
}

#[test]
fn the_highlighted_path_is_the_path_olm_takes() {
    for &(catalog, package) in PACKAGES {
        let file = fbc().join(catalog).join(package).join("catalog.yaml");
        let m = model_of(&file);
        let p = m.package(package).expect("package");
        let c = p.default_channel().expect("a default channel");
        let oldest = c.entries.iter().min_by_key(|e| e.bundle.and_then(|b| p.bundles[b].version.clone()));
        let from = oldest.expect("entries").name.value.clone();
        for semantics in [Semantics::V0, Semantics::V1] {
            let path = upgrade_path(p, c, &Start::Bundle(from.clone()), semantics).expect("a path");
            let mut o = SvgOptions::new(PictureOptions::new(package));
            o.picture.from = Some(Start::Bundle(from.clone()));
            o.picture.drawing.semantics = semantics;
            let drawn = read_svg(&render_graph_svg(&m, &o).expect("an svg"));
            let mut want: Vec<(String, String, String, bool)> = path
                .steps
                .iter()
                .map(|s| (s.from.to_string(), s.edge.as_str().into(), s.to.to_string(), true))
                .collect();
            want.sort();
            let mut got: Vec<_> = drawn.edges.iter().filter(|e| e.3).cloned().collect();
            got.sort();
            assert_eq!(got, want, "{package} from {from} ({semantics:?})");
            let on: BTreeSet<&str> =
                drawn.nodes.iter().filter(|n| n.1.split(' ').any(|c| c == "on-path")).map(|n| n.0.as_str()).collect();
            let mut want_nodes: BTreeSet<&str> = path.steps.iter().map(|s| &*s.to).collect();
            want_nodes.insert(from.as_str());
            assert_eq!(on, want_nodes, "{package}: path nodes are never collapsed");
        }
    }
}

#[test]
fn hostile_names_render_as_text() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile-names/catalog.json");
    let m = model_of(&path);
    let mut o = SvgOptions::new(PictureOptions::new("hostile"));
    o.picture.from = Some(Start::Bundle("hostile.v1.0.0<script>alert(1)</script>".into()));
    let svg = render_graph_svg(&m, &o).expect("an svg");
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    let elements: BTreeSet<&str> = doc.descendants().filter(|n| n.is_element()).map(|n| n.tag_name().name()).collect();
    let allowed: BTreeSet<&str> =
        ["svg", "title", "desc", "style", "defs", "marker", "path", "rect", "g", "text"].into_iter().collect();
    assert!(elements.is_subset(&allowed), "unexpected elements: {elements:?}");
    let p = m.package("hostile").expect("package");
    let names: BTreeSet<&str> = p.bundles.iter().map(|b| b.name.value.as_str()).collect();
    let drawn: BTreeSet<&str> = doc.descendants().filter_map(|n| n.attribute("data-node")).collect();
    assert_eq!(drawn, names, "names arrive intact, as text");
    let texts: String = doc.descendants().filter_map(|n| n.text()).collect();
    assert!(texts.contains("עברית-مرحبا") && texts.contains("🚀🔥"));
    assert!(texts.contains("<b>gone</b> & \"quoted\""), "the deprecation message, as text");
    assert!(!svg.contains("<script") && !svg.contains("<img") && !svg.contains("<b>"));
    let channel = doc.root_element().attribute("data-channel").expect("channel");
    assert_eq!(channel, "stable <b>&</b> \"'");
}

#[test]
fn hostile_catalogs_give_bounded_pictures() {
    for h in [
        catalogs::long_chain(50_000),
        catalogs::skip_range_chain(20_000),
        catalogs::many_channels(5_000, 50),
        catalogs::cycle_and_fan(10_000, 3_000),
        catalogs::many_heads(5_000),
    ] {
        let m = model::build(&load_files(std::slice::from_ref::<FileInput>(&h.file)).config).0;
        let mut o = PictureOptions::new(h.package.clone());
        o.channel = Some(h.channel.clone());
        o.from = Some(Start::Bundle(h.oldest.clone()));
        let picture = graph_picture(&m, &o).unwrap_or_else(|e| panic!("{}: {e}", h.name));
        assert!(picture.nodes.len() <= MAX_PICTURE_NODES, "{}", h.name);
        let svg = olm_catalog::graph::picture_svg(&picture, &SvgOptions::new(o.clone()));
        // Linear in the input, whatever the graph's shape.
        assert!(svg.len() < 4 * h.file.content.len() + 100_000, "{}: {} bytes of SVG", h.name, svg.len());
        roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{}: {e}", h.name));
        if h.name.contains("chain") {
            assert!(picture.nodes.iter().any(|n| n.kind == NodeKind::Group), "{}: runs collapsed", h.name);
            assert!(picture.nodes.len() < 100, "{}: {} nodes", h.name, picture.nodes.len());
        }
    }
}

#[test]
fn a_picture_over_the_node_budget_is_refused_with_its_size() {
    // Package `fan`: a head skipping 10,001 bundles that nothing else connects (no runs).
    let h = catalogs::cycle_and_fan(3, MAX_PICTURE_NODES + 1);
    let m = model::build(&load_files(std::slice::from_ref::<FileInput>(&h.file)).config).0;
    let e = graph_picture(&m, &PictureOptions::new("fan")).expect_err("too large");
    assert!(matches!(e, PictureError::TooLarge { nodes: 10_002, .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "the picture would have 10,002 nodes and 10,001 edges even with z-stream runs collapsed, more than the budget of 10,000 nodes and 50,000 edges"
    );
}
