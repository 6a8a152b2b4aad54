//! `opm render` of a fuzzed bundle directory: up to five files split at `\n@@\n` (the CSV, a
//! CRD, `metadata/annotations.yaml`, `dependencies.yaml`, `properties.yaml`), rendered with or
//! without an image and the csv-metadata migration, then validated. Never a panic; every
//! finding located in its file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use olm_catalog::render::bundle::BundleOptions;
use olm_catalog::render::render_input;
use olm_catalog::validate::Options;
use olm_catalog::FileInput;

#[path = "common.rs"]
mod common;

const NAMES: [&str; 5] = [
    "manifests/operator.clusterserviceversion.yaml",
    "manifests/crd.yaml",
    "metadata/annotations.yaml",
    "metadata/dependencies.yaml",
    "metadata/properties.yaml",
];

fuzz_target!(|data: &[u8]| {
    let Some((&flags, data)) = data.split_first() else { return };
    let files: Vec<FileInput> = common::split(data, b"\n@@\n", NAMES.len())
        .into_iter()
        .zip(NAMES)
        .map(|(bytes, name)| FileInput::new(name, bytes))
        .collect();
    let options = BundleOptions {
        image: (flags & 1 != 0).then(|| "quay.io/example/operator-bundle:v1".to_string()),
        image_ref_template: (flags & 2 != 0).then(|| "quay.io/example/{{.Package}}:{{.Version}}".to_string()),
        migrate_csv_metadata: flags & 4 != 0,
    };
    let (_, rendered) = render_input(&files, &options);
    common::assert_located(&files, &rendered.diagnostics);
    let validated = rendered.validate(Options::default());
    serde_json::to_string(&validated.report).expect("the report serializes");
});
