//! The 26 operators of `../shared/catalogs/bundles` (community-operators bundle trees, copied
//! unchanged) render to FBC packages with `render_tree`; the result validates, or each problem
//! reported is a real one in the input (named below by operator and reason). Channels and edges
//! of three packages are checked by hand against their CSVs.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use olm_catalog::declcfg::{DeclarativeConfig, FileInput, Loaded};
use olm_catalog::read_catalog;
use olm_catalog::render::bundle::BundleOptions;
use olm_catalog::render::legacy::render_tree;
use olm_catalog::render::Rendered;
use olm_catalog::validate::validate_loaded;
use olm_catalog::{Diagnostic, Severity};

fn bundles_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/bundles")
}

struct Run {
    rendered: Rendered,
    validation: Vec<Diagnostic>,
}

/// The whole tree rendered once, and the rendering validated.
fn run() -> &'static Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(|| {
        let files = read_catalog(&bundles_dir()).expect("../shared/catalogs/bundles must be readable");
        let rendered = render_tree(&files, &BundleOptions::default());
        let loaded = Loaded { config: rendered.config.clone(), diagnostics: Vec::new(), files: Vec::new() };
        let validation = validate_loaded(loaded).report.diagnostics;
        Run { rendered, validation }
    })
}

/// The operator a finding is about: the first segment of its file.
fn operator(d: &Diagnostic) -> &str {
    d.location.file.split('/').next().unwrap_or("")
}

fn errors(ds: &[Diagnostic]) -> BTreeSet<(String, String)> {
    ds.iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| (operator(d).to_string(), d.code.as_str().to_string()))
        .collect()
}

const OPERATORS: usize = 26;

#[test]
fn every_operator_renders_a_package_with_all_its_bundles() {
    let r = run();
    let packages: BTreeSet<&str> = r.rendered.config.packages.iter().map(|p| p.name.value.as_str()).collect();
    assert_eq!(packages.len(), OPERATORS, "{packages:?}");
    // 332 bundle directories: 326 `<version>/`, 3 `<version>/bundle/`, 3 `<version>/certification/`.
    assert_eq!(r.rendered.config.bundles.len(), 332);
    for p in &r.rendered.config.packages {
        assert!(!p.default_channel.value.is_empty(), "{} has a default channel", p.name.value);
    }
}

/// Every error rendering or validation reports, each a real problem in the input.
#[test]
fn the_problems_reported_are_real_ones_in_the_input() {
    let r = run();
    let render_errors = errors(&r.rendered.diagnostics);
    assert!(render_errors.is_empty(), "rendering errors: {render_errors:?}\n{}", show(&r.rendered.diagnostics));
    let expected: BTreeSet<(String, String)> = [
        // Channel 2022.4.0: 2022.4.15–.18 have no `replaces` (only skips and skipRanges), so the
        // replaces chain from the head 2022.4.18 ends at once and 2022.4.0–.13 are stranded.
        ("aqua", "stranded-bundles"),
        // The tree's CSVs carry no edges at all: its graph lives in catalog-templates/semver.yaml.
        ("dotvirt-operator", "multiple-channel-heads"),
        // 1.22.0 replaces 1.20.0 beside 1.21.0 (a fork); 1.23.1 is then replaced and skipped by
        // nothing, a second head beside 1.52.0.
        ("gitlab-runner-operator", "multiple-channel-heads"),
        // 0.1.3 skips 0.1.1, which 0.1.2 replaces: opm stops the replaces chain at a skipped
        // entry, so 0.1.0 (replaced only by 0.1.1) is stranded in every channel.
        ("multicluster-operators-subscription", "stranded-bundles"),
        // 1.19.2 replaces 1.18.2, forking off 1.18.3 → 1.19.0 → 1.19.1: two heads.
        ("rabbitmq-messaging-topology-operator", "multiple-channel-heads"),
    ]
    .iter()
    .map(|(o, c)| (o.to_string(), c.to_string()))
    .collect();
    assert_eq!(errors(&r.validation), expected, "\n{}", show(&r.validation));
}

fn show(ds: &[Diagnostic]) -> String {
    ds.iter().filter(|d| d.severity == Severity::Error).map(|d| d.to_string()).collect::<Vec<_>>().join("\n")
}

/// `(entry, replaces, skipRange)` of every entry of `channel` in `package`.
fn entries<'a>(c: &'a DeclarativeConfig, package: &str, channel: &str) -> Vec<(&'a str, &'a str, &'a str)> {
    let ch =
        c.channels.iter().find(|ch| ch.package.value == package && ch.name.value == channel).expect("channel exists");
    ch.entries.iter().map(|e| (e.name.as_str(), e.replaces.as_str(), e.skip_range.as_str())).collect()
}

