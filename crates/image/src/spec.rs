//! The JSON documents of an image, OCI and Docker v2 alike: descriptors, image indexes (manifest
//! lists), image manifests and image configs (only the fields a catalog reader needs).

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;

use crate::{Digest, Error};

pub const OCI_INDEX: &str = "application/vnd.oci.image.index.v1+json";
pub const OCI_MANIFEST: &str = "application/vnd.oci.image.manifest.v1+json";
pub const DOCKER_LIST: &str = "application/vnd.docker.distribution.manifest.list.v2+json";
pub const DOCKER_MANIFEST: &str = "application/vnd.docker.distribution.manifest.v2+json";
/// The manifest media types a reader accepts, for a registry's `Accept` header.
pub const MANIFEST_TYPES: [&str; 4] = [OCI_INDEX, OCI_MANIFEST, DOCKER_LIST, DOCKER_MANIFEST];

/// The annotation an OCI layout's `index.json` names a tag with.
pub const REF_NAME: &str = "org.opencontainers.image.ref.name";

/// A reference to a blob: its media type, digest and size.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Descriptor {
    #[serde(default)]
    pub media_type: String,
    pub digest: String,
    #[serde(default)]
    pub size: u64,
    #[serde(default)]
    pub annotations: BTreeMap<String, String>,
    #[serde(default)]
    pub platform: Option<Platform>,
}

impl Descriptor {
    /// The parsed digest, the error naming `what` when it is not one.
    pub fn digest(&self) -> Result<Digest, Error> {
        Digest::parse(&self.digest)
    }
}

/// The platform of an index's manifest (`os/architecture[/variant]`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Platform {
    #[serde(default)]
    pub os: String,
    #[serde(default)]
    pub architecture: String,
    #[serde(default)]
    pub variant: Option<String>,
}

impl Platform {
    /// `linux/amd64`, the platform picked when none is asked for.
    pub fn default_platform() -> Platform {
        Platform { os: "linux".into(), architecture: "amd64".into(), variant: None }
    }

    /// Parse `os/arch[/variant]`.
    pub fn parse(s: &str) -> Result<Platform, Error> {
        let parts: Vec<&str> = s.split('/').collect();
        match parts[..] {
            [os, arch] | [os, arch, _] if !os.is_empty() && !arch.is_empty() => {
                Ok(Platform { os: os.into(), architecture: arch.into(), variant: parts.get(2).map(|v| v.to_string()) })
            }
            _ => Err(Error::malformed(format!("platform {s:?}"), "expected OS/ARCH or OS/ARCH/VARIANT")),
        }
    }

    /// Whether a manifest of platform `other` serves this one (a variant only when asked for).
    pub fn matches(&self, other: &Platform) -> bool {
        self.os == other.os
            && self.architecture == other.architecture
            && (self.variant.is_none() || self.variant == other.variant)
    }
}

impl fmt::Display for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.os, self.architecture)?;
        if let Some(v) = &self.variant {
            write!(f, "/{v}")?;
        }
        Ok(())
    }
}

/// A manifest document: an index of manifests, or an image manifest.
#[derive(Debug, Clone)]
pub enum ManifestDoc {
    Index(Vec<Descriptor>),
    Image { config: Descriptor, layers: Vec<Descriptor> },
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawManifest {
    #[serde(default)]
    schema_version: Option<u32>,
    #[serde(default)]
    media_type: Option<String>,
    #[serde(default)]
    manifests: Option<Vec<Descriptor>>,
    #[serde(default)]
    config: Option<Descriptor>,
    #[serde(default)]
    layers: Option<Vec<Descriptor>>,
}

impl ManifestDoc {
    /// Parse a manifest or index; `media_type` is the one its descriptor or response gave, if any.
    pub fn parse(what: &str, bytes: &[u8], media_type: Option<&str>) -> Result<ManifestDoc, Error> {
        let raw: RawManifest = serde_json::from_slice(bytes).map_err(|e| Error::malformed(what, e))?;
        let declared = raw.media_type.as_deref().or(media_type).unwrap_or("");
        if raw.schema_version == Some(1) || declared.contains("manifest.v1+") && declared.contains("docker") {
            return Err(Error::UnsupportedMediaType { what: what.into(), media_type: "Docker schema 1".into() });
        }
        if let Some(manifests) = raw.manifests {
            return Ok(ManifestDoc::Index(manifests));
        }
        match (raw.config, raw.layers) {
            (Some(config), Some(layers)) => Ok(ManifestDoc::Image { config, layers }),
            _ if !declared.is_empty() && !MANIFEST_TYPES.contains(&declared) => {
                Err(Error::UnsupportedMediaType { what: what.into(), media_type: declared.into() })
            }
            _ => Err(Error::malformed(what, "neither an image index (manifests) nor a manifest (config, layers)")),
        }
    }
}

/// The parts of an image config a catalog reader uses.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ImageConfig {
    #[serde(default)]
    pub config: Option<ContainerConfig>,
    #[serde(default)]
    pub rootfs: Option<RootFs>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct ContainerConfig {
    #[serde(rename = "Labels", default)]
    pub labels: Option<BTreeMap<String, String>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct RootFs {
    #[serde(default)]
    pub diff_ids: Vec<String>,
}

impl ImageConfig {
    pub fn parse(what: &str, bytes: &[u8]) -> Result<ImageConfig, Error> {
        serde_json::from_slice(bytes).map_err(|e| Error::malformed(what, e))
    }

    /// The image's labels (none when the config has none).
    pub fn labels(&self) -> BTreeMap<String, String> {
        self.config.as_ref().and_then(|c| c.labels.clone()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_platform_is_os_arch_and_an_optional_variant() {
        let p = Platform::parse("linux/arm64/v8").unwrap();
        assert_eq!(p.to_string(), "linux/arm64/v8");
        assert!(Platform::parse("linux").is_err() && Platform::parse("/amd64").is_err());
        let any_arm = Platform::parse("linux/arm64").unwrap();
        assert!(any_arm.matches(&p) && !p.matches(&Platform::parse("linux/arm64/v9").unwrap()));
    }

    #[test]
    fn a_manifest_is_told_from_an_index_by_its_fields() {
        let index = br#"{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:00","size":1}]}"#;
        assert!(matches!(ManifestDoc::parse("m", index, None).unwrap(), ManifestDoc::Index(m) if m.len() == 1));
        let image = br#"{"schemaVersion":2,"config":{"digest":"sha256:00","size":1},"layers":[]}"#;
        assert!(matches!(ManifestDoc::parse("m", image, None).unwrap(), ManifestDoc::Image { .. }));
        let v1 = br#"{"schemaVersion":1,"fsLayers":[]}"#;
        assert!(matches!(ManifestDoc::parse("m", v1, None), Err(Error::UnsupportedMediaType { .. })));
        assert!(matches!(ManifestDoc::parse("m", b"{", None), Err(Error::Malformed { .. })));
    }

    #[test]
    fn labels_come_from_the_container_config_and_may_be_absent() {
        let c = ImageConfig::parse("c", br#"{"config":{"Labels":{"a":"b"}}}"#).unwrap();
        assert_eq!(c.labels().get("a").map(String::as_str), Some("b"));
        assert!(ImageConfig::parse("c", br#"{"config":{"Labels":null}}"#).unwrap().labels().is_empty());
    }
}
