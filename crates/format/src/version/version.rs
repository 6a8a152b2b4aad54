//! The [`Version`] type: blang/semver v4.0.0 `Parse` and `ParseTolerant`,
//! blang precedence (`Compare`) and blang's `String()` form, together with
//! [`VersionError`], whose `Display` reproduces blang's error texts exactly.
//!
//! Pre-release identifier validation (blang `NewPRVersion`) and identifier
//! comparison also live here, because release strings reuse them.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use crate::gotext::quote as go_quote;

/// Which of the three numeric components an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NumberField {
    /// The major number.
    Major,
    /// The minor number.
    Minor,
    /// The patch number.
    Patch,
}

impl NumberField {
    fn lower(self) -> &'static str {
        match self {
            NumberField::Major => "major",
            NumberField::Minor => "minor",
            NumberField::Patch => "patch",
        }
    }

    fn capitalized(self) -> &'static str {
        match self {
            NumberField::Major => "Major",
            NumberField::Minor => "Minor",
            NumberField::Patch => "Patch",
        }
    }
}

/// Why Go's `strconv.ParseUint` rejected a digit string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NumErrorKind {
    /// `invalid syntax` (blang only reaches this with an empty string).
    Syntax,
    /// `value out of range` (the number does not fit in 64 bits).
    Range,
}

/// An error from [`Version::parse`] or [`Version::parse_tolerant`].
///
/// `Display` gives blang/semver v4.0.0's message, byte for byte.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum VersionError {
    /// `Version string empty`
    Empty,
    /// `No Major.Minor.Patch elements found`
    NoMajorMinorPatch,
    /// `Invalid character(s) found in <field> number "<s>"`
    InvalidNumber(NumberField, String),
    /// `<Field> number must not contain leading zeroes "<s>"`
    LeadingZeroes(NumberField, String),
    /// Go's `strconv.ParseUint` error:
    /// `strconv.ParseUint: parsing "<s>": invalid syntax` or `... value out of range`.
    ParseUint {
        /// The digit string that was parsed.
        num: String,
        /// Why it failed.
        kind: NumErrorKind,
    },
    /// `Prerelease is empty`
    PrereleaseEmpty,
    /// `Numeric PreRelease version must not contain leading zeroes "<s>"`
    PrereleaseLeadingZeroes(String),
    /// `Invalid character(s) found in prerelease "<s>"`
    PrereleaseInvalid(String),
    /// `Build meta data is empty`
    BuildEmpty,
    /// `Invalid character(s) found in build meta data "<s>"`
    BuildInvalid(String),
    /// `Short version cannot contain PreRelease/Build meta data` (only from
    /// [`Version::parse_tolerant`]).
    ShortVersionMetadata,
}

impl fmt::Display for VersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VersionError::Empty => f.write_str("Version string empty"),
            VersionError::NoMajorMinorPatch => f.write_str("No Major.Minor.Patch elements found"),
            VersionError::InvalidNumber(field, s) => {
                write!(f, "Invalid character(s) found in {} number {}", field.lower(), go_quote(s))
            }
            VersionError::LeadingZeroes(field, s) => {
                write!(f, "{} number must not contain leading zeroes {}", field.capitalized(), go_quote(s))
            }
            VersionError::ParseUint { num, kind } => write!(
                f,
                "strconv.ParseUint: parsing {}: {}",
                go_quote(num),
                match kind {
                    NumErrorKind::Syntax => "invalid syntax",
                    NumErrorKind::Range => "value out of range",
                }
            ),
            VersionError::PrereleaseEmpty => f.write_str("Prerelease is empty"),
            VersionError::PrereleaseLeadingZeroes(s) => {
                write!(f, "Numeric PreRelease version must not contain leading zeroes {}", go_quote(s))
            }
            VersionError::PrereleaseInvalid(s) => {
                write!(f, "Invalid character(s) found in prerelease {}", go_quote(s))
            }
            VersionError::BuildEmpty => f.write_str("Build meta data is empty"),
            VersionError::BuildInvalid(s) => write!(f, "Invalid character(s) found in build meta data {}", go_quote(s)),
            VersionError::ShortVersionMetadata => {
                f.write_str("Short version cannot contain PreRelease/Build meta data")
            }
        }
    }
}

impl std::error::Error for VersionError {}

