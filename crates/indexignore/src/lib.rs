//! `.indexignore` handling for catalog directory walks (spec §2.1–§2.2): `declcfg::indexignore`
//! of `olm-catalog-format`, a crate of its own so that the WebAssembly profile compiles it for
//! size (Cargo.toml, `[profile.wasm.package.olm-catalog-indexignore]`): it runs once per load,
//! and only on catalogs that have such a file.
//!
//! This crate owns three things, all on in-memory paths (no filesystem
//! access, so it runs unchanged in WebAssembly):
//!
//! * parsing every `.indexignore` file of a tree into gitignore patterns the
//!   way `github.com/joelanford/ignore` v0.1.2 does (one pattern per non-blank,
//!   non-`#` line after Unicode whitespace trimming; the pattern's *domain* is
//!   the directory holding the file; an implicit lowest-priority `.indexignore`
//!   pattern at the root domain);
//! * matching a relative path against those patterns with the semantics of
//!   go-git v5 `plumbing/format/gitignore` (last pattern wins, `!` negation,
//!   trailing-`/` directory-only patterns, `/`-containing patterns anchored at
//!   the domain and matched component by component, `**`, and Go
//!   `path/filepath.Match` for each component; the matcher is always asked
//!   with `isDir == false`, exactly as opm does);
//! * ordering relative paths the way Go's `fs.WalkDir` visits them.
//!
//! Go's `filepath.Match` is reimplemented byte-for-byte (Unix flavour): `*`,
//! `?`, `[...]` classes with ranges and `^` negation (a leading `!` is *not* a
//! negation in Go, it is a literal member), `\` escapes, and `ErrBadPattern`
//! for malformed patterns, which the gitignore layer turns into "no match".

#![warn(missing_docs)]

use std::cmp::Ordering;

use olm_catalog_base::sort;

/// Name of the per-directory ignore file.
const INDEX_IGNORE_FILENAME: &str = ".indexignore";

/// Outcome of checking one pattern against a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MatchResult {
    NoMatch,
    Exclude,
    Include,
}

/// One parsed gitignore pattern (go-git `pattern`).
#[derive(Debug, Clone)]
struct Pattern {
    /// Path components of the directory whose `.indexignore` declared it.
    domain: Vec<String>,
    /// The pattern split on `/` (after removing `!` and a trailing `/`).
    segments: Vec<String>,
    /// Leading `!`: a match re-includes the path.
    inclusion: bool,
    /// Trailing `/`: may only match a directory, i.e. never the last component
    /// (paths are always checked as files).
    dir_only: bool,
    /// The pattern contains `/`: anchored at the domain, matched per segment.
    is_glob: bool,
}

impl Pattern {
    /// go-git `ParsePattern`.
    fn parse(line: &str, domain: &[String]) -> Pattern {
        let mut p = line;
        let mut inclusion = false;
        if let Some(rest) = p.strip_prefix('!') {
            inclusion = true;
            p = rest;
        }
        if !p.ends_with("\\ ") {
            p = p.trim_end_matches(' ');
        }
        let mut dir_only = false;
        if let Some(rest) = p.strip_suffix('/') {
            dir_only = true;
            p = rest;
        }
        let is_glob = p.contains('/');
        Pattern {
            domain: domain.to_vec(),
            segments: p.split('/').map(str::to_owned).collect(),
            inclusion,
            dir_only,
            is_glob,
        }
    }

    /// go-git `pattern.Match` with `isDir == false`.
    fn matches(&self, path: &[&str]) -> MatchResult {
        if path.len() <= self.domain.len() {
            return MatchResult::NoMatch;
        }
        if self.domain.iter().zip(path.iter()).any(|(d, c)| d.as_str() != *c) {
            return MatchResult::NoMatch;
        }
        let rest = &path[self.domain.len()..];
        let hit = if self.is_glob { self.glob_match(rest) } else { self.simple_name_match(rest) };
        if !hit {
            MatchResult::NoMatch
        } else if self.inclusion {
            MatchResult::Include
        } else {
            MatchResult::Exclude
        }
    }

    /// A pattern without `/`: any component may match; a directory-only
    /// pattern may not match the last component.
    fn simple_name_match(&self, path: &[&str]) -> bool {
        let pat = self.segments.first().map(String::as_str).unwrap_or("");
        for (i, name) in path.iter().enumerate() {
            match go_match(pat, name) {
                Err(BadPattern) => return false,
                Ok(false) => continue,
                Ok(true) => {
                    // isDir is always false.
                    if self.dir_only && i == path.len() - 1 {
                        return false;
                    }
                    return true;
                }
            }
        }
        false
    }

