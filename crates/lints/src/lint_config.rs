//! Lint configuration: the level of each lint (off, note, warning, error), globally and per
//! package, the OLM v1 readiness switch, `denyWarnings`, and where catalog templates' bundles are
//! (`bundles`, for the language server's templates), read from a `.olm-catalog.yaml` file
//! (YAML or JSON) or set from command-line `code=level` pairs. This is data: validation applies
//! it to its findings (`validate::apply_levels`). Only lints ([`Code::is_lint`]) are
//! configurable; `opm validate`'s errors stay errors, and naming one is itself an error.
//!
//! ```yaml
//! lints:                  # every package
//!   z-stream-gap: warning
//!   head-not-highest: error
//! packages:               # per package, over `lints`
//!   my-operator:
//!     stranded-entry: off
//! olmV1: true             # the olmv1-* readiness lints (off unless set)
//! denyWarnings: true      # warnings fail the run
//! bundles: [../catalog]   # templates' `--bundles` (paths from this file's folder)
//! ```

use std::collections::BTreeMap;
use std::fmt;

use crate::declcfg::{read_documents, Member, Node, Value};
use crate::diagnostic::{Code, Diagnostic, Location, Severity};

/// How a lint is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Not reported.
    Off,
    /// Reported as a note (never fails a run).
    Note,
    /// Reported as a warning (fails a run with `--deny-warnings`).
    Warning,
    /// Reported as an error: the run fails (the report is not valid).
    Error,
}

impl Level {
    /// The level named `name` (`off`, `note`, `warning`, `error`).
    pub fn from_name(name: &str) -> Option<Level> {
        Some(match name {
            "off" => Level::Off,
            "note" => Level::Note,
            "warning" => Level::Warning,
            "error" => Level::Error,
            _ => return None,
        })
    }

    /// The severity findings get at this level; `None` for off.
    pub fn severity(self) -> Option<Severity> {
        match self {
            Level::Off => None,
            Level::Note => Some(Severity::Note),
            Level::Warning => Some(Severity::Warning),
            Level::Error => Some(Severity::Error),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Off => "off",
            Level::Note => "note",
            Level::Warning => "warning",
            Level::Error => "error",
        })
    }
}

/// The level of a lint nobody configured. Lints that real catalogs opm accepts trip by the
/// hundred are notes (see the table in `docs/diagnostics.md`); the OLM v1 lints only run when
/// switched on, and are warnings then.
pub fn default_level(code: Code) -> Level {
    match code {
        Code::ZStreamGap | Code::UnreachableEntry | Code::SkipRangeCoversNothing => Level::Note,
        _ => Level::Warning,
    }
}

/// Lint levels and switches; the default is every lint at its [`default_level`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LintConfig {
    /// Levels for every package.
    pub lints: BTreeMap<Code, Level>,
    /// Levels for one package, over `lints`.
    pub packages: BTreeMap<String, BTreeMap<Code, Level>>,
    /// Run the OLM v1 readiness lints (`olmv1-*`).
    pub olm_v1: bool,
    /// Warnings fail the run.
    pub deny_warnings: bool,
    /// Where catalog templates' bundle images are looked up (`template --bundles`), as written
    /// (read with the `bundles` feature, which the language server turns on).
    #[cfg(feature = "bundles")]
    pub bundles: Vec<String>,
}

/// Why a `code=level` setting is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingError {
    /// Not `code=level`.
    Syntax(String),
    /// No such code.
    UnknownCode(String),
    /// A code of `opm validate`'s checks: it stays an error.
    NotALint(Code),
    /// Not one of off, note, warning, error.
    UnknownLevel(String),
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingError::Syntax(s) => write!(f, "{s:?} is not code=level"),
            SettingError::UnknownCode(c) => write!(f, "unknown lint {c:?} (see docs/diagnostics.md)"),
            SettingError::NotALint(c) => write!(
                f,
                "{c} is one of opm validate's errors, not a lint: it cannot be configured (only lints can be turned off or re-levelled)"
            ),
            SettingError::UnknownLevel(l) => write!(f, "unknown level {l:?} (expected off, note, warning or error)"),
        }
    }
}

/// The lint code named `name`, refusing codes that are not lints.
pub fn lint_code(name: &str) -> Result<Code, SettingError> {
    let code = Code::from_name(name).ok_or_else(|| SettingError::UnknownCode(name.to_string()))?;
    if code.is_lint() {
        Ok(code)
    } else {
        Err(SettingError::NotALint(code))
    }
}

/// The level named `name`.
pub fn level(name: &str) -> Result<Level, SettingError> {
    Level::from_name(name).ok_or_else(|| SettingError::UnknownLevel(name.to_string()))
}

impl LintConfig {
    /// The level of `code` for findings in `package` (or outside any package).
    pub fn level(&self, code: Code, package: Option<&str>) -> Level {
        package
            .and_then(|p| self.packages.get(p))
            .and_then(|levels| levels.get(&code))
            .or_else(|| self.lints.get(&code))
            .copied()
            .unwrap_or_else(|| default_level(code))
    }

