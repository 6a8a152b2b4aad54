//! The CRDs of one run, decoded once: each distinct `olm.bundle.object` manifest is read once
//! (keyed by its embedded data, whichever bundle, package or catalog side carries it), and each
//! distinct (old CRD, new CRD, stored versions) triple is compared once. The catalog's edges,
//! and a diff's blocked rows on both its catalogs, share one store.

use std::sync::Arc;

use super::crd::{into_crd_with, read_json_manifest};
use super::outcome::{not_comparable, CrdCheck, Outcome, Verdict};
use super::sets::stored_versions;
use super::{crd_name, into_crd, is_crd, Crd, CrdError, FoundCrd};
use crate::declcfg::property_types::TYPE_BUNDLE_OBJECT;
use crate::declcfg::read_documents;
use crate::declcfg::Property;
use crate::diagnostic::Location;
use crate::hash::{HashMap, Sampled};
use crate::model::Bundle;

/// A CRD of a bundle: its name, its reading in the store and where it is.
#[derive(Debug, Clone)]
pub struct StoredCrd {
    /// `metadata.name`.
    pub name: String,
    /// Its reading: [`CrdStore::crd`].
    pub object: usize,
    /// The property (or file) that carries it.
    pub location: Location,
}

/// The distinct CRDs read so far and the verdicts on the pairs compared.
#[derive(Default)]
pub struct CrdStore<'m> {
    by_data: HashMap<Sampled<'m>, Option<usize>>,
    crds: Vec<(String, Result<Crd, CrdError>)>,
    pairs: HashMap<(usize, usize, Vec<String>), Outcome>,
}

impl<'m> CrdStore<'m> {
    /// An empty store.
    pub fn new() -> Self {
        CrdStore::default()
    }

    /// A CRD's reading.
    pub fn crd(&self, object: usize) -> &Result<Crd, CrdError> {
        &self.crds[object].1
    }

    /// Distinct triples compared so far.
    pub fn compared_pairs(&self) -> usize {
        self.pairs.len()
    }

    /// The CRDs a catalog bundle embeds (its `olm.bundle.object` properties), each located at
    /// its property.
    pub fn bundle(&mut self, bundle: &'m Bundle) -> Vec<StoredCrd> {
        let mut crds = Vec::new();
        for (i, p) in bundle.raw_properties.iter().enumerate() {
            if p.type_.value != TYPE_BUNDLE_OBJECT {
                continue;
            }
            if let Some((object, name)) = self.crd_of(p) {
                let location = bundle.source.at(p.pos, format!("/properties/{i}"));
                crds.push(StoredCrd { name, object, location });
            }
        }
        crds
    }

    /// A CRD found elsewhere (a bundle directory), kept as it is.
    pub fn add(&mut self, found: &FoundCrd) -> StoredCrd {
        self.crds.push((found.name.clone(), found.crd.clone()));
        StoredCrd { name: found.name.clone(), object: self.crds.len() - 1, location: found.location.clone() }
    }

    /// `old` against the CRD of the same name among `new`, with the versions the cluster stores
    /// (`None`: the old CRD's, [`stored_versions`]).
    pub fn check(&mut self, old: &StoredCrd, new: &[StoredCrd], stored: Option<Vec<String>>) -> CrdCheck {
        let n = new.iter().find(|n| n.name == old.name);
        let outcome = match n {
            None => Outcome::Removed,
            Some(n) => match (&self.crds[old.object].1, &self.crds[n.object].1) {
                (Ok(oc), Ok(nc)) => {
                    let stored = stored.unwrap_or_else(|| stored_versions(oc));
                    self.pairs
                        .entry((old.object, n.object, stored))
                        .or_insert_with_key(|(_, _, stored)| Verdict::outcome(oc, nc, stored))
                        .clone()
                }
                (o, nw) => not_comparable(o, nw).expect("one side is unread"),
            },
        };
        CrdCheck { crd: old.name.clone(), old: old.location.clone(), new: n.map(|n| n.location.clone()), outcome }
    }

    /// The CRD an `olm.bundle.object` property embeds (its index and name), `None` for another
    /// kind. Another kind known from its first bytes is not looked up at all.
    fn crd_of(&mut self, p: &'m Property) -> Option<(usize, String)> {
        let data = p.bundle_object_data()?;
        if surely_not_a_crd(data) {
            return None;
        }
        let id = match self.by_data.get(&Sampled(data)) {
            Some(&known) => known,
            None => {
                let id = read_embedded(data, p.bundle_object_is_json()).map(|crd| {
                    self.crds.push(crd);
                    self.crds.len() - 1
                });
                self.by_data.insert(Sampled(data), id);
                id
            }
        }?;
        Some((id, self.crds[id].0.clone()))
    }
}

