//! Release strings and (version, release) pairs, as in operator-registry's
//! `alpha/model/versionrelease.go`: [`Release`] (`NewRelease`), its
//! [`ReleaseError`], and [`VersionRelease`] with its ordering and its
//! "version string" form used for duplicate detection and bundle names.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

use super::version::{compare_ident_lists, validate_prerelease_ident, Version, VersionError};
use crate::gotext::quote as go_quote;

/// Maximum length of a release string, in bytes (the CSV CRD constraint).
const MAX_RELEASE_LEN: usize = 20;

/// An error from [`Release::parse`]; `Display` gives operator-registry's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReleaseError {
    /// `invalid release "<s>": exceeds maximum length of 20 characters`
    TooLong(String),
    /// `invalid release "<s>": segment <i>: <err>` with one `segment` line
    /// per invalid segment, joined with newlines.
    InvalidSegments {
        /// The whole release string.
        release: String,
        /// Each invalid segment's 0-based index and blang's error for it.
        segments: Vec<(usize, VersionError)>,
    },
}

impl fmt::Display for ReleaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReleaseError::TooLong(s) => {
                write!(f, "invalid release {}: exceeds maximum length of {} characters", go_quote(s), MAX_RELEASE_LEN)
            }
            ReleaseError::InvalidSegments { release, segments } => {
                write!(f, "invalid release {}: ", go_quote(release))?;
                for (n, (index, error)) in segments.iter().enumerate() {
                    if n > 0 {
                        f.write_str("\n")?;
                    }
                    write!(f, "segment {index}: {error}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ReleaseError {}

/// A non-empty release: dot-separated pre-release-style identifiers
/// (`[0-9A-Za-z-]+`, numeric ones without leading zeroes), at most 20
/// characters. Ordered like a pre-release identifier list; `Display` is the
/// dotted text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Release(semver::Prerelease);

impl Release {
    /// operator-registry `NewRelease`: an empty string is no release
    /// (`Ok(None)`); otherwise the length limit, then every segment is checked
    /// and all failures are reported together.
    pub fn parse(s: &str) -> Result<Option<Release>, ReleaseError> {
        if s.is_empty() {
            return Ok(None);
        }
        if s.len() > MAX_RELEASE_LEN {
            return Err(ReleaseError::TooLong(s.to_string()));
        }
        let segments: Vec<(usize, VersionError)> = s
            .split('.')
            .enumerate()
            .filter_map(|(i, segment)| validate_prerelease_ident(segment).err().map(|e| (i, e)))
            .collect();
        if !segments.is_empty() {
            return Err(ReleaseError::InvalidSegments { release: s.to_string(), segments });
        }
        match semver::Prerelease::new(s) {
            Ok(pre) => Ok(Some(Release(pre))),
            // Not reachable after blang's checks; report it like a bad segment.
            Err(_) => Err(ReleaseError::InvalidSegments {
                release: s.to_string(),
                segments: vec![(0, VersionError::PrereleaseInvalid(s.to_string()))],
            }),
        }
    }

    /// The dotted release text.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// The release as a [`semver::Prerelease`].
    pub fn as_prerelease(&self) -> &semver::Prerelease {
        &self.0
    }
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.as_str())
    }
}

impl PartialOrd for Release {
    fn partial_cmp(&self, other: &Release) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Release {
    /// Identifiers pairwise (numeric < alphanumeric, numbers by value, text
    /// bytewise); a list that is a prefix of the other is smaller.
    fn cmp(&self, other: &Release) -> Ordering {
        compare_ident_lists(self.0.as_str(), other.0.as_str())
    }
}

/// A bundle's version together with its optional release.
///
/// Ordered by version (blang precedence, build metadata ignored), then by
/// release, where no release sorts below any release. `Display` is the
/// bundle's "version string": the full version (with pre-release and build
/// metadata) followed by `-<release>` when a release is set, as used by opm's
/// duplicate-version check and normalized bundle names.
#[derive(Debug, Clone)]
pub struct VersionRelease {
    /// The version.
    pub version: Version,
    /// The release, if any.
    pub release: Option<Release>,
}

impl VersionRelease {
    /// operator-controller's `ParseLegacyVersionRelease` (the default mode,
    /// spec resolver.md §8.4): parse `s` strictly; if its build metadata is
    /// non-empty and is a valid release, it becomes the release and is removed
    /// from the version, otherwise the version keeps it and there is no
    /// release.
    pub fn from_legacy_version(s: &str) -> Result<VersionRelease, VersionError> {
        Version::parse(s).map(|version| VersionRelease::from_parsed(&version, None))
    }

    /// The (version, release) of an `olm.package` property whose fields are already parsed (the
    /// model's `Bundle::version` and `Bundle::release`, or an installed bundle's): an explicit
    /// release is the release and the version stays whole (build metadata included); without
    /// one, the version's build metadata becomes the release when it is a valid release, as in
    /// [`from_legacy_version`](VersionRelease::from_legacy_version). No version text is parsed.
    pub fn from_parsed(version: &Version, release: Option<&Release>) -> VersionRelease {
        if let Some(release) = release {
            return VersionRelease { version: version.clone(), release: Some(release.clone()) };
        }
        match Release::parse(version.semver().build.as_str()) {
            Ok(Some(release)) => VersionRelease { version: version.without_build(), release: Some(release) },
            _ => VersionRelease { version: version.clone(), release: None },
        }
    }
}

impl fmt::Display for VersionRelease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.version)?;
        if let Some(release) = &self.release {
            write!(f, "-{release}")?;
        }
        Ok(())
    }
}

