//! Differential tests of the two YAML paths: generated documents, random line soup, mutated
//! catalog documents and arbitrary text must either make the fast path bail or get exactly the
//! event path's answer; every document of the real catalogs under `../shared/catalogs` must
//! agree, and the community catalogs must mostly take the fast path. Also a timing of both
//! paths on community-v4.20 (printed, not asserted).
//!
//! The tests that read whole catalogs or time things take a lock, so they run one at a time.

use super::events::parse_document;
use super::fast::tests::{same, with_checked_values};
use super::fast::{parse_fast, parse_fast_checking};
use super::{split_documents, Document};
use crate::test_rng::Rng;

/// Either bails or agrees with the slow path.
#[track_caller]
fn assert_consistent(src: &str) -> bool {
    let doc = Document::new(src, 3);
    // With `olm.csv.metadata` values checked rather than built, and read back from their text
    // (one whose null a later duplicate key replaced is not used: the loader reads the tree).
    if let Some((node, checked)) = parse_fast_checking(&doc) {
        let whole = match node {
            None => Some(None),
            Some(n) => with_checked_values(n, &doc, checked).map(Some),
        };
        if let Some(whole) = whole {
            let slow = parse_document(&doc);
            assert!(same(&Ok(whole), &slow), "different results for {src:?} with checked values\nslow: {slow:#?}");
        }
    }
    match parse_fast(&doc) {
        None => false,
        Some(fast) => {
            let slow = parse_document(&doc);
            assert!(same(&fast, &slow), "different results for {src:?}\nfast: {fast:#?}\nslow: {slow:#?}");
            true
        }
    }
}

const WORDS: &[&str] = &[
    "a",
    "b",
    "name",
    "x y",
    "yes",
    "no",
    "~",
    "null",
    "1",
    "-2",
    "0x1F",
    "1.5",
    "1e3",
    ".inf",
    "é",
    "ü x",
    "a:b",
    "a#b",
    "-x",
    "2001-12-14",
    "<<",
    "'",
    "\"",
    "#",
    "|",
    ">",
    "-",
    "[]",
    "{}",
    "[",
    "}",
    "&a",
    "*a",
    "!t",
    "%",
    "@",
    "`",
    "?",
    ":",
    "x ",
    " x",
    "",
    "a'b",
    "a\"b",
    "\\",
    "\\n",
    "\\x41",
    "\\u00e9",
    "\\",
    "''",
    "\t",
];

fn gen_scalar(r: &mut Rng, ind: usize) -> String {
    let pad = " ".repeat(ind + 1 + r.below(3));
    match r.below(10) {
        0..=2 => (0..1 + r.below(3)).map(|_| r.pick(WORDS)).collect::<Vec<_>>().join(" "),
        3 => {
            let mut s = r.pick(WORDS).to_string();
            for _ in 0..1 + r.below(3) {
                s.push('\n');
                for _ in 0..r.below(2) {
                    s.push_str(&" ".repeat(r.below(ind + 3)));
                    s.push('\n');
                }
                s.push_str(&pad);
                s.push_str(r.pick(WORDS));
            }
            s
        }
        4 | 5 => {
            let q = if r.below(2) == 0 { '\'' } else { '"' };
            let mut s = String::new();
            s.push(q);
            for _ in 0..1 + r.below(4) {
                match r.below(6) {
                    0 => {
                        s.push_str(&" ".repeat(r.below(3)));
                        s.push('\n');
                        if r.below(3) == 0 {
                            s.push_str(&" ".repeat(r.below(4)));
                            s.push('\n');
                        }
                        s.push_str(&pad);
                    }
                    1 if q == '"' => s.push_str(r.pick(&["\\\n", "\\t", "\\\"", "\\\\", "\\u0041", "\\ ", "\\N"])),
                    1 => s.push_str("''"),
                    _ => s.push_str(r.pick(WORDS)),
                }
            }
            s.push(q);
            s
        }
        6 | 7 => {
            let mut s = r.pick(&["|", ">", "|-", ">-", "|+", ">+", "|2", ">1-", "|-1"]).to_string();
            if r.below(4) == 0 {
                s.push_str(" # c");
            }
            for _ in 0..1 + r.below(4) {
                s.push('\n');
                match r.below(5) {
                    0 => s.push_str(&" ".repeat(r.below(ind + 6))),
                    1 => {
                        s.push_str(&pad);
                        s.push_str("  ");
                        s.push_str(r.pick(WORDS));
                    }
                    _ => {
                        s.push_str(&pad);
                        s.push_str(r.pick(WORDS));
                    }
                }
            }
            s
        }
        8 => r.pick(&["[]", "{}", "[ ]", "''", "\"\""]).to_string(),
        _ => String::new(),
    }
}

