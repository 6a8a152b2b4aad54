//! The picture benchmark (issue 16): the layered layout of synthetic 5,000-node graphs (a chain,
//! a random DAG with long edges, a wide fan), and the SVG of every channel of community-v4.20.
//! Target: a 5,000-node graph lays out in well under a second (≤ 100 ms natively). Baseline
//! measured in the same run: the channel graphs the pictures are drawn from.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;

use std::time::Duration;

use common::time_counted;

use olm_catalog::declcfg::load_files;
use olm_catalog::graph::layout::{layout, LayoutEdge, LayoutNode, LayoutOptions};
use olm_catalog::graph::{render_graph_svg, ChannelGraph, PictureOptions, SvgOptions};
use olm_catalog::model;

/// `n` nodes; each node `v` gets `per` edges from earlier nodes up to `reach` back.
fn dag(n: usize, per: usize, reach: u64) -> Vec<LayoutEdge> {
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut out = Vec::new();
    for v in 1..n {
        for _ in 0..per {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            out.push(LayoutEdge { from: v.saturating_sub(1 + (s % reach) as usize), to: v });
        }
    }
    out
}

fn main() {
    let runs: usize = std::env::var("BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(7);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let n = 5_000;
    let nodes = vec![LayoutNode { width: 120.0, height: 44.0 }; n];
    let fan: Vec<LayoutEdge> = (0..n - 1).map(|i| LayoutEdge { from: i, to: n - 1 }).collect();
    let cases = [
        ("chain", dag(n, 1, 1)),
        ("random DAG, 2 edges per node, reach 6", dag(n, 2, 6)),
        ("random DAG, 3 edges per node, reach 200", dag(n, 3, 200)),
        ("fan into one node", fan),
    ];
    let o = LayoutOptions::default();
    println!("layout of {n}-node graphs (target ≤ 100 ms each):");
    let mut slowest = Duration::ZERO;
    for (name, edges) in &cases {
        let (t, crossings) = time_counted(runs, || layout(&nodes, edges, &o).crossings);
        println!("  {name:42} {:8.2} ms  ({} edges, {crossings} crossings left)", ms(t), edges.len());
        slowest = slowest.max(t);
    }
    common::target(
        "layout of a 5,000-node graph ≤ 100 ms (slowest case)",
        &format!("{:.1} ms", ms(slowest)),
        ms(slowest) <= 100.0,
    );

    let files = common::read(&common::fbc_dir().join("community-v4.20"));
    let (m, _) = model::build(&load_files(&files).config);
    let (graphs, channels) = time_counted(runs, || {
        m.packages.iter().flat_map(|p| p.channels.iter().map(move |c| ChannelGraph::new(p, c).nodes.len())).count()
    });
    let (svgs, bytes) = time_counted(runs, || {
        let mut bytes = 0;
        for p in &m.packages {
            for c in &p.channels {
                let mut o = PictureOptions::new(p.name.clone());
                o.channel = Some(c.name.clone());
                bytes += render_graph_svg(&m, &SvgOptions::new(o)).map_or(0, |s| s.len());
            }
        }
        bytes
    });
    println!("community-v4.20: {channels} channels");
    println!("  all channel graphs (baseline) {:8.2} ms", ms(graphs));
    println!(
        "  all channel SVGs              {:8.2} ms  {:.2}x baseline, {} KB of SVG",
        ms(svgs),
        ms(svgs) / ms(graphs),
        bytes / 1024
    );
}
