//! Masterminds/semver v3 (v3.5.0) constraints, as OLM v1 (operator-controller)
//! uses them for a ClusterExtension's `version` range.
//!
//! - [`Constraints::parse`] is `NewConstraint`: hyphen ranges (`1.2 - 1.4.5`)
//!   are rewritten first, `||` separates OR groups, and the terms of a group
//!   are separated by whitespace or a comma. Operators are `=` (or none),
//!   `!=`, `>`, `<`, `>=`, `=>`, `<=`, `=<`, `~`, `~>` and `^`; a version part
//!   may be `x`, `X` or `*`, or be left out (`1.2` is `1.2.x`). Errors have the
//!   library's texts, such as `improper constraint: "foobar"`.
//! - [`Constraints::check`] is `Check`: a pre-release version only matches a
//!   group that names a pre-release itself (`>=1.0.0` excludes `1.1.0-rc.1`,
//!   `>=1.0.0-0` includes it), and build metadata is ignored.
//! - [`MastermindsVersion`] is the library's `Version` as far as constraints
//!   need it; [`MastermindsVersion::parse`] is the lenient `NewVersion`
//!   (`v1.2`, `1`, leading zeroes), used for constraint operands.
//!
//! Only the behaviour is reproduced (the library's regular expressions are
//! implemented by a small scanner); `Validate` and its messages are not.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use super::Version;
use crate::gotext::quote as go_quote;

/// Longest accepted constraint string, in bytes (`MaxConstraintLen`).
pub const MAX_CONSTRAINT_LEN: usize = 512;

/// Most OR groups in one constraint string (`MaxConstraintGroups`).
pub const MAX_CONSTRAINT_GROUPS: usize = 32;

/// Longest version string `NewVersion` accepts, in bytes (`MaxVersionLen`).
pub const MAX_VERSION_LEN: usize = 256;

/// Why a constraint string was rejected; `Display` gives Masterminds' text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MastermindsError {
    /// `constraint string is too long (max 512 bytes)`
    TooLong,
    /// `too many constraint groups (max 32)`
    TooManyGroups,
    /// `improper constraint: "<group>"`, quoting the whole OR group (after
    /// hyphen ranges were rewritten) that is not a valid list of terms.
    Improper(String),
    /// `constraint parser error`: a term is well formed but its version does
    /// not parse (a number above 2^64-1, a wildcard mixed with digits such as
    /// `1x`, a pre-release number with a leading zero).
    Parser,
}

impl fmt::Display for MastermindsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MastermindsError::TooLong => {
                write!(f, "constraint string is too long (max {MAX_CONSTRAINT_LEN} bytes)")
            }
            MastermindsError::TooManyGroups => {
                write!(f, "too many constraint groups (max {MAX_CONSTRAINT_GROUPS})")
            }
            MastermindsError::Improper(group) => write!(f, "improper constraint: {}", go_quote(group)),
            MastermindsError::Parser => f.write_str("constraint parser error"),
        }
    }
}

impl std::error::Error for MastermindsError {}

/// A version as Masterminds compares it: numbers and pre-release (build
/// metadata plays no part in comparisons or constraints, so it is not kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MastermindsVersion {
    /// The major number.
    pub major: u64,
    /// The minor number.
    pub minor: u64,
    /// The patch number.
    pub patch: u64,
    /// The pre-release without its `-`, empty for a release.
    pub pre: String,
}

impl MastermindsVersion {
    /// Masterminds `NewVersion` with its defaults (`CoerceNewVersion`): an
    /// optional `v`, one to three numbers (missing ones are 0, leading zeroes
    /// allowed), then an optional pre-release and build metadata. `None` where
    /// `NewVersion` returns an error: a string over 256 bytes, a number over
    /// 2^64-1, a numeric pre-release identifier with a leading zero, or text
    /// that is not of that form.
    pub fn parse(s: &str) -> Option<MastermindsVersion> {
        if s.len() > MAX_VERSION_LEN {
            return None;
        }
        let b = s.as_bytes();
        let mut i = usize::from(b.first() == Some(&b'v'));
        let mut numbers = [0u64; 3];
        for (n, slot) in numbers.iter_mut().enumerate() {
            if n > 0 {
                if b.get(i) != Some(&b'.') {
                    break;
                }
                i += 1;
            }
            let end = scan_while(b, i, u8::is_ascii_digit);
            if end == i {
                return None;
            }
            *slot = s.get(i..end)?.parse().ok()?;
            i = end;
        }
        let mut pre = "";
        if b.get(i) == Some(&b'-') {
            let end = scan_idents(b, i + 1)?;
            pre = s.get(i + 1..end)?;
            i = end;
        }
        if b.get(i) == Some(&b'+') {
            i = scan_idents(b, i + 1)?;
        }
        if i != b.len() {
            return None;
        }
        let leading_zero = |id: &str| id.len() > 1 && id.starts_with('0') && id.bytes().all(|c| c.is_ascii_digit());
        if !pre.is_empty() && pre.split('.').any(leading_zero) {
            return None;
        }
        let [major, minor, patch] = numbers;
        Some(MastermindsVersion { major, minor, patch, pre: pre.to_string() })
    }

