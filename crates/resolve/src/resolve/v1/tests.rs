//! OLM v1's selection rules, one test each, on small catalogs: first through the JSON form
//! ([`V1Problem`], as the conformance cases and the JS API give it), then on catalog models
//! loaded from File-Based Catalog text (release fields, deprecation blobs, invalid versions and
//! ranges as a real catalog carries them).

use std::sync::Arc;

use super::*;
use crate::declcfg;
use crate::model::Model;

// The JSON form.

fn entry(name: &str) -> V1Entry {
    V1Entry { name: name.to_string(), ..V1Entry::default() }
}

fn bundle(name: &str, version: &str) -> V1Bundle {
    V1Bundle { name: name.to_string(), version: version.to_string() }
}

fn catalog(name: &str, priority: i32, package: V1Package) -> V1Catalog {
    V1Catalog { name: name.to_string(), priority, unavailable: false, package: Some(package) }
}

fn problem(catalogs: Vec<V1Catalog>) -> V1Problem {
    V1Problem {
        package_name: "p".to_string(),
        channels: Vec::new(),
        version_range: String::new(),
        upgrade_constraint_policy: UpgradeConstraintPolicy::CatalogProvided,
        installed_bundle: None,
        catalogs,
    }
}

fn installed(name: &str, version: &str) -> Option<InstalledBundle> {
    Some(InstalledBundle { name: name.to_string(), version: version.to_string(), release: None })
}

/// Channel `stable`: 1.0.0, 1.1.0 replaces 1.0.0, 2.0.0 skipRange <2.0.0.
/// Channel `fast`: 1.0.0, 3.0.0 replaces 1.0.0.
fn package(deprecated: &[&str]) -> V1Package {
    V1Package {
        channels: vec![
            V1Channel {
                name: "stable".to_string(),
                entries: vec![
                    entry("p.v1.0.0"),
                    V1Entry { replaces: "p.v1.0.0".to_string(), ..entry("p.v1.1.0") },
                    V1Entry { skip_range: "<2.0.0".to_string(), ..entry("p.v2.0.0") },
                ],
            },
            V1Channel {
                name: "fast".to_string(),
                entries: vec![entry("p.v1.0.0"), V1Entry { replaces: "p.v1.0.0".to_string(), ..entry("p.v3.0.0") }],
            },
        ],
        bundles: vec![
            bundle("p.v1.0.0", "1.0.0"),
            bundle("p.v1.1.0", "1.1.0"),
            bundle("p.v2.0.0", "2.0.0"),
            bundle("p.v3.0.0", "3.0.0"),
        ],
        deprecated_bundles: deprecated.iter().map(|s| s.to_string()).collect(),
    }
}

fn pick(p: &V1Problem) -> V1Pick {
    match resolve_v1(p) {
        Ok(pick) => pick,
        Err(e) => panic!("unexpected error: {e}"),
    }
}