/// A semantic version with blang/semver v4.0.0 semantics.
///
/// Storage is a [`semver::Version`], but equality, ordering and hashing follow
/// blang's `Compare`: major, minor and patch numerically, a version without
/// pre-release above one with, pre-release identifiers pairwise, and **build
/// metadata ignored** (`1.0.0+a == 1.0.0+b`). `Display` is blang's `String()`
/// and does include build metadata.
#[derive(Debug, Clone)]
pub struct Version(semver::Version);

impl Version {
    /// A release version `major.minor.patch` with no pre-release or build.
    pub fn new(major: u64, minor: u64, patch: u64) -> Version {
        Version(semver::Version::new(major, minor, patch))
    }

    /// Strict parsing, as blang `Parse`: `MAJOR.MINOR.PATCH[-PRE][+BUILD]`,
    /// no leading `v`, no missing components, no leading zeroes in numbers.
    pub fn parse(s: &str) -> Result<Version, VersionError> {
        if s.is_empty() {
            return Err(VersionError::Empty);
        }
        let mut parts = s.splitn(3, '.');
        let (major_str, minor_str, rest) = match (parts.next(), parts.next(), parts.next()) {
            (Some(a), Some(b), Some(c)) => (a, b, c),
            _ => return Err(VersionError::NoMajorMinorPatch),
        };
        let major = parse_number(NumberField::Major, major_str)?;
        let minor = parse_number(NumberField::Minor, minor_str)?;

        let (before_build, build_str) = match rest.split_once('+') {
            Some((head, build)) => (head, Some(build)),
            None => (rest, None),
        };
        let (patch_str, pre_str) = match before_build.split_once('-') {
            Some((head, pre)) => (head, Some(pre)),
            None => (before_build, None),
        };
        let patch = parse_number(NumberField::Patch, patch_str)?;

        let mut pre = semver::Prerelease::EMPTY;
        if let Some(pre_str) = pre_str {
            for ident in pre_str.split('.') {
                validate_prerelease_ident(ident)?;
            }
            pre = semver::Prerelease::new(pre_str).map_err(|_| VersionError::PrereleaseInvalid(pre_str.to_string()))?;
        }

        let mut build = semver::BuildMetadata::EMPTY;
        if let Some(build_str) = build_str {
            for ident in build_str.split('.') {
                if ident.is_empty() {
                    return Err(VersionError::BuildEmpty);
                }
                if !ident.bytes().all(is_ident_byte) {
                    return Err(VersionError::BuildInvalid(ident.to_string()));
                }
            }
            build =
                semver::BuildMetadata::new(build_str).map_err(|_| VersionError::BuildInvalid(build_str.to_string()))?;
        }

        Ok(Version(semver::Version { major, minor, patch, pre, build }))
    }

    /// Lenient parsing, as blang `ParseTolerant`.
    ///
    /// Trims surrounding whitespace and one leading `v`, strips leading zeroes
    /// from each of the (up to three) dot-separated parts, pads a short version
    /// with `.0` parts (a short version containing `-` or `+` is an error), and
    /// then parses strictly. `v1.2` is `1.2.0`, ` 1.02.3` is `1.2.3`, `1` is
    /// `1.0.0`.
    pub fn parse_tolerant(s: &str) -> Result<Version, VersionError> {
        let s = s.trim();
        let s = s.strip_prefix('v').unwrap_or(s);
        let mut parts: Vec<String> = s
            .splitn(3, '.')
            .map(|p| {
                if p.len() > 1 {
                    let trimmed = p.trim_start_matches('0');
                    if trimmed.as_bytes().first().is_some_and(u8::is_ascii_digit) {
                        trimmed.to_string()
                    } else {
                        format!("0{trimmed}")
                    }
                } else {
                    p.to_string()
                }
            })
            .collect();
        if parts.len() < 3 {
            if parts.last().is_some_and(|last| last.contains(['+', '-'])) {
                return Err(VersionError::ShortVersionMetadata);
            }
            while parts.len() < 3 {
                parts.push("0".to_string());
            }
        }
        Version::parse(&parts.join("."))
    }

    /// The stored [`semver::Version`] (note that its own `Ord` compares build
    /// metadata, unlike [`Version`]'s).
    pub fn semver(&self) -> &semver::Version {
        &self.0
    }

    /// The major number.
    pub fn major(&self) -> u64 {
        self.0.major
    }

