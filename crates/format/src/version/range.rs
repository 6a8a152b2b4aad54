//! The [`VersionRange`] type: blang/semver v4.0.0 `ParseRange` and range
//! matching, with [`RangeError`] reproducing blang's error texts.
//!
//! Parsing follows blang step by step, quirks included:
//! 1. split on spaces, except a space after `>`, `<` or `=` (ignoring other
//!    spaces in between); remove the spaces left inside parts; silently drop
//!    parts shorter than 2 bytes;
//! 2. split into OR-groups on `||` parts;
//! 3. rewrite every part containing the letter `x` as a wildcard (this runs
//!    over all groups before anything else is checked);
//! 4. split each part at its first (Unicode) digit into operator and version,
//!    and parse the version strictly.
//!
//! Matching has no special pre-release rule: `<1.0.0` contains `1.0.0-rc1`.

use std::fmt;
use std::str::FromStr;

use super::version::{Version, VersionError};
use crate::gotext::quote as go_quote;

/// An error from [`VersionRange::parse`]; `Display` gives blang's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RangeError {
    /// `First element in range is '||'`
    FirstElementIsOr,
    /// `Last element in range is '||'` (also for an empty or blank range, or
    /// one whose parts were all shorter than 2 characters).
    LastElementIsOr,
    /// `Could not get version from string: "<part>"` (the part has no digit).
    /// Unlike the other part errors, blang does not wrap this one.
    NoVersion(String),
    /// `Could not parse Range "<part>": Could not parse comparator "<op>" in "<op><version>"`
    InvalidComparator {
        /// The (wildcard-expanded) part, as quoted in the outer message.
        part: String,
        /// The operator text before the first digit, whitespace-trimmed.
        op: String,
        /// The version text from the first digit on.
        version: String,
    },
    /// `Could not parse Range "<part>": Could not parse version "<version>" in "<op><version>": <error>`
    InvalidVersion {
        /// The (wildcard-expanded) part, as quoted in the outer message.
        part: String,
        /// The operator text before the first digit, whitespace-trimmed.
        op: String,
        /// The version text from the first digit on.
        version: String,
        /// Why [`Version::parse`] rejected `version`.
        error: VersionError,
    },
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RangeError::FirstElementIsOr => f.write_str("First element in range is '||'"),
            RangeError::LastElementIsOr => f.write_str("Last element in range is '||'"),
            RangeError::NoVersion(part) => {
                write!(f, "Could not get version from string: {}", go_quote(part))
            }
            RangeError::InvalidComparator { part, op, version } => write!(
                f,
                "Could not parse Range {}: Could not parse comparator {} in {}",
                go_quote(part),
                go_quote(op),
                go_quote(&format!("{op}{version}"))
            ),
            RangeError::InvalidVersion { part, op, version, error } => write!(
                f,
                "Could not parse Range {}: Could not parse version {} in {}: {}",
                go_quote(part),
                go_quote(version),
                go_quote(&format!("{op}{version}")),
                error
            ),
        }
    }
}

impl std::error::Error for RangeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RangeError::InvalidVersion { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// A comparison operator of a range part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    /// `""`, `=`, `==`
    Eq,
    /// `!`, `!=`
    Ne,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `<`
    Lt,
    /// `<=`
    Le,
}

impl Op {
    /// blang `parseComparator`.
    fn parse(s: &str) -> Option<Op> {
        match s {
            "" | "=" | "==" => Some(Op::Eq),
            "!" | "!=" => Some(Op::Ne),
            ">" => Some(Op::Gt),
            ">=" => Some(Op::Ge),
            "<" => Some(Op::Lt),
            "<=" => Some(Op::Le),
            _ => None,
        }
    }
}

/// One `<op><version>` term.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Comparator {
    op: Op,
    version: Version,
}

impl Comparator {
    /// The run of `sorted` (ascending) this comparator matches, as two `[start, end)` ranges (the
    /// second empty except for `!=`).
    fn runs<T>(&self, sorted: &[T], version: &impl Fn(&T) -> &Version) -> [std::ops::Range<usize>; 2] {
        let n = sorted.len();
        let lo = sorted.partition_point(|x| version(x).compare(&self.version).is_lt());
        let hi = sorted.partition_point(|x| version(x).compare(&self.version).is_le());
        match self.op {
            Op::Eq => [lo..hi, 0..0],
            Op::Ne => [0..lo, hi..n],
            Op::Gt => [hi..n, 0..0],
            Op::Ge => [lo..n, 0..0],
            Op::Lt => [0..lo, 0..0],
            Op::Le => [0..hi, 0..0],
        }
    }

    fn matches(&self, v: &Version) -> bool {
        let ord = v.compare(&self.version);
        match self.op {
            Op::Eq => ord.is_eq(),
            Op::Ne => ord.is_ne(),
            Op::Gt => ord.is_gt(),
            Op::Ge => ord.is_ge(),
            Op::Lt => ord.is_lt(),
            Op::Le => ord.is_le(),
        }
    }
}