    /// Apply one `code=level` setting (a command-line `--lint`), for every package.
    pub fn set(&mut self, setting: &str) -> Result<(), SettingError> {
        let (code, lvl) = setting.split_once('=').ok_or_else(|| SettingError::Syntax(setting.to_string()))?;
        self.lints.insert(lint_code(code.trim())?, level(lvl.trim())?);
        Ok(())
    }

    /// `other` over `self`: its levels replace these (a global level of `other` also replaces
    /// the per-package levels of `self` for that code), its switches add to them.
    pub fn merge(&mut self, other: LintConfig) {
        for levels in self.packages.values_mut() {
            levels.retain(|code, _| !other.lints.contains_key(code));
        }
        self.lints.extend(other.lints);
        for (p, levels) in other.packages {
            self.packages.entry(p).or_default().extend(levels);
        }
        self.olm_v1 |= other.olm_v1;
        self.deny_warnings |= other.deny_warnings;
        #[cfg(feature = "bundles")]
        self.bundles.extend(other.bundles);
    }

    /// Read a configuration file (YAML or JSON) named `path`; every problem is a located
    /// `lint-config-invalid` error.
    pub fn from_file(path: &str, bytes: &[u8]) -> Result<LintConfig, Vec<Diagnostic>> {
        let mut reader = Reader { path, problems: Vec::new() };
        let mut config = LintConfig::default();
        for doc in read_documents(path, bytes) {
            match doc {
                Ok(doc) => {
                    if let Some(node) = doc.value {
                        reader.document(&node, &mut config);
                    }
                }
                Err(mut d) => {
                    d.code = Code::LintConfigInvalid;
                    reader.problems.push(d);
                }
            }
        }
        if reader.problems.is_empty() {
            Ok(config)
        } else {
            Err(reader.problems)
        }
    }
}

/// Reads configuration documents, collecting problems.
struct Reader<'a> {
    path: &'a str,
    problems: Vec<Diagnostic>,
}

