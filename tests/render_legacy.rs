//! The 26 operators of `../shared/catalogs/bundles` (community-operators bundle trees) render to
//! FBC packages; the result validates, or each problem reported is a real one in the input.

use std::path::{Path, PathBuf};

use olm_catalog::declcfg::Loaded;
use olm_catalog::read_catalog;
use olm_catalog::render::legacy::render_tree;
use olm_catalog::validate::validate_loaded;

fn bundles_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/bundles")
}

#[test]
fn probe() {
    let files = read_catalog(&bundles_dir()).expect("readable");
    let rendered = render_tree(&files);
    for d in &rendered.diagnostics {
        println!("RENDER {d}");
    }
    let loaded = Loaded { config: rendered.config, diagnostics: Vec::new(), files: Vec::new() };
    let v = validate_loaded(loaded);
    for d in &v.report.diagnostics {
        println!("VALID {d}");
    }
}