/// A blang/semver v4.0.0 range such as `>=1.0.0 <2.0.0 || >=3.0.0`.
///
/// Parts within a group are ANDed, groups are ORed. `Display` and
/// [`as_str`](VersionRange::as_str) give the original text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionRange {
    text: String,
    /// OR-groups of AND-ed comparators. A group can be empty (`a || || b`);
    /// blang accepts that and then panics if matching ever reaches it, here an
    /// empty group simply matches nothing.
    groups: Vec<Vec<Comparator>>,
}

impl VersionRange {
    /// Parses `s` exactly as blang `ParseRange` does, with the same errors.
    pub fn parse(s: &str) -> Result<VersionRange, RangeError> {
        let parts = split_and_trim(s);
        let or_groups = split_or_parts(parts)?;
        let expanded = expand_wildcards(or_groups)?;
        let mut groups = Vec::with_capacity(expanded.len());
        for group in expanded {
            let mut comparators = Vec::with_capacity(group.len());
            for part in group {
                let (op_str, version_str) = split_comparator_version(&part)?;
                let op = match Op::parse(&op_str) {
                    Some(op) => op,
                    None => {
                        return Err(RangeError::InvalidComparator {
                            version: version_str.to_string(),
                            op: op_str,
                            part,
                        })
                    }
                };
                let version = match Version::parse(version_str) {
                    Ok(v) => v,
                    Err(error) => {
                        return Err(RangeError::InvalidVersion {
                            version: version_str.to_string(),
                            op: op_str,
                            part,
                            error,
                        })
                    }
                };
                comparators.push(Comparator { op, version });
            }
            groups.push(comparators);
        }
        Ok(VersionRange { text: s.to_string(), groups })
    }

    /// Whether `v` satisfies the range (blang precedence, build metadata
    /// ignored, no special treatment of pre-releases).
    pub fn contains(&self, v: &Version) -> bool {
        self.groups.iter().any(|group| !group.is_empty() && group.iter().all(|c| c.matches(v)))
    }

    /// The original range text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Which items of `sorted` (ascending by `version`, blang precedence) the range contains, as
    /// ascending, disjoint, non-adjacent `[start, end)` runs: the same answer as
    /// [`contains`](VersionRange::contains) on each item, in O(parts × log n) instead of O(n).
    pub fn runs_in<T>(&self, sorted: &[T], version: impl Fn(&T) -> &Version) -> Vec<std::ops::Range<usize>> {
        let mut all: Vec<std::ops::Range<usize>> = Vec::new();
        for group in self.groups.iter().filter(|g| !g.is_empty()) {
            let mut runs = Vec::with_capacity(2);
            runs.push(0..sorted.len());
            for c in group {
                let allowed = c.runs(sorted, &version);
                runs = runs
                    .iter()
                    .flat_map(|r| allowed.iter().map(move |a| r.start.max(a.start)..r.end.min(a.end)))
                    .filter(|r| r.start < r.end)
                    .collect();
            }
            all.extend(runs);
        }
        crate::sort::sort_by_key(&mut all, |r| r.start);
        let mut merged: Vec<std::ops::Range<usize>> = Vec::with_capacity(all.len());
        for r in all {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        merged
    }
}

impl fmt::Display for VersionRange {
    /// The original range text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl FromStr for VersionRange {
    type Err = RangeError;

    /// Same as [`VersionRange::parse`].
    fn from_str(s: &str) -> Result<VersionRange, RangeError> {
        VersionRange::parse(s)
    }
}

/// blang `splitAndTrim`: split on `' '` unless the last non-space byte was
/// `>`, `<` or `=`; drop pieces shorter than 2 bytes; remove inner spaces.
fn split_and_trim(s: &str) -> Vec<String> {
    let mut result = Vec::new();
    let mut last = 0usize;
    let mut last_char = 0u8;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        if b == b' ' && !matches!(last_char, b'>' | b'<' | b'=') {
            // Go: `last < i-1`, i.e. the piece is at least 2 bytes long.
            if last + 1 < i {
                // Both ends sit next to ASCII spaces, so on char boundaries.
                result.push(s.get(last..i).unwrap_or_default());
            }
            last = i + 1;
        } else if b != b' ' {
            last_char = b;
        }
    }
    if last + 1 < s.len() {
        result.push(s.get(last..).unwrap_or_default());
    }
    result.into_iter().map(|p| p.replace(' ', "")).collect()
}

/// blang `splitORParts`.
fn split_or_parts(parts: Vec<String>) -> Result<Vec<Vec<String>>, RangeError> {
    let mut groups = Vec::new();
    let mut current = Vec::new();
    let total = parts.len();
    let mut last = 0usize;
    for (i, part) in parts.into_iter().enumerate() {
        if part == "||" {
            if i == 0 {
                return Err(RangeError::FirstElementIsOr);
            }
            groups.push(std::mem::take(&mut current));
            last = i + 1;
        } else {
            current.push(part);
        }
    }
    if last == total {
        return Err(RangeError::LastElementIsOr);
    }
    groups.push(current);
    Ok(groups)
}