fn error(p: &V1Problem) -> String {
    match resolve_v1(p) {
        Ok(pick) => panic!("unexpected pick: {pick:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn highest_and_channels_of_pick() {
    let p = problem(vec![catalog("c", 0, package(&[]))]);
    let got = pick(&p);
    assert_eq!((got.bundle.as_str(), got.catalog.as_str()), ("p.v3.0.0", "c"));
    assert_eq!(got.channels, ["fast"]);
    assert!(!got.deprecated);
}

#[test]
fn deprecation_beats_priority() {
    // The high-priority catalog only offers deprecated bundles.
    let high = catalog("high", 10, package(&["p.v1.0.0", "p.v1.1.0", "p.v2.0.0", "p.v3.0.0"]));
    let low = catalog("low", 0, package(&[]));
    for catalogs in [vec![high.clone(), low.clone()], vec![low, high]] {
        let got = pick(&problem(catalogs));
        assert_eq!((got.bundle.as_str(), got.catalog.as_str(), got.deprecated), ("p.v3.0.0", "low", false));
    }
    // Within a catalog too: a lower non-deprecated version beats a higher deprecated one.
    let got = pick(&problem(vec![catalog("c", 0, package(&["p.v3.0.0"]))]));
    assert_eq!(got.bundle, "p.v2.0.0");
}

#[test]
fn priority_decides_and_ambiguity_lists_every_catalog() {
    let mut p = problem(vec![catalog("b", 1, package(&[])), catalog("a", 5, package(&[]))]);
    assert_eq!(pick(&p).catalog, "a");
    p.catalogs = vec![catalog("z", 0, package(&[])), catalog("y", 3, package(&[])), catalog("x", 3, package(&[]))];
    assert_eq!(error(&p), r#"found bundles for package "p" in multiple catalogs with the same priority [x y z]"#);
    p.version_range = ">=1.0.0".to_string();
    p.channels = vec!["stable".to_string(), "fast".to_string()];
    p.installed_bundle = installed("p.v1.0.0", "1.0.0");
    assert_eq!(
        error(&p),
        r#"error upgrading from currently installed version "1.0.0": found bundles for package "p" matching version ">=1.0.0" in channels [stable fast] in multiple catalogs with the same priority [x y z]"#
    );
}

#[test]
fn channel_filter_limits_edges() {
    let mut p = problem(vec![catalog("c", 0, package(&[]))]);
    p.installed_bundle = installed("p.v1.0.0", "1.0.0");
    // All channels: 3.0.0 replaces 1.0.0 in fast.
    assert_eq!(pick(&p).bundle, "p.v3.0.0");
    // Only stable: the skipRange edge to 2.0.0 is the best.
    p.channels = vec!["stable".to_string()];
    let got = pick(&p);
    assert_eq!((got.bundle.as_str(), got.channels.as_slice()), ("p.v2.0.0", ["stable".to_string()].as_slice()));
    // 3.0.0 is listed in stable too, but its edge is only in fast.
    let mut pkg = package(&[]);
    if let Some(stable) = pkg.channels.first_mut() {
        stable.entries.push(entry("p.v3.0.0"));
    }
    p.catalogs = vec![catalog("c", 0, pkg)];
    assert_eq!(pick(&p).bundle, "p.v2.0.0");
    // Transitive edges do not count: from 1.1.0 nothing replaces it, only 2.0.0's range covers it.
    p.channels.clear();
    p.installed_bundle = installed("p.v1.1.0", "1.1.0");
    assert_eq!(pick(&p).bundle, "p.v2.0.0");
    // Stay put when nothing upgrades.
    p.installed_bundle = installed("p.v3.0.0", "3.0.0");
    assert_eq!(pick(&p).bundle, "p.v3.0.0");
}

#[test]
fn self_certified_downgrade() {
    let mut p = problem(vec![catalog("c", 0, package(&[]))]);
    p.installed_bundle = installed("p.v3.0.0", "3.0.0");
    p.version_range = "<2.0.0".to_string();
    assert_eq!(
        error(&p),
        r#"error upgrading from currently installed version "3.0.0": no bundles found for package "p" matching version "<2.0.0""#
    );
    p.upgrade_constraint_policy = UpgradeConstraintPolicy::SelfCertified;
    assert_eq!(pick(&p).bundle, "p.v1.1.0");
}

#[test]
fn release_in_build_metadata() {
    let mut pkg = package(&[]);
    pkg.bundles = vec![bundle("p.v1.0.0", "1.0.0"), bundle("p.v1.0.0-1", "1.0.0+1"), bundle("p.v1.0.0-2", "1.0.0+2")];
    let mut p = problem(vec![catalog("c", 0, pkg)]);
    // The highest release wins.
    assert_eq!(pick(&p).bundle, "p.v1.0.0-2");
    // Staying put means the same (version, release): 1.0.0+1 only.
    p.installed_bundle = installed("other", "1.0.0+1");
    assert_eq!(pick(&p).bundle, "p.v1.0.0-1");
    // An explicit release does the same.
    p.installed_bundle = Some(InstalledBundle {
        name: "other".to_string(),
        version: "1.0.0".to_string(),
        release: Some("2".to_string()),
    });
    assert_eq!(pick(&p).bundle, "p.v1.0.0-2");
}

#[test]
fn errors() {
    let mut p = problem(vec![catalog("c", 0, package(&[]))]);
    p.version_range = "foobar".to_string();
    assert_eq!(error(&p), r#"desired version range "foobar" is invalid: improper constraint: "foobar""#);
    p.version_range = ">=9".to_string();
    assert_eq!(error(&p), r#"no bundles found for package "p" matching version ">=9""#);
    p.version_range.clear();
    p.channels = vec!["nope".to_string(), "never".to_string()];
    assert_eq!(error(&p), r#"no bundles found for package "p" in channels [nope never]"#);
    p.channels.clear();
    p.installed_bundle = installed("p.v1.0.0", "v1.0.0");
    assert_eq!(
        error(&p),
        "error walking catalogs: error finding upgrade edges: failed to get version and release of installed bundle: \
         Invalid character(s) found in major number \"v1\""
    );
    // Unavailable catalogs and catalogs without the package are skipped before that.
    p.catalogs = vec![V1Catalog { unavailable: true, ..catalog("c", 0, package(&[])) }];
    assert_eq!(
        error(&p),
        r#"error upgrading from currently installed version "v1.0.0": no bundles found for package "p""#
    );
    // SelfCertified never parses the installed version.
    p.catalogs = vec![catalog("c", 0, package(&[]))];
    p.upgrade_constraint_policy = UpgradeConstraintPolicy::SelfCertified;
    assert_eq!(pick(&p).bundle, "p.v3.0.0");
}

#[test]
fn deserializes_case_shape() {
    let json = r#"{"packageName": "p", "channels": [], "versionRange": "", "upgradeConstraintPolicy": "SelfCertified",
        "installedBundle": null, "catalogs": [{"name": "a", "priority": 0, "package": null},
        {"name": "b", "priority": -1, "unavailable": true, "package": {"channels": [{"name": "s", "entries":
        [{"name": "x", "replaces": "w", "skips": ["v"], "skipRange": "<1.0.0"}]}],
        "bundles": [{"name": "x", "version": "1.0.0"}], "deprecatedBundles": ["x"]}}]}"#;
    let p: V1Problem = match serde_json::from_str(json) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(p.upgrade_constraint_policy, UpgradeConstraintPolicy::SelfCertified);
    assert_eq!(p.catalogs.len(), 2);
    assert_eq!(error(&p), r#"no bundles found for package "p""#);
}

// Catalog models.

/// A catalog model from File-Based Catalog YAML; `bundles` adds one `olm.bundle` of package `p`
/// per (name, `olm.package` value) pair.
fn model(yaml: &str, bundles: &[(&str, &str)]) -> Arc<Model> {
    let mut text = format!("schema: olm.package\nname: p\n---\n{yaml}");
    for (name, package_value) in bundles {
        text.push_str(&format!(
            "\n---\nschema: olm.bundle\npackage: p\nname: {name}\n\
             properties: [{{type: olm.package, value: {{packageName: p, {package_value}}}}}]\n"
        ));
    }
    let (blobs, diags) = declcfg::parse_file("catalog.yaml", text.as_bytes());
    assert!(diags.is_empty(), "{diags:?}");
    let mut cfg = declcfg::DeclarativeConfig::default();
    blobs.into_iter().for_each(|b| cfg.push(b));
    Arc::new(crate::model::build(&cfg).0)
}

/// A query for package `p` in one catalog `c`.
fn query(model: Arc<Model>) -> V1Query {
    V1Query {
        package_name: "p".to_string(),
        channels: Vec::new(),
        version_range: None,
        upgrade_constraint_policy: UpgradeConstraintPolicy::CatalogProvided,
        installed: None,
        catalogs: vec![V1Source { name: "c".to_string(), priority: 0, unavailable: false, model }],
    }
}

/// The installed bundle `name` at `version` (and explicit `release`, if not empty).
fn installed_at(name: &str, version: &str, release: &str) -> Option<V1Installed> {
    let bundle =
        InstalledBundle { name: name.to_string(), version: version.to_string(), release: Some(release.to_string()) };
    Some(bundle.parsed())
}

fn ranged(text: &str) -> Option<VersionConstraint> {
    Some(VersionConstraint::parse(text))
}

fn chosen(q: &V1Query) -> String {
    match select(q) {
        Ok(pick) => pick.bundle,
        Err(e) => format!("error: {e}"),
    }
}

const STABLE: &str = "schema: olm.channel\npackage: p\nname: stable\nentries:\n";

#[test]
fn a_new_install_takes_the_highest_version_not_the_channel_head() {
    let channel = format!("{STABLE}- {{name: a}}\n- {{name: b, replaces: a}}\n- {{name: c, replaces: b}}\n");
    let q = query(model(&channel, &[("a", "version: 1.0.0"), ("b", "version: 3.0.0"), ("c", "version: 2.0.0")]));
    assert_eq!(chosen(&q), "b");
}

#[test]
fn an_upgrade_takes_the_highest_direct_successor() {
    // b replaces a, c skips a, d covers a by skipRange, e replaces b only (transitive: no edge).
    let channel = format!(
        "{STABLE}- {{name: a}}\n- {{name: b, replaces: a}}\n- {{name: c, skips: [a]}}\n\
         - {{name: d, skipRange: '<1.0.1'}}\n- {{name: e, replaces: b}}\n"
    );
    let versions = [("a", "1.0.0"), ("b", "1.1.0"), ("c", "1.2.0"), ("d", "1.3.0"), ("e", "9.0.0")];
    let bundles: Vec<(&str, String)> = versions.iter().map(|(n, v)| (*n, format!("version: {v}"))).collect();
    let bundles: Vec<(&str, &str)> = bundles.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let mut q = query(model(&channel, &bundles));
    q.installed = installed_at("a", "1.0.0", "");
    assert_eq!(chosen(&q), "d");
    // From b only e is a successor; from e nothing is, so e stays put.
    q.installed = installed_at("b", "1.1.0", "");
    assert_eq!(chosen(&q), "e");
    q.installed = installed_at("e", "9.0.0", "");
    assert_eq!(chosen(&q), "e");
    // SelfCertified ignores the edges: the highest, even a downgrade.
    q.upgrade_constraint_policy = UpgradeConstraintPolicy::SelfCertified;
    q.version_range = ranged("<2");
    assert_eq!(chosen(&q), "d");
}

#[test]
fn a_skipped_entry_is_still_an_edge_and_an_invalid_skip_range_is_none() {
    // OLM v0 would strand a (b is skipped by c); OLM v1 reads every entry's own edges.
    let channel = format!(
        "{STABLE}- {{name: a}}\n- {{name: b, replaces: a}}\n- {{name: c, replaces: b, skips: [b]}}\n\
         - {{name: d, skipRange: '<2.0.0 ||'}}\n"
    );
    let bundles = [("a", "version: 1.0.0"), ("b", "version: 1.1.0"), ("c", "version: 1.2.0"), ("d", "version: 2.0.0")];
    let mut q = query(model(&channel, &bundles));
    q.installed = installed_at("a", "1.0.0", "");
    assert_eq!(chosen(&q), "b");
}

#[test]
fn release_comes_from_the_release_field_or_else_the_build_metadata() {
    let channel = format!("{STABLE}- {{name: plain}}\n- {{name: build1}}\n- {{name: release2}}\n- {{name: build01}}\n");
    let bundles = [
        ("plain", "version: 1.0.0"),
        ("build1", "version: 1.0.0+1"),
        ("release2", "version: 1.0.0, release: '2'"),
        // Not a valid release (leading zero): kept as build metadata, equal to plain 1.0.0.
        ("build01", "version: 1.0.0+01"),
    ];
    let mut q = query(model(&channel, &bundles));
    assert_eq!(chosen(&q), "release2");
    // Staying put needs the same (version, release).
    q.installed = installed_at("other", "1.0.0+1", "");
    assert_eq!(chosen(&q), "build1");
    q.installed = installed_at("other", "1.0.0", "2");
    assert_eq!(chosen(&q), "release2");
    q.installed = installed_at("other", "1.0.0", "");
    assert_eq!(chosen(&q), "plain");
}

#[test]
fn only_bundle_deprecations_count() {
    let deprecations = "---\nschema: olm.deprecations\npackage: p\nentries:\n\
        - {reference: {schema: olm.package}, message: gone}\n\
        - {reference: {schema: olm.channel, name: stable}, message: gone}\n\
        - {reference: {schema: olm.bundle, name: b}, message: gone}\n";
    let channel = format!("{STABLE}- {{name: a}}\n- {{name: b, replaces: a}}\n{deprecations}");
    let q = query(model(&channel, &[("a", "version: 1.0.0"), ("b", "version: 2.0.0")]));
    match select(&q) {
        Ok(pick) => assert_eq!((pick.bundle.as_str(), pick.deprecated), ("a", false)),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn prereleases_match_only_ranges_that_name_one() {
    let channel = format!("{STABLE}- {{name: a}}\n- {{name: b}}\n");
    let mut q = query(model(&channel, &[("a", "version: 1.0.0"), ("b", "version: 2.0.0-rc.1")]));
    assert_eq!(chosen(&q), "b");
    q.version_range = ranged(">=1.0.0");
    assert_eq!(chosen(&q), "a");
    q.version_range = ranged(">=2.0.0-0");
    assert_eq!(chosen(&q), "b");
}

#[test]
fn an_invalid_version_sorts_last_and_matches_no_range() {
    let channel = format!("{STABLE}- {{name: bad}}\n- {{name: good}}\n");
    let mut q = query(model(&channel, &[("bad", "version: v9.0.0"), ("good", "version: 1.0.0")]));
    assert_eq!(chosen(&q), "good");
    q.channels = vec!["stable".to_string()];
    q.catalogs[0].model = model(&format!("{STABLE}- {{name: bad}}\n"), &[("bad", "version: v9.0.0")]);
    match select(&q) {
        Ok(pick) => assert_eq!((pick.bundle.as_str(), pick.version.as_str()), ("bad", "v9.0.0")),
        Err(e) => panic!("{e}"),
    }
    q.version_range = ranged("*");
    assert_eq!(chosen(&q), r#"error: no bundles found for package "p" matching version "*" in channels [stable]"#);
}

#[test]
fn errors_come_in_operator_controllers_order() {
    let mut q = query(model(&format!("{STABLE}- {{name: a}}\n"), &[("a", "version: 1.0.0")]));
    q.installed = installed_at("a", "1.0.0", "!");
    q.version_range = ranged("foobar");
    assert_eq!(chosen(&q), r#"error: desired version range "foobar" is invalid: improper constraint: "foobar""#);
    q.version_range = None;
    assert_eq!(
        chosen(&q),
        "error: error walking catalogs: error finding upgrade edges: failed to get version and release of \
         installed bundle: invalid release \"!\": segment 0: Invalid character(s) found in prerelease \"!\""
    );
    // Only catalogs that are available and have the package are read.
    q.catalogs[0].model = Arc::new(Model::default());
    assert_eq!(
        chosen(&q),
        r#"error: error upgrading from currently installed version "1.0.0": no bundles found for package "p""#
    );
}
