//! A [`Session`]'s report equals a full validation of the edited catalog after every edit: many
//! deterministic random edits of real catalogs (versions changed, channel entries deleted, YAML
//! broken, packages renamed, blobs moved between files, files added and removed, `.indexignore`
//! files written), each followed by a comparison with `validate_files_with` on the same files —
//! findings, their order, the verdict and opm's message.
//!
//! `SESSION_EDITS` sets the number of edits per catalog (default 150 in release builds, 24 in
//! debug builds), every kind of edit first; `SESSION_SEED` the seed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use olm_catalog::validate::{validate_files_with, LintConfig, Options, Session};
use olm_catalog::{read_catalog, Code, FileInput, Report};

fn fbc_dir() -> PathBuf {
    std::env::var_os("CATALOGS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc"))
}

/// SplitMix64: a deterministic stream for the edits.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// One change to the catalog.
#[derive(Debug, Clone)]
enum Op {
    Update(String, String),
    Remove(String),
}

impl Op {
    fn summary(&self) -> String {
        match self {
            Op::Update(p, c) => format!("update {p} ({} bytes)", c.len()),
            Op::Remove(p) => format!("remove {p}"),
        }
    }
}

/// The catalog's files as text (these catalogs are UTF-8), and the originals to go back to.
struct Catalog {
    files: BTreeMap<String, String>,
    original: BTreeMap<String, String>,
}

impl Catalog {
    fn inputs(&self) -> Vec<FileInput> {
        self.files.iter().map(|(p, c)| FileInput::new(p.clone(), c.as_bytes())).collect()
    }

    fn apply(&mut self, op: &Op) {
        match op {
            Op::Update(p, c) => {
                self.files.insert(p.clone(), c.clone());
            }
            Op::Remove(p) => {
                self.files.remove(p);
            }
        }
    }

    fn paths(&self) -> Vec<String> {
        self.files.keys().cloned().collect()
    }

    fn catalog_paths(&self) -> Vec<String> {
        self.files.keys().filter(|p| !p.ends_with(".indexignore")).cloned().collect()
    }

    /// Package names written as `package: NAME` anywhere.
    fn package_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .files
            .values()
            .flat_map(|t| t.lines().filter_map(|l| l.strip_prefix("package: ").map(str::to_string)))
            .collect();
        names.sort();
        names.dedup();
        names
    }
}

/// The `---`-separated documents of a YAML text.
fn documents(text: &str) -> Vec<String> {
    text.split("\n---\n").map(str::to_string).collect()
}

/// Replace one random line among those `matching`, with `f` of it (`None`: delete it).
fn edit_line(rng: &mut Rng, text: &str, matching: impl Fn(&str) -> bool, f: impl Fn(&str) -> Option<String>) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let candidates: Vec<usize> = (0..lines.len()).filter(|&i| matching(lines[i])).collect();
    if candidates.is_empty() {
        return text.to_string();
    }
    let at = *rng.pick(&candidates);
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    for (i, l) in lines.iter().enumerate() {
        if i != at {
            out.push(l.to_string());
        } else if let Some(n) = f(l) {
            out.push(n);
        }
    }
    out.join("\n")
}

/// The value part of a `key: value` line, replaced.
fn with_value(line: &str, value: &str) -> String {
    match line.find(": ") {
        Some(i) => format!("{}: {value}", &line[..i]),
        None => line.to_string(),
    }
}

/// How many kinds of edit [`random_edit`] makes (the last: undoing earlier ones).
const KINDS: usize = 16;