fn gen_node(r: &mut Rng, ind: usize, depth: usize, out: &mut String) {
    let pad = " ".repeat(ind);
    let entries = 1 + r.below(3);
    if depth > 3 || r.below(3) == 0 {
        // sequence
        for _ in 0..entries {
            out.push_str(&pad);
            out.push_str("- ");
            if r.below(3) == 0 && depth < 4 {
                let mut inner = String::new();
                gen_node(r, ind + 2, depth + 1, &mut inner);
                out.push_str(inner.trim_start_matches(' '));
            } else {
                out.push_str(&gen_scalar(r, ind));
                out.push('\n');
            }
            if r.below(8) == 0 {
                out.push_str(&" ".repeat(r.below(6)));
                out.push_str(r.pick(&["# c\n", "\n"]));
            }
        }
    } else {
        for _ in 0..entries {
            out.push_str(&pad);
            let key = r.pick(&["a", "b", "key", "'q'", "\"d\"", "1", "yes", "é", "k k"]);
            out.push_str(key);
            out.push(':');
            match r.below(5) {
                0 if depth < 4 => {
                    out.push('\n');
                    let child = if r.below(3) == 0 { ind } else { ind + 1 + r.below(3) };
                    gen_node(r, child, depth + 1, out);
                }
                1 => out.push_str(r.pick(&["\n", " # c\n"])),
                _ => {
                    out.push(' ');
                    out.push_str(&gen_scalar(r, ind));
                    out.push('\n');
                }
            }
        }
    }
}

const MUTATIONS: &[&str] = &[
    " ", "  ", "\n", ":", "- ", "-", "#", "'", "\"", "|", ">", "a", "\t", "[", "]", "{", "}", "\\", "&", "*", "!", "?",
    "é", ",", "\n  ", ": ",
];

/// The tests that read whole catalogs or time things run one at a time.
static HEAVY: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn heavy() -> std::sync::MutexGuard<'static, ()> {
    HEAVY.lock().unwrap_or_else(|e| e.into_inner())
}

/// Apply a few random edits at character boundaries: insert a token, delete a character,
/// re-indent a line, or duplicate a line.
fn mutate(r: &mut Rng, src: &mut String) {
    for _ in 0..1 + r.below(3) {
        let bounds: Vec<usize> = (0..=src.len()).filter(|&i| src.is_char_boundary(i)).collect();
        let at = bounds[r.below(bounds.len())];
        match r.below(6) {
            0 => {
                let end = bounds.iter().copied().find(|&b| b > at).unwrap_or(at);
                src.replace_range(at..end, "");
            }
            1 => {
                // Re-indent the line holding `at`.
                let ls = src[..at].rfind('\n').map_or(0, |i| i + 1);
                if r.below(2) == 0 {
                    src.insert_str(ls, &" ".repeat(1 + r.below(2)));
                } else if src[ls..].starts_with(' ') {
                    src.remove(ls);
                }
            }
            2 => {
                let ls = src[..at].rfind('\n').map_or(0, |i| i + 1);
                let le = src[at..].find('\n').map_or(src.len(), |i| at + i + 1);
                let line = src[ls..le].to_string();
                src.insert_str(le, &line);
            }
            _ => src.insert_str(at, r.pick(MUTATIONS)),
        }
    }
    if !src.ends_with('\n') {
        src.push('\n');
    }
}

#[test]
fn random_documents_agree_or_bail() {
    let _g = heavy();
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut fast, mut total) = (0, 0);
    for round in 0..30_000 {
        let mut src = String::new();
        gen_node(&mut r, 0, 0, &mut src);
        if round % 2 == 1 {
            mutate(&mut r, &mut src);
        }
        total += 1;
        if assert_consistent(&src) {
            fast += 1;
        }
    }
    println!("random documents: {fast} of {total} on the fast path");
    assert!(fast * 5 > total, "the generator should mostly stay in the subset ({fast} of {total})");
}

