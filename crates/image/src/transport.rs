//! Image references in the containers-transports spelling users know from skopeo and podman:
//! `oci:DIR[:TAG]`, `oci-archive:FILE[:TAG]`, `docker-archive:FILE[:REFERENCE]` (`-`: standard input),
//! `docker://REFERENCE`. Bare registry references are told from paths by the caller (it can
//! look at the filesystem).

/// Where an image is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// An OCI image layout directory, and the tag (`org.opencontainers.image.ref.name`) in it.
    Oci { dir: String, tag: Option<String> },
    /// A tar of an OCI image layout.
    OciArchive { file: String, tag: Option<String> },
    /// `docker save` / `podman save` output (`-`: standard input), and the image in it named by
    /// one of its tags (needed when it holds several).
    DockerArchive { file: String, reference: Option<String> },
    /// A registry reference (`docker://` dropped).
    Registry { reference: String },
}

impl Transport {
    /// The transport `s` names, or `None` when it has no transport prefix.
    pub fn parse(s: &str) -> Option<Transport> {
        let (prefix, rest) = s.split_once(':')?;
        let split_tag = |r: &str| match r.split_once(':') {
            Some((path, tag)) if !tag.is_empty() => (path.to_string(), Some(tag.to_string())),
            Some((path, _)) => (path.to_string(), None),
            None => (r.to_string(), None),
        };
        Some(match prefix {
            "oci" => {
                let (dir, tag) = split_tag(rest);
                Transport::Oci { dir, tag }
            }
            "oci-archive" => {
                let (file, tag) = split_tag(rest);
                Transport::OciArchive { file, tag }
            }
            "docker-archive" => {
                let (file, reference) = split_tag(rest);
                Transport::DockerArchive { file, reference }
            }
            "docker" => Transport::Registry { reference: rest.trim_start_matches("//").to_string() },
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_transport_is_spelled_as_skopeo_spells_it() {
        let oci = |dir: &str, tag: Option<&str>| Transport::Oci { dir: dir.into(), tag: tag.map(Into::into) };
        assert_eq!(Transport::parse("oci:/tmp/layout:v1"), Some(oci("/tmp/layout", Some("v1"))));
        assert_eq!(Transport::parse("oci:layout"), Some(oci("layout", None)));
        assert_eq!(
            Transport::parse("oci-archive:cat.tar:latest"),
            Some(Transport::OciArchive { file: "cat.tar".into(), tag: Some("latest".into()) })
        );
        assert_eq!(
            Transport::parse("docker-archive:-"),
            Some(Transport::DockerArchive { file: "-".into(), reference: None })
        );
        assert_eq!(
            Transport::parse("docker-archive:cat.tar:example.com/cat:v1"),
            Some(Transport::DockerArchive { file: "cat.tar".into(), reference: Some("example.com/cat:v1".into()) })
        );
        assert_eq!(
            Transport::parse("docker://quay.io/org/index:v4.18"),
            Some(Transport::Registry { reference: "quay.io/org/index:v4.18".into() })
        );
        assert_eq!(Transport::parse("catalog/dir"), None);
        assert_eq!(Transport::parse("quay.io/org/index:v4.18"), None);
    }
}