impl Reader<'_> {
    fn problem(&mut self, node_pos: crate::declcfg::Pos, pointer: String, message: String) {
        let location = Location { file: self.path.to_string(), line: node_pos.line, column: node_pos.column, pointer };
        self.problems.push(Diagnostic::error(Code::LintConfigInvalid, message, location));
    }

    fn object<'n>(&mut self, node: &'n Node, pointer: &str) -> &'n [Member] {
        if let Value::Object(members) = &node.value {
            return members;
        }
        if node.value != Value::Null {
            self.problem(node.pos, pointer.to_string(), format!("expected a mapping, found {}", node.kind_name()));
        }
        &[]
    }

    fn document(&mut self, node: &Node, config: &mut LintConfig) {
        for m in self.object(node, "") {
            let pointer = format!("/{}", m.key);
            match m.key.as_str() {
                "lints" => config.lints.extend(self.levels(&m.value, &pointer)),
                "packages" => {
                    for p in self.object(&m.value, &pointer) {
                        let levels = self.levels(&p.value, &format!("{pointer}/{}", p.key));
                        config.packages.entry(p.key.to_string()).or_default().extend(levels);
                    }
                }
                "olmV1" => config.olm_v1 = self.boolean(&m.value, &pointer),
                "denyWarnings" => config.deny_warnings = self.boolean(&m.value, &pointer),
                #[cfg(feature = "bundles")]
                "bundles" => config.bundles = self.strings(&m.value, &pointer),
                #[cfg(not(feature = "bundles"))]
                "bundles" => {}
                other => self.problem(
                    m.key_pos,
                    pointer.clone(),
                    format!("unknown key {other:?} (expected lints, packages, olmV1, denyWarnings, bundles)"),
                ),
            }
        }
    }

    fn boolean(&mut self, node: &Node, pointer: &str) -> bool {
        match node.value {
            Value::Bool(b) => b,
            _ => {
                self.problem(
                    node.pos,
                    pointer.to_string(),
                    format!("expected true or false, found {}", node.kind_name()),
                );
                false
            }
        }
    }

    #[cfg(feature = "bundles")]
    fn strings(&mut self, node: &Node, pointer: &str) -> Vec<String> {
        let Value::Array(items) = &node.value else {
            self.problem(
                node.pos,
                pointer.to_string(),
                format!("expected a list of paths, found {}", node.kind_name()),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match &item.value {
                Value::String(s) => out.push(s.to_string()),
                _ => self.problem(
                    item.pos,
                    format!("{pointer}/{i}"),
                    format!("expected a path, found {}", item.kind_name()),
                ),
            }
        }
        out
    }

    fn levels(&mut self, node: &Node, pointer: &str) -> BTreeMap<Code, Level> {
        let mut out = BTreeMap::new();
        for m in self.object(node, pointer) {
            let pointer = format!("{pointer}/{}", m.key);
            let code = lint_code(&m.key).map_err(|e| self.problem(m.key_pos, pointer.clone(), e.to_string()));
            // YAML 1.1 reads a bare `off` as false.
            let lvl = match &m.value.value {
                Value::String(s) => level(s).map_err(|e| e.to_string()),
                Value::Bool(false) => Ok(Level::Off),
                _ => Err(format!("expected off, note, warning or error, found {}", m.value.kind_name())),
            }
            .map_err(|e| self.problem(m.value.pos, pointer.clone(), e));
            if let (Ok(code), Ok(lvl)) = (code, lvl) {
                out.insert(code, lvl);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<LintConfig, Vec<String>> {
        LintConfig::from_file(".olm-catalog.yaml", text.as_bytes())
            .map_err(|ds| ds.iter().map(|d| format!("{}: {}", d.location, d.message)).collect())
    }

    #[test]
    fn levels_globally_and_per_package() {
        let c = read(
            "lints:\n  z-stream-gap: warning\n  head-not-highest: error\n  stranded-entry: off\npackages:\n  foo:\n    head-not-highest: note\nolmV1: true\n",
        )
        .unwrap();
        assert_eq!(c.level(Code::ZStreamGap, None), Level::Warning);
        assert_eq!(c.level(Code::StrandedEntry, Some("bar")), Level::Off);
        assert_eq!(c.level(Code::HeadNotHighest, Some("bar")), Level::Error);
        assert_eq!(c.level(Code::HeadNotHighest, Some("foo")), Level::Note);
        assert_eq!(c.level(Code::ReplacesSkipped, Some("foo")), Level::Warning);
        assert!(c.olm_v1 && !c.deny_warnings);
    }

    #[test]
    fn unconfigured_lints_take_their_default_level() {
        let c = LintConfig::default();
        assert_eq!(c.level(Code::ZStreamGap, Some("foo")), Level::Note);
        assert_eq!(c.level(Code::UnreachableEntry, None), Level::Note);
        assert_eq!(c.level(Code::StrandedEntry, None), Level::Warning);
    }

    #[test]
    fn json_is_read_too() {
        let c = read(r#"{"lints": {"z-stream-gap": "off"}, "denyWarnings": true}"#).unwrap();
        assert_eq!(c.level(Code::ZStreamGap, None), Level::Off);
        assert!(c.deny_warnings);
    }

    #[test]
    fn problems_are_located() {
        let errors =
            read("lints:\n  duplicate-bundle: off\n  no-such-lint: warning\n  z-stream-gap: loud\nolmv1: true\n")
                .unwrap_err();
        assert_eq!(
            errors,
            [
                ".olm-catalog.yaml:2:3: duplicate-bundle is one of opm validate's errors, not a lint: it cannot be configured (only lints can be turned off or re-levelled)",
                ".olm-catalog.yaml:3:3: unknown lint \"no-such-lint\" (see docs/diagnostics.md)",
                ".olm-catalog.yaml:4:17: unknown level \"loud\" (expected off, note, warning or error)",
                ".olm-catalog.yaml:5:1: unknown key \"olmv1\" (expected lints, packages, olmV1, denyWarnings, bundles)",
            ]
        );
        assert_eq!(read("lints: [a]\n").unwrap_err(), [".olm-catalog.yaml:1:8: expected a mapping, found array"]);
    }

    #[test]
    #[cfg(feature = "bundles")]
    fn bundles_are_paths_as_written() {
        let c = read("bundles:\n- ../catalog\n- bundles/a.yaml\n").unwrap();
        assert_eq!(c.bundles, ["../catalog", "bundles/a.yaml"]);
        assert_eq!(
            read("bundles: x\n").unwrap_err(),
            [".olm-catalog.yaml:1:10: expected a list of paths, found string"]
        );
        assert_eq!(read("bundles: [1]\n").unwrap_err(), [".olm-catalog.yaml:1:11: expected a path, found number"]);
    }

    #[test]
    #[cfg(not(feature = "bundles"))]
    fn bundles_are_accepted_and_ignored_without_the_feature() {
        assert_eq!(read("bundles: [../catalog]\n").unwrap(), LintConfig::default());
    }

    #[test]
    fn command_line_settings_override_the_file() {
        let mut c = read("lints:\n  z-stream-gap: error\npackages:\n  foo:\n    head-not-highest: off\n").unwrap();
        let mut cli = LintConfig::default();
        cli.set("z-stream-gap=off").unwrap();
        cli.set(" head-not-highest = error ").unwrap();
        c.merge(cli);
        assert_eq!(c.level(Code::ZStreamGap, None), Level::Off);
        assert_eq!(c.level(Code::HeadNotHighest, None), Level::Error);
        assert_eq!(c.level(Code::HeadNotHighest, Some("foo")), Level::Error);
        assert_eq!(cli_error("z-stream-gap"), "\"z-stream-gap\" is not code=level");
        assert_eq!(
            cli_error("invalid-image=off").split(':').next(),
            Some("invalid-image is one of opm validate's errors, not a lint")
        );
    }

    fn cli_error(s: &str) -> String {
        LintConfig::default().set(s).unwrap_err().to_string()
    }
}