    /// The version Masterminds gets from `NewVersion(v.String())` for a blang
    /// version, as operator-controller does before checking a range: the
    /// numbers and pre-release carry over. `None` if the text is over 256
    /// bytes (`NewVersion` rejects it, so no range matches).
    pub fn from_version(v: &Version) -> Option<MastermindsVersion> {
        if v.to_string().len() > MAX_VERSION_LEN {
            return None;
        }
        Some(MastermindsVersion {
            major: v.major(),
            minor: v.minor(),
            patch: v.patch(),
            pre: v.semver().pre.as_str().to_string(),
        })
    }

    /// Masterminds `Compare`: numbers, then a release above any pre-release,
    /// then pre-release identifiers pairwise (numbers below text, numbers by
    /// value, text bytewise; an identifier that does not fit in 64 bits is
    /// text), fewer identifiers first.
    pub fn compare(&self, other: &MastermindsVersion) -> Ordering {
        self.major.cmp(&other.major).then(self.minor.cmp(&other.minor)).then(self.patch.cmp(&other.patch)).then_with(
            || match (self.pre.is_empty(), other.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => compare_prerelease(&self.pre, &other.pre),
            },
        )
    }
}

impl fmt::Display for MastermindsVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.pre.is_empty() {
            write!(f, "-{}", self.pre)?;
        }
        Ok(())
    }
}

/// Pre-release lists pairwise; a missing identifier sorts first.
fn compare_prerelease(a: &str, b: &str) -> Ordering {
    let mut xs = a.split('.');
    let mut ys = b.split('.');
    loop {
        let ord = match (xs.next(), ys.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => Ordering::Less,
            (Some(_), None) => Ordering::Greater,
            (Some(x), Some(y)) => compare_pre_part(x, y),
        };
        if ord != Ordering::Equal {
            return ord;
        }
    }
}

/// One identifier pair: numbers (as parsed into 64 bits) below text.
fn compare_pre_part(x: &str, y: &str) -> Ordering {
    if x == y {
        return Ordering::Equal;
    }
    match (x.parse::<u64>(), y.parse::<u64>()) {
        (Ok(a), Ok(b)) => a.cmp(&b),
        (Ok(_), Err(_)) => Ordering::Less,
        (Err(_), Ok(_)) => Ordering::Greater,
        (Err(_), Err(_)) => x.as_bytes().cmp(y.as_bytes()),
    }
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    /// `` or `=`: equal, or tilde when the version has wildcards.
    TildeOrEqual,
    NotEqual,
    Greater,
    Less,
    GreaterEqual,
    LessEqual,
    /// `~` or `~>`.
    Tilde,
    Caret,
}

/// The operator alternatives in the order the library's regular expression
/// tries them (the first one followed by a valid version wins).
const OPS: [(&str, Op); 12] = [
    ("=", Op::TildeOrEqual),
    ("", Op::TildeOrEqual),
    ("!=", Op::NotEqual),
    (">", Op::Greater),
    ("<", Op::Less),
    (">=", Op::GreaterEqual),
    ("=>", Op::GreaterEqual),
    ("<=", Op::LessEqual),
    ("=<", Op::LessEqual),
    ("~", Op::Tilde),
    ("~>", Op::Tilde),
    ("^", Op::Caret),
];

/// One term, such as `>=1.2` or `~1.x`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Term {
    op: Op,
    /// The version with wildcards and missing parts as 0.
    con: MastermindsVersion,
    /// Some part is a wildcard or missing.
    dirty: bool,
    /// The minor part (and so the patch) is a wildcard or missing.
    minor_dirty: bool,
    /// Only the patch part is a wildcard or missing.
    patch_dirty: bool,
}

/// An AND group of terms.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Group {
    terms: Vec<Term>,
    /// Some term names a pre-release, so pre-release versions may match.
    has_pre: bool,
}

