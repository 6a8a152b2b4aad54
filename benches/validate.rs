//! Load + validate benchmark on the real community catalogs in `../shared/catalogs/fbc`.
//!
//! Prints, per catalog, the time and MB/s of (a) a bare parse of the same files into our value
//! tree (the baseline measured in the same run), (b) load (parse + blob decoding), and (c) the
//! whole validation, with the ratio of (c) to (a). Targets (issue 2): community-v4.20 validated
//! in ≤ 0.10 s natively, validation ≤ 1.3 × the bare parse.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;

use std::time::Duration;

use olm_catalog::declcfg::load_files;
use olm_catalog::internals::parse_only;
use olm_catalog::read_catalog;
use olm_catalog::validate::validate_files;

fn main() {
    let runs = common::runs();
    for name in ["community-v4.20", "community-v4.16"] {
        let dir = common::fbc_dir().join(name);
        let files = match read_catalog(&dir) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("{}: {e}", dir.display());
                std::process::exit(1);
            }
        };
        let bytes: usize = files.iter().map(|f| f.content.len()).sum();
        let mb = bytes as f64 / 1e6;
        let parse = common::time(runs, || {
            std::hint::black_box(parse_only(&files));
        });
        let load = common::time(runs, || {
            std::hint::black_box(load_files(&files));
        });
        let validate = common::time(runs, || {
            std::hint::black_box(validate_files(&files));
        });
        let report = validate_files(&files).report;
        let secs = |d: Duration| d.as_secs_f64();
        println!("{name}: {:.1} MB in {} files, valid={}", mb, files.len(), report.valid);
        println!("  bare parse   {:8.1} ms  {:7.1} MB/s  (baseline)", secs(parse) * 1e3, mb / secs(parse));
        println!(
            "  load         {:8.1} ms  {:7.1} MB/s  {:.2}x baseline",
            secs(load) * 1e3,
            mb / secs(load),
            secs(load) / secs(parse)
        );
        println!(
            "  validate     {:8.1} ms  {:7.1} MB/s  {:.2}x baseline",
            secs(validate) * 1e3,
            mb / secs(validate),
            secs(validate) / secs(parse)
        );
    }
}
