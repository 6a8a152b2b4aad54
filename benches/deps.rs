//! Cross-package view benchmark: the `DepsIndex` of a catalog and every package's view from it,
//! on `community-v4.20` and on a synthetic catalog of 20,000 bundles with dependencies between
//! packages (`synth`: `olm.package.required`, `olm.gvk.required`, `olm.constraint`). The baseline,
//! measured in the same run, is building the model from the already-loaded catalog: the index and
//! every view together should cost a fraction of it.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;

use std::time::Duration;

use common::time_counted;

use olm_catalog::declcfg::{load_files, FileInput};
use olm_catalog::deps::{DepsIndex, DepsOptions};
use olm_catalog::model;
use olm_catalog::synth::Synth;

fn bench(name: &str, files: &[FileInput], runs: usize) {
    let loaded = load_files(files);
    let (m, _) = model::build(&loaded.config);
    let (build, _) = time_counted(runs, || model::build(&loaded.config).0.packages.len());
    let (index, _) = time_counted(runs, || {
        usize::from(std::hint::black_box(DepsIndex::new(&m)).package_deps("", &DepsOptions::default()).is_err())
    });
    let ix = DepsIndex::new(&m);
    let (views, requirements) = time_counted(runs, || {
        m.packages
            .iter()
            .map(|p| ix.package_deps(&p.name, &DepsOptions::default()).map_or(0, |d| d.requirements.len()))
            .sum()
    });
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let bundles: usize = m.packages.iter().map(|p| p.bundles.len()).sum();
    println!("{name}: {} packages, {bundles} bundles, {requirements} requirements in all views", m.packages.len());
    println!("  model build (baseline)   {:9.2} ms", ms(build));
    println!("  DepsIndex::new           {:9.2} ms  {:.3}x baseline", ms(index), ms(index) / ms(build));
    println!(
        "  every package's view     {:9.2} ms  {:.3}x baseline, {:.3} ms per package",
        ms(views),
        ms(views) / ms(build),
        ms(views) / m.packages.len().max(1) as f64
    );
}

fn main() {
    let runs: usize = std::env::var("BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
    let files = common::read(&common::fbc_dir().join("community-v4.20"));
    bench("community-v4.20", &files, runs);
    let synth = Synth { csv_metadata: false, ..Synth::with_bundles(20_000) };
    bench("synth 20,000 bundles", &synth.files(), runs);
}