    /// The minor number.
    pub fn minor(&self) -> u64 {
        self.0.minor
    }

    /// The patch number.
    pub fn patch(&self) -> u64 {
        self.0.patch
    }

    /// Whether the version has build metadata (`+...`).
    pub fn has_build(&self) -> bool {
        !self.0.build.is_empty()
    }

    /// Whether the version has a pre-release (`-...`).
    pub fn is_prerelease(&self) -> bool {
        !self.0.pre.is_empty()
    }

    /// The same version with its build metadata removed.
    pub fn without_build(&self) -> Version {
        let mut v = self.0.clone();
        v.build = semver::BuildMetadata::EMPTY;
        Version(v)
    }

    /// blang `Compare`: the precedence order, ignoring build metadata.
    pub fn compare(&self, other: &Version) -> Ordering {
        self.0
            .major
            .cmp(&other.0.major)
            .then(self.0.minor.cmp(&other.0.minor))
            .then(self.0.patch.cmp(&other.0.patch))
            .then_with(|| match (self.0.pre.is_empty(), other.0.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => compare_ident_lists(self.0.pre.as_str(), other.0.pre.as_str()),
            })
    }
}

impl fmt::Display for Version {
    /// blang `String()`: `major.minor.patch[-pre][+build]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.0.major, self.0.minor, self.0.patch)?;
        if !self.0.pre.is_empty() {
            write!(f, "-{}", self.0.pre.as_str())?;
        }
        if !self.0.build.is_empty() {
            write!(f, "+{}", self.0.build.as_str())?;
        }
        Ok(())
    }
}

impl FromStr for Version {
    type Err = VersionError;

    /// Strict parsing, same as [`Version::parse`].
    fn from_str(s: &str) -> Result<Version, VersionError> {
        Version::parse(s)
    }
}

impl PartialEq for Version {
    fn eq(&self, other: &Version) -> bool {
        self.compare(other) == Ordering::Equal
    }
}

impl Eq for Version {}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Version) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Version) -> Ordering {
        self.compare(other)
    }
}

impl Hash for Version {
    /// Hashes exactly what takes part in equality (build metadata does not).
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.major.hash(state);
        self.0.minor.hash(state);
        self.0.patch.hash(state);
        self.0.pre.as_str().hash(state);
    }
}

/// `[0-9A-Za-z-]`, blang's `alphanum` set.
fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-'
}

/// blang's `hasLeadingZeroes`.
fn has_leading_zero(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0')
}

/// Go `strconv.ParseUint(s, 10, 64)` for a string already known to hold only
/// ASCII digits (possibly none).
fn parse_uint_digits(s: &str) -> Result<u64, VersionError> {
    if s.is_empty() {
        return Err(VersionError::ParseUint { num: String::new(), kind: NumErrorKind::Syntax });
    }
    let mut n: u64 = 0;
    for b in s.bytes() {
        let digit = u64::from(b.wrapping_sub(b'0'));
        n = match n.checked_mul(10).and_then(|n| n.checked_add(digit)) {
            Some(n) => n,
            None => return Err(VersionError::ParseUint { num: s.to_string(), kind: NumErrorKind::Range }),
        };
    }
    Ok(n)
}

/// One of major, minor or patch: digits only, no leading zero, fits in u64.
fn parse_number(field: NumberField, s: &str) -> Result<u64, VersionError> {
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(VersionError::InvalidNumber(field, s.to_string()));
    }
    if has_leading_zero(s) {
        return Err(VersionError::LeadingZeroes(field, s.to_string()));
    }
    parse_uint_digits(s)
}

/// blang `NewPRVersion` validation of one pre-release identifier.
///
/// Empty is an error; all digits must have no leading zero and fit in u64;
/// otherwise only `[0-9A-Za-z-]` is allowed.
pub fn validate_prerelease_ident(s: &str) -> Result<(), VersionError> {
    if s.is_empty() {
        return Err(VersionError::PrereleaseEmpty);
    }
    if s.bytes().all(|b| b.is_ascii_digit()) {
        if has_leading_zero(s) {
            return Err(VersionError::PrereleaseLeadingZeroes(s.to_string()));
        }
        parse_uint_digits(s)?;
        Ok(())
    } else if s.bytes().all(is_ident_byte) {
        Ok(())
    } else {
        Err(VersionError::PrereleaseInvalid(s.to_string()))
    }
}