fn channel_names<'a>(c: &'a DeclarativeConfig, package: &str) -> Vec<&'a str> {
    c.channels.iter().filter(|ch| ch.package.value == package).map(|ch| ch.name.value.as_str()).collect()
}

fn default_channel<'a>(c: &'a DeclarativeConfig, package: &str) -> &'a str {
    c.packages.iter().find(|p| p.name.value == package).map(|p| p.default_channel.value.as_str()).unwrap_or("")
}

/// hawtio-operator (replaces-mode): 0.x in `alpha`, 1.x in `stable-v1` and `latest`; every CSV
/// replaces the previous one; 1.1.0–1.2.0 carry skipRanges (which `opm render` drops).
#[test]
fn hawtio_operator_by_hand() {
    let c = &run().rendered.config;
    assert_eq!(channel_names(c, "hawtio-operator"), ["alpha", "latest", "stable-v1"]);
    assert_eq!(default_channel(c, "hawtio-operator"), "stable-v1");
    // The icon is the default channel head's (1.2.0): an SVG starting `<?xml`.
    let icon =
        c.packages.iter().find(|p| p.name.value == "hawtio-operator").and_then(|p| p.icon.as_ref()).expect("icon");
    assert_eq!((icon.media_type.as_str(), &icon.data[..5]), ("image/svg+xml", &b"<?xml"[..]));
    assert_eq!(
        entries(c, "hawtio-operator", "alpha"),
        [
            ("hawtio-operator.v0.1.0", "", ""),
            ("hawtio-operator.v0.2.0", "hawtio-operator.v0.1.0", ""),
            ("hawtio-operator.v0.3.0", "hawtio-operator.v0.2.0", ""),
            ("hawtio-operator.v0.4.0", "hawtio-operator.v0.3.0", ""),
            ("hawtio-operator.v0.5.0", "hawtio-operator.v0.4.0", ""),
        ]
    );
    let v1 = [
        ("hawtio-operator.v1.0.0", "hawtio-operator.v0.5.0", ""),
        ("hawtio-operator.v1.0.1", "hawtio-operator.v1.0.0", ""),
        ("hawtio-operator.v1.1.0", "hawtio-operator.v1.0.1", ">=1.0.0 <1.0.2"),
        ("hawtio-operator.v1.1.1", "hawtio-operator.v1.1.0", ">=1.0.0 <1.1.0"),
        ("hawtio-operator.v1.2.0", "hawtio-operator.v1.1.1", ">=1.0.0 <1.0.2"),
    ];
    assert_eq!(entries(c, "hawtio-operator", "stable-v1"), v1);
    assert_eq!(entries(c, "hawtio-operator", "latest"), v1);
}

/// node-healthcheck-operator (semver-mode): each channel is chained by version, whatever the CSVs
/// say (0.11.0's CSV replaces 0.10.0, but 0.10.3 is the next lower version of `stable`); the
/// skipRanges stay.
#[test]
fn node_healthcheck_operator_by_hand() {
    let c = &run().rendered.config;
    let p = "node-healthcheck-operator";
    assert_eq!(channel_names(c, p), ["alpha", "candidate", "stable"]);
    assert_eq!(default_channel(c, p), "stable");
    assert_eq!(entries(c, p, "alpha"), [("node-healthcheck-operator.v0.1.1", "", "")]);
    assert_eq!(entries(c, p, "candidate"), [("node-healthcheck-operator.v0.3.0", "", ">=0.2.0 <0.3.0")]);
    let n = |v: &str| format!("node-healthcheck-operator.v{v}");
    let expected = [
        ("0.3.0", "", ">=0.2.0 <0.3.0"),
        ("0.5.0", "0.3.0", ">=0.1.0 <0.5.0"),
        ("0.6.0", "0.5.0", ">=0.1.0 <0.6.0"),
        ("0.6.1", "0.6.0", ">=0.1.0 <0.6.1"),
        ("0.7.0", "0.6.1", ">=0.6.0 <0.7.0"),
        ("0.8.0", "0.7.0", ">=0.6.0 <0.8.1"),
        ("0.9.0", "0.8.0", ">=0.8.0 <0.9.0"),
        ("0.10.0", "0.9.0", ">=0.9.0 <0.10.0"),
        ("0.10.3", "0.10.0", ">=0.9.0 <0.10.3"),
        ("0.11.0", "0.10.3", ">=0.10.0 <0.11.0"),
        ("0.12.0", "0.11.0", ">=0.10.0 <0.12.0"),
    ];
    let expected: Vec<(String, String, String)> = expected
        .iter()
        .map(|(v, r, s)| (n(v), if r.is_empty() { String::new() } else { n(r) }, s.to_string()))
        .collect();
    let got: Vec<(String, String, String)> =
        entries(c, p, "stable").iter().map(|(a, b, s)| (a.to_string(), b.to_string(), s.to_string())).collect();
    assert_eq!(got, expected);
}

