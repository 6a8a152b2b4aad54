//! Validation: every check `opm validate` makes, with opm's verdict and wording, plus lints opm
//! does not have. Loading and model building report their own problems; this module adds opm's
//! aggregated model checks and puts everything into one [`Report`].

mod config;
mod lint;
mod model_checks;
mod session;

pub use crate::lint_config::{default_level, Level, LintConfig, SettingError};
pub use config::{apply_levels, only_new, PackageIndex, Subject};
/// opm's error tree text and OLM v1's readiness lints (crates/lints, compiled for size).
use olm_catalog_lints::error_tree;
#[cfg(feature = "olm-v1-lints")]
use olm_catalog_lints::olm_v1;
pub use session::Session;

use serde::Serialize;

use crate::declcfg::{load_files, FileInput, Loaded};
use crate::diagnostic::{sort_diagnostics, Code, Diagnostic};
use crate::gotext::{quote as q, string_slice_capped, OPM_LIST_CAP};
use crate::model::{self, Model};

use error_tree::ErrorTree;

/// Everything validation found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Whether `opm validate` accepts the catalog: no finding has severity error.
    pub valid: bool,
    /// Every finding, sorted by file, line and column.
    pub diagnostics: Vec<Diagnostic>,
    /// The single error message `opm validate` would print, when invalid (the first problem opm
    /// meets, or its aggregated model-error tree).
    #[serde(skip)]
    pub opm_message: Option<String>,
}

impl Report {
    /// Whether a run passes: valid, and with `deny_warnings` no warning either (notes never
    /// fail a run).
    pub fn passes(&self, deny_warnings: bool) -> bool {
        self.valid && !(deny_warnings && self.diagnostics.iter().any(|d| d.severity == crate::Severity::Warning))
    }
}

/// The model and the findings of a full validation.
#[derive(Debug, Clone)]
pub struct Validated {
    /// The raw catalog and its load findings.
    pub loaded: Loaded,
    /// The checked model (shared: bindings hand it to the resolver without copying).
    pub model: std::sync::Arc<Model>,
    /// The verdict and every finding.
    pub report: Report,
}

/// What to check beyond `opm validate`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Run our lints (warnings); `false` reports exactly what `opm validate` checks.
    pub lints: bool,
    /// Each lint's level and the OLM v1 switch (default: every lint at its default level).
    pub config: LintConfig,
}

impl Default for Options {
    fn default() -> Options {
        Options { lints: true, config: LintConfig::default() }
    }
}

/// Load, build and check a catalog given as in-memory files.
pub fn validate_files(files: &[FileInput]) -> Validated {
    validate_files_with(files, Options::default())
}

/// [`validate_files`] with options.
pub fn validate_files_with(files: &[FileInput], options: Options) -> Validated {
    validate_loaded_with(load_files(files), options)
}

/// Build and check an already loaded catalog.
pub fn validate_loaded(loaded: Loaded) -> Validated {
    validate_loaded_with(loaded, Options::default())
}

/// [`validate_loaded`] with options.
pub fn validate_loaded_with(loaded: Loaded, options: Options) -> Validated {
    let (model, build_diags) = model::build(&loaded.config);
    // Each package's checks and lints are independent: run them in parallel natively.
    let per_package = |p: &model::Package| check_package(p, &options);
    #[cfg(not(target_arch = "wasm32"))]
    let results: Vec<_> = {
        use rayon::prelude::*;
        model.packages.par_iter().map(per_package).collect()
    };
    #[cfg(target_arch = "wasm32")]
    let results: Vec<_> = model.packages.iter().map(per_package).collect();
    let mut tree = ErrorTree::new("invalid index");
    let mut model_diags = Vec::new();
    let mut lints = Vec::new();
    let mut packages = Vec::with_capacity(results.len());
    for (p, (t, d, l)) in model.packages.iter().zip(results) {
        if !t.is_empty() {
            packages.push((p.order, t));
        }
        model_diags.extend(d);
        lints.extend(l);
    }
    // opm's map of packages, each at its place in read order.
    for t in model_checks::go_map_order(model.packages.len(), packages) {
        tree.child(t);
    }
    let opm_message = opm_message(&loaded, &model, &build_diags, &tree);
    let mut diagnostics = loaded.diagnostics.clone();
    diagnostics.extend(build_diags);
    diagnostics.append(&mut model_diags);
    diagnostics.extend(lints);
    apply_levels(&mut diagnostics, &options.config, &PackageIndex::new(&loaded.config));
    sort_diagnostics(&mut diagnostics);
    let valid = !diagnostics.iter().any(Diagnostic::is_error);
    Validated { loaded, model: std::sync::Arc::new(model), report: Report { valid, diagnostics, opm_message } }
}

