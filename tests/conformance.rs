//! Conformance: runs every case of every suite file in `CONFORMANCE_DIR` (default
//! `../shared/conformance`) and prints `<file>: N passed, M failed` per file; then the suites of
//! our own in `tests/conformance/own/` (same formats, same file names: cases found by comparing
//! with upstream's code that upstream's suites do not hold), printed as `own/<file>`.
//!
//! A case may fail only if it is listed, with its reason, in `tests/conformance/DIFFERENCES.md`
//! (deliberate differences) or in `tests/conformance/pending.txt` (not done yet). The run fails
//! when an unlisted case fails, and when a listed case passes (so the lists only shrink). Suites
//! whose feature is not implemented yet are reported as not run, with their case count.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use olm_catalog::declcfg::{load_files, FileInput, Pos, Spanned};
use olm_catalog::graph::{
    legacy_successor, successors_v1, successors_v1_semver, to_mermaid, upgrade_path, MermaidOptions, Semantics, Start,
};
use olm_catalog::model::Entry;
use olm_catalog::validate::validate_files;
use olm_catalog::version::Version;
use serde_json::Value;

#[path = "conformance/crd_upgrade.rs"]
mod crd_upgrade;
#[path = "conformance/operatorgroup.rs"]
mod operatorgroup;
#[path = "conformance/rbac.rs"]
mod rbac;
#[path = "conformance/render_bundle.rs"]
mod render_bundle;
#[path = "conformance/resolver.rs"]
mod resolver;
#[path = "conformance/semver_template.rs"]
mod semver_template;

fn conformance_dir() -> PathBuf {
    std::env::var_os("CONFORMANCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance"))
}

/// Case ids listed in a file: the first backquoted id of each `- ` line (DIFFERENCES.md), or the
/// first word of each non-comment line (pending.txt).
fn listed(path: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut ids = BTreeSet::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("- `") {
            if let Some(id) = rest.split('`').next() {
                ids.insert(id.to_string());
            }
        } else if path.extension().is_some_and(|e| e == "txt") && !line.is_empty() && !line.starts_with('#') {
            if let Some(id) = line.split_whitespace().next() {
                ids.insert(id.to_string());
            }
        }
    }
    ids
}

/// The files a case describes: `input.files` as given, or `input.blobs` one per line in
/// `catalog.json`.
fn case_files(input: &Value) -> Vec<FileInput> {
    if let Some(files) = input.get("files").and_then(Value::as_object) {
        return files.iter().map(|(p, c)| FileInput::new(p.clone(), c.as_str().unwrap_or("").as_bytes())).collect();
    }
    let blobs = input.get("blobs").and_then(Value::as_array).cloned().unwrap_or_default();
    let text: String = blobs.iter().map(|b| format!("{b}\n")).collect();
    vec![FileInput::new("catalog.json", text.into_bytes())]
}

fn str_list(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

/// Checks shared by validate and load cases: expected substrings, and the exact text when portable.
fn check_errors(expect: &Value, messages: &[String], exact: Option<&str>) -> Result<(), String> {
    for want in str_list(expect.get("errors")) {
        if !messages.iter().any(|m| m.contains(&want)) {
            return Err(format!("no diagnostic contains {want:?}; got {messages:#?}"));
        }
    }
    if expect.get("error_exact_portable").and_then(Value::as_bool) == Some(true) {
        if let Some(want) = expect.get("error_exact").and_then(Value::as_str) {
            if exact != Some(want) {
                return Err(format!("opm message differs:\n  want: {want:?}\n  got:  {exact:?}"));
            }
        }
    }
    Ok(())
}

fn run_validate(case: &Value) -> Result<(), String> {
    let files = case_files(&case["input"]);
    let result = validate_files(&files);
    let expect = &case["expect"];
    let want_valid = expect.get("valid").and_then(Value::as_bool).unwrap_or(true);
    let errors: Vec<String> =
        result.report.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect();
    if result.report.valid != want_valid {
        return Err(format!("valid = {}, want {want_valid}; diagnostics: {errors:#?}", result.report.valid));
    }
    if !want_valid {
        check_errors(expect, &errors, result.report.opm_message.as_deref())?;
    }
    Ok(())
}

fn run_load(case: &Value) -> Result<(), String> {
    let files = case_files(&case["input"]);
    let loaded = load_files(&files);
    let expect = &case["expect"];
    let want_ok = expect.get("ok").and_then(Value::as_bool).unwrap_or(true);
    let errors: Vec<String> = loaded.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect();
    if errors.is_empty() != want_ok {
        return Err(format!("ok = {}, want {want_ok}; diagnostics: {errors:#?}", errors.is_empty()));
    }
    if want_ok {
        if let Some(counts) = expect.get("counts") {
            let c = &loaded.config;
            let got = serde_json::json!({
                "packages": c.packages.len(), "channels": c.channels.len(), "bundles": c.bundles.len(),
                "deprecations": c.deprecations.len(), "others": c.others.len(),
            });
            if &got != counts {
                return Err(format!("counts {got}, want {counts}"));
            }
        }
    } else {
        check_errors(expect, &errors, errors.first().map(String::as_str))?;
    }
    Ok(())
}

fn run_render_graph(case: &Value) -> Result<(), String> {
    let loaded = load_files(&case_files(&case["input"]));
    let (model, _) = olm_catalog::model::build(&loaded.config);
    let o = &case["input"]["options"];
    let text = |k: &str| o.get(k).and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string);
    let opts = MermaidOptions {
        minimum_edge: text("minimumEdge"),
        package: text("packageName"),
        channel: None,
        v0_semantics: o.get("drawV0Semantics").and_then(Value::as_bool).unwrap_or(false),
    };
    let expect = &case["expect"];
    // Like opm, refuse a catalog whose bundles' versions cannot be read.
    let rendered = to_mermaid(&model, &opts).map_err(|e| e.to_string());
    match (rendered, expect.get("ok").and_then(Value::as_bool).unwrap_or(true)) {
        (Ok(out), true) => {
            let want = expect["output"].as_str().unwrap_or("");
            if out == want {
                Ok(())
            } else {
                Err(format!("mermaid differs:\n--- want\n{want}\n--- got\n{out}"))
            }
        }
        (Err(e), false) => check_errors(expect, std::slice::from_ref(&e), Some(&e)),
        (Ok(_), false) => Err("expected an error".into()),
        (Err(e), true) => Err(format!("unexpected error {e}")),
    }
}