    /// A pattern with `/`: segments are matched against leading components.
    fn glob_match(&self, mut path: &[&str]) -> bool {
        let mut matched = false;
        let mut can_traverse = false;
        let last = self.segments.len() - 1;
        for (i, seg) in self.segments.iter().enumerate() {
            if seg.is_empty() {
                can_traverse = false;
                continue;
            }
            if seg == "**" {
                if i == last {
                    break;
                }
                can_traverse = true;
                continue;
            }
            if seg.contains("**") {
                return false;
            }
            if path.is_empty() {
                return false;
            }
            if can_traverse {
                can_traverse = false;
                while let Some((first, rest)) = path.split_first() {
                    path = rest;
                    match go_match(seg, first) {
                        Err(BadPattern) => return false,
                        Ok(true) => {
                            matched = true;
                            break;
                        }
                        Ok(false) => {
                            if path.is_empty() {
                                // Nothing left: fail.
                                matched = false;
                            }
                        }
                    }
                }
            } else {
                match go_match(seg, path[0]) {
                    Ok(true) => {}
                    _ => return false,
                }
                matched = true;
                path = &path[1..];
            }
        }
        // isDir is always false: a directory-only pattern that consumed the
        // whole path matched the file itself.
        if matched && self.dir_only && path.is_empty() {
            matched = false;
        }
        matched
    }
}

/// All `.indexignore` files of a tree, parsed.
#[derive(Debug, Clone)]
pub struct IndexIgnore {
    /// In increasing priority; matching runs from the last to the first.
    patterns: Vec<Pattern>,
}

impl Default for IndexIgnore {
    fn default() -> Self {
        IndexIgnore::new(std::iter::empty())
    }
}

impl IndexIgnore {
    /// `files`: every (relative path with '/' separators, content) pair of the
    /// tree's `.indexignore` files, in walk order (lexical, depth-first). A
    /// path like "foo/.indexignore" has domain ["foo"]; ".indexignore" has the
    /// root domain. The files are re-sorted into walk order here, so any input
    /// order gives the same result.
    pub fn new<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> IndexIgnore {
        let mut files: Vec<(&'a str, &'a str)> = files.into_iter().collect();
        sort::sort_by(&mut files, |a, b| walk_cmp(a.0, b.0));

        // joelanford/ignore seeds the matcher with the ignore file name itself,
        // at the root domain and with the lowest priority.
        let mut patterns = vec![Pattern::parse(INDEX_IGNORE_FILENAME, &[])];
        for (path, content) in files {
            let domain = domain_of(path);
            for line in content.split('\n') {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                patterns.push(Pattern::parse(line, &domain));
            }
        }
        IndexIgnore { patterns }
    }

    /// Whether the file at this relative path ('/'-separated) is ignored.
    /// Files named `.indexignore` are always ignored.
    pub fn is_ignored(&self, path: &str) -> bool {
        let components: Vec<&str> = path.split('/').collect();
        if components.last() == Some(&INDEX_IGNORE_FILENAME) {
            return true;
        }
        for p in self.patterns.iter().rev() {
            match p.matches(&components) {
                MatchResult::NoMatch => continue,
                MatchResult::Exclude => return true,
                MatchResult::Include => return false,
            }
        }
        false
    }
}

/// The domain of an ignore file: the components of its directory
/// (`filepath.Dir`, with "." meaning the root).
fn domain_of(path: &str) -> Vec<String> {
    match path.rfind('/') {
        None => Vec::new(),
        Some(idx) => {
            let dir = &path[..idx];
            if dir.is_empty() || dir == "." {
                Vec::new()
            } else {
                dir.split('/').map(str::to_owned).collect()
            }
        }
    }
}

/// Compare two relative paths in `fs.WalkDir` order: component by component,
/// each component compared bytewise (Go string order), a directory before
/// its contents.
fn walk_cmp(a: &str, b: &str) -> Ordering {
    a.split('/').cmp(b.split('/'))
}

/// Sort relative file paths in the order Go's fs.WalkDir visits them (lexical
/// order per directory, depth-first: "a/b" comes before "a.json" because the
/// directory entry "a" sorts before "a.json").
#[allow(clippy::ptr_arg)] // the crate-wide API takes `&mut Vec<String>`
pub fn sort_walk_order(paths: &mut Vec<String>) {
    sort::sort_by(paths, |a, b| walk_cmp(a, b));
}

// ---------------------------------------------------------------------------
// Go `path/filepath.Match` (Unix: separator '/', backslash escapes).
// ---------------------------------------------------------------------------

/// Go's `filepath.ErrBadPattern`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BadPattern;

const SEPARATOR: u8 = b'/';
const RUNE_ERROR: u32 = 0xFFFD;