/// One package's model checks and lints: its node of opm's error tree, its model findings and
/// its lints (levels not yet applied).
fn check_package(p: &model::Package, options: &Options) -> (ErrorTree, Vec<Diagnostic>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let tree = model_checks::package(p, &mut diags);
    let mut lints = Vec::new();
    if options.lints {
        lints.extend(lint::package(p));
        lints.extend(crate::graph::lint::package(p));
        // Without the feature (the browsers' core, which reads no lint configuration, so never
        // asks for them) OLM v1's lints are left out of the module.
        #[cfg(feature = "olm-v1-lints")]
        if options.config.olm_v1 {
            lints.extend(olm_v1::package(p));
        }
    }
    (tree, diags, lints)
}

/// The one message `opm validate` prints: the first load error; else the first conversion error
/// in opm's phase order; else the model-error tree.
///
/// `build_diags` come in opm's phase order, except for dangling channel entries: we report every
/// one (`entry-without-bundle`), while opm only checks the entries of each package's last channel
/// (in blob order) and keeps earlier channels' dangling entries as phantom bundles, whose model
/// errors the tree holds. So when the first conversion error is a dangling entry, opm reports
/// the last channels' dangling entries if there are any, else its next conversion error (a
/// deprecation), else the tree.
fn opm_message(loaded: &Loaded, model: &Model, build_diags: &[Diagnostic], tree: &ErrorTree) -> Option<String> {
    if let Some(d) = loaded.diagnostics.iter().find(|d| d.is_error()) {
        return Some(d.message.clone());
    }
    let mut dangling_checked = false;
    for d in build_diags.iter().filter(|d| d.is_error()) {
        if d.code != Code::EntryWithoutBundle {
            return Some(d.message.clone());
        }
        if !dangling_checked {
            dangling_checked = true;
            if let Some(m) = last_channel_dangling_entries(model) {
                return Some(m);
            }
        }
    }
    (!tree.is_empty()).then(|| tree.render())
}

/// opm's dangling-entry error: the first package whose last channel blob has entries naming no
/// bundle, with those entries' names (at most [`OPM_LIST_CAP`]). opm takes the packages in the
/// order of a Go map whose keys were inserted with each package's first channel blob: the one
/// it takes most often is [`model_checks::go_map_order`]'s first.
fn last_channel_dangling_entries(model: &Model) -> Option<String> {
    let mut slots: Vec<usize> = model.packages.iter().map(first_channel_order).filter(|&o| o != usize::MAX).collect();
    crate::sort::sort(&mut slots);
    let dangling = model
        .packages
        .iter()
        .filter_map(|p| Some((slots.binary_search(&first_channel_order(p)).ok()?, dangling_message(p)?)))
        .collect();
    model_checks::go_map_order(slots.len(), dangling).into_iter().next()
}

/// The dangling-entry error of one package: the entries of its last channel blob that name no
/// bundle (a synthesized default channel has no blob).
fn dangling_message(p: &model::Package) -> Option<String> {
    let last = p.channels.iter().filter(|c| c.source.is_some()).max_by_key(|c| c.order)?;
    let mut names: Vec<String> =
        last.entries.iter().filter(|e| e.bundle.is_none()).map(|e| e.name.value.clone()).collect();
    if names.is_empty() {
        return None;
    }
    crate::sort::sort(&mut names);
    names.dedup();
    Some(format!(
        "no olm.bundle blobs found in package {} for olm.channel entries {}",
        q(&p.name),
        string_slice_capped(&names, OPM_LIST_CAP)
    ))
}

