//! Applying a [`LintConfig`] to findings, and comparing findings with a baseline.
//!
//! A finding's package is the package of the blob it points into (found by position, so every
//! finding of a blob has one, whichever check made it). Levels apply to lints only: a finding of
//! a lint takes the level its package's settings, the global settings or the default give it
//! (off drops it). A baseline comparison matches findings by their *subject*: the code, the
//! package and the message with any `file:line:col` in it removed, never by position, so edits
//! elsewhere in a file do not make old findings look new.

use crate::hash::{HashMap, HashMapExt};
use std::collections::BTreeMap;

use crate::declcfg::{DeclarativeConfig, Pos};
use crate::diagnostic::{Code, Diagnostic, Location, Severity};
use crate::lint_config::LintConfig;

use super::{Report, Validated};

/// The package of the blob a location points into, per file.
pub struct PackageIndex<'a> {
    by_file: HashMap<&'a str, Vec<(Pos, &'a str)>>,
}

impl<'a> PackageIndex<'a> {
    /// Index the blobs of `cfg` by file and start.
    pub fn new(cfg: &'a DeclarativeConfig) -> PackageIndex<'a> {
        let mut by_file: HashMap<&str, Vec<(Pos, &str)>> = HashMap::new();
        let mut add = |file: &'a str, pos: Pos, package: &'a str| by_file.entry(file).or_default().push((pos, package));
        cfg.packages.iter().for_each(|b| add(&b.source.file, b.source.pos, &b.name.value));
        cfg.channels.iter().for_each(|b| add(&b.source.file, b.source.pos, &b.package.value));
        cfg.bundles.iter().for_each(|b| add(&b.source.file, b.source.pos, &b.package.value));
        cfg.deprecations.iter().for_each(|b| add(&b.source.file, b.source.pos, &b.package.value));
        cfg.others.iter().for_each(|b| add(&b.source.file, b.source.pos, &b.package));
        for blobs in by_file.values_mut() {
            crate::sort::sort(blobs);
        }
        PackageIndex { by_file }
    }

    /// The package of the last blob starting at or before `location` in its file.
    pub fn package(&self, location: &Location) -> Option<&'a str> {
        let blobs = self.by_file.get(location.file.as_str())?;
        let at = Pos::new(location.line, location.column);
        let i = blobs.partition_point(|(pos, _)| *pos <= at);
        let package = blobs.get(i.checked_sub(1)?)?.1;
        (!package.is_empty()).then_some(package)
    }
}

/// Give each lint its configured level (dropping those turned off); other findings are kept as
/// they are.
pub fn apply_levels(diagnostics: &mut Vec<Diagnostic>, config: &LintConfig, index: &PackageIndex<'_>) {
    diagnostics.retain_mut(|d| {
        if !d.code.is_lint() {
            return true;
        }
        match config.level(d.code, index.package(&d.location)).severity() {
            Some(s) => {
                d.severity = s;
                true
            }
            None => false,
        }
    });
}

/// What a finding is about, independent of where it sits: the code, the package, and the
/// message without locations.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Subject {
    /// The finding's code.
    pub code: Code,
    /// The package of the blob it points into.
    pub package: Option<String>,
    /// The message, `file:line:col` references removed.
    pub message: String,
}

/// `message` without `file:line:col` (or `file:line`) references.
fn strip_locations(message: &str) -> String {
    let is_location = |word: &str| {
        let mut parts = word.trim_end_matches([',', ';', ')', '.']).rsplit(':');
        let numeric = |p: Option<&str>| p.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        numeric(parts.next()) && (numeric(parts.clone().next()) || parts.next().is_some_and(|f| !f.is_empty()))
    };
    message.split(' ').filter(|w| !is_location(w)).collect::<Vec<_>>().join(" ")
}

impl Validated {
    /// The subject of each finding of the report, in order.
    pub fn subjects(&self) -> Vec<Subject> {
        let index = PackageIndex::new(&self.loaded.config);
        self.report
            .diagnostics
            .iter()
            .map(|d| Subject {
                code: d.code,
                package: index.package(&d.location).map(str::to_string),
                message: strip_locations(&d.message),
            })
            .collect()
    }
}

