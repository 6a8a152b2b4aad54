//! The operator author's question before a release: the CRDs of an old and a new set of
//! manifests (CRD files, bundle directories), paired by name and checked.

use super::outcome::{not_comparable, CrdCheck, Outcome, Verdict};
use super::{crd_name, is_crd, read_crd, Crd, CrdError};
use crate::declcfg::read_documents;
use crate::diagnostic::{Diagnostic, Location};

/// A CRD manifest found in a file or a bundle, read or not.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundCrd {
    /// `metadata.name` (empty when it has none).
    pub name: String,
    /// Where the manifest starts.
    pub location: Location,
    /// The CRD, or why it cannot be read.
    pub crd: Result<Crd, CrdError>,
}

/// The CRDs among the documents of one YAML or JSON file; a file that does not parse gives its
/// syntax error.
pub fn crds_in_file(path: &str, bytes: &[u8]) -> (Vec<FoundCrd>, Vec<Diagnostic>) {
    let (mut found, mut problems) = (Vec::new(), Vec::new());
    for doc in read_documents(path, bytes) {
        match doc {
            Err(d) => problems.push(d),
            Ok(doc) => {
                let Some(manifest) = doc.value.filter(is_crd) else { continue };
                let location = Location { file: path.to_string(), line: doc.line, column: 1, pointer: String::new() };
                let name = crd_name(&manifest).unwrap_or("").to_string();
                found.push(FoundCrd { name, location, crd: read_crd(&manifest) });
            }
        }
    }
    (found, problems)
}

/// The CRDs a catalog bundle embeds (its `olm.bundle.object` properties), each located at its
/// property.
pub fn crds_of_bundle(bundle: &crate::model::Bundle) -> Vec<FoundCrd> {
    let mut found = Vec::new();
    for (i, p) in bundle.raw_properties.iter().enumerate() {
        let Some(manifest) = p.bundle_object().filter(is_crd) else { continue };
        let location = bundle.source.at(p.pos, format!("/properties/{i}"));
        let name = crd_name(&manifest).unwrap_or("").to_string();
        found.push(FoundCrd { name, location, crd: read_crd(&manifest) });
    }
    found
}

/// A bundle directory's CRDs and the name of its ClusterServiceVersion (the bundle's name in a
/// catalog), from its manifest files `(path, bytes)`; files that do not parse give their syntax
/// errors.
pub fn bundle_dir_crds(files: &[(String, Vec<u8>)]) -> (Option<String>, Vec<FoundCrd>, Vec<Diagnostic>) {
    let (mut csv, mut found, mut problems) = (None, Vec::new(), Vec::new());
    for (path, bytes) in files {
        for doc in read_documents(path, bytes) {
            let Some(manifest) = doc.map_err(|d| problems.push(d)).ok().and_then(|d| d.value.map(|v| (d.line, v)))
            else {
                continue;
            };
            let (line, manifest) = manifest;
            if manifest.get("kind").and_then(crate::declcfg::Node::as_str) == Some("ClusterServiceVersion") {
                csv = csv.or_else(|| crd_name(&manifest).map(str::to_string));
            } else if is_crd(&manifest) {
                let location = Location { file: path.clone(), line, column: 1, pointer: String::new() };
                let name = crd_name(&manifest).unwrap_or("").to_string();
                found.push(FoundCrd { name, location, crd: read_crd(&manifest) });
            }
        }
    }
    (csv, found, problems)
}

/// The versions a cluster running `old` stores objects in: its `status.storedVersions`, or
/// when it has none (a CRD as a bundle ships it) its storage version.
pub fn stored_versions(old: &Crd) -> Vec<String> {
    if old.stored_versions.is_empty() {
        old.storage_version().map(str::to_string).into_iter().collect()
    } else {
        old.stored_versions.clone()
    }
}

/// Each CRD of `old` against the CRD of the same name in `new` (the first of each name).
pub fn compare_crd_sets(old: &[FoundCrd], new: &[FoundCrd]) -> Vec<CrdCheck> {
    let mut out: Vec<CrdCheck> = Vec::new();
    for o in old {
        if out.iter().any(|c| c.crd == o.name) {
            continue;
        }
        let n = new.iter().find(|n| n.name == o.name);
        let outcome = match n {
            None => Outcome::Removed,
            Some(n) => not_comparable(&o.crd, &n.crd).unwrap_or_else(|| match (&o.crd, &n.crd) {
                (Ok(oc), Ok(nc)) => Verdict::outcome(oc, nc, &stored_versions(oc)),
                _ => unreachable!("not_comparable covers an unread side"),
            }),
        };
        out.push(CrdCheck {
            crd: o.name.clone(),
            old: o.location.clone(),
            new: n.map(|n| n.location.clone()),
            outcome,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.example.com}\n\
                       spec:\n  scope: Namespaced\n  versions: [{name: v1, served: true, storage: true}]\n---\n\
                       apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\n\
                       apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: b.example.com}\n\
                       spec:\n  scope: Namespaced\n  versions: [{name: v1, served: true, storage: true}]\n";

    #[test]
    fn crds_are_found_among_a_files_documents_and_located() {
        let (found, problems) = crds_in_file("crds.yaml", OLD.as_bytes());
        assert!(problems.is_empty());
        let names: Vec<(&str, u32)> = found.iter().map(|f| (f.name.as_str(), f.location.line)).collect();
        assert_eq!(names, [("a.example.com", 1), ("b.example.com", 12)]);
    }

    #[test]
    fn crds_pair_by_name_and_a_missing_one_is_removed() {
        let (old, _) = crds_in_file("old.yaml", OLD.as_bytes());
        let new_text = OLD.replace("b.example.com", "c.example.com").replace(
            "scope: Namespaced\n  versions: [{name: v1, served: true, storage: true}]\n---\napiVersion: v1",
            "scope: Cluster\n  versions: [{name: v1, served: true, storage: true}]\n---\napiVersion: v1",
        );
        let (new, _) = crds_in_file("new.yaml", new_text.as_bytes());
        let checks = compare_crd_sets(&old, &new);
        let rules: Vec<(String, Vec<&str>)> =
            checks.iter().map(|c| (c.crd.clone(), c.findings().iter().map(|f| f.rule).collect())).collect();
        assert_eq!(
            rules,
            [("a.example.com".to_string(), vec!["scope"]), ("b.example.com".to_string(), vec!["removed"])]
        );
    }
}
