//! The layering of the library's crates (`src/` and `crates/*/src`, see [`CRATE_SOURCES`]) is the
//! one ARCHITECTURE.md lists in its `layers` block. Cargo refuses an import from a crate to a
//! crate above it; this test checks the layers inside each crate, and the crates' modules as one
//! tree (a module's name is the same in every crate).
//!
//! Every file under a crate's `src/` (except `src/bin`, a separate crate) is a module: `src/a.rs`
//! and `src/a/mod.rs` are `a`, `src/a/b.rs` and `src/a/b/mod.rs` are `a::b`, `src/lib.rs` is the
//! crate root (`crates/wasm/src/lib.rs` is the module `wasm`, `crates/indexignore/src/lib.rs` the
//! module `declcfg::indexignore`, `crates/cel/src/lib.rs` the module `resolve::cel`). Comments, doc comments and string literals are blanked first, and so is every item gated
//! on `#[cfg(test)]` (or `#[cfg(all(test, ...))]`), including test-only module files declared with
//! `#[cfg(test)] mod x;`. What is left is read for references to other modules: `use crate::...`,
//! `use super::...`, `use self::...`, grouped imports (`use crate::{a::b, c}`), relative imports of
//! child modules (`use child::X` in a `mod.rs`), and `crate::`/`super::`/`self::` paths anywhere in
//! code. A reference goes to the longest module path it names, and through that module's imports
//! and re-exports when the next segment is one (`pub use diagnostic::Location` in lib.rs makes
//! `crate::Location` a reference to `diagnostic`; `super::ChannelGraph` written in `graph::dot` would
//! be one to `graph::channel_graph`, whose type `graph/mod.rs` re-exports), so a re-export hides no
//! dependency.
//! `LAYERING_EDGES=1 cargo test --test layering -- --nocapture` prints every reference found.
//!
//! The checks, all reported together:
//! (a) every top-level module in `src/` is listed in exactly one layer (a listed module that does
//!     not exist yet is fine);
//! (b) no module refers to a top-level module on a higher layer;
//! (c) no cycle between modules (file granularity), where a module's references to its own
//!     descendants do not count (a parent re-exporting or calling its children is its public face);
//! (d) no cycle between top-level modules of one layer (a layer puts no order on its modules, but
//!     they must not depend on each other in a circle).
//!
//! The parsing pieces have unit tests at the end of this file.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fs;
use std::path::Path;

// ---------------------------------------------------------------------------------------------
// The layers block of ARCHITECTURE.md.

/// The layers, lowest first, and where each module is listed.
#[derive(Debug)]
struct Layers {
    /// Layer names; index 0 is the lowest layer.
    names: Vec<String>,
    /// Module name → the layers (indexes) it is listed in.
    listed: BTreeMap<String, Vec<usize>>,
}

impl Layers {
    /// The layer of a top-level module listed exactly once.
    fn of(&self, module: &str) -> Option<usize> {
        match self.listed.get(module).map(Vec::as_slice) {
            Some([one]) => Some(*one),
            _ => None,
        }
    }

    fn describe(&self, layer: usize) -> String {
        format!("L{layer} {}", self.names[layer])
    }
}

/// Reads the one fenced block with info string `layers`: lines `name: module module ...`, the
/// highest layer first. Blank lines and `#` comments are skipped.
fn parse_layers(markdown: &str) -> Result<Layers, String> {
    let mut blocks = Vec::new();
    let mut lines = markdown.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "```layers" {
            continue;
        }
        let mut rows = Vec::new();
        let mut closed = false;
        for line in lines.by_ref() {
            let t = line.trim();
            if t.starts_with("```") {
                closed = true;
                break;
            }
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let Some((name, modules)) = t.split_once(':') else {
                return Err(format!("ARCHITECTURE.md layers block: `{t}` is not `layer-name: module module ...`"));
            };
            let modules: Vec<String> = modules
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|m| !m.is_empty())
                .map(|m| m.trim_matches('`').to_string())
                .collect();
            rows.push((name.trim().to_string(), modules));
        }
        if !closed {
            return Err("ARCHITECTURE.md: the ```layers block is not closed".into());
        }
        blocks.push(rows);
    }
    let rows = match blocks.len() {
        0 => return Err("ARCHITECTURE.md has no ```layers block (one line per layer, highest first)".into()),
        1 => blocks.pop().unwrap(),
        n => return Err(format!("ARCHITECTURE.md has {n} ```layers blocks; keep exactly one")),
    };
    if rows.is_empty() {
        return Err("ARCHITECTURE.md: the ```layers block is empty".into());
    }
    let mut layers = Layers { names: Vec::new(), listed: BTreeMap::new() };
    for (index, (name, modules)) in rows.into_iter().rev().enumerate() {
        layers.names.push(name);
        for m in modules {
            layers.listed.entry(m).or_default().push(index);
        }
    }
    Ok(layers)
}

// ---------------------------------------------------------------------------------------------
// Files to modules.

/// A module path: its segments, empty for the crate root.
type ModPath = Vec<String>;

fn join(path: &[String]) -> String {
    path.join("::")
}

/// How a module is printed: its path, or `crate` for the root.
fn show(module: &str) -> &str {
    if module.is_empty() {
        "crate"
    } else {
        module
    }
}

/// The module a file under `src/` holds, from its path relative to `src/` (`/`-separated);
/// `None` for what is not a module of the library (`bin/`, `main.rs`, non-Rust files).
fn module_of(rel: &str) -> Option<ModPath> {
    let stem = rel.strip_suffix(".rs")?;
    let mut parts: Vec<&str> = stem.split('/').collect();
    if parts.first() == Some(&"bin") || stem == "main" {
        return None;
    }
    if stem == "lib" {
        return Some(Vec::new());
    }
    if parts.last() == Some(&"mod") {
        parts.pop();
        if parts.is_empty() {
            return None;
        }
    }
    Some(parts.into_iter().map(str::to_string).collect())
}

