//! What a catalog update changes, and whether it keeps OLM's update promises (seeds 004,
//! §2.4.3.1.2–2.4.3.1.4): every version installed from the old catalog still has a single way to
//! the head in the new one, a bad release that was never installed is never installed later, and
//! z-stream releases lead to the newest patch.
//!
//! [`diff`] reads two models and returns a [`CatalogDiff`]: the changes package by package
//! (`changes.rs`), an update-safety row for every (package, channel, installed version) of the old
//! catalog with where OLM v0 and v1 take it in each catalog (`safety.rs`), and the broken
//! promises as `Diagnostic`s with `update-*` codes (`safety.rs`, and `apis.rs` for provided APIs
//! still required elsewhere). `text.rs` prints it. Plain serialisable values; nothing is printed
//! or read from files here.

mod apis;
mod changes;
mod crd_blocked;
mod fix;
mod locate;
mod safety;
mod stranded_cause;
mod text;

#[cfg(test)]
mod testing;

pub use crd_blocked::Blocked;
use serde::Serialize;

use crate::diagnostic::{sort_diagnostics, Diagnostic, Severity};
use crate::graph::GraphEdge;
use crate::model::Model;

/// What to compare.
#[derive(Debug, Clone, Default)]
pub struct DiffOptions {
    /// Only this package (changes, rows and findings about it).
    pub package: Option<String>,
}

/// How a package, channel or bundle changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// Only in the new catalog.
    Added,
    /// Only in the old catalog.
    Removed,
    /// In both, different.
    Changed,
}

/// A value before and after (`None` when unset or absent on that side).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValueChange {
    /// In the old catalog.
    pub old: Option<String>,
    /// In the new catalog.
    pub new: Option<String>,
}

impl ValueChange {
    /// `Some` when `old` and `new` differ.
    pub fn of(old: Option<String>, new: Option<String>) -> Option<ValueChange> {
        (old != new).then_some(ValueChange { old, new })
    }
}

/// The whole comparison of two catalogs. In JSON, a finding with a fix carries it as `fix`, and
/// `pathsChanged` (after `findings`) says whether some installed version's path changes
/// ([`CatalogDiff::paths_changed`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CatalogDiff {
    /// Packages that differ, by name.
    pub packages: Vec<PackageChange>,
    /// Broken update promises, sorted (errors and warnings with `update-*` codes).
    pub findings: Vec<Diagnostic>,
    /// For each finding (same index), the edit that fixes it when the diff knows one: the JSON
    /// operation `olm-catalog edit CATALOG json --op` takes (a `setEdges` adding to an entry's
    /// skips), checked to work where it frees stranded users.
    pub fixes: Vec<Option<String>>,
    /// Update safety of every package of the old catalog, by name.
    pub safety: Vec<PackageSafety>,
}

impl Serialize for CatalogDiff {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        #[derive(Serialize)]
        struct Finding<'a> {
            #[serde(flatten)]
            finding: &'a Diagnostic,
            #[serde(skip_serializing_if = "Option::is_none")]
            fix: Option<&'a str>,
        }
        let findings: Vec<Finding> = self
            .findings
            .iter()
            .enumerate()
            .map(|(i, finding)| Finding { finding, fix: self.fixes.get(i).and_then(|f| f.as_deref()) })
            .collect();
        let mut out = s.serialize_struct("CatalogDiff", 4)?;
        out.serialize_field("packages", &self.packages)?;
        out.serialize_field("findings", &findings)?;
        out.serialize_field("pathsChanged", &self.paths_changed())?;
        out.serialize_field("safety", &self.safety)?;
        out.end()
    }
}

impl CatalogDiff {
    /// Nothing changed and nothing was found.
    pub fn is_empty(&self) -> bool {
        self.packages.is_empty() && self.findings.is_empty()
    }

    /// The update-safety rows to show: those whose route changed or that have findings. When
    /// there are none, no installed version's path changes.
    pub fn changed_rows(&self) -> impl Iterator<Item = (&str, &SafetyRow)> {
        self.safety
            .iter()
            .flat_map(|s| s.rows.iter().map(move |r| (s.package.as_str(), r)))
            .filter(|(_, r)| r.changed || !r.findings.is_empty())
    }

    /// Whether some installed version's path changes (or has a finding); `pathsChanged` in JSON.
    pub fn paths_changed(&self) -> bool {
        self.changed_rows().next().is_some()
    }

    /// Whether some finding is an error (a broken update promise).
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(Diagnostic::is_error)
    }

    /// How many findings are errors and how many warnings (notes are neither).
    pub fn counts(&self) -> (usize, usize) {
        let count = |s| self.findings.iter().filter(|d| d.severity == s).count();
        (count(Severity::Error), count(Severity::Warning))
    }
}

