//! Graph benchmark on `community-v4.20`: every channel's graph (heads, OLM v0 order, stranded
//! flags) and every entry's OLM v0 and v1 path to its head. Target (issue 3): ≤ 20 ms natively.
//! Baseline measured in the same run: building the model from the already-loaded catalog.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;

use std::time::Duration;

use common::time_counted as time;

use olm_catalog::declcfg::load_files;
use olm_catalog::graph::{channel_paths, ChannelGraph, Semantics};
use olm_catalog::model;

fn main() {
    let runs = common::runs();
    let files = common::read(&common::fbc_dir().join("community-v4.20"));
    let loaded = load_files(&files);
    let (m, _) = model::build(&loaded.config);
    let (build, _) = time(runs, || model::build(&loaded.config).0.packages.len());
    let (graphs, channels) = time(runs, || {
        m.packages
            .iter()
            .flat_map(|p| p.channels.iter().map(move |c| ChannelGraph::new(p, c)))
            .map(|g| usize::from(!g.nodes.is_empty()))
            .sum::<usize>()
    });
    let (paths, n_paths) = time(runs, || {
        let mut n = 0;
        for p in &m.packages {
            for c in &p.channels {
                for s in [Semantics::V0, Semantics::V1] {
                    n += channel_paths(p, c, s).map(|v| v.len()).unwrap_or(0);
                }
            }
        }
        n
    });
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!("community-v4.20 graphs: {} packages, {channels} channels, {n_paths} paths (v0 and v1)", m.packages.len());
    println!("  model build (baseline)  {:8.2} ms", ms(build));
    println!("  all channel graphs      {:8.2} ms  {:.2}x baseline", ms(graphs), ms(graphs) / ms(build));
    println!("  all entries' paths      {:8.2} ms  {:.2}x baseline", ms(paths), ms(paths) / ms(build));
    println!("  graphs + paths          {:8.2} ms  (target ≤ 20 ms)", ms(graphs) + ms(paths));
}