/// The findings of `new` that `baseline` did not have, matched by [`Subject`] (as many times as
/// the baseline has each); `valid` is then whether none of them is an error. `opm_message` is
/// kept: it is about the whole new catalog.
pub fn only_new(new: &Validated, baseline: &Validated) -> Report {
    let mut seen: BTreeMap<Subject, usize> = BTreeMap::new();
    for s in baseline.subjects() {
        *seen.entry(s).or_default() += 1;
    }
    let mut diagnostics = Vec::new();
    for (d, s) in new.report.diagnostics.iter().zip(new.subjects()) {
        match seen.get_mut(&s) {
            Some(n) if *n > 0 => *n -= 1,
            _ => diagnostics.push(d.clone()),
        }
    }
    let valid = !diagnostics.iter().any(|d| d.severity == Severity::Error);
    Report { valid, diagnostics, opm_message: new.report.opm_message.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::FileInput;
    use crate::lint_config::Level;
    use crate::validate::{validate_files_with, Options};

    #[test]
    fn locations_are_stripped_from_messages() {
        assert_eq!(strip_locations("first defined at a/b.yaml:3:7, again"), "first defined at again");
        assert_eq!(strip_locations("see c.json:12."), "see");
        assert_eq!(strip_locations("version 1.2.3 replaces 1.2.2: ok"), "version 1.2.3 replaces 1.2.2: ok");
    }

    /// Two packages: `foo`'s head 0.2.0 is not its highest version (head-not-highest), `bar` has
    /// the same problem.
    fn catalog(extra_foo_bundle: bool) -> Vec<FileInput> {
        let pkg = |p: &str, head: &str, more: &str| {
            format!(
                r#"{{"schema":"olm.package","name":"{p}","defaultChannel":"stable"}}
{{"schema":"olm.channel","package":"{p}","name":"stable","entries":[{{"name":"{p}.v0.3.0"}},{{"name":"{p}.v0.2.0","replaces":"{p}.v0.3.0"}}{more}]}}
{{"schema":"olm.bundle","name":"{p}.v0.3.0","package":"{p}","image":"{p}:3","properties":[{{"type":"olm.package","value":{{"packageName":"{p}","version":"0.3.0"}}}}]}}
{{"schema":"olm.bundle","name":"{p}.v0.2.0","package":"{p}","image":"{p}:2","properties":[{{"type":"olm.package","value":{{"packageName":"{p}","version":"{head}"}}}}]}}
"#
            )
        };
        let mut foo = pkg("foo", "0.2.0", "");
        if extra_foo_bundle {
            foo = pkg("foo", "0.2.0", r#",{"name":"foo.v0.1.0","replaces":"foo.v0.2.0"}"#);
            foo.push_str(r#"{"schema":"olm.bundle","name":"foo.v0.1.0","package":"foo","image":"foo:1","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"0.1.0"}}]}"#);
        }
        vec![
            FileInput::new("foo/catalog.json", foo.into_bytes()),
            FileInput::new("bar/catalog.json", pkg("bar", "0.2.0", "").into_bytes()),
        ]
    }

    fn codes(r: &Report) -> Vec<(String, Severity)> {
        r.diagnostics.iter().map(|d| (format!("{}:{}", d.location.file, d.code), d.severity)).collect()
    }

    fn with(config: LintConfig) -> Validated {
        validate_files_with(&catalog(false), Options { config, ..Options::default() })
    }

    #[test]
    fn findings_belong_to_the_package_of_their_blob() {
        let v = with(LintConfig::default());
        let packages: Vec<_> = v.subjects().into_iter().map(|s| s.package.unwrap_or_default()).collect();
        assert_eq!(packages, ["bar", "bar", "bar", "foo", "foo", "foo"]);
    }

    #[test]
    fn levels_apply_per_package() {
        let plain = with(LintConfig::default());
        assert_eq!(
            codes(&plain.report),
            [
                ("bar/catalog.json:unreachable-entry".into(), Severity::Note),
                ("bar/catalog.json:head-not-highest".into(), Severity::Warning),
                ("bar/catalog.json:version-goes-backwards".into(), Severity::Warning),
                ("foo/catalog.json:unreachable-entry".into(), Severity::Note),
                ("foo/catalog.json:head-not-highest".into(), Severity::Warning),
                ("foo/catalog.json:version-goes-backwards".into(), Severity::Warning),
            ]
        );
        let mut config = LintConfig::default();
        config.lints.insert(Code::HeadNotHighest, Level::Error);
        config.lints.insert(Code::UnreachableEntry, Level::Off);
        config.packages.entry("foo".into()).or_default().insert(Code::HeadNotHighest, Level::Off);
        config.packages.entry("foo".into()).or_default().insert(Code::VersionGoesBackwards, Level::Note);
        let v = with(config);
        assert_eq!(
            codes(&v.report),
            [
                ("bar/catalog.json:head-not-highest".into(), Severity::Error),
                ("bar/catalog.json:version-goes-backwards".into(), Severity::Warning),
                ("foo/catalog.json:version-goes-backwards".into(), Severity::Note),
            ]
        );
        // A lint raised to an error fails the run.
        assert!(!v.report.valid);
    }

    #[test]
    fn a_baseline_hides_what_it_already_had() {
        let old = with(LintConfig::default());
        assert!(only_new(&old, &old).diagnostics.is_empty());
        // The new catalog adds a bundle to foo (moving later blobs): only the findings about it
        // are reported, not bar's nor foo's unchanged ones.
        let new = validate_files_with(&catalog(true), Options::default());
        let fresh = only_new(&new, &old);
        let messages: Vec<_> = fresh.diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(messages.iter().all(|m| m.contains("\"foo.v0.1.0\"")), "{messages:?}");
        assert!(fresh.valid);
    }
}