/// How one package changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackageChange {
    /// The package.
    pub name: String,
    /// Added, removed or changed.
    pub kind: ChangeKind,
    /// The default channel, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_channel: Option<ValueChange>,
    /// The package's deprecation message, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecation: Option<ValueChange>,
    /// The description or the icon changed.
    pub metadata_changed: bool,
    /// Channels that differ, by name.
    pub channels: Vec<ChannelChange>,
    /// Bundles that differ, by name.
    pub bundles: Vec<BundleChange>,
}

/// How one channel changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelChange {
    /// The channel.
    pub name: String,
    /// Added, removed or changed.
    pub kind: ChangeKind,
    /// The head, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<ValueChange>,
    /// Entries only in the new channel, in its entry order.
    pub entries_added: Vec<String>,
    /// Entries only in the old channel, in its entry order.
    pub entries_removed: Vec<String>,
    /// Upgrade edges only in the new channel.
    pub edges_added: Vec<GraphEdge>,
    /// Upgrade edges only in the old channel.
    pub edges_removed: Vec<GraphEdge>,
    /// The channel's deprecation message, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecation: Option<ValueChange>,
}

/// How one bundle changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BundleChange {
    /// The bundle.
    pub name: String,
    /// Added, removed or changed.
    pub kind: ChangeKind,
    /// The version (with release), on the side where the bundle is (the new one when both).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The names of the fields that changed: `version`, `image`, `properties`, `relatedImages`,
    /// `edges`, `deprecation`.
    pub fields: Vec<&'static str>,
    /// The image, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<ValueChange>,
    /// Properties added and removed, by type.
    pub properties: Vec<PropertyChange>,
    /// Related images (`name=image`, or the image) only in the new bundle.
    pub related_images_added: Vec<String>,
    /// Related images only in the old bundle.
    pub related_images_removed: Vec<String>,
    /// Its entries' edges that changed, per channel listing it on both sides.
    pub edges: Vec<EntryChange>,
    /// The deprecation message, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecation: Option<ValueChange>,
}

/// A property type whose values differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PropertyChange {
    /// The property type (`olm.gvk`).
    #[serde(rename = "type")]
    pub type_: String,
    /// How many values only the new bundle has.
    pub added: usize,
    /// How many values only the old bundle has.
    pub removed: usize,
    /// The values added, as compact JSON (left empty for manifests: `olm.bundle.object`,
    /// `olm.csv.metadata`).
    pub values_added: Vec<String>,
    /// The values removed, as compact JSON (empty for manifests).
    pub values_removed: Vec<String>,
}

/// One field of a bundle's entry in one channel, before and after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EntryChange {
    /// The channel.
    pub channel: String,
    /// `replaces`, `skips` or `skipRange`.
    pub field: &'static str,
    /// Before and after (`skips` joined with `, `).
    #[serde(flatten)]
    pub change: ValueChange,
}

/// The update-safety rows of one package of the old catalog.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackageSafety {
    /// The package.
    pub package: String,
    /// Whether the package differs between the catalogs.
    pub changed: bool,
    /// One row per (channel, entry) of the old catalog, channels by name, entries in order.
    pub rows: Vec<SafetyRow>,
}

/// Where OLM takes one installed version, in the old catalog and in the new one.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SafetyRow {
    /// The channel subscribed to.
    pub channel: String,
    /// The installed bundle (an entry of the old channel).
    pub installed: String,
    /// Its version, when known.
    pub version: Option<String>,
    /// In the old catalog.
    pub old: Routes,
    /// In the new catalog; `None` when the channel (or the package) is gone.
    pub new: Option<Routes>,
    /// Whether a route differs between the catalogs.
    pub changed: bool,
    /// The codes of the findings about this row.
    pub findings: Vec<crate::diagnostic::Code>,
    /// When OLM v1's next step in the new catalog fails the CRD Upgrade Safety preflight: the
    /// refused step and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked: Option<Blocked>,
}

/// The routes of OLM v0 and OLM v1 from one installed version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Routes {
    /// OLM v0: one edge per resolution, the closest to the head.
    pub v0: Route,
    /// OLM v1: the highest direct successor.
    pub v1: Route,
}

/// Where one OLM takes an installed version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Route {
    /// The first upgrade, if any.
    pub next: Option<String>,
    /// Every bundle upgraded to, in order.
    pub path: Vec<String>,
    /// The channel head.
    pub head: Option<String>,
    /// No path reaches the head.
    pub stranded: bool,
    /// Why, when stranded (or why no path could be computed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Compare `old` with `new`: changes, update-safety rows and findings.
pub fn diff(old: &Model, new: &Model) -> CatalogDiff {
    diff_with(old, new, &DiffOptions::default())
}