/// A parsed Masterminds constraint string: OR groups of AND-ed terms.
///
/// `Display` gives the original text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraints {
    text: String,
    groups: Vec<Group>,
    /// Masterminds `IncludePrerelease` (default `false`, as operator-controller
    /// leaves it): let pre-release versions match every group.
    pub include_prerelease: bool,
}

impl Constraints {
    /// Masterminds `NewConstraint`, with its errors. An empty string (or an
    /// empty OR group) is an improper constraint.
    pub fn parse(s: &str) -> Result<Constraints, MastermindsError> {
        if s.len() > MAX_CONSTRAINT_LEN {
            return Err(MastermindsError::TooLong);
        }
        let rewritten = rewrite_ranges(s);
        let ors: Vec<&str> = rewritten.split("||").collect();
        if ors.len() > MAX_CONSTRAINT_GROUPS {
            return Err(MastermindsError::TooManyGroups);
        }
        let mut groups = Vec::with_capacity(ors.len());
        for group in ors {
            let atoms = split_group(group).ok_or_else(|| MastermindsError::Improper(group.to_string()))?;
            let terms = atoms.into_iter().map(|a| a.term()).collect::<Result<Vec<Term>, MastermindsError>>()?;
            let has_pre = terms.iter().any(|t| !t.con.pre.is_empty());
            groups.push(Group { terms, has_pre });
        }
        Ok(Constraints { text: s.to_string(), groups, include_prerelease: false })
    }

    /// Masterminds `Check`: some OR group has all its terms satisfied. A
    /// pre-release version fails every group that names no pre-release
    /// (unless [`include_prerelease`](Constraints::include_prerelease) is set).
    pub fn check(&self, v: &MastermindsVersion) -> bool {
        self.groups.iter().any(|g| {
            let include_pre = self.include_prerelease || g.has_pre;
            g.terms.iter().all(|t| t.check(v, include_pre))
        })
    }

    /// [`check`](Constraints::check) for a blang version, converted as
    /// operator-controller does ([`MastermindsVersion::from_version`]); its
    /// build metadata plays no part.
    pub fn matches(&self, v: &Version) -> bool {
        MastermindsVersion::from_version(v).is_some_and(|mv| self.check(&mv))
    }

    /// The original constraint text.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for Constraints {
    /// The original constraint text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl FromStr for Constraints {
    type Err = MastermindsError;

    /// Same as [`Constraints::parse`].
    fn from_str(s: &str) -> Result<Constraints, MastermindsError> {
        Constraints::parse(s)
    }
}

impl Term {
    /// Whether `v` satisfies this term, as the library's constraint functions
    /// decide (wildcard parts make `>`, `<=`, `!=`, `~` and `^` coarser).
    fn check(&self, v: &MastermindsVersion, include_pre: bool) -> bool {
        if !v.pre.is_empty() && !include_pre {
            return false;
        }
        let c = &self.con;
        match self.op {
            Op::NotEqual => {
                if self.dirty {
                    if c.major != v.major {
                        return true;
                    }
                    if c.minor != v.minor && !self.minor_dirty {
                        return true;
                    } else if self.minor_dirty {
                        return false;
                    } else if c.patch != v.patch && !self.patch_dirty {
                        return true;
                    } else if self.patch_dirty {
                        if !v.pre.is_empty() || !c.pre.is_empty() {
                            return compare_prerelease(&v.pre, &c.pre) != Ordering::Equal;
                        }
                        return false;
                    }
                }
                v.compare(c) != Ordering::Equal
            }
            Op::Greater => {
                if !self.dirty {
                    return v.compare(c) == Ordering::Greater;
                }
                match v.major.cmp(&c.major) {
                    Ordering::Greater => true,
                    Ordering::Less => false,
                    Ordering::Equal if self.minor_dirty => false,
                    Ordering::Equal if self.patch_dirty => v.minor > c.minor,
                    Ordering::Equal => v.compare(c) == Ordering::Greater,
                }
            }
            Op::Less => v.compare(c) == Ordering::Less,
            Op::GreaterEqual => v.compare(c) != Ordering::Less,
            Op::LessEqual => {
                if !self.dirty {
                    return v.compare(c) != Ordering::Greater;
                }
                !(v.major > c.major || (v.major == c.major && v.minor > c.minor && !self.minor_dirty))
            }
            Op::Tilde => self.tilde(v),
            Op::TildeOrEqual => {
                if self.dirty {
                    self.tilde(v)
                } else {
                    v.compare(c) == Ordering::Equal
                }
            }
            Op::Caret => {
                if v.compare(c) == Ordering::Less {
                    return false;
                }
                if c.major > 0 || self.minor_dirty {
                    return v.major == c.major;
                }
                if v.major > 0 {
                    return false;
                }
                if c.minor > 0 || self.patch_dirty {
                    return v.minor == c.minor;
                }
                if v.minor > 0 {
                    return false;
                }
                v.patch == c.patch
            }
        }
    }

