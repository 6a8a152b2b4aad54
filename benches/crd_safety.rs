//! CRD upgrade safety on every upgrade edge of the 57 MB `olm.bundle.object` catalog
//! (`common::bundle_object_catalog`) and of community-v4.16, against validating the same files.
//!
//! Prints, per catalog, (a) the validation of the files in memory (`validate_files`: load,
//! model, checks), (b) `crd_safety::check_catalog` on the model (reading each distinct CRD
//! manifest of the bundles and comparing each distinct CRD pair of every replaces, skips and
//! skipRange edge), each in wall and CPU time, and their ratio (CPU time: the machine is shared).
//!
//! Target (issue 36), recorded for `make bench`'s table: (b) ≤ 0.5× (a) on the 57 MB catalog.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;

use std::path::PathBuf;
use std::time::Duration;

use olm_catalog::crd_safety::{check_catalog, CatalogOptions};
use olm_catalog::validate::validate_files;

fn main() {
    let runs = common::runs();
    let catalogs: [(&str, PathBuf, bool); 2] = [
        ("community-v4.16", common::fbc_dir().join("community-v4.16"), false),
        ("bundle-object 57 MB", common::bundle_object_catalog(), true),
    ];
    for (name, dir, judged) in catalogs {
        let files = common::read(&dir);
        let validated = validate_files(&files);
        let model = validated.model.clone();
        let (validate, validate_cpu) = common::wall_and_cpu(runs, || {
            std::hint::black_box(validate_files(&files));
        });
        let options = CatalogOptions::default();
        let (edges, edges_cpu) = common::wall_and_cpu(runs, || {
            std::hint::black_box(check_catalog(&model, &options));
        });
        let check = check_catalog(&model, &options);
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "{name}: {} edges with CRDs, {} unsafe, {} distinct CRD pairs compared",
            check.edges.len(),
            check.edges.iter().filter(|e| !e.safe()).count(),
            check.compared_pairs
        );
        println!("  validate     {:8.1} ms wall {:8.1} ms CPU", ms(validate), ms(validate_cpu));
        println!("  crd-safety   {:8.1} ms wall {:8.1} ms CPU", ms(edges), ms(edges_cpu));
        let (ratio, clock) = if validate_cpu.is_zero() {
            (edges.as_secs_f64() / validate.as_secs_f64(), "wall")
        } else {
            (edges_cpu.as_secs_f64() / validate_cpu.as_secs_f64(), "CPU")
        };
        let value = format!("{ratio:.2}x ({clock} time)");
        if judged {
            common::target(&format!("crd-safety of every edge ≤ 0.5× validate ({name})"), &value, ratio <= 0.5);
        } else {
            common::info(&format!("crd-safety of every edge / validate ({name})"), &value);
        }
    }
}