/// [`diff`], with options.
pub fn diff_with(old: &Model, new: &Model, options: &DiffOptions) -> CatalogDiff {
    let wanted = |name: &str| options.package.as_deref().is_none_or(|p| p == name);
    let packages: Vec<PackageChange> = changes::packages(old, new).into_iter().filter(|p| wanted(&p.name)).collect();
    let mut findings = Vec::new();
    let mut fixed = Vec::new();
    let mut safety: Vec<PackageSafety> = Vec::new();
    let mut crds = crate::crd_safety::CrdStore::new();
    for p in old.packages.iter().filter(|p| wanted(&p.name)) {
        let changed = packages.iter().any(|c| c.name == p.name);
        let (mut s, mut found, mut fixes) = safety::package(p, new.package(&p.name), changed);
        if let Some(np) = new.package(&p.name) {
            crd_blocked::mark(&mut crds, p, np, &mut s.rows);
        }
        safety.push(s);
        findings.append(&mut found);
        fixed.append(&mut fixes);
    }
    findings.extend(apis::dropped(old, new).into_iter().filter(|(p, _)| wanted(p)).map(|(_, d)| d));
    sort_diagnostics(&mut findings);
    let fixes = findings.iter().map(|f| fixed.iter().find(|(d, _)| d == f).map(|(_, op)| op.clone())).collect();
    CatalogDiff { packages, findings, fixes, safety }
}

pub use text::to_text;

/// The update promises on the seeds' figures (OpenShift docs §2.4.3.1.2–4) and small variations:
/// an old and a new catalog of package `foo` (entry `foo.vX.Y.Z` is a bundle of version X.Y.Z),
/// and the findings the update yields.
#[cfg(test)]
mod tests {
    use super::testing::Catalog;
    use super::*;
    use crate::diagnostic::Code;

    fn one(entries: &str) -> Model {
        Catalog::new().channel("foo", "stable", entries).build()
    }

    /// (code, the first quoted name in the message) of every finding.
    fn found(old: &Model, new: &Model) -> Vec<(Code, String)> {
        diff(old, new)
            .findings
            .iter()
            .map(|d| (d.code, d.message.split('"').nth(1).unwrap_or_default().to_string()))
            .collect()
    }

