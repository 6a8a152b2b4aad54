//! Image pull-spec validation (spec `fbc.md` §3.8).
//!
//! This module owns the check that `opm` applies to `olm.bundle` `image` and
//! `relatedImages[].image` strings: a hand-written equivalent of
//! `ParseNormalizedNamed` from `go.podman.io/image/v5/docker/reference`
//! (the containers/image fork of docker/distribution `reference`, without the
//! IPv6 and uppercase-namespace additions of distribution/reference v0.6),
//! followed by digest validation as done by `opencontainers/go-digest` v1.0.0
//! (sha256, sha384 and sha512 registered).
//!
//! The order of checks, and every error text, follows upstream exactly:
//!
//! 1. a bare 64-lowercase-hex string is refused as an image ID;
//! 2. the docker domain is split off (`docker.io` and `library/` defaults);
//! 3. the remote name (remainder before the first `:`) must be lowercase;
//! 4. `domain + "/" + remainder` must match the anchored reference grammar
//!    `name(:tag)?(@digest)?` (if only its lowercase form matches, the error
//!    says the repository name must be lowercase);
//! 5. the normalized name is at most 255 bytes;
//! 6. the digest, if any, is validated by go-digest.
//!
//! The grammar is matched by hand (no regex engine); the decomposition of a
//! reference into name, tag and digest is unique, so no backtracking is
//! needed. Callers format `invalid image pull spec %q: <err>` themselves and
//! skip empty strings.

use std::fmt;

/// Maximum length in bytes of a (normalized) repository name.
pub const NAME_TOTAL_LENGTH_MAX: usize = 255;

const DEFAULT_DOMAIN: &str = "docker.io";
const LEGACY_DEFAULT_DOMAIN: &str = "index.docker.io";
const OFFICIAL_REPO_PREFIX: &str = "library/";

/// Why an image reference was rejected. `Display` gives the upstream text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageRefError {
    /// The whole string is 64 lowercase hex digits (an image ID).
    /// Holds the input string.
    HexIdentifier(String),
    /// The remote name (path before the first `:`) is not lowercase; checked
    /// by `ParseNormalizedNamed` before the grammar.
    RemoteNameNotLowercase,
    /// The reference grammar did not match.
    InvalidReferenceFormat,
    /// The grammar did not match, but it matches once the whole normalized
    /// string is lowercased (`ErrNameContainsUppercase`).
    NameContainsUppercase,
    /// The normalized repository name is longer than 255 bytes.
    NameTooLong,
    /// The digest algorithm is not sha256, sha384 or sha512.
    DigestUnsupported,
    /// The digest hex part has the wrong length for its algorithm.
    DigestInvalidLength,
    /// The digest is malformed (e.g. uppercase hex, uppercase unknown algorithm).
    DigestInvalidFormat,
}

impl fmt::Display for ImageRefError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImageRefError::HexIdentifier(s) => {
                write!(f, "invalid repository name ({}), cannot specify 64-byte hexadecimal strings", s)
            }
            ImageRefError::RemoteNameNotLowercase => {
                f.write_str("invalid reference format: repository name must be lowercase")
            }
            ImageRefError::InvalidReferenceFormat => f.write_str("invalid reference format"),
            ImageRefError::NameContainsUppercase => f.write_str("repository name must be lowercase"),
            ImageRefError::NameTooLong => {
                write!(f, "repository name must not be more than {} characters", NAME_TOTAL_LENGTH_MAX)
            }
            ImageRefError::DigestUnsupported => f.write_str("unsupported digest algorithm"),
            ImageRefError::DigestInvalidLength => f.write_str("invalid checksum digest length"),
            ImageRefError::DigestInvalidFormat => f.write_str("invalid checksum digest format"),
        }
    }
}

impl std::error::Error for ImageRefError {}

/// Validate an image reference the way `reference.ParseNormalizedNamed` does.
///
/// The empty string is rejected (`invalid reference format`), as upstream;
/// `opm` itself never validates empty pull specs.
pub fn validate_image_ref(s: &str) -> Result<(), ImageRefError> {
    if olm_catalog_base::FAST_PATHS && plainly_valid(s.as_bytes()) {
        return Ok(());
    }
    check_steps(s)
}

/// The steps above, one by one.
fn check_steps(s: &str) -> Result<(), ImageRefError> {
    // 1. Ambiguous image IDs.
    if is_identifier(s) {
        return Err(ImageRefError::HexIdentifier(s.to_string()));
    }
    // 2. Domain split and normalization.
    let (domain, remainder) = split_docker_domain(s);
    // 3. The remote name must be lowercase.
    let remote_name = match remainder.find(':') {
        Some(i) => &remainder[..i],
        None => remainder.as_str(),
    };
    if changes_when_lowercased(remote_name) {
        return Err(ImageRefError::RemoteNameNotLowercase);
    }
    // 4.-6. reference.Parse on the normalized string.
    let mut normalized = String::with_capacity(domain.len() + 1 + remainder.len());
    normalized.push_str(domain);
    normalized.push('/');
    normalized.push_str(&remainder);
    parse(&normalized)
}

