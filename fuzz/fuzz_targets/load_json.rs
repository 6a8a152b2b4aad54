//! Loading arbitrary bytes as a JSON-stream catalog file: never a panic, every finding located.
#![no_main]

use libfuzzer_sys::fuzz_target;
use olm_catalog::{load_files, FileInput};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    // The loader reads a file as a JSON stream when its first non-space byte is `{`: keep it so.
    let mut bytes = data.to_vec();
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        bytes.insert(0, b'{');
    }
    let files = [FileInput::new("pkg/catalog.json", bytes)];
    let loaded = load_files(&files);
    common::assert_located(&files, &loaded.diagnostics);
});
