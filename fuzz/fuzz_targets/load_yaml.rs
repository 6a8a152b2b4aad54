//! Loading arbitrary bytes as a YAML catalog file: never a panic, every finding located.
#![no_main]

use libfuzzer_sys::fuzz_target;
use olm_catalog::{load_files, FileInput};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    // A file whose first non-space byte is `{` is read as JSON: a comment line keeps it YAML.
    let mut bytes = data.to_vec();
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
        bytes.splice(0..0, b"#\n".iter().copied());
    }
    let files = [FileInput::new("pkg/catalog.yaml", bytes)];
    let loaded = load_files(&files);
    common::assert_located(&files, &loaded.diagnostics);
});