/// A package of the upgrade cases as FBC blobs: `channels` of entries and `bundles` of
/// `{name, version, properties?}`.
fn package_blobs(pkg: &str, default_channel: Option<&str>, channels: &[Value], bundles: &[Value]) -> Vec<Value> {
    let first = channels.first().and_then(|c| c["name"].as_str()).unwrap_or("");
    let mut blobs = vec![
        serde_json::json!({"schema": "olm.package", "name": pkg, "defaultChannel": default_channel.unwrap_or(first)}),
    ];
    for c in channels {
        blobs.push(
            serde_json::json!({"schema": "olm.channel", "package": pkg, "name": c["name"], "entries": c["entries"]}),
        );
    }
    for b in bundles {
        let mut props: Vec<Value> = b["properties"]
            .as_array()
            .map(|a| a.iter().filter(|p| p["type"] != "olm.package").cloned().collect())
            .unwrap_or_default();
        props.push(serde_json::json!({"type": "olm.package", "value": {"packageName": pkg, "version": b["version"]}}));
        blobs.push(serde_json::json!({"schema": "olm.bundle", "package": pkg, "name": b["name"], "image": "example.com/b:1", "properties": props}));
    }
    blobs
}

fn entry_of(e: &Value) -> Entry {
    let s = |v: &Value| Spanned::new(v.as_str().unwrap_or("").to_string(), Pos::default());
    Entry {
        index: 0,
        pos: Pos::default(),
        name: s(&e["name"]),
        replaces: s(&e["replaces"]),
        skips: e["skips"].as_array().map(|a| a.iter().map(s).collect()).unwrap_or_default(),
        skip_range: olm_catalog::model::SkipRange::parse(&s(&e["skipRange"])),
        bundle: None,
    }
}

fn model_of(blobs: Vec<Value>) -> olm_catalog::model::Model {
    let files = case_files(&serde_json::json!({ "blobs": blobs }));
    olm_catalog::model::build(&load_files(&files).config).0
}

fn names(v: &Value) -> BTreeSet<String> {
    v.as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect()).unwrap_or_default()
}