/// Whether `s` has the shape nearly every catalog's references have, checked in one pass: an
/// explicit registry host, lowercase path components, an optional tag and an optional
/// sha256/384/512 digest in lowercase hex. `true` only when the steps below accept `s` (the host
/// is its own domain, so the normalized name is `s` itself, or shorter for `index.docker.io`, and
/// the remote name is lowercase by the grammar); `false` says nothing, and the steps below decide.
fn plainly_valid(b: &[u8]) -> bool {
    let Some(mut i) = explicit_host_end(b) else { return false };
    while b.get(i) == Some(&b'/') {
        match path_component_end(b, i + 1) {
            Some(end) => i = end,
            None => return false,
        }
    }
    if i > NAME_TOTAL_LENGTH_MAX {
        return false;
    }
    if b.get(i) == Some(&b':') {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(|&x| x.is_ascii_alphanumeric() || matches!(x, b'_' | b'.' | b'-')) {
            i += 1;
        }
        if i == start || matches!(b[start], b'.' | b'-') || i - start > 128 {
            return false;
        }
    }
    let digest = match b.get(i) {
        None => return true,
        Some(b'@') => &b[i + 1..],
        Some(_) => return false,
    };
    let hex = match digest.split_at_checked(7) {
        Some((b"sha256:", hex)) if hex.len() == 64 => hex,
        Some((b"sha384:", hex)) if hex.len() == 96 => hex,
        Some((b"sha512:", hex)) if hex.len() == 128 => hex,
        _ => return false,
    };
    hex.iter().all(|&x| CLASSES[usize::from(x)] & LOWER_HEX != 0)
}

/// The index of the first `/` when what precedes it is a registry host `split_docker_domain`
/// keeps as the domain (it has a `.` or a port, or is `localhost`; Docker Hub's names only before a
/// path of two components or more, which normalization leaves as it is, apart from
/// `index.docker.io` becoming `docker.io`, a shorter name) and matches the domain grammar.
fn explicit_host_end(b: &[u8]) -> Option<usize> {
    let slash = b.iter().position(|&x| x == b'/')?;
    let host = &b[..slash];
    let (name, port) = match host.iter().position(|&x| x == b':') {
        Some(c) => (&host[..c], Some(&host[c + 1..])),
        None => (host, None),
    };
    let explicit = port.is_some() || name.contains(&b'.') || name == b"localhost";
    // Docker Hub's names are normalized: `library/` is prefixed to a one-component path.
    let hub = host == DEFAULT_DOMAIN.as_bytes() || host == LEGACY_DEFAULT_DOMAIN.as_bytes();
    if !explicit || hub && !b[slash + 1..].contains(&b'/') {
        return None;
    }
    if port.is_some_and(|p| p.is_empty() || !p.iter().all(u8::is_ascii_digit)) {
        return None;
    }
    let component = |c: &[u8]| {
        c.first().is_some_and(u8::is_ascii_alphanumeric)
            && c.last().is_some_and(u8::is_ascii_alphanumeric)
            && c.iter().all(|&x| x.is_ascii_alphanumeric() || x == b'-')
    };
    name.split(|&x| x == b'.').all(component).then_some(slash)
}

/// The byte classes of the one-pass check, a bit each: `[a-z0-9]` and `[0-9a-f]`.
const LOWER_ALNUM: u8 = 1;
const LOWER_HEX: u8 = 2;
static CLASSES: [u8; 256] = {
    let mut t = [0; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_lowercase() || b.is_ascii_digit() {
            t[c] = LOWER_ALNUM;
        }
        if b.is_ascii_digit() || matches!(b, b'a'..=b'f') {
            t[c] |= LOWER_HEX;
        }
        c += 1;
    }
    t
};

/// The end of the path component starting at `i` (`[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*`),
/// or `None` when none starts there or a separator is not followed by a letter or digit.
fn path_component_end(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        let run = b.get(i..)?.iter().take_while(|&&x| CLASSES[usize::from(x)] & LOWER_ALNUM != 0).count();
        if run == 0 {
            return None;
        }
        i += run;
        match b.get(i) {
            Some(b'.') => i += 1,
            Some(b'_') => i += if b.get(i + 1) == Some(&b'_') { 2 } else { 1 },
            Some(b'-') => {
                while b.get(i) == Some(&b'-') {
                    i += 1;
                }
            }
            _ => return Some(i),
        }
    }
}