    fn row<'d>(d: &'d CatalogDiff, installed: &str) -> &'d SafetyRow {
        d.safety.iter().flat_map(|s| &s.rows).find(|r| r.installed == installed).expect("a row")
    }

    const CHAIN: &str = "
        - name: foo.v1.0.0
        - name: foo.v1.1.0
          replaces: foo.v1.0.0
        - name: foo.v1.2.0
          replaces: foo.v1.1.0
    ";

    #[test]
    fn a_catalog_compared_with_itself_is_empty() {
        let m = one(CHAIN);
        let d = diff(&m, &m);
        assert!(d.is_empty(), "{d:#?}");
        assert!(d.safety[0].rows.iter().all(|r| !r.changed));
        assert_eq!(d.safety[0].rows.len(), 3);
        // JSON says what the text's "update safety: no installed version's path changes" says.
        let json = serde_json::to_value(&d).expect("json");
        assert_eq!((json["pathsChanged"].as_bool(), json["findings"].as_array().map(Vec::len)), (Some(false), Some(0)));
        assert!(to_text(&d).starts_with("update safety: no installed version's path changes\n"));
    }

    mod skipping_updates {
        //! Figure 2.6: 0.9.1 is bad; the new catalog adds 0.9.2, which replaces 0.9.0 and skips
        //! 0.9.1, so users on either get one update and nobody installs 0.9.1 any more.
        use super::*;

        fn old() -> Model {
            one("
                - name: etcd.v0.9.0
                - name: etcd.v0.9.1
                  replaces: etcd.v0.9.0
            ")
        }

        #[test]
        fn skipping_the_bad_release_keeps_every_promise() {
            let new = one("
                - name: etcd.v0.9.0
                - name: etcd.v0.9.1
                  replaces: etcd.v0.9.0
                - name: etcd.v0.9.2
                  replaces: etcd.v0.9.0
                  skips: [etcd.v0.9.1]
            ");
            let d = diff(&old(), &new);
            assert_eq!(d.findings, []);
            let r = row(&d, "etcd.v0.9.0");
            assert_eq!(r.old.v0.next.as_deref(), Some("etcd.v0.9.1"));
            let n = r.new.as_ref().unwrap();
            assert_eq!((n.v0.next.as_deref(), n.v1.next.as_deref()), (Some("etcd.v0.9.2"), Some("etcd.v0.9.2")));
            assert_eq!(row(&d, "etcd.v0.9.1").new.as_ref().unwrap().v0.path, ["etcd.v0.9.2"]);
            let c = &d.packages[0].channels[0];
            assert_eq!(c.head.as_ref().unwrap().new.as_deref(), Some("etcd.v0.9.2"));
            assert_eq!(c.edges_added.len(), 2);
        }

        #[test]
        fn the_skipped_release_may_be_a_virtual_node() {
            // §2.4.3.1.4: unavailable releases are virtual nodes; skipping by name is enough.
            let new = one("
                - name: etcd.v0.9.0
                - name: etcd.v0.9.2
                  replaces: etcd.v0.9.0
                  skips: [etcd.v0.9.1]
            ");
            let d = diff(&old(), &new);
            assert_eq!(d.findings, []);
            assert_eq!(row(&d, "etcd.v0.9.1").new.as_ref().unwrap().v0.next.as_deref(), Some("etcd.v0.9.2"));
        }

        #[test]
        fn upgrading_through_the_release_once_it_is_deprecated_is_a_warning() {
            let new = Catalog::new()
                .channel(
                    "foo",
                    "stable",
                    "
                    - name: etcd.v0.9.0
                    - name: etcd.v0.9.1
                      replaces: etcd.v0.9.0
                    - name: etcd.v0.9.2
                      replaces: etcd.v0.9.1
                    ",
                )
                .deprecate("foo", "etcd.v0.9.1")
                .build();
            let d = diff(&old(), &new);
            assert_eq!(found(&old(), &new), [(Code::UpdatePathThroughDeprecated, "stable".into())]);
            assert!(d.findings[0].message.contains("OLM v0 and v1 now upgrades \"etcd.v0.9.0\" through \"etcd.v0.9.1\", which is deprecated (do not use etcd.v0.9.1)"), "{}", d.findings[0].message);
            assert_eq!((d.findings[0].location.line, d.findings[0].location.pointer.as_str()), (10, "/entries/1/name"));
            // The fix names the entry after it and the edit, and is offered as an operation.
            assert!(
                d.findings[0].message.ends_with("; add \"etcd.v0.9.0\" to the skips of \"etcd.v0.9.2\""),
                "{}",
                d.findings[0].message
            );
            assert_eq!(
                d.fixes,
                [Some(r#"{"op":"setEdges","package":"foo","channel":"stable","bundle":"etcd.v0.9.2","skips":["etcd.v0.9.0"]}"#.to_string())]
            );
        }

        #[test]
        fn a_release_newly_skipped_names_every_user_to_skip_from_the_entry_after_it() {
            // clusterpulse: 0.3.0 replaces and skips 0.2.3, which 0.1.1–0.2.2 upgrade to.
            let old = one("
                - name: foo.v0.1.1
                - name: foo.v0.2.0
                - name: foo.v0.2.1
                - name: foo.v0.2.2
                - name: foo.v0.2.3
                  replaces: foo.v0.1.1
                  skips: [foo.v0.1.1, foo.v0.2.0, foo.v0.2.1, foo.v0.2.2]
            ");
            let new = one("
                - name: foo.v0.1.1
                - name: foo.v0.2.0
                - name: foo.v0.2.1
                - name: foo.v0.2.2
                - name: foo.v0.2.3
                  replaces: foo.v0.1.1
                  skips: [foo.v0.1.1, foo.v0.2.0, foo.v0.2.1, foo.v0.2.2]
                - name: foo.v0.3.0
                  replaces: foo.v0.2.3
                  skips: [foo.v0.2.3]
            ");
            let d = diff(&old, &new);
            let i = d.findings.iter().position(|f| f.code == Code::UpdatePathThroughDeprecated).expect("found");
            assert!(
                d.findings[i]
                    .message
                    .ends_with("; add \"foo.v0.1.1\" … \"foo.v0.2.2\" (4 entries) to the skips of \"foo.v0.3.0\""),
                "{}",
                d.findings[i].message
            );
            assert_eq!(
                d.fixes[i].as_deref(),
                Some(
                    r#"{"op":"setEdges","package":"foo","channel":"stable","bundle":"foo.v0.3.0","skips":["foo.v0.2.3","foo.v0.1.1","foo.v0.2.0","foo.v0.2.1","foo.v0.2.2"]}"#
                )
            );
            // Each stranded user gets its own fix, in the words validate uses.
            let stranded: Vec<&Option<String>> = d
                .findings
                .iter()
                .zip(&d.fixes)
                .filter(|(f, _)| f.code == Code::UpdateNewlyStranded)
                .map(|(_, x)| x)
                .collect();
            assert_eq!(stranded.len(), 4);
            assert_eq!(
                stranded[1].as_deref(),
                Some(
                    r#"{"op":"setEdges","package":"foo","channel":"stable","bundle":"foo.v0.3.0","skips":["foo.v0.2.3","foo.v0.2.0"]}"#
                )
            );
            // In JSON, a finding carries its fix.
            let json = serde_json::to_value(&d).expect("json");
            assert_eq!(json["findings"][i]["fix"].as_str(), d.fixes[i].as_deref());
            assert_eq!(json["findings"][i]["code"], "update-path-through-deprecated");
            assert_eq!(json["pathsChanged"], true);
        }
    }

    mod z_stream {
        //! Figure 2.7: z-stream releases of the old catalog update to the newest z-stream release.
        use super::*;

        const OLD: &str = "
            - name: foo.v1.0.0
            - name: foo.v1.0.1
              replaces: foo.v1.0.0
            - name: foo.v1.0.2
              replaces: foo.v1.0.1
              skipRange: '>=1.0.0 <1.0.2'
        ";

        #[test]
        fn a_patch_covering_every_earlier_patch_converges() {
            let new = one(&format!("{OLD}\n            - name: foo.v1.0.3\n              replaces: foo.v1.0.2\n              skipRange: '>=1.0.0 <1.0.3'"));
            assert_eq!(found(&one(OLD), &new), []);
        }

        #[test]
        fn a_routine_release_appended_after_the_old_path_is_quiet() {
            // 1.0.0 and 1.0.1 still go to 1.0.2, then on to 1.0.3: nobody's path got worse.
            let new = one(&format!("{OLD}\n            - name: foo.v1.0.3\n              replaces: foo.v1.0.2"));
            assert_eq!(found(&one(OLD), &new), []);
            let chain = CHAIN.replace("1.1.0", "1.0.1").replace("1.2.0", "1.0.2");
            let appended = one(&format!("{chain}\n        - name: foo.v1.0.3\n          replaces: foo.v1.0.2"));
            assert_eq!(found(&one(&chain), &appended), []);
        }

        #[test]
        fn dropping_the_skip_range_makes_earlier_patches_newly_lag_a_note() {
            let new = one(&OLD.replace("skipRange: '>=1.0.0 <1.0.2'", ""));
            assert_eq!(found(&one(OLD), &new), [(Code::UpdateZStreamNotConverging, "foo.v1.0.0".to_string())]);
            let d = diff(&one(OLD), &new);
            assert_eq!(d.findings[0].severity, crate::diagnostic::Severity::Note);
            assert_eq!(d.counts(), (0, 0));
            assert_eq!(
                d.findings[0].message,
                "users on \"foo.v1.0.0\" (version 1.0.0) in channel \"stable\" of package \"foo\" upgrade first to \"foo.v1.0.1\" with OLM v0 and v1, not to the newest 1.0 patch \"foo.v1.0.2\" (version 1.0.2): give \"foo.v1.0.2\" a skipRange like \">=1.0.0 <1.0.2\""
            );
            assert_eq!(
                d.fixes[0].as_deref(),
                Some(
                    r#"{"op":"setEdges","package":"foo","channel":"stable","bundle":"foo.v1.0.2","skipRange":">=1.0.0 <1.0.2"}"#
                )
            );
        }

        #[test]
        fn a_patch_inserted_into_a_path_that_already_lagged_makes_it_longer() {
            let old = one("
                - name: foo.v1.0.0
                - name: foo.v1.0.1
                  replaces: foo.v1.0.0
                - name: foo.v1.0.3
                  replaces: foo.v1.0.1
            ");
            let new = one("
                - name: foo.v1.0.0
                - name: foo.v1.0.1
                  replaces: foo.v1.0.0
                - name: foo.v1.0.2
                  replaces: foo.v1.0.1
                - name: foo.v1.0.3
                  replaces: foo.v1.0.2
            ");
            // 1.0.0 took 2 steps to 1.0.3 and now takes 3; 1.0.1 newly stops at 1.0.2 first.
            assert_eq!(
                found(&old, &new),
                [
                    (Code::UpdateZStreamNotConverging, "foo.v1.0.0".into()),
                    (Code::UpdateZStreamNotConverging, "foo.v1.0.1".into())
                ]
            );
        }
    }

    mod replaces_chains {
        use super::*;

        #[test]
        fn removing_the_tail_with_nothing_upgrading_from_it_strands_its_users() {
            let new = one("
                - name: foo.v1.1.0
                - name: foo.v1.2.0
                  replaces: foo.v1.1.0
            ");
            let d = diff(&one(CHAIN), &new);
            assert_eq!(found(&one(CHAIN), &new), [(Code::UpdateReleaseRemoved, "foo.v1.0.0".into())]);
            let f = &d.findings[0];
            assert_eq!((f.location.line, f.location.pointer.as_str()), (5, ""));
            assert_eq!(f.related[0].message, "the removed entry (in the old catalog)");
            assert_eq!(row(&d, "foo.v1.0.0").findings, [Code::UpdateReleaseRemoved]);
            assert!(f.message.ends_with(": add \"foo.v1.0.0\" to the skips of \"foo.v1.1.0\""), "{}", f.message);
        }

        #[test]
        fn a_removed_release_is_to_be_skipped_by_the_next_higher_entry() {
            // multi-nic-cni-operator: 1.2.7 is removed and 1.2.8 now replaces 1.2.2.
            let old = one("
                - name: foo.v1.2.2
                - name: foo.v1.2.7
                  replaces: foo.v1.2.2
                - name: foo.v1.2.8
                  replaces: foo.v1.2.7
                - name: foo.v1.2.9
                  replaces: foo.v1.2.8
            ");
            let new = one("
                - name: foo.v1.2.2
                - name: foo.v1.2.8
                  replaces: foo.v1.2.2
                - name: foo.v1.2.9
                  replaces: foo.v1.2.8
            ");
            let d = diff(&old, &new);
            assert_eq!(found(&old, &new), [(Code::UpdateReleaseRemoved, "foo.v1.2.7".into())]);
            assert_eq!(
                d.findings[0].message,
                "\"foo.v1.2.7\" (version 1.2.7) was removed from channel \"stable\" of package \"foo\", but users on it reached the head with OLM v0 and v1 in the old catalog and nothing in the new channel upgrades from it: add \"foo.v1.2.7\" to the skips of \"foo.v1.2.8\""
            );
            assert_eq!(
                d.fixes,
                [Some(r#"{"op":"setEdges","package":"foo","channel":"stable","bundle":"foo.v1.2.8","skips":["foo.v1.2.7"]}"#.to_string())]
            );
            let text = to_text(&d);
            assert!(text.contains("\n  fix: olm-catalog edit CATALOG json --op '{\"op\":\"setEdges\",\"package\":\"foo\",\"channel\":\"stable\",\"bundle\":\"foo.v1.2.8\",\"skips\":[\"foo.v1.2.7\"]}'\n"), "{text}");
        }

        #[test]
        fn pruning_with_a_skip_range_is_fine() {
            let new = one("
                - name: foo.v1.2.0
                  skipRange: '<1.2.0'
            ");
            assert_eq!(found(&one(CHAIN), &new), []);
        }

        #[test]
        fn removing_the_head_moves_it_backwards() {
            let new = one("
                - name: foo.v1.0.0
                - name: foo.v1.1.0
                  replaces: foo.v1.0.0
            ");
            let d = diff(&one(CHAIN), &new);
            assert_eq!(found(&one(CHAIN), &new), [(Code::UpdateHeadBackwards, "stable".into())]);
            assert!(d.findings[0].message.ends_with("from \"foo.v1.2.0\" (version 1.2.0) to \"foo.v1.1.0\" (version 1.1.0): OLM v0 and v1 leave users on the old head where they are, above the head, with no more updates; new subscriptions start at \"foo.v1.1.0\". Keep \"foo.v1.2.0\" as the head, or give the new head a version above 1.2.0"), "{}", d.findings[0].message);
            assert!(d.has_errors());
        }

        #[test]
        fn a_lower_version_replacing_the_head_is_a_downgrade_by_olm() {
            // hive-operator: 0.0.5230 replaces 1.2.5228; OLM follows the edge, not the versions.
            let old = one("
                - name: foo.v1.2.5228
            ");
            let new = one("
                - name: foo.v1.2.5228
                - name: foo.v0.0.5230
                  replaces: foo.v1.2.5228
            ");
            let d = diff(&old, &new);
            assert_eq!(found(&old, &new), [(Code::UpdateHeadBackwards, "stable".into())]);
            assert!(d.findings[0].message.ends_with(": OLM v0 and v1 take users on the old head down to \"foo.v0.0.5230\" (version 0.0.5230), a downgrade; new subscriptions start at \"foo.v0.0.5230\". Keep \"foo.v1.2.5228\" as the head, or give the new head a version above 1.2.5228"), "{}", d.findings[0].message);
            assert!(!d.findings[0].message.contains("never downgrades"));
        }

        #[test]
        fn a_pre_release_of_the_old_heads_version_says_why_it_is_lower() {
            // slurm-operator: 1.0.1-1 after 1.0.1 meant a rebuild; "-1" is a pre-release.
            let old = one("
                - name: foo.v1.0.1
            ");
            let new = one("
                - name: foo.v1.0.1
                - name: foo.v1.0.1-1
                  replaces: foo.v1.0.1
            ");
            let d = diff(&old, &new);
            assert_eq!(found(&old, &new), [(Code::UpdateHeadBackwards, "stable".into())]);
            assert!(d.findings[0].message.ends_with(". The \"-1\" makes 1.0.1-1 a pre-release of 1.0.1, lower in semver; a rebuild of 1.0.1 is 1.0.1+1 (build metadata) or 1.0.2"), "{}", d.findings[0].message);
        }

        #[test]
        fn skipping_the_only_successor_strands_for_olm_v0() {
            let new = one("
                - name: foo.v1.0.0
                - name: foo.v1.1.0
                  replaces: foo.v1.0.0
                - name: foo.v1.2.0
                  replaces: foo.v1.1.0
                  skips: [foo.v1.1.0]
            ");
            let got = found(&one(CHAIN), &new);
            assert_eq!(
                got,
                [
                    (Code::UpdateNewlyStranded, "foo.v1.0.0".into()),
                    (Code::UpdatePathThroughDeprecated, "stable".into()),
                ]
            );
            let d = diff(&one(CHAIN), &new);
            assert_eq!(
                d.findings[0].message,
                "users on \"foo.v1.0.0\" (version 1.0.0) in channel \"stable\" of package \"foo\" reached the head with OLM v0 in the old catalog, but are stranded in the new one: only \"foo.v1.1.0\" upgrades \"foo.v1.0.0\", and OLM v0 never installs it: \"foo.v1.2.0\" skips \"foo.v1.1.0\", so OLM v0 drops it; add \"foo.v1.0.0\" to the skips of \"foo.v1.2.0\""
            );
        }

        #[test]
        fn a_release_upgraded_only_by_a_skipped_entry_names_who_skips_it() {
            // 1.1.0 is off the chain (1.3.0 skips it); 1.0.0's only upgrade is 1.1.0.
            let old = one("
                - name: foo.v1.0.0
                - name: foo.v1.1.0
                  replaces: foo.v1.0.0
                - name: foo.v1.2.0
                  replaces: foo.v1.1.0
            ");
            let new = one("
                - name: foo.v1.0.0
                - name: foo.v1.1.0
                  replaces: foo.v1.0.0
                - name: foo.v1.2.0
                - name: foo.v1.3.0
                  replaces: foo.v1.2.0
                  skips: [foo.v1.1.0]
            ");
            let d = diff(&old, &new);
            let f = d.findings.iter().find(|f| f.code == Code::UpdateNewlyStranded).expect("found");
            assert!(f.message.ends_with(": only \"foo.v1.1.0\" upgrades \"foo.v1.0.0\", and OLM v0 never installs it: \"foo.v1.3.0\" skips \"foo.v1.1.0\", so OLM v0 drops it; add \"foo.v1.0.0\" to the skips of \"foo.v1.3.0\""), "{}", f.message);
        }

        #[test]
        fn a_second_replacement_is_reported() {
            let new = one("
                - name: foo.v1.0.0
                - name: foo.v1.1.0
                  replaces: foo.v1.0.0
                - name: foo.v1.2.0
                  replaces: foo.v1.1.0
                - name: foo.v1.1.5
                  replaces: foo.v1.0.0
                - name: foo.v1.3.0
                  replaces: foo.v1.1.5
                - name: foo.v1.4.0
                  replaces: foo.v1.3.0
                  skips: [foo.v1.2.0]
            ");
            let d = diff(&one(CHAIN), &new);
            let m = d.findings.iter().find(|f| f.code == Code::UpdateMultipleReplacements).expect("found");
            assert!(m.message.starts_with("\"foo.v1.0.0\" has 2 replacements in channel \"stable\" of package \"foo\": \"foo.v1.1.0\", \"foo.v1.1.5\""), "{}", m.message);
            assert_eq!(m.location.pointer, "/entries/3/replaces");
        }
    }

    mod channels_and_packages {
        use super::*;

        #[test]
        fn removing_the_default_channel_is_an_error_at_the_new_default() {
            let old = Catalog::new().channel("foo", "stable", CHAIN).channel("foo", "fast", CHAIN).build();
            let new = Catalog::new().channel("foo", "fast", CHAIN).build();
            let d = diff(&old, &new);
            assert_eq!(d.findings.len(), 1);
            assert_eq!(d.findings[0].code, Code::UpdateChannelRemoved);
            assert_eq!(
                d.findings[0].message,
                "channel \"stable\" of package \"foo\" is gone from the new catalog: users subscribed to it on any of its 3 entries get no more updates. It looks like a rename to \"fast\", which holds every entry of it: users must change their Subscription's channel to \"fast\" to keep getting updates. It was the default channel; the new default is \"fast\"."
            );
            assert!(!d.findings[0].message.contains("installed versions subscribe"));
            assert_eq!(d.findings[0].location.pointer, "/defaultChannel");
            let p = &d.packages[0];
            assert_eq!(p.default_channel.as_ref().unwrap().new.as_deref(), Some("fast"));
            assert_eq!(p.channels[0].kind, ChangeKind::Removed);
        }

        #[test]
        fn a_channel_whose_entries_are_not_all_elsewhere_is_not_called_a_rename() {
            let old = Catalog::new().channel("foo", "stable", CHAIN).channel("foo", "fast", CHAIN).build();
            let new = Catalog::new().channel("foo", "stable", "- name: foo.v1.2.0").build();
            let d = diff(&old, &new);
            let removed = d.findings.iter().find(|f| f.code == Code::UpdateChannelRemoved).expect("found");
            assert_eq!(
                removed.message,
                "channel \"fast\" of package \"foo\" is gone from the new catalog: users subscribed to it on any of its 3 entries get no more updates."
            );
        }

        #[test]
        fn removing_a_package_is_an_error_located_in_the_old_catalog() {
            let old =
                Catalog::new().channel("foo", "stable", CHAIN).channel("bar", "stable", "- name: bar.v1.0.0").build();
            let new = Catalog::new().channel("bar", "stable", "- name: bar.v1.0.0").build();
            let d = diff(&old, &new);
            assert_eq!(d.findings.iter().map(|f| f.code).collect::<Vec<_>>(), [Code::UpdatePackageRemoved]);
            assert!(d.findings[0].message.ends_with(": OLM v0 and v1 leave their users where they are, with no more updates; deprecate the package (olm.deprecations) for a release before removing it, so they are told to move"), "{}", d.findings[0].message);
            assert_eq!(
                d.packages.iter().map(|p| (p.name.as_str(), p.kind)).collect::<Vec<_>>(),
                [("foo", ChangeKind::Removed)]
            );
            let only_bar = diff_with(&old, &new, &DiffOptions { package: Some("bar".into()) });
            assert!(only_bar.is_empty());
        }
    }

    mod bundles {
        use super::*;

        #[test]
        fn changed_fields_are_named_with_properties_by_type() {
            let old = one(CHAIN);
            let new = Catalog::new()
                .channel("foo", "stable", CHAIN)
                .property("foo.v1.2.0", "olm.gvk", "{group: example.com, version: v1, kind: Foo}")
                .build();
            let d = diff(&old, &new);
            let b = &d.packages[0].bundles[0];
            assert_eq!(
                (b.name.as_str(), b.kind, b.fields.clone()),
                ("foo.v1.2.0", ChangeKind::Changed, vec!["properties"])
            );
            assert_eq!(b.properties[0].type_, "olm.gvk");
            assert_eq!(b.properties[0].values_added, [r#"{"group":"example.com","kind":"Foo","version":"v1"}"#]);
            assert_eq!(d.findings, []);
        }

        #[test]
        fn an_api_dropped_while_another_package_requires_it_is_an_error() {
            let gvk = "{group: example.com, version: v1, kind: Foo}";
            let base = || {
                Catalog::new().channel("foo", "stable", CHAIN).channel("bar", "stable", "- name: bar.v1.0.0").property(
                    "bar.v1.0.0",
                    "olm.gvk.required",
                    gvk,
                )
            };
            let old = base().property("foo.v1.2.0", "olm.gvk", gvk).build();
            let new = base().build();
            let d = diff(&old, &new);
            assert_eq!(d.findings.len(), 1, "{:#?}", d.findings);
            let f = &d.findings[0];
            assert_eq!(f.code, Code::UpdateRequiredApiDropped);
            assert!(f.message.starts_with("the head \"foo.v1.2.0\" of channel \"stable\" of package \"foo\" no longer provides the API \"example.com/v1, Kind=Foo\""), "{}", f.message);
            assert!(
                f.message.contains("OLM v0 silently keeps users on the old version")
                    && f.message.contains("OLM v1, which resolves no dependencies, upgrades them"),
                "{}",
                f.message
            );
            assert_eq!(f.related[0].message, "required by \"bar.v1.0.0\" of package \"bar\"");
            // Nobody requires it: no finding.
            let old = Catalog::new().channel("foo", "stable", CHAIN).property("foo.v1.2.0", "olm.gvk", gvk).build();
            assert_eq!(diff(&old, &one(CHAIN)).findings, []);
        }

        #[test]
        fn a_package_range_no_longer_satisfied_is_an_error() {
            let req = "{packageName: foo, versionRange: '>=1.2.0'}";
            let old = Catalog::new()
                .channel("foo", "stable", CHAIN)
                .channel("bar", "stable", "- name: bar.v1.0.0")
                .property("bar.v1.0.0", "olm.package.required", req)
                .build();
            let new = Catalog::new()
                .channel("foo", "stable", CHAIN.replace("1.2.0", "1.1.5").as_str())
                .channel("bar", "stable", "- name: bar.v1.0.0")
                .property("bar.v1.0.0", "olm.package.required", req)
                .build();
            let codes: Vec<Code> = diff(&old, &new).findings.iter().map(|f| f.code).collect();
            assert!(codes.contains(&Code::UpdateRequiredApiDropped), "{codes:?}");
            assert!(codes.contains(&Code::UpdateHeadBackwards), "{codes:?}");
        }
    }
}