impl PartialEq for VersionRelease {
    fn eq(&self, other: &VersionRelease) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for VersionRelease {}

impl PartialOrd for VersionRelease {
    fn partial_cmp(&self, other: &VersionRelease) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for VersionRelease {
    fn cmp(&self, other: &VersionRelease) -> Ordering {
        self.version.compare(&other.version).then_with(|| self.release.cmp(&other.release))
    }
}

impl Hash for VersionRelease {
    /// Consistent with `Eq`: build metadata does not take part.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.version.hash(state);
        self.release.hash(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(s: &str) -> Release {
        match Release::parse(s) {
            Ok(Some(r)) => r,
            other => panic!("release {s:?}: {other:?}"),
        }
    }

    fn rel_err(s: &str) -> String {
        match Release::parse(s) {
            Err(e) => e.to_string(),
            Ok(r) => panic!("release {s:?} unexpectedly {r:?}"),
        }
    }

    fn v(s: &str) -> Version {
        match Version::parse(s) {
            Ok(v) => v,
            Err(e) => panic!("parse {s:?}: {e}"),
        }
    }

    fn vr(version: &str, release: &str) -> VersionRelease {
        VersionRelease {
            version: v(version),
            release: match Release::parse(release) {
                Ok(r) => r,
                Err(e) => panic!("release {release:?}: {e}"),
            },
        }
    }

    #[test]
    fn parse_valid() {
        assert_eq!(Release::parse(""), Ok(None));
        assert_eq!(rel("1").to_string(), "1");
        assert_eq!(rel("alpha.1.-.0").as_str(), "alpha.1.-.0");
        assert_eq!(rel("12345678901234567890").as_str(), "12345678901234567890");
        assert_eq!(rel("a.b.c").as_prerelease().as_str(), "a.b.c");
    }

    #[test]
    fn parse_errors() {
        assert_eq!(
            rel_err("!!!"),
            r#"invalid release "!!!": segment 0: Invalid character(s) found in prerelease "!!!""#
        );
        assert_eq!(
            rel_err("123456789012345678901"),
            r#"invalid release "123456789012345678901": exceeds maximum length of 20 characters"#
        );
        assert_eq!(
            rel_err("a..01.b_c"),
            "invalid release \"a..01.b_c\": segment 1: Prerelease is empty\n\
             segment 2: Numeric PreRelease version must not contain leading zeroes \"01\"\n\
             segment 3: Invalid character(s) found in prerelease \"b_c\""
        );
        assert_eq!(
            rel_err("."),
            "invalid release \".\": segment 0: Prerelease is empty\nsegment 1: Prerelease is empty"
        );
        assert_eq!(
            rel_err("99999999999999999999"),
            r#"invalid release "99999999999999999999": segment 0: strconv.ParseUint: parsing "99999999999999999999": value out of range"#
        );
        // The limit is in bytes, as Go's len().
        assert_eq!(rel_err("ééééééééééé"), r#"invalid release "ééééééééééé": exceeds maximum length of 20 characters"#);
        assert_eq!(rel_err("é"), r#"invalid release "é": segment 0: Invalid character(s) found in prerelease "é""#);
    }

    #[test]
    fn release_ordering() {
        let ordered = ["0", "1", "2", "10", "10.0", "10.a", "a", "a.0", "a.1", "b", "z-"];
        for (i, a) in ordered.iter().enumerate() {
            for (j, b) in ordered.iter().enumerate() {
                assert_eq!(rel(a).cmp(&rel(b)), i.cmp(&j), "{a} vs {b}");
            }
        }
    }

    #[test]
    fn version_release_ordering() {
        let ordered = [
            vr("1.0.0-rc.1", ""),
            vr("1.0.0-rc.1", "1"),
            vr("1.0.0", ""),
            vr("1.0.0", "0"),
            vr("1.0.0", "1"),
            vr("1.0.0", "2"),
            vr("1.0.0", "10"),
            vr("1.0.0", "alpha"),
            vr("1.0.1", ""),
        ];
        for (i, a) in ordered.iter().enumerate() {
            for (j, b) in ordered.iter().enumerate() {
                assert_eq!(a.cmp(b), i.cmp(&j), "{a} vs {b}");
            }
        }
        // Build metadata is ignored in the comparison.
        assert_eq!(vr("1.0.0+a", "1"), vr("1.0.0+b", "1"));
        assert!(vr("1.0.0+zzz", "") < vr("1.0.0", "1"));
    }

    #[test]
    fn version_string() {
        assert_eq!(vr("1.0.0", "").to_string(), "1.0.0");
        assert_eq!(vr("1.0.0", "1").to_string(), "1.0.0-1");
        assert_eq!(vr("1.0.0-1", "").to_string(), "1.0.0-1");
        assert_eq!(vr("1.0.0+a", "").to_string(), "1.0.0+a");
        assert_eq!(vr("0.1.0+alpha.1.0.0", "0.0.1").to_string(), "0.1.0+alpha.1.0.0-0.0.1");
        assert_eq!(vr("1.0.0-rc.1", "2.x").to_string(), "1.0.0-rc.1-2.x");
    }

    #[test]
    fn legacy_version() {
        let x = match VersionRelease::from_legacy_version("2.0.0+1") {
            Ok(x) => x,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(x.version.to_string(), "2.0.0");
        assert_eq!(x.release.as_ref().map(Release::as_str), Some("1"));
        assert!(x > vr("2.0.0", ""));
        assert_ne!(x, vr("2.0.0", ""));

        let x = match VersionRelease::from_legacy_version("2.0.0+01") {
            Ok(x) => x,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(x.version.to_string(), "2.0.0+01");
        assert_eq!(x.release, None);
        assert_eq!(x, vr("2.0.0", ""));

        let x = match VersionRelease::from_legacy_version("2.0.0-rc.1") {
            Ok(x) => x,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(x.to_string(), "2.0.0-rc.1");
        assert_eq!(x.release, None);

        let x = match VersionRelease::from_legacy_version("2.0.0+123456789012345678901") {
            Ok(x) => x,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(x.release, None);
        assert_eq!(x.to_string(), "2.0.0+123456789012345678901");

        assert_eq!(
            VersionRelease::from_legacy_version("2.0").map(|x| x.to_string()),
            Err(VersionError::NoMajorMinorPatch)
        );
    }

    #[test]
    fn from_parsed_parts() {
        // No explicit release: the legacy reading of the build metadata.
        for text in ["2.0.0", "2.0.0+1", "2.0.0+01", "2.0.0-rc.1+a.b", "2.0.0+123456789012345678901", "2.0.0+a.b-c"] {
            let legacy = match VersionRelease::from_legacy_version(text) {
                Ok(x) => x,
                Err(e) => panic!("{text}: {e}"),
            };
            let parsed = VersionRelease::from_parsed(&v(text), None);
            assert_eq!((parsed.to_string(), parsed.release.clone()), (legacy.to_string(), legacy.release), "{text}");
        }
        // An explicit release wins and the version keeps its build metadata.
        let x = VersionRelease::from_parsed(&v("2.0.0+1"), Some(&rel("7")));
        assert_eq!(x.to_string(), "2.0.0+1-7");
        assert_eq!(x, vr("2.0.0", "7"));
    }
}
