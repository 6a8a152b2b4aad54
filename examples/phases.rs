//! Times each validation phase on one catalog directory: `cargo run --release --example phases DIR`.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::Instant;
fn main() {
    let dir = std::env::args().nth(1).expect("usage: phases DIR");
    let t = Instant::now();
    let files = olm_catalog::read_catalog(std::path::Path::new(&dir)).expect("read");
    println!("read     {:?}", t.elapsed());
    let t = Instant::now();
    let loaded = olm_catalog::declcfg::load_files(&files);
    println!("load     {:?}", t.elapsed());
    let t = Instant::now();
    let (model, d) = olm_catalog::model::build(&loaded.config);
    println!("build    {:?} ({} diags)", t.elapsed(), d.len());
    let t = Instant::now();
    let v = olm_catalog::validate::validate_loaded(loaded);
    println!("validate_loaded {:?} valid={}", t.elapsed(), v.report.valid);
    let t = Instant::now();
    drop(v);
    drop(model);
    println!("drop     {:?}", t.elapsed());
}
