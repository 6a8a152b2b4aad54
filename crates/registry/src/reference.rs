//! Image references as containers/image reads them: `[REGISTRY/]REPOSITORY[:TAG][@DIGEST]`, a
//! missing registry being Docker Hub (`docker.io`, `library/` for one-part names), a missing tag
//! `latest`.

use std::fmt;

use olm_catalog_image::Digest;

use crate::Error;

/// Docker Hub's name in references, and the host its API is served from.
pub const DOCKER_HUB: &str = "docker.io";
const DOCKER_HUB_API: &str = "registry-1.docker.io";

/// A parsed reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// `host[:port]`.
    pub registry: String,
    /// `org/name`.
    pub repository: String,
    pub tag: Option<String>,
    pub digest: Option<Digest>,
}

impl Reference {
    /// Parse `s` (a leading `docker://` is dropped).
    pub fn parse(s: &str) -> Result<Reference, Error> {
        let bad = |why: &str| Error::Reference { reference: s.to_string(), message: why.to_string() };
        let rest = s.strip_prefix("docker://").unwrap_or(s);
        let (rest, digest) = match rest.split_once('@') {
            Some((r, d)) => (r, Some(Digest::parse(d).map_err(|e| bad(&e.to_string()))?)),
            None => (rest, None),
        };
        let (name, tag) = match rest.rsplit_once(':') {
            Some((n, t)) if !t.contains('/') => (n, Some(t.to_string())),
            _ => (rest, None),
        };
        let (registry, repository) = match name.split_once('/') {
            Some((first, repo)) if is_registry(first) => (first.to_string(), repo.to_string()),
            _ => (DOCKER_HUB.to_string(), name.to_string()),
        };
        let repository = if registry == DOCKER_HUB && !repository.contains('/') {
            format!("library/{repository}")
        } else {
            repository
        };
        let part_ok = |p: &str| {
            !p.is_empty() && p.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-".contains(&b))
        };
        if !repository.split('/').all(part_ok) {
            return Err(bad("invalid repository name"));
        }
        let tag_ok = |t: &String| {
            !t.is_empty() && t.len() <= 128 && t.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
        };
        if tag.as_ref().is_some_and(|t| !tag_ok(t)) {
            return Err(bad("invalid tag"));
        }
        Ok(Reference { registry, repository, tag, digest })
    }

    /// Whether `s` reads as a registry reference with an explicit registry (`quay.io/org/x:1`,
    /// `localhost:5000/x`), as opposed to a path.
    pub fn looks_like_one(s: &str) -> bool {
        let rest = s.strip_prefix("docker://").unwrap_or(s);
        rest.split_once('/').is_some_and(|(first, _)| is_registry(first)) && Reference::parse(s).is_ok()
    }

    /// The tag or digest a manifest is asked for by (`latest` when neither is given).
    pub fn manifest_reference(&self) -> String {
        match (&self.digest, &self.tag) {
            (Some(d), _) => d.to_string(),
            (None, Some(t)) => t.clone(),
            (None, None) => "latest".into(),
        }
    }

    /// `registry/repository`, the name registries.conf prefixes match.
    pub fn name(&self) -> String {
        format!("{}/{}", self.registry, self.repository)
    }
}

/// The host an API request for `registry` goes to.
pub fn api_host(registry: &str) -> &str {
    if registry == DOCKER_HUB {
        DOCKER_HUB_API
    } else {
        registry
    }
}

/// containers/image's rule: the first part is a registry when it has a `.` or `:`, or is `localhost`.
fn is_registry(first: &str) -> bool {
    let host_chars = first.bytes().all(|b| b.is_ascii_alphanumeric() || b".-:".contains(&b));
    let dots_only = first.bytes().all(|b| b == b'.');
    host_chars && !dots_only && (first.contains('.') || first.contains(':') || first == "localhost")
}

impl fmt::Display for Reference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.registry, self.repository)?;
        if let Some(t) = &self.tag {
            write!(f, ":{t}")?;
        }
        if let Some(d) = &self.digest {
            write!(f, "@{d}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const D: &str = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    #[test]
    fn a_reference_names_registry_repository_tag_and_digest() {
        let r = Reference::parse("quay.io/operatorhubio/catalog:latest").unwrap();
        assert_eq!(
            (r.registry.as_str(), r.repository.as_str(), r.tag.as_deref()),
            ("quay.io", "operatorhubio/catalog", Some("latest"))
        );
        let r = Reference::parse(&format!("docker://localhost:5000/a/b@{D}")).unwrap();
        assert_eq!(
            (r.registry.as_str(), r.repository.as_str(), r.manifest_reference()),
            ("localhost:5000", "a/b", D.to_string())
        );
    }

    #[test]
    fn a_reference_without_registry_is_docker_hub_and_without_tag_latest() {
        let r = Reference::parse("busybox").unwrap();
        assert_eq!(
            (r.registry.as_str(), r.repository.as_str(), r.manifest_reference()),
            ("docker.io", "library/busybox", "latest".into())
        );
        assert_eq!(api_host(&r.registry), "registry-1.docker.io");
    }

    #[test]
    fn a_path_is_not_taken_for_a_reference() {
        assert!(Reference::looks_like_one("registry.redhat.io/redhat/redhat-operator-index:v4.18"));
        assert!(Reference::looks_like_one("127.0.0.1:5000/cat@".to_string().trim_end_matches('@')));
        for path in ["catalog", "catalogs/v4.18", "./x/y", "../x/y", "/abs/dir", "my.dir"] {
            assert!(!Reference::looks_like_one(path), "{path}");
        }
    }

    #[test]
    fn bad_references_say_why() {
        assert!(Reference::parse("quay.io/Org/x").is_err());
        assert!(Reference::parse("quay.io/org/x@sha256:abc").is_err());
        assert!(Reference::parse("quay.io/org/x:bad+tag").is_err());
    }
}
