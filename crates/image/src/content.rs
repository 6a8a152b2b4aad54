//! What an operator image holds, told by its labels, and its files read from its verified
//! layers: a catalog image's File-Based Catalog (`operators.operatorframework.io.index.configs.v1`)
//! or a bundle image's `manifests/` and `metadata/` (`…bundle.manifests.v1`, `…metadata.v1`).

use std::collections::BTreeMap;
use std::io::{self, Read};

use crate::decompress::decompressed;
use crate::extract::{Extraction, Finding, LayerChanges};
use crate::image::{Check, Image, Layer, Source};
use crate::{Budgets, Error, HashingReader};

pub const CONFIGS_LABEL: &str = "operators.operatorframework.io.index.configs.v1";
pub const DATABASE_LABEL: &str = "operators.operatorframework.io.index.database.v1";
pub const MANIFESTS_LABEL: &str = "operators.operatorframework.io.bundle.manifests.v1";
pub const METADATA_LABEL: &str = "operators.operatorframework.io.bundle.metadata.v1";

/// The kind of operator image, from its labels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A catalog image: the File-Based Catalog's directory in the image (`/configs`).
    Catalog { configs: String },
    /// A bundle image: its manifests' and metadata's directories.
    Bundle { manifests: String, metadata: String },
}

impl Kind {
    /// The kind `labels` declare: the configs label first (as opm), then a sqlite database (an
    /// error: no longer supported upstream), then the bundle labels.
    pub fn of(labels: &BTreeMap<String, String>) -> Result<Kind, Error> {
        if let Some(configs) = labels.get(CONFIGS_LABEL) {
            return Ok(Kind::Catalog { configs: configs.clone() });
        }
        if let Some(database) = labels.get(DATABASE_LABEL) {
            return Err(Error::SqliteIndex { database: database.clone() });
        }
        if let Some(manifests) = labels.get(MANIFESTS_LABEL) {
            let metadata = labels.get(METADATA_LABEL).cloned().unwrap_or_else(|| "metadata/".into());
            return Ok(Kind::Bundle { manifests: manifests.clone(), metadata });
        }
        Err(Error::NotAnOperatorImage { labels: labels.keys().cloned().collect() })
    }
}

/// An operator image's files.
#[derive(Debug, Clone)]
pub struct Content {
    pub kind: Kind,
    /// Catalog: the files under the configs directory, relative to it; bundle: `manifests/…`
    /// and `metadata/…` (whatever the labels name them), as a bundle directory has them.
    pub files: Vec<(String, Vec<u8>)>,
    /// Entries skipped while unpacking.
    pub findings: Vec<Finding>,
}

/// Read the operator content of `image` from `source`: every layer verified, in order.
pub fn read_content(source: &mut dyn Source, image: &Image, budgets: &Budgets) -> Result<Content, Error> {
    let kind = Kind::of(&image.labels)?;
    let roots: Vec<(String, String)> = match &kind {
        Kind::Catalog { configs } => vec![(trim(configs), String::new())],
        Kind::Bundle { manifests, metadata } => {
            vec![(trim(manifests), "manifests".into()), (trim(metadata), "metadata".into())]
        }
    };
    let dirs: Vec<&str> = roots.iter().map(|(r, _)| r.as_str()).collect();
    let mut extraction = Extraction::new(&dirs, budgets);
    for layer in &image.layers {
        let changes = read_layer(source, layer, &mut extraction, budgets)?;
        extraction.commit(changes);
    }
    let (files, findings) = extraction.finish(|path| rename(&roots, path));
    Ok(Content { kind, files, findings })
}

fn trim(dir: &str) -> String {
    dir.trim_matches('/').to_string()
}

/// `path` (from the image root) under the first root that holds it, renamed into its prefix.
fn rename(roots: &[(String, String)], path: &str) -> Option<String> {
    roots.iter().find_map(|(root, prefix)| {
        let rest = if root.is_empty() { path } else { path.strip_prefix(root.as_str())?.strip_prefix('/')? };
        Some(if prefix.is_empty() { rest.to_string() } else { format!("{prefix}/{rest}") })
    })
}

