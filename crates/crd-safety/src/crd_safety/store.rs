//! The CRDs of one run, decoded once: each distinct `olm.bundle.object` manifest is read once
//! (keyed by its embedded data, whichever bundle, package or catalog side carries it), and each
//! distinct (old CRD, new CRD, stored versions) triple is compared once. The catalog's edges,
//! and a diff's blocked rows on both its catalogs, share one store.
//!
//! A CRD's schemas (most of its size) can be let go once the bundles that use them are done
//! ([`CrdStore::release_schemas`], after each package of a catalog): its name and versions stay,
//! the verdicts stay, and the schemas are read again from the manifest only if a new pair needs
//! them. The run then holds one package's schemas at a time, not the whole catalog's.

use super::outcome::{not_comparable, CrdCheck, Outcome, Verdict};
use super::sets::stored_versions;
use super::{crd_name, into_crd, is_crd, Crd, CrdError, FoundCrd};
use crate::declcfg::property_types::TYPE_BUNDLE_OBJECT;
use crate::declcfg::Property;
use crate::diagnostic::Location;
use crate::hash::HashMap;
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
    by_data: HashMap<Data<'m>, Option<usize>>,
    crds: Vec<Read<'m>>,
    /// The CRDs read from a manifest whose schemas are held.
    held: Vec<usize>,
    pairs: HashMap<(usize, usize, Vec<String>), Outcome>,
}

/// A distinct CRD: its name, its reading and the property it was read from (`None`: found
/// elsewhere, kept whole).
struct Read<'m> {
    name: String,
    crd: Result<Crd, CrdError>,
    source: Option<&'m Property>,
    /// Whether `crd`'s schemas are there (released: [`CrdStore::release_schemas`]).
    schemas: bool,
}

impl<'m> CrdStore<'m> {
    /// An empty store.
    pub fn new() -> Self {
        CrdStore::default()
    }

    /// A CRD's reading: its name, scope and versions; its schemas only while held.
    pub fn crd(&self, object: usize) -> &Result<Crd, CrdError> {
        &self.crds[object].crd
    }

    /// Let go of the schemas of the CRDs read from manifests so far (the verdicts on their pairs
    /// stay); a later comparison of a new pair reads them again.
    pub fn release_schemas(&mut self) {
        for id in self.held.drain(..) {
            let read = &mut self.crds[id];
            if let Ok(crd) = &mut read.crd {
                crd.versions.iter_mut().for_each(|v| v.schema = None);
            }
            read.schemas = false;
        }
    }

    /// Make sure the schemas of CRD `id` are there, reading its manifest again if released.
    fn hold(&mut self, id: usize) {
        let read = &mut self.crds[id];
        if read.schemas {
            return;
        }
        if let Some(crd) = read.source.and_then(Property::bundle_object).map(into_crd) {
            read.crd = crd;
        }
        read.schemas = true;
        self.held.push(id);
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
        self.crds.push(Read { name: found.name.clone(), crd: found.crd.clone(), source: None, schemas: true });
        StoredCrd { name: found.name.clone(), object: self.crds.len() - 1, location: found.location.clone() }
    }

    /// `old` against the CRD of the same name among `new`, with the versions the cluster stores
    /// (`None`: the old CRD's, [`stored_versions`]).
    pub fn check(&mut self, old: &StoredCrd, new: &[StoredCrd], stored: Option<Vec<String>>) -> CrdCheck {
        let n = new.iter().find(|n| n.name == old.name);
        let outcome = match n {
            None => Outcome::Removed,
            Some(n) => self.outcome(old.object, n.object, stored),
        };
        CrdCheck { crd: old.name.clone(), old: old.location.clone(), new: n.map(|n| n.location.clone()), outcome }
    }