/// `filepath.Match(pattern, name)`.
fn go_match(pattern: &str, name: &str) -> Result<bool, BadPattern> {
    let mut pattern = pattern.as_bytes();
    let mut name = name.as_bytes();
    'pattern: while !pattern.is_empty() {
        let (star, chunk, rest) = scan_chunk(pattern);
        pattern = rest;
        if star && chunk.is_empty() {
            // Trailing * matches rest of string unless it has a separator.
            return Ok(!name.contains(&SEPARATOR));
        }
        // Look for a match at the current position.
        let first = match_chunk(chunk, name);
        if let Ok(Some(t)) = first {
            // The last chunk must exhaust the name.
            if t.is_empty() || !pattern.is_empty() {
                name = t;
                continue;
            }
        }
        first?;
        if star {
            // Look for a match skipping i+1 bytes; cannot skip the separator.
            let mut i = 0;
            while i < name.len() && name[i] != SEPARATOR {
                if let Some(t) = match_chunk(chunk, &name[i + 1..])? {
                    // The last chunk must exhaust the name.
                    if pattern.is_empty() && !t.is_empty() {
                        i += 1;
                        continue;
                    }
                    name = t;
                    continue 'pattern;
                }
                i += 1;
            }
        }
        // Before returning false with no error, check that the remainder of
        // the pattern is syntactically valid.
        while !pattern.is_empty() {
            let (_, chunk, rest) = scan_chunk(pattern);
            pattern = rest;
            match_chunk(chunk, b"")?;
        }
        return Ok(false);
    }
    Ok(name.is_empty())
}

/// Splits off the leading stars and the next star-free chunk.
fn scan_chunk(mut pattern: &[u8]) -> (bool, &[u8], &[u8]) {
    let mut star = false;
    while let Some((&b'*', rest)) = pattern.split_first() {
        pattern = rest;
        star = true;
    }
    let mut in_range = false;
    let mut i = 0;
    while i < pattern.len() {
        match pattern[i] {
            // Skip the escaped byte; a trailing `\` is reported by match_chunk.
            b'\\' if i + 1 < pattern.len() => i += 1,
            b'[' => in_range = true,
            b']' => in_range = false,
            b'*' if !in_range => break,
            _ => {}
        }
        i += 1;
    }
    (star, &pattern[..i], &pattern[i..])
}

/// Matches `chunk` at the start of `s`: `Ok(Some(rest))` on a match,
/// `Ok(None)` on no match, `Err` when the chunk is malformed (checked even
/// after the match has failed).
fn match_chunk<'s>(mut chunk: &[u8], mut s: &'s [u8]) -> Result<Option<&'s [u8]>, BadPattern> {
    let mut failed = false;
    while !chunk.is_empty() {
        if !failed && s.is_empty() {
            failed = true;
        }
        match chunk[0] {
            b'[' => {
                let mut r: u32 = 0;
                if !failed {
                    let (rr, n) = decode_rune(s);
                    r = rr;
                    s = &s[n..];
                }
                let (matched, rest) = match_class(&chunk[1..], r)?;
                chunk = rest;
                if !matched {
                    failed = true;
                }
            }
            b'?' => {
                if !failed {
                    if s[0] == SEPARATOR {
                        failed = true;
                    }
                    let (_, n) = decode_rune(s);
                    s = &s[n..];
                }
                chunk = &chunk[1..];
            }
            c => {
                let c = if c == b'\\' {
                    chunk = &chunk[1..];
                    match chunk.first() {
                        Some(&e) => e,
                        None => return Err(BadPattern),
                    }
                } else {
                    c
                };
                if !failed {
                    if c != s[0] {
                        failed = true;
                    }
                    s = &s[1..];
                }
                chunk = &chunk[1..];
            }
        }
    }
    if failed {
        Ok(None)
    } else {
        Ok(Some(s))
    }
}

/// Matches rune `r` against the class after a `[`: whether it is in it, and the chunk after `]`.
fn match_class(mut chunk: &[u8], r: u32) -> Result<(bool, &[u8]), BadPattern> {
    let mut negated = false;
    if chunk.first() == Some(&b'^') {
        negated = true;
        chunk = &chunk[1..];
    }
    let mut matched = false;
    let mut nrange = 0usize;
    loop {
        if chunk.first() == Some(&b']') && nrange > 0 {
            chunk = &chunk[1..];
            break;
        }
        let (lo, rest) = get_esc(chunk)?;
        chunk = rest;
        let mut hi = lo;
        // get_esc guarantees a non-empty remainder.
        if chunk[0] == b'-' {
            let (h, rest) = get_esc(&chunk[1..])?;
            hi = h;
            chunk = rest;
        }
        if lo <= r && r <= hi {
            matched = true;
        }
        nrange += 1;
    }
    Ok((matched != negated, chunk))
}

/// One (possibly escaped) character of a class; the remainder must not be empty.
fn get_esc(mut chunk: &[u8]) -> Result<(u32, &[u8]), BadPattern> {
    match chunk.first() {
        None | Some(b'-') | Some(b']') => return Err(BadPattern),
        Some(b'\\') => {
            chunk = &chunk[1..];
            if chunk.is_empty() {
                return Err(BadPattern);
            }
        }
        Some(_) => {}
    }
    let (r, n) = decode_rune(chunk);
    if r == RUNE_ERROR && n == 1 {
        return Err(BadPattern);
    }
    let rest = &chunk[n..];
    if rest.is_empty() {
        return Err(BadPattern);
    }
    Ok((r, rest))
}

