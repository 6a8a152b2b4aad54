//! `olm-catalog lsp` in a real editor: Debian's Neovim, headless, in a temporary copy of
//! tests/fixtures/lsp-catalog, runs the Neovim 0.7 snippet of docs/editors.md (the block after
//! `<!-- tested: neovim-0.7 -->`, with `olm-catalog` on PATH), then tests/lsp_neovim/drive.lua.
//! The snippet starts the server on the folder when a file is opened; the script waits for the findings, asks hover, definition, references and completion, applies the quick
//! fix of the z-stream gap and a rename of a bundle, writes the files, and records what it saw
//! as JSON; this test checks that record and the files written. Neovim must be installed
//! (`make setup`): without it the test fails.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

#[test]
fn neovim_sees_findings_navigates_fixes_and_renames() {
    let dir = std::env::temp_dir().join(format!("olm-lsp-neovim-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("foo")).unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for f in ["package.yaml", "bundles.yaml"] {
        std::fs::copy(repo.join("tests/fixtures/lsp-catalog/foo").join(f), dir.join("foo").join(f)).unwrap();
    }
    let out = dir.with_extension("json");
    let script = repo.join("tests/lsp_neovim/drive.lua");
    let snippet = dir.with_extension("lua");
    std::fs::write(&snippet, tested_snippet(&repo.join("docs/editors.md"))).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_olm-catalog"));
    let path = std::env::join_paths(
        std::iter::once(bin.parent().unwrap().to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    let mut child = Command::new("nvim")
        .args(["--headless", "--clean", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("OLM_LSP_SNIPPET", &snippet)
        .env("PATH", path)
        .env("OLM_LSP_OUT", &out)
        .current_dir(&dir)
        .spawn()
        .unwrap_or_else(|e| panic!("nvim (Debian's neovim, `make setup` installs it) could not start: {e}"));
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("nvim did not finish in 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let seen: Value = serde_json::from_str(&std::fs::read_to_string(&out).expect("the script's record")).unwrap();
    let package = std::fs::read_to_string(dir.join("foo/package.yaml")).unwrap();
    let bundles = std::fs::read_to_string(dir.join("foo/bundles.yaml")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&out);
    let _ = std::fs::remove_file(&snippet);

    assert_eq!(seen["errors"], json!([]), "{seen:#}");
    assert_eq!(seen["diagnostics"], json!(["z-stream-gap"]));
    let hover = seen["hover"].as_str().unwrap();
    assert!(hover.contains("version: `1.0.1`") && hover.contains("OLM v0 path to the head of `stable`"), "{hover}");
    assert_eq!(seen["definition"], json!({"file": "bundles.yaml", "line": 3}));
    assert_eq!(seen["references"], 3, "the bundle, its entry and the replaces naming it");
    assert_eq!(seen["completion"].as_array().unwrap().len(), 6, "{seen:#}");
    assert_eq!(seen["actions"][0], "Add skipRange \">=1.1.0 <1.1.2\" to foo.v1.1.2");
    assert_eq!(seen["fixed"], true, "the fix applied, the finding went away");
    assert_eq!(seen["after"], json!({"package": [], "bundles": []}));
    assert_eq!(seen["renamed"], 1, "the server knows the bundle by its new name");
    assert!(package.contains("  skipRange: \">=1.1.0 <1.1.2\"\n"), "{package}");
    assert_eq!(package.matches("foo.v1.0.1-renamed").count(), 2, "{package}");
    assert_eq!(bundles.matches("foo.v1.0.1-renamed").count(), 1, "{bundles}");
}

/// The Lua block of `doc` after the line `<!-- tested: neovim-0.7 -->`.
fn tested_snippet(doc: &Path) -> String {
    let text = std::fs::read_to_string(doc).unwrap();
    let after =
        text.split_once("<!-- tested: neovim-0.7 -->\n```lua\n").expect("the tested snippet in docs/editors.md").1;
    after.split_once("\n```").expect("the block's end").0.to_string()
}
