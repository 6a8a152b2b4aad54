//! Catalog and bundle images from a registry (Docker Registry v2 / OCI distribution), native
//! only: [`pull`] reads `REGISTRY/REPOSITORY[:TAG][@DIGEST]` (or `docker://…`) as podman and
//! skopeo would find it (`registries.conf` rewrites, mirrors, `insecure`, `blocked`; credentials
//! from auth files), through a verified content-addressed [`Cache`], and hands the manifests and
//! blobs to `olm-catalog-image`, which checks and unpacks them. A digest reference whose blobs
//! are cached needs no network; a tag needs one manifest request.

mod auth;
mod cache;
mod challenge;
mod client;
mod conf;
mod reference;

use std::fmt;
use std::io::Read;

use olm_catalog_image::{
    read_content, resolve_manifest, Blob, Budgets, Content, Digest, Kind, Opened, Platform, Source,
};

pub use auth::{auth_files, Credentials};
pub use cache::Cache;
pub use challenge::Challenge;
pub use client::{Client, ClientOptions};
pub use conf::{Endpoint, RegistriesConf};
pub use reference::Reference;

/// What can go wrong reaching a registry.
#[derive(Debug)]
pub enum Error {
    Reference {
        reference: String,
        message: String,
    },
    /// A configuration file (registries.conf, an auth file, a credential helper) is unusable.
    Config {
        file: String,
        message: String,
    },
    /// registries.conf blocks the registry.
    Blocked {
        name: String,
    },
    Unauthorized {
        registry: String,
        message: String,
    },
    NotFound {
        what: String,
    },
    Http {
        url: String,
        status: u16,
        message: String,
    },
    /// The connection failed or dropped (after the retries).
    Transfer {
        what: String,
        message: String,
    },
    Cache {
        path: String,
        message: String,
    },
    /// `--offline` and the image is not all in the cache.
    Offline {
        reference: String,
    },
    /// The image itself is wrong (digests, formats, budgets).
    Image(olm_catalog_image::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Reference { reference, message } => write!(f, "invalid image reference {reference:?}: {message}"),
            Error::Config { file, message } => write!(f, "{file}: {message}"),
            Error::Blocked { name } => write!(f, "{name}: the registry is blocked by registries.conf"),
            Error::Unauthorized { registry, message } => write!(f, "{registry}: unauthorized: {message}"),
            Error::NotFound { what } => write!(f, "{what}: not found"),
            Error::Http { url, status, message } => write!(f, "{url}: HTTP {status}: {message}"),
            Error::Transfer { what, message } => write!(f, "{what}: {message}"),
            Error::Cache { path, message } => write!(f, "cache {path}: {message}"),
            Error::Offline { .. } => write!(f, "not in the cache, and --offline forbids the network"),
            Error::Image(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<olm_catalog_image::Error> for Error {
    fn from(e: olm_catalog_image::Error) -> Error {
        Error::Image(e)
    }
}

/// How to pull.
#[derive(Debug, Clone, Default)]
pub struct PullOptions {
    pub client: ClientOptions,
    /// The cache (`None`: `--no-cache`, every blob streamed from the registry).
    pub cache: Option<Cache>,
    /// Use no network: everything must come from the cache (a digest reference).
    pub offline: bool,
    /// Show each blob's download on standard error (for a terminal).
    pub progress: bool,
}

/// An image pulled: where from, and its content.
pub struct Pulled {
    pub reference: Reference,
    /// The repository it was read from (after registries.conf).
    pub endpoint: Endpoint,
    pub opened: Opened,
}

/// Read the catalog or bundle image `reference` from its registry, registries.conf found as
/// containers/image finds it.
pub fn pull(
    reference: &str,
    platform: Option<&Platform>,
    budgets: &Budgets,
    options: &PullOptions,
) -> Result<Pulled, Error> {
    pull_with(reference, &RegistriesConf::load()?, platform, budgets, options)
}

/// [`pull`] with the registries configuration `conf`.
pub fn pull_with(
    reference: &str,
    conf: &RegistriesConf,
    platform: Option<&Platform>,
    budgets: &Budgets,
    options: &PullOptions,
) -> Result<Pulled, Error> {
    let r = Reference::parse(reference)?;
    let endpoints = conf.endpoints(&r.registry, &r.repository, r.digest.is_some())?;
    let client = Client::new(options.client.clone());
    let mut blobs = Blobs {
        client: &client,
        endpoints,
        cache: options.cache.as_ref(),
        offline: options.offline,
        progress: options.progress,
        reference,
    };
    let (digest, bytes, media_type) = top_manifest(&mut blobs, &r, budgets)?;
    let image = resolve_manifest(&mut blobs, digest, &bytes, media_type.as_deref(), platform, budgets)?;
    let opened = Opened { content: content(&mut blobs, &image, budgets)?, image };
    Ok(Pulled { reference: r, endpoint: blobs.endpoints[0].clone(), opened })
}

/// The image's files: kept in the cache from an earlier read, else unpacked from its layers (and
/// kept, when nothing was skipped: the warnings of skipped entries are given on every read).
fn content(blobs: &mut Blobs, image: &olm_catalog_image::Image, budgets: &Budgets) -> Result<Content, Error> {
    if let Some(files) = blobs.cache.and_then(|c| c.get_tree(&image.digest)) {
        return Ok(Content { kind: Kind::of(&image.labels)?, files, findings: Vec::new() });
    }
    let content = read_content(blobs, image, budgets)?;
    if let (Some(cache), true) = (blobs.cache, content.findings.is_empty()) {
        // A cache that cannot be written is no reason to fail the read.
        let _ = cache.put_tree(&image.digest, &content.files);
    }
    Ok(content)
}

/// The manifest the reference names, verified: from the cache for a cached digest, else from
/// the first endpoint that has it (which then serves the blobs too).
fn top_manifest(
    blobs: &mut Blobs,
    r: &Reference,
    budgets: &Budgets,
) -> Result<(Digest, Vec<u8>, Option<String>), Error> {
    if let (Some(d), Some(cache)) = (&r.digest, blobs.cache) {
        if let Some(f) = cache.get(d) {
            let bytes = olm_catalog_image::read_limited(f, &format!("manifest {d}"), budgets.manifest_bytes)?;
            return Ok((d.clone(), bytes, None));
        }
    }
    if blobs.offline {
        return Err(Error::Offline { reference: blobs.reference.to_string() });
    }
    let mut last = None;
    for i in 0..blobs.endpoints.len() {
        match blobs.client.manifest(&blobs.endpoints[i], &r.manifest_reference(), budgets.manifest_bytes) {
            Ok(fetched) => {
                blobs.endpoints.rotate_left(i);
                let digest = manifest_digest(r, &fetched)?;
                if let Some(cache) = blobs.cache {
                    cache.put(&digest, fetched.bytes.as_slice())?;
                }
                return Ok((digest, fetched.bytes, fetched.media_type));
            }
            Err(e) => last = Some(e),
        }
    }
    Err(last.expect("at least one endpoint"))
}

/// The digest of a fetched manifest: the reference's (checked), else computed (and checked
/// against the registry's `Docker-Content-Digest` when it sent one).
fn manifest_digest(r: &Reference, fetched: &client::Fetched) -> Result<Digest, Error> {
    let what = format!("manifest of {r}");
    if let Some(d) = &r.digest {
        d.verify(&what, &fetched.bytes)?;
        return Ok(d.clone());
    }
    let actual = Digest::sha256_of(&fetched.bytes);
    if let Some(claimed) = fetched.digest_header.as_deref().and_then(|h| Digest::parse(h).ok()) {
        if claimed.algorithm() == actual.algorithm() {
            claimed.check(&what, actual.clone())?;
        }
    }
    Ok(actual)
}

/// A download's progress on standard error: `pulling sha256:0123456789ab: 12.3 MB`, on one line
/// rewritten as it grows (each megabyte) and ended when the download is.
struct Progress {
    inner: Box<dyn Read>,
    name: String,
    read: u64,
    shown: u64,
}

impl Read for Progress {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if self.shown == u64::MAX {
            return Ok(n); // the end was shown
        }
        self.read += n as u64;
        if n == 0 || self.read - self.shown >= 1 << 20 {
            self.shown = if n == 0 { u64::MAX } else { self.read };
            let end = if n == 0 { "\n" } else { "" };
            let size = if self.read < 1_000_000 {
                format!("{:.1} kB", self.read as f64 / 1e3)
            } else {
                format!("{:.1} MB", self.read as f64 / 1e6)
            };
            eprint!("\rpulling sha256:{}: {size}{end}", self.name);
        }
        Ok(n)
    }
}

/// The registry as a blob store for the image reader, through the cache.
struct Blobs<'c> {
    client: &'c Client,
    endpoints: Vec<Endpoint>,
    cache: Option<&'c Cache>,
    offline: bool,
    progress: bool,
    reference: &'c str,
}

impl Source for Blobs<'_> {
    fn open(&mut self, blob: &Blob, most: u64) -> Result<Box<dyn Read + '_>, olm_catalog_image::Error> {
        let (d, manifest) = match blob {
            Blob::Digest(d) => (d, false),
            Blob::Manifest(d) => (d, true),
            Blob::Path(_) => {
                let what = format!("{blob:?} (a registry has blobs by digest only)");
                return Err(olm_catalog_image::Error::Missing { what });
            }
        };
        let as_image_error = |e: Error| match e {
            Error::Image(e) => e,
            other => olm_catalog_image::Error::Io { what: format!("blob {d}"), message: other.to_string() },
        };
        if let Some(f) = self.cache.and_then(|c| c.get(d)) {
            return Ok(Box::new(std::io::BufReader::new(f)));
        }
        if self.offline {
            return Err(as_image_error(Error::Offline { reference: self.reference.to_string() }));
        }
        if manifest {
            // An index's manifest, from the manifests endpoint (kept in the cache like a blob).
            let fetched = self.client.manifest(&self.endpoints[0], &d.to_string(), most).map_err(as_image_error)?;
            if let Some(c) = self.cache {
                c.put(d, fetched.bytes.as_slice()).map_err(as_image_error)?;
            }
            return Ok(Box::new(std::io::Cursor::new(fetched.bytes)));
        }
        let mut stream = self.client.blob(&self.endpoints[0], d).map_err(as_image_error)?;
        if self.progress {
            stream = Box::new(Progress { inner: stream, name: d.hex()[..12].to_string(), read: 0, shown: 0 });
        }
        match self.cache {
            // At most one byte more than the reader accepts reaches the disk (an endless body
            // stops there, and then fails its digest).
            Some(c) => Ok(Box::new(std::io::BufReader::new(
                c.put(d, stream.take(most.saturating_add(1))).map_err(as_image_error)?,
            ))),
            None => Ok(stream),
        }
    }
}