const LINES: &[&str] = &[
    "a: 1",
    "b: two words",
    "key:",
    "k2: |",
    "k3: >-",
    "k4: |+",
    "k5: |2",
    "- x",
    "- a: 1",
    "- - y",
    "-",
    "- |",
    "text",
    "more text",
    "# comment",
    "",
    "   ",
    "'single",
    "quoted'",
    "\"double \\",
    "end\"",
    "k6: 'multi",
    "line'",
    "k7: \"open",
    "k8: []",
    "- {}",
    "x: y: z",
    "k9: a # c",
    "k10: 'q' # c",
    "\"qk\": v",
    "'sk': v",
    "é: ü",
    "k11: yes",
    "k12: ~",
    "k13: -1",
    "  deeper: 1",
    "k14: \"a\\\"\"",
    "k15: ''''",
    "...x",
    "k16: ':'",
    "- 'a': b",
    "- \"b\"",
    "k17:   ",
    "  - z",
    "    w",
    "k18: >",
    "k19: |-",
    "- >+",
];

#[test]
fn random_line_soup_agrees_or_bails() {
    let _g = heavy();
    let mut r = Rng(0x2545_f491_4f6c_dd1d);
    let (mut fast, mut total) = (0, 0);
    for round in 0..60_000 {
        let mut src = String::new();
        let mut ind = 0usize;
        for _ in 0..1 + r.below(8) {
            match r.below(6) {
                0 => ind += 2,
                1 => ind = ind.saturating_sub(2),
                2 => ind = r.below(5),
                _ => {}
            }
            src.push_str(&" ".repeat(ind));
            src.push_str(r.pick(LINES));
            src.push('\n');
        }
        if round % 3 == 2 {
            mutate(&mut r, &mut src);
        }
        total += 1;
        if assert_consistent(&src) {
            fast += 1;
        }
    }
    println!("line soup: {fast} of {total} on the fast path");
    assert!(fast * 20 > total, "the generator should reach the fast path ({fast} of {total})");
}

#[test]
fn mutated_catalog_documents_agree_or_bail() {
    let _g = heavy();
    let dir = catalog_root().join("fbc/community-v4.20");
    assert!(dir.is_dir(), "missing {}", dir.display());
    let mut files = Vec::new();
    files_under(&dir, &mut files);
    let mut samples: Vec<String> = Vec::new();
    for f in files.iter().take(12) {
        let text = std::fs::read_to_string(f).expect("utf-8 catalog");
        for doc in split_documents(&text, 1).expect("documents").iter().take(6) {
            // Keep the samples small so that every edit matters.
            let cut = doc.text.char_indices().map(|(i, _)| i).find(|&i| i >= 3000).unwrap_or(doc.text.len());
            let head = &doc.text[..cut];
            let head = &head[..head.rfind('\n').map_or(0, |i| i + 1)];
            samples.push(head.to_string());
        }
    }
    let mut r = Rng(0xdead_beef_cafe_f00d);
    let (mut fast, mut total) = (0, 0);
    for round in 0..20_000 {
        let mut src = samples[round % samples.len()].clone();
        mutate(&mut r, &mut src);
        total += 1;
        if assert_consistent(&src) {
            fast += 1;
        }
    }
    println!("mutated catalog documents: {fast} of {total} on the fast path");
    assert!(fast * 4 > total, "most edits should stay in the subset ({fast} of {total})");
}

#[test]
fn arbitrary_text_agrees_or_bails() {
    const CHARS: &[char] = &[
        ' ', ' ', ' ', '\n', '\n', 'a', 'b', '1', ':', '-', '#', '\'', '"', '\\', '|', '>', '[', ']', '{', '}', ',',
        '?', '&', '*', '!', '%', '@', '`', '.', '~', '\t', '\r', '\0', '\u{1}', '\u{7f}', '\u{85}', '\u{a0}', 'é',
        '\u{2028}', '\u{feff}', '\u{ffff}', '😀', '+', '<', 'x', 'n', 'u', 'U',
    ];
    let mut r = Rng(0x0123_4567_89ab_cdef);
    for _ in 0..20_000 {
        let len = r.below(60);
        let mut src: String = (0..len).map(|_| CHARS[r.below(CHARS.len())]).collect();
        if r.below(4) != 0 {
            src.push('\n');
        }
        assert_consistent(&src);
    }
}

