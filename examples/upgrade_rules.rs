//! The upgrade rules on a tiny catalog: `cargo run --example upgrade_rules`.
//!
//! One package, one channel of five bundles. The example prints the channel's upgrade graph (the
//! edges that `replaces`, `skips` and `skipRange` declare), then, from each version, the path
//! OLM v0 takes to the channel head, with a sentence saying why.

use olm_catalog::declcfg::{load_files, FileInput};
use olm_catalog::graph::{upgrade_path, ChannelGraph, EdgeKind, Semantics, Start, UpgradePath};
use olm_catalog::model;

/// The catalog, as an author writes it (File-Based Catalog YAML).
const CATALOG: &str = r#"
schema: olm.package
name: example
defaultChannel: stable
---
schema: olm.channel
package: example
name: stable
entries:
  - name: example.v1.0.0
  - name: example.v1.1.0
    replaces: example.v1.0.0
  - name: example.v1.1.1
    replaces: example.v1.1.0
  # 1.1.1 was pulled: 1.2.0 skips it, so OLM v0 never installs 1.1.1, and users on it move on.
  - name: example.v1.2.0
    replaces: example.v1.1.0
    skips: [example.v1.1.1]
  # 1.3.0 lets users of any 1.0.x jump straight to it.
  - name: example.v1.3.0
    replaces: example.v1.2.0
    skipRange: ">=1.0.0 <1.1.0"
"#;

/// The `olm.bundle` blob of one version (every entry needs a bundle).
fn bundle(version: &str) -> String {
    format!(
        "---\nschema: olm.bundle\npackage: example\nname: example.v{version}\nimage: example.com/example-bundle:v{version}\nproperties:\n  - type: olm.package\n    value: {{packageName: example, version: {version}}}\n"
    )
}

fn main() {
    let mut text = CATALOG.to_string();
    for v in ["1.0.0", "1.1.0", "1.1.1", "1.2.0", "1.3.0"] {
        text.push_str(&bundle(v));
    }
    let loaded = load_files(&[FileInput::new("catalog.yaml", text)]);
    let (model, problems) = model::build(&loaded.config);
    assert!(loaded.diagnostics.is_empty() && problems.is_empty(), "the catalog loads and builds");
    let package = model.package("example").expect("package example");
    let channel = package.channel("stable").expect("channel stable");

    let graph = ChannelGraph::new(package, channel);
    println!("The upgrade graph of channel {:?} (each edge goes from the older bundle to the newer):", graph.channel);
    for e in &graph.edges {
        let why = match e.kind {
            EdgeKind::Replaces => format!("{} replaces {}", e.to, e.from),
            EdgeKind::Skips => format!("{} skips {}", e.to, e.from),
            EdgeKind::SkipRange => format!(
                "the skipRange {:?} of {} covers the version of {}",
                channel.entry(&e.to).map_or("", |x| x.skip_range_text()),
                e.to,
                e.from
            ),
        };
        println!("  {} -> {}  ({})", e.from, e.to, why);
    }
    for n in &graph.nodes {
        if n.head {
            println!("  {} is the head: it has no incoming replaces or skips, so new subscriptions get it.", n.name);
        }
        if n.skipped {
            println!("  {} is skipped by another entry, so OLM v0 never upgrades to it.", n.name);
        }
    }

    println!();
    println!("OLM v0 moves one edge per resolution, each time to the entry closest to the head (along");
    println!("the replaces chain, skipped entries left out) that replaces, skips or covers the installed version:");
    for e in &channel.entries {
        let start = Start::Bundle(e.name.value.clone());
        let path = upgrade_path(package, channel, &start, Semantics::V0).expect("OLM v0 can order the channel");
        println!("  {}", sentence(&path));
    }
}

/// One sentence about a path.
fn sentence(p: &UpgradePath) -> String {
    let head = p.to.as_deref().unwrap_or("(no head)");
    if p.stranded {
        return format!("from {}, OLM v0 cannot reach {head}: {}.", p.from, p.reason.as_deref().unwrap_or(""));
    }
    if p.steps.is_empty() {
        return format!("{} is the head: there is nothing to upgrade to.", p.from);
    }
    let steps: Vec<String> = p.steps.iter().map(|s| format!("{} ({})", s.to, s.edge.as_str())).collect();
    let n = p.steps.len();
    format!(
        "from {}, OLM v0 takes {n} upgrade{}: {} -> {}.",
        p.from,
        if n == 1 { "" } else { "s" },
        p.from,
        steps.join(" -> ")
    )
}