/// `^[a-f0-9]{64}$`
fn is_identifier(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// `SplitDockerDomain`: the part before the first `/` is a domain when it
/// contains `.` or `:` or is `localhost`; otherwise the domain is `docker.io`.
/// `index.docker.io` becomes `docker.io`, and on `docker.io` a remainder
/// without `/` gets the `library/` prefix.
fn split_docker_domain(name: &str) -> (&str, String) {
    let (mut domain, mut remainder): (&str, String) = match name.find('/') {
        Some(i) => {
            let first = &name[..i];
            if first.contains(['.', ':']) || first == "localhost" {
                (first, name[i + 1..].to_string())
            } else {
                (DEFAULT_DOMAIN, name.to_string())
            }
        }
        None => (DEFAULT_DOMAIN, name.to_string()),
    };
    if domain == LEGACY_DEFAULT_DOMAIN {
        domain = DEFAULT_DOMAIN;
    }
    if domain == DEFAULT_DOMAIN && !remainder.contains('/') {
        remainder.insert_str(0, OFFICIAL_REPO_PREFIX);
    }
    (domain, remainder)
}

/// Go `strings.ToLower(s) != s`: some character has a lowercase mapping.
fn changes_when_lowercased(s: &str) -> bool {
    s.chars().any(|c| {
        let mut lower = c.to_lowercase();
        !(lower.next() == Some(c) && lower.next().is_none())
    })
}

/// Go `strings.ToLower`, as far as it matters for an ASCII-only grammar:
/// only characters whose lowercase form is ASCII can change the outcome.
/// Besides `A`-`Z` these are U+212A KELVIN SIGN (to `k`) and U+0130 LATIN
/// CAPITAL LETTER I WITH DOT ABOVE (to `i`, Go's simple case mapping). Any
/// other non-ASCII character stays non-ASCII and fails the grammar either way.
fn go_to_lower_for_grammar(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'A'..='Z' => c.to_ascii_lowercase(),
            '\u{212A}' => 'k',
            '\u{0130}' => 'i',
            _ => c,
        })
        .collect()
}

/// `reference.Parse` (errors only).
fn parse(s: &str) -> Result<(), ImageRefError> {
    let parts = match match_reference(s) {
        Some(p) => p,
        None => {
            // `s` is never empty here (it always contains the domain and a
            // `/`), so upstream's `ErrNameEmpty` branch cannot be reached.
            if match_reference(&go_to_lower_for_grammar(s)).is_some() {
                return Err(ImageRefError::NameContainsUppercase);
            }
            return Err(ImageRefError::InvalidReferenceFormat);
        }
    };
    if parts.name.len() > NAME_TOTAL_LENGTH_MAX {
        return Err(ImageRefError::NameTooLong);
    }
    if let Some(d) = parts.digest {
        validate_digest(d)?;
    }
    Ok(())
}

/// The captures of `ReferenceRegexp`.
#[derive(Debug, PartialEq, Eq)]
struct ReferenceParts<'a> {
    name: &'a str,
    tag: Option<&'a str>,
    digest: Option<&'a str>,
}

/// Anchored `name(?::tag)?(?:@digest)?`.
///
/// Neither name nor tag can contain `@`, so the digest starts after the first
/// `@`. Before it, a `:` followed by no `/` can only introduce the tag (the
/// only `:` a name may contain is the domain port, which a `/` must follow).
fn match_reference(s: &str) -> Option<ReferenceParts<'_>> {
    let (before_at, digest) = match s.find('@') {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    if let Some(d) = digest {
        if !match_digest_grammar(d) {
            return None;
        }
    }
    let (name, tag) = match before_at.rfind(':') {
        Some(i) if !before_at[i + 1..].contains('/') => (&before_at[..i], Some(&before_at[i + 1..])),
        _ => (before_at, None),
    };
    if let Some(t) = tag {
        if !match_tag(t) {
            return None;
        }
    }
    if !match_name(name) {
        return None;
    }
    Some(ReferenceParts { name, tag, digest })
}

/// `(?:domain/)?path-component(?:/path-component)*`
fn match_name(name: &str) -> bool {
    let mut segments = name.split('/');
    let first = match segments.next() {
        Some(f) => f,
        None => return false,
    };
    let mut rest_count = 0usize;
    for seg in segments {
        if !match_path_component(seg) {
            return false;
        }
        rest_count += 1;
    }
    match_path_component(first) || (rest_count > 0 && match_domain(first))
}