/// An edit of `kind` (`None`: a random one, undoing earlier ones 30 % of the time), one or two
/// operations; its description names it in failures.
fn random_edit(rng: &mut Rng, cat: &Catalog, kind: Option<usize>) -> (String, Vec<Op>) {
    let paths = cat.catalog_paths();
    let path = rng.pick(&paths).clone();
    let text = cat.files[&path].clone();
    let dir = path.rsplit_once('/').map(|(d, _)| d.to_string()).unwrap_or_default();
    let names = cat.package_names();
    let update = |t: String| vec![Op::Update(path.clone(), t)];
    let kind = kind.unwrap_or_else(|| if rng.chance(30) { KINDS - 1 } else { rng.below(KINDS - 1) });
    if kind == KINDS - 1 {
        return restore(rng, cat);
    }
    match kind {
        0 => {
            let v = *rng.pick(&["1.0", "9.9.9", "0.0.1-rc.1", "x", "2.0.0+build", "''"]);
            // A bundle's version (the line after `packageName`), else any `version:` line.
            let lines: Vec<&str> = text.split('\n').collect();
            let after_name: Vec<usize> = (1..lines.len())
                .filter(|&i| lines[i - 1].contains("packageName: ") && lines[i].contains("version: "))
                .collect();
            let edited = if after_name.is_empty() || rng.chance(20) {
                edit_line(rng, &text, |l| l.contains("version: "), |l| Some(with_value(l, v)))
            } else {
                let at = *rng.pick(&after_name);
                let mut lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                lines[at] = with_value(&lines[at], v);
                lines.join("\n")
            };
            ("change a version".into(), update(edited))
        }
        1 => (
            "delete a channel entry line".into(),
            update(edit_line(rng, &text, |l| l.starts_with("- name: ") || l.contains("replaces: "), |_| None)),
        ),
        2 => {
            let junk = *rng.pick(&["  broken: [\n", "--- junk\n", "\t- tab\n", "key: 'unterminated\n", "{\n"]);
            let at = rng.below(text.len());
            let at = text[..at].rfind('\n').map(|i| i + 1).unwrap_or(0);
            ("break the YAML".into(), update(format!("{}{junk}{}", &text[..at], &text[at..])))
        }
        3 => {
            let Some(old) = text.lines().find_map(|l| l.strip_prefix("package: ")) else {
                return ("no package to rename".into(), Vec::new());
            };
            let new = match rng.below(3) {
                0 => rng.pick(&names).clone(),
                1 => format!("{old}-renamed"),
                _ => "Bad_Name".to_string(),
            };
            let renamed = text
                .replace(&format!("package: {old}\n"), &format!("package: {new}\n"))
                .replace(&format!("name: {old}\n"), &format!("name: {new}\n"))
                .replace(&format!("packageName: {old}\n"), &format!("packageName: {new}\n"));
            (format!("rename package {old} to {new}"), update(renamed))
        }
        4 => {
            let docs = documents(&text);
            let doc = rng.pick(&docs).clone();
            let new = format!("{}/extra-{}.yaml", if rng.chance(50) { dir.as_str() } else { "new" }, rng.below(4));
            (format!("add a file {new}"), vec![Op::Update(new.trim_start_matches('/').to_string(), doc)])
        }
        5 => (format!("remove {path}"), vec![Op::Remove(path.clone())]),
        6 => {
            let all = cat.paths();
            let target = rng.pick(&all).clone();
            let pattern = match rng.below(6) {
                0 => format!("{dir}/"),
                1 => target.clone(),
                2 => format!("!{target}"),
                3 => "*.json".to_string(),
                4 => "catalog.yaml\n!".to_string() + &target,
                _ => "# only a comment".to_string(),
            };
            let at = if rng.chance(50) { ".indexignore".to_string() } else { format!("{dir}/.indexignore") };
            (format!("write {at}: {pattern:?}"), vec![Op::Update(at, pattern)])
        }
        7 => {
            // Move one document to another file: two updates.
            let docs = documents(&text);
            if docs.len() < 2 {
                return ("nothing to move".into(), Vec::new());
            }
            let i = rng.below(docs.len());
            let moved = docs[i].clone();
            let rest: Vec<String> = docs.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, d)| d.clone()).collect();
            let to = rng.pick(&paths).clone();
            let target = if to == path { rest.join("\n---\n") } else { cat.files[&to].clone() };
            let sep = if target.ends_with('\n') { "---\n" } else { "\n---\n" };
            (
                format!("move document {i} of {path} to {to}"),
                vec![Op::Update(path.clone(), rest.join("\n---\n")), Op::Update(to, format!("{target}{sep}{moved}"))],
            )
        }
        8 => (
            "change a default channel".into(),
            update(edit_line(rng, &text, |l| l.starts_with("defaultChannel: "), |l| Some(with_value(l, "nowhere")))),
        ),
        9 => {
            let pkg = if rng.chance(30) { String::new() } else { rng.pick(&names).clone() };
            let name = text.lines().find_map(|l| l.strip_prefix("name: ")).unwrap_or("x").to_string();
            let schema = *rng.pick(&["olm.bundle", "olm.channel", "olm.package", "olm.other", ""]);
            let doc = format!(
                "schema: olm.deprecations\npackage: {pkg:?}\nentries:\n- reference:\n    schema: {schema:?}\n    name: {name:?}\n  message: gone\n"
            );
            let at = format!("deprecations/{}.yaml", rng.below(3));
            (format!("deprecate {schema} {name} of {pkg:?} in {at}"), vec![Op::Update(at, doc)])
        }
        10 => (
            "set an invalid image".into(),
            update(edit_line(rng, &text, |l| l.starts_with("image: "), |l| Some(with_value(l, "Not A Valid::Image")))),
        ),
        11 => {
            let json = format!(
                "{{\"schema\":\"olm.bundle\",\"package\":{:?},\"name\":\"stray.v1.0.0\",\"image\":\"quay.io/x/y:1\",\"properties\":[]}}\n{{\"schema\":1}}\n",
                rng.pick(&names)
            );
            ("add a JSON file".into(), vec![Op::Update(format!("{dir}/stray.json"), json)])
        }
        12 => {
            let docs = documents(&text);
            let i = rng.below(docs.len());
            let rest: Vec<String> = docs.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, d)| d.clone()).collect();
            (format!("delete document {i}"), update(rest.join("\n---\n")))
        }
        13 => (
            "change a skipRange".into(),
            update(edit_line(rng, &text, |l| l.contains("skipRange: "), |l| Some(with_value(l, "'>=1.0.0 <x'")))),
        ),
        _ => {
            let blank = *rng.pick(&["", "---\n", "# nothing\n", "null\n", "[]\n"]);
            (format!("add an empty-ish file {blank:?}"), vec![Op::Update(format!("{dir}/blank.yaml"), blank.into())])
        }
    }
}

