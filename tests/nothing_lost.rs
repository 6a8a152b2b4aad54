//! Nothing is lost to a broken file: a real catalog tree (the smaller packages of
//! `community-v4.20`, each package split into a file of its package and channel blobs and one
//! file per bundle, every fifth bundle file in JSON) where 10 % of the files are broken in ten
//! different ways still loads every good file's blobs, validates them exactly as it would
//! without the broken files, and reports each broken file once, located.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use olm_catalog::declcfg::{read_documents, DeclarativeConfig, FileInput};
use olm_catalog::validate::validate_files;
use olm_catalog::{load_files, Code, Diagnostic};

const CATALOG: &str = "../shared/catalogs/fbc/community-v4.20";
/// Packages up to this size (bytes of their catalog.yaml) are used: about 2 MB in all, so that
/// the test stays quick in debug builds.
const MAX_PACKAGE_SIZE: u64 = 400_000;

/// The real tree: per package, `PKG/catalog.yaml` (the package, channel and deprecation
/// documents, as written) and `PKG/bundles/NAME.yaml` (one bundle document, as written) or
/// `.json` (the same blob as indented JSON) for every fifth bundle.
fn tree() -> Vec<FileInput> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(CATALOG);
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.join("catalog.yaml").metadata().is_ok_and(|m| m.len() <= MAX_PACKAGE_SIZE))
        .collect();
    dirs.sort();
    let mut files = Vec::new();
    let mut bundles = 0;
    for dir in dirs {
        let package = dir.file_name().and_then(|n| n.to_str()).expect("package directory name").to_string();
        let text = std::fs::read_to_string(dir.join("catalog.yaml")).expect("catalog.yaml");
        let docs = read_documents(&format!("{package}/catalog.yaml"), text.as_bytes());
        let mut head = String::new();
        for (doc, raw) in docs.iter().zip(text.split("\n---\n").map(|d| d.trim_start_matches("---\n"))) {
            let node = doc.as_ref().expect("real documents parse").value.as_ref().expect("a value");
            if node.get("schema").and_then(|s| s.as_str()) != Some("olm.bundle") {
                head.push_str("---\n");
                head.push_str(raw.trim_end_matches('\n'));
                head.push('\n');
                continue;
            }
            let name = node.get("name").and_then(|s| s.as_str()).expect("bundle name");
            bundles += 1;
            if bundles % 5 == 0 {
                let json = serde_json::to_string_pretty(&node.to_json()).expect("JSON");
                files.push(FileInput::new(format!("{package}/bundles/{name}.json"), json + "\n"));
            } else {
                files.push(FileInput::new(
                    format!("{package}/bundles/{name}.yaml"),
                    format!("---\n{}\n", raw.trim_end_matches('\n')),
                ));
            }
        }
        files.push(FileInput::new(format!("{package}/catalog.yaml"), head));
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// The ten ways a file is broken here: a name, the load error it must give, and the broken
/// content as a function of the good file.
type Breakage = (&'static str, Code, fn(&FileInput) -> Vec<u8>);

const BREAKAGES: [Breakage; 10] = [
    ("bad YAML indentation", Code::YamlSyntax, |f| {
        yaml_line_edit(f, |lines, i| lines.insert(i + 1, "   oops: an indented key".into()))
    }),
    ("unterminated JSON", Code::YamlSyntax, |f| {
        let json = serde_json::to_string_pretty(&first_value(f).to_json()).expect("JSON");
        json.trim_end().trim_end_matches('}').as_bytes().to_vec()
    }),
    ("invalid UTF-8", Code::YamlSyntax, |f| {
        let mut bytes = f.content.clone();
        let at = find(&bytes, b"name: ").expect("a name") + 6;
        bytes.splice(at..at, [0xff, 0xfe, b'x']);
        bytes
    }),
    ("binary garbage", Code::YamlSyntax, |f| {
        let mut state = f.content.len() as u64 | 1;
        (0..600)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .collect()
    }),
    ("a tab in indentation", Code::YamlSyntax, |f| {
        yaml_line_edit(f, |lines, i| {
            let j = (i..lines.len()).find(|&j| lines[j].starts_with("  ")).expect("an indented line");
            lines[j] = format!("\t{}", lines[j].trim_start());
        })
    }),
    ("duplicate keys", Code::DuplicateKey, |f| yaml_line_edit(f, |lines, i| lines.insert(i + 1, "Name: again".into()))),
    ("a document that is a list", Code::NotAnObject, |f| {
        let text = String::from_utf8_lossy(&f.content);
        format!("---\n- {}", text.trim_start_matches("---\n").replace('\n', "\n  ")).into_bytes()
    }),
    ("a blob missing schema", Code::MissingSchema, |f| {
        String::from_utf8_lossy(&f.content)
            .lines()
            .filter(|l| !l.starts_with("schema:"))
            .collect::<Vec<_>>()
            .join("\n")
            .into_bytes()
    }),
    ("truncated mid-string", Code::YamlSyntax, |f| {
        let text = String::from_utf8_lossy(&f.content);
        let quote = quoted_value(&text).expect("a double-quoted value");
        text.as_bytes()[..quote + 3].to_vec()
    }),
    ("a NUL byte", Code::YamlSyntax, |f| {
        let mut bytes = f.content.clone();
        let at = find(&bytes, b"\nname: ").expect("a name") + 7;
        bytes.insert(at, 0);
        bytes
    }),
];

/// The offset of the opening quote of the first double-quoted value of a mapping key (`key: "`,
/// not inside a block scalar).
fn quoted_value(text: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let key = line.trim_start().trim_start_matches("- ");
        if let Some(colon) = key.find(": \"") {
            if key[..colon].bytes().all(|b| b.is_ascii_alphanumeric() || b"._/-".contains(&b)) {
                return Some(offset + line.len() - key.len() + colon + 2);
            }
        }
        offset += line.len();
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn first_value(f: &FileInput) -> olm_catalog::declcfg::Node {
    read_documents(&f.path, &f.content).remove(0).expect("a good document").value.expect("a value")
}

/// Edit the lines of a YAML file at its first top-level `name:` line.
fn yaml_line_edit(f: &FileInput, edit: impl Fn(&mut Vec<String>, usize)) -> Vec<u8> {
    let mut lines: Vec<String> = String::from_utf8_lossy(&f.content).lines().map(String::from).collect();
    let i = lines.iter().position(|l| l.starts_with("name: ")).expect("a name line");
    edit(&mut lines, i);
    (lines.join("\n") + "\n").into_bytes()
}

/// Every tenth file broken, the ten ways in turn (each on a file it applies to: JSON breakage on
/// JSON files, YAML breakage on YAML files that have what it edits).
fn break_tree(files: &[FileInput]) -> (Vec<FileInput>, BTreeMap<String, &'static str>) {
    let mut out = files.to_vec();
    let mut broken = BTreeMap::new();
    let mut way = 0;
    for i in (0..out.len()).step_by(10) {
        let (name, _, breakage) = BREAKAGES[way % BREAKAGES.len()];
        // The next file from `i` on that this breakage applies to.
        let Some(j) = (i..out.len().min(i + 10)).find(|&j| applies(name, &out[j])) else { continue };
        out[j].content = breakage(&out[j]);
        broken.insert(out[j].path.clone(), name);
        way += 1;
    }
    (out, broken)
}

fn applies(way: &str, f: &FileInput) -> bool {
    let json = f.path.ends_with(".json");
    let text = String::from_utf8_lossy(&f.content);
    match way {
        "unterminated JSON" => json,
        "binary garbage" | "a document that is a list" => true,
        "truncated mid-string" => !json && quoted_value(&text).is_some(),
        "a blob missing schema" => !json && text.matches("schema:").count() == 1,
        _ => !json && text.lines().any(|l| l.starts_with("name: ")),
    }
}

/// Every blob, as (file, what it is), sorted.
fn blobs(cfg: &DeclarativeConfig) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = cfg
        .packages
        .iter()
        .map(|p| (p.source.file.to_string(), format!("package {}", p.name.value)))
        .chain(
            cfg.channels
                .iter()
                .map(|c| (c.source.file.to_string(), format!("channel {}/{}", c.package.value, c.name.value))),
        )
        .chain(cfg.bundles.iter().map(|b| (b.source.file.to_string(), format!("bundle {}", b.name.value))))
        .chain(
            cfg.deprecations.iter().map(|d| (d.source.file.to_string(), format!("deprecations {}", d.package.value))),
        )
        .chain(cfg.others.iter().map(|o| (o.source.file.to_string(), format!("{} {}", o.schema, o.name))))
        .collect();
    out.sort();
    out
}

#[test]
fn a_tree_with_broken_files_loses_nothing_else() {
    let files = tree();
    assert!(files.len() >= 100, "{} files: too few for ten broken ones", files.len());
    let (tree, broken) = break_tree(&files);
    let ways: BTreeSet<&str> = broken.values().copied().collect();
    assert_eq!(ways.len(), BREAKAGES.len(), "every way of breaking is used: {ways:?}");
    assert!(broken.len() * 10 >= files.len() - 9, "{} of {} files broken", broken.len(), files.len());

    // Every good file's blobs are loaded: the same as loading the good files alone (blobs a
    // broken file still yields come on top).
    let good: Vec<FileInput> = tree.iter().filter(|f| !broken.contains_key(&f.path)).cloned().collect();
    let alone = load_files(&good);
    assert!(alone.diagnostics.is_empty(), "the good files load cleanly: {:?}", alone.diagnostics.first());
    let all = load_files(&tree);
    let from_good: Vec<(String, String)> =
        blobs(&all.config).into_iter().filter(|(file, _)| !broken.contains_key(file)).collect();
    assert_eq!(from_good, blobs(&alone.config), "the good files' blobs");

    // Each broken file is reported exactly once, located (file, line, column), with a load error.
    let mut wrong = Vec::new();
    for (path, way) in &broken {
        let code = BREAKAGES.iter().find(|b| b.0 == *way).map(|b| b.1).expect("a known way");
        let found: Vec<&Diagnostic> = all.diagnostics.iter().filter(|d| &d.location.file == path).collect();
        let located = |d: &Diagnostic| d.location.line >= 1 && d.location.column >= 1;
        if found.len() != 1 || found[0].code != code || !located(found[0]) {
            wrong.push(format!("{path} ({way}, expected {code:?}): {found:#?}"));
        }
    }
    assert!(wrong.is_empty(), "each broken file is reported once, located; not so:\n{}", wrong.join("\n"));
    assert!(all.diagnostics.iter().all(|d| broken.contains_key(&d.location.file)), "only broken files are reported");

    // Validation runs over the rest: on the good files it finds exactly what it finds without
    // the broken files, in every package where no broken file still yielded a blob.
    let v_all = validate_files(&tree);
    let v_good = validate_files(&good);
    let package_of = |path: &str| path.split('/').next().unwrap_or("").to_string();
    let partly_read: BTreeSet<String> = blobs(&all.config)
        .iter()
        .filter(|(file, _)| broken.contains_key(file))
        .map(|(file, _)| package_of(file))
        .collect();
    let on_good = |ds: &[Diagnostic]| -> Vec<String> {
        ds.iter()
            .filter(|d| !broken.contains_key(&d.location.file) && !partly_read.contains(&package_of(&d.location.file)))
            .map(|d| format!("{d:?}"))
            .collect()
    };
    let expected = on_good(&v_good.report.diagnostics);
    assert!(!expected.is_empty(), "the real catalog has findings to compare");
    assert_eq!(on_good(&v_all.report.diagnostics), expected);
    let names = |m: &olm_catalog::Model| m.packages.iter().map(|p| p.name.clone()).collect::<BTreeSet<_>>();
    assert!(names(&v_all.model).is_superset(&names(&v_good.model)), "every good package is in the model");
    assert!(partly_read.len() * 4 < names(&v_good.model).len(), "most packages are compared: {partly_read:?}");
}
