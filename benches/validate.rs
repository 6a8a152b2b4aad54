//! Load + validate benchmark on the real community catalogs in `../shared/catalogs/fbc` and on a
//! 57 MB `olm.bundle.object` catalog made from them (`common::bundle_object_catalog`).
//!
//! Prints, per catalog, the time and MB/s of (a) a bare parse of the same files into our value
//! tree, each document's tree dropped as soon as it is built (for information), (b) the
//! baseline: a parse that keeps its trees and decodes every `olm.bundle.object` payload into a
//! tree too (`internals::parse_and_decode`, the work any validator must do), (c) load (parse +
//! blob decoding), (d) the whole validation of the files in memory, with the ratio of (d) to (b),
//! and (e) validation from disk as the CLI runs it (`load_dir` + `validate_loaded`: reading
//! included). Every figure is measured in the same run, on both cores; (b) and (d) in alternation
//! (`common::paired`) and also in CPU time (every thread's), on which their ratio is judged, since
//! the machine is shared.
//!
//! Target (issue 33), recorded for `make bench`'s table: (d) ≤ 1.2× the baseline (b) on
//! community-v4.20, community-v4.16 and the 57 MB catalog; the ratio to the bare parse (a) and the
//! time from disk (e) are recorded for information. The comparison with upstream's `opm validate`
//! is of whole processes, both measured in the same run: `benches/whole_process.rs`.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;

use std::path::PathBuf;
use std::time::Duration;

use olm_catalog::declcfg::load_files;
use olm_catalog::internals::{parse_and_decode, parse_only};
use olm_catalog::validate::{validate_files, validate_loaded};

fn main() {
    let runs = common::runs();
    let catalogs: [(&str, PathBuf); 3] = [
        ("community-v4.20", common::fbc_dir().join("community-v4.20")),
        ("community-v4.16", common::fbc_dir().join("community-v4.16")),
        ("bundle-object 57 MB", common::bundle_object_catalog()),
    ];
    for (name, dir) in catalogs {
        let files = common::read(&dir);
        let bytes: usize = files.iter().map(|f| f.content.len()).sum();
        let mb = bytes as f64 / 1e6;
        let parse = common::time(runs, || {
            std::hint::black_box(parse_only(&files));
        });
        // The two sides of the target, in alternation.
        let [(baseline, baseline_cpu), (validate, validate_cpu)] = common::paired(
            runs,
            || drop(std::hint::black_box(parse_and_decode(&files))),
            || drop(std::hint::black_box(validate_files(&files))),
        );
        let load = common::time(runs, || {
            std::hint::black_box(load_files(&files));
        });
        let from_disk = common::time(runs, || {
            std::hint::black_box(validate_loaded(olm_catalog::load_dir(&dir).expect("readable catalog")));
        });
        let report = validate_files(&files).report;
        let secs = |d: Duration| d.as_secs_f64();
        let line = |what: &str, d: Duration| {
            println!(
                "  {what:12} {:8.1} ms  {:7.1} MB/s  {:.2}x baseline",
                secs(d) * 1e3,
                mb / secs(d),
                secs(d) / secs(baseline)
            )
        };
        println!("{name}: {:.1} MB in {} files, valid={}", mb, files.len(), report.valid);
        line("bare parse", parse);
        println!("  parse+decode {:8.1} ms  {:7.1} MB/s  (baseline)", secs(baseline) * 1e3, mb / secs(baseline));
        line("load", load);
        line("validate", validate);
        line("from disk", from_disk);
        // The target is judged on CPU time (both sides use every core): the machine is shared.
        let (ratio, clock) = if baseline_cpu.is_zero() {
            (secs(validate) / secs(baseline), "wall")
        } else {
            (secs(validate_cpu) / secs(baseline_cpu), "CPU")
        };
        println!(
            "  CPU time: parse+decode {:.1} ms, validate {:.1} ms",
            secs(baseline_cpu) * 1e3,
            secs(validate_cpu) * 1e3
        );
        common::target(
            &format!("validate {name} ≤ 1.2× parse+decode ({clock} time)"),
            &format!("{ratio:.2}×"),
            ratio <= 1.2,
        );
        let bare = secs(validate) / secs(parse);
        common::info(
            &format!("validate {name} / bare parse (trees dropped, payloads not decoded)"),
            &format!("{bare:.2}×"),
        );
        common::info(&format!("validate {name} from disk, in process"), &format!("{:.3} s", secs(from_disk)));
    }
}