fn run_upgrade(case: &Value) -> Result<(), String> {
    let input = &case["input"];
    let expect = &case["expect"];
    match case["kind"].as_str().unwrap_or("") {
        kind @ ("v1-successors" | "v1-legacy-successor" | "v1-semver-successors") => {
            let pkg = input["package"].as_str().unwrap_or("");
            let channels = input["channels"].as_array().cloned().unwrap_or_default();
            let bundles = input["bundles"].as_array().cloned().unwrap_or_default();
            let installed = input["installedBundle"]["name"].as_str().unwrap_or("");
            let version = Version::parse(input["installedBundle"]["version"].as_str().unwrap_or(""))
                .map_err(|e| format!("installed version: {e}"))?;
            if kind == "v1-legacy-successor" {
                // Entries only: bundles are matched by name, with no package or version needed.
                let entries: Vec<Entry> = channels
                    .iter()
                    .flat_map(|c| c["entries"].as_array().cloned().unwrap_or_default())
                    .map(|e| entry_of(&e))
                    .collect();
                let matches = expect["matches"].as_object().ok_or("no matches")?;
                for (name, want) in matches {
                    let got = entries
                        .iter()
                        .filter(|e| &e.name.value == name)
                        .any(|e| legacy_successor(e, installed, &version));
                    if Some(got) != want.as_bool() {
                        return Err(format!("{name:?}: legacySuccessor {got}, want {want}"));
                    }
                }
                return Ok(());
            }
            let model = model_of(package_blobs(pkg, None, &channels, &bundles));
            let p = model.package(pkg).ok_or("package not built")?;
            match kind {
                "v1-successors" => {
                    let got: BTreeSet<String> = successors_v1(p, None, installed, &version).into_iter().collect();
                    let want = names(&expect["successors"]);
                    if got == want {
                        Ok(())
                    } else {
                        Err(format!("successors {got:?}, want {want:?}"))
                    }
                }
                "v1-semver-successors" => {
                    let got: BTreeSet<String> = successors_v1_semver(p, &version).into_iter().collect();
                    let want = names(&expect["successors"]);
                    if got == want {
                        Ok(())
                    } else {
                        Err(format!("successors {got:?}, want {want:?}"))
                    }
                }
                _ => unreachable!(),
            }
        }
        "v0-next" => {
            resolver::run_v0_next(case)?;
            if has_dependencies(input) {
                Ok(())
            } else {
                run_v0_graph_path(case).map_err(|e| format!("graph path: {e}"))
            }
        }
        "v1-resolve" => resolver::run_v1(case),
        other => Err(format!("kind {other} is unknown")),
    }
}

/// `v0-next` through the channel graph alone (`graph::upgrade_path`, what `olm-catalog path`
/// shows): it must agree with the resolver wherever dependencies play no part.
fn run_v0_graph_path(case: &Value) -> Result<(), String> {
    let input = &case["input"];
    let expect = &case["expect"];
    let follow = input["follow"].as_str().unwrap_or("");
    let subs = input["subscriptions"].as_array().cloned().unwrap_or_default();
    let sub = subs.iter().find(|s| s["name"] == follow).ok_or("no followed subscription")?;
    let pkg = sub["package"].as_str().unwrap_or("");
    let catalog = input["catalogs"]
        .as_array()
        .and_then(|cs| cs.iter().find(|c| c["name"] == sub["catalog"]))
        .ok_or("no catalog")?;
    let mut blobs = Vec::new();
    for p in catalog["packages"].as_array().cloned().unwrap_or_default() {
        let name = p["name"].as_str().unwrap_or("");
        blobs.extend(package_blobs(
            name,
            p["defaultChannel"].as_str(),
            p["channels"].as_array().map(Vec::as_slice).unwrap_or(&[]),
            p["bundles"].as_array().map(Vec::as_slice).unwrap_or(&[]),
        ));
    }
    let model = model_of(blobs);
    let p = model.package(pkg).ok_or("package not in catalog")?;
    let channel = p.channel(sub["channel"].as_str().unwrap_or("")).ok_or("channel not found")?;
    let installed_name = sub["installedCSV"].as_str().unwrap_or("");
    let installed = input["installed"].as_array().and_then(|a| a.iter().find(|b| b["name"] == installed_name));
    let mut path: Vec<String> = Vec::new();
    let start = match installed {
        Some(b) => Start::Installed {
            name: installed_name.to_string(),
            version: b["version"].as_str().and_then(|v| Version::parse(v).ok()),
        },
        None => {
            // A fresh install: startingCSV if set, else the channel head.
            let first = match sub["startingCSV"].as_str().filter(|s| !s.is_empty()) {
                Some(s) => s.to_string(),
                None => {
                    let order = olm_catalog::internals::channel_order(pkg, channel).map_err(|e| e.to_string())?;
                    order.first().map(|&i| channel.entries[i].name.value.clone()).ok_or("empty channel")?
                }
            };
            path.push(first.clone());
            Start::Bundle(first)
        }
    };
    let up = upgrade_path(p, channel, &start, Semantics::V0).map_err(|e| e.to_string())?;
    path.extend(up.steps.iter().map(|s| s.to.to_string()));
    let got_next = path.first().cloned();
    let want_next = expect["next"].as_str().map(str::to_string);
    if got_next != want_next {
        return Err(format!("next {got_next:?}, want {want_next:?}"));
    }
    let want_path: Vec<String> = expect["path"]
        .as_array()
        .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    if path != want_path {
        return Err(format!("path {path:?}, want {want_path:?}"));
    }
    Ok(())
}