    /// `~`: at least the version, same major, and same minor unless the minor
    /// is a wildcard; `~0.0.0` matches everything.
    fn tilde(&self, v: &MastermindsVersion) -> bool {
        let c = &self.con;
        if v.compare(c) == Ordering::Less {
            return false;
        }
        if c.major == 0 && c.minor == 0 && c.patch == 0 && !self.minor_dirty && !self.patch_dirty {
            return true;
        }
        v.major == c.major && (v.minor == c.minor || self.minor_dirty)
    }
}

/// Go's `\s` in an ASCII regular expression.
fn is_ws(c: &u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\x0c' | b'\r')
}

/// A character of a version number in a constraint (the library's
/// `[0-9|x|X|\*]`, which includes `|`).
fn is_seg(c: &u8) -> bool {
    c.is_ascii_digit() || matches!(c, b'x' | b'X' | b'*' | b'|')
}

/// A pre-release or build metadata character.
fn is_ident(c: &u8) -> bool {
    c.is_ascii_alphanumeric() || *c == b'-'
}

/// Wildcard part.
fn is_x(s: &str) -> bool {
    matches!(s, "x" | "X" | "*")
}

/// The end of the run of `pred` characters starting at `i`.
fn scan_while(b: &[u8], mut i: usize, pred: impl Fn(&u8) -> bool) -> usize {
    while b.get(i).is_some_and(&pred) {
        i += 1;
    }
    i
}

/// `[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*` at `i`, greedy: its end, or `None` if
/// there is no first identifier.
fn scan_idents(b: &[u8], i: usize) -> Option<usize> {
    let mut end = scan_while(b, i, is_ident);
    if end == i {
        return None;
    }
    while b.get(end) == Some(&b'.') && b.get(end + 1).is_some_and(is_ident) {
        end = scan_while(b, end + 1, is_ident);
    }
    Some(end)
}

/// The parts of a constraint version, as byte ranges of the scanned text.
#[derive(Debug, Clone, Copy)]
struct CvSpan {
    /// The whole version, `v` and build metadata included.
    start: usize,
    end: usize,
    major: (usize, usize),
    /// Without the dot.
    minor: Option<(usize, usize)>,
    /// Without the dot.
    patch: Option<(usize, usize)>,
    /// Without the `-`.
    pre: Option<(usize, usize)>,
}

/// The library's constraint version pattern at `i`, longest match (the only
/// one that can be followed by what the grammar needs next): `v?`, a number
/// or wildcard, up to two more, then optional `-pre` and `+build`.
fn scan_cv(b: &[u8], i: usize) -> Option<CvSpan> {
    let mut j = i + usize::from(b.get(i) == Some(&b'v'));
    let major_end = scan_while(b, j, is_seg);
    if major_end == j {
        return None;
    }
    let major = (j, major_end);
    j = major_end;
    let mut dotted = [None, None];
    for slot in dotted.iter_mut() {
        if b.get(j) == Some(&b'.') && b.get(j + 1).is_some_and(is_seg) {
            let end = scan_while(b, j + 1, is_seg);
            *slot = Some((j + 1, end));
            j = end;
        } else {
            break;
        }
    }
    let mut pre = None;
    if b.get(j) == Some(&b'-') {
        if let Some(end) = scan_idents(b, j + 1) {
            pre = Some((j + 1, end));
            j = end;
        }
    }
    if b.get(j) == Some(&b'+') {
        if let Some(end) = scan_idents(b, j + 1) {
            j = end;
        }
    }
    let [minor, patch] = dotted;
    Some(CvSpan { start: i, end: j, major, minor, patch, pre })
}

/// One term found in a group: its operator and version parts.
struct Atom<'a> {
    text: &'a str,
    op: Op,
    cv: CvSpan,
}

