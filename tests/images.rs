//! Catalog and bundle images as inputs, with images made by real tools (umoci, skopeo; see
//! `images/build.rs`): the same catalog read from disk and from each transport gives the same
//! report (but for the file names), graphs, paths, dependencies and render; bundle images render
//! as their directories do; broken and foreign images are refused clearly.

#[path = "images/build.rs"]
mod build;

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use build::{run, skopeo_copy, umoci_bundle, umoci_catalog, umoci_label, Scratch};

const CATALOG: &str = "../shared/catalogs/fbc/openshift-optional-v4.17";
const BUNDLES: &str = "../shared/catalogs/bundles";

fn shared(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_olm-catalog")).args(args).output().expect("run the CLI")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Every `"file"` of a JSON answer with its input's prefix cut (a directory's path, an image's
/// `REFERENCE@DIGEST:/configs/`), so that answers about the same files compare equal.
fn without_prefixes(json: &str) -> serde_json::Value {
    fn walk(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, v) in m.iter_mut() {
                    if let (true, serde_json::Value::String(s)) = (k == "file", &mut *v) {
                        *s = cut(s);
                    } else {
                        walk(v);
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(walk),
            _ => {}
        }
    }
    fn cut(s: &str) -> String {
        match s.split_once(":/configs/") {
            Some((_, rest)) => rest.to_string(),
            None => ["openshift-optional-v4.17/", "www/examples/community/"]
                .iter()
                .find_map(|root| s.split_once(root).map(|(_, rest)| rest))
                .unwrap_or(s)
                .to_string(),
        }
    }
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    walk(&mut v);
    v
}

/// What the commands answer about a catalog input (exit codes and outputs, file prefixes cut).
fn answers(input: &str) -> Vec<(String, Option<i32>, serde_json::Value)> {
    let package = "clusterresourceoverride";
    let commands: Vec<Vec<&str>> = vec![
        vec!["validate", input, "--format", "json"],
        vec!["graph", input, "--package", package, "--format", "json"],
        vec![
            "path",
            input,
            "--package",
            package,
            "--channel",
            "stable",
            "--from",
            "clusterresourceoverride-operator.v4.17.0-202409100034",
            "--format",
            "json",
        ],
        vec!["deps", input, "--package", package, "--format", "json"],
        vec!["render", input],
        vec!["convert-template", "basic", input],
    ];
    commands
        .into_iter()
        .map(|args| {
            let o = cli(&args);
            let text = stdout(&o);
            let json = if args[0] == "render" || args[0] == "convert-template" {
                // A stream of JSON documents: compared as text.
                serde_json::Value::String(text)
            } else {
                without_prefixes(&text)
            };
            (args[0].to_string(), o.status.code(), json)
        })
        .collect()
}

#[test]
fn a_catalog_reads_the_same_from_disk_and_from_every_transport() {
    let s = Scratch::new("images-catalog");
    let catalog = shared(CATALOG);
    umoci_catalog(&s, "layout", "cat", &catalog);
    let oci = format!("oci:{}:cat", s.str("layout"));
    skopeo_copy(&s, &oci, &format!("oci-archive:{}:cat", s.str("cat.tar")), &[]);
    skopeo_copy(&s, &oci, &format!("docker-archive:{}:example.com/cat:v1", s.str("docker.tar")), &[]);
    skopeo_copy(
        &s,
        &oci,
        &format!("oci:{}:cat", s.str("zstd")),
        &["--dest-compress-format", "zstd", "--dest-compress"],
    );
    let zstd_layers = std::fs::read_dir(s.join("zstd/blobs/sha256"))
        .unwrap()
        .filter(|e| std::fs::read(e.as_ref().unwrap().path()).unwrap().starts_with(&[0x28, 0xb5, 0x2f, 0xfd]))
        .count();
    assert_eq!(zstd_layers, 2, "skopeo wrote zstd layers");

    let from_disk = answers(&catalog.display().to_string());
    assert_eq!(from_disk[0].1, Some(0), "{:?}", from_disk[0]);
    for input in [
        oci.clone(),
        format!("oci-archive:{}:cat", s.str("cat.tar")),
        format!("oci-archive:{}", s.str("cat.tar")),
        format!("docker-archive:{}", s.str("docker.tar")),
        format!("docker-archive:{}:example.com/cat:v1", s.str("docker.tar")),
        format!("oci:{}:cat", s.str("zstd")),
    ] {
        let from_image = answers(&input);
        for (disk, image) in from_disk.iter().zip(&from_image) {
            assert_eq!(disk, image, "{input}: {}", disk.0);
        }
    }

    // Findings name the image, its digest and the file in it.
    let o = cli(&["validate", &oci]);
    let text = stdout(&o);
    let located = text.lines().find(|l| l.contains("skip-range-covers-nothing")).expect("a note");
    assert!(located.starts_with(&format!("{oci}@sha256:")) && located.contains(":/configs/"), "{located}");

    // diff either side: the image against the directory it was built from changes nothing.
    let d = cli(&["diff", &catalog.display().to_string(), &oci, "--format", "json"]);
    assert_eq!(d.status.code(), Some(0), "{}", String::from_utf8_lossy(&d.stderr));
    let diff: serde_json::Value = serde_json::from_slice(&d.stdout).unwrap();
    assert!(
        diff["changes"].as_object().is_none_or(|c| c.values().all(|v| v.as_array().is_none_or(Vec::is_empty))),
        "{diff}"
    );
}

#[test]
fn a_docker_archive_is_read_from_standard_input() {
    let s = Scratch::new("images-stdin");
    let catalog = shared(CATALOG);
    umoci_catalog(&s, "layout", "cat", &catalog);
    skopeo_copy(&s, &format!("oci:{}:cat", s.str("layout")), &format!("docker-archive:{}", s.str("d.tar")), &[]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_olm-catalog"))
        .args(["validate", "docker-archive:-", "--format", "json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&std::fs::read(s.join("d.tar")).unwrap()).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let disk = cli(&["validate", &catalog.display().to_string(), "--format", "json"]);
    assert_eq!(without_prefixes(&stdout(&o)), without_prefixes(&stdout(&disk)));
}

/// The newest bundle directory of each operator that has `manifests/` and `metadata/` at its top.
fn one_bundle_per_operator() -> Vec<(String, std::path::PathBuf)> {
    let mut out = Vec::new();
    let mut operators: Vec<_> = std::fs::read_dir(shared(BUNDLES)).unwrap().map(|e| e.unwrap().path()).collect();
    operators.sort();
    for op in operators.into_iter().filter(|p| p.is_dir()) {
        let mut versions: Vec<_> = std::fs::read_dir(&op).unwrap().map(|e| e.unwrap().path()).collect();
        versions.sort();
        let found = versions.into_iter().rev().find(|v| v.join("manifests").is_dir() && v.join("metadata").is_dir());
        if let Some(v) = found {
            out.push((op.file_name().unwrap().to_string_lossy().into_owned(), v));
        }
    }
    out
}

#[test]
fn bundle_images_render_as_their_directories_do() {
    let s = Scratch::new("images-bundles");
    let bundles = one_bundle_per_operator();
    assert!(bundles.len() >= 20, "{}", bundles.len());
    for (name, dir) in &bundles {
        umoci_bundle(&s, "layout", name, dir);
    }
    let first = &bundles[0].0;
    skopeo_copy(&s, &format!("oci:{}:{first}", s.str("layout")), &format!("docker-archive:{}", s.str("b.tar")), &[]);
    let mut inputs: Vec<(String, &Path)> =
        bundles.iter().map(|(name, dir)| (format!("oci:{}:{name}", s.str("layout")), dir.as_path())).collect();
    inputs.push((format!("docker-archive:{}", s.str("b.tar")), bundles[0].1.as_path()));
    for (reference, dir) in inputs {
        let image = cli(&["render", &reference]);
        // The directory rendered with the image reference as its image: byte for byte the same.
        let directory = cli(&["render", &dir.display().to_string(), "--image-ref-template", &reference]);
        assert_eq!(
            image.status.code(),
            directory.status.code(),
            "{reference}: {}",
            String::from_utf8_lossy(&image.stderr)
        );
        assert_eq!(stdout(&image), stdout(&directory), "{reference}");
        assert!(stdout(&image).contains(&format!("\"image\": \"{reference}\"")), "{reference}");
    }
}

#[test]
fn a_template_finds_its_bundles_in_bundle_images() {
    let s = Scratch::new("images-template");
    let (name, dir) = one_bundle_per_operator().into_iter().find(|(n, _)| n == "kube-green").expect("kube-green");
    umoci_bundle(&s, "layout", &name, &dir);
    let reference = format!("oci:{}:{name}", s.str("layout"));
    let rendered: serde_json::Value = serde_json::from_slice(&cli(&["render", &reference]).stdout).unwrap();
    let (package, bundle) = (rendered["package"].as_str().unwrap(), rendered["name"].as_str().unwrap());
    let template = format!(
        "schema: olm.template.basic\nentries:\n- schema: olm.package\n  name: {package}\n  defaultChannel: stable\n\
         - schema: olm.channel\n  package: {package}\n  name: stable\n  entries:\n  - name: {bundle}\n\
         - schema: olm.bundle\n  image: {reference}\n"
    );
    std::fs::write(s.join("template.yaml"), template).unwrap();
    // (Not --validate: an `oci:` reference is no pull spec, which validation rightly reports.)
    let o = cli(&["template", &s.str("template.yaml"), "--bundles", &reference]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).contains(&format!("\"image\": \"{reference}\"")));
}

fn refusal(input: &str) -> String {
    let o = cli(&["validate", input]);
    assert_eq!(o.status.code(), Some(2), "{input}: {}", stdout(&o));
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn sqlite_foreign_and_tampered_images_are_refused_clearly() {
    let s = Scratch::new("images-refused");
    let empty = s.join("empty");
    std::fs::create_dir_all(empty.join("database")).unwrap();
    std::fs::write(empty.join("database/index.db"), "SQLite format 3\0").unwrap();
    umoci_bundle_like_dir(&s, "sqlite", &empty);
    umoci_label(&s, "layout", "sqlite", &[("operators.operatorframework.io.index.database.v1", "/database/index.db")]);
    let e = refusal(&format!("oci:{}:sqlite", s.str("layout")));
    assert!(e.contains("no longer supported upstream") && e.contains("opm migrate"), "{e}");

    umoci_bundle_like_dir(&s, "plain", &empty);
    umoci_label(&s, "layout", "plain", &[("maintainer", "someone")]);
    let e = refusal(&format!("oci:{}:plain", s.str("layout")));
    assert!(e.contains("neither a catalog image") && e.contains("maintainer"), "{e}");

    let e = refusal(&format!("oci:{}:nosuchtag", s.str("layout")));
    assert!(e.contains("no image tagged \"nosuchtag\"") && e.contains("sqlite"), "{e}");

    // A layer blob whose bytes are not its digest's: refused naming both digests.
    umoci_catalog(&s, "tampered", "cat", &shared(CATALOG));
    let blobs = s.join("tampered/blobs/sha256");
    let layer = std::fs::read_dir(&blobs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| std::fs::read(p).unwrap().starts_with(&[0x1f, 0x8b]))
        .unwrap();
    let mut bytes = std::fs::read(&layer).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 1;
    std::fs::write(&layer, bytes).unwrap();
    let e = refusal(&format!("oci:{}:cat", s.str("tampered")));
    let named = layer.file_name().unwrap().to_string_lossy().into_owned();
    assert!(e.contains("digest mismatch") && e.contains(&format!("expected sha256:{named}, got sha256:")), "{e}");
}

/// An image `layout:tag` holding `dir` at the root, with no labels yet.
fn umoci_bundle_like_dir(s: &Scratch, tag: &str, dir: &Path) {
    let image = format!("{}:{tag}", s.str("layout"));
    if !s.join("layout").exists() {
        run("umoci", &["init", "--layout", &s.str("layout")]);
    }
    run("umoci", &["new", "--image", &image]);
    run("umoci", &["insert", "--image", &image, &dir.join("database").display().to_string(), "/database"]);
}

#[test]
fn the_resolver_reads_catalog_sources_from_images() {
    let s = Scratch::new("images-resolve");
    let catalog = shared(CATALOG);
    umoci_catalog(&s, "layout", "cat", &catalog);
    skopeo_copy(&s, &format!("oci:{}:cat", s.str("layout")), &format!("oci-archive:{}", s.str("cat.tar")), &[]);
    let problem = |path: &str| {
        format!(
            r#"{{"namespace": "operators",
  "catalogs": [{{"name": "optional", "namespace": "operators", "priority": 0, "path": "{path}"}}],
  "subscriptions": [{{"name": "cro", "package": "clusterresourceoverride", "channel": "stable", "catalog": "optional", "catalogNamespace": "operators"}}]}}"#
        )
    };
    let resolve = |name: &str, path: &str| {
        std::fs::write(s.join(name), problem(path)).unwrap();
        let o = cli(&["resolve", &s.str(name)]);
        assert_eq!(o.status.code(), Some(0), "{path}: {}", String::from_utf8_lossy(&o.stderr));
        stdout(&o)
    };
    let from_disk = resolve("disk.json", &catalog.display().to_string());
    assert!(from_disk.contains("install clusterresourceoverride-operator."), "{from_disk}");
    // Image paths are relative to the problem file, as directories are.
    assert_eq!(resolve("oci.json", "oci:layout:cat"), from_disk);
    assert_eq!(resolve("archive.json", "oci-archive:cat.tar"), from_disk);
}

#[test]
fn a_multi_arch_index_gives_the_platform_asked_for_linux_amd64_by_default() {
    let s = Scratch::new("images-index");
    let (amd, arm) = (shared(CATALOG), shared("www/examples/community"));
    umoci_catalog(&s, "layout", "amd", &amd);
    umoci_catalog(&s, "layout", "arm", &arm);
    build::index_of(&s, "layout", "multi", &[("arm", "linux/arm64"), ("amd", "linux/amd64")]);
    // skopeo copies the whole index (--all) into an oci-archive.
    let multi = format!("oci:{}:multi", s.str("layout"));
    skopeo_copy(&s, &multi, &format!("oci-archive:{}:multi", s.str("multi.tar")), &["--all"]);
    let report =
        |args: &[&str]| without_prefixes(&stdout(&cli(&[&["validate", "--format", "json"][..], args].concat())));
    let (amd_report, arm_report) = (report(&[&amd.display().to_string()]), report(&[&arm.display().to_string()]));
    assert_ne!(amd_report, arm_report);
    for input in [multi, format!("oci-archive:{}:multi", s.str("multi.tar"))] {
        assert_eq!(report(&[&input]), amd_report, "{input}");
        assert_eq!(report(&["--platform", "linux/arm64", &input]), arm_report, "{input}");
        let o = cli(&["validate", "--verbose", &input]);
        assert!(String::from_utf8_lossy(&o.stderr).contains("platform linux/amd64 of 2 in the image index"));
        let o = cli(&["validate", "--platform", "linux/s390x", &input]);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("linux/arm64, linux/amd64"),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
