//! Bad input never panics: thousands of deterministic mutations of real catalog files (flipped,
//! deleted and inserted bytes, YAML/JSON punctuation, truncation) go through loading, validation,
//! graphs, paths and the Mermaid export. Every call must return, with findings or without.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use olm_catalog::declcfg::FileInput;
use olm_catalog::graph::{channel_paths, to_mermaid, ChannelGraph, MermaidOptions, Semantics};
use olm_catalog::validate::validate_files;

/// xorshift64*: a small deterministic generator (no dependency needed for this).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const PIECES: &[&[u8]] = &[
    b"\n",
    b": ",
    b"- ",
    b"---\n",
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b"'",
    b"&a ",
    b"*a",
    b"<<: ",
    b"!!str ",
    b"|\n",
    b">-\n",
    b"\t",
    b"#",
    b"\\",
    b"\xff",
    b"\xc3",
    b"0x",
    b"~",
    b"yes",
    b"skipRange: ",
    b"replaces: ",
    b"olm.package",
    b"\0",
];

fn mutate(rng: &mut Rng, src: &[u8]) -> Vec<u8> {
    let mut out = src.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(4) {
            0 if !out.is_empty() => {
                let i = at.min(out.len() - 1);
                out[i] ^= 1 << rng.below(8);
            }
            1 => {
                let end = (at + rng.below(40)).min(out.len());
                out.drain(at..end);
            }
            2 => {
                let piece = PIECES[rng.below(PIECES.len())];
                out.splice(at..at, piece.iter().copied());
            }
            _ => out.truncate(at),
        }
    }
    out
}

fn exercise(files: &[FileInput]) {
    let v = validate_files(files);
    let _ = serde_json::to_string(&v.report).expect("report serializes");
    for p in &v.model.packages {
        for c in &p.channels {
            let g = ChannelGraph::new(p, c);
            let _ = serde_json::to_string(&g).expect("graph serializes");
            let _ = channel_paths(p, c, Semantics::V0);
            let _ = channel_paths(p, c, Semantics::V1);
        }
    }
    let _ = to_mermaid(&v.model, &MermaidOptions { v0_semantics: true, ..Default::default() });
}

#[test]
fn mutated_catalogs_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let seeds: Vec<(String, Vec<u8>)> = [
        "www/examples/community/aws-neuron-operator/catalog.yaml",
        "www/examples/community/nfs-provisioner-operator/catalog.yaml",
        "www/examples/broken/demo/catalog.yaml",
    ]
    .iter()
    .map(|p| (p.to_string(), std::fs::read(root.join(p)).expect("seed file")))
    .chain(std::iter::once((
        "c.json".to_string(),
        br#"{"schema":"olm.package","name":"a","defaultChannel":"s"}
{"schema":"olm.channel","package":"a","name":"s","entries":[{"name":"a.v1"},{"name":"a.v2","replaces":"a.v1","skips":["a.v0"],"skipRange":"<1.0.2"}]}
{"schema":"olm.bundle","package":"a","name":"a.v1","image":"x/y:1","properties":[{"type":"olm.package","value":{"packageName":"a","version":"1.0.1"}}]}
{"schema":"olm.bundle","package":"a","name":"a.v2","image":"x/y:2","properties":[{"type":"olm.package","value":{"packageName":"a","version":"1.0.2"}},{"type":"olm.constraint","value":{"all":{"constraints":[{"package":{"packageName":"b","versionRange":">=1.0.0"}}]}}}]}
{"schema":"olm.deprecations","package":"a","entries":[{"reference":{"schema":"olm.bundle","name":"a.v1"},"message":"old"}]}
"#
        .to_vec(),
    )))
    .collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let iterations: usize = std::env::var("ROBUSTNESS_ITERATIONS").ok().and_then(|s| s.parse().ok()).unwrap_or(2000);
    for i in 0..iterations {
        let (name, seed) = &seeds[i % seeds.len()];
        let bytes = mutate(&mut rng, seed);
        let files = vec![FileInput::new(format!("pkg/{}", name.rsplit('/').next().unwrap_or("f")), bytes.clone())];
        if catch_unwind(AssertUnwindSafe(|| exercise(&files))).is_err() {
            panic!("panicked on mutation {i} of {name}:\n{}", String::from_utf8_lossy(&bytes));
        }
    }
}

/// Found by fuzzing: a lone `\r` ends a line for the YAML parser (and for editors), so the lines
/// of a YAML document — also one that follows a JSON object in the same file — are counted the
/// same way, and a finding never points past the line it is on.
#[test]
fn lone_carriage_returns_count_as_line_breaks() {
    use olm_catalog::load_files;
    let cases: [(&[u8], u32); 3] = [
        // JSON object, then YAML from line 3 (line 2 is empty between the two CRs).
        (b"{\"schema\":\"olm.package\",\"name\":\"a\"}\r\r\nfoo: [\n", 4),
        // A second document whose first line follows a lone CR.
        (b"schema: olm.package\rname: a\n---\nb: [\n", 5),
        // A separator line after a lone CR, itself broken.
        (b"schema: olm.package\rname: a\n---\rb: c\n---\nd: {\n", 3),
    ];
    for (bytes, line) in cases {
        let loaded = load_files(&[FileInput::new("c.yaml", bytes)]);
        let d = loaded.diagnostics.last().unwrap_or_else(|| panic!("no finding for {bytes:?}"));
        assert_eq!(d.location.line, line, "{d:?}");
    }
}