impl Atom<'_> {
    /// The library's `parseConstraint`: wildcards and missing parts become 0
    /// and mark the term dirty (dropping build metadata), then the version is
    /// parsed with `NewVersion`.
    fn term(&self) -> Result<Term, MastermindsError> {
        let part = |r: (usize, usize)| self.text.get(r.0..r.1).unwrap_or("");
        let pre = self.cv.pre.map(|r| format!("-{}", part(r))).unwrap_or_default();
        let major = part(self.cv.major);
        let minor = self.cv.minor.map(part);
        let patch = self.cv.patch.map(part);
        let (mut dirty, mut minor_dirty, mut patch_dirty) = (true, false, false);
        let version = if is_x(major) {
            format!("0.0.0{pre}")
        } else if minor.is_none_or(is_x) {
            minor_dirty = true;
            format!("{major}.0.0{pre}")
        } else if patch.is_none_or(is_x) {
            patch_dirty = true;
            format!("{major}.{}.0{pre}", minor.unwrap_or(""))
        } else {
            dirty = false;
            part((self.cv.start, self.cv.end)).to_string()
        };
        let con = MastermindsVersion::parse(&version).ok_or(MastermindsError::Parser)?;
        Ok(Term { op: self.op, con, dirty, minor_dirty, patch_dirty })
    }
}

/// An operator and version starting at `i` (after optional whitespace): the
/// first operator alternative followed, after optional whitespace, by a
/// version.
fn scan_atom(b: &[u8], i: usize) -> Option<(Op, CvSpan)> {
    let i = scan_while(b, i, is_ws);
    let rest = b.get(i..)?;
    OPS.iter().find_map(|(text, op)| {
        if !rest.starts_with(text.as_bytes()) {
            return None;
        }
        let start = scan_while(b, i + text.len(), is_ws);
        scan_cv(b, start).map(|cv| (*op, cv))
    })
}

/// Validates an OR group and splits it into terms, as the library's
/// `validConstraintRegex` and `findConstraintRegex` do: terms separated by
/// whitespace or by one comma (with optional whitespace around it), optional
/// whitespace at both ends. `None` if the group is improper.
fn split_group(g: &str) -> Option<Vec<Atom<'_>>> {
    let b = g.as_bytes();
    let mut atoms = Vec::new();
    let mut i = 0;
    loop {
        let (op, cv) = scan_atom(b, i)?;
        atoms.push(Atom { text: g, op, cv });
        let next = scan_while(b, cv.end, is_ws);
        match b.get(next) {
            None => return Some(atoms),
            Some(b',') => i = next + 1,
            Some(_) if next > cv.end => i = next,
            Some(_) => return None,
        }
    }
}

/// The library's `rewriteRange`: every `A - B` (spaces required around the
/// hyphen) becomes `>= A, <= B ` (with a trailing space). Matches are found
/// left to right in the original text, each taking its surrounding
/// whitespace; each is then replaced at its first occurrence in the text
/// rewritten so far, as Go's `strings.Replace(o, match, t, 1)` does.
fn rewrite_ranges(s: &str) -> String {
    let b = s.as_bytes();
    let mut found: Vec<(&str, &str, &str)> = Vec::new();
    let mut from = 0;
    while from < b.len() {
        match range_at_or_after(b, from) {
            Some((start, end, lo, hi)) => {
                let text = |r: (usize, usize)| s.get(r.0..r.1).unwrap_or("");
                found.push((text((start, end)), text(lo), text(hi)));
                from = end.max(start + 1);
            }
            None => break,
        }
    }
    let mut out = s.to_string();
    for (whole, lo, hi) in found {
        out = out.replacen(whole, &format!(">= {lo}, <= {hi} "), 1);
    }
    out
}