/// Every `.rs` file under `dir`, as paths relative to `base` with `/` separators, sorted.
fn rust_files(base: &Path, dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(base, &path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            let rel = path.strip_prefix(base).expect("under base");
            out.push(
                rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/"),
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Blanking comments, strings and test-only code. Blanked characters become spaces; line breaks
// stay, so line numbers are those of the file.

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Where the string, byte string, C string, raw string or char literal starting at `i` ends
/// (exclusive), or `None` when no literal starts there (a lifetime's `'` is not one).
fn literal_end(c: &[char], i: usize) -> Option<usize> {
    let at = |k: usize| c.get(k).copied();
    let token_start = i == 0 || !is_ident_char(c[i - 1]);
    let mut j = i;
    if token_start && matches!(at(j), Some('b' | 'c')) && matches!(at(j + 1), Some('"' | '\'' | 'r')) {
        j += 1;
    }
    if (token_start || j > i) && at(j) == Some('r') {
        let mut k = j + 1;
        while at(k) == Some('#') {
            k += 1;
        }
        if at(k) != Some('"') {
            return None; // a raw identifier (`r#type`) or a plain identifier
        }
        let hashes = k - j - 1;
        let mut m = k + 1;
        while m < c.len() {
            if c[m] == '"' && (1..=hashes).all(|h| at(m + h) == Some('#')) {
                return Some(m + 1 + hashes);
            }
            m += 1;
        }
        return Some(c.len());
    }
    match at(j) {
        Some('"') => {
            let mut m = j + 1;
            while m < c.len() {
                match c[m] {
                    '\\' => m += 2,
                    '"' => return Some(m + 1),
                    _ => m += 1,
                }
            }
            Some(c.len())
        }
        Some('\'') => {
            if at(j + 1) == Some('\\') {
                // An escape: `'\n'`, `'\''`, `'\u{1F600}'`.
                let mut m = j + 3;
                while m < c.len() && m < j + 14 {
                    if c[m] == '\'' {
                        return Some(m + 1);
                    }
                    m += 1;
                }
                None
            } else if at(j + 2) == Some('\'') && !matches!(at(j + 1), Some('\'' | '\n')) {
                Some(j + 3)
            } else {
                None // a lifetime or a label
            }
        }
        _ => None,
    }
}

/// `src` with every comment (line, block — nested —, doc) and every string and char literal
/// blanked.
fn blank_comments_and_strings(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if let Some(end) = literal_end(&c, i) {
            let end = end.min(c.len());
            for &ch in &c[i..end] {
                blank(&mut out, ch);
            }
            i = end;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The index of the bracket closing the one at `open` (`c[open]` is `(`, `[` or `{`), counting
/// all three kinds; `c.len()` when it is not closed. Works on blanked text.
fn matching_close(c: &[char], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, &ch) in c.iter().enumerate().skip(open) {
        match ch {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    c.len()
}

fn skip_whitespace(c: &[char], mut i: usize) -> usize {
    while i < c.len() && c[i].is_whitespace() {
        i += 1;
    }
    i
}

/// Splits `s` at commas outside parentheses.
fn split_top_level(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (k, ch) in s.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts.into_iter().filter(|p| !p.is_empty()).collect()
}

/// Whether a `cfg` predicate (whitespace removed) holds only in test builds: `test`, `all(..)`
/// with a part that does, `any(..)` whose every part does.
fn predicate_needs_test(p: &str) -> bool {
    if p == "test" {
        return true;
    }
    if let Some(inner) = p.strip_prefix("all(").and_then(|r| r.strip_suffix(')')) {
        return split_top_level(inner).iter().any(|q| predicate_needs_test(q));
    }
    if let Some(inner) = p.strip_prefix("any(").and_then(|r| r.strip_suffix(')')) {
        let parts = split_top_level(inner);
        return !parts.is_empty() && parts.iter().all(|q| predicate_needs_test(q));
    }
    false
}

/// Whether an attribute's content (between `#[` and `]`, whitespace removed) is a test-only cfg.
fn attribute_is_test_only(content: &str) -> bool {
    content.strip_prefix("cfg(").and_then(|r| r.strip_suffix(')')).is_some_and(predicate_needs_test)
}

/// The item following an outer attribute that ends at `after`: `(start, end)` where `start`
/// skips further attributes and `end` is exclusive. An item ends at its first `;` or `,` outside
/// brackets, after its first top-level `{ ... }` block, or before a bracket closing the
/// enclosing one (a struct field or match arm that is last).
fn item_extent(c: &[char], after: usize) -> (usize, usize) {
    let mut k = skip_whitespace(c, after);
    while k < c.len() && c[k] == '#' && c.get(skip_whitespace(c, k + 1)) == Some(&'[') {
        k = skip_whitespace(c, matching_close(c, skip_whitespace(c, k + 1)) + 1);
    }
    let start = k;
    let mut depth = 0i32;
    while k < c.len() {
        match c[k] {
            '(' | '[' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return (start, k),
            ')' | ']' => depth -= 1,
            ';' | ',' if depth == 0 => return (start, k + 1),
            '{' if depth == 0 => return (start, (matching_close(c, k) + 1).min(c.len())),
            _ => {}
        }
        k += 1;
    }
    (start, c.len())
}

/// The name declared by `mod NAME;` (with optional visibility), if the item is one.
fn out_of_line_mod_name(item: &str) -> Option<String> {
    let toks: Vec<String> = tokenize(item).into_iter().map(|t| t.text).collect();
    let mut i = 0;
    if toks.get(i).map(String::as_str) == Some("pub") {
        i += 1;
        if toks.get(i).map(String::as_str) == Some("(") {
            while i < toks.len() && toks[i] != ")" {
                i += 1;
            }
            i += 1;
        }
    }
    match (toks.get(i).map(String::as_str), toks.get(i + 1), toks.get(i + 2).map(String::as_str)) {
        (Some("mod"), Some(name), Some(";")) if toks.len() == i + 3 => Some(name.clone()),
        _ => None,
    }
}

/// Blanks every test-only item of blanked text: an outer `#[cfg(test)]` (or a cfg that needs
/// `test`) blanks the attribute and its item; an inner `#![cfg(test)]` blanks the enclosing
/// block, or the whole file at the top level. Returns the text and the names of test-only
/// out-of-line modules (`#[cfg(test)] mod properties;`), whose files are not part of the library.
fn blank_test_only(text: &str) -> (String, Vec<String>) {
    let mut c: Vec<char> = text.chars().collect();
    let mut test_modules = Vec::new();
    let blank = |c: &mut [char], from: usize, to: usize| {
        let to = to.min(c.len());
        for ch in &mut c[from..to] {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
    };
    let mut i = 0;
    while i < c.len() {
        if c[i] != '#' {
            i += 1;
            continue;
        }
        let mut j = skip_whitespace(&c, i + 1);
        let inner = c.get(j) == Some(&'!');
        if inner {
            j = skip_whitespace(&c, j + 1);
        }
        if c.get(j) != Some(&'[') {
            i += 1;
            continue;
        }
        let close = matching_close(&c, j);
        let content: String = c[j + 1..close.min(c.len())].iter().filter(|ch| !ch.is_whitespace()).collect();
        if !attribute_is_test_only(&content) {
            i = close + 1;
            continue;
        }
        if inner {
            // The enclosing `{`, if any.
            let mut depth = 0usize;
            let mut open = None;
            for k in (0..i).rev() {
                match c[k] {
                    '}' => depth += 1,
                    '{' if depth == 0 => {
                        open = Some(k);
                        break;
                    }
                    '{' => depth -= 1,
                    _ => {}
                }
            }
            let (from, to) = match open {
                Some(o) => (o + 1, matching_close(&c, o)),
                None => (0, c.len()),
            };
            blank(&mut c, from, to);
            i = to;
        } else {
            let (start, end) = item_extent(&c, close + 1);
            let item: String = c[start..end].iter().collect();
            if let Some(name) = out_of_line_mod_name(&item) {
                test_modules.push(name);
            }
            blank(&mut c, i, end);
            i = end;
        }
    }
    (c.into_iter().collect(), test_modules)
}

// ---------------------------------------------------------------------------------------------
// Tokens and references.

#[derive(Debug, Clone, PartialEq)]
struct Token {
    text: String,
    line: usize,
}

fn is_ident(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// Identifiers (`$crate` as `crate`; `r#x` as `x`, except that raw keywords such as `r#use` keep
/// their `r#`), numbers, `::`, and single punctuation characters, with 1-based lines. For blanked
/// text.
fn tokenize(text: &str) -> Vec<Token> {
    let c: Vec<char> = text.chars().collect();
    let mut toks = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if is_ident_char(ch) {
            let mut j = i;
            while j < c.len() && is_ident_char(c[j]) {
                j += 1;
            }
            let mut word: String = c[i..j].iter().collect();
            if word == "r" && c.get(j) == Some(&'#') && c.get(j + 1).is_some_and(|&x| is_ident_char(x)) {
                let mut k = j + 1;
                while k < c.len() && is_ident_char(c[k]) {
                    k += 1;
                }
                let raw: String = c[j + 1..k].iter().collect();
                // Keywords stay marked (`r#use` is no `use`); other raw identifiers are names.
                word = if matches!(raw.as_str(), "use" | "mod" | "crate" | "super" | "self" | "in" | "pub" | "as") {
                    format!("r#{raw}")
                } else {
                    raw
                };
                j = k;
            }
            toks.push(Token { text: word, line });
            i = j;
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            toks.push(Token { text: "::".into(), line });
            i += 2;
        } else if ch == '$'
            && c[i + 1..].starts_with(&['c', 'r', 'a', 't', 'e'])
            && !c.get(i + 6).is_some_and(|&x| is_ident_char(x))
        {
            toks.push(Token { text: "crate".into(), line });
            i += 6;
        } else {
            toks.push(Token { text: ch.to_string(), line });
            i += 1;
        }
    }
    toks
}

/// A reference to a path, made absolute against the module it is written in.
#[derive(Debug, Clone, PartialEq)]
struct RawRef {
    /// The absolute path (crate root first).
    path: ModPath,
    line: usize,
    /// For a relative `use` path (`use child::X`): the index in `path` of its first written
    /// segment, which must then name a module (otherwise it is an external crate or a local
    /// item).
    relative_from: Option<usize>,
    /// For the leaf of a `use` at the top level of its file: the name it binds in the file's
    /// module (its alias or last segment). `None` for globs, `use` in blocks or inline modules,
    /// and paths in code.
    binds: Option<String>,
}

/// A leaf of a `use` tree: the written segments, the name it binds, and its line.
#[derive(Debug, Clone, PartialEq)]
struct UseLeaf {
    segments: Vec<String>,
    binds: Option<String>,
    line: usize,
}

/// The leaves of the use tree in `toks` (what follows `use`, without the `;`). A leading `::`
/// (an external crate) gives no leaves; a `self` inside a group means the group's prefix.
fn use_leaves(toks: &[Token]) -> Vec<UseLeaf> {
    fn tree(toks: &[Token], i: &mut usize, prefix: &[String], out: &mut Vec<UseLeaf>) {
        let mut segs = prefix.to_vec();
        while let Some(t) = toks.get(*i) {
            match t.text.as_str() {
                "{" => {
                    *i += 1;
                    while let Some(t) = toks.get(*i) {
                        match t.text.as_str() {
                            "}" => {
                                *i += 1;
                                break;
                            }
                            "," => *i += 1,
                            _ => {
                                let before = *i;
                                tree(toks, i, &segs, out);
                                if *i == before {
                                    *i += 1; // not a use tree: skip the token
                                }
                            }
                        }
                    }
                    return;
                }
                "*" => {
                    *i += 1;
                    out.push(UseLeaf { segments: segs, binds: None, line: t.line });
                    return;
                }
                word if is_ident(word) => {
                    *i += 1;
                    let line = t.line;
                    if word != "self" || segs.is_empty() {
                        segs.push(word.to_string());
                    }
                    if toks.get(*i).map(|t| t.text.as_str()) == Some("::") {
                        *i += 1;
                        continue;
                    }
                    let mut binds = if word == "self" { prefix.last().cloned() } else { Some(word.to_string()) };
                    if toks.get(*i).map(|t| t.text.as_str()) == Some("as") {
                        binds = toks.get(*i + 1).map(|t| t.text.clone()).filter(|a| a != "_");
                        *i += 2;
                    }
                    out.push(UseLeaf { segments: segs, binds, line });
                    return;
                }
                _ => return,
            }
        }
    }
    let mut out = Vec::new();
    if toks.first().map(|t| t.text.as_str()) == Some("::") {
        return out;
    }
    let mut i = 0;
    tree(toks, &mut i, &[], &mut out);
    out
}

/// Makes written path segments absolute against `current`: `crate::` from the root, `self::`
/// and relative paths from `current`, each `super` one level up. `None` when `super` climbs
/// above the root. The second value is `relative_from` (see [`RawRef`]).
fn absolute(segments: &[String], current: &[String]) -> Option<(ModPath, Option<usize>)> {
    let first = segments.first()?;
    let (mut base, mut rest, relative) = match first.as_str() {
        "crate" => (Vec::new(), &segments[1..], false),
        "self" => (current.to_vec(), &segments[1..], false),
        "super" => (current.to_vec(), segments, false),
        _ => (current.to_vec(), segments, true),
    };
    while rest.first().map(String::as_str) == Some("super") {
        base.pop()?;
        rest = &rest[1..];
    }
    let relative_from = relative.then_some(base.len());
    base.extend(rest.iter().filter(|s| *s != "self").cloned());
    Some((base, relative_from))
}

/// Every reference to a module path in blanked, test-stripped text of the file whose module is
/// `file_module`: the leaves of `use` declarations, and `crate::`/`super::`/`self::` paths in
/// code. Inline modules (`mod imp { ... }`) are followed, so `super` inside one is resolved from
/// it.
fn references(text: &str, file_module: &[String]) -> Vec<RawRef> {
    let toks = tokenize(text);
    let word = |k: usize| toks.get(k).map(|t| t.text.as_str()).unwrap_or("");
    let mut refs = Vec::new();
    // One entry per open brace: the inline module it opens, if any.
    let mut braces: Vec<Option<String>> = Vec::new();
    let current = |braces: &[Option<String>]| -> ModPath {
        file_module.iter().cloned().chain(braces.iter().flatten().cloned()).collect()
    };
    let mut i = 0;
    while i < toks.len() {
        match word(i) {
            "{" => {
                let opens_mod = i >= 2 && word(i - 2) == "mod" && is_ident(word(i - 1));
                braces.push(opens_mod.then(|| word(i - 1).to_string()));
            }
            "}" => {
                braces.pop();
            }
            "use" => {
                let mut end = i + 1;
                let mut depth = 0i32;
                while end < toks.len() {
                    match word(end) {
                        "{" => depth += 1,
                        "}" => depth -= 1,
                        ";" if depth == 0 => break,
                        _ => {}
                    }
                    end += 1;
                }
                let here = current(&braces);
                for leaf in use_leaves(&toks[i + 1..end]) {
                    if let Some((path, relative_from)) = absolute(&leaf.segments, &here) {
                        let binds = leaf.binds.filter(|_| braces.is_empty());
                        refs.push(RawRef { path, line: leaf.line, relative_from, binds });
                    }
                }
                i = end + 1;
                continue;
            }
            "crate" | "super" | "self" if word(i + 1) == "::" => {
                let restricted_visibility = i >= 3 && word(i - 1) == "in" && word(i - 2) == "(" && word(i - 3) == "pub";
                if (i == 0 || word(i - 1) != "::") && !restricted_visibility {
                    let mut segments = vec![word(i).to_string()];
                    let mut k = i + 1;
                    while word(k) == "::" && is_ident(word(k + 1)) {
                        segments.push(word(k + 1).to_string());
                        k += 2;
                    }
                    if let Some((path, _)) = absolute(&segments, &current(&braces)) {
                        refs.push(RawRef { path, line: toks[i].line, relative_from: None, binds: None });
                    }
                    i = k;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    refs
}

// ---------------------------------------------------------------------------------------------
// The crate: modules and the edges between them.

/// The library's modules (joined paths, `""` for the root) and the names their `use`
/// declarations bind.
struct Crate {
    modules: BTreeSet<String>,
    /// Module → name bound by a top-level `use` of its file → the path that `use` names.
    imports: BTreeMap<String, BTreeMap<String, RawRef>>,
}

impl Crate {
    /// The module a reference points into: the longest module path that prefixes it; when the
    /// next segment is a name that module imports or re-exports (`pub use child::X` in a
    /// `mod.rs`, `pub use diagnostic::Location` in lib.rs), the module that name comes from.
    /// `None` for a relative path that names no module (an external crate).
    fn resolve(&self, r: &RawRef) -> Option<String> {
        self.resolve_through(r, 0)
    }

    fn resolve_through(&self, r: &RawRef, hops: usize) -> Option<String> {
        let mut best = 0;
        for k in 1..=r.path.len() {
            if self.modules.contains(&join(&r.path[..k])) {
                best = k;
            }
        }
        if r.relative_from.is_some_and(|from| best <= from) {
            return None;
        }
        let module = join(&r.path[..best]);
        let imported = r.path.get(best).and_then(|name| self.imports.get(&module)?.get(name));
        if let Some(target) = imported.filter(|_| hops < 16) {
            let mut next = target.clone();
            next.path.extend(r.path[best + 1..].iter().cloned());
            if let Some(found) = self.resolve_through(&next, hops + 1) {
                return Some(found);
            }
        }
        Some(module)
    }
}

/// A reference from one module to another, where it is written.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Edge {
    file: String,
    line: usize,
    from: String,
    to: String,
}

/// One file of the library, read and blanked.
struct Source {
    /// Relative to the repository (`src/a/b.rs`).
    file: String,
    module: ModPath,
    /// Blanked text with test-only code removed.
    code: String,
}

/// The library's sources, one directory per crate of the workspace that holds layers, and the
/// module its crate root stands for. The layer modules keep their names across crates (each
/// crate brings the lower crates' modules into its root with `use`, so `crate::declcfg` means
/// the same module in every crate): the crates' modules form one tree, checked as one. Between
/// crates, Cargo itself refuses an upward dependency; inside a crate, this test does.
/// `crates/graph-picture` and `crates/yaml-events` sit below every layer, like dependencies.
const CRATE_SOURCES: &[(&str, &[&str])] = &[
    ("src", &[]),
    ("crates/base/src", &[]),
    ("crates/indexignore/src", &["declcfg", "indexignore"]),
    ("crates/format/src", &[]),
    ("crates/model/src", &[]),
    ("crates/lints/src", &[]),
    ("crates/validate/src", &[]),
    ("crates/cel/src", &["resolve", "cel"]),
    ("crates/resolve/src", &[]),
    ("crates/tools/src", &[]),
    ("crates/crd-safety/src", &[]),
    ("crates/wasm/src", &["wasm"]),
    ("crates/lsp/src", &["lsp"]),
];

/// Reads every crate's `src/`: every library file, except test-only module files.
fn read_sources(repo: &Path) -> Vec<Source> {
    let mut sources = Vec::new();
    for (dir, root) in CRATE_SOURCES {
        let src = repo.join(dir);
        let mut rels = Vec::new();
        rust_files(&src, &src, &mut rels);
        let mut test_only: Vec<ModPath> = Vec::new();
        let mut crate_sources = Vec::new();
        for rel in rels {
            let Some(within) = module_of(&rel) else { continue };
            let module: ModPath = root.iter().map(|s| s.to_string()).chain(within).collect();
            let text = fs::read_to_string(src.join(&rel)).unwrap_or_else(|e| panic!("cannot read {dir}/{rel}: {e}"));
            let (code, test_modules) = blank_test_only(&blank_comments_and_strings(&text));
            for name in test_modules {
                test_only.push(module.iter().cloned().chain([name]).collect());
            }
            crate_sources.push(Source { file: format!("{dir}/{rel}"), module, code });
        }
        crate_sources.retain(|s| !test_only.iter().any(|t| s.module.starts_with(t)));
        sources.extend(crate_sources);
    }
    sources
}

/// The modules and every reference between two different modules.
fn crate_edges(sources: &[Source]) -> (Crate, Vec<Edge>) {
    let refs: Vec<Vec<RawRef>> = sources.iter().map(|s| references(&s.code, &s.module)).collect();
    let mut krate = Crate { modules: sources.iter().map(|s| join(&s.module)).collect(), imports: BTreeMap::new() };
    for (s, rs) in sources.iter().zip(&refs) {
        for r in rs {
            if let Some(name) = &r.binds {
                let target = RawRef { binds: None, ..r.clone() };
                krate.imports.entry(join(&s.module)).or_default().insert(name.clone(), target);
            }
        }
    }
    let mut edges = BTreeSet::new();
    for (s, rs) in sources.iter().zip(&refs) {
        let from = join(&s.module);
        for r in rs {
            if let Some(to) = krate.resolve(r) {
                if to != from {
                    edges.insert(Edge { file: s.file.clone(), line: r.line, from: from.clone(), to });
                }
            }
        }
    }
    (krate, edges.into_iter().collect())
}

fn top_level(module: &str) -> &str {
    module.split("::").next().unwrap_or("")
}

/// Whether `to` is `from` or inside it (everything is inside the root).
fn is_within(to: &str, from: &str) -> bool {
    from.is_empty() || to == from || to.strip_prefix(from).is_some_and(|rest| rest.starts_with("::"))
}

// ---------------------------------------------------------------------------------------------
// Cycles.

/// The strongly connected components with more than one node, each sorted, in order (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        if let Some(next) = s.graph.get(v) {
            for w in next {
                let w = w.as_str();
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let lw = s.low[w];
                    let lv = s.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if s.on_stack.contains(w) {
                    let iw = s.index[w];
                    let lv = s.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on_stack.remove(w);
                component.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    let nodes: BTreeSet<&str> =
        graph.iter().flat_map(|(k, vs)| std::iter::once(k.as_str()).chain(vs.iter().map(String::as_str))).collect();
    for v in nodes {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.found.sort();
    s.found
}

/// A shortest cycle through `start` (first node repeated at the end), inside `graph`.
fn shortest_cycle(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for w in graph.get(v).into_iter().flatten() {
            if w == start {
                // Walk back from `v` to `start`, then turn the walk around.
                let mut path = vec![v.to_string()];
                let mut at = v;
                while at != start {
                    at = came_from[at];
                    path.push(at.to_string());
                }
                path.reverse();
                path.push(start.to_string());
                return Some(path);
            }
            if !came_from.contains_key(w.as_str()) {
                came_from.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    None
}

// ---------------------------------------------------------------------------------------------
// The checks.

/// Every violation, grouped by check, as printable lines.
fn check(layers: &Layers, sources: &[Source], edges: &[Edge]) -> Vec<String> {
    let mut problems = Vec::new();

    // (a) Every top-level module present is in exactly one layer.
    let mut tops: BTreeMap<&str, &str> = BTreeMap::new();
    for s in sources {
        if let Some(top) = s.module.first() {
            tops.entry(top.as_str()).or_insert(s.file.as_str());
        }
    }
    for (top, file) in &tops {
        match layers.listed.get(*top).map(Vec::as_slice) {
            None | Some([]) => problems.push(format!(
                "{file}: top-level module `{top}` is in no layer: add it to the ```layers block of ARCHITECTURE.md"
            )),
            Some([_]) => {}
            Some(many) => problems.push(format!(
                "{file}: top-level module `{top}` is listed in {} layers ({}): list it once",
                many.len(),
                many.iter().map(|&l| layers.describe(l)).collect::<Vec<_>>().join(", ")
            )),
        }
    }

    // (b) No reference runs to a higher layer.
    for e in edges {
        let (a, b) = (top_level(&e.from), top_level(&e.to));
        if a.is_empty() || b.is_empty() || a == b {
            continue;
        }
        if let (Some(la), Some(lb)) = (layers.of(a), layers.of(b)) {
            if lb > la {
                problems.push(format!(
                    "{}:{}: {} -> {} runs upward (layer {} -> layer {})",
                    e.file,
                    e.line,
                    e.from,
                    e.to,
                    layers.describe(la),
                    layers.describe(lb)
                ));
            }
        }
    }

    // (c) No cycle between modules; a module's references into itself (its descendants) do not
    // count.
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut sites: BTreeMap<(String, String), Vec<(String, usize)>> = BTreeMap::new();
    for e in edges {
        if is_within(&e.to, &e.from) {
            continue;
        }
        graph.entry(e.from.clone()).or_default().insert(e.to.clone());
        sites.entry((e.from.clone(), e.to.clone())).or_default().push((e.file.clone(), e.line));
    }
    let site_text = |from: &str, to: &str| -> String {
        let list = &sites[&(from.to_string(), to.to_string())];
        let lines: Vec<String> = list.iter().map(|(_, l)| l.to_string()).collect();
        format!("{}:{}: {} -> {}", list[0].0, lines.join(","), show(from), show(to))
    };
    for component in cycles(&graph) {
        let inside: BTreeSet<&String> = component.iter().collect();
        let sub: BTreeMap<String, BTreeSet<String>> = component
            .iter()
            .map(|v| {
                let next = graph.get(v).into_iter().flatten().filter(|w| inside.contains(w)).cloned().collect();
                (v.clone(), next)
            })
            .collect();
        let cycle = shortest_cycle(&sub, &component[0]).expect("a component of two or more nodes has a cycle");
        let mut text = format!("cycle: {}", cycle.iter().map(|m| show(m)).collect::<Vec<_>>().join(" -> "));
        for pair in cycle.windows(2) {
            text.push_str(&format!("\n      {}", site_text(&pair[0], &pair[1])));
        }
        if component.len() > cycle.len() - 1 {
            text.push_str(&format!(
                "\n    these {} modules are all on cycles with each other; every reference among them:",
                component.len()
            ));
            for (v, next) in &sub {
                for w in next {
                    text.push_str(&format!("\n      {}", site_text(v, w)));
                }
            }
        }
        problems.push(text);
    }

    // (d) No cycle between the top-level modules of one layer.
    let mut tops_graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut top_sites: BTreeMap<(String, String), (String, usize, String, String)> = BTreeMap::new();
    for e in edges {
        let (a, b) = (top_level(&e.from), top_level(&e.to));
        if a.is_empty() || b.is_empty() || a == b {
            continue;
        }
        if let (Some(la), Some(lb)) = (layers.of(a), layers.of(b)) {
            if la == lb {
                tops_graph.entry(a.to_string()).or_default().insert(b.to_string());
                top_sites.entry((a.to_string(), b.to_string())).or_insert((
                    e.file.clone(),
                    e.line,
                    e.from.clone(),
                    e.to.clone(),
                ));
            }
        }
    }
    for component in cycles(&tops_graph) {
        let cycle = shortest_cycle(&tops_graph, &component[0]).expect("a component has a cycle");
        let layer = layers.of(&component[0]).expect("listed");
        let mut text = format!("cycle inside layer {}: {}", layers.describe(layer), cycle.join(" -> "));
        for pair in cycle.windows(2) {
            let (file, line, from, to) = &top_sites[&(pair[0].clone(), pair[1].clone())];
            text.push_str(&format!("\n      {file}:{line}: {from} -> {to}"));
        }
        problems.push(text);
    }
    problems
}

#[test]
fn src_follows_the_layers_of_architecture_md() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let markdown = fs::read_to_string(repo.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md at the repository root");
    let layers = parse_layers(&markdown).unwrap_or_else(|e| panic!("{e}"));
    let sources = read_sources(repo);
    let (krate, edges) = crate_edges(&sources);
    if std::env::var_os("LAYERING_EDGES").is_some() {
        // `LAYERING_EDGES=1 cargo test --test layering -- --nocapture` lists every reference.
        for e in &edges {
            println!("{}:{}: {} -> {}", e.file, e.line, show(&e.from), show(&e.to));
        }
    }
    for m in layers.listed.keys() {
        if !krate.modules.contains(m) {
            println!("note: `{m}` is in the layers of ARCHITECTURE.md but in no crate (yet)");
        }
    }
    let problems = check(&layers, &sources, &edges);
    if !problems.is_empty() {
        let layer_list: Vec<String> = (0..layers.names.len()).rev().map(|l| layers.describe(l)).collect();
        panic!(
            "\n{} layering problem(s) in the crates (layers from ARCHITECTURE.md, highest first: {}).\n\
             A module may use modules of its own layer or lower ones, never a higher one; no cycles.\n\n{}\n",
            problems.len(),
            layer_list.join(" | "),
            problems.join("\n")
        );
    }
}

/// The calls that turn catalog text into checked values. Only the layers that own that work may
/// make them: `declcfg`, `version`, `property`, and the model layer (`model`, `cluster`).
const PARSERS: &[&str] = &[
    "VersionRange::parse(",
    "Version::parse(",
    "Version::parse_tolerant(",
    "Release::parse(",
    "VersionRelease::from_legacy_version(",
    "Constraints::parse(",
    "property::parse(",
    "constraint::parse(",
    "parse_raw(",
];

/// Where parsing is the job.
const PARSING_MODULES: &[&str] = &["declcfg", "version", "property", "model", "cluster"];

/// Parsing that is not catalog text, each with its reason.
const PARSING_ALLOWED: &[(&str, &str)] = &[
    // CEL's `semver_compare(a, b)` parses its arguments when a rule runs: they are values the
    // rule computed, not catalog fields, and OLM parses them at that moment too.
    ("resolve::cel", "Version::parse_tolerant("),
];

#[test]
fn analyses_never_parse_catalog_text() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for s in read_sources(repo) {
        let module = join(&s.module);
        if PARSING_MODULES.contains(&top_level(&module)) {
            continue;
        }
        for (n, line) in s.code.lines().enumerate() {
            for p in PARSERS {
                let allowed = PARSING_ALLOWED.iter().any(|(m, call)| module.starts_with(m) && call == p);
                if line.contains(p) && !allowed {
                    found.push(format!("{}:{}: {} calls {}", s.file, n + 1, module, p.trim_end_matches('(')));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "\nanalyses and bindings read parsed values from the model; parsing belongs to {}:\n{}\n",
        PARSING_MODULES.join(", "),
        found.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// Unit tests of the pieces.

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn paths_of(text: &str, module: &[&str]) -> Vec<String> {
    let clean = blank_test_only(&blank_comments_and_strings(text)).0;
    references(&clean, &strs(module)).into_iter().map(|r| join(&r.path)).collect()
}

#[test]
fn layers_block_is_read_highest_first() {
    let md = "# Title\n\n```layers\ntop: wasm\n# a comment\nmid: validate, resolve\n\nlow: gotext diagnostic\n```\n";
    let l = parse_layers(md).unwrap();
    assert_eq!(l.names, strs(&["low", "mid", "top"]));
    assert_eq!(l.of("gotext"), Some(0));
    assert_eq!(l.of("resolve"), Some(1));
    assert_eq!(l.of("wasm"), Some(2));
    assert_eq!(l.of("model"), None);
    let twice = parse_layers("```layers\na: x\nb: x\n```\n").unwrap();
    assert_eq!(twice.of("x"), None);
    assert_eq!(twice.listed["x"], vec![0, 1]);
    assert!(parse_layers("no block").is_err());
    assert!(parse_layers("```layers\na: x\n").is_err());
    assert!(parse_layers("```layers\nno colon\n```").is_err());
}

#[test]
fn files_map_to_module_paths() {
    assert_eq!(module_of("lib.rs"), Some(vec![]));
    assert_eq!(module_of("a.rs"), Some(strs(&["a"])));
    assert_eq!(module_of("a/mod.rs"), Some(strs(&["a"])));
    assert_eq!(module_of("a/b.rs"), Some(strs(&["a", "b"])));
    assert_eq!(module_of("a/b/mod.rs"), Some(strs(&["a", "b"])));
    assert_eq!(module_of("bin/tool.rs"), None);
    assert_eq!(module_of("main.rs"), None);
    assert_eq!(module_of("a/notes.md"), None);
}

#[test]
fn comments_and_strings_are_blanked_keeping_lines() {
    let src = "use crate::a; // crate::b\n/* crate::c /* nested crate::d */ still crate::e */ x\n\
               /// doc crate::f\n//! inner doc crate::g\nlet s = \"crate::h \\\" crate::i\";\n\
               let r = r#\"crate::j \" crate::k\"#; let b = br\"crate::l\"; let c = b\"crate::m\";\n\
               let q = '\"'; let e = '\\''; fn f<'a>(x: &'a str) -> &'a str { crate::n::f(x) }\n\
               let multi = \"line one\ncrate::o\"; crate::p::g();\n";
    let out = blank_comments_and_strings(src);
    assert_eq!(out.lines().count(), src.lines().count());
    assert_eq!(out.chars().count(), src.chars().count());
    for gone in [
        "crate::b", "crate::c", "crate::d", "crate::e", "crate::f", "crate::g", "crate::h", "crate::i", "crate::j",
        "crate::k", "crate::l", "crate::m", "crate::o",
    ] {
        assert!(!out.contains(gone), "{gone} should be blanked in:\n{out}");
    }
    for kept in ["use crate::a;", " x\n", "crate::n::f(x)", "crate::p::g();", "fn f<'a>(x: &'a str)"] {
        assert!(out.contains(kept), "{kept} should be kept in:\n{out}");
    }
    // A raw identifier is not a raw string.
    assert!(blank_comments_and_strings("r#type::crate::x").contains("crate::x"));
}

#[test]
fn grouped_and_nested_use_trees_expand() {
    let refs =
        paths_of("use crate::{a::b, c::{self, D}, e as f, g::*};\nuse ::ext::crate_like;\nuse std::fmt;", &["m"]);
    assert_eq!(refs, strs(&["a::b", "c", "c::D", "e", "g", "m::std::fmt"]));
    let leaves = use_leaves(&tokenize("crate::{x::Y as Z, w::{self}, v::_unused as _}"));
    let binds: Vec<Option<String>> = leaves.iter().map(|l| l.binds.clone()).collect();
    assert_eq!(binds, vec![Some("Z".into()), Some("w".into()), None]);
    // Lines are those of each leaf.
    let lines: Vec<usize> = references("use crate::{\n    a::B,\n    c::D,\n};", &[]).iter().map(|r| r.line).collect();
    assert_eq!(lines, vec![2, 3]);
}

#[test]
fn super_and_self_resolve_against_the_module() {
    assert_eq!(paths_of("use super::c::X;", &["a", "b"]), strs(&["a::c::X"]));
    assert_eq!(paths_of("use super::super::d;", &["a", "b"]), strs(&["d"]));
    assert_eq!(paths_of("fn f() { super::super::yaml::parse() }", &["a", "b", "c"]), strs(&["a::yaml::parse"]));
    assert_eq!(paths_of("use self::child::Y;", &["a"]), strs(&["a::child::Y"]));
    assert_eq!(paths_of("use super::{self, Z};", &["a", "b"]), strs(&["a", "a::Z"]));
    // Too many supers: no reference.
    assert!(paths_of("use super::super::x;", &["a"]).is_empty());
    // Inside an inline module, `super` is the file's module.
    assert_eq!(
        paths_of("mod imp {\n    use super::Error;\n}\nuse super::Other;", &["r", "cel"]),
        strs(&["r::cel::Error", "r::Other"])
    );
    // Paths in code, `$crate` in macros; visibility is not a reference.
    assert_eq!(
        paths_of(
            "let x = crate::a::b::C::new(); $crate::m::f!(); pub(in crate::z) fn g() {} pub(crate) fn h() {}",
            &["q"]
        ),
        strs(&["a::b::C::new", "m::f"])
    );
}

#[test]
fn references_resolve_to_the_longest_module_and_through_imports() {
    let r = |path: &[&str], relative_from| RawRef { path: strs(path), line: 1, relative_from, binds: None };
    let imports = |pairs: &[(&str, RawRef)]| pairs.iter().map(|(n, r)| (n.to_string(), r.clone())).collect();
    let krate = Crate {
        modules: ["", "a", "a::b", "a::c", "diagnostic"].into_iter().map(String::from).collect(),
        imports: [
            // lib.rs: `pub use diagnostic::Location;`
            ("".to_string(), imports(&[("Location", r(&["diagnostic", "Location"], Some(0)))])),
            // a/mod.rs: `pub use b::Thing; use serde::Serialize;`
            (
                "a".to_string(),
                imports(&[
                    ("Thing", r(&["a", "b", "Thing"], Some(1))),
                    ("Serialize", r(&["a", "serde", "Serialize"], Some(1))),
                ]),
            ),
        ]
        .into_iter()
        .collect(),
    };
    assert_eq!(krate.resolve(&r(&["a", "b", "Type", "method"], None)), Some("a::b".into()));
    assert_eq!(krate.resolve(&r(&["a", "x"], None)), Some("a".into()));
    assert_eq!(krate.resolve(&r(&["Location"], None)), Some("diagnostic".into()));
    assert_eq!(krate.resolve(&r(&["Unknown"], None)), Some("".into()));
    // `super::Thing` written in `a::c` is `a::b`'s `Thing`, re-exported by `a`.
    assert_eq!(krate.resolve(&r(&["a", "Thing", "new"], None)), Some("a::b".into()));
    // A re-export of an external crate's item stays with the re-exporting module.
    assert_eq!(krate.resolve(&r(&["a", "Serialize"], None)), Some("a".into()));
    // `use b::X` written in `a` names the child module; `use std::fmt` in `a` names none.
    assert_eq!(krate.resolve(&r(&["a", "b", "X"], Some(1))), Some("a::b".into()));
    assert_eq!(krate.resolve(&r(&["a", "std", "fmt"], Some(1))), None);
    // Bindings are recorded for top-level `use` only.
    let binds: Vec<Option<String>> =
        references("use crate::a::X;\nfn f() { use crate::a::Y; }\nmod m { use crate::a::Z; }", &[])
            .into_iter()
            .map(|r| r.binds)
            .collect();
    assert_eq!(binds, vec![Some("X".to_string()), None, None]);
}

#[test]
fn test_only_code_is_blanked() {
    let src = "use crate::kept;\n#[cfg(test)]\nmod tests {\n    use crate::gone1;\n    fn f() { { crate::gone2(); } }\n}\n\
               #[cfg(all(test, feature = \"x\"))]\n#[allow(dead_code)]\nmod more { use crate::gone3; }\n\
               #[cfg(not(test))]\nuse crate::kept2;\n#[cfg(any(test, feature = \"y\"))]\nuse crate::kept3;\n\
               #[cfg(test)]\nmod properties;\n#[cfg(test)] use crate::gone4;\nstruct S { #[cfg(test)] a: crate::gone5::T, b: crate::kept4::U }\n\
               fn last() { crate::kept5(); }\n";
    let (out, test_mods) = blank_test_only(&blank_comments_and_strings(src));
    assert_eq!(out.lines().count(), src.lines().count());
    assert_eq!(test_mods, strs(&["properties"]));
    for gone in ["gone1", "gone2", "gone3", "gone4", "gone5", "mod tests", "mod properties"] {
        assert!(!out.contains(gone), "{gone} should be blanked in:\n{out}");
    }
    for kept in ["kept;", "kept2", "kept3", "kept4", "kept5", "b: crate::kept4::U }"] {
        assert!(out.contains(kept), "{kept} should be kept in:\n{out}");
    }
    // A whole file, or one inline module, marked test-only.
    assert!(!blank_test_only("#![cfg(test)]\nuse crate::x;").0.contains("crate::x"));
    let (inner, _) = blank_test_only("mod t { #![cfg(test)] use crate::x; }\nuse crate::y;");
    assert!(!inner.contains("crate::x") && inner.contains("crate::y"));
    // A string mentioning cfg(test) does not count once strings are blanked.
    let (s, _) = blank_test_only(&blank_comments_and_strings("const S: &str = \"#[cfg(test)]\";\nuse crate::z;"));
    assert!(s.contains("crate::z"));
}

#[test]
fn cycles_are_found_and_descendant_edges_do_not_count() {
    let g = |pairs: &[(&str, &str)]| {
        let mut m: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in pairs {
            m.entry(a.to_string()).or_default().insert(b.to_string());
        }
        m
    };
    assert!(cycles(&g(&[("a", "b"), ("b", "c")])).is_empty());
    let two = g(&[("g::x", "g::y"), ("g::y", "g::x"), ("g::y", "m")]);
    assert_eq!(cycles(&two), vec![strs(&["g::x", "g::y"])]);
    assert_eq!(shortest_cycle(&two, "g::x"), Some(strs(&["g::x", "g::y", "g::x"])));
    let ring = g(&[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "c"), ("e", "a")]);
    assert_eq!(cycles(&ring), vec![strs(&["a", "b", "c", "d"])]);
    assert_eq!(shortest_cycle(&ring, "a"), Some(strs(&["a", "b", "c", "a"])));
    assert_eq!(shortest_cycle(&ring, "d"), Some(strs(&["d", "c", "d"])));

    // Through the checks: a parent using its child is not a cycle; child -> parent plus parent
    // -> elsewhere -> child is.
    let layers = parse_layers("```layers\nhigh: h\nlow: p q\n```").unwrap();
    let source = |file: &str, module: &[&str]| Source { file: file.into(), module: strs(module), code: String::new() };
    let sources = vec![
        source("src/p/mod.rs", &["p"]),
        source("src/p/c.rs", &["p", "c"]),
        source("src/q.rs", &["q"]),
        source("src/h.rs", &["h"]),
    ];
    let edge =
        |file: &str, line, from: &str, to: &str| Edge { file: file.into(), line, from: from.into(), to: to.into() };
    let fine =
        vec![edge("src/p/mod.rs", 1, "p", "p::c"), edge("src/p/c.rs", 2, "p::c", "p"), edge("src/h.rs", 3, "h", "q")];
    assert!(check(&layers, &sources, &fine).is_empty(), "{:?}", check(&layers, &sources, &fine));
    let bad = vec![
        edge("src/p/c.rs", 2, "p::c", "p"),
        edge("src/p/mod.rs", 4, "p", "q"),
        edge("src/q.rs", 5, "q", "p::c"),
        edge("src/q.rs", 6, "q", "h"),
    ];
    let problems = check(&layers, &sources, &bad);
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert_eq!(problems[0], "src/q.rs:6: q -> h runs upward (layer L0 low -> layer L1 high)");
    assert!(problems[1].starts_with("cycle: p -> q -> p::c -> p\n"), "{}", problems[1]);
    assert!(problems[1].contains("src/q.rs:5: q -> p::c"), "{}", problems[1]);
    assert!(problems[2].starts_with("cycle inside layer L0 low: p -> q -> p"), "{}", problems[2]);
    // From source text: siblings using each other through their parent's re-exports.
    let sources = vec![
        Source {
            file: "src/p/mod.rs".into(),
            module: strs(&["p"]),
            code: "mod a;\nmod b;\npub use a::A;\npub use b::B;\n".into(),
        },
        Source { file: "src/p/a.rs".into(), module: strs(&["p", "a"]), code: "use super::B;\n".into() },
        Source {
            file: "src/p/b.rs".into(),
            module: strs(&["p", "b"]),
            code: "\n\nfn f() -> super::A { todo!() }\n".into(),
        },
    ];
    let (_, edges) = crate_edges(&sources);
    let problems = check(&layers, &sources, &edges);
    assert_eq!(
        problems,
        vec!["cycle: p::a -> p::b -> p::a\n      src/p/a.rs:1: p::a -> p::b\n      src/p/b.rs:3: p::b -> p::a"
            .to_string()]
    );
    // A module in no layer.
    let unlisted = vec![source("src/z.rs", &["z"])];
    assert_eq!(
        check(&layers, &unlisted, &[]),
        vec!["src/z.rs: top-level module `z` is in no layer: add it to the ```layers block of ARCHITECTURE.md"
            .to_string()]
    );
}
