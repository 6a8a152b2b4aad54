//! Container images as catalog sources, read as `opm render IMAGE` reads them, in memory and
//! without network or filesystem in its core API (so it builds for WebAssembly too):
//!
//! - where an image is: an OCI image layout ([`open_layout`] over a [`FileTree`]), an
//!   oci-archive or docker-archive tarball ([`TarTree`], [`open_docker_archive`]), or a
//!   registry's manifest ([`resolve_manifest`] over a [`Source`] the registry client provides);
//! - what it is: manifests, indexes (one platform picked, linux/amd64 by default, else the
//!   first) and configs, OCI and Docker v2 media types ([`spec`]);
//! - what it holds: its labels say catalog or bundle ([`Kind`]); [`read_content`] unpacks only
//!   that subtree from the layers in order, whiteouts applied, gzip/zstd/plain, every blob
//!   checked against its digest before anything from it is used, hostile entries skipped with a
//!   [`Finding`], sizes held to [`Budgets`].
//!
//! It knows nothing about catalogs beyond the labels: its product is plain `(path, bytes)` files
//! for the catalog loader or the bundle renderer; it sits below every layer, like a dependency.

mod budgets;
mod content;
mod decompress;
mod digest;
mod error;
mod extract;
mod image;
pub mod spec;
mod transport;
mod tree;

pub use budgets::Budgets;
pub use content::{read_content, Content, Kind, CONFIGS_LABEL, DATABASE_LABEL, MANIFESTS_LABEL, METADATA_LABEL};
pub use decompress::Compression;
pub use digest::{Algorithm, Digest, Hasher, HashingReader};
pub use error::Error;
pub use extract::{Finding, FindingKind};
pub use image::{open_docker_archive, open_layout, read_limited, read_verified, resolve, resolve_manifest};
pub use image::{Blob, Check, Files, Image, Layer, Source};
pub use spec::Platform;
pub use transport::Transport;
#[cfg(not(target_arch = "wasm32"))]
pub use tree::DirTree;
pub use tree::{FileTree, MemTree, TarTree};

/// An image and its operator content.
#[derive(Debug, Clone)]
pub struct Opened {
    pub image: Image,
    pub content: Content,
}

/// The image an OCI layout (`tree`) names by `tag`, and its content.
pub fn read_layout(
    tree: impl FileTree,
    tag: Option<&str>,
    platform: Option<&Platform>,
    budgets: &Budgets,
) -> Result<Opened, Error> {
    let (image, mut files) = open_layout(tree, tag, platform, budgets)?;
    let content = read_content(&mut files, &image, budgets)?;
    Ok(Opened { image, content })
}

/// The image of an oci-archive (a tar of an OCI layout), and its content.
pub fn read_oci_archive<R: std::io::Read + std::io::Seek>(
    archive: R,
    tag: Option<&str>,
    platform: Option<&Platform>,
    budgets: &Budgets,
) -> Result<Opened, Error> {
    read_layout(TarTree::new(archive)?, tag, platform, budgets)
}

/// The image of a docker-archive (`docker save`, `podman save`) tagged `reference` (none: its
/// only image), and its content.
pub fn read_docker_archive<R: std::io::Read + std::io::Seek>(
    archive: R,
    reference: Option<&str>,
    budgets: &Budgets,
) -> Result<Opened, Error> {
    let (image, mut files) = open_docker_archive(TarTree::new(archive)?, reference, budgets)?;
    let content = read_content(&mut files, &image, budgets)?;
    Ok(Opened { image, content })
}

#[cfg(test)]
mod tests;