/// One layer's changes, kept only when the layer's digest checks out.
fn read_layer(
    source: &mut dyn Source,
    layer: &Layer,
    extraction: &mut Extraction,
    budgets: &Budgets,
) -> Result<LayerChanges, Error> {
    let name = layer.name();
    let what = format!("layer {name}");
    // A blob never runs past its descriptor's size (an endless body ends here), nor past the
    // layer budget when its size is unknown.
    let bound = if layer.size > 0 { layer.size } else { budgets.layer_bytes };
    let raw = Bounded { inner: source.open(&layer.blob, bound)?, left: bound, size: layer.size, over: false };
    let (changes, expected, actual) = match &layer.check {
        Check::Stored(expected) => {
            let mut hashed = HashingReader::new(raw, expected.algorithm());
            let changes = match decompressed(&mut hashed, budgets) {
                Ok((_, mut plain)) => {
                    let changes = extraction.read_layer(&name, &mut plain);
                    let drained = drain(&mut plain).map_err(|e| Error::reading(&what, e));
                    changes.and_then(|c| drained.map(|_| c))
                }
                Err(e) => Err(Error::reading(&what, e)),
            };
            // The rest of the blob is hashed whatever went wrong, so that a corrupt or truncated
            // blob is reported as the digest mismatch it is.
            (changes, expected, hashed.finish().map_err(|e| Error::reading(&what, e))?)
        }
        Check::Uncompressed(expected) => {
            let (_, plain) = decompressed(raw, budgets).map_err(|e| Error::reading(&what, e))?;
            let mut hashed = HashingReader::new(plain, expected.algorithm());
            let changes = extraction.read_layer(&name, &mut hashed);
            (changes, expected, hashed.finish().map_err(|e| Error::reading(&what, e))?)
        }
    };
    // The digest is checked before anything read from the layer is used, errors included.
    expected.check(&what, actual)?;
    changes
}

/// A blob's bytes, refused past `left` (its descriptor's size, or the budget).
struct Bounded<R> {
    inner: R,
    left: u64,
    size: u64,
    /// Past its end once: every later read fails too.
    over: bool,
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            // One byte more than allowed is an error; the end of the stream is not.
            let mut probe = [0u8; 1];
            if !self.over && self.inner.read(&mut probe)? == 0 {
                return Ok(0);
            }
            self.over = true;
            let message = if self.size > 0 {
                format!("the blob is longer than its descriptor's size, {} bytes", self.size)
            } else {
                "the blob is longer than the layer budget".to_string()
            };
            return Err(io::Error::other(message));
        }
        let want = buf.len().min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want])?;
        self.left -= n as u64;
        Ok(n)
    }
}

fn drain(r: &mut impl Read) -> io::Result<u64> {
    io::copy(r, &mut io::sink())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn the_labels_tell_a_catalog_from_a_bundle_image() {
        assert_eq!(
            Kind::of(&labels(&[(CONFIGS_LABEL, "/configs")])).unwrap(),
            Kind::Catalog { configs: "/configs".into() }
        );
        let bundle = Kind::of(&labels(&[(MANIFESTS_LABEL, "manifests/"), (METADATA_LABEL, "metadata/")])).unwrap();
        assert_eq!(bundle, Kind::Bundle { manifests: "manifests/".into(), metadata: "metadata/".into() });
    }

    #[test]
    fn a_sqlite_index_image_is_refused_with_how_to_migrate() {
        let e = Kind::of(&labels(&[(DATABASE_LABEL, "/database/index.db")])).unwrap_err().to_string();
        assert!(e.contains("no longer supported upstream") && e.contains("opm migrate"), "{e}");
        // An image with both labels is read as its File-Based Catalog, as opm does.
        assert!(Kind::of(&labels(&[(DATABASE_LABEL, "/db"), (CONFIGS_LABEL, "/configs")])).is_ok());
    }

    #[test]
    fn an_image_without_operator_labels_says_which_labels_it_has() {
        let e = Kind::of(&labels(&[("maintainer", "me")])).unwrap_err().to_string();
        assert!(e.contains("maintainer") && e.contains(CONFIGS_LABEL), "{e}");
    }

    #[test]
    fn files_are_named_from_their_root() {
        let roots =
            vec![("manifests".to_string(), "manifests".to_string()), ("meta".to_string(), "metadata".to_string())];
        assert_eq!(rename(&roots, "meta/annotations.yaml").as_deref(), Some("metadata/annotations.yaml"));
        let configs = vec![("configs".to_string(), String::new())];
        assert_eq!(rename(&configs, "configs/p/catalog.json").as_deref(), Some("p/catalog.json"));
        assert_eq!(rename(&configs, "configsx/a"), None);
    }
}