/// blang `PRVersion.Compare` for two validated identifiers: numeric below
/// alphanumeric, numerics by value, alphanumerics bytewise.
fn compare_ident(a: &str, b: &str) -> Ordering {
    let a_num = a.bytes().all(|c| c.is_ascii_digit());
    let b_num = b.bytes().all(|c| c.is_ascii_digit());
    match (a_num, b_num) {
        // Without leading zeroes, a longer digit string is a larger number.
        (true, true) => a.len().cmp(&b.len()).then_with(|| a.cmp(b)),
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => a.as_bytes().cmp(b.as_bytes()),
    }
}

/// Compares two non-empty dotted lists of validated pre-release identifiers
/// pairwise; when one list is a prefix of the other, the shorter is smaller.
pub fn compare_ident_lists(a: &str, b: &str) -> Ordering {
    let mut left = a.split('.');
    let mut right = b.split('.');
    loop {
        match (left.next(), right.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => match compare_ident(x, y) {
                Ordering::Equal => {}
                other => return other,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn v(s: &str) -> Version {
        match Version::parse(s) {
            Ok(v) => v,
            Err(e) => panic!("parse {s:?}: {e}"),
        }
    }

    fn err(s: &str) -> String {
        match Version::parse(s) {
            Ok(v) => panic!("parse {s:?} unexpectedly gave {v}"),
            Err(e) => e.to_string(),
        }
    }

    fn tol_err(s: &str) -> String {
        match Version::parse_tolerant(s) {
            Ok(v) => panic!("parse_tolerant {s:?} unexpectedly gave {v}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn parse_valid() {
        let x = v("1.2.3");
        assert_eq!((x.major(), x.minor(), x.patch()), (1, 2, 3));
        assert!(!x.is_prerelease());
        assert!(!x.has_build());
        assert_eq!(x.to_string(), "1.2.3");

        let x = v("0.0.0-alpha.1.-.0+build.01.x-y");
        assert!(x.is_prerelease());
        assert!(x.has_build());
        assert_eq!(x.semver().pre.as_str(), "alpha.1.-.0");
        assert_eq!(x.semver().build.as_str(), "build.01.x-y");
        assert_eq!(x.to_string(), "0.0.0-alpha.1.-.0+build.01.x-y");

        assert_eq!(v("1.0.0+a").to_string(), "1.0.0+a");
        assert_eq!(v("1.0.0-1").to_string(), "1.0.0-1");
        // A '-' after the '+' belongs to the build metadata.
        let x = v("1.0.0+a-b");
        assert!(!x.is_prerelease());
        assert_eq!(x.semver().build.as_str(), "a-b");
        // Only the first '-' splits.
        assert_eq!(v("1.0.0-a-b").semver().pre.as_str(), "a-b");
        assert_eq!(v("18446744073709551615.0.0").major(), u64::MAX);
        assert_eq!(v("1.0.0-18446744073709551615").semver().pre.as_str(), "18446744073709551615");
        assert_eq!("1.2.3".parse::<Version>(), Ok(Version::new(1, 2, 3)));
    }

    #[test]
    fn parse_errors() {
        assert_eq!(err(""), "Version string empty");
        assert_eq!(err("1"), "No Major.Minor.Patch elements found");
        assert_eq!(err("1.0"), "No Major.Minor.Patch elements found");
        assert_eq!(err("v1.0.0"), r#"Invalid character(s) found in major number "v1""#);
        assert_eq!(err("x.0.0"), r#"Invalid character(s) found in major number "x""#);
        assert_eq!(err(" 1.0.0"), r#"Invalid character(s) found in major number " 1""#);
        assert_eq!(err("01.0.0"), r#"Major number must not contain leading zeroes "01""#);
        assert_eq!(err("1.a.0"), r#"Invalid character(s) found in minor number "a""#);
        assert_eq!(err("1.00.1"), r#"Minor number must not contain leading zeroes "00""#);
        assert_eq!(err("1.0.0.1"), r#"Invalid character(s) found in patch number "0.1""#);
        assert_eq!(err("0.1.0.1"), r#"Invalid character(s) found in patch number "0.1""#);
        assert_eq!(err("1.0.01"), r#"Patch number must not contain leading zeroes "01""#);
        assert_eq!(err("1.0.0 "), r#"Invalid character(s) found in patch number "0 ""#);
        assert_eq!(err("1.0.0\n"), r#"Invalid character(s) found in patch number "0\n""#);
        assert_eq!(err("..0"), r#"strconv.ParseUint: parsing "": invalid syntax"#);
        assert_eq!(err("1..0"), r#"strconv.ParseUint: parsing "": invalid syntax"#);
        assert_eq!(err("1.0."), r#"strconv.ParseUint: parsing "": invalid syntax"#);
        assert_eq!(err("1.0.-beta"), r#"strconv.ParseUint: parsing "": invalid syntax"#);
        assert_eq!(err("1.0.+b"), r#"strconv.ParseUint: parsing "": invalid syntax"#);
        assert_eq!(
            err("99999999999999999999.0.0"),
            r#"strconv.ParseUint: parsing "99999999999999999999": value out of range"#
        );
        assert_eq!(
            err("18446744073709551616.0.0"),
            r#"strconv.ParseUint: parsing "18446744073709551616": value out of range"#
        );
        assert_eq!(
            err("1.0.0-99999999999999999999"),
            r#"strconv.ParseUint: parsing "99999999999999999999": value out of range"#
        );
        assert_eq!(err("1.0.0-"), "Prerelease is empty");
        assert_eq!(err("1.0.0-a..b"), "Prerelease is empty");
        assert_eq!(err("1.0.0-a."), "Prerelease is empty");
        assert_eq!(err("1.0.0-01"), r#"Numeric PreRelease version must not contain leading zeroes "01""#);
        assert_eq!(err("1.0.0-!!!"), r#"Invalid character(s) found in prerelease "!!!""#);
        assert_eq!(err("1.0.0-a_b"), r#"Invalid character(s) found in prerelease "a_b""#);
        assert_eq!(err("1.0.0+"), "Build meta data is empty");
        assert_eq!(err("1.0.0+a..b"), "Build meta data is empty");
        assert_eq!(err("1.0.0+a_b"), r#"Invalid character(s) found in build meta data "a_b""#);
        assert_eq!(err("1.0.0+a+b"), r#"Invalid character(s) found in build meta data "a+b""#);
        // Unicode digits are not digits for Parse.
        assert_eq!(err("١.0.0"), "Invalid character(s) found in major number \"١\"");
        // Error order: patch before pre-release before build.
        assert_eq!(err("1.0.x-01+_"), r#"Invalid character(s) found in patch number "x""#);
        assert_eq!(err("1.0.0-01+_"), r#"Numeric PreRelease version must not contain leading zeroes "01""#);
        // Major before minor.
        assert_eq!(err("a.b.c"), r#"Invalid character(s) found in major number "a""#);
    }

    #[test]
    fn parse_tolerant() {
        let t = |s: &str| match Version::parse_tolerant(s) {
            Ok(v) => v.to_string(),
            Err(e) => panic!("parse_tolerant {s:?}: {e}"),
        };
        assert_eq!(t("v1.2"), "1.2.0");
        assert_eq!(t(" 1.02.3"), "1.2.3");
        assert_eq!(t("1"), "1.0.0");
        assert_eq!(t("v1"), "1.0.0");
        assert_eq!(t("\t1.2.3\n"), "1.2.3");
        assert_eq!(t("00.000.0000"), "0.0.0");
        assert_eq!(t("1.2.03-beta.1+b"), "1.2.3-beta.1+b");
        assert_eq!(tol_err("1.2-beta"), "Short version cannot contain PreRelease/Build meta data");
        assert_eq!(tol_err("1+b"), "Short version cannot contain PreRelease/Build meta data");
        assert_eq!(tol_err(""), r#"strconv.ParseUint: parsing "": invalid syntax"#);
        assert_eq!(tol_err("   "), r#"strconv.ParseUint: parsing "": invalid syntax"#);
        assert_eq!(tol_err("vv1.0.0"), r#"Invalid character(s) found in major number "0v1""#);
        assert_eq!(tol_err("V1.0.0"), r#"Invalid character(s) found in major number "0V1""#);
        // "0a" keeps a single leading zero before a non-digit.
        assert_eq!(tol_err("1.0a.0"), r#"Invalid character(s) found in minor number "0a""#);
        // Leading zeroes only stripped from the start of the third part.
        assert_eq!(tol_err("1.2.3-001"), r#"Numeric PreRelease version must not contain leading zeroes "001""#);
    }

    #[test]
    fn parse_tolerant_leading_zero_patch_with_prerelease() {
        // "01-beta" has its leading zero stripped; "0-beta" keeps its zero.
        assert_eq!(Version::parse_tolerant("1.2.01-beta").map(|v| v.to_string()), Ok("1.2.1-beta".to_string()));
        assert_eq!(Version::parse_tolerant("1.2.00-beta").map(|v| v.to_string()), Ok("1.2.0-beta".to_string()));
    }

    #[test]
    fn ordering() {
        let ordered = [
            "0.0.1",
            "0.1.0",
            "1.0.0-0",
            "1.0.0-1",
            "1.0.0-2",
            "1.0.0-10",
            "1.0.0-10.1",
            "1.0.0-A",
            "1.0.0-Z",
            "1.0.0-a",
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-alpha.2",
            "1.0.0-alpha.10",
            "1.0.0-alpha.beta",
            "1.0.0-beta",
            "1.0.0-beta.2",
            "1.0.0-beta.11",
            "1.0.0-rc.1",
            "1.0.0",
            "1.0.1",
            "1.1.0",
            "2.0.0",
            "10.0.0",
        ];
        for (i, a) in ordered.iter().enumerate() {
            for (j, b) in ordered.iter().enumerate() {
                assert_eq!(v(a).cmp(&v(b)), i.cmp(&j), "{a} vs {b}");
            }
        }
        assert!(v("1.0.0-rc1") < v("1.0.0"));
        assert!(v("1.0.0-18446744073709551615") > v("1.0.0-9"));
        assert!(v("1.0.0-1a") > v("1.0.0-999"));
        assert!(v("1.0.0-a-") > v("1.0.0-a"));
        assert!(v("1.0.0--") < v("1.0.0-0a"));
    }

    #[test]
    fn build_ignored() {
        assert_eq!(v("1.0.0+a"), v("1.0.0+b"));
        assert_eq!(v("1.0.0+a"), v("1.0.0"));
        assert_eq!(v("1.0.0-1+a").cmp(&v("1.0.0-1+zzz")), Ordering::Equal);
        assert!(v("1.0.0+zzz") < v("1.0.1+a"));
        // The semver crate's own ordering would not agree:
        assert_ne!(v("1.0.0+a").semver(), v("1.0.0+b").semver());
        let mut set = HashSet::new();
        set.insert(v("1.0.0+a"));
        set.insert(v("1.0.0+b"));
        set.insert(v("1.0.0"));
        assert_eq!(set.len(), 1);
        set.insert(v("1.0.0-0"));
        assert_eq!(set.len(), 2);
        assert_eq!(v("2.0.0+1").without_build().to_string(), "2.0.0");
        assert_eq!(v("2.0.0-1+1").without_build().to_string(), "2.0.0-1");
    }

    #[test]
    fn new_and_display() {
        assert_eq!(Version::new(1, 2, 3).to_string(), "1.2.3");
        assert_eq!(Version::new(1, 2, 3), v("1.2.3"));
    }

    #[test]
    fn prerelease_idents() {
        assert_eq!(validate_prerelease_ident("0"), Ok(()));
        assert_eq!(validate_prerelease_ident("-"), Ok(()));
        assert_eq!(validate_prerelease_ident("0a"), Ok(()));
        assert_eq!(validate_prerelease_ident(""), Err(VersionError::PrereleaseEmpty));
        assert_eq!(validate_prerelease_ident("00"), Err(VersionError::PrereleaseLeadingZeroes("00".to_string())));
        assert_eq!(validate_prerelease_ident("é"), Err(VersionError::PrereleaseInvalid("é".to_string())));
    }

    #[test]
    fn no_panic_on_odd_input() {
        for s in [
            ".",
            "..",
            "...",
            "-",
            "+",
            "1.0.0-+",
            "1.0.0+-",
            "é.é.é",
            "1.2.3-é",
            "1.2.3+é",
            "\u{0}",
            "1.\u{0}.0",
            "v",
            "0",
            "00",
            "1.2.3.4.5",
            "1.2.3-a.b.c+d.e.f",
        ] {
            let _ = Version::parse(s);
            let _ = Version::parse_tolerant(s);
        }
        assert_eq!(tol_err("é"), "Invalid character(s) found in major number \"0é\"");
        assert_eq!(err("1.é.0"), "Invalid character(s) found in minor number \"é\"");
    }
}
