//! Diff benchmark on the real community catalogs in `../shared/catalogs/fbc`: community-v4.16 →
//! community-v4.20, every update path of every (package, channel, entry) of the old catalog in
//! both catalogs, OLM v0 and v1.
//!
//! Prints, in the same run, the time to load both catalogs (parse, blobs, model: the baseline),
//! the diff alone, and the ratio of the diff to the load.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;

use std::time::Duration;

use olm_catalog::declcfg::{load_files, FileInput};
use olm_catalog::diff::diff;
use olm_catalog::{build_model, Model};

fn model(files: &[FileInput]) -> Model {
    build_model(&load_files(files).config).0
}

fn main() {
    let runs = common::runs();
    let (old_files, new_files) = (
        common::read(&common::fbc_dir().join("community-v4.16")),
        common::read(&common::fbc_dir().join("community-v4.20")),
    );
    let load = common::time(runs, || {
        std::hint::black_box((model(&old_files), model(&new_files)));
    });
    let (old, new) = (model(&old_files), model(&new_files));
    let d = diff(&old, &new);
    let rows: usize = d.safety.iter().map(|s| s.rows.len()).sum();
    let run = common::time(runs, || {
        std::hint::black_box(diff(&old, &new));
    });
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "community-v4.16 -> community-v4.20: {} packages changed, {rows} update rows (x2 catalogs x OLM v0, v1), {} findings",
        d.packages.len(),
        d.findings.len()
    );
    println!("  load both    {:8.1} ms  (baseline)", ms(load));
    println!("  diff         {:8.1} ms  {:.2}x baseline", ms(run), run.as_secs_f64() / load.as_secs_f64());
}
