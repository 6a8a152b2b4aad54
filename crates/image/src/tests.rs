//! Images assembled in memory (OCI layouts, docker-archives) read end to end: tags, platforms,
//! digests checked before use, layers in order.

use std::collections::BTreeMap;
use std::io::{Cursor, Write as _};

use crate::*;

fn tar(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (path, data) in entries {
        let mut h = tar::Header::new_gnu();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        b.append_data(&mut h, path, *data).unwrap();
    }
    b.into_inner().unwrap()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// An OCI layout under construction.
#[derive(Default)]
struct Layout {
    files: BTreeMap<String, Vec<u8>>,
    index: Vec<serde_json::Value>,
}

impl Layout {
    fn blob(&mut self, bytes: &[u8]) -> String {
        let d = Digest::sha256_of(bytes);
        self.files.insert(format!("blobs/sha256/{}", d.hex()), bytes.to_vec());
        d.to_string()
    }

    /// An image manifest with `labels` and `layers`; its descriptor.
    fn image(&mut self, labels: &[(&str, &str)], layers: &[Vec<u8>]) -> serde_json::Value {
        self.image_with_sizes(labels, layers, 0)
    }

    /// The same, each layer's descriptor size short by `short` bytes.
    fn image_with_sizes(&mut self, labels: &[(&str, &str)], layers: &[Vec<u8>], short: usize) -> serde_json::Value {
        let labels: BTreeMap<_, _> = labels.iter().cloned().collect();
        let config = serde_json::json!({"architecture": "amd64", "os": "linux", "config": {"Labels": labels}});
        let config = serde_json::to_vec(&config).unwrap();
        let layers: Vec<_> = layers
            .iter()
            .map(|l| serde_json::json!({"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": self.blob(l), "size": l.len() - short}))
            .collect();
        let manifest = serde_json::json!({
            "schemaVersion": 2, "mediaType": spec::OCI_MANIFEST,
            "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": self.blob(&config), "size": config.len()},
            "layers": layers,
        });
        let bytes = serde_json::to_vec(&manifest).unwrap();
        serde_json::json!({"mediaType": spec::OCI_MANIFEST, "digest": self.blob(&bytes), "size": bytes.len()})
    }

    fn tag(&mut self, mut desc: serde_json::Value, tag: &str) {
        desc["annotations"] = serde_json::json!({ spec::REF_NAME: tag });
        self.index.push(desc);
    }

    fn tree(&self) -> MemTree {
        let mut files = self.files.clone();
        let index = serde_json::json!({"schemaVersion": 2, "manifests": self.index});
        files.insert("index.json".into(), serde_json::to_vec(&index).unwrap());
        files.insert("oci-layout".into(), br#"{"imageLayoutVersion":"1.0.0"}"#.to_vec());
        MemTree(files)
    }
}

const CATALOG: (&str, &str) = (CONFIGS_LABEL, "/configs");

fn catalog_layout() -> Layout {
    let mut l = Layout::default();
    let base =
        gzip(&tar(&[("configs/a/catalog.json", b"old"), ("configs/b/catalog.json", b"{}"), ("bin/opm", b"elf")]));
    let top = tar(&[("configs/a/catalog.json", b"new"), ("configs/b/.wh.catalog.json", b"")]);
    let d = l.image(&[CATALOG], &[base, top]);
    l.tag(d, "v1");
    l
}

fn paths(o: &Opened) -> Vec<(&str, &str)> {
    o.content.files.iter().map(|(p, c)| (p.as_str(), std::str::from_utf8(c).unwrap())).collect()
}

#[test]
fn a_catalog_image_in_an_oci_layout_gives_its_configs_after_all_layers() {
    let o = read_layout(catalog_layout().tree(), Some("v1"), None, &Budgets::default()).unwrap();
    assert_eq!(o.content.kind, Kind::Catalog { configs: "/configs".into() });
    assert_eq!(paths(&o), [("a/catalog.json", "new")]);
    assert!(o.image.picked.is_none());
}

#[test]
fn a_layout_names_its_images_by_tag_and_an_untagged_reference_needs_exactly_one() {
    let mut l = catalog_layout();
    assert!(read_layout(l.tree(), None, None, &Budgets::default()).is_ok());
    let e = read_layout(l.tree(), Some("v2"), None, &Budgets::default()).unwrap_err().to_string();
    assert!(e.contains("\"v2\"") && e.contains("v1"), "{e}");
    let other = l.image(&[CATALOG], &[]);
    l.tag(other, "v2");
    assert!(read_layout(l.tree(), None, None, &Budgets::default()).is_err());
    assert!(read_layout(l.tree(), Some("v2"), None, &Budgets::default()).unwrap().content.files.is_empty());
}

fn multi_arch() -> Layout {
    let mut l = Layout::default();
    let mut descs = Vec::new();
    for (arch, content) in [("arm64", &b"arm"[..]), ("amd64", b"amd"), ("s390x", b"s390")] {
        let mut d = l.image(&[CATALOG], &[tar(&[("configs/p/catalog.json", content)])]);
        d["platform"] = serde_json::json!({"os": "linux", "architecture": arch});
        descs.push(d);
    }
    let index =
        serde_json::to_vec(&serde_json::json!({"schemaVersion": 2, "mediaType": spec::OCI_INDEX, "manifests": descs}))
            .unwrap();
    let d = serde_json::json!({"mediaType": spec::OCI_INDEX, "digest": l.blob(&index), "size": index.len()});
    l.tag(d, "multi");
    l
}

#[test]
fn a_multi_arch_index_gives_linux_amd64_unless_another_platform_is_asked_for() {
    let l = multi_arch();
    let o = read_layout(l.tree(), Some("multi"), None, &Budgets::default()).unwrap();
    assert_eq!(paths(&o), [("p/catalog.json", "amd")]);
    assert_eq!(o.image.picked.as_ref().map(|(p, n)| (p.to_string(), *n)), Some(("linux/amd64".into(), 3)));
    let s390 = Platform::parse("linux/s390x").unwrap();
    assert_eq!(
        paths(&read_layout(l.tree(), Some("multi"), Some(&s390), &Budgets::default()).unwrap()),
        [("p/catalog.json", "s390")]
    );
    let e = read_layout(l.tree(), Some("multi"), Some(&Platform::parse("windows/amd64").unwrap()), &Budgets::default())
        .unwrap_err();
    assert!(e.to_string().contains("linux/arm64, linux/amd64, linux/s390x"), "{e}");
}

#[test]
fn without_amd64_the_first_manifest_of_an_index_is_picked() {
    let mut l = multi_arch();
    let index_path = l
        .files
        .keys()
        .find(|k| std::str::from_utf8(&l.files[*k]).is_ok_and(|s| s.contains("manifests")))
        .unwrap()
        .clone();
    let mut index: serde_json::Value = serde_json::from_slice(&l.files[&index_path]).unwrap();
    index["manifests"].as_array_mut().unwrap().remove(1);
    let bytes = serde_json::to_vec(&index).unwrap();
    let d = serde_json::json!({"mediaType": spec::OCI_INDEX, "digest": l.blob(&bytes), "size": bytes.len()});
    l.index.clear();
    l.tag(d, "multi");
    assert_eq!(
        paths(&read_layout(l.tree(), Some("multi"), None, &Budgets::default()).unwrap()),
        [("p/catalog.json", "arm")]
    );
}

/// The layout with one blob's bytes replaced.
fn tampered(l: &Layout, which: impl Fn(&[u8]) -> bool, with: &[u8]) -> MemTree {
    let mut t = l.tree();
    let key = t.0.iter().find(|(k, v)| k.starts_with("blobs/") && which(v)).map(|(k, _)| k.clone()).unwrap();
    t.0.insert(key, with.to_vec());
    t
}

#[test]
fn a_blob_that_does_not_match_its_digest_is_refused_naming_both_digests() {
    let l = catalog_layout();
    let is_layer = |b: &[u8]| b.starts_with(&[0x1f, 0x8b]);
    let bad = gzip(&tar(&[("configs/evil/catalog.json", b"evil")]));
    let e = read_layout(tampered(&l, is_layer, &bad), Some("v1"), None, &Budgets::default()).unwrap_err();
    let Error::DigestMismatch { actual, .. } = &e else { panic!("{e}") };
    assert_eq!(*actual, Digest::sha256_of(&bad).to_string());
    let is_config = |b: &[u8]| b.starts_with(b"{\"architecture\"");
    let e = read_layout(tampered(&l, is_config, br#"{"config":{"Labels":{}}}"#), Some("v1"), None, &Budgets::default());
    assert!(matches!(e, Err(Error::DigestMismatch { .. })), "{e:?}");
}

#[test]
fn a_truncated_layer_is_a_digest_mismatch() {
    let l = catalog_layout();
    let is_layer = |b: &[u8]| b.starts_with(&[0x1f, 0x8b]);
    let layer = l.files.values().find(|b| is_layer(b)).unwrap();
    let e = read_layout(tampered(&l, is_layer, &layer[..layer.len() / 2]), Some("v1"), None, &Budgets::default());
    assert!(matches!(e, Err(Error::DigestMismatch { .. })), "{e:?}");
}

#[test]
fn a_missing_blob_and_a_huge_manifest_are_errors() {
    let l = catalog_layout();
    let mut t = l.tree();
    let layer = t.0.keys().find(|k| t.0[*k].starts_with(&[0x1f, 0x8b])).unwrap().clone();
    t.0.remove(&layer);
    assert!(matches!(read_layout(t, Some("v1"), None, &Budgets::default()), Err(Error::Missing { .. })));
    let small = Budgets { manifest_bytes: 100, ..Budgets::default() };
    assert!(matches!(read_layout(l.tree(), Some("v1"), None, &small), Err(Error::Budget { .. })));
}

#[test]
fn a_bundle_image_gives_its_manifests_and_metadata_as_a_bundle_directory_has_them() {
    let mut l = Layout::default();
    let layer = tar(&[("manifests/csv.yaml", b"csv"), ("metadata/annotations.yaml", b"ann"), ("etc/x", b"")]);
    let d = l.image(&[(MANIFESTS_LABEL, "manifests/"), (METADATA_LABEL, "metadata/")], &[layer]);
    l.tag(d, "b");
    let o = read_layout(l.tree(), None, None, &Budgets::default()).unwrap();
    assert_eq!(paths(&o), [("manifests/csv.yaml", "csv"), ("metadata/annotations.yaml", "ann")]);
}

/// A docker-archive as `docker save` writes it: `manifest.json`, `<hex>.json`, `<dir>/layer.tar`.
fn docker_archive(layers: &[Vec<u8>], diff_ids: &[Vec<u8>]) -> Vec<u8> {
    let ids: Vec<String> = diff_ids.iter().map(|l| Digest::sha256_of(l).to_string()).collect();
    let config = serde_json::to_vec(&serde_json::json!({"config": {"Labels": {CONFIGS_LABEL: "/configs"}}, "rootfs": {"type": "layers", "diff_ids": ids}})).unwrap();
    let config_name = format!("{}.json", Digest::sha256_of(&config).hex());
    let names: Vec<String> = (0..layers.len()).map(|i| format!("l{i}/layer.tar")).collect();
    let manifest =
        serde_json::to_vec(&serde_json::json!([{"Config": config_name, "RepoTags": ["cat:1"], "Layers": names}]))
            .unwrap();
    let mut entries: Vec<(&str, &[u8])> = vec![("manifest.json", &manifest), (&config_name, &config)];
    entries.extend(names.iter().zip(layers).map(|(n, l)| (n.as_str(), l.as_slice())));
    tar(&entries)
}

#[test]
fn a_docker_archive_is_read_and_its_layers_checked_by_the_configs_diff_ids() {
    let layer = tar(&[("configs/p/catalog.json", b"{}")]);
    let o = read_docker_archive_only(
        Cursor::new(docker_archive(std::slice::from_ref(&layer), std::slice::from_ref(&layer))),
        &Budgets::default(),
    )
    .unwrap();
    assert_eq!(paths(&o), [("p/catalog.json", "{}")]);
    // A compressed layer file is checked after decompression, as diff_ids are.
    assert!(read_docker_archive_only(
        Cursor::new(docker_archive(&[gzip(&layer)], std::slice::from_ref(&layer))),
        &Budgets::default()
    )
    .is_ok());
    let other = tar(&[("configs/p/catalog.json", b"[]")]);
    let e = read_docker_archive_only(Cursor::new(docker_archive(&[other], &[layer])), &Budgets::default());
    assert!(matches!(e, Err(Error::DigestMismatch { .. })), "{e:?}");
}

#[test]
fn a_blob_longer_than_its_descriptor_says_is_refused() {
    let mut l = Layout::default();
    let d = l.image_with_sizes(&[CATALOG], &[tar(&[("configs/a/catalog.json", b"{}")])], 1);
    l.tag(d, "v1");
    let e = read_layout(l.tree(), None, None, &Budgets::default()).unwrap_err().to_string();
    assert!(e.contains("longer than its descriptor's size"), "{e}");
}

fn read_docker_archive_only(archive: Cursor<Vec<u8>>, budgets: &Budgets) -> Result<Opened, Error> {
    read_docker_archive(archive, None, budgets)
}

#[test]
fn a_docker_archive_image_is_picked_by_one_of_its_tags() {
    let layer = tar(&[("configs/p/catalog.json", b"{}")]);
    let archive = docker_archive(std::slice::from_ref(&layer), std::slice::from_ref(&layer));
    assert!(read_docker_archive(Cursor::new(archive.clone()), Some("cat:1"), &Budgets::default()).is_ok());
    let e = read_docker_archive(Cursor::new(archive), Some("cat:2"), &Budgets::default()).unwrap_err().to_string();
    assert!(e.contains("\"cat:2\"") && e.contains("cat:1"), "{e}");
}