/// The CRD an `olm.bundle.object`'s data embeds (its name and reading), `None` for another kind
/// or data that does not read. A manifest of JSON text (as opm embeds them) keeps its schemas as
/// text ([`read_json_manifest`]); any other is read as a tree, as `Property::bundle_object` does.
/// `json`: the loader found the data to be base64 of JSON.
fn read_embedded(data: &str, json: bool) -> Option<(String, Result<Crd, CrdError>)> {
    // The decoded text is kept as it is: the schemas read from it are spans of it.
    let text = String::from_utf8(crate::gotext::decode_base64(data).ok()?).map(Arc::new);
    let (manifest, schemas) = match text.as_ref().ok().and_then(|t| read_json_manifest(t, json)) {
        Some(read) => read,
        None => {
            let bytes = text.as_ref().map_or_else(|e| e.as_bytes(), |t| t.as_bytes());
            (read_documents("olm.bundle.object", bytes).into_iter().next()?.ok()?.value?, Vec::new())
        }
    };
    if !is_crd(&manifest) {
        return None;
    }
    let name = crd_name(&manifest).unwrap_or("").to_string();
    let crd = if schemas.is_empty() { into_crd(manifest) } else { into_crd_with(manifest, schemas) };
    Some((name, crd))
}

/// Whether the start of an embedded manifest shows another kind: opm embeds manifests as JSON
/// with sorted keys, `{"apiVersion":"…","kind":"…"`, so most non-CRDs are known without
/// decoding the rest. Anything else is decoded.
fn surely_not_a_crd(data: &str) -> bool {
    let Some(head) = data.get(..data.len().min(160) & !3) else { return false };
    let Ok(head) = crate::gotext::decode_base64(head) else { return false };
    let Some(rest) = head.strip_prefix(b"{\"apiVersion\":\"") else { return false };
    let Some(end) = rest.iter().position(|&b| b == b'"') else { return false };
    let Some(kind) = rest[end..].strip_prefix(b"\",\"kind\":\"") else { return false };
    let Some(end) = kind.iter().position(|&b| b == b'"') else { return false };
    &kind[..end] != b"CustomResourceDefinition"
}

#[cfg(test)]
mod tests {
    use base64::Engine as _;

    use super::*;
    use crate::declcfg::{load_files, FileInput};

    /// A package `name` of one bundle embedding a CRD `widgets.example.com` of scope `scope`.
    fn package(name: &str, scope: &str) -> String {
        let manifest = format!(
            r#"{{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{{"name":"widgets.example.com"}},"spec":{{"scope":"{scope}","versions":[{{"name":"v1","served":true,"storage":true}}]}}}}"#
        );
        let data = base64::engine::general_purpose::STANDARD.encode(manifest);
        format!(
            "---\nschema: olm.package\nname: {name}\n---\nschema: olm.bundle\npackage: {name}\nname: {name}.v1\nimage: r/{name}:1\nproperties:\n\
             - type: olm.package\n  value: {{packageName: {name}, version: 1.0.0}}\n\
             - type: olm.bundle.object\n  value: {{data: {data}}}\n"
        )
    }

    #[test]
    fn a_crd_embedded_by_many_bundles_is_read_once_and_each_pair_compared_once() {
        let text = package("a", "Namespaced") + &package("b", "Namespaced") + &package("c", "Cluster");
        let model = crate::model::build(&load_files(&[FileInput::new("catalog.yaml", text)]).config).0;
        let bundle = |p: &str| &model.package(p).unwrap().bundles[0];
        let mut store = CrdStore::new();
        let (a, b, c) = (store.bundle(bundle("a")), store.bundle(bundle("b")), store.bundle(bundle("c")));
        assert_eq!((a[0].object, b[0].object, c[0].object), (0, 0, 1), "a and b embed the same manifest");
        assert_eq!(a[0].location.pointer, "/properties/1");
        assert!(store.check(&a[0], &b, None).safe());
        let first = store.check(&a[0], &c, None);
        let again = store.check(&b[0], &c, None);
        assert_eq!(first.findings()[0].rule, "scope");
        assert_eq!((again.outcome == first.outcome, store.compared_pairs()), (true, 2));
        assert_eq!(store.check(&a[0], &[], None).outcome, Outcome::Removed);
    }
}
