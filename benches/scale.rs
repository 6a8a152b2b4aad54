//! The scale curve (issue 15): synthetic catalogs (`olm_catalog::synth`, packages of 20 bundles
//! with replaces, skips, skipRanges, several channels, dependencies and deprecations) from 1,000
//! to 200,000 bundles, and three phases timed on each:
//!
//! - load + validate: `validate_files` on the generated files (load, model, opm's checks, lints);
//! - graphs + paths: every channel's graph and every entry's OLM v0 and v1 path to its head;
//! - resolve: 50 subscriptions (packages spread evenly over the catalog, default channels).
//!
//! Target: the time per bundle of each phase stays within 1.5× from the smallest to the largest
//! size (no super-linear step). The table prints each size's times, the time per bundle, and
//! per phase the ratio of the largest size's time per bundle to the smallest's, "met" when it is
//! at most 1.5. `BENCH_RUNS` sets the runs (median; the largest sizes use at most 3) and
//! `SCALE_MAX` caps the size for quick runs (`SCALE_MAX=20000`).

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;

use std::sync::Arc;
use std::time::Duration;

use olm_catalog::cluster::{CatalogSource, Cluster, Subscription};
use olm_catalog::graph::{channel_paths, ChannelGraph, Semantics};
use olm_catalog::model::Model;
use olm_catalog::resolve::{resolve, Outcome};
use olm_catalog::synth::Synth;
use olm_catalog::validate_files;

const SIZES: [usize; 5] = [1_000, 5_000, 20_000, 50_000, 200_000];
const SUBSCRIPTIONS: usize = 50;
const TARGET: f64 = 1.5;

struct Row {
    bundles: usize,
    packages: usize,
    megabytes: f64,
    /// load + validate, graphs + paths, resolve.
    phases: [Duration; 3],
}

fn main() {
    let runs = common::runs();
    let max: usize = std::env::var("SCALE_MAX").ok().and_then(|s| s.parse().ok()).unwrap_or(usize::MAX);
    let mut rows = Vec::new();
    for size in SIZES.into_iter().filter(|&s| s <= max) {
        rows.push(measure(size, if size >= 50_000 { runs.min(3) } else { runs }));
    }
    if rows.is_empty() {
        eprintln!("scale: SCALE_MAX={max} leaves no size (smallest is {})", SIZES[0]);
        std::process::exit(2);
    }
    print_table(&rows, runs);
}

fn measure(size: usize, runs: usize) -> Row {
    let synth = Synth::with_bundles(size);
    let files = synth.files();
    let megabytes = files.iter().map(|f| f.content.len()).sum::<usize>() as f64 / 1e6;
    let validated = validate_files(&files);
    if !validated.report.valid {
        eprintln!(
            "scale: the generated catalog of {size} bundles is not valid: {}",
            validated.report.opm_message.unwrap_or_default()
        );
        std::process::exit(1);
    }
    let model = validated.model.clone();
    drop(validated);
    let bundles = model.packages.iter().map(|p| p.bundles.len()).sum();
    let validate = common::time(runs, || {
        std::hint::black_box(validate_files(&files).report.valid);
    });
    let graphs = common::time(runs, || {
        std::hint::black_box(graphs_and_paths(&model));
    });
    let cluster = cluster(model.clone());
    let outcome = Outcome::from(resolve(&cluster));
    if let Some(kind) = outcome.error_type {
        eprintln!("scale: resolving {SUBSCRIPTIONS} subscriptions failed ({kind}): {}", outcome.errors.join("; "));
        std::process::exit(1);
    }
    let resolving = common::time(runs, || {
        std::hint::black_box(resolve(&cluster).map(|r| r.install.len()).unwrap_or(0));
    });
    eprintln!(
        "scale: {bundles} bundles: validate {:.1} ms, graphs+paths {:.1} ms, resolve {:.1} ms ({} installs)",
        ms(validate),
        ms(graphs),
        ms(resolving),
        outcome.install.len()
    );
    Row { bundles, packages: synth.packages, megabytes, phases: [validate, graphs, resolving] }
}

/// Every channel's graph, and every entry's OLM v0 and v1 path to its head; the number of paths.
fn graphs_and_paths(model: &Model) -> usize {
    let mut n = 0;
    for p in &model.packages {
        for c in &p.channels {
            n += ChannelGraph::new(p, c).nodes.len();
            for s in [Semantics::V0, Semantics::V1] {
                n += channel_paths(p, c, s).map(|v| v.len()).unwrap_or(0);
            }
        }
    }
    n
}

/// One catalog source and subscriptions to packages spread evenly over it.
fn cluster(model: Arc<Model>) -> Cluster {
    let n = model.packages.len();
    let subscriptions = (0..SUBSCRIPTIONS.min(n))
        .map(|k| {
            let p = &model.packages[k * n / SUBSCRIPTIONS.min(n)];
            Subscription {
                name: format!("sub-{}", p.name),
                package: p.name.clone(),
                channel: p.default_channel.value.clone(),
                catalog: "synth".into(),
                catalog_namespace: "olm".into(),
                ..Default::default()
            }
        })
        .collect();
    let source = CatalogSource { name: "synth".into(), namespace: "olm".into(), priority: 0, model };
    Cluster { namespace: "olm".into(), catalogs: vec![source], subscriptions, ..Default::default() }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn micros_per_bundle(d: Duration, bundles: usize) -> f64 {
    d.as_secs_f64() * 1e6 / bundles as f64
}

fn print_table(rows: &[Row], runs: usize) {
    const NAMES: [&str; 3] = ["load + validate", "graphs + paths", "resolve 50 subs"];
    println!("scale curve: synthetic catalogs, packages of 20 bundles (median of {runs} runs, at most 3 from 50k)");
    println!("| bundles | packages | MB | {} |", NAMES.map(|n| format!("{n} (ms) | µs/bundle")).join(" | "));
    println!("| ---: | ---: | ---: |{}", " ---: | ---: |".repeat(3));
    for r in rows {
        let cells: Vec<String> =
            r.phases.iter().map(|&d| format!("{:.1} | {:.2}", ms(d), micros_per_bundle(d, r.bundles))).collect();
        println!("| {} | {} | {:.1} | {} |", thousands(r.bundles), r.packages, r.megabytes, cells.join(" | "));
    }
    let (first, last) = (&rows[0], &rows[rows.len() - 1]);
    println!(
        "per-bundle time, {} vs {} bundles (target ≤ {TARGET}×):",
        thousands(last.bundles),
        thousands(first.bundles)
    );
    for (i, name) in NAMES.iter().enumerate() {
        let ratio = micros_per_bundle(last.phases[i], last.bundles) / micros_per_bundle(first.phases[i], first.bundles);
        let verdict = if ratio <= TARGET { "met" } else { "NOT met" };
        println!("  {name:<16} {ratio:5.2}×  {verdict}");
    }
}

fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