    /// The verdict on CRD `old` against CRD `new` (known, or compared with their schemas).
    fn outcome(&mut self, old: usize, new: usize, stored: Option<Vec<String>>) -> Outcome {
        let (Ok(oc), Ok(_)) = (&self.crds[old].crd, &self.crds[new].crd) else {
            return not_comparable(&self.crds[old].crd, &self.crds[new].crd).expect("one side is unread");
        };
        let key = (old, new, stored.unwrap_or_else(|| stored_versions(oc)));
        if let Some(known) = self.pairs.get(&key) {
            return known.clone();
        }
        self.hold(old);
        self.hold(new);
        let outcome = match (&self.crds[old].crd, &self.crds[new].crd) {
            (Ok(oc), Ok(nc)) => Verdict::outcome(oc, nc, &key.2),
            (o, nw) => not_comparable(o, nw).expect("one side is unread"),
        };
        self.pairs.insert(key, outcome.clone());
        outcome
    }

    /// The CRD an `olm.bundle.object` property embeds (its index and name), `None` for another
    /// kind. Another kind known from its first bytes is not looked up at all.
    fn crd_of(&mut self, p: &'m Property) -> Option<(usize, String)> {
        let data = p.value.as_ref()?.field("data")?.value.as_str()?;
        if surely_not_a_crd(data) {
            return None;
        }
        let id = match self.by_data.get(&Data(data)) {
            Some(&known) => known,
            None => {
                let id = p.bundle_object().filter(is_crd).map(|m| {
                    let name = crd_name(&m).unwrap_or("").to_string();
                    self.crds.push(Read { name, crd: into_crd(m), source: Some(p), schemas: true });
                    self.held.push(self.crds.len() - 1);
                    self.crds.len() - 1
                });
                self.by_data.insert(Data(data), id);
                id
            }
        }?;
        Some((id, self.crds[id].name.clone()))
    }
}

/// An embedded manifest's data as a map key: equal when the whole text is, hashed from its
/// length and a few samples (hashing every byte of a catalog's CRDs cost as much as reading the
/// distinct ones; two manifests that share the samples are told apart by the comparison).
#[derive(PartialEq, Eq)]
struct Data<'m>(&'m str);

impl std::hash::Hash for Data<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        const SAMPLE: usize = 64;
        let b = self.0.as_bytes();
        state.write_usize(b.len());
        if b.len() <= 8 * SAMPLE {
            return state.write(b);
        }
        for i in 0..8 {
            let at = (b.len() - SAMPLE) / 7 * i;
            state.write(&b[at..at + SAMPLE]);
        }
    }
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
            r#"{{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{{"name":"widgets.example.com"}},"spec":{{"scope":"{scope}","versions":[{{"name":"v1","served":true,"storage":true,"schema":{{"openAPIV3Schema":{{"type":"object"}}}}}}]}}}}"#
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

    #[test]
    fn released_schemas_are_read_again_for_a_new_pair_and_known_verdicts_kept() {
        let text = package("a", "Namespaced") + &package("c", "Cluster");
        let model = crate::model::build(&load_files(&[FileInput::new("catalog.yaml", text)]).config).0;
        let bundle = |p: &str| &model.package(p).unwrap().bundles[0];
        let mut store = CrdStore::new();
        let (a, c) = (store.bundle(bundle("a")), store.bundle(bundle("c")));
        let first = store.check(&a[0], &c, None);
        store.release_schemas();
        let released = store.crd(a[0].object).as_ref().unwrap();
        assert_eq!((released.storage_version(), released.versions[0].schema.is_none()), (Some("v1"), true));
        assert_eq!(store.check(&a[0], &c, None).outcome, first.outcome, "the verdict is kept");
        let back = store.check(&c[0], &a, None);
        assert_eq!((back.findings()[0].rule, store.compared_pairs()), ("scope", 2), "a new pair is compared");
        let again = store.crd(a[0].object).as_ref().unwrap();
        assert!(again.versions[0].schema.is_some(), "its schemas were read again");
    }

    #[test]
    fn manifests_that_share_the_hashed_samples_are_still_told_apart() {
        let a = "A".repeat(10_000);
        let mut b = a.clone().into_bytes();
        b[5_000] = b'B'; // between the samples
        let b = String::from_utf8(b).unwrap();
        let mut map: HashMap<Data, usize> = HashMap::default();
        map.insert(Data(&a), 1);
        map.insert(Data(&b), 2);
        let same = a.clone();
        assert_eq!((map.len(), map.get(&Data(&same)), map.get(&Data(&b))), (2, Some(&1), Some(&2)));
    }
}