fn catalog_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/catalogs")
}

fn files_under(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    crate::sort::sort(&mut entries);
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// (document bytes, bytes on the fast path) for every file under `dir`, checking that
/// every fast answer is the slow one.
fn differential(dir: &std::path::Path) -> (usize, usize) {
    assert!(dir.is_dir(), "missing catalog directory {}", dir.display());
    let mut files = Vec::new();
    files_under(dir, &mut files);
    assert!(!files.is_empty(), "no files under {}", dir.display());
    let (mut total, mut fast) = (0usize, 0usize);
    for f in files {
        let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("cannot read {}: {e}", f.display()));
        let text = String::from_utf8_lossy(&bytes);
        let docs = match split_documents(&text, 1) {
            Ok(docs) => docs,
            Err(e) => {
                // The loader reports these before any document is parsed.
                println!("{}: not split into documents: {}", f.display(), e.message);
                continue;
            }
        };
        for doc in &docs {
            total += doc.text.len();
            if let Some(got) = parse_fast(doc) {
                let want = parse_document(doc);
                assert!(same(&got, &want), "{} line {}: fast path differs", f.display(), doc.first_line);
                fast += doc.text.len();
            }
        }
    }
    (total, fast)
}

#[test]
fn real_catalogs_agree_and_mostly_take_the_fast_path() {
    let _g = heavy();
    let root = catalog_root();
    let fbc = root.join("fbc");
    assert!(fbc.is_dir(), "missing catalog directory {}", fbc.display());
    // Every catalog under fbc, and the templates; the two community catalogs must be there.
    let mut dirs: Vec<String> = std::fs::read_dir(&fbc)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", fbc.display()))
        .map(|e| format!("fbc/{}", e.expect("directory entry").file_name().to_string_lossy()))
        .collect();
    crate::sort::sort(&mut dirs);
    dirs.push("templates".to_string());
    for must in ["fbc/community-v4.20", "fbc/community-v4.16"] {
        assert!(dirs.iter().any(|d| d == must), "missing {must}");
    }
    for sub in &dirs {
        let (total, fast) = differential(&root.join(sub));
        let share = if total == 0 { 1.0 } else { fast as f64 / total as f64 };
        println!("{sub}: {fast} of {total} document bytes on the fast path ({:.2}%)", share * 100.0);
        if sub.starts_with("fbc/community-") {
            assert!(share >= 0.95, "{sub}: only {:.2}% on the fast path", share * 100.0);
        }
    }
}

#[test]
fn timing_community_v4_20() {
    let _g = heavy();
    let dir = catalog_root().join("fbc/community-v4.20");
    assert!(dir.is_dir(), "missing {}", dir.display());
    let mut files = Vec::new();
    files_under(&dir, &mut files);
    let texts: Vec<String> = files.iter().map(|f| std::fs::read_to_string(f).expect("utf-8 catalog")).collect();
    let docs: Vec<Document<'_>> = texts.iter().flat_map(|t| split_documents(t, 1).expect("documents")).collect();
    let bytes: usize = docs.iter().map(|d| d.text.len()).sum();
    let mb = bytes as f64 / 1e6;
    let time = |f: &dyn Fn(&Document<'_>) -> usize| {
        let mut best = f64::MAX;
        for _ in 0..5 {
            let t = std::time::Instant::now();
            let n: usize = docs.iter().map(f).sum();
            std::hint::black_box(n);
            best = best.min(t.elapsed().as_secs_f64());
        }
        best
    };
    let fast = time(&|d| match parse_fast(d) {
        Some(Ok(Some(_))) => 1,
        _ => 0,
    });
    let slow = time(&|d| usize::from(parse_document(d).is_ok()));
    let combined = time(&|d| usize::from(parse_fast(d).unwrap_or_else(|| parse_document(d)).is_ok()));
    println!(
        "community-v4.20, {mb:.1} MB: parse_fast {:.0} MB/s ({:.1} ms), parse_document {:.0} MB/s ({:.1} ms), fast with fallback {:.0} MB/s ({:.1} ms)",
        mb / fast,
        fast * 1e3,
        mb / slow,
        slow * 1e3,
        mb / combined,
        combined * 1e3
    );
}