/// Undo the changes to one file (restore its text, bring it back, or remove it if it is new),
/// so that the catalog does not decay: then every change is undone.
fn restore(rng: &mut Rng, cat: &Catalog) -> (String, Vec<Op>) {
    let mut differing: Vec<&String> = cat.files.keys().filter(|p| cat.original.get(*p) != cat.files.get(*p)).collect();
    differing.extend(cat.original.keys().filter(|p| !cat.files.contains_key(*p)));
    if differing.is_empty() {
        return ("nothing to restore".into(), Vec::new());
    }
    if rng.chance(20) {
        let ops = differing
            .iter()
            .map(|p| match cat.original.get(*p) {
                Some(t) => Op::Update(p.to_string(), t.clone()),
                None => Op::Remove(p.to_string()),
            })
            .collect();
        return ("restore every file".into(), ops);
    }
    let p = (*rng.pick(&differing)).clone();
    match cat.original.get(&p) {
        Some(t) => (format!("restore {p}"), vec![Op::Update(p.clone(), t.clone())]),
        None => (format!("remove the new {p}"), vec![Op::Remove(p)]),
    }
}

fn first_difference(got: &Report, want: &Report) -> String {
    if got.valid != want.valid {
        return format!("valid: session {} full {}", got.valid, want.valid);
    }
    if got.opm_message != want.opm_message {
        return format!("opm message:\nsession {:?}\nfull    {:?}", got.opm_message, want.opm_message);
    }
    for (i, (g, w)) in got.diagnostics.iter().zip(&want.diagnostics).enumerate() {
        if g != w {
            return format!("finding {i}:\nsession {g:?}\nfull    {w:?}");
        }
    }
    format!("{} findings in the session, {} in the full run", got.diagnostics.len(), want.diagnostics.len())
}