/// blang `splitComparatorVersion`: everything before the first Unicode
/// decimal digit (trimmed) is the operator, the rest is the version.
fn split_comparator_version(part: &str) -> Result<(String, &str), RangeError> {
    match part.char_indices().find(|&(_, c)| is_go_digit(c)) {
        Some((i, _)) => {
            let op = part.get(..i).unwrap_or_default().trim().to_string();
            let version = part.get(i..).unwrap_or_default();
            Ok((op, version))
        }
        None => Err(RangeError::NoVersion(part.to_string())),
    }
}

/// Which component a wildcard version has as its final `x`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wildcard {
    None,
    Major,
    Minor,
    Patch,
}

/// blang `getWildcardType`: the number of dot parts when the last one is `x`.
fn wildcard_type(version: &str) -> Wildcard {
    let parts: Vec<&str> = version.split('.').collect();
    if parts.last() != Some(&"x") {
        return Wildcard::None;
    }
    match parts.len() {
        1 => Wildcard::Major,
        2 => Wildcard::Minor,
        3 => Wildcard::Patch,
        _ => Wildcard::None,
    }
}

/// blang `createVersionFromWildcard`: first `.x.x` becomes `.x`, then the
/// first `.x` becomes `.0`, and a two-part result gets `.0` appended.
fn flatten_wildcard(version: &str) -> String {
    let flat = version.replacen(".x.x", ".x", 1).replacen(".x", ".0", 1);
    if flat.split('.').count() == 2 {
        flat + ".0"
    } else {
        flat
    }
}

/// blang `incrementMajorVersion` (index 0) / `incrementMinorVersion`
/// (index 1): the dot part at `index` goes through Go `strconv.Atoi`, plus
/// one (wrapping like Go's int). Any failure gives `""`, as blang ignores the
/// error and uses the empty result.
fn increment_part(version: &str, index: usize) -> String {
    let mut parts: Vec<String> = version.split('.').map(str::to_string).collect();
    let Some(part) = parts.get_mut(index) else {
        return String::new();
    };
    match go_atoi(part) {
        Some(n) => *part = n.wrapping_add(1).to_string(),
        None => return String::new(),
    }
    parts.join(".")
}

/// Go `strconv.Atoi` on a 64-bit platform: optional sign, then ASCII digits,
/// within `i64`.
fn go_atoi(s: &str) -> Option<i64> {
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'+') => (false, s.get(1..)?),
        Some(b'-') => (true, s.get(1..)?),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut n: u64 = 0;
    for b in digits.bytes() {
        n = n.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
    }
    if negative {
        if n <= i64::MAX as u64 {
            Some(-(n as i64))
        } else if n == i64::MAX as u64 + 1 {
            Some(i64::MIN)
        } else {
            None
        }
    } else {
        i64::try_from(n).ok()
    }
}

/// blang `expandWildcardVersion`: every part containing the letter `x`
/// (anywhere, even in a pre-release) is rewritten:
///
/// | part | becomes |
/// | --- | --- |
/// | `>=1.2.x` | `>=1.2.0` |
/// | `<=1.2.x` | `<1.3.0` |
/// | `>1.2.x` | `>=1.3.0` |
/// | `<1.2.x` | `<1.2.0` |
/// | `!=1.2.x`, `!1.2.x` | `<1.2.0` and `>=1.3.0` |
/// | `1.2.x`, `=1.2.x`, `==1.2.x` | `>=1.2.0` and `<1.3.0` |
///
/// `1.x` works the same at the major level (`1.x` is `>=1.0.0 <2.0.0`), but
/// `1.x.x` counts as a patch wildcard (`>=1.0.0 <1.1.0`). An unknown
/// operator is dropped (`~1.2.x` is `1.2.0`), and an increment that fails
/// leaves an empty version (`1.0.0-x` gives `>=1.0.0-x` and `<`). Parts
/// without a digit fail here already, with the unwrapped
/// "Could not get version" error.
fn expand_wildcards(groups: Vec<Vec<String>>) -> Result<Vec<Vec<String>>, RangeError> {
    let mut expanded = Vec::with_capacity(groups.len());
    for group in groups {
        let mut new_parts = Vec::with_capacity(group.len());
        for part in group {
            if !part.contains('x') {
                new_parts.push(part);
                continue;
            }
            let (op, version) = split_comparator_version(&part)?;
            let kind = wildcard_type(version);
            let flat = flatten_wildcard(version);
            let (result_op, increment) = match op.as_str() {
                ">" => (">=", true),
                ">=" => (">=", false),
                "<" => ("<", false),
                "<=" => ("<", true),
                "" | "=" | "==" => {
                    new_parts.push(format!(">={flat}"));
                    ("<", true)
                }
                "!=" | "!" => {
                    new_parts.push(format!("<{flat}"));
                    (">=", true)
                }
                // blang drops an unknown operator here: `~1.2.x` becomes `1.2.0`.
                _ => ("", false),
            };
            let result_version = if increment {
                match kind {
                    Wildcard::Patch => increment_part(&flat, 1),
                    Wildcard::Minor => increment_part(&flat, 0),
                    Wildcard::Major | Wildcard::None => String::new(),
                }
            } else {
                flat
            };
            new_parts.push(format!("{result_op}{result_version}"));
        }
        expanded.push(new_parts);
    }
    Ok(expanded)
}

