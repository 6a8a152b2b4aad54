//! Small catalogs for the graph modules' unit tests, written as the YAML an author would write
//! and built through the real pipeline (`declcfg::load_files`, then `model::build`).
//!
//! A [`TestCatalog`] is one package `foo`. Each channel is given as the YAML of its `entries`;
//! every entry gets an `olm.bundle` whose version is read from its name (`foo.v1.2.0` → `1.2.0`),
//! unless [`TestCatalog::version`] says otherwise.

use std::collections::{BTreeMap, BTreeSet};

use crate::declcfg::{load_files, FileInput};
use crate::model::{self, Channel, Model, Package};

/// One package `foo` under construction.
#[derive(Default)]
pub struct TestCatalog {
    /// (channel name, YAML of its entries).
    channels: Vec<(String, String)>,
    versions: BTreeMap<String, String>,
    /// Extra YAML properties (list items) per bundle.
    properties: BTreeMap<String, Vec<String>>,
    /// YAML entries of the package's `olm.deprecations` blob.
    deprecations: Vec<String>,
}

/// Remove the common indentation of `text`'s non-blank lines, and indent every line by `by`.
fn reindent(text: &str, by: usize) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let common = lines.iter().map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
    lines.iter().map(|l| format!("{}{}\n", " ".repeat(by), &l[common..])).collect()
}

impl TestCatalog {
    pub fn new() -> TestCatalog {
        TestCatalog::default()
    }

    /// A channel; `entries` is the YAML list under `entries:` (any common indentation).
    pub fn channel(mut self, name: &str, entries: &str) -> TestCatalog {
        self.channels.push((name.to_string(), entries.to_string()));
        self
    }

    /// Give `bundle` this version instead of the one in its name.
    pub fn version(mut self, bundle: &str, version: &str) -> TestCatalog {
        self.versions.insert(bundle.to_string(), version.to_string());
        self
    }

    /// Give `bundle` the legacy `olm.deprecated` property (OLM v0 never installs it).
    pub fn olm_deprecated(mut self, bundle: &str) -> TestCatalog {
        self.properties.entry(bundle.to_string()).or_default().push("- type: olm.deprecated\n  value: {}".into());
        self
    }

    /// Deprecate `bundle` in the package's `olm.deprecations` blob.
    pub fn deprecate_bundle(mut self, bundle: &str, message: &str) -> TestCatalog {
        self.deprecations.push(format!("- reference: {{schema: olm.bundle, name: {bundle}}}\n  message: {message}"));
        self
    }

    /// The catalog as one YAML file: the package, its channels, a bundle per entry name, and the
    /// deprecations.
    pub fn yaml(&self) -> String {
        let default = self.channels.first().map_or("stable", |(n, _)| n.as_str());
        let mut docs = vec![format!("schema: olm.package\nname: foo\ndefaultChannel: {default}\n")];
        for (name, entries) in &self.channels {
            docs.push(format!("schema: olm.channel\npackage: foo\nname: {name}\nentries:\n{}", reindent(entries, 2)));
        }
        let channels_only = load(&docs.join("---\n"));
        let names: BTreeSet<&str> =
            channels_only.config.channels.iter().flat_map(|c| &c.entries).map(|e| e.name.value.as_str()).collect();
        for name in names {
            let version = self.versions.get(name).cloned().unwrap_or_else(|| version_in(name));
            let extra = self.properties.get(name).map(|p| p.join("\n")).unwrap_or_default();
            docs.push(format!(
                "schema: olm.bundle\npackage: foo\nname: {name}\nimage: example.com/foo-bundle:{}\nproperties:\n{}{}",
                version.replace('+', "_"), // a tag has no `+`
                reindent(&format!("- type: olm.package\n  value: {{packageName: foo, version: \"{version}\"}}"), 2),
                reindent(&extra, 2),
            ));
        }
        if !self.deprecations.is_empty() {
            docs.push(format!(
                "schema: olm.deprecations\npackage: foo\nentries:\n{}",
                reindent(&self.deprecations.join("\n"), 2)
            ));
        }
        docs.join("---\n")
    }

    /// Load and build the catalog; panics on any error loading or building it, so a test's
    /// catalog is always one opm would read.
    pub fn build(&self) -> Model {
        let loaded = load(&self.yaml());
        let (model, diags) = model::build(&loaded.config);
        let errors: Vec<&str> =
            loaded.diagnostics.iter().chain(&diags).filter(|d| d.is_error()).map(|d| d.message.as_str()).collect();
        assert!(errors.is_empty(), "test catalog does not build: {errors:#?}\n{}", self.yaml());
        model
    }
}

/// The version in a bundle name: what follows its last `.v` (`foo.v1.2.0` → `1.2.0`).
fn version_in(name: &str) -> String {
    name.rsplit_once(".v").map_or("0.0.0", |(_, v)| v).to_string()
}

fn load(yaml: &str) -> crate::declcfg::Loaded {
    load_files(&[FileInput::new("catalog.yaml", yaml.as_bytes().to_vec())])
}

/// The package `foo` of a built test catalog.
pub fn foo(m: &Model) -> &Package {
    m.package("foo").expect("package foo")
}

/// Channel `name` of package `foo`.
pub fn channel<'m>(m: &'m Model, name: &str) -> &'m Channel {
    foo(m).channel(name).unwrap_or_else(|| panic!("channel {name}"))
}