fn edits() -> usize {
    let default = if cfg!(debug_assertions) { 24 } else { 150 };
    std::env::var("SESSION_EDITS").ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// Run the random edits on one catalog with `options`; returns what kinds of reports were seen.
fn edit_and_compare(name: &str, options: Options, seed: u64) -> Seen {
    let files = read_catalog(&fbc_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let text: BTreeMap<String, String> =
        files.iter().map(|f| (f.path.clone(), String::from_utf8(f.content.clone()).expect("UTF-8"))).collect();
    let mut cat = Catalog { files: text.clone(), original: text };
    let mut session = Session::open(cat.inputs(), options.clone());
    assert_eq!(session.report(), &validate_files_with(&cat.inputs(), options.clone()).report, "{name}: open");
    let seed = std::env::var("SESSION_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(seed);
    let mut rng = Rng(seed);
    let mut seen = Seen::default();
    for n in 0..edits() {
        // Every kind of edit first, in turn, then random ones.
        let (what, ops) = random_edit(&mut rng, &cat, (n < KINDS).then_some(n));
        for op in &ops {
            cat.apply(op);
            let got = match op {
                Op::Update(p, c) => session.update(p, c.as_bytes()),
                Op::Remove(p) => session.remove(p),
            }
            .clone();
            let want = validate_files_with(&cat.inputs(), options.clone()).report;
            assert!(
                got == want,
                "{name}, seed {seed}, edit {n} ({what}), {}: the session differs from a full validation: {}",
                op.summary(),
                first_difference(&got, &want)
            );
            seen.note(&got);
        }
    }
    let session_files: Vec<(String, String)> =
        session.files().map(|(p, c)| (p.to_string(), String::from_utf8_lossy(c).into_owned())).collect();
    let files: Vec<(String, String)> = cat.files.into_iter().collect();
    assert_eq!(session_files, files, "{name}: the session holds the edited files");
    eprintln!("{name}: {} edits, reports seen: {seen:?}", edits());
    seen
}

/// Which kinds of reports the edits led to, so that a run that never leaves the happy path fails.
#[derive(Default, Debug)]
struct Seen {
    valid: usize,
    load_errors: usize,
    conversion_errors: usize,
    tree_messages: usize,
}

impl Seen {
    fn note(&mut self, r: &Report) {
        let has = |code: Code| r.diagnostics.iter().any(|d| d.code == code && d.is_error());
        self.valid += usize::from(r.valid);
        self.load_errors += usize::from(has(Code::YamlSyntax));
        let conversion = [
            Code::InvalidVersion,
            Code::UnknownPackage,
            Code::InvalidPackageName,
            Code::DuplicateBundle,
            Code::DuplicatePackage,
            Code::EntryWithoutBundle,
            Code::BundleNotInChannel,
            Code::InvalidImage,
            Code::DeprecatedNotFound,
            Code::DeprecationNoPackage,
        ];
        self.conversion_errors += usize::from(conversion.into_iter().any(has));
        self.tree_messages += usize::from(r.opm_message.as_deref().is_some_and(|m| m.starts_with("invalid index:")));
    }

    fn assert_varied(&self, name: &str) {
        assert!(
            self.valid > 0 && self.load_errors > 0 && self.conversion_errors > 0,
            "{name}: the edits should reach valid catalogs, load errors and conversion errors: {self:?}"
        );
    }
}

#[test]
fn community_edits_match_a_full_validation() {
    edit_and_compare("community-v4.20", Options::default(), 20).assert_varied("community-v4.20");
}

#[test]
fn openshift_optional_edits_match_a_full_validation() {
    let seen = edit_and_compare("openshift-optional-v4.17", Options::default(), 417);
    seen.assert_varied("openshift-optional-v4.17");
}

#[test]
fn edits_with_per_package_lint_levels_and_olm_v1_match() {
    // Levels differ per package, so a lint's level depends on the blob it points into.
    let yaml = "olmV1: true\nlints:\n  head-not-highest: error\npackages:\n  metallb-operator:\n    head-not-highest: off\n  nfd:\n    olmv1-no-all-namespaces: error\n";
    let config = LintConfig::from_file("config.yaml", yaml.as_bytes()).expect("a valid lint configuration");
    let options = Options { lints: true, config };
    let seen = edit_and_compare("openshift-optional-v4.17", options, 7);
    assert!(seen.valid + seen.load_errors > 0, "{seen:?}");
}

#[test]
fn edits_with_opm_checks_only_match() {
    let seen =
        edit_and_compare("openshift-optional-v4.17", Options { lints: false, config: LintConfig::default() }, 99);
    assert!(seen.tree_messages + seen.conversion_errors > 0, "{seen:?}");
}