/// `[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*`: lowercase alphanumeric runs
/// joined by `.`, `_`, `__` or one or more `-`.
fn match_path_component(c: &str) -> bool {
    let b = c.as_bytes();
    let is_alnum = |x: u8| x.is_ascii_lowercase() || x.is_ascii_digit();
    match (b.first(), b.last()) {
        (Some(&f), Some(&l)) if is_alnum(f) && is_alnum(l) => {}
        _ => return false,
    }
    let mut i = 0;
    while i < b.len() {
        if is_alnum(b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && !is_alnum(b[i]) {
            i += 1;
        }
        let sep = &b[start..i];
        let ok = sep == b"." || sep == b"_" || sep == b"__" || sep.iter().all(|&x| x == b'-');
        if !ok {
            return false;
        }
    }
    true
}

/// `domain-component(?:\.domain-component)*(?::[0-9]+)?`
fn match_domain(d: &str) -> bool {
    let (host, port) = match d.find(':') {
        Some(i) => (&d[..i], Some(&d[i + 1..])),
        None => (d, None),
    };
    if let Some(p) = port {
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
    }
    host.split('.').all(match_domain_component)
}

/// `[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]`
fn match_domain_component(c: &str) -> bool {
    let b = c.as_bytes();
    match (b.first(), b.last()) {
        (Some(f), Some(l)) if f.is_ascii_alphanumeric() && l.is_ascii_alphanumeric() => {}
        _ => return false,
    }
    b.iter().all(|&x| x.is_ascii_alphanumeric() || x == b'-')
}

/// `[\w][\w.-]{0,127}` (Go's `\w` is ASCII `[0-9A-Za-z_]`).
fn match_tag(t: &str) -> bool {
    let b = t.as_bytes();
    let is_word = |x: u8| x.is_ascii_alphanumeric() || x == b'_';
    match b.first() {
        Some(&f) if is_word(f) => {}
        _ => return false,
    }
    b.len() <= 128 && b.iter().all(|&x| is_word(x) || x == b'.' || x == b'-')
}

/// `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][[:xdigit:]]{32,}`
fn match_digest_grammar(d: &str) -> bool {
    let (alg, hex) = match d.find(':') {
        Some(i) => (&d[..i], &d[i + 1..]),
        None => return false,
    };
    let alg_ok = alg.split(['-', '_', '+', '.']).all(|comp| {
        let b = comp.as_bytes();
        match b.first() {
            Some(f) if f.is_ascii_alphabetic() => b.iter().all(|x| x.is_ascii_alphanumeric()),
            _ => false,
        }
    });
    alg_ok && hex.len() >= 32 && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

/// go-digest v1.0.0 `DigestRegexpAnchored`:
/// `^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$`
fn match_go_digest_regexp(d: &str) -> bool {
    let (alg, enc) = match d.find(':') {
        Some(i) => (&d[..i], &d[i + 1..]),
        None => return false,
    };
    let alg_ok = alg
        .split(['.', '+', '_', '-'])
        .all(|comp| !comp.is_empty() && comp.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()));
    alg_ok && !enc.is_empty() && enc.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'=' | b'_' | b'-'))
}

