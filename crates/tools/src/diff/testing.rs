//! Small catalogs for the diff's unit tests: a catalog is a list of packages, each given as its
//! channels' entries in YAML; every entry gets a bundle whose version is read from its name
//! (`foo.v1.2.0` → `1.2.0`), with extra properties when asked. Built through the real pipeline.

use std::collections::{BTreeMap, BTreeSet};

use crate::declcfg::{load_files, FileInput};
use crate::model::{self, Model};

/// A catalog under construction.
#[derive(Default, Clone)]
pub(crate) struct Catalog {
    /// package -> (default channel, [(channel, entries YAML)]).
    packages: BTreeMap<String, (String, Vec<(String, String)>)>,
    /// bundle -> extra YAML property list items.
    properties: BTreeMap<String, Vec<String>>,
    /// package -> YAML entries of its `olm.deprecations` blob.
    deprecations: BTreeMap<String, Vec<String>>,
}

fn reindent(text: &str, by: usize) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let common = lines.iter().map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
    lines.iter().map(|l| format!("{}{}\n", " ".repeat(by), &l[common..])).collect()
}

fn version_in(name: &str) -> String {
    name.rsplit_once(".v").map_or("0.0.0", |(_, v)| v).to_string()
}

impl Catalog {
    pub(crate) fn new() -> Catalog {
        Catalog::default()
    }

    /// A channel of `package` (the first channel given is the default).
    pub(crate) fn channel(mut self, package: &str, name: &str, entries: &str) -> Catalog {
        let p = self.packages.entry(package.to_string()).or_insert_with(|| (name.to_string(), Vec::new()));
        p.1.push((name.to_string(), entries.to_string()));
        self
    }

    /// Give `bundle` an extra property (`type`, value as YAML flow).
    pub(crate) fn property(mut self, bundle: &str, type_: &str, value: &str) -> Catalog {
        self.properties.entry(bundle.to_string()).or_default().push(format!("- type: {type_}\n  value: {value}"));
        self
    }

    /// Deprecate `bundle` of `package` in `olm.deprecations`.
    pub(crate) fn deprecate(mut self, package: &str, bundle: &str) -> Catalog {
        self.deprecations
            .entry(package.to_string())
            .or_default()
            .push(format!("- reference: {{schema: olm.bundle, name: {bundle}}}\n  message: do not use {bundle}"));
        self
    }

    pub(crate) fn yaml(&self) -> String {
        let mut docs = Vec::new();
        for (pkg, (default, channels)) in &self.packages {
            docs.push(format!("schema: olm.package\nname: {pkg}\ndefaultChannel: {default}\n"));
            let mut names = BTreeSet::new();
            for (name, entries) in channels {
                let doc =
                    format!("schema: olm.channel\npackage: {pkg}\nname: {name}\nentries:\n{}", reindent(entries, 2));
                let loaded = load_files(&[FileInput::new("x.yaml", doc.clone())]);
                names.extend(loaded.config.channels.iter().flat_map(|c| &c.entries).map(|e| e.name.value.clone()));
                docs.push(doc);
            }
            for name in names {
                let version = version_in(&name);
                let extra = self.properties.get(&name).map(|p| p.join("\n")).unwrap_or_default();
                docs.push(format!(
                    "schema: olm.bundle\npackage: {pkg}\nname: {name}\nimage: example.com/{pkg}-bundle:{version}\nproperties:\n{}{}",
                    reindent(&format!("- type: olm.package\n  value: {{packageName: {pkg}, version: \"{version}\"}}"), 2),
                    reindent(&extra, 2),
                ));
            }
            if let Some(d) = self.deprecations.get(pkg) {
                docs.push(format!(
                    "schema: olm.deprecations\npackage: {pkg}\nentries:\n{}",
                    reindent(&d.join("\n"), 2)
                ));
            }
        }
        docs.join("---\n")
    }

    /// Load and build; panics when the catalog does not build cleanly.
    pub(crate) fn build(&self) -> Model {
        let loaded = load_files(&[FileInput::new("catalog.yaml", self.yaml())]);
        let (m, diags) = model::build(&loaded.config);
        let errors: Vec<&str> =
            loaded.diagnostics.iter().chain(&diags).filter(|d| d.is_error()).map(|d| d.message.as_str()).collect();
        assert!(errors.is_empty(), "test catalog does not build: {errors:#?}\n{}", self.yaml());
        m
    }
}
