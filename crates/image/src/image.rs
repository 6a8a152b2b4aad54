//! An image as a list of layers and its labels, found from where it is stored: an OCI layout
//! (`index.json`, `blobs/`, also inside an oci-archive), a docker-archive (`manifest.json`), or a
//! registry's manifest. Every manifest and config is verified against its digest before it is
//! parsed; indexes (multi-arch) are resolved to one platform's manifest.

use std::collections::BTreeMap;
use std::io::Read;

use serde::Deserialize;

use crate::spec::{Descriptor, ImageConfig, ManifestDoc, Platform, REF_NAME};
use crate::tree::FileTree;
use crate::{Budgets, Digest, Error};

/// Nested indexes followed before giving up (an index of indexes is legal, a loop is not).
const MAX_INDEX_DEPTH: usize = 4;

/// Where a blob is: by digest (a layout's `blobs/`, a registry) or by path (a docker-archive).
/// A manifest is named apart: a registry serves manifests and blobs from different endpoints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Blob {
    Digest(Digest),
    Manifest(Digest),
    Path(String),
}

/// What a layer's content is checked against once read to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// The digest of the blob as stored (OCI and registry layers).
    Stored(Digest),
    /// The digest of the decompressed tar stream (a docker-archive layer, by the config's
    /// `rootfs.diff_ids`).
    Uncompressed(Digest),
}

/// One layer of an image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layer {
    pub blob: Blob,
    pub check: Check,
    /// The media type its manifest gave (empty in a docker-archive).
    pub media_type: String,
    /// The size its descriptor gives (0: unknown); a blob that runs longer is refused.
    pub size: u64,
}

impl Layer {
    /// How findings and errors name it: its digest.
    pub fn name(&self) -> String {
        match &self.check {
            Check::Stored(d) | Check::Uncompressed(d) => d.to_string(),
        }
    }
}

/// An image: its identity, labels and layers.
#[derive(Debug, Clone)]
pub struct Image {
    /// The manifest's digest (a docker-archive has no manifest: its config's digest, docker's
    /// image ID).
    pub digest: Digest,
    /// The config's labels.
    pub labels: BTreeMap<String, String>,
    /// The layers, lowest first.
    pub layers: Vec<Layer>,
    /// The platform picked from an image index, and how many manifests it had.
    pub picked: Option<(Platform, usize)>,
}

/// A store of blobs an image's parts are read from.
pub trait Source {
    /// The blob's bytes as stored (unverified: the reader verifies them). `most`: the most bytes
    /// the reader will accept (a store that copies the blob somewhere copies no more, plus one
    /// to notice that it is longer).
    fn open(&mut self, blob: &Blob, most: u64) -> Result<Box<dyn Read + '_>, Error>;
}

/// An OCI layout or an archive's files as a blob store: a digest is `blobs/ALG/HEX`.
pub struct Files<T>(pub T);

impl<T: FileTree> Source for Files<T> {
    fn open(&mut self, blob: &Blob, _most: u64) -> Result<Box<dyn Read + '_>, Error> {
        let path = match blob {
            Blob::Digest(d) | Blob::Manifest(d) => format!("blobs/{}/{}", d.algorithm().name(), d.hex()),
            Blob::Path(p) => p.clone(),
        };
        self.0.open(&path)?.ok_or(Error::Missing { what: path })
    }
}

/// Read a small blob whole (at most `limit` bytes) and check its digest.
pub fn read_verified(source: &mut dyn Source, blob: &Blob, what: &str, limit: u64) -> Result<Vec<u8>, Error> {
    let (Blob::Digest(digest) | Blob::Manifest(digest)) = blob else {
        return Err(Error::malformed(what, "not named by a digest"));
    };
    let bytes = read_limited(source.open(blob, limit)?, what, limit)?;
    digest.verify(what, &bytes)?;
    Ok(bytes)
}