/// Go `unicode.IsDigit`: ASCII digits in Latin-1, otherwise category Nd
/// (Unicode 15.0, as in the Go releases opm is built with).
fn is_go_digit(c: char) -> bool {
    let cp = c as u32;
    if cp <= 0xFF {
        return c.is_ascii_digit();
    }
    ND_RANGES
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                std::cmp::Ordering::Less
            } else if lo > cp {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Unicode 15.0 general category Nd (decimal digits), inclusive ranges.
const ND_RANGES: &[(u32, u32)] = &[
    (0x0030, 0x0039),
    (0x0660, 0x0669),
    (0x06F0, 0x06F9),
    (0x07C0, 0x07C9),
    (0x0966, 0x096F),
    (0x09E6, 0x09EF),
    (0x0A66, 0x0A6F),
    (0x0AE6, 0x0AEF),
    (0x0B66, 0x0B6F),
    (0x0BE6, 0x0BEF),
    (0x0C66, 0x0C6F),
    (0x0CE6, 0x0CEF),
    (0x0D66, 0x0D6F),
    (0x0DE6, 0x0DEF),
    (0x0E50, 0x0E59),
    (0x0ED0, 0x0ED9),
    (0x0F20, 0x0F29),
    (0x1040, 0x1049),
    (0x1090, 0x1099),
    (0x17E0, 0x17E9),
    (0x1810, 0x1819),
    (0x1946, 0x194F),
    (0x19D0, 0x19D9),
    (0x1A80, 0x1A89),
    (0x1A90, 0x1A99),
    (0x1B50, 0x1B59),
    (0x1BB0, 0x1BB9),
    (0x1C40, 0x1C49),
    (0x1C50, 0x1C59),
    (0xA620, 0xA629),
    (0xA8D0, 0xA8D9),
    (0xA900, 0xA909),
    (0xA9D0, 0xA9D9),
    (0xA9F0, 0xA9F9),
    (0xAA50, 0xAA59),
    (0xABF0, 0xABF9),
    (0xFF10, 0xFF19),
    (0x104A0, 0x104A9),
    (0x10D30, 0x10D39),
    (0x11066, 0x1106F),
    (0x110F0, 0x110F9),
    (0x11136, 0x1113F),
    (0x111D0, 0x111D9),
    (0x112F0, 0x112F9),
    (0x11450, 0x11459),
    (0x114D0, 0x114D9),
    (0x11650, 0x11659),
    (0x116C0, 0x116C9),
    (0x11730, 0x11739),
    (0x118E0, 0x118E9),
    (0x11950, 0x11959),
    (0x11C50, 0x11C59),
    (0x11D50, 0x11D59),
    (0x11DA0, 0x11DA9),
    (0x11F50, 0x11F59),
    (0x16A60, 0x16A69),
    (0x16AC0, 0x16AC9),
    (0x16B50, 0x16B59),
    (0x1D7CE, 0x1D7FF),
    (0x1E140, 0x1E149),
    (0x1E2F0, 0x1E2F9),
    (0x1E4F0, 0x1E4F9),
    (0x1E950, 0x1E959),
    (0x1FBF0, 0x1FBF9),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> VersionRange {
        match VersionRange::parse(s) {
            Ok(r) => r,
            Err(e) => panic!("parse range {s:?}: {e}"),
        }
    }

    fn err(s: &str) -> String {
        match VersionRange::parse(s) {
            Ok(r) => panic!("parse range {s:?} unexpectedly succeeded: {r:?}"),
            Err(e) => e.to_string(),
        }
    }

    fn v(s: &str) -> Version {
        match Version::parse(s) {
            Ok(v) => v,
            Err(e) => panic!("parse {s:?}: {e}"),
        }
    }

    #[test]
    fn runs_in_a_sorted_list_agree_with_contains() {
        let mut versions: Vec<Version> = [
            "0.9.0",
            "1.0.0-rc.1",
            "1.0.0",
            "1.0.0+build",
            "1.0.1",
            "1.1.0",
            "1.2.0-alpha",
            "1.2.0",
            "1.10.0",
            "2.0.0",
            "2.0.0",
            "3.0.0",
            "10.0.0",
        ]
        .iter()
        .map(|s| v(s))
        .collect();
        crate::sort::sort(&mut versions);
        let ranges = [
            "<1.2.0",
            ">=1.0.0 <2.0.0",
            ">1.0.0 <=2.0.0 || >=10.0.0",
            "1.0.0",
            "!=1.0.0",
            ">=0.0.0 !=1.0.0 !=2.0.0",
            "1.x",
            "<1.0.0 || >3.0.0 || 1.1.0",
            ">2.0.0 <1.0.0",
            "1.0.0 || || 2.0.0",
            ">=1.2.0-alpha <1.2.0",
        ];
        for text in ranges {
            let range = r(text);
            let runs = range.runs_in(&versions, |x| x);
            let from_runs: Vec<bool> = (0..versions.len()).map(|i| runs.iter().any(|run| run.contains(&i))).collect();
            let direct: Vec<bool> = versions.iter().map(|x| range.contains(x)).collect();
            assert_eq!(from_runs, direct, "{text}");
            assert!(runs.windows(2).all(|w| w[0].end < w[1].start), "{text}: {runs:?} not merged");
            assert!(runs.iter().all(|run| run.start < run.end), "{text}: empty run in {runs:?}");
        }
    }

    /// Checks which of `versions` the range contains.
    fn check(range: &str, cases: &[(&str, bool)]) {
        let rng = r(range);
        for &(ver, want) in cases {
            assert_eq!(rng.contains(&v(ver)), want, "{range:?} contains {ver}");
        }
    }

    fn expand(part: &str) -> Vec<String> {
        match expand_wildcards(vec![vec![part.to_string()]]) {
            Ok(mut groups) => groups.pop().unwrap_or_default(),
            Err(e) => panic!("expand {part:?}: {e}"),
        }
    }

    #[test]
    fn spec_valid_examples() {
        check(">=4.1.0 <4.1.2", &[("4.0.9", false), ("4.1.0", true), ("4.1.1", true), ("4.1.2", false)]);
        check("<2.0.0 || >=3.0.0", &[("1.9.9", true), ("2.0.0", false), ("2.5.0", false), ("3.0.0", true)]);
        check(
            ">1.0.0 <3.0.0 !2.0.3-beta.2",
            &[("1.0.0", false), ("2.0.3-beta.2", false), ("2.0.3-beta.1", true), ("2.0.3", true), ("3.0.0", false)],
        );
        check(">=1.0.0 <2.0.0-0", &[("1.0.0", true), ("1.9.9", true), ("2.0.0-0", false), ("2.0.0-alpha", false)]);
        // `x` is shorter than 2 characters and silently dropped.
        check(">=1.0.0 x", &[("0.9.0", false), ("1.0.0", true), ("9.0.0", true)]);
        check("1.2.x", &[("1.1.9", false), ("1.2.0", true), ("1.2.9", true), ("1.3.0", false)]);
    }

    #[test]
    fn spec_invalid_examples() {
        assert_eq!(err(">v0.1.0"), r#"Could not parse Range ">v0.1.0": Could not parse comparator ">v" in ">v0.1.0""#);
        assert_eq!(
            err(">1.00.1"),
            r#"Could not parse Range ">1.00.1": Could not parse version "1.00.1" in ">1.00.1": Minor number must not contain leading zeroes "00""#
        );
        assert_eq!(err("1"), "Last element in range is '||'");
        assert_eq!(err("|| <1.0.0"), "First element in range is '||'");
        assert_eq!(
            err("<1.0"),
            r#"Could not parse Range "<1.0": Could not parse version "1.0" in "<1.0": No Major.Minor.Patch elements found"#
        );
        assert_eq!(
            err("1.0"),
            r#"Could not parse Range "1.0": Could not parse version "1.0" in "1.0": No Major.Minor.Patch elements found"#
        );
    }

    #[test]
    fn or_errors() {
        assert_eq!(err(""), "Last element in range is '||'");
        assert_eq!(err("   "), "Last element in range is '||'");
        assert_eq!(err("a b c"), "Last element in range is '||'");
        assert_eq!(err(">1.0.0 ||"), "Last element in range is '||'");
        assert_eq!(err("||"), "First element in range is '||'");
        assert_eq!(err("|| ||"), "First element in range is '||'");
        // A single '|' is dropped (too short), so this is just one part.
        check(">1.0.0 | <2.0.0", &[("1.5.0", true), ("2.5.0", false)]);
    }

    #[test]
    fn part_errors() {
        assert_eq!(err("string"), r#"Could not get version from string: "string""#);
        assert_eq!(err(">=1.0.0 abc"), r#"Could not get version from string: "abc""#);
        // A trailing lone operator is shorter than 2 characters and dropped.
        check(">=1.0.0 >", &[("1.0.0", true), ("0.1.0", false)]);
        assert_eq!(err(">>1.2.3"), r#"Could not parse Range ">>1.2.3": Could not parse comparator ">>" in ">>1.2.3""#);
        assert_eq!(err("~1.2.3"), r#"Could not parse Range "~1.2.3": Could not parse comparator "~" in "~1.2.3""#);
        assert_eq!(err("=>1.2.3"), r#"Could not parse Range "=>1.2.3": Could not parse comparator "=>" in "=>1.2.3""#);
        assert_eq!(
            err(">=1.0.0 <2.0.0-01"),
            r#"Could not parse Range "<2.0.0-01": Could not parse version "2.0.0-01" in "<2.0.0-01": Numeric PreRelease version must not contain leading zeroes "01""#
        );
        assert_eq!(err("v1.0.0"), r#"Could not parse Range "v1.0.0": Could not parse comparator "v" in "v1.0.0""#);
        assert_eq!(
            err(">=1.0.0,<2.0.0"),
            r#"Could not parse Range ">=1.0.0,<2.0.0": Could not parse version "1.0.0,<2.0.0" in ">=1.0.0,<2.0.0": Invalid character(s) found in patch number "0,<2.0.0""#
        );
        // The first failing part in order wins.
        assert_eq!(
            err(">=01.0.0 >>1.0.0"),
            r#"Could not parse Range ">=01.0.0": Could not parse version "01.0.0" in ">=01.0.0": Major number must not contain leading zeroes "01""#
        );
    }

    #[test]
    fn spaces() {
        // A space after an operator does not split.
        check(">= 1.0.0", &[("1.0.0", true), ("0.9.0", false)]);
        check(">=   1.0.0   <  2.0.0", &[("1.5.0", true), ("2.0.0", false)]);
        check("  >=   1.2.3   <=  1.2.3   ", &[("1.2.3", true), ("1.2.4", false)]);
        check("      1.2.3      ||     >=1.2.5     <1.2.7    ", &[("1.2.3", true), ("1.2.4", false), ("1.2.6", true)]);
        assert_eq!(split_and_trim("1.2.3 1.2.3"), vec!["1.2.3", "1.2.3"]);
        assert_eq!(split_and_trim("     1.2.3     1.2.3     "), vec!["1.2.3", "1.2.3"]);
        assert_eq!(split_and_trim("  >=   1.2.3   <=  1.2.3   "), vec![">=1.2.3", "<=1.2.3"]);
        assert_eq!(split_and_trim("1.2.3 || >=1.2.3 <1.2.3"), vec!["1.2.3", "||", ">=1.2.3", "<1.2.3"]);
        // A trailing operator followed by a space swallows the rest.
        assert_eq!(split_and_trim(">= "), vec![">="]);
        assert_eq!(split_and_trim("1.0.0 > "), vec!["1.0.0", ">"]);
        assert_eq!(split_and_trim("1.0.0 >"), vec!["1.0.0"]);
        // '=' in the middle of a part also keeps the following space.
        assert_eq!(split_and_trim("a= b c"), vec!["a=b"]);
        assert_eq!(split_and_trim("a= b cd"), vec!["a=b", "cd"]);
        // Only spaces split, not tabs.
        assert_eq!(split_and_trim(">=1.0.0\t<2.0.0"), vec![">=1.0.0\t<2.0.0"]);
        assert_eq!(split_and_trim("é é"), vec!["é", "é"]);
        assert_eq!(split_and_trim("ab é"), vec!["ab", "é"]);
    }

    #[test]
    fn trailing_operator_errors() {
        assert_eq!(err("1.0.0 > "), r#"Could not get version from string: ">""#);
        assert_eq!(
            err(">=1.0.0\t<2.0.0"),
            r#"Could not parse Range ">=1.0.0	<2.0.0": Could not parse version "1.0.0	<2.0.0" in ">=1.0.0	<2.0.0": Invalid character(s) found in patch number "0\t<2.0.0""#
                .replace('\t', "\\t")
        );
    }

    #[test]
    fn whitespace_in_operator_is_trimmed() {
        // Go trims the operator with TrimSpace; the outer message keeps the part.
        check(">\t1.0.0", &[("1.0.0", false), ("1.0.1", true)]);
        assert_eq!(
            err("\t>>1.0.0"),
            r#"Could not parse Range "\t>>1.0.0": Could not parse comparator ">>" in ">>1.0.0""#
        );
    }

    #[test]
    fn operators() {
        let cases: &[(&str, [bool; 3])] = &[
            (">1.2.3", [false, false, true]),
            (">=1.2.3", [false, true, true]),
            ("<1.2.3", [true, false, false]),
            ("<=1.2.3", [true, true, false]),
            ("1.2.3", [false, true, false]),
            ("=1.2.3", [false, true, false]),
            ("==1.2.3", [false, true, false]),
            ("!=1.2.3", [true, false, true]),
            ("!1.2.3", [true, false, true]),
        ];
        for (range, want) in cases {
            check(range, &[("1.2.2", want[0]), ("1.2.3", want[1]), ("1.2.4", want[2])]);
        }
    }

    #[test]
    fn and_or() {
        check(">1.2.2 <1.2.5 !=1.2.4", &[("1.2.2", false), ("1.2.3", true), ("1.2.4", false), ("1.2.5", false)]);
        check(">1.2.2 || <1.2.4", &[("1.2.2", true), ("1.2.3", true), ("1.2.4", true)]);
        check("<1.2.2 || >1.2.4", &[("1.2.2", false), ("1.2.3", false), ("1.2.4", false)]);
        check(
            ">1.2.2 <1.2.4 || >=2.0.0 <3.0.0",
            &[("1.2.2", false), ("1.2.3", true), ("1.2.4", false), ("2.0.0", true), ("2.9.9", true), ("3.0.0", false)],
        );
        check(
            "1.x || >=2.0.x <2.2.x",
            &[("0.9.2", false), ("1.2.2", true), ("2.0.0", true), ("2.1.8", true), ("2.2.0", false)],
        );
    }

    #[test]
    fn empty_or_group() {
        let rng = r(">=2.0.0 || || <1.0.0");
        assert!(rng.contains(&v("3.0.0")));
        assert!(rng.contains(&v("0.5.0")));
        assert!(!rng.contains(&v("1.5.0")));
    }

    #[test]
    fn prerelease_no_special_treatment() {
        check("<1.0.0", &[("1.0.0-rc1", true), ("1.0.0", false)]);
        check(">=2.0.0", &[("3.0.0-rc.1", true), ("2.0.0-rc.1", false)]);
        check("1.0.0", &[("1.0.0+build", true)]);
        check("1.0.0+abc", &[("1.0.0", true), ("1.0.0+zzz", true)]);
    }

    #[test]
    fn wildcard_expansion_table() {
        assert_eq!(expand(">=1.2.x"), vec![">=1.2.0"]);
        assert_eq!(expand("<=1.2.x"), vec!["<1.3.0"]);
        assert_eq!(expand(">1.2.x"), vec![">=1.3.0"]);
        assert_eq!(expand("<1.2.x"), vec!["<1.2.0"]);
        assert_eq!(expand("!=1.2.x"), vec!["<1.2.0", ">=1.3.0"]);
        assert_eq!(expand("!1.2.x"), vec!["<1.2.0", ">=1.3.0"]);
        assert_eq!(expand("1.2.x"), vec![">=1.2.0", "<1.3.0"]);
        assert_eq!(expand("=1.2.x"), vec![">=1.2.0", "<1.3.0"]);
        assert_eq!(expand("==1.2.x"), vec![">=1.2.0", "<1.3.0"]);
        assert_eq!(expand(">=1.x"), vec![">=1.0.0"]);
        assert_eq!(expand("<=1.x"), vec!["<2.0.0"]);
        assert_eq!(expand(">1.x"), vec![">=2.0.0"]);
        assert_eq!(expand("<1.x"), vec!["<1.0.0"]);
        assert_eq!(expand("!=1.x"), vec!["<1.0.0", ">=2.0.0"]);
        assert_eq!(expand("1.x"), vec![">=1.0.0", "<2.0.0"]);
        // `1.x.x` has three parts ending in `x`, so blang treats it as a patch
        // wildcard: the minor, not the major, is incremented.
        assert_eq!(expand("1.x.x"), vec![">=1.0.0", "<1.1.0"]);
        assert_eq!(expand(">1.x.x"), vec![">=1.1.0"]);
        // Unknown operators are dropped by the expansion.
        assert_eq!(expand("~1.2.x"), vec!["1.2.0"]);
        // Parts without `x` are left alone.
        assert_eq!(expand(">=1.2.3"), vec![">=1.2.3"]);
        // A pre-release containing `x` goes through the expansion too.
        assert_eq!(expand("1.0.0-x"), vec![">=1.0.0-x", "<"]);
        assert_eq!(expand(">=1.0.0-x"), vec![">=1.0.0-x"]);
        assert_eq!(expand(">1.0.0-x"), vec![">="]);
        assert_eq!(expand("1.0.0-fox"), vec![">=1.0.0-fox", "<"]);
        // Increment of a non-number fails silently (empty version).
        assert_eq!(expand(">1.a.x"), vec![">="]);
        // An unknown operator vanishes: `>a1.2.x` means `=1.2.0`.
        assert_eq!(expand(">a1.2.x"), vec!["1.2.0"]);
    }

    #[test]
    fn wildcard_ranges() {
        check(">=1.2.x", &[("1.1.9", false), ("1.2.0", true), ("9.0.0", true)]);
        check("<=1.2.x", &[("1.2.9", true), ("1.3.0-0", true), ("1.3.0", false)]);
        check(">1.2.x", &[("1.2.9", false), ("1.3.0", true)]);
        check("<1.2.x", &[("1.1.9", true), ("1.2.0", false)]);
        check("!=1.2.x", &[("1.1.9", false), ("1.2.5", false), ("1.3.0", false)]);
        check("1.2.x", &[("1.2.0-rc", false), ("1.2.0", true), ("1.2.99", true), ("1.3.0", false)]);
        check("1.x", &[("0.9.9", false), ("1.0.0", true), ("1.99.0", true), ("2.0.0", false)]);
        check(">1.x", &[("1.9.0", false), ("2.0.0", true)]);
        check("1.x.x", &[("1.0.5", true), ("1.1.0", false)]);
        check("~1.2.x", &[("1.2.0", true), ("1.2.1", false)]);
    }

    #[test]
    fn wildcard_errors() {
        assert_eq!(err("foox"), r#"Could not get version from string: "foox""#);
        assert_eq!(err("fo.ob.ar.x"), r#"Could not get version from string: "fo.ob.ar.x""#);
        // Issue blang/semver#75: an `x` in a pre-release.
        assert_eq!(err("0.1.0-x"), r#"Could not get version from string: "<""#);
        assert_eq!(err("1.1.0-fox"), r#"Could not get version from string: "<""#);
        assert_eq!(err(">1.0.0-x"), r#"Could not get version from string: ">=""#);
        check(">=1.0.0-x", &[("1.0.0-x", true), ("1.0.0-w", false)]);
        check("<1.0.0-x", &[("1.0.0-w", true), ("1.0.0-x", false)]);
        // Expansion errors come first, from any group.
        assert_eq!(err(">>1.0.0 || foox"), r#"Could not get version from string: "foox""#);
        // Four parts: no wildcard type, so the upper bound is empty.
        assert_eq!(expand("1.2.x.x"), vec![">=1.2.0", "<"]);
        assert_eq!(err("1.2.x.x"), r#"Could not get version from string: "<""#);
        assert_eq!(
            err(">=1.2.3.x"),
            r#"Could not parse Range ">=1.2.3.0": Could not parse version "1.2.3.0" in ">=1.2.3.0": Invalid character(s) found in patch number "3.0""#
        );
        // A capital X is not a wildcard.
        assert_eq!(
            err("1.2.X"),
            r#"Could not parse Range "1.2.X": Could not parse version "1.2.X" in "1.2.X": Invalid character(s) found in patch number "X""#
        );
    }

    #[test]
    fn atoi() {
        assert_eq!(go_atoi("0"), Some(0));
        assert_eq!(go_atoi("+5"), Some(5));
        assert_eq!(go_atoi("-5"), Some(-5));
        assert_eq!(go_atoi(""), None);
        assert_eq!(go_atoi("+"), None);
        assert_eq!(go_atoi("1a"), None);
        assert_eq!(go_atoi("9223372036854775807"), Some(i64::MAX));
        assert_eq!(go_atoi("9223372036854775808"), None);
        assert_eq!(go_atoi("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(go_atoi("-9223372036854775809"), None);
        assert_eq!(increment_part("1.2.3", 0), "2.2.3");
        assert_eq!(increment_part("1.2", 1), "1.3");
        assert_eq!(increment_part("foo.bar", 0), "");
        assert_eq!(increment_part("1", 1), "");
        assert_eq!(increment_part("9223372036854775807.0.0", 0), "-9223372036854775808.0.0");
    }

    #[test]
    fn huge_wildcard_overflows_like_go() {
        assert_eq!(
            err(">9223372036854775807.x"),
            r#"Could not parse Range ">=-9223372036854775808.0.0": Could not parse comparator ">=-" in ">=-9223372036854775808.0.0""#
        );
    }

    #[test]
    fn unicode_digits() {
        assert!(is_go_digit('0'));
        assert!(is_go_digit('٣'));
        assert!(is_go_digit('𝟎'));
        assert!(!is_go_digit('²'));
        assert!(!is_go_digit('a'));
        assert!(!is_go_digit('Ⅻ'));
        assert_eq!(
            err(">٣.0.0"),
            r#"Could not parse Range ">٣.0.0": Could not parse version "٣.0.0" in ">٣.0.0": Invalid character(s) found in major number "٣""#
        );
        assert_eq!(err(">²1.0.0"), r#"Could not parse Range ">²1.0.0": Could not parse comparator ">²" in ">²1.0.0""#);
        for w in ND_RANGES.windows(2) {
            assert!(w[0].1 < w[1].0);
        }
    }

    #[test]
    fn display_is_original_text() {
        let text = "  >= 1.0.0   <2.0.0 ||  3.x ";
        let rng = r(text);
        assert_eq!(rng.as_str(), text);
        assert_eq!(rng.to_string(), text);
        assert_eq!(text.parse::<VersionRange>(), Ok(rng));
    }

    #[test]
    fn no_panic_on_odd_input() {
        for s in [
            "",
            " ",
            "|",
            "||",
            "x",
            "xx",
            "x x",
            "é",
            "éé",
            "é x",
            ">é",
            ">=é1.0.0",
            "1.0.0 é",
            "\u{0}\u{0}",
            ">\u{a0}1.0.0",
            "1.x.x.x",
            ".x",
            "0.x",
            "x.1",
            "<=.x",
            "9.x.x.x.x",
            "1 || 2",
            "|| || ||",
            "1.0.0 || || ||",
            "> > >",
            "= = =",
            "1.0.0-x.x",
            "1.0.0+x",
            ">=1.0.0-xx.x",
            "18446744073709551615.x",
            ">18446744073709551616.2.x",
        ] {
            let _ = VersionRange::parse(s).map(|r| r.contains(&Version::new(1, 0, 0)));
        }
    }
}