/// Whether any bundle or installed operator has a dependency, so only the resolver can answer.
fn has_dependencies(input: &Value) -> bool {
    const DEPS: &[&str] = &["olm.gvk.required", "olm.package.required", "olm.constraint", "olm.label.required"];
    let props = |v: &Value| -> bool {
        v["properties"].as_array().is_some_and(|ps| ps.iter().any(|p| DEPS.contains(&p["type"].as_str().unwrap_or(""))))
    };
    let bundles = input["catalogs"].as_array().into_iter().flatten().flat_map(|c| {
        c["packages"].as_array().into_iter().flatten().flat_map(|p| p["bundles"].as_array().into_iter().flatten())
    });
    let installed = input["installed"].as_array().into_iter().flatten();
    bundles.chain(installed).any(props)
}

type Runner = fn(&Value) -> Result<(), String>;

/// The suites this build implements, by file name.
fn runner(file: &str) -> Option<Runner> {
    match file {
        "opm-validate.json" => Some(run_validate),
        "load.json" => Some(run_load),
        "render-graph.json" => Some(run_render_graph),
        "olm-upgrade.json" => Some(run_upgrade),
        "olm-resolver.json" => Some(resolver::run),
        "semver-template.json" => Some(semver_template::run),
        "render-bundle.json" => Some(render_bundle::run),
        "operatorgroup.json" => Some(operatorgroup::run),
        "rbac.json" => Some(rbac::run),
        "crd-upgrade.json" => Some(crd_upgrade::run),
        _ => None,
    }
}

/// The `.json` suites of a directory, sorted by name.
fn suite_files(dir: &Path) -> Option<Vec<PathBuf>> {
    let rd = std::fs::read_dir(dir).ok()?;
    let mut files: Vec<PathBuf> =
        rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    files.sort();
    Some(files)
}

fn main() -> ExitCode {
    let dir = conformance_dir();
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let differences = listed(&here.join("DIFFERENCES.md"));
    let pending = listed(&here.join("pending.txt"));
    let Some(mut files) = suite_files(&dir) else {
        eprintln!("conformance: cannot read {}", dir.display());
        return ExitCode::FAILURE;
    };
    files.extend(suite_files(&here.join("own")).unwrap_or_default());
    let mut problems: Vec<String> = Vec::new();
    let mut seen_ids = BTreeSet::new();
    let (mut total_pass, mut total_fail, mut total_listed) = (0, 0, 0);
    for path in &files {
        let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let own = path.parent().is_some_and(|d| d.ends_with("own"));
        let name = if own { format!("own/{file}") } else { file.clone() };
        let cases: Vec<Value> = match std::fs::read_to_string(path).ok().and_then(|t| serde_json::from_str(&t).ok()) {
            Some(Value::Array(a)) => a,
            _ => {
                problems.push(format!("{name}: not a JSON array of cases"));
                continue;
            }
        };
        // Our own suites may carry a tag before `.json` (`opm-validate.gotext.json`).
        let kind = match file.strip_suffix(".json").and_then(|f| f.split_once('.')) {
            Some((base, _)) if own => format!("{base}.json"),
            _ => file.clone(),
        };
        let Some(run) = runner(&kind) else {
            println!("{name}: not yet run ({} cases; its feature is not implemented yet)", cases.len());
            continue;
        };
        let (mut pass, mut fail, mut listed_fail) = (0, 0, 0);
        let mut by_result: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for case in &cases {
            let id = case["id"].as_str().unwrap_or("?").to_string();
            seen_ids.insert(id.clone());
            let outcome = std::panic::catch_unwind(|| run(case)).unwrap_or_else(|_| Err("panicked".into()));
            let excused = differences.contains(&id) || pending.contains(&id);
            match outcome {
                Ok(()) => {
                    pass += 1;
                    if excused {
                        problems.push(format!(
                            "{name}: {id} passes but is listed as pending/different: remove it from the list"
                        ));
                    }
                }
                Err(why) => {
                    if excused {
                        listed_fail += 1;
                    } else {
                        fail += 1;
                        problems.push(format!("{name}: {id} failed: {why}"));
                    }
                    by_result.entry("failed").or_default().push(id);
                }
            }
        }
        total_pass += pass;
        total_fail += fail;
        total_listed += listed_fail;
        if listed_fail > 0 {
            println!("{name}: {pass} passed, {fail} failed, {listed_fail} skipped (listed as pending or deliberately different)");
        } else {
            println!("{name}: {pass} passed, {fail} failed");
        }
        if let Some(ids) = by_result.get("failed") {
            for id in ids {
                let why = if differences.contains(id) {
                    "deliberate difference"
                } else if pending.contains(id) {
                    "pending"
                } else {
                    "UNEXPECTED"
                };
                println!("  {id}: {why}");
            }
        }
    }
    for p in &problems {
        eprintln!("{p}");
    }
    println!("conformance: {total_pass} passed, {total_fail} failed, {total_listed} skipped");
    if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!("conformance: {} problem(s)", problems.len());
        ExitCode::FAILURE
    }
}