/// Read `r` whole, refusing more than `limit` bytes.
pub fn read_limited(r: impl Read, what: &str, limit: u64) -> Result<Vec<u8>, Error> {
    let mut bytes = Vec::new();
    r.take(limit + 1).read_to_end(&mut bytes).map_err(|e| Error::reading(what, e))?;
    if bytes.len() as u64 > limit {
        return Err(Error::Budget { what: what.into(), message: format!("larger than {limit} bytes") });
    }
    Ok(bytes)
}

/// The image an OCI layout names by `tag` (none: its only image), for `platform` when it is an index.
pub fn open_layout<T: FileTree>(
    tree: T,
    tag: Option<&str>,
    platform: Option<&Platform>,
    budgets: &Budgets,
) -> Result<(Image, Files<T>), Error> {
    let mut files = Files(tree);
    let index = files.0.open("index.json")?.ok_or(Error::Missing { what: "index.json".into() })?;
    let index = read_limited(index, "index.json", budgets.manifest_bytes)?;
    let ManifestDoc::Index(manifests) = ManifestDoc::parse("index.json", &index, None)? else {
        return Err(Error::malformed("index.json", "not an image index"));
    };
    let desc = pick_tag(&manifests, tag)?;
    let image = resolve(&mut files, desc, platform, budgets)?;
    Ok((image, files))
}

/// The manifest of `manifests` named `tag`, or the only one when no tag is asked for.
fn pick_tag<'m>(manifests: &'m [Descriptor], tag: Option<&str>) -> Result<&'m Descriptor, Error> {
    let known: Vec<String> = manifests.iter().filter_map(|d| d.annotations.get(REF_NAME).cloned()).collect();
    let found: Vec<&Descriptor> = match tag {
        Some(t) => manifests.iter().filter(|d| d.annotations.get(REF_NAME).map(String::as_str) == Some(t)).collect(),
        None => manifests.iter().collect(),
    };
    match found[..] {
        [one] => Ok(one),
        _ => Err(Error::NoSuchTag { tag: tag.unwrap_or("").into(), known }),
    }
}

/// The image `desc` points to: an index resolved to `platform`'s manifest, its config read.
pub fn resolve(
    source: &mut dyn Source,
    desc: &Descriptor,
    platform: Option<&Platform>,
    budgets: &Budgets,
) -> Result<Image, Error> {
    let digest = desc.digest()?;
    let what = format!("manifest {digest}");
    let bytes = read_verified(source, &Blob::Manifest(digest.clone()), &what, budgets.manifest_bytes)?;
    resolve_manifest(source, digest, &bytes, Some(&desc.media_type), platform, budgets)
}

/// The image of the manifest or index `bytes` (already verified as `digest`).
pub fn resolve_manifest(
    source: &mut dyn Source,
    mut digest: Digest,
    bytes: &[u8],
    media_type: Option<&str>,
    platform: Option<&Platform>,
    budgets: &Budgets,
) -> Result<Image, Error> {
    let mut doc = ManifestDoc::parse(&format!("manifest {digest}"), bytes, media_type)?;
    let mut picked = None;
    for _ in 0..MAX_INDEX_DEPTH {
        let (config, layers) = match doc {
            ManifestDoc::Image { config, layers } => (config, layers),
            ManifestDoc::Index(manifests) => {
                let chosen = pick_platform(&manifests, platform)?;
                picked = Some((chosen.platform.clone().unwrap_or_else(Platform::default_platform), manifests.len()));
                digest = chosen.digest()?;
                let what = format!("manifest {digest}");
                let bytes = read_verified(source, &Blob::Manifest(digest.clone()), &what, budgets.manifest_bytes)?;
                doc = ManifestDoc::parse(&what, &bytes, Some(&chosen.media_type))?;
                continue;
            }
        };
        let config_digest = config.digest()?;
        let what = format!("config {config_digest}");
        let config = ImageConfig::parse(
            &what,
            &read_verified(source, &Blob::Digest(config_digest.clone()), &what, budgets.config_bytes)?,
        )?;
        let layers = layers
            .iter()
            .map(|l| {
                let d = l.digest()?;
                let media_type = l.media_type.clone();
                Ok(Layer { blob: Blob::Digest(d.clone()), check: Check::Stored(d), media_type, size: l.size })
            })
            .collect::<Result<_, Error>>()?;
        return Ok(Image { digest, labels: config.labels(), layers, picked });
    }
    Err(Error::malformed(format!("manifest {digest}"), "image indexes nested too deep"))
}