/// Where the package's first `olm.channel` blob was read among all channels (`usize::MAX` when
/// it has none).
fn first_channel_order(p: &model::Package) -> usize {
    p.channels.iter().map(|c| c.order).min().unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A catalog of package `foo` (default channel `stable`) with bundle `foo.v0.1.0`, plus `more`
    /// blobs (one JSON object per line).
    fn foo(more: &str) -> String {
        let mut s = String::from(
            r#"{"schema":"olm.package","name":"foo","defaultChannel":"stable"}
{"schema":"olm.bundle","name":"foo.v0.1.0","package":"foo","image":"foo-bundle:v0.1.0","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"0.1.0"}}]}
"#,
        );
        s.push_str(more);
        s
    }

    fn check(catalog: &str) -> Report {
        validate_files(&[FileInput::new("catalog.json", catalog.as_bytes().to_vec())]).report
    }

    const ALPHA_DANGLING: &str = r#"{"schema":"olm.channel","package":"foo","name":"alpha","entries":[{"name":"foo.v0.1.0"},{"name":"foo.v0.2.0","replaces":"foo.v0.1.0"}]}
"#;
    const STABLE_OK: &str = r#"{"schema":"olm.channel","package":"foo","name":"stable","entries":[{"name":"foo.v0.1.0"}]}
"#;
    const STABLE_DANGLING: &str = r#"{"schema":"olm.channel","package":"foo","name":"stable","entries":[{"name":"foo.v0.1.0"},{"name":"foo.v0.3.0","replaces":"foo.v0.1.0"}]}
"#;

    fn entry_without_bundle(r: &Report) -> Vec<&str> {
        r.diagnostics.iter().filter(|d| d.code == Code::EntryWithoutBundle).map(|d| d.message.as_str()).collect()
    }

    #[test]
    fn dangling_entry_of_an_earlier_channel_is_a_phantom_bundle_for_opm() {
        let r = check(&foo(&format!("{ALPHA_DANGLING}{STABLE_OK}")));
        assert!(!r.valid);
        assert_eq!(
            r.opm_message.as_deref(),
            Some(
                "invalid index:\n└── invalid package \"foo\":\n    └── invalid channel \"alpha\":\n        └── invalid bundle \"foo.v0.2.0\":\n            ├── must be exactly one property with type \"olm.package\"\n            └── bundle image must be set"
            )
        );
        // We still report the entry itself, and nothing about the phantom.
        assert_eq!(
            entry_without_bundle(&r),
            ["no olm.bundle blobs found in package \"foo\" for olm.channel entries [foo.v0.2.0]"]
        );
        assert_eq!(r.diagnostics.iter().filter(|d| d.is_error()).count(), 1);
    }

    #[test]
    fn opm_names_only_the_last_channel_blobs_dangling_entries() {
        let want = Some("no olm.bundle blobs found in package \"foo\" for olm.channel entries [foo.v0.3.0]");
        let r = check(&foo(&format!("{ALPHA_DANGLING}{STABLE_DANGLING}")));
        assert_eq!(r.opm_message.as_deref(), want);
        assert_eq!(
            entry_without_bundle(&r),
            ["no olm.bundle blobs found in package \"foo\" for olm.channel entries [foo.v0.2.0 foo.v0.3.0]"]
        );
        // Blob order decides which channel is last, not the name.
        let r = check(&foo(&format!("{STABLE_DANGLING}{ALPHA_DANGLING}")));
        assert_eq!(
            r.opm_message.as_deref(),
            Some("no olm.bundle blobs found in package \"foo\" for olm.channel entries [foo.v0.2.0]")
        );
    }

    #[test]
    fn deprecation_errors_come_before_the_phantom_bundles_model_errors() {
        let dep = r#"{"schema":"olm.deprecations","package":"foo","entries":[{"reference":{"schema":"olm.bundle","name":"foo.v0.2.0"},"message":"gone"}]}
"#;
        let r = check(&foo(&format!("{ALPHA_DANGLING}{STABLE_OK}{dep}")));
        assert_eq!(
            r.opm_message.as_deref(),
            Some("cannot deprecate bundle \"foo.v0.2.0\" for package \"foo\": bundle not found")
        );
    }

    #[test]
    fn bundle_errors_come_before_the_dangling_entry_check() {
        let bad = r#"{"schema":"olm.bundle","name":"foo.v0.0.1","package":"foo","image":"foo-bundle:v0.0.1","properties":[]}
"#;
        let r = check(&foo(&format!("{ALPHA_DANGLING}{STABLE_DANGLING}{bad}")));
        assert_eq!(
            r.opm_message.as_deref(),
            Some("package \"foo\" bundle \"foo.v0.0.1\" must have exactly 1 \"olm.package\" property, found 0")
        );
    }

    #[test]
    fn several_packages_with_dangling_last_channel_entries_are_taken_in_channel_blob_order() {
        let bar = r#"{"schema":"olm.package","name":"bar","defaultChannel":"stable"}
{"schema":"olm.channel","package":"bar","name":"stable","entries":[{"name":"bar.v1.0.0"}]}
"#;
        // foo's last channel blob is alpha (dangling foo.v0.2.0); bar's is stable (bar.v1.0.0).
        // opm takes the packages in Go map order: most often the order of their first channel
        // blob (opm v1.73.0 said foo in 20 runs of 24 for the second catalog, bar in 4).
        let r = check(&foo(&format!("{bar}{STABLE_OK}{ALPHA_DANGLING}")));
        assert_eq!(
            r.opm_message.as_deref(),
            Some("no olm.bundle blobs found in package \"bar\" for olm.channel entries [bar.v1.0.0]")
        );
        let r = check(&foo(&format!("{STABLE_OK}{ALPHA_DANGLING}{bar}")));
        assert_eq!(
            r.opm_message.as_deref(),
            Some("no olm.bundle blobs found in package \"foo\" for olm.channel entries [foo.v0.2.0]")
        );
    }

    #[test]
    fn the_tree_holds_packages_channels_and_bundles_in_the_order_they_were_read() {
        // Phantom bundles in channels that are not their package's last: the model-error tree,
        // packages, channels and bundles in Go maps' insertion order (the text opm v1.73.0
        // printed in 32 runs of 40; the other 8 were rotations of one map or another).
        let catalog = r#"{"schema":"olm.package","name":"foo","defaultChannel":"stable"}
{"schema":"olm.package","name":"bar","defaultChannel":"stable"}
{"schema":"olm.channel","package":"foo","name":"stable","entries":[{"name":"foo.v0.1.0"}]}
{"schema":"olm.channel","package":"foo","name":"alpha","entries":[{"name":"foo.v0.1.0"},{"name":"foo.v0.3.0","replaces":"foo.v0.1.0"},{"name":"foo.v0.2.0","replaces":"foo.v0.1.0"}]}
{"schema":"olm.channel","package":"bar","name":"stable","entries":[{"name":"bar.v1.0.0"}]}
{"schema":"olm.channel","package":"bar","name":"alpha","entries":[{"name":"bar.v0.9.0"}, {"name":"bar.v1.0.0", "replaces":"bar.v0.9.0"}]}
{"schema":"olm.channel","package":"foo","name":"zeta","entries":[{"name":"foo.v0.1.0"}]}
{"schema":"olm.channel","package":"bar","name":"beta","entries":[{"name":"bar.v1.0.0"}]}
{"schema":"olm.bundle","name":"foo.v0.1.0","package":"foo","image":"foo-bundle:v0.1.0","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"0.1.0"}}]}
{"schema":"olm.bundle","name":"bar.v1.0.0","package":"bar","image":"bar-bundle:v1.0.0","properties":[{"type":"olm.package","value":{"packageName":"bar","version":"1.0.0"}}]}
"#;
        let r = check(catalog);
        assert_eq!(
            r.opm_message.as_deref(),
            Some(
                "invalid index:
├── invalid package \"foo\":
│   ├── invalid channel \"alpha\":
│   │   ├── multiple channel heads found in graph: foo.v0.2.0, foo.v0.3.0
│   │   ├── invalid bundle \"foo.v0.3.0\":
│   │   │   ├── must be exactly one property with type \"olm.package\"
│   │   │   └── bundle image must be set
│   │   └── invalid bundle \"foo.v0.2.0\":
│   │       ├── must be exactly one property with type \"olm.package\"
│   │       └── bundle image must be set
│   └── duplicate versions found in bundles: [{0.0.0: [foo.v0.2.0, foo.v0.3.0]}]
└── invalid package \"bar\":
    └── invalid channel \"alpha\":
        └── invalid bundle \"bar.v0.9.0\":
            ├── must be exactly one property with type \"olm.package\"
            └── bundle image must be set"
            )
        );
    }

    #[test]
    fn of_two_phantom_bundles_five_slots_apart_the_later_comes_first() {
        // Entries 1 and 6 of 7 name no bundle. A Go map of 7 keys yields them from a random one
        // of 8 slots: foo.v0.6.0 comes first when it starts at slots 2 to 6 (opm v1.73.0 printed
        // this text in 23 runs of 40, the other order in 17).
        let catalog = r#"{"schema":"olm.package","name":"foo","defaultChannel":"stable"}
{"schema":"olm.channel","package":"foo","name":"alpha","entries":[{"name":"foo.v0.0.0"},{"name":"foo.v0.1.0","replaces":"foo.v0.0.0"},{"name":"foo.v0.2.0","replaces":"foo.v0.1.0"},{"name":"foo.v0.3.0","replaces":"foo.v0.2.0"},{"name":"foo.v0.4.0","replaces":"foo.v0.3.0"},{"name":"foo.v0.5.0","replaces":"foo.v0.4.0"},{"name":"foo.v0.6.0","replaces":"foo.v0.5.0"}]}
{"schema":"olm.channel","package":"foo","name":"stable","entries":[{"name":"foo.v0.0.0"}]}
{"schema":"olm.bundle","name":"foo.v0.0.0","package":"foo","image":"foo-bundle:v0.0.0","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"0.0.0"}}]}
{"schema":"olm.bundle","name":"foo.v0.2.0","package":"foo","image":"foo-bundle:v0.2.0","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"0.2.0"}}]}
{"schema":"olm.bundle","name":"foo.v0.3.0","package":"foo","image":"foo-bundle:v0.3.0","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"0.3.0"}}]}
{"schema":"olm.bundle","name":"foo.v0.4.0","package":"foo","image":"foo-bundle:v0.4.0","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"0.4.0"}}]}
{"schema":"olm.bundle","name":"foo.v0.5.0","package":"foo","image":"foo-bundle:v0.5.0","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"0.5.0"}}]}
"#;
        let r = check(catalog);
        assert_eq!(
            r.opm_message.as_deref(),
            Some(
                "invalid index:
└── invalid package \"foo\":
    ├── invalid channel \"alpha\":
    │   ├── invalid bundle \"foo.v0.6.0\":
    │   │   ├── must be exactly one property with type \"olm.package\"
    │   │   └── bundle image must be set
    │   └── invalid bundle \"foo.v0.1.0\":
    │       ├── must be exactly one property with type \"olm.package\"
    │       └── bundle image must be set
    └── duplicate versions found in bundles: [{0.0.0: [foo.v0.0.0, foo.v0.1.0, foo.v0.6.0]}]"
            )
        );
    }
}