/// go-digest v1.0.0 `Digest.Validate` with sha256, sha384 and sha512 available.
fn validate_digest(d: &str) -> Result<(), ImageRefError> {
    let i = match d.find(':') {
        Some(i) if i > 0 && i + 1 != d.len() => i,
        _ => return Err(ImageRefError::DigestInvalidFormat),
    };
    let (alg, encoded) = (&d[..i], &d[i + 1..]);
    let size = match alg {
        "sha256" => 32,
        "sha384" => 48,
        "sha512" => 64,
        _ => {
            if !match_go_digest_regexp(d) {
                return Err(ImageRefError::DigestInvalidFormat);
            }
            return Err(ImageRefError::DigestUnsupported);
        }
    };
    if encoded.len() != size * 2 {
        return Err(ImageRefError::DigestInvalidLength);
    }
    if encoded.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        Ok(())
    } else {
        Err(ImageRefError::DigestInvalidFormat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEX64: &str = "abcd1234abcd1234abcd1234abcd1234abcd1234abcd1234abcd1234abcd1234";

    fn hex(n: usize) -> String {
        "0123456789abcdef".chars().cycle().take(n).collect()
    }

    fn err(s: &str) -> String {
        match validate_image_ref(s) {
            Ok(()) => panic!("expected {:?} to be rejected", s),
            Err(e) => e.to_string(),
        }
    }

    fn ok(s: &str) {
        if let Err(e) = validate_image_ref(s) {
            panic!("expected {:?} to be accepted, got: {}", s, e);
        }
        assert!(validate_image_ref(s).is_ok());
    }

    #[test]
    fn accepts_brief_examples() {
        ok("foo-bundle:v0.1.0");
        ok(&format!("quay.io/x/y@sha256:{}", HEX64));
        ok(&format!("quay.io/x/y:v1@sha256:{}", HEX64));
        ok("localhost:5000/a/b:tag");
        ok("busybox");
        ok("docker.io/library/busybox:latest");
        ok(&format!("quay.io/x/y@sha384:{}", "a".repeat(96)));
        ok(&format!("quay.io/x/y:v1@sha512:{}", "b".repeat(128)));
        ok(&format!("quay.io/operator-framework/foo-bundle@sha256:{}", HEX64));
    }

    #[test]
    fn conformance_texts() {
        assert_eq!(err("quay.io/x/y:"), "invalid reference format");
        assert_eq!(err("quay.io/Foo/bar:v1"), "invalid reference format: repository name must be lowercase");
        assert_eq!(
            err(&format!("quay.io/operator-framework/my-operator@ssha256:{}", HEX64)),
            "unsupported digest algorithm"
        );
        assert_eq!(err(&format!("quay.io/x/y@sha256:{}", "A".repeat(64))), "invalid checksum digest format");
        let a64 = "a".repeat(64);
        assert_eq!(err(&a64), format!("invalid repository name ({}), cannot specify 64-byte hexadecimal strings", a64));
    }

    #[test]
    fn digest_errors() {
        assert_eq!(err(&format!("quay.io/x/y@md5:{}", hex(32))), "unsupported digest algorithm");
        assert_eq!(err(&format!("quay.io/x/y@sha256:{}", hex(63))), "invalid checksum digest length");
        assert_eq!(err(&format!("quay.io/x/y@sha256:{}", hex(65))), "invalid checksum digest length");
        assert_eq!(err(&format!("quay.io/x/y@sha384:{}", hex(64))), "invalid checksum digest length");
        assert_eq!(err(&format!("quay.io/x/y@sha512:{}", hex(96))), "invalid checksum digest length");
        // Length is checked before case.
        assert_eq!(err(&format!("quay.io/x/y@sha256:{}", "A".repeat(63))), "invalid checksum digest length");
        // Mixed-case hex of the right length.
        assert_eq!(err(&format!("quay.io/x/y@sha256:{}F", hex(63))), "invalid checksum digest format");
        // Fewer than 32 hex digits fails the reference grammar itself.
        assert_eq!(err(&format!("quay.io/x/y@sha256:{}", hex(31))), "invalid reference format");
        // Multi-component unknown algorithms are merely unsupported.
        assert_eq!(err(&format!("quay.io/x/y@sha256+b64u.x-y_z:{}", hex(64))), "unsupported digest algorithm");
        assert_eq!(err(&format!("quay.io/x/y@a1:{}", hex(40))), "unsupported digest algorithm");
        // An uppercase algorithm after a tag fails go-digest's own regexp.
        assert_eq!(err(&format!("quay.io/x/y:v1@SHA256:{}", hex(64))), "invalid checksum digest format");
        assert_eq!(err(&format!("quay.io/x/y:v1@Md5:{}", hex(32))), "invalid checksum digest format");
        // Without a tag, the uppercase algorithm is inside the remote name.
        assert_eq!(
            err(&format!("quay.io/x/y@SHA256:{}", hex(64))),
            "invalid reference format: repository name must be lowercase"
        );
        // Algorithm components must start with a letter.
        assert_eq!(err(&format!("quay.io/x/y@1sha:{}", hex(64))), "invalid reference format");
        assert_eq!(err(&format!("quay.io/x/y@sha256::{}", hex(64))), "invalid reference format");
        assert_eq!(err("quay.io/x/y@"), "invalid reference format");
        assert_eq!(err(&format!("quay.io/x/y@sha256:{}@sha256:{}", HEX64, HEX64)), "invalid reference format");
        // Digest without any name.
        assert_eq!(err(&format!("@sha256:{}", HEX64)), "invalid reference format");
    }

    #[test]
    fn identifier_check() {
        // Only exactly 64 lowercase hex digits.
        let a64 = "a".repeat(64);
        assert!(matches!(
            validate_image_ref(&a64),
            Err(ImageRefError::HexIdentifier(ref s)) if *s == a64
        ));
        ok(&"a".repeat(63));
        ok(&"a".repeat(65));
        assert_eq!(err(&"A".repeat(64)), "invalid reference format: repository name must be lowercase");
        ok(&format!("docker.io/{}", HEX64));
        ok(&format!("{}:tag", HEX64));
        ok("thisisthesongthatneverendsitgoesonandonandonthisisthesongthatnev");
    }

    #[test]
    fn upstream_valid_names() {
        for s in [
            "docker/docker",
            "library/debian",
            "debian",
            "localhost/library/debian",
            "localhost/debian",
            "LOCALDOMAIN.example/debian",
            "docker.io/docker/docker",
            "docker.io/library/debian",
            "docker.io/debian",
            "index.docker.io/docker/docker",
            "index.docker.io/library/debian",
            "index.docker.io/debian",
            "127.0.0.1:5000/docker/docker",
            "127.0.0.1:5000/library/debian",
            "127.0.0.1:5000/debian",
            "192.168.0.1",
            "192.168.0.1:80",
            "192.168.0.1:8/debian",
            "192.168.0.2:25000/debian",
            "docker-rules/docker",
            "docker---rules/docker",
            "doc/docker",
            "d/docker",
            "jess/t",
            "dock__er/docker",
            "test_com",
            "test.com:tag",
            "test.com:5000",
            "test.com/repo:tag",
            "test:5000/repo",
            "test:5000/repo:tag",
            "sub-dom1.foo.com/bar/baz/quux",
            "sub-dom1.foo.com/bar/baz/quux:some-long-tag",
            "b.gcr.io/test.example.com/my-app:test.example.com",
            "xn--n3h.com/myimage:xn--n3h.com",
            "foo_bar.com:8080",
            "foo/foo_bar.com:8080",
            "lowercase:Uppercase",
            "Quay.IO/x/y",
            "a.b-c.d:1/x",
            "redis:latest",
            "dmcgowan/myapp@sha256:dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9c",
            "busybox:latest@sha256:86e0e091d0da6bde2456dbb48306f3956bbeb2eae1b5b9a43045843f69fe4aaa",
            "x:_tag",
            "x:0",
            "a/b.c/d_e/f__g/h-i/j---k",
            // Not a valid domain, but a valid path component: accepted.
            "quay_io.com/x",
        ] {
            ok(s);
        }
        ok(&format!("test:5000/repo@sha256:{}", "f".repeat(64)));
        ok(&format!("test:5000/repo:tag@sha256:{}", "f".repeat(64)));
        ok(&format!("xn--7o8h.com/myimage:xn--7o8h.com@sha512:{}", "f".repeat(128)));
    }

    #[test]
    fn upstream_invalid_names() {
        for (s, want) in [
            ("https://github.com/docker/docker", "invalid reference format"),
            ("-docker", "invalid reference format"),
            ("-docker/docker", "invalid reference format"),
            ("-docker.io/docker/docker", "invalid reference format"),
            ("docker///docker", "invalid reference format"),
            ("docker.io/docker///docker", "invalid reference format"),
            ("docker-/docker", "invalid reference format"),
            ("-docker-/docker", "invalid reference format"),
            ("____/____", "invalid reference format"),
            ("_docker/_docker", "invalid reference format"),
            ("dock..er/docker", "invalid reference format"),
            ("dock_.er/docker", "invalid reference format"),
            ("dock-.er/docker", "invalid reference format"),
            ("dock___er/docker", "invalid reference format"),
            ("docker/", "invalid reference format"),
            ("[fc00::1]", "invalid reference format"),
            ("[fc00::1]:5000", "invalid reference format"),
            ("[fc00::1]:5000/docker", "invalid reference format"),
            ("fc00::1:5000/debian", "invalid reference format"),
            ("[fe80::1%eth0]:5000/debian", "invalid reference format"),
            ("aa/asdf$$^/aa", "invalid reference format"),
            (":justtag", "invalid reference format"),
            ("", "invalid reference format"),
            ("/foo", "invalid reference format"),
            ("foo/", "invalid reference format"),
            ("quay.io/", "invalid reference format"),
            ("quay.io//x", "invalid reference format"),
            ("quay.io:/x", "invalid reference format"),
            ("quay.io:80:80/x", "invalid reference format"),
            ("quay..io/x", "invalid reference format"),
            ("-quay.io/x", "invalid reference format"),
            ("quay-.io/x", "invalid reference format"),
            ("quay.io/x:-tag", "invalid reference format"),
            ("quay.io/x:.tag", "invalid reference format"),
            ("quay.io/x:t/g", "invalid reference format"),
            ("quay.io/x:a:b", "invalid reference format"),
            ("x:tag/y", "invalid reference format"),
            ("quay.io/x y", "invalid reference format"),
            ("quay.io/x\n", "invalid reference format"),
            (" quay.io/x", "invalid reference format"),
            ("quay.io/é", "invalid reference format"),
            ("quay.io/x:tägg", "invalid reference format"),
            ("docker/Docker", "invalid reference format: repository name must be lowercase"),
            ("Docker/docker", "invalid reference format: repository name must be lowercase"),
            ("LOCALDOMAIN/debian", "invalid reference format: repository name must be lowercase"),
            ("docker.io/docker/Docker", "invalid reference format: repository name must be lowercase"),
            ("Uppercase:tag", "invalid reference format: repository name must be lowercase"),
            ("test:5000/Uppercase/lowercase:tag", "invalid reference format: repository name must be lowercase"),
            ("quay.io/É", "invalid reference format: repository name must be lowercase"),
        ] {
            assert_eq!(err(s), want, "input {:?}", s);
        }
    }

    #[test]
    fn name_contains_uppercase_without_prefix() {
        // Characters outside the remote name whose Go lowercase form is ASCII.
        assert_eq!(err("quay.io/x/y:\u{212A}"), "repository name must be lowercase");
        assert_eq!(err("\u{212A}.io/x/y"), "repository name must be lowercase");
        assert_eq!(err("quay.io/x/y:\u{0130}"), "repository name must be lowercase");
        assert_eq!(err(&format!("quay.io/x/y:t@s\u{212A}a256:{}", HEX64)), "repository name must be lowercase");
        // In the remote name they trip the earlier check.
        assert_eq!(err("quay.io/x/\u{212A}"), "invalid reference format: repository name must be lowercase");
        assert_eq!(err("quay.io/x/\u{0130}"), "invalid reference format: repository name must be lowercase");
    }

    #[test]
    fn name_length() {
        // 255-byte normalized name is fine, 256 is not.
        let domain = "a.io/";
        let path255 = "b".repeat(255 - domain.len());
        ok(&format!("{}{}", domain, path255));
        ok(&format!("{}{}:{}", domain, path255, "t".repeat(128)));
        let path256 = "b".repeat(256 - domain.len());
        assert_eq!(err(&format!("{}{}", domain, path256)), "repository name must not be more than 255 characters");
        // The tag does not count, but is limited to 128 characters.
        assert_eq!(err(&format!("{}x:{}", domain, "t".repeat(129))), "invalid reference format");
        // The length is measured after normalization (docker.io/library/).
        let bare = "c".repeat(255 - "docker.io/library/".len());
        ok(&bare);
        assert_eq!(err(&format!("{}c", bare)), "repository name must not be more than 255 characters");
        // Upstream test: 127 "a/" + "a" is 255, but "docker.io/" is added.
        assert_eq!(
            err(&format!("{}a:tag-puts-this-over-max", "a/".repeat(127))),
            "repository name must not be more than 255 characters"
        );
        // Name length is checked before the digest.
        assert_eq!(
            err(&format!("{}{}@md5:{}", domain, path256, hex(32))),
            "repository name must not be more than 255 characters"
        );
        // Grammar errors win over length.
        assert_eq!(err(&format!("{}{}:", domain, path256)), "invalid reference format");
    }

    #[test]
    fn check_order() {
        // The identifier check comes first, even though it is also lowercase.
        assert!(matches!(validate_image_ref(HEX64), Err(ImageRefError::HexIdentifier(_))));
        // The remote-name lowercase check comes before the grammar.
        assert_eq!(err("quay.io/Foo/bar:"), "invalid reference format: repository name must be lowercase");
        assert_eq!(
            err(&format!("quay.io/Foo/bar@md5:{}", hex(32))),
            "invalid reference format: repository name must be lowercase"
        );
    }

    #[test]
    fn split_docker_domain_cases() {
        assert_eq!(split_docker_domain("foo"), ("docker.io", "library/foo".to_string()));
        assert_eq!(split_docker_domain("foo:1"), ("docker.io", "library/foo:1".to_string()));
        assert_eq!(split_docker_domain("test_com/foo"), ("docker.io", "test_com/foo".to_string()));
        assert_eq!(split_docker_domain("test.com/foo"), ("test.com", "foo".to_string()));
        assert_eq!(split_docker_domain("test-com:8080/foo"), ("test-com:8080", "foo".to_string()));
        assert_eq!(split_docker_domain("localhost/foo"), ("localhost", "foo".to_string()));
        assert_eq!(split_docker_domain("docker.io/foo"), ("docker.io", "library/foo".to_string()));
        assert_eq!(split_docker_domain("index.docker.io/foo"), ("docker.io", "library/foo".to_string()));
        assert_eq!(split_docker_domain("index.docker.io/a/b"), ("docker.io", "a/b".to_string()));
        assert_eq!(split_docker_domain("Foo/bar"), ("docker.io", "Foo/bar".to_string()));
    }

    #[test]
    fn path_component_grammar() {
        for c in ["a", "0", "a.b", "a_b", "a__b", "a-b", "a---b", "a.b_c__d-e--f", "192.168.1.1"] {
            assert!(match_path_component(c), "{:?}", c);
        }
        for c in ["", "A", ".a", "a.", "-a", "a-", "_a", "a_", "a..b", "a___b", "a._b", "a-.b", "a_-b", "a b", "é"] {
            assert!(!match_path_component(c), "{:?}", c);
        }
    }

    #[test]
    fn domain_grammar() {
        for d in ["a", "A", "a.b", "a-b.c", "a--b", "1.2.3.4:5000", "localhost:1", "X.Y:0"] {
            assert!(match_domain(d), "{:?}", d);
        }
        for d in ["", ".", "a.", ".a", "a..b", "-a", "a-", "a:", "a:b", "a:1:2", "a_b", "[::1]", "a:1a"] {
            assert!(!match_domain(d), "{:?}", d);
        }
    }

    #[test]
    fn tag_grammar() {
        assert!(match_tag("a"));
        assert!(match_tag("_"));
        assert!(match_tag("V1.0-rc_1"));
        assert!(match_tag(&"a".repeat(128)));
        assert!(!match_tag(&"a".repeat(129)));
        assert!(!match_tag(""));
        assert!(!match_tag("-a"));
        assert!(!match_tag(".a"));
        assert!(!match_tag("a+b"));
        assert!(!match_tag("ä"));
    }

    #[test]
    fn reference_decomposition() {
        let d = format!("sha256:{}", HEX64);
        let s = format!("h:1/a/b:t@{}", d);
        assert_eq!(
            match_reference(&s),
            Some(ReferenceParts { name: "h:1/a/b", tag: Some("t"), digest: Some(d.as_str()) })
        );
        assert_eq!(match_reference("h:1/a"), Some(ReferenceParts { name: "h:1/a", tag: None, digest: None }));
        assert_eq!(
            match_reference("docker.io/library/a:5000"),
            Some(ReferenceParts { name: "docker.io/library/a", tag: Some("5000"), digest: None })
        );
    }

    #[test]
    fn go_digest_regexp() {
        assert!(match_go_digest_regexp("md5:abc"));
        assert!(match_go_digest_regexp("a1.b2+c_d-e:A=_-z"));
        assert!(!match_go_digest_regexp("MD5:abc"));
        assert!(!match_go_digest_regexp("md5:"));
        assert!(!match_go_digest_regexp(":abc"));
        assert!(!match_go_digest_regexp("a..b:abc"));
        assert!(!match_go_digest_regexp("md5:a:b"));
    }

    #[test]
    fn validate_digest_direct() {
        assert_eq!(validate_digest(&format!("sha256:{}", HEX64)), Ok(()));
        assert_eq!(validate_digest("sha256"), Err(ImageRefError::DigestInvalidFormat));
        assert_eq!(validate_digest(":abc"), Err(ImageRefError::DigestInvalidFormat));
        assert_eq!(validate_digest("sha256:"), Err(ImageRefError::DigestInvalidFormat));
        assert_eq!(validate_digest("foo:bar"), Err(ImageRefError::DigestUnsupported));
    }

    #[test]
    fn no_panics_on_odd_input() {
        let samples = [
            "",
            "/",
            "//",
            ":",
            "@",
            ":@",
            "@:",
            "a@",
            "@a",
            "a:",
            "a/:",
            "a/@",
            "é",
            "é/é",
            "é:é",
            "é@é",
            "\u{0}",
            "a\u{0}b",
            "日本/語:タグ@sha256:x",
            "a/b:c@d:e",
            "::::",
            "////",
            "@@@@",
            "a:b:c/d",
            "x/y@sha256:é",
            "\u{212A}",
            "\u{0130}",
            "a.io/\u{1F600}:t",
            "localhost",
            "localhost/",
            "index.docker.io",
            "index.docker.io/",
            "docker.io/",
            "docker.io",
        ];
        for s in samples {
            let _ = validate_image_ref(s);
            let _ = validate_image_ref(s).is_ok();
        }
        // Every prefix of a multibyte-heavy string, at char boundaries.
        let long = "ä.io:1/ö/ü:ß@sha256:日本";
        for (i, _) in long.char_indices() {
            let _ = validate_image_ref(&long[..i]);
            let _ = validate_image_ref(&long[i..]);
        }
    }

    #[test]
    fn the_one_pass_check_accepts_only_what_the_steps_accept() {
        let digest = format!("@sha256:{HEX64}");
        let common = [
            "quay.io/x/y:v1".to_string(),
            format!("registry.redhat.io/openshift4/ose-kube-rbac-proxy{digest}"),
            format!("quay.io/a_b/c__d/e---f.g:1.2.3-rc.1{digest}"),
            "localhost/a".into(),
            "localhost:5000/a/b:tag".into(),
            "Quay.IO:443/x".into(),
            "docker.io/istio/proxyv2:1.23.0".into(),
            format!("index.docker.io/library/redis{digest}"),
            format!("quay.io/x/y@sha384:{}", "a".repeat(96)),
        ];
        for s in &common {
            assert!(plainly_valid(s.as_bytes()), "{s} is the common shape");
        }
        let mut odd: Vec<String> = [
            "busybox",
            "docker.io/x",
            "index.docker.io/x",
            "docker.io/library/busybox:latest",
            "quay.io/x/",
            "quay.io//x",
            "quay.io/x_",
            "quay.io/x___y",
            "quay.io/x..y",
            "quay.io/X/y",
            "quay.io/x:",
            "quay.io/x:.a",
            "quay.io/x:-a",
            "quay.io/x:a:b",
            "quay.io/x@",
            "quay.io/x@sha256:abc",
            "quay.io/x@md5:0123",
            "quay.io:/x",
            "quay.io:a/x",
            "-quay.io/x",
            "quay-.io/x",
            "quay..io/x",
            "localhost2/x",
            "ä.io/x",
            "quay.io/ä",
            "quay.io/x:ä",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        odd.push(format!("quay.io/x@sha256:{}", "A".repeat(64)));
        odd.push(format!("quay.io/x@sha256:{}", hex(63)));
        odd.push(format!("quay.io/x:{}", "t".repeat(129)));
        odd.push(format!("quay.io/{}", "x".repeat(250)));
        odd.push(format!("quay.io/x{digest}x"));
        for s in common.iter().chain(&odd) {
            if olm_catalog_base::FAST_PATHS && plainly_valid(s.as_bytes()) {
                assert_eq!(check_steps(s), Ok(()), "{s}: the one pass accepted what the steps refuse");
            }
        }
        assert!(odd.iter().any(|s| check_steps(s).is_ok()) && odd.iter().any(|s| check_steps(s).is_err()));
    }

    #[test]
    fn display_texts() {
        assert_eq!(ImageRefError::InvalidReferenceFormat.to_string(), "invalid reference format");
        assert_eq!(
            ImageRefError::RemoteNameNotLowercase.to_string(),
            "invalid reference format: repository name must be lowercase"
        );
        assert_eq!(ImageRefError::NameContainsUppercase.to_string(), "repository name must be lowercase");
        assert_eq!(ImageRefError::NameTooLong.to_string(), "repository name must not be more than 255 characters");
        assert_eq!(
            ImageRefError::HexIdentifier("x".into()).to_string(),
            "invalid repository name (x), cannot specify 64-byte hexadecimal strings"
        );
        assert_eq!(ImageRefError::DigestUnsupported.to_string(), "unsupported digest algorithm");
        assert_eq!(ImageRefError::DigestInvalidLength.to_string(), "invalid checksum digest length");
        assert_eq!(ImageRefError::DigestInvalidFormat.to_string(), "invalid checksum digest format");
    }
}