/// The leftmost `\s*(cv)\s+-\s+(cv)\s*` at or after `from`: its span and the
/// spans of the two versions.
#[allow(clippy::type_complexity)]
fn range_at_or_after(b: &[u8], from: usize) -> Option<(usize, usize, (usize, usize), (usize, usize))> {
    (from..b.len()).find_map(|start| {
        let lo = scan_cv(b, scan_while(b, start, is_ws))?;
        let dash = scan_while(b, lo.end, is_ws);
        if dash == lo.end || b.get(dash) != Some(&b'-') {
            return None;
        }
        let hi_start = scan_while(b, dash + 1, is_ws);
        if hi_start == dash + 1 {
            return None;
        }
        let hi = scan_cv(b, hi_start)?;
        let end = scan_while(b, hi.end, is_ws);
        Some((start, end, (lo.start, lo.end), (hi.start, hi.end)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> MastermindsVersion {
        match MastermindsVersion::parse(s) {
            Some(v) => v,
            None => panic!("version {s:?} does not parse"),
        }
    }

    fn check(c: &str, ver: &str) -> bool {
        match Constraints::parse(c) {
            Ok(cs) => cs.check(&v(ver)),
            Err(e) => panic!("constraint {c:?}: {e}"),
        }
    }

    fn err(c: &str) -> String {
        match Constraints::parse(c) {
            Ok(_) => panic!("constraint {c:?} parsed"),
            Err(e) => e.to_string(),
        }
    }

    /// Each case: constraint, version, expected.
    fn table(cases: &[(&str, &str, bool)]) {
        for &(c, ver, want) in cases {
            assert_eq!(check(c, ver), want, "{c:?} against {ver:?}");
        }
    }

    #[test]
    fn lenient_versions() {
        assert_eq!(v("1"), MastermindsVersion { major: 1, minor: 0, patch: 0, pre: String::new() });
        assert_eq!(v("v1.2").to_string(), "1.2.0");
        assert_eq!(v("01.002.3").to_string(), "1.2.3");
        assert_eq!(v("1.2-beta.1+meta").to_string(), "1.2.0-beta.1");
        for bad in ["", "v", "1.", "1..2", "1.2.3.4", "1.2.3-", "1.2.3+", "1.2.3-01", "a", "1x", "1.2.3-a..b"] {
            assert!(MastermindsVersion::parse(bad).is_none(), "{bad:?}");
        }
        assert!(MastermindsVersion::parse("18446744073709551615").is_some());
        assert!(MastermindsVersion::parse("18446744073709551616").is_none());
        assert!(MastermindsVersion::parse(&format!("1.0.0-{}", "a".repeat(251))).is_none());
    }

    #[test]
    fn compare_prereleases() {
        let ord = |a: &str, b: &str| v(a).compare(&v(b));
        assert_eq!(ord("1.0.0", "1.0.0-rc.1"), Ordering::Greater);
        assert_eq!(ord("1.0.0-rc.2", "1.0.0-rc.10"), Ordering::Less);
        assert_eq!(ord("1.0.0-1", "1.0.0-a"), Ordering::Less);
        assert_eq!(ord("1.0.0-a", "1.0.0-a.1"), Ordering::Less);
        assert_eq!(ord("1.0.0-B", "1.0.0-a"), Ordering::Less);
        assert_eq!(ord("1.0.0+x", "1.0.0"), Ordering::Equal);
    }

    #[test]
    fn basic_operators() {
        table(&[
            ("=2.0.0", "1.2.3", false),
            ("=2.0.0", "2.0.0", true),
            ("2.0.0", "2.0.0", true),
            ("=2.0", "2.0.1", true),
            ("4.1", "4.1.0", true),
            ("!=4.1.0", "4.1.0", false),
            ("!=4.1.0", "4.1.1", true),
            ("!=4.1", "4.1.1", false),
            ("!=4.1", "5.1.0", true),
            ("!=4.1-alpha", "4.1.0", true),
            ("<11", "0.1.0", true),
            ("<11", "11.1.0", false),
            ("<1.1", "1.1.0", false),
            ("<=11", "11.2.3", true),
            ("<=11", "12.2.3", false),
            ("<=1.1", "1.1.1", true),
            ("<=1.1", "1.2.3", false),
            ("=<1.1", "1.1.1", true),
            (">1.1", "4.1.0", true),
            (">1.1", "1.1.0", false),
            (">11", "11.1.0", false),
            (">11.1", "11.1.1", false),
            (">11.1", "11.2.1", true),
            (">0", "1", true),
            (">=11.1", "11.0.2", false),
            (">=1.1", "1.1.0", true),
            ("=>1.1", "1.1.0", true),
            (">= 1.2", "1.2.0", true),
            ("v1.2", "1.2.5", true),
        ]);
    }

    #[test]
    fn wildcards() {
        table(&[
            ("*", "4.5.6", true),
            ("x", "0.0.0", true),
            ("X", "1.0.0", true),
            ("2.*", "2.1.1", true),
            ("2.*", "3.4.5", false),
            ("2.1.*", "2.2.1", false),
            ("2.1.x", "2.1.9", true),
            ("1.x", "1.4", true),
            ("0.x.x", "1.2.3", false),
            ("0.0.x", "1.2.3", false),
            ("!=4.x", "4.1.0", false),
            ("!=4.x", "5.1.0", true),
            ("!=4.1.x", "4.2.0", true),
            ("!=4.2.x", "4.2.3", false),
            ("<1.x", "1.1.1", false),
            ("<1.x", "0.1.1", true),
            ("<1.1.x", "1.0.500", true),
            ("<=1.x", "1.1.0", true),
            ("<=2.x", "3.0.0", false),
            ("<=1.1.x", "1.2.500", false),
            (">1.x", "1.9.0", false),
            (">1.x", "2.0.0", true),
        ]);
    }

    #[test]
    fn tilde_and_caret() {
        table(&[
            ("~1.2.3", "1.2.4", true),
            ("~1.2.3", "1.3.4", false),
            ("~1.2.3", "1.2.2", false),
            ("~1", "1.3.5", true),
            ("~1", "2.1.1", false),
            ("~>1.2", "1.2.9", true),
            ("~1.x", "1.3.5", true),
            ("~*", "2.1.1", true),
            ("~0.0.0", "1.2.3", true),
            ("~0.2.3", "0.2.5", true),
            ("~0.2.3", "0.3.5", false),
            ("^1.2.3", "1.8.9", true),
            ("^1.2.3", "2.8.9", false),
            ("^1.2.3", "1.2.1", false),
            ("^1", "1.8.9", true),
            ("^1.x", "2.1.1", false),
            ("^0.2.3", "0.2.5", true),
            ("^0.2.3", "0.5.6", false),
            ("^0.2", "0.2.5", true),
            ("^0.0.3", "0.0.3", true),
            ("^0.0.3", "0.0.4", false),
            ("^0.0", "0.0.3", true),
            ("^0.0", "0.1.4", false),
            ("^0", "0.2.3", true),
            ("^0", "1.1.4", false),
            ("^0.0.0", "1.2.3", false),
            // `^*` is `^0.0.0` with only the major dirty, so the library's
            // caret function ends in the 0.0.z branch: only 0.0.0 matches.
            ("^*", "0.0.0", true),
            ("^*", "0.0.5", false),
            ("^*", "1.0.0", false),
        ]);
    }

    #[test]
    fn prereleases() {
        table(&[
            (">=1.0.0", "1.1.0-rc.1", false),
            (">=1.0.0-0", "1.1.0-rc.1", true),
            ("*", "1.2.3-alpha.1", false),
            ("*-0", "1.2.3-alpha.1", true),
            (">0", "0.0.1-alpha", false),
            (">0.0.0-0", "0.0.0-alpha", true),
            ("<0-z", "0.0.0-alpha", true),
            (">=1.1", "4.1.0-beta", false),
            ("<=1.1-a", "0.1.0-alpha", true),
            ("~1.1-alpha", "1.1.1-beta", true),
            ("~1.1.1-beta", "1.1.1-alpha", false),
            ("^1.2.0-alpha.0", "1.2.1-alpha.1", true),
            ("^1.2.0-alpha.2", "1.2.0-alpha.1", false),
            ("!=4.1-alpha", "4.1.0-alpha", false),
            ("!=4.1-alpha", "4.1.1-alpha", false),
            // One term with a pre-release opens the whole AND group to them.
            (">=1.0.0-0 <2.0.0", "1.5.0-rc.1", true),
            // ... but not the other OR groups.
            (">=3.0.0-0 || >=1.0.0", "1.5.0-rc.1", false),
        ]);
        let mut cs = match Constraints::parse(">=1.0.0") {
            Ok(cs) => cs,
            Err(e) => panic!("{e}"),
        };
        cs.include_prerelease = true;
        assert!(cs.check(&v("1.1.0-rc.1")));
    }

    #[test]
    fn and_or_and_hyphen_ranges() {
        table(&[
            (">1.1, <2", "1.2.1", true),
            (">1.1, <2", "1.1.1", false),
            (">1.1 <2", "1.2.1", true),
            (">=1.1    <2    !=1.2.3", "1.2.3", false),
            ("> 1.1, <     2", "1.5.0", true),
            (">= 1.1 , < 2", "1.5.0", true),
            (">=1.1, <2, !=1.2.3 || > 3", "4.1.2", true),
            (">=1.1, <2, !=1.2.3 || > 3", "3.0.0", false),
            ("1.1 - 2", "1.1.1", true),
            ("1.1 - 2", "2.0.0", true),
            ("1.1 - 2", "2.0.1", true),
            ("1.1 - 2", "3.0.0", false),
            ("1.5.0 - 4.5", "3.7.0", true),
            ("1.1-3", "4.3.2", false),
            ("1.0.0 - 2.0.0 <=2.0.0", "1.5.0", true),
            ("1.0.0 - 2.0.0, <=2.0.0", "1.5.0", true),
            ("2 - 3 4.0.0 - 5.1", "4.5.0", false),
            ("3 - 4 || => 3.0, < 4", "3.5.0", true),
            ("12.3.34 ~1.2.3", "12.3.34", false),
            ("0.1.0", "0.1.0", true),
            (">=0.1.0 <=1.0.0", "1.0.0", true),
            ("<1.0.0 >=2.0.0", "0.1.0", false),
        ]);
        assert_eq!(rewrite_ranges("2 - 3"), ">= 2, <= 3 ");
        assert_eq!(rewrite_ranges("2 - 3, 2 - 3"), ">= 2, <= 3 ,>= 2, <= 3 ");
        assert_eq!(rewrite_ranges("2 - 3 4.0.0 - 5.1"), ">= 2, <= 3 >= 4.0.0, <= 5.1 ");
        assert_eq!(rewrite_ranges("1.0.0 - 2.0.0 <=2.0.0"), ">= 1.0.0, <= 2.0.0 <=2.0.0");
        assert_eq!(rewrite_ranges("1.0.0 -2.0.0"), "1.0.0 -2.0.0");
    }

    #[test]
    fn errors() {
        assert_eq!(err("foobar"), r#"improper constraint: "foobar""#);
        assert_eq!(err(""), r#"improper constraint: """#);
        assert_eq!(err(">= bar"), r#"improper constraint: ">= bar""#);
        assert_eq!(err("BAR >= 1.2.3"), r#"improper constraint: "BAR >= 1.2.3""#);
        assert_eq!(err("V1.2.3"), r#"improper constraint: "V1.2.3""#);
        assert_eq!(err("12.3.4.1234"), r#"improper constraint: "12.3.4.1234""#);
        assert_eq!(err("12.3.34~ 1.2.3"), r#"improper constraint: "12.3.34~ 1.2.3""#);
        assert_eq!(err("1.0<2.0"), r#"improper constraint: "1.0<2.0""#);
        assert_eq!(err("> = 1.2"), r#"improper constraint: "> = 1.2""#);
        assert_eq!(err(",1.0"), r#"improper constraint: ",1.0""#);
        assert_eq!(err("1.0,"), r#"improper constraint: "1.0,""#);
        assert_eq!(err("1.0,,2.0"), r#"improper constraint: "1.0,,2.0""#);
        assert_eq!(err("1.2.3 ||"), r#"improper constraint: """#);
        assert_eq!(err("1.2.3 || || 2.0.0"), r#"improper constraint: " ""#);
        assert_eq!(err("1.2 || x y"), r#"improper constraint: " x y""#);
        assert_eq!(err("1.0.0\u{0}"), r#"improper constraint: "1.0.0\x00""#);
        assert_eq!(err("1.2.3-01"), "constraint parser error");
        assert_eq!(err("1x"), "constraint parser error");
        assert_eq!(err("1|2"), "constraint parser error");
        assert_eq!(err("18446744073709551616.0.0"), "constraint parser error");
        assert_eq!(err(&"1".repeat(513)), "constraint string is too long (max 512 bytes)");
        assert_eq!(err(&vec!["1"; 33].join("||")), "too many constraint groups (max 32)");
        // `==` is no operator; surrounding whitespace and leading zeroes are fine.
        assert_eq!(err("==1.2.3"), r#"improper constraint: "==1.2.3""#);
        assert!(Constraints::parse(" 1.2.3 ").is_ok());
        assert!(Constraints::parse("01.2.3").is_ok());
        assert!(Constraints::parse("v2.3.5-20161202202307-sha.e8fc5e5").is_ok());
    }

    #[test]
    fn blang_versions() {
        let cs = match Constraints::parse(">=1.0.0 <2.0.0") {
            Ok(cs) => cs,
            Err(e) => panic!("{e}"),
        };
        let blang = |s: &str| match Version::parse(s) {
            Ok(v) => v,
            Err(e) => panic!("{s}: {e}"),
        };
        assert!(cs.matches(&blang("1.2.3+build.7")));
        assert!(!cs.matches(&blang("1.2.3-rc.1")));
        assert!(!cs.matches(&blang("2.0.0")));
        assert_eq!(cs.to_string(), ">=1.0.0 <2.0.0");
    }

    #[test]
    fn arbitrary_input_does_not_panic() {
        let pieces =
            ["1", ".", "x", "*", "-", "+", " ", ",", "|", "||", ">", "=", "<", "~", "^", "!", "v", "a", "é", "0"];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..5000 {
            let mut s = String::new();
            for _ in 0..(seed % 12) {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                s.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            if let Ok(cs) = Constraints::parse(&s) {
                let _ = cs.check(&v("1.2.3-rc.1"));
                let _ = cs.check(&v("0.0.0"));
            }
            let _ = MastermindsVersion::parse(&s);
        }
    }
}
