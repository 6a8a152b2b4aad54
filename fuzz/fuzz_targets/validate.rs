//! Validation of a fuzzed catalog tree (up to four files, split at `\n@@\n`, the last one an
//! `.indexignore`), then everything the CLI derives from it: graphs, every entry's upgrade path
//! under both semantics, Mermaid and DOT. Never a panic; every finding located in its file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use olm_catalog::graph::{channel_paths, to_dot, to_mermaid, ChannelGraph, MermaidOptions, PackageGraph, Semantics};
use olm_catalog::validate::{validate_files_with, LintConfig, Options};
use olm_catalog::FileInput;

#[path = "common.rs"]
mod common;

const NAMES: [&str; 4] = ["a/catalog.yaml", "a/more.json", "b/catalog.yaml", ".indexignore"];

fuzz_target!(|data: &[u8]| {
    let Some((&flags, data)) = data.split_first() else { return };
    let files: Vec<FileInput> = common::split(data, b"\n@@\n", NAMES.len())
        .into_iter()
        .zip(NAMES)
        .map(|(bytes, name)| FileInput::new(name, bytes))
        .collect();
    let options =
        Options { lints: flags & 1 == 0, config: LintConfig { olm_v1: flags & 2 != 0, ..LintConfig::default() } };
    let v = validate_files_with(&files, options);
    common::assert_located(&files, &v.report.diagnostics);
    serde_json::to_string(&v.report).expect("the report serializes");
    let mut graphs = Vec::new();
    for p in &v.model.packages {
        serde_json::to_string(&PackageGraph::new(p)).expect("the package graph serializes");
        for c in &p.channels {
            let g = ChannelGraph::new(p, c);
            serde_json::to_string(&g).expect("the channel graph serializes");
            let _ = channel_paths(p, c, Semantics::V0);
            let _ = channel_paths(p, c, Semantics::V1);
            graphs.push(g);
        }
    }
    let _ = to_dot(&graphs);
    let _ = to_mermaid(&v.model, &MermaidOptions { v0_semantics: flags & 4 != 0, ..MermaidOptions::default() });
});