/// silicom-sts-operator (replaces-mode): 0.0.2 alone is also in `beta` and names `beta` the
/// default, but the highest version naming one (0.0.6) says `alpha`, and that wins.
#[test]
fn silicom_sts_operator_by_hand() {
    let c = &run().rendered.config;
    let p = "silicom-sts-operator";
    assert_eq!(channel_names(c, p), ["alpha", "beta"]);
    assert_eq!(default_channel(c, p), "alpha");
    let n = |v: u8| format!("silicom-sts-operator.v0.0.{v}");
    let alpha: Vec<(String, String)> = (1..=6).map(|v| (n(v), if v == 1 { String::new() } else { n(v - 1) })).collect();
    let got: Vec<(String, String)> =
        entries(c, p, "alpha").iter().map(|(a, b, _)| (a.to_string(), b.to_string())).collect();
    assert_eq!(got, alpha);
    assert_eq!(entries(c, p, "beta"), [(n(2).as_str(), n(1).as_str(), "")]);
}

/// A tree may mix bundle directories and package manifests.
#[test]
fn a_tree_with_bundle_directories_and_a_package_manifest() {
    let csv = |name: &str, version: &str, replaces: &str| {
        format!("apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: {name}\nspec:\n  version: {version}\n  replaces: {replaces}\n")
    };
    let files = vec![
        FileInput::new("legacy/etcd/etcd.package.yaml", "packageName: etcd\nchannels:\n- name: alpha\n  currentCSV: etcd.v0.2.0\n"),
        FileInput::new("legacy/etcd/0.1.0/etcd.v0.1.0.clusterserviceversion.yaml", csv("etcd.v0.1.0", "0.1.0", "\"\"")),
        FileInput::new("legacy/etcd/0.2.0/etcd.v0.2.0.clusterserviceversion.yaml", csv("etcd.v0.2.0", "0.2.0", "etcd.v0.1.0")),
        FileInput::new("operators/web/1.0.0/manifests/web.csv.yaml", csv("web.v1.0.0", "1.0.0", "\"\"")),
        FileInput::new(
            "operators/web/1.0.0/metadata/annotations.yaml",
            "annotations:\n  operators.operatorframework.io.bundle.package.v1: web\n  operators.operatorframework.io.bundle.channels.v1: stable\n",
        ),
    ];
    let r = render_tree(&files, &BundleOptions::default());
    assert!(errors(&r.diagnostics).is_empty(), "{}", show(&r.diagnostics));
    let c = &r.config;
    assert_eq!(default_channel(c, "etcd"), "alpha");
    assert_eq!(entries(c, "etcd", "alpha"), [("etcd.v0.1.0", "", ""), ("etcd.v0.2.0", "etcd.v0.1.0", "")]);
    assert_eq!(default_channel(c, "web"), "stable");
    let bundles: Vec<(&str, &str)> = c.bundles.iter().map(|b| (b.name.as_str(), &*b.source.file)).collect();
    assert_eq!(
        bundles,
        [
            ("web.v1.0.0", "operators/web/1.0.0/manifests/web.csv.yaml"),
            ("etcd.v0.1.0", "legacy/etcd/0.1.0/etcd.v0.1.0.clusterserviceversion.yaml"),
            ("etcd.v0.2.0", "legacy/etcd/0.2.0/etcd.v0.2.0.clusterserviceversion.yaml"),
        ]
    );
}

/// The bundle renderer's warnings, each about a real flaw opm only logs.
#[test]
fn the_warnings_of_rendering_are_the_known_flaws() {
    let found: BTreeSet<(String, String)> =
        run().rendered.diagnostics.iter().map(|d| (operator(d).to_string(), d.code.as_str().to_string())).collect();
    let expected: BTreeSet<(String, String)> = [
        // Both bundles' dependencies.yaml does not parse (line 22); opm skips the file.
        ("eventing-kogito", "bundle-bad-dependencies"),
        // Every properties.yaml has the wrong top-level key; opm skips the file.
        ("pelorus-operator", "bundle-bad-properties"),
    ]
    .iter()
    .map(|(o, c)| (o.to_string(), c.to_string()))
    .collect();
    assert_eq!(found, expected);
}