/// Go `utf8.DecodeRuneInString` on bytes: `(U+FFFD, 1)` for an invalid
/// sequence, `(U+FFFD, 0)` for empty input.
fn decode_rune(s: &[u8]) -> (u32, usize) {
    let Some(&b0) = s.first() else {
        return (RUNE_ERROR, 0);
    };
    let width = match b0 {
        0x00..=0x7F => return (u32::from(b0), 1),
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return (RUNE_ERROR, 1),
    };
    if s.len() < width {
        return (RUNE_ERROR, 1);
    }
    match std::str::from_utf8(&s[..width]) {
        Ok(text) => match text.chars().next() {
            Some(c) => (u32::from(c), width),
            None => (RUNE_ERROR, 1),
        },
        Err(_) => (RUNE_ERROR, 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(files: &[(&str, &str)]) -> IndexIgnore {
        IndexIgnore::new(files.iter().copied())
    }

    // -- Go filepath.Match (table from Go's path/filepath match_test.go) ----

    #[test]
    fn go_match_table() {
        // (pattern, name, Ok(matched) | Err)
        let cases: &[(&str, &str, Result<bool, BadPattern>)] = &[
            ("abc", "abc", Ok(true)),
            ("*", "abc", Ok(true)),
            ("*c", "abc", Ok(true)),
            ("a*", "a", Ok(true)),
            ("a*", "abc", Ok(true)),
            ("a*", "ab/c", Ok(false)),
            ("a*/b", "abc/b", Ok(true)),
            ("a*/b", "a/c/b", Ok(false)),
            ("a*b*c*d*e*/f", "axbxcxdxe/f", Ok(true)),
            ("a*b*c*d*e*/f", "axbxcxdxexxx/f", Ok(true)),
            ("a*b*c*d*e*/f", "axbxcxdxe/xxx/f", Ok(false)),
            ("a*b*c*d*e*/f", "axbxcxdxexxx/fff", Ok(false)),
            ("a*b?c*x", "abxbbxdbxebxczzx", Ok(true)),
            ("a*b?c*x", "abxbbxdbxebxczzy", Ok(false)),
            ("ab[c]", "abc", Ok(true)),
            ("ab[b-d]", "abc", Ok(true)),
            ("ab[e-g]", "abc", Ok(false)),
            ("ab[^c]", "abc", Ok(false)),
            ("ab[^b-d]", "abc", Ok(false)),
            ("ab[^e-g]", "abc", Ok(true)),
            ("a\\*b", "a*b", Ok(true)),
            ("a\\*b", "ab", Ok(false)),
            ("a?b", "a☺b", Ok(true)),
            ("a[^a]b", "a☺b", Ok(true)),
            ("a???b", "a☺b", Ok(false)),
            ("a[^a][^a][^a]b", "a☺b", Ok(false)),
            ("[a-ζ]*", "α", Ok(true)),
            ("*[a-ζ]", "A", Ok(false)),
            ("a?b", "a/b", Ok(false)),
            ("a*b", "a/b", Ok(false)),
            ("[\\]a]", "]", Ok(true)),
            ("[\\-]", "-", Ok(true)),
            ("[x\\-]", "x", Ok(true)),
            ("[x\\-]", "-", Ok(true)),
            ("[x\\-]", "z", Ok(false)),
            ("[\\-x]", "x", Ok(true)),
            ("[\\-x]", "-", Ok(true)),
            ("[\\-x]", "a", Ok(false)),
            ("[]a]", "]", Err(BadPattern)),
            ("[-]", "-", Err(BadPattern)),
            ("[x-]", "x", Err(BadPattern)),
            ("[x-]", "-", Err(BadPattern)),
            ("[x-]", "z", Err(BadPattern)),
            ("[-x]", "x", Err(BadPattern)),
            ("[-x]", "-", Err(BadPattern)),
            ("[-x]", "a", Err(BadPattern)),
            ("\\", "a", Err(BadPattern)),
            ("[a-b-c]", "a", Err(BadPattern)),
            ("[", "a", Err(BadPattern)),
            ("[^", "a", Err(BadPattern)),
            ("[^bc", "a", Err(BadPattern)),
            ("a[", "a", Err(BadPattern)),
            ("a[", "ab", Err(BadPattern)),
            ("a[", "x", Err(BadPattern)),
            ("a/b[", "x", Err(BadPattern)),
            ("*x", "xxx", Ok(true)),
            // Go has no `!` class negation: `!` is a literal member.
            ("[!a]", "!", Ok(true)),
            ("[!a]", "a", Ok(true)),
            ("[!a]", "b", Ok(false)),
            ("", "", Ok(true)),
            ("", "a", Ok(false)),
            ("a*", "", Ok(false)),
            ("*", "", Ok(true)),
            ("**", "abc", Ok(true)),
            ("[^]", "a", Err(BadPattern)),
            // An error later in the pattern is reported even when an earlier
            // chunk already failed.
            ("x*[", "abc", Err(BadPattern)),
            ("a\\", "a", Err(BadPattern)),
        ];
        for (pat, name, want) in cases {
            assert_eq!(go_match(pat, name), *want, "Match({pat:?}, {name:?})");
        }
    }

    #[test]
    fn decode_rune_like_go() {
        assert_eq!(decode_rune(b""), (RUNE_ERROR, 0));
        assert_eq!(decode_rune(b"a"), ('a' as u32, 1));
        assert_eq!(decode_rune("é".as_bytes()), ('é' as u32, 2));
        assert_eq!(decode_rune("☺x".as_bytes()), ('☺' as u32, 3));
        assert_eq!(decode_rune("😀".as_bytes()), ('😀' as u32, 4));
        assert_eq!(decode_rune(&"é".as_bytes()[1..]), (RUNE_ERROR, 1));
        assert_eq!(decode_rune(&[0xC0, 0x80]), (RUNE_ERROR, 1));
        assert_eq!(decode_rune(&[0xE2, 0x98]), (RUNE_ERROR, 1));
        assert_eq!(decode_rune(&[0xED, 0xA0, 0x80]), (RUNE_ERROR, 1)); // surrogate
    }

    // -- the load_test.go example -------------------------------------------

    #[test]
    fn load_test_example() {
        let ig = m(&[(".indexignore", "*\n!*.json\n!*.yaml\n\n*.clusterserviceversion.yaml")]);
        assert!(!ig.is_ignored("cockroachdb.json"));
        assert!(!ig.is_ignored("etcd.yaml"));
        assert!(!ig.is_ignored("deprecations.yaml"));
        assert!(!ig.is_ignored("unrecognized-schema.json"));
        assert!(ig.is_ignored("README.md"));
        assert!(ig.is_ignored("etcdoperator.v0.6.1.clusterserviceversion.yaml"));
        assert!(ig.is_ignored(".indexignore"));
        assert!(ig.is_ignored("notes.txt"));
        assert!(ig.is_ignored("x.yml"));
        // Nested: the last component decides for `!*.json` (it matches the
        // file name component), so nested json is re-included.
        assert!(!ig.is_ignored("sub/dir/a.json"));
        assert!(ig.is_ignored("sub/dir/a.txt"));
        // A directory named like a yaml file re-includes everything below it,
        // since simple patterns match any component.
        assert!(!ig.is_ignored("x.yaml/readme.md"));
    }

    #[test]
    fn success_valid_dir_case() {
        let ig = m(&[(".indexignore", "*\n!*.json\n!*.yaml\n\n*.clusterserviceversion.yaml")]);
        let mut files: Vec<String> = [
            ".indexignore",
            "README.md",
            "cockroachdb.json",
            "deprecations.yaml",
            "etcd.yaml",
            "etcdoperator.v0.6.1.clusterserviceversion.yaml",
            "unrecognized-schema.json",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        sort_walk_order(&mut files);
        let kept: Vec<&str> = files.iter().map(String::as_str).filter(|p| !ig.is_ignored(p)).collect();
        assert_eq!(kept, ["cockroachdb.json", "deprecations.yaml", "etcd.yaml", "unrecognized-schema.json"]);
    }

    // -- conformance-derived cases -----------------------------------------

    #[test]
    fn nested_domain_only_applies_below() {
        // derived/indexignore-nested
        let ig = m(&[("foo/.indexignore", "notes.txt\n")]);
        assert!(ig.is_ignored("foo/notes.txt"));
        assert!(!ig.is_ignored("bar/notes.txt"));
        assert!(!ig.is_ignored("notes.txt"));
        assert!(!ig.is_ignored("foo/catalog.json"));
        assert!(ig.is_ignored("foo/deeper/notes.txt"));
        // Domain components must match exactly.
        assert!(!ig.is_ignored("foobar/notes.txt"));
        assert!(!ig.is_ignored("fo/notes.txt"));
    }

    #[test]
    fn directory_pattern() {
        // derived/indexignore-directory-pattern
        let ig = m(&[(".indexignore", "sub/\n")]);
        assert!(ig.is_ignored("sub/x.json"));
        assert!(ig.is_ignored("a/sub/x.json"));
        assert!(ig.is_ignored("sub/deep/x.json"));
        // Never the last component: a file named `sub` is kept.
        assert!(!ig.is_ignored("sub"));
        assert!(!ig.is_ignored("a/sub"));
        assert!(!ig.is_ignored("foo/catalog.json"));
        assert!(!ig.is_ignored("subway/x.json"));
    }

    #[test]
    fn hidden_files_are_not_ignored_without_patterns() {
        let ig = m(&[]);
        assert!(!ig.is_ignored(".hidden.json"));
        assert!(!ig.is_ignored("README.md"));
        assert!(!ig.is_ignored("foo/catalog.json"));
        assert!(ig.is_ignored(".indexignore"));
        assert!(ig.is_ignored("foo/.indexignore"));
        let d = IndexIgnore::default();
        assert!(!d.is_ignored("a.json"));
    }

    // -- pattern forms ------------------------------------------------------

    #[test]
    fn anchored_glob() {
        let ig = m(&[(".indexignore", "/a/*.json\n")]);
        assert!(ig.is_ignored("a/x.json"));
        assert!(!ig.is_ignored("a/x.yaml"));
        assert!(!ig.is_ignored("b/a/x.json"));
        assert!(!ig.is_ignored("x.json"));
        // Longer paths still match once the pattern is consumed.
        assert!(ig.is_ignored("a/x.json/inner.yaml"));
        // `*` never crosses components.
        assert!(!ig.is_ignored("a/b/x.json"));
    }

    #[test]
    fn anchored_glob_in_domain() {
        let ig = m(&[("d/.indexignore", "a/*.json\n")]);
        assert!(ig.is_ignored("d/a/x.json"));
        assert!(!ig.is_ignored("a/x.json"));
        assert!(!ig.is_ignored("d/e/a/x.json"));
        let ig = m(&[("d/e/.indexignore", "/a/b\n")]);
        assert!(ig.is_ignored("d/e/a/b"));
        assert!(ig.is_ignored("d/e/a/b/c.json"));
        assert!(!ig.is_ignored("d/a/b"));
        assert!(!ig.is_ignored("d/e/a"));
    }

    #[test]
    fn glob_prefix_matches_longer_paths() {
        let ig = m(&[(".indexignore", "a/b\n")]);
        assert!(ig.is_ignored("a/b"));
        assert!(ig.is_ignored("a/b/c.json"));
        assert!(!ig.is_ignored("a/c.json"));
        // The file `a` does not match a two-segment pattern.
        assert!(!ig.is_ignored("a"));
        assert!(!ig.is_ignored("x/a/b"));
    }

    #[test]
    fn double_star_prefix() {
        let ig = m(&[(".indexignore", "**/x\n")]);
        assert!(ig.is_ignored("x"));
        assert!(ig.is_ignored("a/x"));
        assert!(ig.is_ignored("a/b/x"));
        assert!(ig.is_ignored("a/x/y.json"));
        assert!(!ig.is_ignored("a/y"));
        assert!(!ig.is_ignored("xx"));
    }

    #[test]
    fn double_star_middle() {
        let ig = m(&[(".indexignore", "a/**/b.json\n")]);
        assert!(ig.is_ignored("a/b.json"));
        assert!(ig.is_ignored("a/x/b.json"));
        assert!(ig.is_ignored("a/x/y/b.json"));
        assert!(!ig.is_ignored("a/x/c.json"));
        assert!(!ig.is_ignored("b.json"));
        assert!(!ig.is_ignored("z/a/b.json"));
        // No backtracking: the first component matching the segment after
        // `**` is taken (go-git v5 behaviour).
        let ig = m(&[(".indexignore", "**/a/b\n")]);
        assert!(ig.is_ignored("a/b"));
        assert!(ig.is_ignored("x/a/b"));
        assert!(!ig.is_ignored("a/x/a/b"));
    }

    #[test]
    fn double_star_suffix() {
        let ig = m(&[(".indexignore", "a/**\n")]);
        assert!(ig.is_ignored("a/x.json"));
        assert!(ig.is_ignored("a/b/c/x.json"));
        assert!(!ig.is_ignored("b/x.json"));
        // go-git v5 quirk: the trailing `**` also accepts the file `a` itself.
        assert!(ig.is_ignored("a"));
        // `a/**/` (dir-only) needs something below `a`.
        let ig = m(&[(".indexignore", "a/**/\n")]);
        assert!(ig.is_ignored("a/x.json"));
        assert!(!ig.is_ignored("a"));
    }

    #[test]
    fn double_star_odd_forms() {
        // A segment containing `**` but not equal to it never matches.
        let ig = m(&[(".indexignore", "a/**b\n")]);
        assert!(!ig.is_ignored("a/xb"));
        assert!(!ig.is_ignored("a/b"));
        // A lone `/**` matches nothing (the trailing `**` ends matching
        // before anything set `matched`).
        let ig = m(&[(".indexignore", "/**\n")]);
        assert!(!ig.is_ignored("a.json"));
        assert!(!ig.is_ignored("a/b.json"));
        // A bare `**` has no slash: it is a name pattern matching anything.
        let ig = m(&[(".indexignore", "**\n")]);
        assert!(ig.is_ignored("a.json"));
        assert!(ig.is_ignored("a/b.json"));
        // `**/` matches any directory component but never the file.
        let ig = m(&[(".indexignore", "**/\n")]);
        assert!(!ig.is_ignored("a.json"));
        assert!(ig.is_ignored("a/b.json"));
        // `**` in the middle without a following match fails.
        let ig = m(&[(".indexignore", "a/**/zzz\n")]);
        assert!(!ig.is_ignored("a/b/c"));
        // Embedded `**` in a simple pattern: Go treats `**` as `*`.
        let ig = m(&[(".indexignore", "x**y\n")]);
        assert!(ig.is_ignored("xay"));
    }

    #[test]
    fn simple_pattern_matches_any_component() {
        let ig = m(&[(".indexignore", "vendor\n")]);
        assert!(ig.is_ignored("vendor"));
        assert!(ig.is_ignored("vendor/a.json"));
        assert!(ig.is_ignored("a/vendor/b.json"));
        assert!(ig.is_ignored("a/vendor"));
        assert!(!ig.is_ignored("vendors/a.json"));
    }

    #[test]
    fn negation_order_last_wins() {
        // Later negation re-includes.
        let ig = m(&[(".indexignore", "*.json\n!keep.json\n")]);
        assert!(ig.is_ignored("a.json"));
        assert!(!ig.is_ignored("keep.json"));
        // Reversed order: the exclusion is later and wins.
        let ig = m(&[(".indexignore", "!keep.json\n*.json\n")]);
        assert!(ig.is_ignored("keep.json"));
        // A negation with nothing to negate leaves the file included.
        let ig = m(&[(".indexignore", "!a.json\n")]);
        assert!(!ig.is_ignored("a.json"));
        // Negation of a directory component re-includes its contents even
        // when the file name itself was excluded earlier.
        let ig = m(&[(".indexignore", "*.txt\n!keep\n")]);
        assert!(!ig.is_ignored("keep/a.txt"));
        assert!(ig.is_ignored("other/a.txt"));
    }

    #[test]
    fn deeper_files_have_priority() {
        let files = [(".indexignore", "*.json\n"), ("sub/.indexignore", "!*.json\n")];
        let ig = m(&files);
        assert!(ig.is_ignored("a.json"));
        assert!(!ig.is_ignored("sub/a.json"));
        assert!(!ig.is_ignored("sub/x/a.json"));
        assert!(ig.is_ignored("other/a.json"));
        // Input order does not matter: files are sorted into walk order.
        let ig = m(&[files[1], files[0]]);
        assert!(!ig.is_ignored("sub/a.json"));
        // A deeper file re-ignoring.
        let ig = m(&[(".indexignore", "*\n!*.json\n"), ("sub/.indexignore", "bad.json\n")]);
        assert!(!ig.is_ignored("bad.json"));
        assert!(ig.is_ignored("sub/bad.json"));
        assert!(!ig.is_ignored("sub/good.json"));
    }

    #[test]
    fn walk_order_not_depth_decides_priority() {
        // A sibling directory sorting before ".indexignore" (here "-x", since
        // '-' < '.') is walked first, so the parent's patterns come later and
        // win over the deeper file.
        let ig = m(&[("a/.indexignore", "*.json\n"), ("a/-x/.indexignore", "!*.json\n")]);
        assert!(ig.is_ignored("a/-x/f.json"));
        // With "b" (sorting after ".indexignore") the deeper file wins.
        let ig = m(&[("a/.indexignore", "*.json\n"), ("a/b/.indexignore", "!*.json\n")]);
        assert!(!ig.is_ignored("a/b/f.json"));
    }

    #[test]
    fn comments_blank_lines_and_whitespace() {
        let ig =
            m(&[(".indexignore", "# a comment\n\n   \n\t*.txt   \r\n  # indented comment\n  notes.md\n\\#hash\n")]);
        assert!(ig.is_ignored("a.txt"));
        assert!(ig.is_ignored("notes.md"));
        assert!(!ig.is_ignored("# a comment"));
        assert!(!ig.is_ignored("a comment"));
        assert!(!ig.is_ignored("# indented comment"));
        assert!(ig.is_ignored("#hash"));
        assert!(!ig.is_ignored("a.json"));
        // CRLF files and a missing final newline work.
        let ig = m(&[(".indexignore", "a.json\r\nb.json")]);
        assert!(ig.is_ignored("a.json"));
        assert!(ig.is_ignored("b.json"));
        // Unicode whitespace is trimmed like Go's strings.TrimSpace.
        let ig = m(&[(".indexignore", "\u{3000}c.json\u{a0}\n")]);
        assert!(ig.is_ignored("c.json"));
        // A `#` not at the line start is part of the pattern.
        let ig = m(&[(".indexignore", "a#b\n")]);
        assert!(ig.is_ignored("a#b"));
    }

    #[test]
    fn character_classes_and_escapes() {
        let ig = m(&[(".indexignore", "file[0-9].json\n")]);
        assert!(ig.is_ignored("file1.json"));
        assert!(!ig.is_ignored("filex.json"));
        let ig = m(&[(".indexignore", "file[^0-9].json\n")]);
        assert!(!ig.is_ignored("file1.json"));
        assert!(ig.is_ignored("filex.json"));
        // `[!...]` is not a negation in Go.
        let ig = m(&[(".indexignore", "file[!0-9].json\n")]);
        assert!(ig.is_ignored("file1.json"));
        assert!(ig.is_ignored("file!.json"));
        assert!(!ig.is_ignored("filex.json"));
        let ig = m(&[(".indexignore", "f?.json\n")]);
        assert!(ig.is_ignored("fé.json"));
        assert!(!ig.is_ignored("f.json"));
        let ig = m(&[(".indexignore", "\\*.json\n")]);
        assert!(ig.is_ignored("*.json"));
        assert!(!ig.is_ignored("a.json"));
        // `!` escaped is not a negation at the gitignore level either: go-git
        // only strips a literal leading `!`, and `\!` is a Go escape.
        let ig = m(&[(".indexignore", "\\!a.json\n")]);
        assert!(ig.is_ignored("!a.json"));
    }

    #[test]
    fn invalid_patterns_never_match() {
        let ig = m(&[(".indexignore", "[\na[\n[]\n\\\nx/[\n**/[\n[-]\n")]);
        for p in ["[", "a[", "a", "x/[", "x/a", "q/[", "-", "x\\", "[]"] {
            assert!(!ig.is_ignored(p), "{p}");
        }
        // An invalid simple pattern stops at the first component (error),
        // so it cannot match later components either; an invalid negation
        // leaves earlier decisions alone.
        let ig = m(&[(".indexignore", "*.json\n![\n")]);
        assert!(ig.is_ignored("a.json"));
        // An invalid trailing-escape pattern: the line is trimmed first, so
        // `a\ ` becomes `a\` which is a bad pattern.
        let ig = m(&[(".indexignore", "a\\ \n")]);
        assert!(!ig.is_ignored("a "));
        assert!(!ig.is_ignored("a"));
    }

    #[test]
    fn degenerate_patterns_do_not_panic() {
        let content = "!\n/\n//\n///\n!/\n*/\n/*\n**/**\n/**/\n!**\na//b\n\u{0}\n[\u{0}-\u{10FFFF}]\n[é-ü]x\n";
        let ig = m(&[(".indexignore", content), ("d/.indexignore", content)]);
        for p in ["", "/", "a", "a/", "/a", "a//b", "a/b", "d", "d/", "d/x", "éx", "ü", "\u{0}", "d/a/b/c/d/e"] {
            let _ = ig.is_ignored(p);
        }
        // `*/` ignores everything below any directory.
        let ig = m(&[(".indexignore", "*/\n")]);
        assert!(ig.is_ignored("a/b.json"));
        assert!(!ig.is_ignored("b.json"));
        // `/*` anchored: any top-level entry.
        let ig = m(&[(".indexignore", "/*\n")]);
        assert!(ig.is_ignored("b.json"));
        assert!(ig.is_ignored("a/b.json"));
        // A lone `!` is an empty name pattern and matches nothing.
        let ig = m(&[(".indexignore", "*\n!\n")]);
        assert!(ig.is_ignored("a.json"));
        // Class ranges over non-ASCII.
        let ig = m(&[(".indexignore", "[é-ü]x\n")]);
        assert!(ig.is_ignored("ñx"));
        assert!(!ig.is_ignored("ax"));
    }

    #[test]
    fn default_indexignore_pattern() {
        // Files inside a directory named `.indexignore` are covered by the
        // implicit lowest-priority pattern; a later negation re-includes them.
        let ig = m(&[]);
        assert!(ig.is_ignored(".indexignore/a.json"));
        let ig = m(&[(".indexignore", "!a.json\n")]);
        assert!(!ig.is_ignored(".indexignore/a.json"));
        // But a file named `.indexignore` stays ignored regardless.
        let ig = m(&[(".indexignore", "!.indexignore\n")]);
        assert!(ig.is_ignored(".indexignore"));
        assert!(ig.is_ignored("x/.indexignore"));
        assert!(!ig.is_ignored(".indexignore/a.json"));
    }

    #[test]
    fn domain_parsing() {
        assert!(domain_of(".indexignore").is_empty());
        assert!(domain_of("./.indexignore").is_empty());
        assert_eq!(domain_of("a/.indexignore"), ["a"]);
        assert_eq!(domain_of("a/b/.indexignore"), ["a", "b"]);
    }

    // -- walk order ---------------------------------------------------------

    #[test]
    fn walk_order_is_per_component() {
        let mut v: Vec<String> =
            ["a.json", "a/b", "a-b", "a/a/z", "B", "b", "a/.x", "_"].iter().map(|s| s.to_string()).collect();
        sort_walk_order(&mut v);
        assert_eq!(v, ["B", "_", "a/.x", "a/a/z", "a/b", "a-b", "a.json", "b"]);
        // '-' (0x2d) < '.' (0x2e) < '/' (0x2f): component order, not string order.
        let mut v: Vec<String> = ["x.y", "x/y", "x-y"].iter().map(|s| s.to_string()).collect();
        sort_walk_order(&mut v);
        assert_eq!(v, ["x/y", "x-y", "x.y"]);
        // Byte order for non-ASCII; stable with duplicates.
        let mut v: Vec<String> = ["é", "z", "e", "z"].iter().map(|s| s.to_string()).collect();
        sort_walk_order(&mut v);
        assert_eq!(v, ["e", "z", "z", "é"]);
        let mut empty: Vec<String> = Vec::new();
        sort_walk_order(&mut empty);
        assert!(empty.is_empty());
    }
}
