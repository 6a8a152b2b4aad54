//! Render benchmark on the real data in `../shared/catalogs` (`$CATALOGS_DIR` names its `fbc`).
//!
//! Prints (a) a bare parse of every file of `bundles/` (26 operators of legacy bundle
//! directories) into our value tree, the baseline measured in the same run, and (b) the whole
//! `render_tree` of the same files (default options), with MB/s and the ratio of (b) to (a). Then
//! the expansion of the kube-descheduler templates and of the community templates, each against a
//! bundle source filled beforehand from the catalog it was published into (filling it is not
//! timed). Files are read once, before any timing; each figure is the median of `BENCH_RUNS`
//! runs (default 7).

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use olm_catalog::declcfg::{load_files, read_documents, FileInput};
use olm_catalog::render::bundle::BundleOptions;
use olm_catalog::render::legacy::render_tree;
use olm_catalog::render::template::expand_template;
use olm_catalog::render::BundleSource;

fn mb(files: &[FileInput]) -> f64 {
    files.iter().map(|f| f.content.len()).sum::<usize>() as f64 / 1e6
}

/// A template file and the bundle source it expands against.
struct Case {
    template: FileInput,
    source: BundleSource,
}

fn source_of(catalog: &Path) -> BundleSource {
    let mut source = BundleSource::new();
    source.add_catalog(&load_files(&common::read(catalog)).config);
    source
}

/// The kube-descheduler templates, each against its release's catalog.
fn kube_descheduler_cases() -> Vec<Case> {
    let dir = common::fbc_dir().join("kube-descheduler");
    ["v4.12", "v4.16", "v4.20", "v4.22"]
        .into_iter()
        .map(|r| Case {
            template: common::read(&dir.join(r).join("catalog-template.yaml")).remove(0),
            source: source_of(&dir.join(r).join("catalog")),
        })
        .collect()
}

/// The community templates (every `templates/<operator>/*.yaml` but `ci.yaml`), against
/// community-v4.20, which holds the bundles of all of them.
fn community_cases() -> Vec<Case> {
    let dir = common::fbc_dir().join("../templates");
    let source = source_of(&common::fbc_dir().join("community-v4.20"));
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .flat_map(|d| std::fs::read_dir(d).into_iter().flatten().filter_map(Result::ok).map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "yaml") && !p.ends_with("ci.yaml"))
        .collect();
    paths.sort();
    paths.iter().map(|p| Case { template: common::read(p).remove(0), source: source.clone() }).collect()
}

fn row(name: &str, d: Duration, mb: f64, baseline: Option<Duration>) {
    let secs = d.as_secs_f64();
    let ratio = baseline.map_or("(baseline)".to_string(), |b| format!("{:.2}x baseline", secs / b.as_secs_f64()));
    println!("  {name:<22} {:8.2} ms  {:7.1} MB/s  {ratio}", secs * 1e3, mb / secs);
}

fn main() {
    let runs = common::runs();
    let files = common::read(&common::fbc_dir().join("../bundles"));
    let size = mb(&files);
    let options = BundleOptions::default();
    let parse = common::time(runs, || {
        for f in &files {
            std::hint::black_box(read_documents(&f.path, &f.content));
        }
    });
    let render = common::time(runs, || {
        std::hint::black_box(render_tree(&files, &options));
    });
    let rendered = render_tree(&files, &options);
    println!(
        "bundles: {size:.1} MB in {} files -> {} packages, {} bundles, {} diagnostics",
        files.len(),
        rendered.config.packages.len(),
        rendered.config.bundles.len(),
        rendered.diagnostics.len()
    );
    row("bare parse", parse, size, None);
    row("render_tree", render, size, Some(parse));

    for (name, cases) in [("kube-descheduler", kube_descheduler_cases()), ("community", community_cases())] {
        let templates: Vec<FileInput> = cases.iter().map(|c| c.template.clone()).collect();
        let size = mb(&templates);
        let parse = common::time(runs, || {
            for t in &templates {
                std::hint::black_box(read_documents(&t.path, &t.content));
            }
        });
        let expand = common::time(runs, || {
            for c in &cases {
                std::hint::black_box(expand_template(&c.template, &c.source));
            }
        });
        let blobs: usize = cases.iter().map(|c| expand_template(&c.template, &c.source).config.bundles.len()).sum();
        println!("{name} templates: {size:.2} MB in {} files -> {blobs} bundles", cases.len());
        row("bare parse", parse, size, None);
        row("expand_template", expand, size, Some(parse));
    }
}
