//! `--from` as a user types it, on the real community catalog (issue 40): a version is the bundle
//! of that version (`path`, `graph --format svg`), the head is already there, a version no bundle
//! has is said to be one, and a version several bundles have is asked back.

use std::path::{Path, PathBuf};
use std::process::Command;

fn community() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc/community-v4.20")
}

/// `olm-catalog ARGS`: exit code, stdout, stderr.
fn run(args: &[&str], catalog: &Path) -> (Option<i32>, String, String) {
    let (first, rest) = args.split_first().expect("a command");
    let out = Command::new(env!("CARGO_BIN_EXE_olm-catalog")).arg(first).arg(catalog).args(rest).output().unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn kube_green_path(catalog: &Path, from: &str) -> (Option<i32>, String, String) {
    run(&["path", "--package", "kube-green", "--channel", "alpha", "--from", from], catalog)
}

/// The nine upgrades from kube-green.v0.3.0 to the head of alpha.
const NINE: &str = "\
kube-green.v0.3.0 -> kube-green.v0.3.1 (replaces)
kube-green.v0.3.1 -> kube-green.v0.4.0 (replaces)
kube-green.v0.4.0 -> kube-green.v0.4.1 (replaces)
kube-green.v0.4.1 -> kube-green.v0.5.0 (replaces)
kube-green.v0.5.0 -> kube-green.v0.5.1 (replaces)
kube-green.v0.5.1 -> kube-green.v0.5.2 (replaces)
kube-green.v0.5.2 -> kube-green.v0.6.0 (replaces)
kube-green.v0.6.0 -> kube-green.v0.7.0 (replaces)
kube-green.v0.7.0 -> kube-green.v0.7.1 (replaces)
9 upgrades to reach kube-green.v0.7.1
";

#[test]
fn a_typed_version_is_the_bundle_of_that_version() {
    let c = community();
    let named = kube_green_path(&c, "kube-green.v0.3.0");
    assert_eq!(named, (Some(0), NINE.to_string(), String::new()));
    for typed in ["0.3.0", "v0.3.0"] {
        let (code, out, _) = kube_green_path(&c, typed);
        assert_eq!((code, out), (Some(0), format!("0.3.0 is the version of kube-green.v0.3.0\n{NINE}")), "{typed}");
    }
    let (_, json, _) =
        run(&["path", "--package", "kube-green", "--channel", "alpha", "--from", "0.3.0", "--format", "json"], &c);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!((v["from"].as_str(), v["steps"].as_array().map(Vec::len)), (Some("kube-green.v0.3.0"), Some(9)));
    assert_eq!(v["note"], "0.3.0 is the version of kube-green.v0.3.0");
}

#[test]
fn the_head_typed_as_a_version_is_already_there() {
    let (code, out, _) = kube_green_path(&community(), "0.7.1");
    assert_eq!(
        (code, out.as_str()),
        (
            Some(0),
            "0.7.1 is the version of kube-green.v0.7.1\nkube-green.v0.7.1 is already at the head of channel alpha\n"
        )
    );
}

#[test]
fn a_version_no_bundle_has_is_said_to_be_one() {
    let (code, out, _) = kube_green_path(&community(), "0.3.5");
    assert_eq!(code, Some(1));
    assert_eq!(
        out,
        "0.3.5 is not in this catalog; OLM can upgrade it only through a skipRange that covers it\n\
         stranded: no path from 0.3.5 to kube-green.v0.7.1: no entry of channel \"alpha\" on OLM v0's replaces chain covers 0.3.5 with skipRange\n"
    );
}

#[test]
fn graph_svg_highlights_the_path_from_a_typed_version() {
    let svg = |from: &str| {
        let args = ["graph", "--package", "kube-green", "--channel", "alpha", "--format", "svg", "--from", from];
        let (code, out, err) = run(&args, &community());
        assert_eq!(code, Some(0), "{err}");
        out
    };
    let on_path = |s: &str| s.matches("class=\"edge replaces on-path").count();
    let typed = svg("0.3.0");
    assert_eq!(on_path(&typed), 9, "the nine steps are highlighted");
    assert_eq!(on_path(&svg("kube-green.v0.3.0")), 9);
    assert!(typed.contains("0.3.0 is the version of kube-green.v0.3.0. 9 upgrades from kube-green.v0.3.0"));
}

/// kube-green as published, plus a rebuild of 0.5.0 under another name with the same version,
/// listed in alpha and skipped by 0.5.1 (no bundled catalog has two bundles of one version:
/// `opm validate` rejects them, but a catalog being written can have them).
fn kube_green_with_a_rebuild() -> PathBuf {
    let text = std::fs::read_to_string(community().join("kube-green/catalog.yaml")).unwrap();
    let entry = "- name: kube-green.v0.5.1\n  replaces: kube-green.v0.5.0\n";
    assert!(text.contains(entry), "kube-green's alpha channel as published");
    let text = text.replace(
        entry,
        "- name: kube-green.v0.5.0-rebuilt\n  replaces: kube-green.v0.4.1\n\
         - name: kube-green.v0.5.1\n  replaces: kube-green.v0.5.0\n  skips:\n  - kube-green.v0.5.0-rebuilt\n",
    );
    let rebuilt = "---\nschema: olm.bundle\npackage: kube-green\nname: kube-green.v0.5.0-rebuilt\n\
                   image: quay.io/example/kube-green-bundle:0.5.0-rebuilt\nproperties:\n\
                   - type: olm.package\n  value: {packageName: kube-green, version: 0.5.0}\n";
    let dir = std::env::temp_dir().join(format!("olm-catalog-cli-from-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("catalog.yaml"), text + rebuilt).unwrap();
    dir
}

#[test]
fn a_version_several_bundles_have_is_asked_back_and_each_name_answers() {
    let c = kube_green_with_a_rebuild();
    let (code, out, err) = kube_green_path(&c, "0.5.0");
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert_eq!(
        err,
        "olm-catalog: 2 bundles of this package have version 0.5.0 in channel alpha: kube-green.v0.5.0, \
         kube-green.v0.5.0-rebuilt; which one is installed? Give its name instead of the version\n"
    );
    let (code, out, _) = kube_green_path(&c, "kube-green.v0.5.0");
    assert_eq!((code, out.lines().last()), (Some(0), Some("5 upgrades to reach kube-green.v0.7.1")));
    let (code, out, _) = kube_green_path(&c, "kube-green.v0.5.0-rebuilt");
    assert_eq!((code, out.lines().next()), (Some(0), Some("kube-green.v0.5.0-rebuilt -> kube-green.v0.5.1 (skips)")));
    std::fs::remove_dir_all(&c).unwrap();
}