/// The manifest for `platform` (default: linux/amd64, else the first manifest).
fn pick_platform<'m>(manifests: &'m [Descriptor], platform: Option<&Platform>) -> Result<&'m Descriptor, Error> {
    let wanted = platform.cloned().unwrap_or_else(Platform::default_platform);
    let fits = |d: &&Descriptor| d.platform.as_ref().is_some_and(|p| wanted.matches(p));
    if let Some(d) = manifests.iter().find(fits) {
        return Ok(d);
    }
    match (platform, manifests.first()) {
        (None, Some(first)) => Ok(first),
        _ => Err(Error::NoSuchPlatform {
            platform: wanted.to_string(),
            known: manifests.iter().filter_map(|d| d.platform.as_ref().map(|p| p.to_string())).collect(),
        }),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct ArchiveEntry {
    config: String,
    #[serde(default)]
    repo_tags: Option<Vec<String>>,
    layers: Vec<String>,
}

/// The image of a docker-archive (`docker save`, `podman save`) tagged `reference` (none: its
/// only image): `manifest.json`, its config (checked by its file name's digest) and layer files
/// (checked by the config's `diff_ids`).
pub fn open_docker_archive<T: FileTree>(
    tree: T,
    reference: Option<&str>,
    budgets: &Budgets,
) -> Result<(Image, Files<T>), Error> {
    let mut files = Files(tree);
    let what = "manifest.json";
    let manifest = files.0.open(what)?.ok_or(Error::Missing { what: what.into() })?;
    let manifest = read_limited(manifest, what, budgets.manifest_bytes)?;
    let entries: Vec<ArchiveEntry> = serde_json::from_slice(&manifest).map_err(|e| Error::malformed(what, e))?;
    let tagged = |e: &&ArchiveEntry| reference.is_none_or(|r| e.repo_tags.iter().flatten().any(|t| t == r));
    let found: Vec<&ArchiveEntry> = entries.iter().filter(tagged).collect();
    let entry = match found[..] {
        [one] => one,
        _ => {
            let tags = entries.iter().flat_map(|e| e.repo_tags.clone().unwrap_or_default()).collect();
            return Err(Error::NoSuchTag { tag: reference.unwrap_or("").into(), known: tags });
        }
    };
    let config_bytes = read_limited(
        files.open(&Blob::Path(entry.config.clone()), budgets.config_bytes)?,
        &entry.config,
        budgets.config_bytes,
    )?;
    let digest = Digest::sha256_of(&config_bytes);
    let stem = entry.config.rsplit('/').next().unwrap_or("").trim_end_matches(".json");
    if stem.len() == 64 && stem.bytes().all(|b| b.is_ascii_hexdigit()) {
        Digest::parse(&format!("sha256:{stem}"))?.check(&entry.config, digest.clone())?;
    }
    let config = ImageConfig::parse(&entry.config, &config_bytes)?;
    let diff_ids = config.rootfs.as_ref().map(|r| r.diff_ids.clone()).unwrap_or_default();
    if diff_ids.len() != entry.layers.len() {
        let message = format!("{} layers but {} diff_ids in its config", entry.layers.len(), diff_ids.len());
        return Err(Error::malformed(what, message));
    }
    let layers = entry
        .layers
        .iter()
        .zip(&diff_ids)
        .map(|(path, id)| {
            let check = Check::Uncompressed(Digest::parse(id)?);
            Ok(Layer { blob: Blob::Path(path.clone()), check, media_type: String::new(), size: 0 })
        })
        .collect::<Result<_, Error>>()?;
    Ok((Image { digest, labels: config.labels(), layers, picked: None }, files))
}
